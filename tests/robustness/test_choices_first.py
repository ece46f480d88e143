"""One allowed pick, asked lazily, is the listing's: ``first_allowed`` (and ``SkillTest.first``)
returns exactly the first name of an order that ``seat_choices`` lists among the skill's targets,
and ``first_vote`` (``VoteTest.first``) the first that ``vote_choices`` lists — None where the
listing has none of them. The simulator's ``random`` policy picks with them (a uniformly random
order: a uniform pick of the allowed), so what it sends is what the listing offers.

Held at every seat before each phase is resolved, in simulated games of the four shipped boards,
for random orders (permutations of who may be named, and lists with repeats, the dead and names
nobody holds); for one-target skills with and without args and for skills of several targets
(m217's 芬芳 and 异端: a target allowed as part of a choice of several)."""

from __future__ import annotations

import random

from bansha.engine.choices import first_allowed, first_vote, seat_choices, skill_tests, vote_choices
from bansha.engine.engine import Game
from bansha.engine.model import ResolveEvent
from bansha_sim.play import play_game
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

SEATS = {"qisha-xia": 20, "m217": 14, "light-shadow": 12, "mafia-basic": 12}
NOBODY = "无此人"


def _orders(rnd: random.Random, names: list[str]) -> list[str]:
    """An order of names: a permutation of them, or a short list with repeats and a stranger.
    (Drawn from a source hypothesis seeds: hundreds of orders a game overflow its own buffer.)"""
    if rnd.random() < 0.5:
        return rnd.sample(names, len(names))
    return [rnd.choice([*names, NOBODY]) for _ in range(rnd.randrange(7))]


def _compare(rnd: random.Random, board: str, seed: int, policy: str = "random", day_limit: int = 3) -> dict[str, int]:
    """Replay a simulated game; before each resolve ask, at every seat, each skill and the vote
    in a drawn order. Returns how many of each kind were compared."""
    r = play_game(board, SEATS[board], seed, policy, day_limit=day_limit, keep=True)
    g = Game(r["setup"])
    seen = {"plain": 0, "args": 0, "several": 0, "found": 0, "votes": 0}
    for ev in [*r["events"], None]:
        if ev is None or isinstance(ev, ResolveEvent):
            if g.winner is not None:
                break
            everyone = list(g.players)
            for name in everyone:
                listed = {c.skill: c.targets for c in seat_choices(g, name)}
                for test in skill_tests(g, name):
                    skill = test.skill.name
                    order = _orders(rnd, everyone)
                    want = next((t for t in order if t in listed.get(skill, ())), None)
                    assert first_allowed(g, name, skill, order) == want, (board, seed, g.label, name, skill, order)
                    # asked on the test itself, after it answered one order: the same answer
                    assert test.first(order) == want
                    kind = "several" if test.hi > 1 else "args" if test.declared else "plain"
                    seen[kind] += 1
                    seen["found"] += want is not None
                votes = vote_choices(g, name)
                order = _orders(rnd, [*everyone, g.manifest.vote.abstain])
                want = next((t for t in order if t in (votes or ())), None)
                assert first_vote(g, name, order) == want, (board, seed, g.label, name, order)
                seen["votes"] += votes is not None
        if ev is not None:
            g.apply(ev)
    return seen


# no shrinking: a failure names the board, the seed, the phase, the seat and the order already
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)


@settings(max_examples=6, deadline=None, derandomize=True, phases=NO_SHRINK, suppress_health_check=list(HealthCheck))
@given(board=st.sampled_from(sorted(SEATS)), seed=st.integers(0, 10_000), orders=st.integers(0, 2**32))
def test_the_first_allowed_is_the_first_the_listing_lists(board, seed, orders):
    seen = _compare(random.Random(orders), board, seed)
    assert seen["found"] > 0 or seen["votes"] > 0, (board, seed, seen)


@settings(max_examples=2, deadline=None, derandomize=True, phases=NO_SHRINK, suppress_health_check=list(HealthCheck))
@given(orders=st.integers(0, 2**32))
def test_every_board_and_every_kind_of_skill(orders):
    """Each shipped board, and the kinds of skill hypothesis may not draw: one target with args
    (qisha-xia's 杀人 --arg reflect), several targets (m217 seeds 2 and 3 deal 芬芳 and 异端)."""
    total: dict[str, int] = {}
    for board, seed in (("qisha-xia", 1), ("light-shadow", 1), ("mafia-basic", 1), ("m217", 2), ("m217", 3)):
        seen = _compare(random.Random(orders), board, seed)
        for k, v in seen.items():
            total[k] = total.get(k, 0) + v
    assert total["plain"] > 20 and total["args"] > 20 and total["several"] >= 2 and total["found"] > 20 and total["votes"] > 100, total
