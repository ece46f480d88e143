"""光影传说: a player's view and feedback never show another player's nation or profession
unless a rule revealed it to that player (docs/rulings/light-shadow.md §16).

> 每位玩家初始只能知道自己的国家和职业。

Games are played through ``bansha.authoring.scenario.run`` (the shipped demo and a few small days) and
through the CLI's store (``status --as``), then every player's view is searched for what it
must not hold.
"""

import json
import re

import pytest
from bansha.authoring import scenario
from bansha.cli.cli import app
from bansha.engine.registry import ruleset_files
from bansha.show.views import player_view
from typer.testing import CliRunner

LIGHT = [("梦见", "国王"), ("卡片", "皇后"), ("阿木", "骑士"), ("小雨", "刺客"), ("青石", "法师"), ("白鹭", "猎人")]
SHADOW = [("黑猫", "国王"), ("夜莺", "皇后"), ("铁山", "骑士"), ("影子", "刺客"), ("紫烟", "法师"), ("乌鸦", "猎人")]
PLAYERS = [{"name": n, "role": r, "camp": "光之国"} for n, r in LIGHT] + [{"name": n, "role": r, "camp": "影之国"} for n, r in SHADOW]
CAMPS = ("光之国", "影之国")
PROFESSIONS = ("国王", "皇后", "骑士", "刺客", "法师", "猎人")


def play(days: list[dict], options: dict | None = None):
    sc = scenario.convert({"ruleset": "light-shadow", "title": "secrets", "players": PLAYERS,
                           "options": options or {}, "phases": days}, scenario.Scenario, "test")
    return scenario.run(sc)


def demo_game():
    path = ruleset_files()["light-shadow"].parent / "demos" / "light-shadow.toml"
    return scenario.run_file(path)


def others_view(game, name: str) -> str:
    """Everything in ``name``'s view except their own card, as one string."""
    view = player_view(game, name)
    view.pop("you")
    return json.dumps(view, ensure_ascii=False)


def reveals(text: str, other: str) -> bool:
    """Whether ``text`` states ``other``'s nation or profession (“X是光之国的。”, “X是骑士。”,
    “身份是…”), as opposed to asking about it (“X是不是…？”)."""
    return bool(re.search(rf"{other}是(?!不是)(?:{'|'.join(CAMPS + PROFESSIONS)})", text)) or "身份是" in text


# ------------------------------------------------------------------------------ views


def test_view_lists_other_players_by_name_seat_and_status_only():
    game = demo_game()
    for name in game.players:
        view = player_view(game, name)
        assert view["you"]["role"] == game.player(name).role
        assert view["you"]["camp"] == game.player(name).camp
        for entry in view["players"]:
            assert set(entry) <= {"seat", "name", "alive"}


def test_demo_game_reveals_only_what_a_rule_gave():
    game = demo_game()
    allowed = {  # (who may know it, about whom): the demo's 辨别 and 真视 that were answered
        ("梦见", "夜莺"), ("梦见", "影子"), ("黑猫", "白鹭"), ("黑猫", "小雨"),
        ("卡片", "铁山"), ("卡片", "乌鸦"), ("夜莺", "白鹭"),
    }
    for name in game.players:
        text = others_view(game, name)
        for other in game.players:
            if other != name and (name, other) not in allowed:
                assert not reveals(text, other), f"{name}'s view reveals {other}: {text}"
    # the answered 辨别/真视 are in the holder's view, and in nobody else's
    for holder, other in allowed:
        assert reveals(others_view(game, holder), other)
        for name in game.players:
            if name != holder and (name, other) not in allowed:
                assert not reveals(others_view(game, name), other)


def test_discern_result_is_the_kings_alone():
    game = play([{"phase": "day 0", "actions": [{"actor": "梦见", "skill": "辨别", "targets": ["黑猫"]}]}])
    assert "黑猫是影之国的。" in others_view(game, "梦见")
    for name in game.players:
        if name != "梦见":
            assert "黑猫是影之国" not in others_view(game, name)
            assert "国王" not in others_view(game, name)


def test_truesight_result_is_the_queens_alone_and_names_no_nation():
    game = play([{"phase": "day 0", "actions": [{"actor": "夜莺", "skill": "真视", "targets": ["青石"]}]}])
    assert "青石是法师。" in others_view(game, "夜莺")
    assert "青石是光之国" not in others_view(game, "夜莺")
    for name in game.players:
        if name != "夜莺":
            assert "青石是法师" not in others_view(game, name)


def test_question_answer_goes_to_the_asker_only():
    game = play([{"phase": "day 0", "actions": [
        {"actor": "铁山", "skill": "询问", "targets": ["梦见"], "args": {"camp": "光之国", "role": "国王"}}]}])
    assert "梦见是不是光之国的国王？是" in others_view(game, "铁山")
    for name in game.players:
        if name != "铁山":
            assert "国王？是" not in others_view(game, name)
    # the public count says how many, never which
    assert ("day 0", "今日对一共1个询问回答了YES。") in game.announcements


def test_spell_pursuit_and_spy_tell_nobody_privately():
    game = play([{"phase": "day 0", "actions": [
        {"actor": "青石", "skill": "巫术", "targets": ["黑猫"]},
        {"actor": "紫烟", "skill": "巫术", "targets": ["乌鸦"]},
        {"actor": "阿木", "skill": "追击", "targets": ["乌鸦"]},
        {"actor": "小雨", "skill": "窥探", "args": {"role": "骑士"}},
    ]}])
    for name in game.players:
        assert player_view(game, name)["feedback"] == []
    public = " ".join(t for _, t in game.announcements)
    for actor in ("青石", "紫烟", "阿木", "小雨"):
        assert actor not in public


