"""丘比特 and 影子 (group cupid): what a scenario file cannot state — the group the lovers share,
camp changes that no built role makes yet (a 三方 lover, a 非情侣 丘比特), and the machinery hooks
``m217.camp.<role>`` / ``m217.follow.<role>`` of ``change_camp``."""

from pathlib import Path

from bansha.authoring import scenario
from bansha.engine.engine import Resolution
from bansha.engine.model import ResolveEvent
from bansha.show.views import player_view
from bansha_m217_helpers import change_camp, surface

M217 = Path(__file__).parents[1] / "scenarios" / "m217"


def played(name: str, phases: int):
    path = M217 / name
    sc = scenario.load(path)
    sc.phases = sc.phases[:phases]
    return scenario.run(sc, path.parent)


def test_lovers_share_a_group_and_see_each_other():
    """> [情侣]状态：…获得该状态时，与另外一位情侣共群，并得知是[真爱情侣]还是[虚情情侣]
    540: 庚 and 辛 are lovers; each sees the other as a group mate and the kind of the pair."""
    game = played("540-cupid-two-villagers.toml", 1)
    seen = player_view(game, "庚")
    assert seen["you"]["group"] == ["辛"]  # 丘比特 丁 is not in the lovers' group
    assert seen["you"]["情侣"] == ["真爱情侣：辛"]
    assert "情侣" not in player_view(game, "丁")["you"]


def test_a_cupid_who_is_not_a_lover_changes_camp_alone():
    """> 若情侣中途发生阵营改变，按照上述顺序重新判定情侣归属，非情侣的丘比特发生阵营改变不影响情侣。
    540: 丁 (丘比特, not a lover) is turned to 狼人阵营 by some effect: the lovers stay 村民阵营."""
    game = played("540-cupid-two-villagers.toml", 1)
    res = Resolution(game, step="test")
    change_camp(res, "丁", "狼人阵营")
    assert game.player("丁").camp == "狼人阵营"
    assert game.player("庚").camp == game.player("辛").camp == "村民阵营"
    assert res.lines["丁"] == ["你的阵营转变为狼人阵营。"]


def test_a_third_party_lover_takes_the_pair_into_its_camp():
    """> 如果情侣之一是三方阵营，丘与情侣加入该三方阵营，胜利条件为该三方的胜利条件
    > 除了双狼或双民情侣组合，其他组合中，情侣和丘比特被验证均为黑情侣阵营（或预言家的非狼阵营）。
    No 三方 role can be a lover on the built board yet: 辛's camp is changed to 三方阵营 directly (as a 三方
    role's effect would): the pair is judged again; lovers and 丘比特 are of 三方阵营, checked as 黑情侣阵营."""
    game = played("540-cupid-two-villagers.toml", 1)
    res = Resolution(game, step="test")
    change_camp(res, "辛", "三方阵营")
    for name in ("庚", "辛", "丁"):
        assert game.player(name).camp == "三方阵营"
        assert surface(game, name)["camp"] == "黑情侣阵营"
    assert res.lines["庚"] == ["你的阵营转变为三方阵营。"]


def test_the_undecided_combination_loses_its_knife_when_judged_again():
    """> 若情侣中途发生阵营改变，按照上述顺序重新判定情侣归属 — 545: 卯 (影子, 不定) gained 杀人 by the lovers'
    choice; if 卯 turns to 村民阵营 the pair is 双民 and the 杀人 of the 不定 combination is gone."""
    game = played("545-cupid-undecided-lover.toml", 2)  # dusk 1 played, 卯 holds 杀人
    assert game.player("卯").acquired.get("杀人") == "狼人"
    res = Resolution(game, step="test")
    change_camp(res, "卯", "村民阵营")
    assert "杀人" not in game.player("卯").acquired
    assert game.player("丁").camp == game.player("庚").camp == "村民阵营"
    assert "你失去了[杀人]技能。" in res.lines["卯"]


def test_the_shadow_follows_every_change_of_its_hosts_camp():
    """> 跟随该角色阵营变动 — 550: 卯 附身 戊; 戊 turns to 狼人阵营 and back: 卯 follows each time."""
    game = played("550-shadow-possesses-a-seer.toml", 1)
    res = Resolution(game, step="test")
    change_camp(res, "戊", "狼人阵营")
    assert game.player("卯").camp == "狼人阵营"
    change_camp(res, "戊", "村民阵营")
    assert game.player("卯").camp == "村民阵营"
    assert res.lines["卯"] == ["你的阵营转变为狼人阵营。", "你的阵营转变为村民阵营。"]


def test_the_relink_is_offered_only_in_the_phase_after_it_is_gained():
    """> 获得的技能若没有“刷新至初始”条目，则类别[开局]的技能不可用，若有，则在获取技能的那个时段需要立刻决定是否发动[开局]类技能。
    554: 卯 gains 丘比特之箭 (and its 连新情侣 form) 刷新至初始 when 丁 is voted out in noon 1; it is offered in
    dusk 2 only."""
    game = played("554-shadow-of-cupid-false-lovers.toml", 3)  # noon 1 resolved: dusk 2 is open
    offered = [c["skill"] for c in player_view(game, "卯")["you"].get("choices", [])]
    assert "连新情侣" in offered and "丘比特之箭" not in offered
    game.apply(ResolveEvent(phase="dusk 2"))
    assert "连新情侣" not in [c["skill"] for c in player_view(game, "卯")["you"].get("choices", [])]


def test_the_lovers_knife_is_the_holders_own():
    """> 情侣内部两人选择一人额外获得[杀人]技能 — 545: 卯's 杀人 is his own (acquired): its source is 卯, not a
    random 群内 wolf (> 若[杀人]需要判定技能来源，则随机一群内成为该技能的来源 is the pack's)."""
    game = played("545-cupid-undecided-lover.toml", 4)  # night 2 resolved
    lines = [t.text for t in game.trace if t.phase == "night 2" and t.rule == "杀人"]
    assert "指杀 on 辛 by 卯" in lines
    assert any(line.startswith("指杀 on 癸 by ") and not line.endswith("卯") for line in lines)
