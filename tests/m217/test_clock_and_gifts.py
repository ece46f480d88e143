"""钟 and 奇迹商人 beyond what a scenario file can state: the card stays shown after the rewind
(the public view), and a dead holder is offered only the skill it may use after leaving."""

from pathlib import Path

import pytest
from bansha.authoring import scenario
from bansha.engine.model import ActEvent, GameError, ResolveEvent
from bansha.show.views import player_view

M217 = Path(__file__).parents[1] / "scenarios" / "m217"


def test_the_clock_stays_revealed_after_turning_back():
    """> PS：发动者本身不会因为回溯重新盖伏身份牌。"""
    game = scenario.run_file(M217 / "080-clock-dawn.toml")
    assert game.player("己").alive and game.player("己").data["m217.revealed"]
    views = [v for v in game.hook.bansha_game_view(game=game) if v]
    assert {"已公开身份": ["己：钟"]} in views


def test_a_dead_clock_is_offered_its_skill_only_in_its_window():
    """> 钟出局或游戏结束时 … [晨曦][黄昏]: the first dawn or dusk after leaving, not later."""
    sc = scenario.load(M217 / "080-clock-dawn.toml")
    sc.phases = sc.phases[:2]  # 己 is killed in night 2
    game = scenario.run(sc, M217)
    offered = player_view(game, "己")["you"].get("choices", [])
    assert game.label == "dawn 2" and [(c["skill"], c["uses"]) for c in offered] == [("时光倒流", 1)]
    game.apply(ResolveEvent(phase="dawn 2"))
    game.apply(ResolveEvent(phase="noon 2"))
    with pytest.raises(GameError, match="只能在钟刚出局或游戏结束时发动"):
        game.apply(ActEvent(phase="dusk 3", actor="己", skill="时光倒流", targets=["甲"]))
