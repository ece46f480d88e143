"""新日暮里 through the CLI: the deal from the pools with a seed, a few days played, the player's
view (uses left, selection range, told statuses only) and the ruling trace in the manifest's order."""

import json
import random

import pytest
from bansha.cli.cli import app
from bansha.engine import deal as dealing
from bansha.engine.registry import find_manifest, ruleset_for
from typer.testing import CliRunner

NAMES = "甲,乙,丙,丁,戊,己,庚,辛,壬,癸,子,丑,寅,卯"
# a 14-seat deal of explicit roles, for the tests that need to know who is who
CAST = [("甲", "狼巫"), ("乙", "石像鬼"), ("丙", "企鹅"), ("丁", "女巫"), ("戊", "灵鹿"), ("己", "摄梦人"),
        ("庚", "狼学者"), ("辛", "狼王"), ("壬", "预言家"), ("癸", "猎人"), ("子", "乌鸦"), ("丑", "熊"),
        ("寅", "小女孩"), ("卯", "粉丝")]


def write_deal(path):
    path.write_text("\n".join(f'[[players]]\nname = "{n}"\nrole = "{r}"' for n, r in CAST), encoding="utf-8")
    return path


def test_deal_pools_and_constraints():
    """> 【狼人阵营】16选4 狼王恐怖分子狼兄必有且只会有一个 有狼兄必有狼弟 / 【验人系】4选1 / 【强神】15选3 /
    【弱神】15选4 / 【三方】5选1 / 【不定】5选1 / 警察⑤ 该身份出现时，一个强神也会变为警察。 / 狼弟: 有狼弟必有狼兄。"""
    rs = ruleset_for(find_manifest("m217"))
    table = dealing.table_for(rs, 14)
    pools = {p.name: set(p.roles) for p in table.pools}
    assert sum(len(p) for p in pools.values()) == 60          # 本场可能存在的身份: every role has a plugin
    assert all(r in rs.roles for p in pools.values() for r in p)
    seen = {"警察": False, "狼兄": False}
    for seed in range(200):
        roles = dealing.draw_roles(table, random.Random(f"deal/{seed}"))
        count = {name: len([r for r in roles if r in pool]) for name, pool in pools.items()}
        # every role once, but the second 警察
        assert len(roles) == 14 and len(set(roles)) == 14 - max(0, roles.count("警察") - 1)
        assert count["狼人"] == 4 and count["弱神"] == 4 and count["三方"] == 1 and count["不定"] == 1
        assert sum(roles.count(r) for r in ("狼王", "恐怖分子", "狼兄")) == 1
        assert ("狼兄" in roles) == ("狼弟" in roles)
        if "警察" in roles:
            assert roles.count("警察") == 2 and count["强神"] == 2
        else:
            assert count["验人系"] == 1 and count["强神"] == 3
        for role in seen:
            seen[role] |= role in roles
    assert all(seen.values())


@pytest.fixture
def cli(tmp_path):
    runner = CliRunner()
    db = tmp_path / "games.db"

    def run(*args):
        r = runner.invoke(app, [*args, "--db", str(db)])
        return r

    return run


def _players(cli):
    return {p["name"]: p for p in json.loads(cli("status", "g", "--json").output)["players"]}


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_a_whole_game_dealt_from_the_pools(cli, seed):
    """A 14-seat game dealt from the pools with a seed, played from the CLI for three days: the
    pack's kill refused on night 1, a vote each noon, a kill each night, and the ruling trace
    of each night in the manifest's order (早夜 … 深夜15b … 出局20)."""
    rs = ruleset_for(find_manifest("m217"))
    r = cli("new", "g", "--ruleset", "m217", "--players", NAMES, "--seed", str(seed), "--json")
    assert r.exit_code == 0, r.output
    cast = {p["name"]: p["role"] for p in json.loads(r.output)["players"]}
    assert len(cast) == 14 and sum(cast[n] in ("狼王", "恐怖分子", "狼兄") for n in cast) == 1
    pack = [n for n, role in cast.items() if rs.roles[role].group == "狼人"]
    assert pack, cast
    for _ in range(2):                                   # opening, dusk 1
        assert cli("resolve", "g", "--yes").exit_code == 0
    r = cli("act", "g", pack[0], "杀人", next(n for n in cast if n not in pack))
    assert r.exit_code == 2 and "杀人在第一晚不能发动（第一晚不可使用）" in r.output and r.output.count("\n") == 1
    steps = [s.name for s in next(p for p in rs.manifest.phases if p.name == "night").steps]
    for night in (1, 2, 3):
        if night > 1:
            players = _players(cli)
            sender = next((n for n in pack if players[n]["alive"]), None)
            if sender is None:
                break
            victim = next(n for n, p in players.items() if p["alive"] and p["camp"] == "村民阵营")
            assert cli("act", "g", sender, "杀人", victim).exit_code == 0
        r = cli("resolve", "g", "--yes")                          # night N
        assert r.exit_code == 0, r.output
        if night > 1:
            log = cli("log", "g", "--explain").output
            tonight = log[log.rindex(f"阶段=第{night}天 夜晚"):]
            seen = [s for s in steps if f"[{s}]" in tonight]
            assert seen == sorted(seen, key=steps.index) and "深夜15b" in seen
            # the kill lands at (20), or the trace says what stopped it
            assert f"对{victim}的指杀" in tonight
            assert _players(cli)[victim]["alive"] is False or "被抵消" in tonight or "stopped" in tonight
        if json.loads(cli("status", "g", "--json").output)["winner"]:
            break
        assert cli("resolve", "g", "--yes").exit_code == 0        # dawn N
        players = _players(cli)
        target = next(n for n, p in players.items() if p["alive"] and n not in pack)
        for voter, p in players.items():
            if p["alive"]:
                assert cli("vote", "g", voter, target).exit_code == 0
        assert cli("resolve", "g", "--yes").exit_code == 0        # noon N
        noon = cli("log", "g", "--explain").output
        assert f"阶段=第{night}天 正午" in noon
        if json.loads(cli("status", "g", "--json").output)["winner"]:
            break
        assert cli("resolve", "g", "--yes").exit_code == 0        # dusk N+1
    # every player's view names only themselves among the cast
    for name, role in cast.items():
        view = json.loads(cli("status", "g", "--as", name, "--json").output)
        assert view["you"]["role"] == role
        assert all("role" not in p for p in view["players"])


