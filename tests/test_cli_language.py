"""One language per board, for the director's commands: every line `act --file`, `amend`,
`undo --to`, `votes import`, `post`, `pm`, `db …`, `scenario run` and `simulate` print, and
every refusal of theirs, is said by the kernel's catalogue — in the board's language once the
game is known (the shipped boards: Chinese), else in ``BANSHA_LANG`` (else Chinese).

Each command is played in a real process (the venv's ``bansha``) on a shipped Chinese board.
A Chinese line passes when every ASCII word in it, once the file paths are taken out, is a
name the director typed, a command or option word, a phase label (a field: ``night 1``) or
one of the few tokens the messages quote (``actor``, ``HH:MM``, ``pip install``…); see
``TOKENS``. The English half is checked once where no board is known (``db``, ``scenario
run``, ``simulate``'s refusals of its own options) with ``BANSHA_LANG=en``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
XIA = "水饺,包子,馄饨,烧卖,油条,豆浆,煎饼,春卷,汤圆,粽子,月饼,麻花,锅贴,花卷,凉皮,肉夹馍,酸梅,米线,炒饭,面条"
THREAD = ROOT / "tests" / "loop" / "threads" / "qisha-xia-day1.txt"
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
#: ASCII words a Chinese line may hold: commands and options, phase labels, the event kinds
#: and fields `undo` lists, the file formats' own keys, and what a message quotes to be typed
TOKENS = {
    "bansha", "act", "unact", "vote", "amend", "undo", "pm", "post", "file", "arg", "phase", "yes",
    "to", "accept", "close", "template", "format", "bbcode", "md", "text", "json", "opening", "day",
    "night", "runoff", "actor", "skill", "targets", "args", "withdraw", "actions", "target", "voter",
    "resolve", "seq", "HH", "MM", "YYYY", "M", "D", "forum", "qisha", "xia", "mafia", "basic",
    "corrections", "last_words", "deaths", "votes", "announcements", "seats", "deadline", "names",
    "clock", "KEY", "V1", "V2", "vary", "option", "games", "days", "keep", "jobs",
    "plot", "png", "svg", "pdf", "toml", "csv", "db", "SQLiteStore", "sqlite", "g", "h", "x", "late",
    "weather", "nope", "colour", "GBK", "UTF", "TOML", "DD", "players", "role", "sections", "BLOB", "TEXT", "NUL", "CSV",
    # what the tests type: a wrong command word, a policy, the installed policies
    "dance", "clever", "informed", "random",
    # the fields of an event as `bansha log` and `undo` list them (the stored log's own keys)
    "out", "announcement", "event", "record", "feedback", "removed", "added", "alive", "was", "now", "type",
}


def bansha_exe() -> list[str]:
    exe = Path(sys.executable).parent / "bansha"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "bansha.cli.cli"]


class Board:
    """A qisha-xia game in its own database, played by the real `bansha` in a process."""

    def __init__(self, tmp_path: Path, lang: str | None = None):
        self.tmp = tmp_path
        self.env = {k: v for k, v in os.environ.items() if k != "BANSHA_LANG"}
        self.env["BANSHA_DB"] = str(tmp_path / "g.db")
        if lang:
            self.env["BANSHA_LANG"] = lang

    def __call__(self, *args: str, code: int = 0) -> subprocess.CompletedProcess:
        r = subprocess.run([*bansha_exe(), *map(str, args)], capture_output=True, text=True, env=self.env, timeout=300)
        assert r.returncode == code, (args, r.returncode, r.stdout, r.stderr)
        return r

    def refused(self, *args: str, says: str, os_reason: bool = False) -> str:
        """One line ``错误：…`` naming ``says``, in Chinese; exit 2. ``os_reason``: the line ends
        with the system's own words after ``says`` (``strerror``: "No such file or directory")."""
        r = self(*args, code=2)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("错误：") and says in lines[0], (args, r.stderr)
        chinese(lines[0][:lines[0].index(says) + len(says)] if os_reason else lines[0], self.tmp)
        return lines[0]

    def file(self, name: str, text: str | bytes) -> Path:
        path = self.tmp / name
        path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
        return path


def chinese(text: str, tmp: Path | None = None) -> None:
    """No English in ``text``: every ASCII word (paths taken out) is one of ``TOKENS``."""
    if tmp is not None:
        text = text.replace(str(tmp), "")
    text = re.sub(r"\S*(?:/|\\)\S*", "", text)  # a path or a URL is a name, whatever it holds
    english = [w for w in WORD.findall(text) if w not in TOKENS]
    assert not english, (english, text)


@pytest.fixture
def xia(tmp_path) -> Board:
    b = Board(tmp_path)
    b("new", "g", "--ruleset", "qisha-xia", "--players", XIA, "--seed", "11")
    return b


