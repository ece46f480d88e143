"""Login tokens: the director's and one per seat. Only their SHA-256 hashes are kept, in a
JSON file beside the game database (the store's schema belongs to the store: docs/web.md).

A token is 32 bytes from ``secrets`` (256 bits), sent as URL-safe base64. A player's token
names (game, player) on the server side; nothing the browser sends names a seat.
"""

from __future__ import annotations

import fcntl
import hashlib
import hmac
import json
import os
import secrets
import threading
from pathlib import Path


def new_token() -> str:
    return secrets.token_urlsafe(32)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def default_path(db: str | None) -> Path:
    """Beside a SQLite file (``games.db`` → ``games.db.web-tokens.json``); for a server URL,
    in the user data directory (several processes on one machine share it)."""
    if db and "://" not in db:
        return Path(db + ".web-tokens.json")
    if db and db.startswith("sqlite:///"):
        return Path(db.removeprefix("sqlite:///") + ".web-tokens.json")
    from bansha.store import default_path as store_default

    return store_default().parent / "web-tokens.json"


class Tokens:
    """The token file: ``{"director": [hash…], "players": {hash: [game, name]}}``. Re-read
    when another process changed it (its mtime); written whole under an exclusive lock."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._lock = threading.Lock()
        self._mtime: int | None = None
        self._data: dict = {"director": [], "players": {}}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._reload()

    def _reload(self) -> None:
        try:
            st = self.path.stat()
        except FileNotFoundError:
            self._data, self._mtime = {"director": [], "players": {}}, None
            return
        if st.st_mtime_ns == self._mtime:
            return
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        self._data = {"director": list(data.get("director", [])), "players": dict(data.get("players", {}))}
        self._mtime = st.st_mtime_ns

    def _update(self, change) -> None:
        with self._lock, open(self.path.with_suffix(self.path.suffix + ".lock"), "a") as lockf:
            fcntl.flock(lockf, fcntl.LOCK_EX)
            self._mtime = None
            self._reload()
            change(self._data)
            tmp = self.path.with_suffix(self.path.suffix + f".{os.getpid()}.tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(self._data, f, ensure_ascii=False)
            os.replace(tmp, self.path)
            self._mtime = None
            self._reload()

    # -------------------------------------------------------------------- director

    def new_director(self) -> str:
        token = new_token()
        self._update(lambda d: d["director"].append(digest(token)))
        return token

    def is_director(self, token: str | None) -> bool:
        if not token:
            return False
        with self._lock:
            self._reload()
            hashes = list(self._data["director"])
        mine = digest(token)
        ok = False
        for h in hashes:  # every hash compared, in constant time
            ok |= hmac.compare_digest(h, mine)
        return ok

    # --------------------------------------------------------------------- players

    def new_player(self, game: str, name: str) -> str:
        """A new link for (game, name); any older link of that seat stops working."""
        token = new_token()

        def change(d):
            d["players"] = {h: seat for h, seat in d["players"].items() if seat != [game, name]}
            d["players"][digest(token)] = [game, name]

        self._update(change)
        return token

    def new_players(self, game: str, names: list[str]) -> dict[str, str]:
        tokens = {n: new_token() for n in names}

        def change(d):
            d["players"] = {h: seat for h, seat in d["players"].items() if seat[0] != game or seat[1] not in tokens}
            for n, t in tokens.items():
                d["players"][digest(t)] = [game, n]

        self._update(change)
        return tokens

    def player(self, token: str | None) -> tuple[str, str] | None:
        """(game, name) of a player's token, or None. The lookup is by the token's hash, so
        its time says nothing about any stored token."""
        if not token or len(token) > 200:
            return None
        with self._lock:
            self._reload()
            seat = self._data["players"].get(digest(token))
        return (seat[0], seat[1]) if seat else None

    def has_link(self, game: str, name: str) -> bool:
        with self._lock:
            self._reload()
            return [game, name] in self._data["players"].values()
