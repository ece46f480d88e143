"""Issue 31: a 黄昏 belongs to the day whose vote it settles (> 其中，晨曦/正午/黄昏属于白天 …
黄昏——投票结束后到正式天黑前). The 黄昏 after 第1天 正午 is 第1天 黄昏 on every surface, and every
command that takes a phase takes that name; the ids scenario files use (``dusk 2``) keep their
meaning. Each label a surface prints is read back by every command that takes a phase."""

import re

from bansha.engine.board import board_day, load_board, parse_phase_arg, phase_namer
from test_votes_import import THREADS, m217_at_noon


def test_the_dusk_after_a_noon_is_that_days(bansha_cli):
    cli = bansha_cli
    m217_at_noon(cli)
    g = cli.load()
    name = phase_namer(g, load_board("m217"))
    assert [name(x) for x in ("opening", "dusk 1", "night 1", "dawn 1", "noon 1", "dusk 2", "night 2")] == [
        "开局", "第0天 黄昏", "第1天 夜晚", "第1天 晨曦", "第1天 正午", "第1天 黄昏", "第2天 夜晚"]
    assert g.named("dusk 2") == "第1天 黄昏" and board_day(g, "dusk 2") == "1" and board_day(g, "noon 2") == "2"
    # read back: the board's name, and the id as scenario files write it
    assert parse_phase_arg(g, "第1天 黄昏") == "dusk 2" and g.canonical("dusk 2") == "dusk 2"
    assert parse_phase_arg(g, "第0天 黄昏") == "dusk 1" and parse_phase_arg(g, "第1天 正午") == "noon 1"
    assert parse_phase_arg(g, "第2天 夜晚") == "night 2"
    cli.ok("votes", "import", "g", str(THREADS / "m217-noon1.txt"))
    out = cli.ok("resolve", "g", "--phase", "第1天 正午").output
    assert "当前：第1天 黄昏" in out and "第2天 黄昏" not in out
    assert cli.load().label == "dusk 2"
    assert cli.ok("status", "g").output.splitlines()[0].startswith("m217 — 第1天 黄昏")
    post = cli.ok("post", "g", "--format", "text").output           # the noon's post names the next phase
    assert "第1天 黄昏" in post and "第2天 黄昏" not in post
    cli.ok("resolve", "g", "--phase", "第1天 黄昏", "--yes")
    assert cli.load().label == "night 2"
    title = cli.ok("post", "g", "--phase", "第1天 黄昏", "--format", "text").output.splitlines()[0]
    assert title == "【新日暮里】第1天 黄昏公告"
    cli.ok("pm", "g", "--phase", "第1天 黄昏")
    cli.refused("resolve", "g", "--phase", "第2天 黄昏", message="不是第2天 黄昏")
    cli.ok("undo", "g", "--to", "第1天 黄昏")                          # back to the start of night 2
    assert cli.load().label == "night 2"


def test_every_label_a_surface_prints_is_taken_back(bansha_cli):
    """The labels of status, resolve, post titles and the log, fed to post, pm and undo --to."""
    cli = bansha_cli
    m217_at_noon(cli)
    cli.ok("votes", "import", "g", str(THREADS / "m217-noon1.txt"))
    label = re.compile(r"第\d+天 (?:额外正午|黄昏|夜晚|晨曦|正午)|开局")
    printed = set()
    for _ in range(4):  # noon 1, dusk 2, night 2, dawn 2, up to noon 2
        out = cli.ok("resolve", "g", "--yes").output
        printed.update(label.findall(out))
        printed.update(label.findall(cli.ok("status", "g").output))
    printed.update(label.findall(cli.ok("log", "g").output))
    assert {"第1天 黄昏", "第2天 夜晚", "第2天 晨曦", "第2天 正午"} <= printed and "第2天 黄昏" not in printed
    g = cli.load()
    for name in sorted(printed):
        canon = parse_phase_arg(g, name)
        assert g.named(canon) == name                                    # one name per phase, both ways
        if canon in g.resolved:
            r = cli("post", "g", "--phase", name, "--format", "text")
            # read as that phase: a night has no post of its own (its exits go in the 晨曦's)
            assert r.exit_code == 0 or "不单独发帖" in r.output, r.output
            cli.ok("pm", "g", "--phase", name)
