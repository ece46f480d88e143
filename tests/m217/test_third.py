"""占星师, 镜 and 赌徒 (group third) beyond what a scenario file can state: the rules plugin's tag
任何状态 (a change made for 赌徒), what the 赌徒 and the 镜 see of their own state, and the die in the
ruling trace."""

from pathlib import Path

import msgspec
import pytest
from bansha.authoring import scenario
from bansha.engine.model import ActEvent, GameError
from bansha.show.views import player_view
from bansha_m217_helpers import ANY_STATE

M217 = Path(__file__).parents[1] / "scenarios" / "m217"


def test_any_state_skills_are_cast_under_silence_others_are_refused():
    """> 身份属性（不是技能）：赌博技能在任何状态下都不会丢失，都可以发动。
    The rules plugin's 沉默 (and its compounds) spares a skill tagged 任何状态 at submission and
    when the night resolves; any other skill of the holder is refused."""
    sc = scenario.load(M217 / "526-gambler-any-state.toml")
    sc.phases = [sc.phases[0], msgspec.structs.replace(sc.phases[1], actions=[], resolve=False, expect=None)]
    game = scenario.run(sc, M217)
    silence = next(s for s in game.player("己").statuses if s.name == "业炎")
    assert ANY_STATE in silence.data["except_tags"]
    game.apply(ActEvent(phase=game.label, actor="己", skill="赌博"))
    game.apply(ActEvent(phase=game.label, actor="己", skill="大奖", args={"prize": "出人票"}))
    assert [a.skill for a in game.actions] == ["赌博", "大奖"]
    # the same status on another player refuses his skill (the 纵火者 burns himself)
    game.player("戊").statuses.append(silence)
    with pytest.raises(GameError, match="戊处于业炎状态，不能使用预言"):
        game.apply(ActEvent(phase=game.label, actor="戊", skill="预言", targets=["甲"]))


def test_the_die_is_in_the_ruling_trace_and_replays():
    """> 赌博[早夜] —— 游戏日夜晚，赌徒可以随机获得一个技能 — the game's seeded die, traced."""
    game = scenario.run_file(M217 / "520-gambler-kill.toml")
    rolls = [(t.phase, t.step, t.text) for t in game.trace if t.text.startswith("rolled")]
    assert rolls == [("night 1", "早夜2", "rolled 2 in 1..6"), ("night 2", "早夜2", "rolled 2 in 1..6")]


def test_the_gamblers_extra_vote_is_the_directors_secret():
    """> 骰子1，获得出人票加1票（此条可叠加，导演暗记） — not shown to the 赌徒's own view."""
    game = scenario.run_file(M217 / "522-gambler-vote.toml")
    holder = game.player("己")
    assert [s.name for s in holder.statuses].count("出人票") == 2
    assert not any(s.told for s in holder.statuses if s.name == "出人票")


def test_the_mirror_is_offered_folding_only_while_reflect_works():
    """> 折镜[黄昏][指定]——选择范围：反射有效时，选择任意一名角色。"""
    sc = scenario.load(M217 / "512-mirror-fold.toml")
    sc.phases = sc.phases[:2]
    game = scenario.run(sc, M217)  # 黄昏2 resolved: 反射 is lent to 戊
    assert game.label == "night 2"
    assert game.player("戊").acquired == {"反射": "镜"}
    assert "折镜" not in [c["skill"] for c in player_view(game, "己")["you"].get("choices", [])]


def test_the_mirror_sees_the_skills_used_on_him_while_he_holds_mirror_image():
    """> 在持有镜像时，若一直不使用，可以每天得知都有哪些新技能对镜使用过。"""
    sc = scenario.load(M217 / "511-mirror-image.toml")
    sc.phases = sc.phases[:3]  # up to night 2
    game = scenario.run(sc, M217)
    view = {k: v for d in game.hook.bansha_player_view(game=game, player=game.player("己")) if d for k, v in d.items()}
    assert view["曾对你使用过的技能"] == ["通灵", "杀人"]  # in the order of the night's steps (14) then (15)


def test_a_reflection_by_the_borrower_counts_for_the_mirror():
    """> 通过折镜让其他人反射也计入胜利条件数量，其他人持有反射时，反射了什么技能是其他人而非镜知晓。"""
    sc = scenario.load(M217 / "512-mirror-fold.toml")
    sc.phases = sc.phases[:3]  # night 2: 戊 (borrower) reflects the wolves' 杀人
    game = scenario.run(sc, M217)
    assert [label for label, _ in game.player("己").data["m217.镜.reflected"]] == ["night 2"]
    assert "m217.镜.reflected" not in game.player("戊").data
