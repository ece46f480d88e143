"""暗恋者, 复仇者, 粉丝: what `bansha status --as` shows them (group undecided)."""

from pathlib import Path

from bansha.authoring import scenario
from bansha.show.views import player_view

M217 = Path(__file__).parents[1] / "scenarios" / "m217"


def played(name: str, phases: int, resolve_last: bool = True):
    """The scenario up to its phase ``phases``; with ``resolve_last`` false, that phase is left
    open with nothing sent in it."""
    sc = scenario.load(M217 / name)
    sc.phases = sc.phases[:phases]
    if not resolve_last:
        last = sc.phases[-1]
        last.resolve, last.actions, last.votes, last.rulings, last.expect = False, [], [], [], None
    return scenario.run(sc, M217)


def test_the_two_farthest_are_offered_to_the_secret_admirer_at_the_opening():
    """> 距离你电梯楼最远的角色为你的暗恋对象[若有2人，则暗恋者在最远的两人中二选一]
    > 每次技能可发动时，技能持有者会得到可发动技能的所有发动状态（剩余次数，可选目标等等）
    576: 13 seats, 甲 at seat 1: 庚 and 辛 are the farthest; with 14 seats (575) nothing is offered."""
    game = played("576-admirer-two-farthest.toml", 1, resolve_last=False)
    me = player_view(game, "甲")["you"]
    assert [(c["skill"], c["targets"]) for c in me["choices"]] == [("跨越千里", ["庚", "辛"])]
    assert me["最远的角色"] == "庚、辛"
    game = played("575-admirer-farthest.toml", 1, resolve_last=False)
    assert player_view(game, "甲")["you"].get("choices", []) == []


def test_the_beloved_the_enemy_and_the_idol_are_in_their_holders_views():
    """> 你得知仇人是谁 / 该角色称为偶像 / 你的暗恋对象"""
    game = played("576-admirer-two-farthest.toml", 1)
    assert player_view(game, "甲")["you"]["暗恋对象"] == "辛"
    assert player_view(game, "辛")["you"]["偶像"] == "丁"
    game = played("580-avenger-first-valid-ballot.toml", 1)
    assert player_view(game, "丙")["you"]["仇人"] == "庚"
    assert "仇人" not in player_view(game, "庚")["you"]


def test_the_avengers_undying_against_his_enemy_is_among_his_statuses():
    """> 并获得仅针对仇人的[不死]状态 — told in 寻仇's feedback, and listed among the statuses of his own
    view (issue 10, item 7); nobody else's view lists it. 580: 庚's ballot makes him 丙's enemy."""
    game = played("580-avenger-first-valid-ballot.toml", 1)
    assert "不死" in player_view(game, "丙")["you"]["statuses"]
    assert any("你获得了仅针对仇人的[不死]状态" in t for _, t in game.feedback["丙"])
    assert "不死" not in player_view(game, "庚")["you"]["statuses"]
