"""新日暮里 through the CLI: the deal from the pools with a seed, a few days played, the player's
view (uses left, selection range, told statuses only) and the ruling trace in the manifest's order."""

import json
import random

import pytest
from bansha import deal as dealing
from bansha.cli import app
from bansha.registry import find_manifest, ruleset_for
from typer.testing import CliRunner

NAMES = "甲,乙,丙,丁,戊,己"


def test_deal_pools_and_police_replaces_a_strong_god():
    """> 【验人系】4选1 … 【强神】15选3 / 警察⑤ 该身份出现时，一个强神也会变为警察。"""
    rs = ruleset_for(find_manifest("m217"))
    pools = {p.name: set(p.roles) for p in dealing.table_for(rs, 6).pools}
    seen_police = False
    for seed in range(60):
        roles = dealing.draw_roles(dealing.table_for(rs, 6), random.Random(f"deal/{seed}"))
        wolves = [r for r in roles if r in pools["狼人"]]
        gods = [r for r in roles if r in pools["强神"]]
        assert sorted(wolves) == ["狼巫", "石像鬼"]
        if "警察" in roles:
            seen_police = True
            assert roles.count("警察") == 2 and len(gods) == 2
        else:
            assert len([r for r in roles if r in pools["验人系"]]) == 1 and len(gods) == 3
    assert seen_police


@pytest.fixture
def cli(tmp_path):
    runner = CliRunner()
    db = tmp_path / "games.db"

    def run(*args):
        r = runner.invoke(app, [*args, "--db", str(db)])
        return r

    return run


def test_game_from_the_cli(cli):
    r = cli("new", "g", "--ruleset", "m217", "--players", NAMES, "--seed", "4", "--json")
    assert r.exit_code == 0, r.output
    cast = {p["name"]: p["role"] for p in json.loads(r.output)["players"]}
    wolf = next(n for n, role in cast.items() if role == "狼巫")
    village = [n for n, role in cast.items() if role not in ("狼巫", "石像鬼")]
    for _ in range(2):                               # opening, dusk 1
        assert cli("resolve", "g").exit_code == 0
    # the player's view: skills usable now, with uses left and the selection range
    r = cli("status", "g", "--as", wolf, "--json")
    view = json.loads(r.output)["you"]
    assert any(line.startswith("黑暗侦测 选择范围：") for line in view["可发动技能"])
    r = cli("act", "g", wolf, "杀人", village[0])
    assert r.exit_code == 2 and "first night" in r.output
    for _ in range(3):                               # night 1, dawn 1, noon 1
        assert cli("resolve", "g").exit_code == 0
    assert cli("resolve", "g").exit_code == 0        # dusk 2
    assert cli("act", "g", wolf, "杀人", village[0]).exit_code == 0
    assert cli("resolve", "g").exit_code == 0        # night 2
    r = cli("log", "g", "--explain")
    assert r.exit_code == 0
    text = r.output
    # the ruling trace follows the manifest's steps: the kill queued at (15), landed at (20)
    assert text.index("深夜15b") < text.index("出局20")
    assert f"指杀 on {village[0]}" in text
    alive = {p["name"]: p["alive"] for p in json.loads(cli("status", "g", "--json").output)["players"]}
    # it lands unless the trace says what stopped it (a random 摄梦, 灵鹿's 守护, 九尾狐's 不死 …)
    assert alive[village[0]] is False or f"指杀 on {village[0]} stopped" in text


def test_told_statuses_and_uses_in_the_view(cli, tmp_path):
    deal = tmp_path / "deal.toml"
    deal.write_text("\n".join(
        f'[[players]]\nname = "{n}"\nrole = "{r}"' for n, r in
        [("甲", "狼巫"), ("乙", "石像鬼"), ("丙", "企鹅"), ("丁", "女巫"), ("戊", "灵鹿"), ("己", "摄梦人")]))
    assert cli("new", "g", "--ruleset", "m217", "--deal", str(deal)).exit_code == 0
    cli("resolve", "g")
    cli("resolve", "g")
    assert cli("act", "g", "丙", "冰冻", "甲").exit_code == 0
    assert cli("act", "g", "己", "摄梦", "乙").exit_code == 0
    assert cli("resolve", "g").exit_code == 0        # night 1
    frozen = json.loads(cli("status", "g", "--as", "甲", "--json").output)["you"]
    assert any(s.startswith("冰冻") for s in frozen["statuses"])
    dreamt = json.loads(cli("status", "g", "--as", "乙", "--json").output)["you"]
    assert dreamt["statuses"] == []                  # 坚韧 is not told, and it ended with the night
    deer = json.loads(cli("status", "g", "--as", "戊", "--json").output)["you"]
    assert any(s.startswith("守护:1") for s in deer["statuses"])
    witch = json.loads(cli("status", "g", "--as", "丁", "--json").output)["you"]
    assert witch["uses"] == {"救药": 1, "毒药": 1}


def test_director_rulings_from_the_cli(cli, tmp_path):
    """> 无效票须通过重新发帖来更正。 / 白天红牌罚下导致的出局结算在投票结算之后执行。 / 每名角色仅限更换一次替补。
    Rulings are stored and replayed like every event; a refused one exits 2 and is not stored."""
    deal = tmp_path / "deal.toml"
    deal.write_text("\n".join(
        f'[[players]]\nname = "{n}"\nrole = "{r}"' for n, r in
        [("甲", "狼巫"), ("乙", "石像鬼"), ("丙", "企鹅"), ("丁", "女巫"), ("戊", "灵鹿"), ("己", "摄梦人")]))
    assert cli("new", "g", "--ruleset", "m217", "--deal", str(deal)).exit_code == 0
    for _ in range(4):                               # opening, dusk 1, night 1, dawn 1
        assert cli("resolve", "g").exit_code == 0
    assert cli("vote", "g", "丙", "甲").exit_code == 0
    r = cli("ruling", "g", "void", "丙", "--text", "格式有误")
    assert r.exit_code == 0 and "丙的投票无效（格式有误），须重新发帖更正。" in r.output
    assert cli("ruling", "g", "void", "丙").exit_code == 2         # no ballot left to void
    assert cli("vote", "g", "丙", "乙").exit_code == 0              # the correction: a new post
    assert cli("ruling", "g", "remove", "丁", "--text", "红牌").exit_code == 0
    assert cli("ruling", "g", "substitute", "戊", "--text", "新戊").exit_code == 0
    r = cli("ruling", "g", "substitute", "新戊", "--text", "又一个")
    assert r.exit_code == 2 and "仅限更换一次替补" in r.output
    alive = {p["name"]: p["alive"] for p in json.loads(cli("status", "g", "--json").output)["players"]}
    assert alive["丁"] is True                       # the card waits for the vote
    assert cli("resolve", "g").exit_code == 0        # noon 1
    players = {p["name"]: p["alive"] for p in json.loads(cli("status", "g", "--json").output)["players"]}
    assert players["丁"] is False and players["乙"] is False and "新戊" in players
