"""Boards to compare: a ruleset (an id or a manifest file) with edits of its tables, and a deal
that couples boards.

**Edits** (``--vary``, ``bansha balance --knob``): a key and a value, each applied to every
table of the manifest —

- ``pool:NAME`` = ``+R1+R2-R3``: roles added to / removed from the pool NAME ("" leaves it);
- ``draw:NAME`` = N: the pool NAME draws N roles;
- ``fixed:ROLE`` = N: N copies of ROLE dealt as is (0 removes it);
- ``role:OLD`` = NEW: OLD replaced by NEW wherever the table deals it (fixed roles, pools).

A board is ``(ref, edits)``, hashable, so that a worker process (or a Ray task) builds the same
manifest from it (``manifest_of``).

**The coupled deal** (``coupled_deal``). ``bansha.engine.deal.deal`` draws with one random stream, so
two boards whose pools differ by one role deal every seat of the same seed differently. The
simulator deals instead with a random key per role, per card and per seat, each a hash of the
seed and the role's name, so that what two boards share is dealt alike:

- a pool draws the ``draw`` roles of smallest key (hash of seed, pool, role and the attempt): a
  uniform sample; two pools that share roles draw the same ones unless a role only one of them
  holds has a key among the smallest;
- the deal is drawn again (a new attempt, new keys) while a constraint fails: uniform over the
  deals that hold, as ``draw_roles``; ``replace_from`` turns the pool's drawn role of smallest
  key (another hash) into the role;
- each drawn role takes a slot of its pool, the first free one in its own sequence of uniform
  draws (``bansha_sim.draws.Draws`` seeded by seed, pool and role); the slots (a fixed role's
  copy, a pool's draw, a camp's card where the table deals by camp) take seats one after the
  other in a fixed order, each the first seat still free in its own sequence of draws (seeded by
  seed and slot). The law of the assignment does not change when the
  seats are renamed, so every assignment of the cards is equally likely, as in ``deal``. Two
  boards with the same slots give each slot the same seat; a role both draw into a pool takes
  the same slot unless one drawn before it on one board only took it (m217 with two roles taken
  out of 弱神: the deal differs in 47 % of the seeds, in 1.8 seats when it does).
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from functools import lru_cache
from typing import Any

import msgspec
from bansha.engine.deal import holds
from bansha.engine.model import GameError, Manifest, PlayerSetup, Pool, Table

from .draws import Draws

EDIT_KINDS = ("pool", "draw", "fixed", "role")
_TOKEN = re.compile(r"([+-])([^+-]+)")


def is_edit(key: str) -> bool:
    return key.partition(":")[0] in EDIT_KINDS and ":" in key


def _key(*parts) -> int:
    return int.from_bytes(hashlib.blake2b("/".join(map(str, parts)).encode(), digest_size=8).digest(), "big")


def _edit_table(t: Table, kind: str, name: str, value: Any) -> Table:
    pools = [msgspec.structs.replace(p, roles=list(p.roles)) for p in t.pools]
    fixed = dict(t.fixed)
    if kind == "pool":
        pool = next((p for p in pools if p.name == name), None)
        if pool is None:
            raise GameError(f"--vary pool:{name}：桌型没有牌池 {name}")
        text = str(value or "")
        toks = _TOKEN.findall(text)
        if "".join(s + r for s, r in toks) != text.replace(" ", ""):
            raise GameError(f"pool:{name}={value}：应为 +角色-角色…")
        for sign, role in toks:
            if sign == "+" and role not in pool.roles:
                pool.roles.append(role)
            elif sign == "-":
                if role not in pool.roles:
                    raise GameError(f"pool:{name}：牌池没有 {role}")
                pool.roles.remove(role)
    elif kind == "draw":
        pool = next((p for p in pools if p.name == name), None)
        if pool is None:
            raise GameError(f"draw:{name}：桌型没有牌池 {name}")
        pool.draw = int(value)
    elif kind == "fixed":
        n = int(value)
        if n:
            fixed[name] = n
        else:
            fixed.pop(name, None)
    elif kind == "role":
        new = str(value)
        if name in fixed:
            fixed[new] = fixed.get(new, 0) + fixed.pop(name)
        for p in pools:
            p.roles = [new if r == name else r for r in p.roles]
    for p in pools:
        if p.draw > len(p.roles):
            raise GameError(f"牌池 {p.name} 只有 {len(p.roles)} 个角色，不能抽 {p.draw} 个")
    return msgspec.structs.replace(t, pools=[Pool(name=p.name, roles=p.roles, draw=p.draw) for p in pools],
                                   fixed=fixed)


def edit_manifest(m: Manifest, edits: tuple[tuple[str, Any], ...]) -> Manifest:
    """The manifest with ``edits`` applied to its tables; roles it names must be the ruleset's."""
    if not edits:
        return m
    tables = list(m.tables)
    # the ruleset's roles: the plugins' and the board's own homebrew roles
    known = {*m.roles, *(h.get("name") for h in m.homebrew)}
    for key, value in edits:
        kind, _, name = key.partition(":")
        for role in ([name] if kind in ("fixed", "role") else []) + (
                [str(value)] if kind == "role" else [r for _, r in _TOKEN.findall(str(value or ""))] if kind == "pool" else []):
            if role not in known:
                raise GameError(f"{key}={value}：规则 {m.id} 没有角色 {role}")
        tables = [_edit_table(t, kind, name, value) for t in tables]
    return msgspec.structs.replace(m, tables=tables)


