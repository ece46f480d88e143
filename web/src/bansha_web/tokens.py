"""Login tokens: the director's and one per seat. Only their SHA-256 hashes are kept, in the
store's ``meta`` table (``Store.get_meta``/``set_meta``), so every server process on one
store, on one machine or several, shares them; no schema change (docs/web.md).

A token is 32 bytes from ``secrets`` (256 bits), sent as URL-safe base64. A player's token
names (game, player) on the server side; nothing the browser sends names a seat.

Keys: ``web.director.<hash>`` → "1"; ``web.token.<hash>`` → ``[game, name]`` (JSON);
``web.seat.[game, name]`` → the seat's current hash. A token counts only while its seat
still points back at it: two "new link"s of one seat racing in two processes leave one link.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(32)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _seat_key(game: str, name: str) -> str:
    return "web.seat." + json.dumps([game, name], ensure_ascii=False)


class Tokens:
    """The tokens of the games of ``store``: hashes in its meta table."""

    def __init__(self, store):
        self.store = store
        #: hash -> seat: a token's seat never changes (a new link is a new token), so only
        #: whether the seat still points at it is asked of the store on each request
        self._seat_of: dict[str, tuple[str, str]] = {}

    # -------------------------------------------------------------------- director

    def new_director(self) -> str:
        token = new_token()
        self.store.set_meta({f"web.director.{digest(token)}": "1"})
        return token

    def is_director(self, token: str | None) -> bool:
        """Looked up by the token's hash: the time the lookup takes says nothing about any
        stored token (an attacker cannot steer a hash), and the value is compared in
        constant time."""
        if not token or len(token) > 200:
            return False
        key = f"web.director.{digest(token)}"
        return hmac.compare_digest(self.store.get_meta([key]).get(key, ""), "1")

    # --------------------------------------------------------------------- players

    def new_player(self, game: str, name: str) -> str:
        """A new link for (game, name); any older link of that seat stops working."""
        return self.new_players(game, [name])[name]

    def new_players(self, game: str, names: list[str]) -> dict[str, str]:
        tokens = {n: new_token() for n in names}
        seats = {n: _seat_key(game, n) for n in names}
        old = self.store.get_meta(list(seats.values()))
        changes: dict[str, str | None] = {f"web.token.{h}": None for h in old.values()}
        for n, t in tokens.items():
            h = digest(t)
            changes[f"web.token.{h}"] = json.dumps([game, n], ensure_ascii=False)
            changes[seats[n]] = h
        self.store.set_meta(changes)
        return tokens

    def player(self, token: str | None) -> tuple[str, str] | None:
        """(game, name) of a player's token, or None (unknown, revoked, malformed)."""
        if not token or len(token) > 200:
            return None
        h = digest(token)
        seat = self._seat_of.get(h)
        if seat is None:
            raw = self.store.get_meta([f"web.token.{h}"]).get(f"web.token.{h}")
            if raw is None:
                return None
            seat = self._seat_of[h] = tuple(json.loads(raw))
        game, name = seat
        current = self.store.get_meta([_seat_key(game, name)]).get(_seat_key(game, name), "")
        return (game, name) if hmac.compare_digest(current, h) else None

    def links_of(self, game: str, names: list[str]) -> dict[str, bool]:
        """Which of the seats have a link (one query)."""
        have = self.store.get_meta([_seat_key(game, n) for n in names])
        return {n: _seat_key(game, n) in have for n in names}

    def has_link(self, game: str, name: str) -> bool:
        return self.links_of(game, [name])[name]
