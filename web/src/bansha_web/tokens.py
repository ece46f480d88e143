"""Login tokens: the director's and one per seat. Only their SHA-256 hashes are kept, in the
store's ``meta`` table (``Store.get_meta``/``set_meta``), so every server process on one
store, on one machine or several, shares them; no schema change (docs/web.md).

A token is 32 bytes from ``secrets`` (256 bits), sent as URL-safe base64. A player's token
names (game, player) on the server side; nothing the browser sends names a seat.

Keys: ``web.director.<hash>`` → the director's name (``*``: the store's owner, every game;
"1" from before names: the owner); ``web.directors.<name>`` → that director's hashes (to revoke
them); ``web.owner.<game>`` → the director who created the game; ``web.token.<hash>`` → ``[game, name]`` (JSON);
``web.seat.[game, name]`` → the seat's current hash. A token counts only while its seat
still points back at it: two "new link"s of one seat racing in two processes leave one link.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets

#: the director's name of the store's owner: opens every game of the store
OWNER = "*"


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

    def new_director(self, name: str = OWNER) -> str:
        """A new login link for the director ``name`` (``*``: the store's owner, who opens every
        game; any other name opens only the games that director created)."""
        token = new_token()
        h = digest(token)
        index = f"web.directors.{name}"
        known = json.loads(self.store.get_meta([index]).get(index, "[]"))
        self.store.set_meta({f"web.director.{h}": name, index: json.dumps([*known, h])})
        return token

    def revoke_director(self, name: str) -> int:
        """Every login link of the director ``name`` stops working (at once in every process:
        the check asks the store). Returns how many there were."""
        index = f"web.directors.{name}"
        known = json.loads(self.store.get_meta([index]).get(index, "[]"))
        self.store.set_meta({index: None, **{f"web.director.{h}": None for h in known}})
        return len(known)

    def director(self, token: str | None) -> str | None:
        """The name of the director whose link ``token`` is (``*`` the store's owner), or None.
        Looked up by the token's hash: the time the lookup takes says nothing about any stored
        token (an attacker cannot steer a hash)."""
        if not token or len(token) > 200:
            return None
        key = f"web.director.{digest(token)}"
        value = self.store.get_meta([key]).get(key)
        if value is None:
            return None
        return OWNER if value == "1" else value  # "1": a link made before directors had names

    def is_director(self, token: str | None) -> bool:
        return self.director(token) is not None

    # ------------------------------------------------------------------ whose game

    def set_owner(self, game: str, name: str) -> None:
        self.store.set_meta({f"web.owner.{game}": name})

    def owners(self, games: list[str]) -> dict[str, str]:
        """The director who created each game in the console (a game made by the CLI has none:
        only the store's owner opens it)."""
        got = self.store.get_meta([f"web.owner.{g}" for g in games])
        return {g: got[f"web.owner.{g}"] for g in games if f"web.owner.{g}" in got}

    def may_open(self, director: str, game: str) -> bool:
        return director == OWNER or self.owners([game]).get(game) == director

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
