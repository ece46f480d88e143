"""Dealing roles to seats from a manifest table, with the game's seed."""

from __future__ import annotations

import random
from collections import Counter

from bansha.engine.model import GameError, PlayerSetup, Table
from bansha.engine.registry import Ruleset
from bansha.text.messages import say


def table_for(ruleset: Ruleset, seats: int) -> Table:
    for t in ruleset.manifest.tables:
        if t.seats == seats:
            return t
    sizes = "/".join(str(t.seats) for t in ruleset.manifest.tables)
    raise GameError(ruleset.msg("no_table", ruleset=ruleset.manifest.id, seats=seats, sizes=sizes))


def draw_roles(table: Table, rng: random.Random, lang: str | None = None) -> list[str]:
    """Fixed roles plus each pool's draw, retried until every constraint holds."""
    for _ in range(10_000):
        roles = [r for r, n in table.fixed.items() for _ in range(n)]
        drawn: dict[str, list[str]] = {}
        for pool in table.pools:
            drawn[pool.name] = rng.sample(pool.roles, pool.draw)
            roles += drawn[pool.name]
        if all(holds(c, roles) for c in table.constraints):
            for c in table.constraints:
                if c.replace_from and c.role in roles:
                    # "if E is dealt, one role of pool P becomes E"
                    victim = rng.choice(drawn[c.replace_from])
                    roles[roles.index(victim)] = c.role
            return roles
    raise GameError(say("constraints", lang))


def holds(c, roles: list[str]) -> bool:
    """Whether the dealt ``roles`` keep the table's constraint ``c`` (exactly one of; requires):
    the deal's check, which the simulator's coupled deal asks too."""
    if c.exactly_one and sum(roles.count(r) for r in c.exactly_one) != 1:
        return False
    if c.requires and c.role in roles and c.requires not in roles:
        return False
    return True


def deal(ruleset: Ruleset, names: list[str], seed: int) -> list[PlayerSetup]:
    if len(set(names)) != len(names):
        raise GameError(ruleset.msg("deal_twice"))
    table = table_for(ruleset, len(names))
    rng = random.Random(f"deal/{seed}")
    if table.camps:
        cards = [(role, camp) for camp, roles in table.camps.items() for role in roles]
    else:
        cards = [(role, "") for role in draw_roles(table, rng, ruleset.lang)]
    if len(cards) != len(names):
        raise GameError(ruleset.msg("table_cards", seats=table.seats, cards=len(cards)))
    rng.shuffle(cards)
    setups = []
    for name, (role, camp) in zip(names, cards, strict=True):
        setups.append(PlayerSetup(name=name, role=role, camp=camp))
    number_cards(table, setups)
    return setups


def number_cards(table: Table, setups: list[PlayerSetup]) -> None:
    """Give ``numbering`` keys (a "number" 1, 2 …) where a camp holds the role more than once."""
    for role, key in table.numbering.items():
        by_camp: dict[str, list[PlayerSetup]] = {}
        for ps in setups:
            if ps.role == role and key not in ps.setup:
                by_camp.setdefault(ps.camp, []).append(ps)
        for holders in by_camp.values():
            if len(holders) > 1:
                for i, ps in enumerate(holders, start=1):
                    ps.setup[key] = i


def mismatch(ruleset: Ruleset, table: Table, setups: list[PlayerSetup]) -> str:
    """Why a deal file's seats cannot be a deal of ``table`` ("" when they can). A deal file may
    seat any role of the ruleset (a director's own deal), but where the table deals by camp
    (each camp's cards once, as 光影传说's tables) a role of a camp is given at most as often
    as the table holds it (never one nation's card twice), and a numbered card once."""
    if table.camps:
        have = Counter((role, camp) for camp, roles in table.camps.items() for role in roles)
        got = Counter((ps.role, ps.camp or ruleset.role(ps.role).camp) for ps in setups)
        for (role, camp), n in got.items():
            if n > have[(role, camp)]:
                return ruleset.msg("deal_count", role=f"{camp}{role}", got=n, want=have[(role, camp)])
    keys = set(table.numbering.values())
    numbered = Counter((ps.role, ps.camp, str(v)) for ps in setups for k, v in ps.setup.items() if k in keys)
    for (role, _camp, number), n in numbered.items():
        if n > 1:
            return ruleset.msg("deal_numbered", role=role, number=number)
    return ""
