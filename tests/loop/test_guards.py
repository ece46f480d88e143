"""Issue 20, item 4, through the real CLI: the commands that change a game refuse what looks
like a slip — `resolve` with nothing recorded though a seat could act or vote, with a 【强制】
skill unsent, or of another phase than --phase names; `votes import` of another phase's
thread. One line in the board's language, exit code 2, the store unchanged, a JSON object
with --json; --yes does it anyway."""

import json
import os
import subprocess

from test_votes_import import M217, THREADS, XIA, bansha_exe, m217_at_noon

NOON1 = THREADS / "m217-noon1.txt"


def refused_unchanged(cli, *args, says):
    before = cli.events()
    r = cli.refused(*args, message=says)
    assert len(r.output.strip().splitlines()) == 1 and r.output.startswith("错误：")
    assert cli.events() == before
    out = cli(*args, "--json")
    assert out.exit_code == 2 and json.loads(out.output) == {"error": r.output.strip().removeprefix("错误："), "code": 2}
    assert cli.events() == before
    return r


def test_a_second_resolve_typed_by_mistake_is_refused(bansha_cli):
    cli = bansha_cli
    cli.ok("new", "g", "--ruleset", "qisha-xia", "--players", XIA, "--seed", "11")
    cli.ok("vote", "g", "水饺", "包子")
    out = cli.ok("resolve", "g").output                      # day 1: a vote was recorded
    assert "当前：第1天 夜晚" in out and "night 1" not in out
    # the same command again: night 1 has nothing in it, and 8 seats could act
    refused_unchanged(cli, "resolve", "g", says="第1天 夜晚尚未记录任何行动、投票或裁定（8人可以行动或投票）")
    assert cli.load().label == "night 1"
    cli.ok("act", "g", "包子", "杀人", "面条")
    cli.ok("resolve", "g")
    assert cli.load().label == "day 2"


def test_resolve_names_the_phase_it_closes(bansha_cli):
    cli = bansha_cli
    cli.ok("new", "g", "--ruleset", "qisha-xia", "--players", XIA, "--seed", "11")
    cli.ok("vote", "g", "水饺", "包子")
    refused_unchanged(cli, "resolve", "g", "--phase", "第2天 白天", says="当前阶段是第1天 白天，不是第2天 白天：未结算")
    refused_unchanged(cli, "resolve", "g", "--phase", "第1天 夜晚", says="不是第1天 夜晚")
    cli.ok("resolve", "g", "--phase", "第1天 白天")
    cli.refused("resolve", "g", "--phase", "day 1", "--yes", message="不是day 1")  # --yes does not pass it
    cli.ok("act", "g", "包子", "杀人", "面条")
    cli.ok("resolve", "g", "--phase", "night 1")              # the id is taken too


def test_a_forced_skill_unsent_is_listed_and_refused(bansha_cli):
    """> 潜藏[开局][黄昏][强制] (狼弟, seat 寅虎 with seed 0): the opening cannot close without it."""
    cli = bansha_cli
    cli.ok("new", "g", "--ruleset", "m217", "--players", M217, "--seed", "0")
    refused_unchanged(cli, "resolve", "g", says="开局尚有强制技能未提交：寅虎 潜藏；确认照样结算请加 --yes")
    view = json.loads(cli.ok("status", "g", "--json").output)["loop"]
    assert any(s["player"] == "寅虎" and s["skill"] == "潜藏" and s["forced"] for s in view["pending"])
    cli.ok("act", "g", "寅虎", "潜藏")
    cli.ok("resolve", "g")                                   # opening -> dusk 1
    # a phase where nobody may do anything (dawn 1 here) closes without --yes
    while cli.load().label != "dawn 1":
        cli.ok("resolve", "g", "--yes")
    cli.ok("resolve", "g")
    assert cli.load().label == "noon 1"


def test_resolve_yes_closes_an_empty_phase(bansha_cli):
    cli = bansha_cli
    cli.ok("new", "g", "--ruleset", "qisha-xia", "--players", XIA, "--seed", "11")
    refused_unchanged(cli, "resolve", "g", says="尚未记录任何行动")
    out = json.loads(cli.ok("resolve", "g", "--yes", "--json").output)
    assert out["phase"] == "day 1" and out["next"] == "night 1"


def test_another_days_thread_is_refused(bansha_cli, tmp_path):
    """Day 1's thread imported again at the next noon: its floors are recorded in 第1天 正午."""
    cli = bansha_cli
    m217_at_noon(cli)
    cli.ok("votes", "import", "g", str(NOON1))
    recorded = len(cli.events())
    for _ in range(4):                                       # noon 1 -> dusk 2 -> night 2 -> dawn 2 -> noon 2
        cli.ok("resolve", "g", "--yes")
    assert cli.load().label == "noon 2"
    refused_unchanged(cli, "votes", "import", "g", str(NOON1), says="已记录在第1天 正午")
    # a day-2 title whose posts are older than the votes already recorded
    older = tmp_path / "older.txt"
    older.write_text(NOON1.read_text(encoding="utf-8").replace("第1日", "第2日").replace("2024-5-6", "2024-5-5"),
                     encoding="utf-8")
    refused_unchanged(cli, "votes", "import", "g", str(older), says="早于此前阶段记录的最后一票")
    # a thread whose title names day 1, posted later
    titled = tmp_path / "titled.txt"
    titled.write_text(NOON1.read_text(encoding="utf-8").replace("2024-5-6", "2024-5-8"), encoding="utf-8")
    refused_unchanged(cli, "votes", "import", "g", str(titled), says="1楼的标题是第1天，当前是第2天 正午")
    assert len(cli.events()) == recorded + 4
    cli.ok("votes", "import", "g", str(titled), "--yes")
    assert len(cli.events()) > recorded + 4


def test_the_guard_in_a_real_process(tmp_path):
    env = {**os.environ, "BANSHA_DB": str(tmp_path / "g.db")}

    def run(*args):
        return subprocess.run([*bansha_exe(), *args], capture_output=True, text=True, env=env)

    assert run("new", "g", "--ruleset", "qisha-xia", "--players", XIA, "--seed", "11").returncode == 0
    assert run("vote", "g", "水饺", "包子").returncode == 0
    assert run("resolve", "g").returncode == 0
    again = run("resolve", "g")
    assert again.returncode == 2 and again.stdout == ""
    assert again.stderr.splitlines() == ["错误：第1天 夜晚尚未记录任何行动、投票或裁定（8人可以行动或投票）；确认照样结算请加 --yes"]
    as_json = run("resolve", "g", "--json")
    assert as_json.returncode == 2 and json.loads(as_json.stdout)["code"] == 2
    status = run("status", "g")
    assert status.stdout.splitlines()[0] == "qisha-xia — 第1天 夜晚"