def test_act_file_amend_and_undo_to_speak_the_board_language(xia):
    b = xia
    b("resolve", "g", "--yes")  # day 1 closes: night 1
    bad = b.file("n.csv", "包子,杀人,馄饨\n水饺,飞天,馄饨\n")
    line = b.refused("act", "g", "--file", bad, says="n.csv：什么也没有记录；第2行：水饺 飞天：")
    assert "第1行" not in line
    b.refused("act", "g", "--file", b.file("w.csv", "a,b,c,d,e\n"), says="第1行：应为 actor,skill,targets,args（给了5个字段）")
    b.refused("act", "g", "--file", b.file("k.csv", "包子,杀人,馄饨,x\n"), says="第1行：args x：应为 键=值")
    b.refused("act", "g", "--file", b.file("e.toml", "colour = 1\n"), says="e.toml：文件应只有一个列表 actions（另有：colour）")
    b.refused("act", "g", "--file", b.file("t.toml", "actions = [1]\n"), says="一个行动是一个表 { actor = …, skill = … }")
    b.refused("act", "g", "--file", b.file("u.toml", 'actions = [{ actor = "包子", skill = "杀人", target = "x" }]\n'),
              says="第1行：未知的键 target（可用的键：")
    b.refused("act", "g", "--file", b.file("b.csv", b"\xff\xfe"), says="b.csv：第1行不是 UTF-8 文本（第1字节无法解码）")
    b.refused("act", "g", "--file", b.file("none.csv", "# nothing\n"), says="none.csv：文件中没有行动")
    b.refused("act", "g", "--file", b.tmp / "missing.csv", says="missing.csv：无法读取：文件或文件夹不存在")
    b.refused("act", "g", "包子", "--file", bad, says="给了 --file 就不再给玩家、技能")
    b.refused("act", "g", says="act：应为 玩家 技能 [目标…]，或 --file 文件")
    good = b.file("n.toml", 'actions = [\n  { actor = "包子", skill = "杀人", targets = ["馄饨"] },\n'
                            '  { actor = "包子", skill = "杀人", withdraw = true },\n'
                            '  { actor = "包子", skill = "杀人", targets = ["馄饨"] },\n]\n')
    out = b("act", "g", "--file", good).stdout
    assert out.splitlines()[:3] == ["已记录：包子 杀人 馄饨", "已撤回：包子 杀人（第1天 夜晚）", "已记录：包子 杀人 馄饨"], out
    assert out.splitlines()[-1] == "第1天 夜晚记录了3个行动", out
    chinese(out)
    b("resolve", "g", "--yes")  # night 1: 馄饨 out
    preview = b("amend", "g", "--phase", "night 1", "unact", "包子", "杀人").stdout
    assert preview.startswith("更正 第1天 夜晚：撤回 包子 杀人\n") and "存活：馄饨 出局 → 存活" in preview, preview
    assert preview.splitlines()[-1] == "未写入：加 --yes 才写入"
    chinese(preview)
    written = b("amend", "g", "--phase", "night 1", "unact", "包子", "杀人", "--yes").stdout
    assert written.splitlines()[-1].startswith("已写入：更正已记入日志"), written
    chinese(written)
    b.refused("amend", "g", "--phase", "night 1", "dance", "包子", says="amend dance：应为 act、unact 或 vote")
    b.refused("amend", "g", "--phase", "night 1", "vote", "包子", says="amend vote：应为 投票人 目标")
    b.refused("amend", "g", "--phase", "night 1", "act", "花卷", "验人", "包子", "--arg", "x", says="--arg x：应为 键=值")
    b.refused("undo", "g", "--to", "night 4", says="--to night 4：第4天 夜晚 尚未结算")
    undone = b("undo", "g", "--to", "第1天 白天").stdout
    assert undone.splitlines()[0].startswith("已撤销：") and undone.splitlines()[-1] == "撤销了5条事件；游戏回到 第1天 夜晚", undone
    chinese(undone)


