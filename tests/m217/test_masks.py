"""Group masks (隐狼, 幽灵, 双面人, 宗教老爷爷): what a scenario with explicit cards cannot play.

The scenarios are tests/scenarios/m217/380-412. Here: 双面人's random deal of its two cards (the pools
grow as roles are built, so a scenario cannot name the cards drawn), 宗教老爷爷's PS (no role of this
board revives a player: the revival is done by hand) and the rules helper ``judged_camp``.
"""

from bansha.engine.engine import Game, Resolution
from bansha.engine.model import PlayerSetup, Setup
from bansha.engine.registry import find_manifest, ruleset_for

FILLERS = ["狼巫", "狼巫", "通灵师", "预言家", "女巫", "骑士", "猎魔人", "灵鹿", "企鹅", "圣女", "奇迹商人", "士兵", "纵火者"]


def game_with(first: str, seed: int = 0, setup: dict | None = None) -> Game:
    manifest = find_manifest("m217")
    players = [PlayerSetup(name="甲", role=first, setup=setup or {})]
    players += [PlayerSetup(name=f"p{i}", role=r) for i, r in enumerate(FILLERS)]
    return Game(Setup(ruleset="m217", manifest=manifest, players=players, seed=seed), ruleset_for(manifest))


def pool(game, names) -> set[str]:
    return {r for t in game.manifest.tables for p in t.pools if p.name in names for r in p.roles}


def test_two_faced_cards_are_one_undealt_wolf_and_one_undealt_god_drawn_from_the_seed():
    """> 双面[开局][黄昏][晨曦]<强制> —— 游戏开始前随机获得未出场的一狼一神作为底牌，并选择其中一张置顶。
    The wolf card from the 狼人 pool, the 神 card from 强神/弱神 (option ``two_faced_gods``; never 验人系),
    neither held by a player; the same seed draws the same cards (a replay), the 神 card is on top."""
    seen = set()
    for seed in range(12):
        g = game_with("双面人", seed)
        me = g.player("甲")
        cards = me.data["m217.双面"]["cards"]
        dealt = {p.role for p in g.players.values()}
        assert cards["狼"] in pool(g, ["狼人"]) and cards["狼"] not in dealt
        assert cards["神"] in pool(g, ["强神", "弱神"]) and cards["神"] not in dealt
        assert cards == game_with("双面人", seed).player("甲").data["m217.双面"]["cards"]
        assert g.surface(me)["role"] == cards["神"]
        assert any("你的底牌是" in line for _, line in g.feedback["甲"])
        seen.add(tuple(sorted(cards.values())))
    assert len(seen) > 1


def test_grandpa_counts_an_exit_after_a_revival_again():
    """> PS：出局后复活，然后再次出局，计为出局2次。
    No role of this board revives a player: the 异端 is brought back by hand, then put out again."""
    g = game_with("宗教老爷爷")
    g.player("甲").data["m217.异端"] = [f"p{i}" for i in range(7)]
    from bansha.engine.engine import Kill

    for _ in range(2):
        res = Resolution(g, step="test")
        g.player("p0").alive = True
        res.remove(g.player("p0"), Kill(target="p0", kind="指杀", rule="test"))
        res.publish_late()
    me = g.player("甲")
    assert me.data["m217.异端出局"] == 2
    assert next(s for s in me.statuses if s.source == "异端处决").data["votes"] == 2
    assert any("异端出局2次" in line for _, line in g.feedback["甲"])


def test_judged_camp_changes_only_for_the_casters_camp_named():
    """> PS：效果4以隐狼为目标的才会改变，隐狼发动的技能不会改变实际阵营的判定"""
    from bansha_m217_helpers import judged_camp

    g = game_with("隐狼")
    me = g.player("甲")
    me.data["m217.judged"] = {"村民阵营": "村民阵营"}
    assert judged_camp(g, "甲", "p3") == "村民阵营"  # 预言家 (村民阵营) casting on the 隐狼
    assert judged_camp(g, "甲", "p0") == "狼人阵营"  # a 狼巫 casting on him
    assert judged_camp(g, "甲") == "狼人阵营"
    assert judged_camp(g, "p3", "甲") == "村民阵营"  # what the 隐狼 casts is judged as usual