@lru_cache(maxsize=64)
def manifest_of(board) -> Manifest:
    """A board: a ruleset reference, or ``(ref, edits)``."""
    from bansha.engine.registry import find_manifest

    if isinstance(board, str):
        return find_manifest(board)
    ref, edits = board
    return edit_manifest(find_manifest(ref), tuple(edits))


def label(board) -> str:
    if isinstance(board, str):
        return board
    ref, edits = board
    return ref + "".join(f" {k}={v}" for k, v in edits)


def _first_free(n: int, taken: list[bool], *card) -> int:
    """The first free place of ``n`` in the card's own sequence of uniform draws (a source seeded
    by the card): uniform over the free places, and the same place on two boards where the same
    places are free."""
    draws = Draws("/".join(map(str, card)))
    while True:
        i = draws.below(n)
        if not taken[i]:
            taken[i] = True
            return i


def coupled_slots(table: Table, seed: int) -> dict[tuple, str]:
    """Each slot of the table (a fixed role's copy, a pool's draw) with the role it deals."""
    for attempt in range(10_000):
        slots: dict[tuple, str] = {("fixed", r, k): r for r, n in table.fixed.items() for k in range(n)}
        drawn: dict[str, list[str]] = {}
        for pool in table.pools:
            keyed = sorted(pool.roles, key=lambda r, p=pool.name: _key("pool", seed, attempt, p, r))
            drawn[pool.name] = keyed[:pool.draw]
            taken = [False] * pool.draw
            for r in drawn[pool.name]:  # each drawn role to a slot of the pool: its first free one
                slots[("pool", pool.name, _first_free(pool.draw, taken, "slot", seed, pool.name, r))] = r
        roles = list(slots.values())
        if all(holds(c, roles) for c in table.constraints):
            for c in table.constraints:
                if c.replace_from and c.role in roles:
                    victim = min(drawn[c.replace_from], key=lambda r: _key("replace", seed, attempt, c.role, r))
                    slot = next(k for k, v in slots.items() if k[:2] == ("pool", c.replace_from) and v == victim)
                    slots[slot] = c.role
            return slots
    raise GameError("constraints")


def coupled_deal(manifest: Manifest, names: list[str], seed: int) -> list[PlayerSetup]:
    from bansha.engine.deal import number_cards

    table = next((t for t in manifest.tables if t.seats == len(names)), None)
    if table is None:
        raise GameError(f"no table of {len(names)}")
    if table.camps:
        cards = Counter()
        slots = {}
        for camp, roles in table.camps.items():
            for role in roles:
                slots[("camp", camp, role, cards[(camp, role)])] = (role, camp)
                cards[(camp, role)] += 1
    else:
        slots = {k: (r, "") for k, r in coupled_slots(table, seed).items()}
    if len(slots) != len(names):
        raise GameError(f"table of {table.seats}: {len(slots)} cards")
    n = len(names)
    taken = [False] * n
    seat_of: dict[int, tuple[str, str]] = {}
    for slot in sorted(slots):  # any fixed order keeps the deal fair; a sorted one is the same on both boards
        seat_of[_first_free(n, taken, "seat", seed, *slot)] = slots[slot]
    setups = [PlayerSetup(name=names[s], role=seat_of[s][0], camp=seat_of[s][1]) for s in range(n)]
    number_cards(table, setups)
    return setups