def test_votes_import_post_pm_and_the_board_template_speak_the_board_language(xia):
    b = xia
    b.refused("post", "g", says="还没有结算过任何阶段（游戏当前在 day 1）；请用 --phase 指定阶段")
    b.refused("votes", "import", "g", b.tmp / "missing.txt", says="missing.txt：无法读取：文件或文件夹不存在")
    b.refused("votes", "import", "g", b.file("gbk.txt", b"\xff\xff\xff"), says="gbk.txt：既不是 UTF-8 也不是 GBK 编码的文本")
    b.refused("votes", "import", "g", b.file("empty.txt", "没有帖子\n"), says="empty.txt：没有找到帖子")
    b.refused("votes", "import", "g", THREAD, "--accept", "99", says="--accept 99：帖子中没有这一楼")
    b.refused("votes", "import", "g", THREAD, "--close", "晚上", says="--close 晚上：应为 HH:MM 或 YYYY-MM-DD HH:MM")
    twice = THREAD.read_text(encoding="utf-8")
    b.refused("votes", "import", "g", b.file("twice.txt", twice + "\n" + twice), says="twice.txt：第")
    no_forum = b.file("plain.toml", '[names]\nopening = "开局"\n')
    b.refused("votes", "import", "g", THREAD, "--template", no_forum, says="规则 qisha-xia 的版面没有投票帖格式")
    from bansha.engine.board import board_file

    shipped = board_file("qisha-xia").read_text(encoding="utf-8")
    clock = b.file("clock.toml", shipped.replace('close = "次日 22:00"', 'close = "次日 晚上"', 1))
    b.refused("votes", "import", "g", THREAD, "--template", clock, says="clock.toml：键 clock.day.close：次日 晚上 应为 HH:MM 或 次日 HH:MM")
    b("resolve", "g", "--yes")
    b.refused("post", "g", "--phase", "night 7", says="--phase night 7：第7天 夜晚 尚未进行（已进行：第1天 白天、第1天 夜晚）")
    b.refused("post", "g", "--format", "x", says="--format x：应为 bbcode、md 或 text")
    b.refused("pm", "g", "--all", "--format", "x", says="--format x：应为 text、bbcode 或 json")
    b.refused("post", "g", "--template", b.file("bad.toml", "[names\n"), says="bad.toml：不是有效的 TOML：第1行第7列：表头缺少 ]")
    b.refused("post", "g", "--template", b.tmp / "none.toml", says="none.toml：无法读取版面模板：文件或文件夹不存在")
    b.refused("post", "g", "--template", b.file("t.toml", "[weather]\n"), says="t.toml：未知的表 weather（可用：")
    b.refused("post", "g", "--template", b.file("s.toml", "[post]\nsections = ['weather']\n"),
              says="s.toml：键 post.sections[0]：weather 不是可选值（可选：corrections、last_words")
    b.refused("votes", "import", "g", THREAD, says="第1天 夜晚不投票")


def test_db_lines_are_said_before_any_board(tmp_path):
    zh, en = Board(tmp_path), Board(tmp_path, "en")
    zh("new", "g", "--ruleset", "qisha-xia", "--players", XIA, "--seed", "1")
    db = str(tmp_path / "g.db")
    info = zh("db", "info").stdout.strip()
    assert info.startswith(f"{db}：SQLiteStore，数据库版本 ") and info.endswith("，1局游戏"), info
    chinese(info, tmp_path)
    assert re.fullmatch(re.escape(db) + r": SQLiteStore, schema \d+ \(this bansha reads up to \d+\), 1 game\(s\)",
                        en("db", "info").stdout.strip())
    assert zh("db", "upgrade").stdout.strip().endswith("，已是最新")
    assert en("db", "upgrade").stdout.strip().endswith(" is current")
    assert zh("db", "copy", db, tmp_path / "b.db").stdout.splitlines() == ["已复制 g（0条事件）"]
    assert en("db", "copy", db, tmp_path / "c.db").stdout.splitlines() == ["copied g (0 events)"]
    # a refusal too: one line, in BANSHA_LANG, exit 2
    assert zh("db", "copy", db, tmp_path / "b.db", code=2).stderr.startswith("错误：")
    r = en("db", "info", "--json", "--db", tmp_path, code=2)
    assert json.loads(r.stdout)["error"].endswith("is a directory, not a game database")


def test_scenario_run_lines_are_said_before_any_board(tmp_path):
    text = (ROOT / "tests" / "scenarios" / "qisha-xia" / "011-block-checker-gets-check-failed.toml").read_text(encoding="utf-8")
    good = tmp_path / "good.toml"
    good.write_text(text, encoding="utf-8")
    broken = tmp_path / "broken.toml"
    broken.write_text('colour = "red"\n' + text, encoding="utf-8")
    zh, en = Board(tmp_path), Board(tmp_path, "en")
    r = zh("scenario", "run", "-v", good)
    assert r.stdout.splitlines() == [f"通过  {good}", "1个通过，0个失败"], r.stdout
    r = zh("scenario", "run", broken, code=2)
    assert r.stderr.startswith(f"无效  {broken}：") and "colour" in r.stderr, r.stderr
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(text.replace("验人失败", "验人成功"), encoding="utf-8")
    r = zh("scenario", "run", wrong, code=1)
    # the runner's label before any board; the mismatch itself in the scenario's board's language
    assert r.stdout.startswith(f"失败  {wrong}\n第1天 夜晚：\n- 赤的反馈：应有一行包含“验人成功”，实际 “验人失败”\n第1天 夜晚 的裁定记录：\n"), r.stdout
    assert not re.search(r"'s |\[\'| -> | is | on ", r.stdout), r.stdout  # the trace in the board's words
    assert r.stdout.splitlines()[-1] == "0个通过，1个失败"
    assert en("scenario", "run", wrong, code=1).stdout.startswith(f"FAILED  {wrong}\n第1天 夜晚：\n- 赤的反馈：")
    r = en("scenario", "run", "-v", good)
    assert r.stdout.splitlines() == [f"ok      {good}", "1 passed, 0 failed"], r.stdout
    assert en("scenario", "run", broken, code=2).stderr.startswith(f"INVALID {broken}: ")