def test_disguise_is_not_shown_to_others():
    game = play([{"phase": "day 0", "resolve": False, "actions": [
        {"actor": "白鹭", "skill": "伪装", "targets": ["黑猫"], "args": {"camp": "影之国", "role": "骑士"}}]}])
    for name in game.players:
        if name != "白鹭":
            view = player_view(game, name)
            # the other 猎人's own 伪装 is among his choices (unsent): nothing of 白鹭's
            mine = view["you"].pop("choices", [])
            assert all(not c["submitted"] and not c["group_acted"] for c in mine)
            assert "伪装" not in json.dumps(view, ensure_ascii=False)
    assert player_view(game, "白鹭")["you"]["acted"] == ["伪装"]


def test_wrong_guess_tells_only_wrong():
    game = play([{"phase": "day 1", "actions": [{"actor": "阿木", "skill": "猜测", "args": {
        "黑猫": "国王", "夜莺": "皇后", "铁山": "骑士", "影子": "刺客", "紫烟": "猎人", "乌鸦": "法师"}}]}])
    assert [f["text"] for f in player_view(game, "阿木")["feedback"]] == ["猜测错误。"]
    assert all("猜测" not in t for _, t in game.announcements)


@pytest.mark.parametrize("option", ["game", "day"])
def test_disqualification_does_not_reveal_the_identity(option):
    game = play([{"phase": "day 1", "rulings": [{"kind": "remove", "player": "阿木", "text": "犯规"}]}],
                {"disqualification": option})
    lines = [t for _, t in game.announcements if "阿木" in t]
    assert lines == ["阿木犯规，被取消当轮参赛资格。"]
    for name in game.players:
        if name != "阿木":
            assert not reveals(others_view(game, name), "阿木")
            assert "骑士" not in others_view(game, name)


# ------------------------------------------------------------------- through the store


def test_status_as_player_through_the_cli(tmp_path):
    runner = CliRunner()
    db = str(tmp_path / "g.db")

    def cli(*args):
        r = runner.invoke(app, [*args, "--db", db])
        assert r.exit_code == 0, r.output
        return r.output

    names = ",".join(n for n, _ in LIGHT + SHADOW)
    cli("new", "g", "--ruleset", "light-shadow", "--players", names, "--seed", "3")
    director = json.loads(cli("status", "g", "--json"))
    card = {p["name"]: (p["camp"], p["role"]) for p in director["players"]}
    king = next(n for n, (_, r) in card.items() if r == "国王")
    target = next(n for n in card if n != king)
    cli("act", "g", king, "辨别", target)
    cli("resolve", "g", "--yes")
    for name, (camp, role) in card.items():
        view = json.loads(cli("status", "g", "--as", name, "--json"))
        assert (view["you"]["camp"], view["you"]["role"]) == (camp, role)
        view.pop("you")
        text = json.dumps(view, ensure_ascii=False)
        for other in card:
            if other != name and not (name == king and other == target):
                assert not reveals(text, other), f"{name} sees {other}: {text}"
        assert (f"{target}是{card[target][0]}的。" in text) == (name == king)


# ------------------------------------------------------------------- 14 seats, disguises

LIGHT14 = LIGHT[:5] + [("星河", "法师")] + LIGHT[5:]
SHADOW14 = SHADOW[:5] + [("月牙", "法师")] + SHADOW[5:]
NUMBER = {"青石": 1, "星河": 2, "紫烟": 1, "月牙": 2}
PLAYERS14 = [{"name": n, "role": r, "camp": c, **({"setup": {"number": NUMBER[n]}} if n in NUMBER else {})}
             for c, side in (("光之国", LIGHT14), ("影之国", SHADOW14)) for n, r in side]


def test_truesight_of_a_numbered_mage_names_no_number_and_views_hold_none():
    # "上帝将直接告诉皇后对象玩家的职业，但不告知国家" (and, docs/rulings: never a mage number)
    sc = scenario.convert({"ruleset": "light-shadow", "title": "14", "players": PLAYERS14, "phases": [
        {"phase": "day 1", "actions": [{"actor": "夜莺", "skill": "真视", "targets": ["星河"]}]}]}, scenario.Scenario, "test")
    game = scenario.run(sc)
    assert [f["text"] for f in player_view(game, "夜莺")["feedback"]] == ["星河是法师。"]
    for name in game.players:
        view = player_view(game, name)
        mine = view.pop("you")
        text = json.dumps(view, ensure_ascii=False)
        assert "法师1" not in text and "法师2" not in text and "number" not in text
        assert mine.get("setup", {}).get("number") == NUMBER.get(name)


def test_spy_and_pursuit_of_a_disguised_hunter_never_name_him_or_his_real_profession():
    # 例10: the 窥探 lists the disguised hunter's questions as 影之国的法师's; the line names no asker
    game = play([{"phase": "day 1", "actions": [
        {"actor": "白鹭", "skill": "伪装", "targets": ["黑猫"], "args": {"camp": "影之国", "role": "法师"}},
        {"actor": "白鹭", "skill": "询问", "targets": ["夜莺"], "args": {"camp": "影之国", "role": "皇后"}},
        {"actor": "小雨", "skill": "窥探", "args": {"role": "法师"}},
        {"actor": "铁山", "skill": "追击", "targets": ["白鹭"]},
    ]}])
    day1 = [t for ph, t in game.announcements if ph == "day 1"]
    assert "影之国的法师询问的问题是“夜莺是不是影之国的皇后？”。" in day1
    assert "白鹭对黑猫使用了技能。" in day1
    assert not any("猎人" in t or "光之国" in t or "伪装" in t for t in day1)
    for name in game.players:
        if name != "白鹭":
            assert not reveals(others_view(game, name), "白鹭")
            assert "伪装" not in others_view(game, name)
