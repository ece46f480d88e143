"""Issue 11: every input checked at the door, every message in the board's language.

Each case runs the real CLI (in-process) on the three shipped boards: a refusal is one line
(or one JSON object with --json), exit code 2, and the database file byte-identical."""

from __future__ import annotations

import json
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from bansha.door.names import width
from bansha.store.store import Store
from clirun import settled_bytes

LS12 = ["梦见", "卡片", "阿木", "小雨", "青石", "白鹭", "黑猫", "夜莺", "铁山", "影子", "紫烟", "乌鸦"]
XIA20 = [f"侠{i:02d}" for i in range(1, 21)]
M14 = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛", "壬", "癸", "子", "丑", "寅", "卯"]


def db_bytes(cli) -> bytes | None:
    """The database file's bytes with every committed write in it (clirun.settled_bytes)."""
    return settled_bytes(cli.db)


def refused(cli, *args, message: str):
    """Exit 2, one line holding ``message``, the database file unchanged byte for byte."""
    before = db_bytes(cli)
    r = cli(*args)
    assert r.exit_code == 2, r.output
    lines = [line for line in r.output.splitlines() if line.strip()]
    assert len(lines) == 1, r.output
    assert message in lines[0], r.output
    assert "Traceback" not in r.output
    assert db_bytes(cli) == before
    return lines[0]


@pytest.fixture
def ls(bansha_cli):
    bansha_cli.ok("new", "g", "--ruleset", "light-shadow", "--players", ",".join(LS12), "--seed", "3")
    return bansha_cli


# ------------------------------------------------------------------------------------ names


def test_a_name_is_stored_normalised_and_found_however_typed(bansha_cli):
    typed = ["\ufeff梦见\u200b", " 卡片 ", unicodedata.normalize("NFD", "é"), *LS12[3:], "x\u0007y"]
    bansha_cli.ok("new", "g", "--ruleset", "light-shadow", "--players", ",".join(typed[:12]))
    names = list(bansha_cli.load().players)
    assert names[:3] == ["梦见", "卡片", "é"] and all(unicodedata.is_normalized("NFC", n) for n in names)
    # 梦见 with a zero-width space, full-width digits of a name: the same player
    r = bansha_cli.ok("status", "g", "--as", "梦见\u200b", "--json")
    assert json.loads(r.output)["you"]["name"] == "梦见"


@pytest.mark.parametrize(("players", "message"), [
    ("Ａｌｉｃｅ,Alice," + ",".join(LS12[2:]), "Ａｌｉｃｅ 与 Alice 是同一个名字"),
    ("梦见,梦见\u200b," + ",".join(LS12[2:]), "名单：梦见 出现了两次"),
    (unicodedata.normalize("NFD", "é") + ",é," + ",".join(LS12[2:]), "出现了两次"),
    ("\u200b\ufeff," + ",".join(LS12[1:]), "名字为空"),
    ("弃权," + ",".join(LS12[1:]), "弃权 是本规则的保留词"),
    ("-x," + ",".join(LS12[1:]), "不能以 - 开头"),
    ("名" * 33 + "," + ",".join(LS12[1:]), "33个字符，最多32个"),
])
def test_bad_player_names_are_refused_naming_them(bansha_cli, players, message):
    refused(bansha_cli, "new", "g", "--ruleset", "light-shadow", f"--players={players}", message=message)
    assert Store(bansha_cli.db).names() == [] if Path(bansha_cli.db).exists() else True


def test_qisha_xia_reserves_wu(bansha_cli):
    refused(bansha_cli, "new", "g", "--ruleset", "qisha-xia", "--players", ",".join(["无", *XIA20[1:]]), message="无 是本规则的保留词")


@pytest.mark.parametrize(("game", "message"), [("\u200b", "游戏名：名字为空"), ("局" * 33, "最多32个")])
def test_bad_game_names(bansha_cli, game, message):
    refused(bansha_cli, "new", game, "--ruleset", "m217", "--players", ",".join(M14), message=message)


