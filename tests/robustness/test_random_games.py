"""Random-play soak: whole games of every ruleset played with random, legal-looking input
(``random_games.py`` beside this file says what is tried and what is checked).

Each game is determined by its ruleset and seed. The default run keeps to a modest number
of seeds (m217 most: it has the most machinery); ``BANSHA_SOAK=200`` plays 200 seeds of
m217 and a quarter as many of the other rulesets (a long local run). A failure prints the
seed, the command that replays the game and the game's log as a scenario file.
"""

from __future__ import annotations

import os
import tomllib

import pytest
from bansha.authoring import scenario

from .random_games import RandomGame, scenario_text

#: ruleset -> seeds of the default run
DEFAULT = {"m217": 36, "light-shadow": 6, "qisha-xia": 6}
SOAK = int(os.environ.get("BANSHA_SOAK", "0"))


def seeds(ref: str) -> list[int]:
    n = DEFAULT[ref]
    if SOAK:
        n = max(n, SOAK if ref == "m217" else SOAK // 4)
    return list(range(n))


CASES = [(ref, seed) for ref in DEFAULT for seed in seeds(ref)]


@pytest.mark.parametrize(("ref", "seed"), CASES, ids=[f"{r}-{s}" for r, s in CASES])
def test_a_random_game_plays_through_and_replays(ref, seed):
    rg = RandomGame(ref, seed)
    game = rg.play()  # raises SoakFailure, with the seed and the log, on a broken contract
    # the game got somewhere: phases were resolved (or it was won early: 光影传说's right guess on
    # day 0 ends it) and input was both taken and refused
    assert len(game.resolved) >= 3 or game.winner is not None, (ref, seed, game.resolved)
    assert rg.refused > 0 and any(type(ev).__name__ == "ActEvent" for ev in rg.log), (ref, seed)
    assert game.winner is not None or game.day > rg.day_limit


@pytest.mark.parametrize("ref", ["m217", "light-shadow"])
def test_a_game_log_is_a_scenario_that_replays(ref):
    """A failure offers the game's log as a scenario file: that file plays the same game."""
    rg = RandomGame(ref, 1)
    game = rg.play()
    sc = scenario.convert(tomllib.loads(scenario_text(rg, rg.log)), scenario.Scenario, "soak")
    played = scenario.run(sc)
    assert played.label == game.label and played.winner == game.winner
    assert played.announcements == game.announcements and played.feedback == game.feedback
