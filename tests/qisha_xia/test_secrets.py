"""A player's view and feedback never reveal hidden identities beyond what the rules give that
player (issue 4): 黑侠 see each other, an absorbed 青侠 sees its new group, independent 青侠
see each other, a 侠士 sees nobody's role, a check result is seen only by the checker, 龙侠
never learns of a reflection or its charges, and nobody learns of a block, heal or reception."""

import json
from pathlib import Path

import pytest
from bansha.authoring.scenario import load, run
from bansha.show.views import director_view, player_view

HERE = Path(__file__).parent
TABLE = (HERE.parents[1] / "tests/scenarios/qisha-xia/001-night-death-reveals-identity-not-cause.toml").read_text(encoding="utf-8")
PLAYERS = TABLE[TABLE.index("players = ["):TABLE.index("\n]\n", TABLE.index("players = [")) + 3]
ROLES = ["黑侠", "暗侠", "幻侠", "白侠", "赤侠", "光侠", "银侠", "龙侠", "侠士", "青侠"]

GAME = f'''
ruleset = "qisha-xia"
title = "secrets"
{PLAYERS}
[[phases]]
phase = "night 1"
actions = [
  {{ actor = "白", skill = "救治", targets = ["青一"] }},
  {{ actor = "赤", skill = "验人", targets = ["黑二"] }},
  {{ actor = "黑一", skill = "杀人", targets = ["龙"] }},
  {{ actor = "暗", skill = "阻止", targets = ["银"] }},
  {{ actor = "光", skill = "接收", targets = ["士二"] }},
]

[[phases]]
phase = "night 2"
actions = [
  {{ actor = "黑二", skill = "杀人", targets = ["青二"] }},
  {{ actor = "赤", skill = "验人", targets = ["龙"] }},
]

[[phases]]
phase = "night 3"
'''


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("qx") / "secrets.toml"
    path.write_text(GAME, encoding="utf-8")
    return run(load(path), path.parent)


def private(view):
    """The view without the public announcements and without the player's own card."""
    v = dict(view)
    v.pop("announcements")
    v["you"] = {k: val for k, val in view["you"].items() if k not in ("role", "identity", "name", "camp")}
    return json.dumps(v, ensure_ascii=False)


def feedback(view):
    return [f["text"] for f in view["feedback"]]


def test_a_citizen_sees_no_role_but_its_own(game):
    view = player_view(game, "士一")
    assert view["you"]["role"] == "侠士"
    assert "group" not in view["you"]
    assert all(set(p) == {"seat", "name", "alive"} for p in view["players"])
    text = private(view)
    assert not [r for r in ROLES if r in text]


def test_black_see_each_other_and_the_absorbed(game):
    # 黑一 was reflected out on night 1; 黑二 absorbed 青二 on night 2
    view = player_view(game, "黑三")
    assert sorted(view["you"]["group"]) == ["青二", "黑一（出局）", "黑二"]  # 黑一 has left: marked
    assert "青二被吸收，成为黑侠。" in feedback(view)


def test_an_absorbed_neutral_sees_its_new_group_only(game):
    view = player_view(game, "青一")
    assert view["you"]["group"] == ["白"]
    assert view["you"]["identity"] == "青侠（白侠）"
    assert feedback(view)[0] == "你被白侠吸收，成为白侠。"
    # it does not learn what the other 青侠 became (青二 was absorbed by the 黑侠)
    assert "黑侠" not in private(view) and "独立" not in private(view)


def test_independents_see_each_other(game):
    view = player_view(game, "青三")
    assert sorted(view["you"]["group"]) == ["青五", "青四"]
    assert view["you"]["identity"] == "青侠（独立）"
    assert "你已成为独立的青侠。" in feedback(view)
    # a 侠士 is not told who became independent
    assert not any("独立" in line for line in feedback(player_view(game, "士三")))


def test_a_check_result_is_seen_only_by_the_checker(game):
    assert "黑二是黑侠。" in feedback(player_view(game, "赤"))
    for name in game.players:
        if name != "赤":
            assert not any("黑二是" in line for line in feedback(player_view(game, name))), name


def test_dragon_never_learns_of_a_reflection_or_its_charges(game):
    view = player_view(game, "龙")
    assert feedback(view) == ["赤是赤侠。"]  # the effect of the reflected check, nothing more
    text = json.dumps(view, ensure_ascii=False)
    assert "反弹" not in text and "charges" not in text
    assert "验人失败" in feedback(player_view(game, "赤"))