def test_roster_files_utf8_bom_gb18030_comments_and_bad_bytes(bansha_cli, tmp_path):
    bom = tmp_path / "bom.txt"
    bom.write_bytes("\ufeff# 第一桌\n".encode() + "\n".join(M14).encode("utf-8"))
    r = bansha_cli.ok("new", "a", "--ruleset", "m217", "--players", bom)
    assert "第1行以 # 开头，作为注释跳过：# 第一桌" in r.output  # the skipped line is said
    gb = tmp_path / "gb.txt"
    gb.write_bytes("\n".join(M14).encode("gb18030"))
    bansha_cli.ok("new", "b", "--ruleset", "m217", "--players", gb)
    assert list(bansha_cli.load("b").players) == M14
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\x80\n" + "\n".join(M14[1:]).encode())
    refused(bansha_cli, "new", "c", "--ruleset", "m217", "--players", bad, message="不是 UTF-8 或 GB18030")
    dup = tmp_path / "dup.txt"
    dup.write_text("\n".join([*M14[:13], "甲"]), encoding="utf-8")
    refused(bansha_cli, "new", "c", "--ruleset", "m217", "--players", dup, message="甲 出现了两次")


# ----------------------------------------------------------------------------------- values


@pytest.mark.parametrize(("ruleset", "players", "option", "message"), [
    ("qisha-xia", XIA20, "start_time=tomorrow", "start_time=tomorrow：应为 YYYY-MM-DD HH:MM"),
    ("qisha-xia", XIA20, "block_order=random", "block_order=random：可选：暗侠优先、按提交顺序"),
    ("qisha-xia", XIA20, "weekend_extension=2", "weekend_extension=2：应为 true 或 false"),
    ("qisha-xia", XIA20, "kill_teammate_allowed=1", "应为 true 或 false"),  # a bool given as an int
    ("light-shadow", LS12, "double_questions_day=abc", "double_questions_day=abc：应为 0 到 ∞ 之间的整数"),
    ("light-shadow", LS12, "nosuch=1", "没有房规 nosuch"),
    ("m217", M14, "chain=煽动,乱序", "应为列表，元素可选"),
])
def test_house_rules_are_typed(bansha_cli, ruleset, players, option, message):
    refused(bansha_cli, "new", "g", "--ruleset", ruleset, "--players", ",".join(players), "--option", option, message=message)


def test_a_good_option_is_stored_as_its_type_and_status_reads_it(bansha_cli):
    bansha_cli.ok("new", "g", "--ruleset", "qisha-xia", "--players", ",".join(XIA20),
                  "--option", "start_time=2024-05-03 20:00", "--option", "weekend_extension=false")
    g = bansha_cli.load()
    assert g.options["weekend_extension"] is False and g.options["start_time"] == "2024-05-03 20:00"
    bansha_cli.ok("status", "g")


def test_a_scenario_and_a_variant_are_checked_by_the_same_function(tmp_path):
    from bansha.engine.model import GameError
    from bansha.engine.registry import load_manifest_file

    variant = tmp_path / "v.toml"
    variant.write_text('extends = "m217"\nid = "m217-v"\nname = "v"\n[options]\nwin = "屠村"\n', encoding="utf-8")
    with pytest.raises(GameError, match="win 的默认值 屠村 不合其类型：可选：屠边、屠城"):
        load_manifest_file(variant)
    scenario = tmp_path / "s.toml"
    scenario.write_text('ruleset = "qisha-xia"\ntitle = "x"\n[options]\nstart_time = "tomorrow"\n'
                        + "".join(f'[[players]]\nname = "{n}"\nrole = "侠士"\n' for n in XIA20), encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "bansha.cli.cli", "scenario", "run", str(scenario)], capture_output=True, text=True)
    assert r.returncode == 2 and "start_time=tomorrow" in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_a_manifest_without_an_id(bansha_cli, tmp_path):
    m = tmp_path / "m.toml"
    m.write_text('name = "x"\n', encoding="utf-8")
    refused(bansha_cli, "new", "g", "--ruleset", m, "--players", "a,b", message="清单缺少 id")


