"""`bansha amend` corrects a closed phase (printed first, written with --yes, an event in the
log, corrections in the PMs) and `bansha undo --to PHASE` drops every event after a phase."""

import json
import os
import subprocess

from bansha.engine.model import AmendEvent, ResolveEvent
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


def test_undo_of_a_resolution_previews_and_asks(bansha_cli):
    """Issue 31: `undo` of a resolve shows what it withdraws and writes nothing without --yes,
    as `amend` does; `undo --to` names the corrections of earlier phases it would drop."""
    cli = bansha_cli
    killed_at_night(cli)
    before = cli.events()
    r = cli.ok("undo", "g")
    lines = r.output.splitlines()
    assert lines[0] == "撤销第1天 夜晚的结算，回到第1天 夜晚结算之前；撤销后："
    assert "  （公开） - 第1天 夜晚：馄饨出局，身份是侠士。" in lines                # the exit's lines are withdrawn
    assert "  存活：馄饨 出局 → 存活" in lines and lines[-1] == "未写入：确认撤销请加 --yes"
    assert cli.events() == before
    cli.ok("undo", "g", "--yes")
    assert cli.events() == before[:-1] and cli.load().label == "night 1"
    cli.ok("resolve", "g", "--yes")
    cli.ok("undo", "g", "--yes")                                   # a resolution, written at once with --yes
    cli.ok("resolve", "g", "--yes")
    # a correction of night 1 written in day 2: `undo --to 第1天 夜晚` would drop it
    cli.ok("amend", "g", "--phase", "第1天 夜晚", "act", "花卷", "验人", "包子", "--yes")
    events = cli.events()
    r = cli.ok("undo", "g", "--to", "第1天 夜晚")
    assert "将丢弃对第1天 夜晚的更正：" in r.output and "花卷" in r.output and "未写入：确认撤销请加 --yes" in r.output
    assert cli.events() == events
    r = cli.ok("undo", "g", "--to", "第1天 夜晚", "--yes")
    assert cli.events() == events[:-1]


def test_amend_act_replaces_the_earlier_action_on_every_board(bansha_cli):
    """Issue 31: `amend act` of a skill already sent in the phase replaces that action (not only a
    group's, as on 七杀·侠): 光影传说's one skill a day, 新日暮里's night skill."""
    cli = bansha_cli
    cli.ok("new", "g", "--ruleset", "light-shadow", "--players", ",".join(f"P{i:02}" for i in range(1, 13)), "--seed", "5")
    assert cli.load().players["P08"].role == "国王"
    cli.ok("act", "g", "P08", "辨别", "P02")
    cli.ok("resolve", "g", "--yes")
    r = cli.ok("amend", "g", "--phase", "第0天", "act", "P08", "辨别", "P03", "--yes")
    assert "[P08] - 第0天：P02是影之国的。" in r.output and "[P08] + 第0天：P03是影之国的。" in r.output
    told = [t for ph, t in cli.load().feedback["P08"] if ph == "day 0"]
    assert "P03是影之国的。" in told and "P02是影之国的。" not in told


def test_amend_act_replaces_on_m217(bansha_cli):
    from test_votes_import import M217

    cli = bansha_cli
    cli.ok("new", "g", "--ruleset", "m217", "--players", M217, "--seed", "3")
    cli.ok("resolve", "g", "--yes")
    cli.ok("resolve", "g", "--yes")
    g = cli.load()
    hunter = next((p.name for p in g.players.values() if p.role == "猎魔人"), None)
    seer = next((p.name for p in g.players.values() if p.role == "预言家"), None)
    actor, skill = (hunter, "猎杀") if hunter else (seer, "预言")
    assert actor, "the table dealt with seed 3 has a 猎魔人 or a 预言家"
    others = [p.name for p in g.players.values() if p.name != actor]
    cli.ok("act", "g", actor, skill, others[0])
    cli.ok("resolve", "g", "--yes")
    cli.ok("amend", "g", "--phase", "第1天 夜晚", "act", actor, skill, others[1], "--yes")
    acted = [e for e in cli.load().applied if type(e).__name__ == "ActEvent" and e.actor == actor and e.phase == "night 1"]
    assert [e.targets for e in acted][-1] == [others[1]]


DUEL_TABLE = [("甲", "狼巫"), ("乙", "狼巫"), ("丙", "石像鬼"), ("丁", "狼巫"), ("戊", "预言家"), ("己", "通灵师"),
              ("庚", "女巫"), ("辛", "骑士"), ("壬", "通灵师"), ("癸", "魔术师"), ("子", "灵鹿"), ("丑", "猎魔人"),
              ("寅", "企鹅"), ("卯", "狐狸")]


def test_a_corrected_ballot_is_judged_where_the_ballot_it_changes_was_cast(bansha_cli, tmp_path):
    """> 1此玩家为[狼人阵营]，目标将受到[穿透]，可留遗言，且当天投票取消。 (骑士<决斗>)
    A ballot cast before the duel stood; the director corrects its target afterwards. The
    conformance walk found the correction refused ("决斗：当天投票取消"): it was replayed just before
    noon's resolution, after the duel. A `--change` now comes right after the ballot it changes,
    as an amended act takes the place of the act it replaces."""
    cli = bansha_cli
    deal = tmp_path / "deal.toml"
    deal.write_text("".join(f'[[players]]\nname = "{n}"\nrole = "{r}"\n' for n, r in DUEL_TABLE), encoding="utf-8")
    cli.ok("new", "g", "--ruleset", "m217", "--deal", deal)
    for _ in range(4):  # 开局, 第0天 黄昏, 第1天 夜晚, 第1天 晨曦
        cli.ok("resolve", "g", "--yes")
    cli.ok("vote", "g", "甲", "丁")
    cli.ok("vote", "g", "丙", "戊")
    cli.ok("act", "g", "辛", "决斗", "甲")             # 甲 is of the wolves: the day's vote is cancelled
    cli.refused("vote", "g", "乙", "丁", message="决斗：当天投票取消。")
    cli.ok("resolve", "g", "--yes")
    r = cli.ok("amend", "g", "vote", "丙", "丁", "--change", "--phase", "第1天 正午", "--yes")
    assert "更正 第1天 正午：丙 投 丁（改票）" in r.output
    assert "告知的内容没有变化" in r.output            # the vote stays cancelled: nobody voted out
    g = cli.load()
    assert not g.players["甲"].alive and g.players["丁"].alive and g.players["戊"].alive
    # replayed in its place: 甲's ballot, 丙's, its correction, then the duel
    noon = [(type(e).__name__, getattr(e, "voter", getattr(e, "actor", "")))
            for e in g.applied if getattr(e, "phase", "") == "noon 1" and type(e).__name__ in ("VoteEvent", "ActEvent")]
    assert noon == [("VoteEvent", "甲"), ("VoteEvent", "丙"), ("VoteEvent", "丙"), ("ActEvent", "辛")]
    # a ballot never cast is still added just before the resolution, after the duel: refused
    cli.refused("amend", "g", "vote", "乙", "丁", "--phase", "第1天 正午",
                message="对第1天 正午的更正被拒绝：决斗：当天投票取消。")