def test_no_line_tells_of_a_block_a_heal_or_a_reception(game):
    for name in game.players:
        # 银侠's "你学会了阻止。" is its own learning (R-S1), not news of the block
        for line in (x for x in feedback(player_view(game, name)) if not x.startswith("你学会了")):
            assert "阻止" not in line and "救治" not in line and "接收" not in line and "反弹" not in line, (name, line)
    assert feedback(player_view(game, "光")) == []
    assert feedback(player_view(game, "暗")) == []


def test_silver_alone_sees_what_it_learned(game):
    view = player_view(game, "银")
    assert "你学会了阻止。" in feedback(view)
    assert not any("学会" in line for n in game.players if n != "银" for line in feedback(player_view(game, n)))


def test_public_facts_and_announcements_hold_no_secret(game):
    view = player_view(game, "士一")
    facts = json.dumps(view["facts"], ensure_ascii=False)
    assert not [r for r in ROLES if r in facts]
    # deaths reveal the identity but not the cause
    lines = [a["text"] for a in view["announcements"]]
    assert "黑一出局，身份是黑侠。" in lines
    assert not any("龙" in line or "杀" in line for line in lines)


def test_the_director_sees_everything(game):
    players = {p["name"]: p for p in director_view(game)["players"]}
    assert players["青一"]["identity"] == "青侠（白侠）"
    assert players["青三"]["identity"] == "青侠（独立）"


TOP_VOTES = "".join(f'  {{ voter = "{v}", target = "士四", post = {i + 1} }},\n'
                    for i, v in enumerate(["黑一", "黑二", "黑三", "暗", "幻", "白", "赤", "光"]))
DAY_GAME = f'''
ruleset = "qisha-xia"
title = "secrets of the day"
{PLAYERS}
[[phases]]
phase = "night 1"
actions = [
  {{ actor = "幻", skill = "幻觉一", targets = ["士一", "士二"] }},
]

[[phases]]
phase = "day 2"
votes = [
  {{ voter = "幻", target = "士三", post = 1 }},
  {{ voter = "士一", target = "黑一", post = 2 }},
]

[[phases]]
phase = "night 2"
actions = [
  {{ actor = "幻", skill = "幻觉二", targets = ["士四"] }},
]

[[phases]]
phase = "day 3"
votes = [
{TOP_VOTES}]
'''


@pytest.fixture(scope="module")
def day_game(tmp_path_factory):
    path = tmp_path_factory.mktemp("qx") / "day.toml"
    path.write_text(DAY_GAME, encoding="utf-8")
    return run(load(path), path.parent)


def test_illusions_are_announced_without_the_illusionist_or_whom_they_copy(day_game):
    lines = [t for _, t in day_game.announcements]
    # "只公布被改变的结果，并不公布与谁一致"; "如果产生效果（此人被投最高票）则公布"
    assert "士一的投票被改变。" in lines and "士四免于出局。" in lines
    assert not any("幻" in line or "一致" in line or ("士三" in line and "投票" in line) for line in lines)
    for name in ("士一", "士二", "士四"):
        assert feedback(player_view(day_game, name)) == []


def test_dark_and_illusion_do_not_know_the_black(game):
    # "黑侠（3人）……互知": only the 黑侠 know each other; 暗侠 and 幻侠 see no teammate
    for name in ("暗", "幻"):
        text = private(player_view(game, name))
        assert not [r for r in ROLES if r in text], (name, text)
        assert "group" not in player_view(game, name)["you"]
    assert set(player_view(game, "黑二")["you"]["group"]) <= {"黑一（出局）", "黑三", "青二"}


def test_neutral_cyan_do_not_know_each_other(tmp_path):
    # "青侠（5人）初始不互知": before independence a neutral 青侠 sees no other 青侠
    path = tmp_path / "neutral.toml"
    path.write_text(f'ruleset = "qisha-xia"\ntitle = "neutral"\n{PLAYERS}\n[[phases]]\nphase = "night 2"\n', encoding="utf-8")
    g = run(load(path), path.parent)
    for name in ("青一", "青二", "青三", "青四", "青五"):
        view = player_view(g, name)
        assert "group" not in view["you"] and feedback(view) == []
        assert "青侠" not in private(view)
