"""The engine's shortcuts on its hot path answer as the plain definitions do (issue 33, pass 4):
a compiled win rule (``builtins.win_holds``) as the rule read with ``matches``, ``Ruleset.role``
by its index as the first role of that name or alias, ``Game.skills_of`` of a player with no
group and nothing acquired as ``Ruleset.skills_for``."""

import random

import pytest
from bansha.engine.builtins import compile_selectors, win_holds
from bansha.engine.engine import GameError, matches
from bansha.engine.model import Player, Selector
from bansha.engine.registry import find_manifest, ruleset_for

CAMPS, ROLES, GROUPS = ["村民", "狼人", "三方"], ["平民", "狼人", "预言家", "情侣"], ["狼队", "情侣"]


def by_definition(players, camp, require_alive, selectors) -> bool:
    """The WinRule as its docstring says it: ``camp`` alive (if required) and every selector's
    players out (at least ``min_out`` of them, when given)."""
    if require_alive and not any(p.alive and p.camp == camp for p in players):
        return False
    for sel in selectors:
        chosen = [p for p in players if matches(p, sel)]
        out = sum(1 for p in chosen if not p.alive)
        if out < (sel.min_out if sel.min_out is not None else len(chosen)):
            return False
    return True


def test_a_compiled_win_rule_holds_where_the_rule_does():
    rng = random.Random(33)
    held = {True: 0, False: 0}
    for _ in range(3000):
        players = [Player(name=f"P{i}", seat=i, role=rng.choice(ROLES), camp=rng.choice(CAMPS),
                          alive=rng.random() < 0.5, groups=rng.sample(GROUPS, rng.randint(0, 2)))
                   for i in range(rng.randint(0, 8))]
        selectors = [Selector(role=rng.sample(ROLES, rng.randint(0, 2)), camp=rng.sample(CAMPS, rng.randint(0, 2)),
                              group=rng.sample(GROUPS, rng.randint(0, 1)),
                              min_out=rng.choice([None, None, 0, 1, 2, 3]))
                     for _ in range(rng.randint(0, 3))]
        camp, alive = rng.choice(CAMPS), rng.random() < 0.7
        want = by_definition(players, camp, alive, selectors)
        assert win_holds(players, camp, alive, compile_selectors(selectors)) is want, (players, selectors, camp, alive)
        held[want] += 1
    assert min(held.values()) > 300  # both answers were tried often


@pytest.mark.parametrize("board", ["m217", "qisha-xia", "light-shadow"])
def test_a_role_is_found_by_its_name_or_alias_as_the_roles_are_listed(board):
    rs = ruleset_for(find_manifest(board))
    for role in rs.roles.values():
        for name in {role.name, role.alias} - {""}:
            first = next(r for r in rs.roles.values() if name in (r.name, r.alias))
            assert rs.role(name) is first
    with pytest.raises(GameError):
        rs.role("不是任何角色")


def test_a_plain_players_skills_are_the_rulesets_table():
    from bansha.engine.engine import Game

    rs = ruleset_for(find_manifest("m217"))
    game = Game.__new__(Game)  # (skills_of reads the ruleset alone: no deal needed)
    game.ruleset = rs
    for name in rs.roles:
        plain = Player(name="P1", seat=1, role=name, camp="村民")
        assert game.skills_of(plain) is rs.skills_for(name, (), ())
        grouped = Player(name="P2", seat=2, role=name, camp="狼人", groups=["狼人"])
        assert game.skills_of(grouped) is rs.skills_for(name, ("狼人",), ())
