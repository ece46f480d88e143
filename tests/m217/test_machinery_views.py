"""The machinery a player's view shows (`bansha status --as`), beyond what a scenario file states."""

from pathlib import Path

from bansha.authoring import scenario
from bansha.engine.model import ResolveEvent
from bansha.show.views import player_view

M217 = Path(__file__).parents[1] / "scenarios" / "m217"
STANDINS = Path(__file__).parent / "scenarios"


def played(path: Path, phases: int):
    sc = scenario.load(path)
    sc.phases = sc.phases[:phases]
    return scenario.run(sc, path.parent)


def offered(game, name: str) -> list[dict]:
    """The seat's usable skills as its own view lists them (``views.player_view``)."""
    return player_view(game, name)["you"].get("choices", [])


def test_the_selection_range_and_uses_left_are_shown_when_a_skill_may_be_used():
    """> 标明<指定>的技能，该技能分为两部分，该技能的持有者在可发动技能时会得知[选择范围]名单
    > 每次技能可发动时，技能持有者会得到可发动技能的所有发动状态（剩余次数，可选目标等等）
    > 标明[X]的技能…该技能的持有者在可发动技能时会得知剩余次数。
    101: 戊 is out after night 2; at night 3 nobody may choose him, and he is offered nothing."""
    game = played(M217 / "101-out-of-the-game.toml", 3)  # up to noon 2, resolved
    while game.label != "night 3":
        game.apply(ResolveEvent(phase=game.label))
    seen = offered(game, "己")
    assert [c["skill"] for c in seen] == ["通灵"] and "戊" not in seen[0]["targets"]
    assert "甲" in seen[0]["targets"] and "己" in seen[0]["targets"]  # 任意一名角色 includes oneself
    hunter = offered(game, "丑")
    assert [(c["skill"], c["uses"]) for c in hunter] == [("猎杀", 3)]
    assert offered(game, "戊") == []
    assert "决斗" not in [c["skill"] for c in offered(game, "辛")]  # [正午] only
    # one listing, not two: the board adds no second copy of the kernel's (``status --as`` once)
    assert not any("可发动技能" in str(k) for k in player_view(game, "己")["you"])


def test_two_statuses_of_one_name_are_told_and_end_apart():
    """> 获得[角色会得知]的任何状态时，该角色会得知此状态的结束时间，也会随时得知这些状态是否还存在。
    > 即使状态名字相同，也会分别得知并分别计算结束时间。
    23: 丙 is told a [沉默] until night 3 and another until night 4; his view lists what is left."""
    game = played(STANDINS / "23-same-status-twice-elevator.toml", 1)  # night 2 resolved
    mine = player_view(game, "丙")["you"]["statuses"]
    assert mine == ["沉默（持续至第3天 夜晚结束）", "缴械（持续至第3天 夜晚结束）", "迷魂（持续至第3天 夜晚结束）"]
    game = played(STANDINS / "23-same-status-twice-elevator.toml", 2)  # night 3 resolved
    assert player_view(game, "丙")["you"]["statuses"] == [
        "沉默（持续至第4天 夜晚结束）", "缴械（持续至第4天 夜晚结束）", "迷魂（持续至第4天 夜晚结束）"]
    told = [t for ph, t in game.feedback["丙"] if "沉默" in t]
    assert told == ["你获得了[沉默]状态，持续至第3天 夜晚结束。", "你获得了[沉默]状态，持续至第4天 夜晚结束。"]


def test_statuses_not_told_are_not_in_the_holders_view():
    """> [流血]：该状态不予通知 / non-negative statuses are told only where the role says so
    (docs/rulings/m217.md): 摄梦's [坚韧] is not in its target's view."""
    sc = scenario.load(M217 / "014-tough-stops-pierce.toml")
    sc.phases = sc.phases[:1]
    sc.phases[0].resolve = False  # night 2 open: 摄梦 sent, not resolved
    game = scenario.run(sc, M217)
    game.apply(ResolveEvent(phase="night 2"))
    assert not any("坚韧" in t for _, t in game.feedback.get("戊", []))
    game = played(STANDINS / "07-bleeding.toml", 1)
    bled = [n for n, p in game.players.items() if p.status("流血")]
    assert bled and all("流血" not in " ".join(player_view(game, n)["you"]["statuses"]) for n in bled)


def test_trace_is_offered_only_when_it_may_be_used():
    """> 寻踪[夜晚]——若没有寻踪目标或寻踪反馈为[存活]的身份已出局，范海辛会得知可以发动此技能
    212: night 2's 寻踪 found the 石像鬼 alive; at night 3, while it lives, 寻踪 is not offered
    (追猎 still is), and an attempt is refused by the same rule."""
    game = played(M217 / "212-van-helsing-trace-again.toml", 2)
    while game.label != "night 3":
        game.apply(ResolveEvent(phase=game.label))
    skills = [c["skill"] for c in offered(game, "丑")]
    assert "寻踪" not in skills and "追猎" in skills, skills
