"""Triggers declared by the skills they need (``for_skills`` on ``bansha_phase_started`` and
``bansha_on_death``) against every implementation called, in seeded simulated games of every
board: each game is played with the engine skipping a declared implementation while nobody in
the game holds its skills, and again with ``BANSHA_ALL_CHECKS=1`` (every implementation called),
and the two records — events, winners, exits, the deal — are the same, and so is the whole
state (players, game data, feedback, announcements) after each of the game's events replayed. So a declaration that
leaves out a skill its implementation works from makes some game differ, and the calls counted
show the declared implementations both skipped and called."""

from collections import Counter
from pathlib import Path

import pytest
from bansha.engine import registry
from bansha.engine.engine import Game
from bansha_sim.play import play_game

ROOT = Path(__file__).resolve().parents[2]
HOMEBREW = str(ROOT / "examples" / "homebrew-board" / "board.toml")


def counted(monkeypatch, calls: Counter) -> None:
    """Every declared implementation of the two hooks counts its calls (the declaration kept on
    the counting function, so the engine still skips it), in every ruleset loaded from now on."""
    made = registry.FastHooks._plan

    def plan(self, hc, impls=None):
        if hc.name in registry.HELD_GATED:
            for impl in hc.get_hookimpls():
                fn = impl.function
                skills = getattr(fn, "bansha_skills", None)
                if skills is None or hasattr(fn, "counted"):
                    continue

                def call(*args, fn=fn, name=f"{impl.plugin_name}.{hc.name}"):
                    calls[name] += 1
                    return fn(*args)

                call.bansha_skills, call.counted = skills, fn
                impl.function = call
        return made(self, hc, impls)

    monkeypatch.setattr(registry.FastHooks, "_plan", plan)


def uncount() -> None:
    for rs in registry._RULESETS.values():
        for name in registry.HELD_GATED:
            for impl in getattr(rs.pm.hook, name).get_hookimpls():
                impl.function = getattr(impl.function, "counted", impl.function)
        rs.hooks.reset()


def played(monkeypatch, board, seats, seeds, policy, every: bool, calls: Counter) -> list:
    if every:
        monkeypatch.setenv("BANSHA_ALL_CHECKS", "1")
    else:
        monkeypatch.delenv("BANSHA_ALL_CHECKS", raising=False)
    for rs in registry._RULESETS.values():
        rs.hooks.reset()  # the plans read the environment when they are made
    counted(monkeypatch, calls)
    try:
        games = []
        for seed in seeds:
            record = play_game(board, seats, seed, policy, keep=True)
            # the whole state after each event of the game, replayed (a status given at a phase
            # start that no later choice read still counts)
            game, states = Game(record["setup"]), []
            for ev in record["events"]:
                game.apply(ev)
                states.append(state(game))
            games.append((record, states))
        return games
    finally:
        uncount()


def state(game) -> str:
    return repr(([game.players[n] for n in sorted(game.players)], game.data, dict(game.feedback),
                 game.announcements, game.label))


@pytest.mark.parametrize("board, seats, seeds", [
    ("m217", 14, range(10)), ("qisha-xia", 20, range(3)), ("light-shadow", 12, range(1)),
    ("mafia-basic", 10, range(3)), (HOMEBREW, 7, range(3)),
])
@pytest.mark.parametrize("policy", ["random", "informed"])
def test_declared_triggers_play_the_same_games_as_every_implementation(monkeypatch, board, seats, seeds, policy):
    gated, every = Counter(), Counter()
    skipped = played(monkeypatch, board, seats, seeds, policy, False, gated)
    called = played(monkeypatch, board, seats, seeds, policy, True, every)
    for (a, states_a), (b, states_b) in zip(skipped, called, strict=True):
        assert {k: v for k, v in a.items() if k != "setup"} == {k: v for k, v in b.items() if k != "setup"}, a["seed"]
        assert repr(a["setup"]) == repr(b["setup"])
        for i, (x, y) in enumerate(zip(states_a, states_b, strict=True)):
            assert x == y, (a["seed"], i, a["events"][i])
    if board == "m217":
        # the declared implementations were skipped in some games and called in others
        assert sum(every.values()) > sum(gated.values()) > 0, (gated, every)
    else:
        assert not every  # no declaration on these boards: nothing to skip
