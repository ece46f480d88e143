"""Issue 31, windows × output, through the real CLI in real processes: an m217 night closed
window by window (`resolve --window` four times) leaves a game whose every phase has its
`post` and its `pm` (the log keeps each resolve's `window`, so a replay closes the night the same
way); status and `resolve` name the window open and the ones just resolved, as the board names
them (早夜、午夜、深夜、凌晨)."""

import json
import os
import subprocess

from test_votes_import import bansha_exe

#: the 805 scenario's table (tests/scenarios/m217/805-night-windows-holy-water-then-save.toml)
TABLE = [("甲", "狼巫"), ("乙", "狼巫"), ("丙", "石像鬼"), ("丁", "狼巫"), ("戊", "预言家"), ("己", "通灵师"),
         ("庚", "女巫"), ("辛", "骑士"), ("壬", "狐狸"), ("癸", "魔术师"), ("子", "灵鹿"), ("丑", "猎魔人"),
         ("寅", "圣女"), ("卯", "企鹅")]


def deal_file(tmp_path, table=TABLE):
    path = tmp_path / "deal.toml"
    path.write_text("".join(f'[[players]]\nname = "{n}"\nrole = "{r}"\n\n' for n, r in table), encoding="utf-8")
    return path


def runner(tmp_path):
    env = {**os.environ, "BANSHA_DB": str(tmp_path / "g.db")}

    def run(*args, ok=True):
        r = subprocess.run([*bansha_exe(), *map(str, args)], capture_output=True, text=True, env=env)
        if ok:
            assert r.returncode == 0, (args, r.stdout, r.stderr)
            assert "Traceback" not in r.stderr
        return r

    return run


def test_a_night_closed_window_by_window_gives_every_post_and_pm(tmp_path):
    run = runner(tmp_path)
    run("new", "g", "--ruleset", "m217", "--deal", deal_file(tmp_path))
    run("resolve", "g")                                    # 开局
    run("resolve", "g", "--yes")                           # 第0天 黄昏 (the first one)
    run("act", "g", "丑", "猎杀", "甲")
    run("act", "g", "寅", "圣水", "庚")
    status = run("status", "g").stdout
    assert "当前时段：早夜（已结算：无）" in status
    seen = []
    for _ in range(4):
        out = run("resolve", "g", "--window").stdout
        seen.append([line.strip() for line in out.splitlines() if line.strip().startswith("已结算：")])
    assert seen == [["已结算：早夜；当前时段：午夜"], ["已结算：午夜；当前时段：深夜"],
                    ["已结算：深夜；当前时段：凌晨"], ["已结算：凌晨"]]
    assert "当前时段：" not in run("status", "g").stdout  # the night is left: 晨曦 has no windows
    # every phase played, by every label the status and the posts print
    for phase in ("开局", "第1天 夜晚", "第1天 晨曦"):
        r = run("pm", "g", "--phase", phase, ok=False)
        assert r.returncode == 0 and "错误" not in r.stderr, (phase, r.stderr)
    for phase in ("开局", "第1天 晨曦"):
        r = run("post", "g", "--phase", phase, ok=False)
        assert r.returncode == 0 and "错误" not in r.stderr, (phase, r.stderr)
    night = run("pm", "g", "--phase", "第1天 夜晚").stdout
    assert "致 甲（1号）" in night and "你已出局。" in night
    assert "圣水：你的技能已刷新至初始。" in night                  # told at the 早夜's close, in the night's PMs
    dawn = run("post", "g", "--phase", "第1天 晨曦", "--format", "text").stdout
    assert "甲出局。" in dawn and "出局（第1天 夜晚）" in dawn               # the 晨曦's post carries the night's exit


def test_resolve_json_names_the_windows(tmp_path):
    run = runner(tmp_path)
    run("new", "g", "--ruleset", "m217", "--deal", deal_file(tmp_path))
    run("resolve", "g")
    run("resolve", "g", "--yes")
    run("act", "g", "寅", "圣水", "庚")
    first = json.loads(run("resolve", "g", "--window", "--json").stdout)
    assert first["window"] == 1 and first["windows_closed"] == ["早夜"] and first["window_open"] == "午夜"
    assert json.loads(run("status", "g", "--json").stdout)["loop"]["window"] == {"open": "午夜", "index": 1, "resolved": ["早夜"]}
    rest = json.loads(run("resolve", "g", "--json").stdout)         # every window left, at once
    assert rest["windows_closed"] == ["午夜", "深夜", "凌晨"] and rest["window_open"] is None


RAVEN = [("甲", "狼鸦之爪"), ("乙", "幼狼"), ("丙", "狼巫"), ("丁", "石像鬼"), ("戊", "预言家"), ("己", "通灵师"),
         ("庚", "灵鹿"), ("辛", "女巫"), ("壬", "骑士"), ("癸", "魔术师"), ("子", "猎魔人"), ("丑", "九尾狐"),
         ("寅", "士兵"), ("卯", "企鹅")]


def test_a_skill_an_earlier_window_gives_is_taken_in_the_same_batch(tmp_path):
    """> 夜之锋刃…结算效果：发动者获得[群内]标签 — at 早夜; the pack's 杀人 is 深夜's. The director types
    the 狼鸦之爪's PM as it came (夜之锋刃, then 杀人) and resolves the night at once."""
    run = runner(tmp_path)
    run("new", "g", "--ruleset", "m217", "--deal", deal_file(tmp_path, RAVEN), "--option", "vote_out=正午")
    while run("status", "g", "--json").stdout and json.loads(run("status", "g", "--json").stdout)["phase"] != "noon 2":
        run("resolve", "g", "--yes")
    for noon, out in (("noon 2", "丙"), ("noon 3", "丁")):
        run("vote", "g", "戊", out)
        run("vote", "g", "己", out)
        while json.loads(run("status", "g", "--json").stdout)["phase"] != ("night 4" if noon == "noon 3" else "noon 3"):
            run("resolve", "g", "--yes")
    early = run("act", "g", "甲", "杀人", "戊", ok=False)                  # before the 夜之锋刃: refused
    assert early.returncode == 2 and early.stderr.strip() == "错误：甲（狼鸦之爪）没有技能杀人"
    run("act", "g", "甲", "夜之锋刃", "庚")
    out = run("act", "g", "甲", "杀人", "戊").stdout
    assert out.startswith("已记录：甲 杀人 戊（午夜开始时生效")
    assert "杀人 戊（待午夜）" in run("status", "g").stdout
    res = run("resolve", "g", "--json")
    assert json.loads(res.stdout)["out"] == ["戊", "庚"]