def test_a_deal_file_names_its_key_in_the_board_language(tmp_path):
    b = Board(tmp_path)
    deal = b.file("deal.toml", 'players = [{ name = "甲", role = "无此角色" }]\n')
    b.refused("new", "g", "--ruleset", "qisha-xia", "--deal", deal, says="deal.toml：键 players[0].role：")


# simulate's own options are refused before any board is known; the ruleset's, in its language
SIM_OWN = [
    (["--games", "0"], "--games 至少为 1", "error: --games must be at least 1"),
    (["--jobs", "0"], "--jobs 至少为 1", "error: --jobs must be at least 1"),
    (["--keep", "9", "--games", "5"], "--keep 应在 0 到 --games 之间", "error: --keep must be from 0 to --games"),
    (["--plot", "x.pdf"], "--plot x.pdf：文件名应以 .png 或 .svg 结尾", "error: --plot x.pdf: the file must end in .png or .svg"),
    (["--option", "mafia"], "--option mafia：应为 键=值", "error: --option mafia: expected KEY=VALUE"),
    (["--vary", "mafia=1"], "--vary mafia=1：应为 KEY=V1,V2,…，至少两个取值",
     "error: --vary mafia=1: expected KEY=V1,V2,… with two values or more"),
    (["--policy", "clever"], "没有策略 clever（已安装：", "error: unknown policy clever (installed: "),
]


@pytest.mark.parametrize(("args", "zh", "en"), SIM_OWN, ids=[a[0].strip("-") for a, _, _ in SIM_OWN])
def test_simulate_refuses_its_own_options_in_bansha_lang(tmp_path, args, zh, en):
    line = Board(tmp_path).refused("simulate", "mafia-basic", *args, says=zh)
    assert line.startswith("错误：" + zh.split("（")[0])
    r = Board(tmp_path, "en")("simulate", "mafia-basic", *args, code=2)
    assert r.stderr.startswith(en) and len(r.stderr.strip().splitlines()) == 1, r.stderr
    j = Board(tmp_path, "en")("simulate", "mafia-basic", *args, "--json", code=2)
    assert j.stderr == "" and ("error: " + json.loads(j.stdout)["error"]).startswith(en), j.stdout


def test_simulate_refuses_what_the_ruleset_lacks_in_the_board_language(tmp_path):
    for lang in (None, "en"):  # BANSHA_LANG does not change a board's language
        b = Board(tmp_path, lang)
        b.refused("simulate", "mafia-basic", "--seats", "3", says="规则 mafia-basic 没有 3 人的桌型（桌型：5、6、")
        b.refused("simulate", "mafia-basic", "--option", "colour=red", says="--option colour：规则 mafia-basic 没有房规 colour（房规：mafia）")
        b.refused("simulate", "mafia-basic", "--vary", "colour=1,2", says="--vary colour：规则 mafia-basic 没有房规 colour")



def test_the_simulate_report_is_in_the_board_language(tmp_path):
    """The text report's labels: Chinese on a Chinese board, whatever BANSHA_LANG says."""
    for lang in (None, "en"):
        out = Board(tmp_path, lang)("simulate", "mafia-basic", "--seats", "7", "--games", "10", "--jobs", "1",
                                    "--vary", "mafia=1,2").stdout
        assert out.startswith("mafia-basic，7人桌，10局，策略 random，种子 0…9，mafia=1\n"), out
        for label in ("阵营", "胜局", "胜率 [95% Wilson 区间]", "（天数上限 30）", "游戏天数：", "发牌次数", "存活率", "死因：",
                      "与 mafia=1 的配对差：", "个百分点", "每秒 "):
            assert label in out, label
        # the causes of death are the ruling trace's kill kinds (`vote` is the kernel's own)
        chinese(out.replace("Wilson", "").replace("vote", ""))