def test_a_deal_file_is_checked_against_its_table(bansha_cli, tmp_path):
    seats = [("梦见", "国王", "光之国"), ("卡片", "国王", "光之国")] + [(n, r, c) for n, r, c in zip(
        LS12[2:], ["皇后", "骑士", "刺客", "法师", "猎人", "皇后", "骑士", "刺客", "法师", "猎人"],
        ["光之国"] * 4 + ["影之国"] * 6, strict=True)]
    deal = tmp_path / "deal.toml"
    deal.write_text("".join(f'[[players]]\nname = "{n}"\nrole = "{r}"\ncamp = "{c}"\n' for n, r, c in seats), encoding="utf-8")
    refused(bansha_cli, "new", "g", "--ruleset", "light-shadow", "--deal", deal, message="光之国国王 发了2张，桌上只有1张")


@pytest.mark.parametrize("seed", ["-1", str(2**63)])
def test_seeds_are_in_range(bansha_cli, seed):
    refused(bansha_cli, "new", "g", "--ruleset", "m217", "--players", ",".join(M14), "--seed", seed, message="0 到 2^63−1")


def test_post_numbers(bansha_cli):
    bansha_cli.ok("new", "g", "--ruleset", "m217", "--players", ",".join(M14))
    bansha_cli.ok("resolve", "g", "--yes")  # 开局 → the first day's vote
    while not bansha_cli.load().phase.vote:
        bansha_cli.ok("resolve", "g", "--yes")
    for bad in ("0", "-3", "abc", "1.5", "9" * 27, "1000000001"):
        refused(bansha_cli, "vote", "g", "甲", "乙", "--post", bad, message="帖子楼层应为 1 到 1000000000 之间的整数")
    bansha_cli.ok("vote", "g", "甲", "乙", "--post", "１２")  # full-width digits are digits
    assert bansha_cli.load().ballots[-1].post == 12


# ----------------------------------------------------------------------------------- output


def test_json_errors_are_one_object_on_stdout(ls):
    before = db_bytes(ls)
    r = ls("act", "g", "无名氏", "询问", "--json")
    assert r.exit_code == 2 and json.loads(r.stdout) == {"error": "没有玩家 无名氏", "code": 2}
    assert db_bytes(ls) == before


def run(*args):
    """A command that takes no --db (it reads no game)."""
    from bansha.cli.cli import app
    from typer.testing import CliRunner

    return CliRunner().invoke(app, list(map(str, args)))


def test_markdown_with_json_is_refused():
    r = run("roles", "m217", "--markdown", "--json")
    assert r.exit_code == 2 and r.output.strip() == json.dumps({"error": "--markdown 与 --json 不能同时使用", "code": 2}, ensure_ascii=False)
    r = run("roles", "m217", "--markdown")
    assert r.exit_code == 0 and r.output.startswith("# 新日暮里")


def test_role_show_json_for_every_role():
    from bansha.engine.registry import installed_manifests, ruleset_for

    count = 0
    for m in installed_manifests().values():
        for role in ruleset_for(m).roles:
            r = run("role", "show", role, "--ruleset", m.id, "--json")
            assert r.exit_code == 0, (role, r.output)
            assert json.loads(r.output)["role"]["name"] == role
            count += 1
    assert count >= 80


def test_exports_escape_player_given_text(bansha_cli):
    players = ["[/list][b]梦见", "**卡片**", *M14[2:]]
    bansha_cli.ok("new", "g", "--ruleset", "m217", "--players", ",".join(players))
    bansha_cli.ok("ruling", "g", "announce", "--text", "**[/list]**[url=x]点我[/url]")
    bb = bansha_cli.ok("export", "g", "--format", "bbcode").output
    assert "[/list]**" not in bb and "[url=x]" not in bb and bb.count("[/list]") == bb.count("[list]")
    md = bansha_cli.ok("export", "g", "--format", "md").output
    assert "\\*\\*\\[/list\\]\\*\\*" in md
    assert json.loads(bansha_cli.ok("export", "g", "--json").output)["setup"]["ruleset"] == "m217"