def test_told_statuses_and_uses_in_the_view(cli, tmp_path):
    deal = write_deal(tmp_path / "deal.toml")
    assert cli("new", "g", "--ruleset", "m217", "--deal", str(deal)).exit_code == 0
    cli("resolve", "g", "--yes")
    cli("resolve", "g", "--yes")
    assert cli("act", "g", "丙", "冰冻", "甲").exit_code == 0
    assert cli("act", "g", "己", "摄梦", "乙").exit_code == 0
    assert cli("resolve", "g", "--yes").exit_code == 0        # night 1
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
    deal = write_deal(tmp_path / "deal.toml")
    assert cli("new", "g", "--ruleset", "m217", "--deal", str(deal)).exit_code == 0
    for _ in range(4):                               # opening, dusk 1, night 1, dawn 1
        assert cli("resolve", "g", "--yes").exit_code == 0
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
    assert cli("resolve", "g", "--yes").exit_code == 0        # noon 1
    players = {p["name"]: p["alive"] for p in json.loads(cli("status", "g", "--json").output)["players"]}
    assert players["丁"] is False and players["乙"] is False and "新戊" in players


def test_a_substitute_takes_over_the_seat_in_the_rules_records(cli, tmp_path):
    """> 替补玩家将收到该玩家的角色、身份、行动及账号、密码，代替该玩家继续游戏。
    A seat named in a rule's own records (宗教老爷爷's 异端) is the substitute's after the ruling:
    the list shows the new name, and his exit counts as a 异端's."""
    deal = tmp_path / "deal.toml"
    cast = [("甲", "宗教老爷爷"), *CAST[1:]]
    deal.write_text("\n".join(f'[[players]]\nname = "{n}"\nrole = "{r}"' for n, r in cast), encoding="utf-8")
    assert cli("new", "g", "--ruleset", "m217", "--deal", str(deal)).exit_code == 0
    heretics = ["乙", "丙", "丁", "戊", "己", "庚", "辛"]
    assert cli("act", "g", "甲", "异端", *heretics).exit_code == 0
    for _ in range(4):                               # opening, dusk 1, night 1, dawn 1
        assert cli("resolve", "g", "--yes").exit_code == 0
    assert cli("ruling", "g", "substitute", "丙", "--text", "新丙").exit_code == 0
    you = json.loads(cli("status", "g", "--as", "甲", "--json").output)["you"]
    assert you["异端"].split("、") == ["乙", "新丙", "丁", "戊", "己", "庚", "辛"]
    for voter in ("甲", "乙", "丁", "戊", "己"):
        assert cli("vote", "g", voter, "新丙").exit_code == 0
    assert cli("resolve", "g", "--yes").exit_code == 0        # noon 1: 新丙 voted out
    you = json.loads(cli("status", "g", "--as", "甲", "--json").output)["you"]
    assert you["异端出局"] == 1


@pytest.mark.parametrize(("cards", "why"), [
    ("狼巫,企鹅", "卯（双面人）：设置的身份牌狼巫不是未出场的狼人身份"),       # 狼巫 is dealt to 甲
    ("幼狼,预言家", "卯（双面人）：设置的身份牌预言家不是未出场的强神/弱神身份"),    # 验人系 (restriction 1)
])
def test_a_two_faced_card_given_by_the_deal_obeys_the_draw(cli, tmp_path, cards, why):
    """> 双面[开局]… 游戏开始前随机获得未出场的一狼一神作为底牌 — cards given by a deal file are
    checked like the draw: not dealt to anyone, a 狼人 and a 神; else one line, exit 2, no game."""
    deal = tmp_path / "deal.toml"
    cast = [*CAST[:13], ("卯", "双面人")]
    rows = [f'[[players]]\nname = "{n}"\nrole = "{r}"' for n, r in cast]
    rows[-1] += f'\nsetup = {{ cards = "{cards}" }}'
    deal.write_text("\n".join(rows), encoding="utf-8")
    r = cli("new", "g", "--ruleset", "m217", "--deal", str(deal))
    assert r.exit_code == 2 and why in r.output and r.output.count("\n") == 1, r.output
    assert cli("status", "g").exit_code == 2                # nothing was stored
