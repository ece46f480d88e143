"""`bansha amend` corrects a closed phase (printed first, written with --yes, an event in the
log, corrections in the PMs) and `bansha undo --to PHASE` drops every event after a phase."""

import json
import os
import subprocess

from bansha.model import AmendEvent, ResolveEvent
from test_votes_import import XIA, bansha_exe


def killed_at_night(cli):
    cli.ok("new", "g", "--ruleset", "qisha-xia", "--players", XIA, "--seed", "11")
    roles = {p.role: p.name for p in cli.load().players.values()}
    assert roles["黑侠"] and roles["赤侠"] == "花卷" and roles["白侠"] == "肉夹馍"
    cli.ok("resolve", "g", "--yes")                       # day 1
    cli.ok("act", "g", "包子", "杀人", "馄饨")
    cli.ok("resolve", "g", "--yes")                       # night 1: 馄饨 out
    assert not cli.load().players["馄饨"].alive


def test_amend_prints_then_writes_and_pm_gives_the_correction(bansha_cli):
    cli = bansha_cli
    killed_at_night(cli)
    before = cli.events()
    r = cli.ok("amend", "g", "--phase", "night 1", "act", "花卷", "验人", "包子")
    assert "更正 第1天 夜晚：花卷 验人 包子" in r.output             # the board's name of the phase
    assert "[花卷] + 第1天 夜晚：" in r.output and "night" not in r.output and "未写入：加 --yes 才写入" in r.output
    assert cli.events() == before                               # a preview writes nothing
    r = cli.ok("amend", "g", "--phase", "第1天 夜晚", "act", "花卷", "验人", "包子", "--yes")
    assert "已写入：更正已记入日志" in r.output
    events = cli.events()
    assert events[:-1] == before and isinstance(events[-1], AmendEvent)
    assert events[-1].record["feedback"]["花卷"]["added"]
    # the log: what was told first (the resolve's record), then the correction
    log = cli.ok("log", "g").output
    assert "结算   阶段=第1天 夜晚 出局=馄饨" in log
    assert "更正   阶段=第1天 夜晚 输入=（行动 行动者=花卷 技能=验人 目标=包子）" in log
    blocks = json.loads(cli.ok("pm", "g", "--json").output)
    mine = next(b for b in blocks if b["player"] == "花卷")
    assert mine["correction"]["added"] and mine["lines"]          # the corrected feedback of night 1
    assert all(b["player"] == "花卷" for b in blocks)             # nobody else is told anything
    text = cli.ok("pm", "g", "--player", "花卷").output
    assert "【更正】" in text and "更正为：第1天 夜晚：" in text
    # a heal inserted: the death is undone and everything after replays on it
    r = cli.ok("amend", "g", "--phase", "night 1", "act", "肉夹馍", "救治", "馄饨", "--yes")
    assert "存活：馄饨 出局 → 存活" in r.output and "（公开） - 第1天 夜晚：馄饨出局" in r.output
    assert cli.load().players["馄饨"].alive and cli.load().label == "day 2"
    post = cli.ok("post", "g", "--phase", "night 1", "--format", "text").output
    # the night's post as it now reads, and the thread told what the amendment changed
    assert post.startswith("【七杀·侠】第1天 夜晚公告\n\n【更正】\n撤回：第1天 夜晚：馄饨出局")
    assert "【出局】" not in post


def test_amend_refusals_change_nothing(bansha_cli):
    cli = bansha_cli
    killed_at_night(cli)
    cli.refused("amend", "g", "--phase", "day 2", "act", "花卷", "验人", "包子", "--yes", message="第2天 白天尚未结束：请用 act、unact 或 vote 记录")
    cli.refused("amend", "g", "--phase", "night 1", "act", "花卷", "飞天", "包子", "--yes", message="对第1天 夜晚的更正被拒绝：")
    cli.refused("amend", "g", "--phase", "night 1", "dance", "花卷", message="amend dance：应为 act、unact 或 vote")
    cli.refused("amend", "g", "--phase", "night 1", "unact", "花卷", message="amend unact：应为 玩家 技能")
    assert cli("amend", "g", "act", "花卷", "验人", "包子").exit_code == 2  # a usage error (one line from `bansha`)
    cli.refused("amend", "g", "--phase", "night 1", "unact", "花卷", "验人", "--yes", message="没有可撤回的验人")


def test_undo_to_a_phase(bansha_cli):
    cli = bansha_cli
    killed_at_night(cli)
    cli.ok("vote", "g", "水饺", "包子")
    r = cli.ok("undo", "g", "--to", "第1天 白天")
    assert "撤销了3条事件；游戏回到 第1天 夜晚" in r.output and "已撤销：第2天 白天：水饺 投 包子\n" in r.output and "已撤销：结算 第1天 夜晚\n" in r.output
    events = cli.events()
    assert isinstance(events[-1], ResolveEvent) and events[-1].phase == "day 1"
    assert cli.load().players["馄饨"].alive
    cli.refused("undo", "g", "--to", "night 4", message="--to night 4：第4天 夜晚 尚未结算")
    cli.refused("undo", "g", "--to", "someday", message="someday")


def test_amend_in_a_real_process(tmp_path):
    env = {**os.environ, "BANSHA_DB": str(tmp_path / "g.db")}

    def run(*args):
        return subprocess.run([*bansha_exe(), *args], capture_output=True, text=True, env=env)

    assert run("new", "g", "--ruleset", "qisha-xia", "--players", XIA, "--seed", "11").returncode == 0
    for cmd in (("resolve", "g", "--yes"), ("act", "g", "包子", "杀人", "馄饨"), ("resolve", "g", "--yes")):
        assert run(*cmd).returncode == 0
    r = run("amend", "g", "--phase", "night 1", "unact", "包子", "杀人", "--yes")
    assert r.returncode == 0 and "存活：馄饨 出局 → 存活" in r.stdout
    r = run("amend", "g", "--phase", "night 9", "unact", "包子", "杀人")
    assert r.returncode == 2 and r.stderr.startswith("错误：") and len(r.stderr.splitlines()) == 1
