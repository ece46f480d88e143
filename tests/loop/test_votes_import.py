"""`bansha votes import`: pasted Discuz! vote threads of the two boards that vote (m217 and
qisha-xia; light-shadow takes no vote), read back through the CLI, each vote checked by the
engine, recorded with its floor and time, and nothing recorded twice."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from bansha.engine.model import VoteEvent

HERE = Path(__file__).parent
THREADS = HERE / "threads"
SAMPLE = Path("/work/shared/samples/discuz-vote-thread-m217.txt")
M217 = "子鼠,丑牛,寅虎,卯兔,辰龙,巳蛇,午马,未羊,申猴,酉鸡,戌狗,亥猪,春风,秋月"
XIA = "水饺,包子,馄饨,烧卖,油条,豆浆,煎饼,春卷,汤圆,粽子,月饼,麻花,锅贴,花卷,凉皮,肉夹馍,酸梅,米线,炒饭,面条"


def m217_at_noon(cli, *options):
    cli.ok("new", "g", "--ruleset", "m217", "--players", M217, "--seed", "3", *options)
    for _ in range(4):  # opening, dusk 1, night 1, dawn 1
        cli.ok("resolve", "g", "--yes")
    assert cli.load().label == "noon 1"


def rows(cli, *args):
    r = cli.ok("votes", "import", "g", *args, "--json")
    return {p["floor"]: p for p in json.loads(r.output)["posts"]}


def votes(cli):
    return [e for e in cli.events() if isinstance(e, VoteEvent)]


def test_m217_thread_with_quotes_typos_and_noise(bansha_cli):
    cli = bansha_cli
    m217_at_noon(cli)
    got = rows(cli, str(THREADS / "m217-noon1.txt"))
    assert len(got) == 23
    status = {f: p["status"] for f, p in got.items()}
    assert status[1] == "ignore" and "楼主" in got[1]["reason"]           # the director's format example
    assert status[5] == "ignore" and status[23] == "ignore"                # no vote in the post
    for f in (2, 3, 4, 6, 8, 9, 10, 11, 14, 16, 17, 18):
        assert status[f] == "record", (f, got[f])
    assert got[3]["target"] == "寅虎"                                      # half-width colons
    assert got[4]["target"] == "子鼠"                                      # reason on the same line, an edit note
    assert got[6]["recorded"]["target"] == "弃权"
    assert got[14]["target"] == "卯兔"                                     # spaces around the colon
    # 午马马: m217 takes no misspelt name, a new post corrects it (11#)
    assert status[7] == "reject" and "没有玩家午马马" in got[7]["reason"] and "午马？" in got[7]["reason"]
    assert got[11]["recorded"] == {"voter": "巳蛇", "target": "午马", "change": False, "late": False}
    assert got[9]["recorded"]["change"] is True                            # quotes its own 板凳
    assert status[12] == "reject" and "改票只允许进行一次" in got[12]["reason"]  # a second change
    assert status[13] == "reject" and "未引用" in got[13]["reason"]  # a change with no vote before
    assert status[15] == "reject" and "没有玩家" in got[15]["reason"]   # BBCode around a name
    assert status[19] == "reject" and "午马的10楼" in got[19]["reason"]  # someone else's quote
    assert status[20] == "reject" and "关门前一小时不允许改票" in got[20]["reason"]
    assert status[21] == "reject" and "关门前一小时不允许改票" in got[21]["reason"]  # 回复 14#, in the last hour
    assert status[22] == "reject" and "晚于截止时间" in got[22]["reason"]
    assert got[18]["recorded"]["late"] is True                             # a vote (not a change) in the last hour
    stored = votes(cli)
    assert [(e.voter, e.post) for e in stored][:3] == [("子鼠", 2), ("丑牛", 3), ("寅虎", 4)]
    assert stored[0].time == "2024-05-06 09:12:40"
    # the same thread again records nothing twice
    again = rows(cli, str(THREADS / "m217-noon1.txt"))
    assert votes(cli) == stored
    assert {f for f, p in again.items() if p["status"] == "done"} == {e.post for e in stored}


def test_the_shared_sample_thread(bansha_cli):
    if not SAMPLE.exists():
        pytest.skip("the shared sample is not on this machine")
    cli = bansha_cli
    m217_at_noon(cli)
    got = rows(cli, str(SAMPLE), "--yes")  # (the sample is day 2's thread: the guard asks --yes)
    recorded = sorted(f for f, p in got.items() if p["status"] == "record")
    assert recorded == [2, 3, 4, 6, 8, 9, 10, 12]
    assert {f: got[f]["status"] for f in (7, 11, 13, 14, 15)} == dict.fromkeys((7, 11, 13, 14, 15), "reject")


def test_qisha_xia_thread_typos_proposed_then_accepted(bansha_cli):
    cli = bansha_cli
    cli.ok("new", "g", "--ruleset", "qisha-xia", "--players", XIA, "--seed", "11")
    thread = str(THREADS / "qisha-xia-day1.txt")
    preview = cli.ok("votes", "import", "g", thread, "--dry-run")
    assert "截止 2024-05-07 22:00" in preview.output and "待确认" in preview.output
    assert votes(cli) == []                                                # --dry-run records nothing
    got = rows(cli, thread)
    status = {f: p["status"] for f, p in got.items()}
    # one 音同或形似 typo: proposed, not recorded
    assert status[5] == "propose" and "包子" in got[5]["reason"] and "--accept 5" in got[5]["reason"]
    assert status[8] == "propose" and "肉夹馍" in got[8]["reason"]
    assert got[7]["recorded"]["target"] == "弃权"                          # 投票对象：无
    assert status[11] == "record" and got[11]["recorded"]["change"]        # quotes the original
    assert status[12] == "reject" and "未引用" in got[12]["reason"]
    assert status[13] == "reject" and "路人甲" in got[13]["reason"]
    assert status[15] == "reject" and "不是玩家" in got[15]["reason"]
    assert status[16] == "reject" and "一次改票" in got[16]["reason"]      # a second change
    assert status[18] == "reject" and "汤圆的10楼" in got[18]["reason"]
    assert status[19] == "reject" and "一票投了2人" in got[19]["reason"]
    assert status[20] == "reject" and "为空" in got[20]["reason"]
    assert status[22] == "reject" and "1个小时不得改票" in got[22]["reason"]
    assert status[23] == "record" and got[23]["recorded"]["late"]
    assert status[24] == "reject" and "晚于截止时间" in got[24]["reason"]
    before = votes(cli)
    accepted = rows(cli, thread, "--accept", "5")
    assert accepted[5]["status"] == "record" and accepted[5]["recorded"]["target"] == "包子"
    assert accepted[8]["status"] == "propose"
    assert len(votes(cli)) == len(before) + 1
    # the illusion's cut-off reads the floors: every stored vote carries its floor
    assert all(e.post for e in votes(cli))


def test_refusals_are_one_line_and_change_nothing(bansha_cli, tmp_path):
    cli = bansha_cli
    cli.ok("new", "g", "--ruleset", "qisha-xia", "--players", XIA, "--seed", "11")
    empty = tmp_path / "empty.txt"
    empty.write_text("nothing here\n", encoding="utf-8")
    cli.refused("votes", "import", "g", str(empty), message="没有找到帖子")
    cli.refused("votes", "import", "g", str(tmp_path / "missing.txt"), message="无法读取")
    cli.refused("votes", "import", "g", str(THREADS / "qisha-xia-day1.txt"), "--accept", "99", message="--accept 99：帖子中没有这一楼")
    cli.refused("votes", "import", "g", str(THREADS / "qisha-xia-day1.txt"), "--close", "late", message="--close late：应为 HH:MM")
    cli.ok("resolve", "g", "--yes")  # night 1: no vote is taken
    cli.refused("votes", "import", "g", str(THREADS / "qisha-xia-day1.txt"), message="不投票")


def test_light_shadow_takes_no_vote(bansha_cli):
    cli = bansha_cli
    cli.ok("new", "g", "--ruleset", "light-shadow", "--players", "甲,乙,丙,丁,戊,己,庚,辛,壬,癸,子,丑", "--seed", "1")
    cli.refused("votes", "import", "g", str(THREADS / "m217-noon1.txt"), message="不投票")


def bansha_exe():
    exe = Path(sys.executable).parent / "bansha"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "bansha.cli.cli"]


def test_import_from_stdin_in_a_real_process(tmp_path):
    env = {**os.environ, "BANSHA_DB": str(tmp_path / "g.db")}

    def run(*args, stdin=None):
        return subprocess.run([*bansha_exe(), *args], input=stdin, capture_output=True, text=True, env=env)

    assert run("new", "g", "--ruleset", "m217", "--players", M217, "--seed", "3").returncode == 0
    for _ in range(4):
        assert run("resolve", "g", "--yes").returncode == 0
    text = (THREADS / "m217-noon1.txt").read_text(encoding="utf-8")
    r = run("votes", "import", "g", "-", stdin=text)
    assert r.returncode == 0, r.stderr
    assert "楼层" in r.stdout and "拒绝" in r.stdout and "写入 12 票" in r.stdout
    again = run("votes", "import", "g", "-", stdin=text)
    assert "写入 0 票" in again.stdout and "已记录 12" in again.stdout
    bad = run("votes", "import", "nope", "-", stdin=text)
    assert bad.returncode == 2 and bad.stderr.startswith("错误：") and len(bad.stderr.splitlines()) == 1


def test_illusion_three_cuts_the_imported_floors(bansha_cli):
    """幻觉三: 当天白天多少楼之后（含此楼）的投票或改票无效 — the floors the import recorded."""
    cli = bansha_cli
    cli.ok("new", "g", "--ruleset", "qisha-xia", "--players", XIA, "--seed", "11")
    assert cli.load().players["烧卖"].role == "幻侠"
    cli.ok("act", "g", "烧卖", "幻觉三", "--arg", "post=10")
    cli.ok("votes", "import", "g", str(THREADS / "qisha-xia-day1.txt"), "--accept", "5", "--accept", "8")
    r = cli.ok("resolve", "g", "--yes", "--json")
    ann = json.loads(r.output)["announcement"]
    assert "第10楼及之后的投票无效。" in ann
    # floors 2-9 count: 包子 ← 水饺(2#) 烧卖(5#) 春卷(9#); 水饺 ← 包子(3#) 油条(6#); 肉夹馍 ← 煎饼(8#)
    # (水饺's change at 11# is void, so his 2# vote for 包子 stands)
    assert "包子：3票" in ann and "水饺：2票" in ann and "肉夹馍：1票" in ann


def test_a_vote_stored_before_floors_and_times_still_loads():
    import msgspec
    from bansha.engine.model import Event

    old = b'{"type":"vote","phase":"day 1","voter":"a","target":"b","post":3,"change":false}'
    ev = msgspec.json.decode(old, type=Event)
    assert isinstance(ev, VoteEvent) and ev.time == "" and ev.post == 3
