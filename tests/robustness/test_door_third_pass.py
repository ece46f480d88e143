"""Issue 22, the door's third pass: every input of the report is refused (exit 2, one line,
Chinese on a Chinese board, the store byte-identical) or, where it is valid, accepted.

Every case runs the real entry point (``bansha.cli.cli.main``, click's usage errors included) on a
real SQLite file; a full disk is SQLite's own SQLITE_FULL (a page limit the file reaches)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from clirun import LIBRARY_ENGLISH, run_main, settled_bytes

M14 = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛", "壬", "癸", "子", "丑", "寅", "卯"]
LS12 = ["梦见", "卡片", "阿木", "小雨", "青石", "白鹭", "黑猫", "夜莺", "铁山", "影子", "紫烟", "乌鸦"]
DEEP = "x = " + "[" * 5000 + "\n"


def run(argv: list) -> tuple[int, str]:
    """The CLI in this process (clirun.run_main), its two streams as one."""
    code, out, err = run_main(argv)
    return code, out + err


def refused(db: Path, *argv, says: str, as_json: bool = False, with_db: bool = True) -> str:
    """Exit 2, one line (one JSON object {"error", "code": 2} with --json) holding ``says``,
    in Chinese without a library's English, and the store byte-identical."""
    before = settled_bytes(db)
    code, out = run([*argv, *(["--db", db] if with_db else []), *(["--json"] if as_json else [])])
    lines = [line for line in out.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1, (argv, code, out)
    line = lines[0]
    if as_json:
        obj = json.loads(line)
        assert obj["code"] == 2, obj
        line = obj["error"]
    else:
        assert line.startswith("错误："), line
    assert says in line, (says, line)
    assert not [w for w in LIBRARY_ENGLISH if w in line], line
    assert settled_bytes(db) == before, argv
    return line


@pytest.fixture
def noon(tmp_path) -> Path:
    """An M217 game at its first vote (noon 1)."""
    db = tmp_path / "g.db"
    assert run(["new", "g", "--ruleset", "m217", "--players", ",".join(M14), "--db", db])[0] == 0
    for _ in range(4):
        assert run(["resolve", "g", "--yes", "--db", db])[0] == 0
    from bansha.store.store import Store

    assert Store(db).load("g").label == "noon 1"
    return db


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


# ------------------------------------------------------------------- nesting 5,000 deep


def test_toml_nested_5000_deep_is_one_line_on_every_surface_that_reads_toml(tmp_path, noon):
    deep = write(tmp_path, "deep.toml", DEEP)
    says = "deep.toml：数组或表嵌套太深（最多 32 层）"
    refused(noon, "new", "h", "--ruleset", deep, "--players", ",".join(M14), says=says)
    refused(noon, "new", "h", "--ruleset", "m217", "--deal", deep, says=says)
    refused(noon, "roles", deep, says=says, with_db=False)
    refused(noon, "post", "g", "--template", deep, says=says)
    refused(noon, "act", "g", "--file", deep, says=says)
    refused(noon, "act", "g", "--file", deep, says=says, as_json=True)
    folder = tmp_path / "scenarios"
    (folder / "sub").mkdir(parents=True)
    shutil.copy(deep, folder / "sub" / "deep.toml")
    code, out = run(["scenario", "run", folder])  # walking into it
    assert code == 2 and says in out and "Traceback" not in out, out
    code, out = run(["scenario", "run", folder, "--json"])
    obj = json.loads(out)
    assert code == 2 and out.count("\n") <= 1 and obj["code"] == 2 and says in obj["error"], out


# ------------------------------------------------------------------------ vote threads


def thread(floor: str, time: str, voter: str = "甲", target: str = "乙") -> str:
    return f"{voter}\n发表于 {time}\n{floor}\n投票对象：{target}\n投票理由：看着像\n"


def test_a_thread_whose_first_post_has_no_real_time_is_refused_naming_the_line(tmp_path, noon):
    bad = write(tmp_path, "t.txt", thread("楼主", "2024-13-45 27:61:00"))
    says = "t.txt：第2行：发帖时间 2024-13-45 27:61:00 不是有效的日期时间"
    refused(noon, "votes", "import", "g", bad, says=says)
    refused(noon, "votes", "import", "g", bad, says=says, as_json=True)


def test_a_later_post_with_no_real_time_or_a_floor_past_any_thread_is_rejected_and_not_stored(tmp_path, noon):
    text = thread("楼主", "2024-05-06 09:00:00", "乙", "丙") + thread("2#", "2024-13-45 27:61:00") \
        + thread("99999999999999999999999#", "2024-05-06 10:00:00", "丙", "甲")
    path = write(tmp_path, "t.txt", text)
    before = settled_bytes(noon)
    code, out = run(["votes", "import", "g", path, "--db", noon, "--json"])
    assert code == 0, out
    rows = {r["floor"]: r for r in json.loads(out)["posts"]}
    assert rows[2]["status"] == "reject" and "发帖时间 2024-13-45 27:61:00 不是有效的日期时间" in rows[2]["reason"]
    far = next(r for r in rows.values() if r["author"] == "丙")
    assert far["status"] == "reject" and "楼层号 99999999999999999999999# 超出范围" in far["reason"], far
    from bansha.engine.model import VoteEvent
    from bansha.store.store import Store

    assert all(e.post in (None, 1) for e in Store(noon).events("g") if isinstance(e, VoteEvent))
    assert before is not None


@pytest.mark.parametrize("close", ["25:99", "24:00", "12:60"])
def test_close_times_that_no_day_has(tmp_path, noon, close):
    path = write(tmp_path, "t.txt", thread("楼主", "2024-05-06 09:00:00"))
    refused(noon, "votes", "import", "g", path, "--close", close, says=f"--close {close}：应为 HH:MM")


# -------------------------------------------------------------------------- templates

M217_BOARD = __import__("bansha.engine.board", fromlist=["board_file"]).board_file("m217").read_text(encoding="utf-8")  # the installed board
TITLE = 'title = "【{board}】{phase}公告"'
BAD_TEMPLATES = {
    "sections-int": (('sections = ["last_words", "deaths", "votes", "announcements", "seats", "deadline"]', "sections = 3"),
                     "键 post.sections：应为数组，实际是整数"),
    "unknown-field": ((TITLE, 'title = "【{nosuch}】"'), "键 post.title：模板不能写 {nosuch}（可用：{board}、{phase}、{day}）"),
    "lone-brace": ((TITLE, 'title = "【{"'), "键 post.title：【{ 含有单独的 {"),
    "into-python": ((TITLE, 'title = "{board.__class__.__mro__}"'), "键 post.title：模板不能写 {board.__class__.__mro__}"),
    "index": (('greeting = "致 {name}（{seat}号）："', 'greeting = "{name[0]}"'), "键 pm.greeting：模板不能写 {name[0]}"),
    "conversion": (('phase = "第{day}天 {alias}"', 'phase = "{day!r}"'), "键 names.phase：模板不能写 {day!r}"),
    "close": (('close = "21:00"', 'close = "25:99"'), "键 clock.noon.close：25:99 应为 HH:MM 或 次日 HH:MM"),
    "weekday": (('extend_on = ["周六"]', 'extend_on = ["Friday"]'), "键 clock.noon.extend_on[0]：Friday 不是可选值（可选：周一"),
    "vote-counts": (('vote_counts = "top"', 'vote_counts = "most"'), "键 post.vote_counts：most 不是可选值（可选：all、top、none）"),
    "late": (("late = 60", "late = -60"), "键 clock.noon.late：应为 ≥ 0 的整数"),
    "typos": (("typos = 0", 'typos = "one"'), "键 forum.typos：应为整数，实际是文本"),
    "unknown-key": (("typos = 0", "typos = 0\ncolour = 1"), "键 forum.colour：未知的键"),
    "heading": (('deadline = "下一阶段"', 'weather = "天气"'), "键 post.headings：没有键 weather（可用：corrections、last_words"),
}


@pytest.mark.parametrize("case", sorted(BAD_TEMPLATES))
def test_a_bad_post_template_is_refused_naming_the_key(tmp_path, noon, case):
    (old, new), says = BAD_TEMPLATES[case]
    assert old in M217_BOARD
    path = write(tmp_path, "b.toml", M217_BOARD.replace(old, new, 1))
    refused(noon, "post", "g", "--template", path, says=f"b.toml：{says}")
    refused(noon, "pm", "g", "--all", "--template", path, says=says.split("：")[0], as_json=True)


def test_the_shipped_template_with_a_bom_still_posts(tmp_path, noon):
    path = write(tmp_path, "b.toml", "\ufeff" + M217_BOARD)
    code, out = run(["post", "g", "--template", path, "--db", noon])
    assert code == 0 and "座位表" in out, out


# ----------------------------------------------------------------------- manifests

VARIANTS = {
    "language": ('language = "fr"', "键 language：fr 不是可选值（可选：zh、en）"),
    "changes": ("[vote]\nchanges = -1", "键 vote.changes：应为 ≥ 0 的整数"),
    "tie": ('[vote]\ntie = "coinflip"', "规则 m217-x：键 vote.tie：coinflip 不是可选值（可选：none、extra-noon）"),
    "threshold": ("[vote]\nthreshold = 5.0", "键 vote.threshold：应为 ≤ 1.0 的数字"),
    "option": ("[options]\nnosuch = 1", "键 options.nosuch：规则 m217 没有房规 nosuch"),
    "text-into-python": ('[texts]\nout = "{name.__class__}"', "键 texts.out：模板不能写 {name.__class__}（可用：{name}、{identity}）"),
    "text-unknown-field": ('[texts]\ncounts = "{who}：{count}"', "键 texts.counts：模板不能写 {who}"),
    "wrong-type": ("first_day = \"one\"", "键 first_day：应为整数，实际是文本"),
    "unknown-key": ("colour = 1", "键 colour：未知的键"),
    "bad-toml": ("[vote\n", "不是有效的 TOML：第3行第6列：表头缺少 ]"),
}


@pytest.mark.parametrize("case", sorted(VARIANTS))
def test_a_variant_that_extends_a_board_is_checked_key_by_key(tmp_path, noon, case):
    text, says = VARIANTS[case]
    path = write(tmp_path, "v.toml", f'id = "m217-x"\nextends = "m217"\n{text}\n')
    refused(noon, "new", "h", "--ruleset", path, "--players", ",".join(M14), says=f"v.toml：{says}")


def test_a_variant_may_declare_a_house_rule_of_its_own(tmp_path, noon):
    path = write(tmp_path, "v.toml", 'id = "m217-x"\nextends = "m217"\n[options]\nmine = 1\n[option_types.mine]\ntype = "int"\n')
    code, out = run(["new", "h", "--ruleset", path, "--players", ",".join(M14), "--db", noon])
    assert code == 0, out


# ------------------------------------------------------------------------ deal files


def test_a_deal_file_with_a_bom_is_read_and_players_beside_it_are_refused(tmp_path, noon):
    from bansha.store.store import Store

    seats = Store(noon).setup("g").players
    text = "\n".join(f'[[players]]\nname = "{p.name}"\nrole = "{p.role}"' for p in seats)
    path = write(tmp_path, "deal.toml", "\ufeff" + text)
    refused(noon, "new", "h", "--ruleset", "m217", "--deal", path, "--players", ",".join(M14),
            says="--players 与 --deal 不能同时使用")
    code, out = run(["new", "h", "--ruleset", "m217", "--deal", path, "--db", noon])
    assert code == 0, out
    assert [p.name for p in Store(noon).setup("h").players] == [p.name for p in seats]
    typed = write(tmp_path, "typed.toml", text.replace(f'name = "{seats[0].name}"', "name = 1", 1))
    refused(noon, "new", "k", "--ruleset", "m217", "--deal", typed, says="typed.toml：键 players[0].name：应为文本，实际是整数")
    unknown = write(tmp_path, "unknown.toml", text + '\nhat = "red"\n')
    refused(noon, "new", "k", "--ruleset", "m217", "--deal", unknown, says="键 players[13].hat：未知的键")
    missing = write(tmp_path, "missing.toml", '[[players]]\nrole = "平民"\n')
    refused(noon, "new", "k", "--ruleset", "m217", "--deal", missing, says="键 players[0].name：缺少必填的键")
    latin = write(tmp_path, "latin.toml", b"[[players]]\nname = \"\xba\"\n")
    refused(noon, "new", "k", "--ruleset", "m217", "--deal", latin, says="latin.toml：第2行不是 UTF-8 文本（第21字节无法解码）")
    refused(noon, "new", "k", "--ruleset", "m217", "--deal", tmp_path / "nowhere.toml", says="无法读取发牌文件：文件或文件夹不存在")
    refused(noon, "new", "k", "--ruleset", "m217", "--deal", tmp_path, says="无法读取发牌文件：这是一个文件夹")


# ---------------------------------------------------------------------- action files


def test_action_files_deep_typed_and_with_a_bom(tmp_path, noon):
    typed = write(tmp_path, "a.toml", 'actions = [{ actor = "甲", skill = 1 }]\n')
    refused(noon, "act", "g", "--file", typed, says="a.toml：第1行：actor、skill、phase 应为文本")
    bom = write(tmp_path, "b.csv", "\ufeff# 注释\n")
    code, out = run(["act", "g", "--file", bom, "--db", noon])
    assert "codec" not in out and "Traceback" not in out, out
    nul = write(tmp_path, "n.csv", "甲,技能,乙,x=" + "9" * 5000 + "\n")
    code, out = run(["act", "g", "--file", nul, "--db", noon])
    assert code == 2 and "Traceback" not in out and len(out.strip().splitlines()) == 1, out


# ------------------------------------------------------------------ the store's cells


@pytest.mark.parametrize("command", [["status", "g"], ["log", "g"], ["vote", "g", "甲", "乙"], ["status", "g", "--as", "甲"]])
def test_a_text_cell_where_a_blob_belongs_is_a_damaged_event_named_by_number(noon, command):
    con = sqlite3.connect(noon)
    con.execute("UPDATE events SET event = CAST(event AS TEXT) WHERE seq = 2")
    con.commit()
    con.close()
    refused(noon, *command, says="游戏 'g'，第2条事件已损坏：单元格类型为 TEXT，应为 BLOB")
    refused(noon, *command, says="第2条事件已损坏", as_json=True)


def test_a_text_setup_cell_is_a_damaged_setup(noon):
    con = sqlite3.connect(noon)
    con.execute("UPDATE games SET setup = CAST(setup AS TEXT)")
    con.commit()
    con.close()
    refused(noon, "status", "g", says="保存的开局设置已损坏：单元格类型为 TEXT，应为 BLOB")


def test_a_full_disk_is_said_as_a_full_disk(noon):
    """SQLite's own SQLITE_FULL: the file may grow by no page (``max_page_count``)."""
    from bansha.store.store import Store, StoreError

    store = Store(noon)
    setup = store.setup("g")
    pages = store.db.execute("PRAGMA page_count").fetchone()[0]
    store.db.execute(f"PRAGMA max_page_count = {pages}")
    made = []
    with pytest.raises(StoreError) as err:
        for n in range(50):  # each set-up takes room: the file is full within a few
            store.create(f"h{n}", setup)
            made.append(f"h{n}")
    assert "磁盘已满：什么也没有写入" in str(err.value), err.value
    assert not [w for w in LIBRARY_ENGLISH if w in str(err.value)]
    assert sorted(Store(noon).names()) == sorted(["g", *made])  # the refused one is not there


# ------------------------------------------------------------- options and numbers


def test_conflicting_ignored_and_unbounded_options(tmp_path, noon):
    refused(noon, "pm", "g", "--format", "html", says="--format html：应为 text、bbcode 或 json")
    refused(noon, "vote", "g", "甲", "乙", "--post", "9" * 27, says="帖子楼层应为 1 到 1000000000 之间的整数")
    refused(noon, "simulate", "m217", "--seed", "-5", "--games", "1", says="--seed -5：种子应为 0 到 2^63−1")
    refused(noon, "status", "g", "extra", "args", says="多余的参数：extra args")
    refused(noon, "simulate", "m217", "--games", "x", says="--games 的值无效：x：应为整数")
    refused(noon, "new", "a\nb", "--ruleset", "m217", "--players", ",".join(M14), says="中间有换行")
    refused(noon, "new", "h", "--ruleset", "m217", "--players", ",".join([*M14[:-1], "卯\n辰"]), says="卯 辰 中间有换行")


def test_db_copy_from_no_file_creates_nothing(tmp_path):
    src, dst = tmp_path / "nosuch.db", tmp_path / "out.db"
    code, out = run(["db", "copy", src, dst])
    assert code == 2 and "没有这个存储文件" in out and len(out.strip().splitlines()) == 1, out
    assert not src.exists() and not dst.exists()


def test_an_answer_to_nobody_is_refused(tmp_path):
    db = tmp_path / "ls.db"
    assert run(["new", "g", "--ruleset", "light-shadow", "--players", ",".join(LS12), "--db", db])[0] == 0
    refused(db, "ruling", "g", "answer", "卡片", "--text", "是", says="卡片没有待回答的提问：什么也没有记录")


def test_activity_over_a_thread_with_no_real_times(tmp_path, noon):
    """bansha-forum's ``activity`` reads the same pasted thread: a post time no calendar has is
    neither early nor late, never a traceback."""
    path = write(tmp_path, "t.txt", thread("楼主", "2024-13-45 27:61:00", "导演", "") + thread("2#", "2024-05-06 25:00:00"))
    before = settled_bytes(noon)
    code, out = run(["activity", "g", path, "--db", noon])
    assert code == 0 and "Traceback" not in out and "催帖" in out, out
    assert settled_bytes(noon) == before


def test_a_bom_is_accepted_in_every_file_a_person_writes(tmp_path, noon):
    """Notepad writes UTF-8 with a BOM: a manifest, an action file and a scenario read as without."""
    bom = "\ufeff"
    variant = write(tmp_path, "v.toml", bom + 'id = "m217-bom"\nextends = "m217"\nname = "带 BOM 的变体"\n')
    code, out = run(["roles", variant])
    assert code == 0 and "m217-bom\t" in out, out
    actions = write(tmp_path, "a.toml", bom + 'actions = [{ actor = "甲", skill = "没有这个技能" }]\n')
    refused(noon, "act", "g", "--file", actions, says="a.toml：什么也没有记录")  # read: the skill is what is refused
    kernel = Path(__file__).resolve().parents[1] / "kernel"
    scenario = (kernel / "scenarios" / "night-kill-heal.toml").read_text(encoding="utf-8")
    path = write(tmp_path, "s.toml", bom + scenario.replace('ruleset = "../toy.toml"', f'ruleset = "{(kernel / "toy.toml").as_posix()}"'))
    code, out = run(["scenario", "run", path])
    assert code == 0, out


def test_numbers_of_5000_digits_are_text_or_refused_never_int(tmp_path, noon):
    """Python refuses to read an int of more than 4,300 digits (a ValueError); the store holds
    64 bits: a longer number is text where text is allowed, and refused where a number is."""
    n = "9" * 5000
    refused(noon, "act", "g", "甲", "没有这个技能", "乙", "--arg", f"n={n}", says="没有技能没有这个技能")
    refused(noon, "new", "h", "--ruleset", "light-shadow", "--players", ",".join(LS12), "--option", f"double_questions_day={n}",
            says="应为 0 到 ∞ 之间的整数")
    refused(noon, "new", "h", "--ruleset", "light-shadow", "--players", ",".join(LS12), "--option", f"double_questions_day={2**63}",
            says="应为 0 到 ∞ 之间的整数")
