"""Policies: a simulated player. A policy gets a ``Seat`` — the player's own view (the same
``bansha.views.player_view`` as ``bansha status --as``), the legal choices now and a seeded
random source — and returns a ``Decision``. It never reads the game.

Policies are found in the entry-point group ``bansha.policies`` (name -> a class or factory
taking no argument), so another distribution can add a smarter one.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any


@dataclass(frozen=True)
class Choice:
    """One skill usable now: its name, how many targets (``lo``–``hi``), the players it may
    be aimed at (its declared selection range, as the thread knows who is in the game), the
    ``--arg`` keys it documents and what it does for a policy (``Skill.does``)."""

    skill: str
    lo: int
    hi: int
    candidates: tuple[str, ...]
    args: tuple[str, ...] = ()
    does: tuple[str, ...] = ()
    group: str | None = None


@dataclass
class Decision:
    """What a seat does this phase. ``actions``: (skill, [targets, …] in order of preference,
    args); the simulator submits the first the engine accepts. ``votes``: vote targets in order
    of preference (None: no vote)."""

    actions: list[tuple[str, list[list[str]], dict[str, str]]] = field(default_factory=list)
    votes: list[str] | None = None


class Seat:
    """What a policy may see: ``name``, ``view`` (the player's view, built on first use),
    ``choices`` (skills usable now), ``vote`` (the players one may vote for, None when no vote
    is taken) and ``rng`` (a random source seeded from the game's seed)."""

    def __init__(self, game, name: str, choices: list[Choice], vote: list[str] | None, rng,
                 camps: tuple[str, ...] = ()):
        self._game = game
        #: the board's camp names (public: the manifest)
        self.camps = camps
        self.name = name
        self.choices = choices
        self.vote = vote
        self.rng = rng

    @cached_property
    def view(self) -> dict[str, Any]:
        from bansha.views import player_view

        return player_view(self._game, self.name)


class Policy:
    name = "base"

    def decide(self, seat: Seat) -> Decision:  # pragma: no cover - interface
        raise NotImplementedError

    def ruling(self, seat: Seat, kind: str, question: str, answers: list[str]) -> str:
        """A director's ruling the board needs (a question's answer, a free text): the first
        answer offered, or a random one."""
        return seat.rng.choice(answers) if answers else ""


def _some(rng, pool: list[str], k: int) -> list[str]:
    return rng.sample(pool, k) if len(pool) >= k else []


class RandomPolicy(Policy):
    """Uniform over the legal choices: every usable skill on uniformly drawn targets (a refused
    draw is drawn again, so the accepted one is uniform over the accepted targets); the vote for
    a uniformly drawn player among those one may vote for."""

    name = "random"
    tries = 8

    def decide(self, seat: Seat) -> Decision:
        rng = seat.rng
        d = Decision()
        for c in seat.choices:
            pool = list(c.candidates)
            k = c.lo if c.lo == c.hi else rng.randint(c.lo, min(c.hi, len(pool)))
            options = [t for t in (_some(rng, pool, k) for _ in range(self.tries)) if t or k == 0]
            if options:
                d.actions.append((c.skill, options, {}))
        if seat.vote:
            d.votes = [rng.choice(seat.vote) for _ in range(self.tries)]
        return d


_OUT = "（出局）"


class InformedPolicy(Policy):
    """General play on the view alone: a harmful skill never on a known teammate and first on a
    player its feedback marks hostile; a helpful one on a teammate (or itself); a check on
    someone not yet named in its feedback; the vote for a player marked hostile, never for a
    teammate, and a group votes together (the same pick, made from what every member knows)."""

    name = "informed"

    def _knowledge(self, seat: Seat) -> tuple[set[str], set[str], set[str], str]:
        view = seat.view
        me = view["you"]
        mates = {m.replace(_OUT, "") for m in me.get("group", [])}
        names = [p["name"] for p in view["players"]]
        hostile: set[str] = set()
        friendly: set[str] = set()
        camp = me.get("camp") or ""
        for fb in view["feedback"]:
            text = fb["text"]
            for n in names:
                if n == seat.name or n not in text:
                    continue
                # "X是<camp>的" and the like: a camp word in a line naming one player
                tail = text.split(n, 1)[1]
                # the first camp word after the name says which side the line puts them on
                hits = sorted((tail.find(c), c) for c in seat.camps if c in tail)
                if not hits:
                    continue
                if hits[0][1] == camp:
                    friendly.add(n)
                else:
                    hostile.add(n)
        return mates, hostile - mates - friendly, friendly | mates, camp

    def decide(self, seat: Seat) -> Decision:
        rng = seat.rng
        mates, hostile, friendly, _ = self._knowledge(seat)
        named = {n for fb in seat.view["feedback"] for n in [p["name"] for p in seat.view["players"]] if n in fb["text"]}
        d = Decision()
        for c in seat.choices:
            pool = list(c.candidates)
            if "harm" in c.does:
                pool = [n for n in pool if n not in mates and n != seat.name]
                first = [n for n in pool if n in hostile]
            elif "help" in c.does:
                first = [n for n in pool if n in friendly or n == seat.name]
            elif "check" in c.does:
                pool = [n for n in pool if n not in mates and n != seat.name] or pool
                first = [n for n in pool if n not in named]
            else:
                first = []
            rest = [n for n in pool if n not in first]
            rng.shuffle(first)
            rng.shuffle(rest)
            order = first + rest
            k = c.lo
            if len(order) < k:
                continue
            options = [order[i:i + k] for i in range(0, max(1, len(order) - k + 1))][:8] if k else [[]]
            d.actions.append((c.skill, options, {}))
        if seat.vote:
            cand = [n for n in seat.vote if n not in mates and n != seat.name] or list(seat.vote)
            marked = [n for n in cand if n in hostile]
            if marked:
                d.votes = sorted(marked) + cand
            elif mates:
                # follow the group: every member ranks the candidates by the same hash
                key = seat.view["phase"] + "|" + "|".join(sorted(mates | {seat.name}))
                d.votes = sorted(cand, key=lambda n: hashlib.blake2s((key + n).encode(), digest_size=4).digest())
            else:
                d.votes = [rng.choice(cand) for _ in range(4)] + cand
        return d


def load_policy(name: str) -> Policy:
    from importlib.metadata import entry_points

    for ep in entry_points(group="bansha.policies"):
        if ep.name == name:
            return ep.load()()
    known = ", ".join(sorted(ep.name for ep in entry_points(group="bansha.policies")))
    raise ValueError(f"unknown policy {name!r} (installed: {known})")