def test_labels_are_the_boards_language_and_columns_align(ls):
    out = ls.ok("status", "g").output
    assert "存活" in out and "alive" not in out and "{" not in out and "['" not in out
    rows = [line for line in out.splitlines() if line[:5].strip().isdigit()]  # the seats (not the to-do list)
    # the third column (the camp) starts at the same terminal column in every row
    starts = {width(row[: row.index(camp)]) for row in rows for camp in ("光之国", "影之国") if camp in row}
    assert len(starts) == 1, rows
    act = ls("vote", "g", "梦见", "卡片")
    assert act.exit_code == 2 and act.output.startswith("错误：") and "不投票" in act.output


def test_status_into_a_closed_pipe_exits_0(ls):
    env = {"BANSHA_DB": str(ls.db), "PATH": "/usr/bin:/bin"}
    p = subprocess.Popen([sys.executable, "-m", "bansha.cli.cli", "demo", "--ruleset", "qisha-xia"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env)
    p.stdout.close()  # the reader is gone before anything is written (`… | head -0`)
    err = p.stderr.read().decode()
    assert p.wait() == 0 and "Traceback" not in err, err


def test_every_shipped_house_rule_declares_its_type():
    from bansha.engine.registry import installed_manifests

    for m in installed_manifests().values():
        assert m.language == "zh"
        assert set(m.option_types) == set(m.options), m.id


def test_the_catalogue_says_every_message_in_both_languages_with_the_same_fields():
    import string

    import bansha_forum  # noqa: F401 - the forum's words (bansha_forum/words.py) are the catalogue's too
    from bansha.text.messages import CATALOGUE

    def fields(text):
        return {f for _, f, _, _ in string.Formatter().parse(text) if f}

    for key, (zh, en) in CATALOGUE.items():
        assert zh and en, key
        assert fields(zh) == fields(en), key


def test_bansha_lang_chooses_the_language_before_a_board_is_known(bansha_cli, monkeypatch):
    monkeypatch.setenv("BANSHA_LANG", "en")
    assert "unknown ruleset nosuch" in refused(bansha_cli, "new", "g", "--ruleset", "nosuch", "--players", "a", message="error: ")
    monkeypatch.delenv("BANSHA_LANG")
    assert "没有规则 nosuch" in refused(bansha_cli, "new", "g", "--ruleset", "nosuch", "--players", "a", message="错误：")


def test_a_vote_without_its_post_number_where_the_board_reads_them(bansha_cli, tmp_path):
    """七杀·侠's 幻觉三 cut-off reads post numbers: a vote without one is recorded with a warning
    (docs/rulings/qisha-xia.md R-H5); a board that requires them refuses it."""
    bansha_cli.ok("new", "g", "--ruleset", "qisha-xia", "--players", ",".join(XIA20))
    while not bansha_cli.load().phase.vote:
        bansha_cli.ok("resolve", "g", "--yes")
    out = bansha_cli.ok("vote", "g", "侠01", "侠02").output
    assert "注意：侠01的投票没有注明楼层（--post N）：幻觉三的截止楼层按此票在截止前计算。" in out
    assert "注意" not in bansha_cli.ok("vote", "g", "侠03", "侠02", "--post", "7").output
    strict = tmp_path / "strict.toml"
    strict.write_text('extends = "qisha-xia"\nid = "xia-strict"\nname = "严格"\n[vote]\npost = "required"\npost_warning = ""\n',
                      encoding="utf-8")
    bansha_cli.ok("new", "h", "--ruleset", strict, "--players", ",".join(XIA20))
    while not bansha_cli.load("h").phase.vote:
        bansha_cli.ok("resolve", "h", "--yes")
    refused(bansha_cli, "vote", "h", "侠01", "侠02", message="侠01的投票需要注明楼层（--post N）")
