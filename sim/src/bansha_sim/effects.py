"""``bansha simulate BOARD --role-effects``: what each role is worth to each camp (docs/simulate.md
"Role effects").

A role's effect on a camp is the camp's win rate with the role dealt minus its rate when the role
is replaced by its camp's plain role (``plain_roles``: a role of the camp with no skill), on the
same seeds (``--vary role:OLD=NEW``'s edit, ``bansha_sim.boards``): the seeds on which the role is
not dealt play the same game twice and count 0; the others carry the effect. Its interval is the
paired one of ``stats.paired`` (exact on the discordant seeds). Beside it, how often each of the
role's skills was used in the board's own games (``stats.skill_uses``: by the role its sender was dealt).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .boards import manifest_of
from .stats import paired, skill_uses


def table_roles(manifest, seats: int) -> list[str]:
    """The roles the table of ``seats`` deals (its fixed roles, then its pools'), each once."""
    table = next((t for t in manifest.tables if t.seats == seats), None)
    if table is None:
        return []
    out: list[str] = []
    for r in [*table.fixed, *(r for p in table.pools for r in p.roles)]:
        if r not in out:
            out.append(r)
    return out


def plain_roles(ruleset, dealt: list[str]) -> dict[str, str]:
    """Each camp's plain role: a role of the camp with no skill (平民, 村民), the one the table
    deals where there are several, else the ruleset's first. A camp without one has none."""
    out: dict[str, str] = {}
    for r in ruleset.roles.values():
        if r.camp and not r.skills and (r.camp not in out or (r.name in dealt and out[r.camp] not in dealt)):
            out[r.camp] = r.name
    return out


def weighed_roles(board, seats: int) -> list[tuple[str, str]]:
    """The roles ``--role-effects`` weighs, each with the plain role it is replaced by: every
    role the table deals that is not its camp's plain role, where the camp has one."""
    from bansha.engine.registry import ruleset_for

    m = manifest_of(board)
    rs = ruleset_for(m)
    dealt = table_roles(m, seats)
    plain = plain_roles(rs, dealt)
    out = []
    for role in dealt:
        spec = rs.roles.get(role)
        into = plain.get(spec.camp) if spec is not None and spec.camp else None
        if into is not None and into != role:
            out.append((role, into))
    return out


def role_effects(board, seats: int, base: list[dict], camps: list[str],
                 run: Callable[..., list[dict]], only: set[str] | None = None) -> list[dict[str, Any]]:
    """For each of ``weighed_roles`` (those in ``only``, if given): its effect on each camp
    (``diff``, ``low``, ``high``: the paired difference, with the role − replaced, 95 %) and its
    skills' uses in ``base`` (the board's own records). ``run(board)`` plays the replaced board
    on the same seeds."""
    from bansha.engine.registry import ruleset_for

    rs = ruleset_for(manifest_of(board))
    uses = skill_uses(base)
    seats_dealt: dict[str, int] = {}
    for r in base:
        for role, *_ in r["players"]:
            seats_dealt[role] = seats_dealt.get(role, 0) + 1
    out = []
    for role, into in weighed_roles(board, seats):
        if only is not None and role not in only:
            continue
        spec = rs.roles[role]
        edit = (f"role:{role}", into)
        recs = run((board, (edit,)) if isinstance(board, str) else (board[0], (*board[1], edit)))
        out.append({
            "role": role, "alias": spec.alias or role, "camp": spec.camp, "replaced_by": into,
            "dealt": seats_dealt.get(role, 0),
            # paired(a, b) is b − a: the board with the role minus the board without it
            "effects": {c: paired(recs, base, c) for c in camps},
            "skills": {s.name: uses.get(role, {}).get(s.name, {"uses": 0, "per_game": 0.0, "games": 0})
                       for s in spec.skills},
        })
    return out
