"""PMs that paste as they are (issue 20, item 5), through `bansha pm` in a real process: an
absorbed 青侠 is told its group, an amendment's 【更正】 goes with the PMs of the phase it
amended (each line once, only to the players whose feedback changed), and a block is the
message only (the recipient a field of --json, a line only with --to)."""

import json

from test_posts_by_board import runner
from test_votes_import import XIA


def night_one(run):
    run("new", "g", "--ruleset", "qisha-xia", "--players", XIA, "--seed", "11")  # 水饺 青侠, 肉夹馍 白侠
    run("resolve", "g", "--yes")                                                        # day 1
    run("act", "g", "肉夹馍", "救治", "水饺")                                    # 白侠 absorbs the 青侠
    run("act", "g", "包子", "杀人", "馄饨")
    run("resolve", "g", "--yes")                                                        # night 1


def test_an_absorbed_player_is_told_its_group(tmp_path):
    run = runner(tmp_path)
    night_one(run)
    # > 被吸收后不再处于中立状态，转变为与吸收者相同的阵营和身份，并互知，可私下讨论，共同行使特权
    blocks = {b["player"]: b for b in json.loads(run("pm", "g", "--json").stdout)}
    assert "你的同伴（白侠）：肉夹馍" in blocks["水饺"]["lines"]
    assert "水饺加入了白侠，成为你的同伴" in blocks["肉夹馍"]["lines"]
    # nobody outside the group hears of it
    for name, b in blocks.items():
        if name not in ("水饺", "肉夹馍"):
            assert not any("白侠" in line for line in b["lines"]), b
    text = run("pm", "g", "--player", "水饺").stdout
    assert text == "【七杀·侠】第1天 夜晚 站内消息\n致 水饺（1号）：\n你被白侠吸收，成为白侠。\n你的同伴（白侠）：肉夹馍\n"


def test_a_correction_goes_with_the_amended_phase_once(tmp_path):
    run = runner(tmp_path)
    night_one(run)
    run("amend", "g", "--phase", "第1天 夜晚", "act", "花卷", "验人", "包子", "--yes")
    # asked by the board's name of the amended phase: the correction is there
    blocks = json.loads(run("pm", "g", "--phase", "第1天 夜晚", "--json").stdout)
    fixed = {b["player"]: b["correction"] for b in blocks if b["correction"]}
    assert set(fixed) == {"花卷"}                                 # only whose feedback changed
    assert fixed["花卷"]["added"] and all(x.startswith("第1天 夜晚：") for x in fixed["花卷"]["added"])
    for args in ((), ("--phase", "第1天 夜晚"), ("--phase", "night 1")):
        text = run("pm", "g", "--player", "花卷", *args).stdout
        assert text.count("【更正】") == 1
        lines = [x for x in text.splitlines() if x.startswith(("更正为：", "撤回："))]
        assert lines and len(lines) == len(set(lines)), text     # each corrected line once
        assert "收件人" not in text and not text.startswith("===")
    # a second amendment of the same night: both corrections, each line once
    run("amend", "g", "--phase", "第1天 夜晚", "act", "豆浆", "阻止", "包子", "--yes")
    text = run("pm", "g", "--phase", "第1天 夜晚", "--to").stdout
    lines = [x for x in text.splitlines() if x.startswith(("更正为：", "撤回："))]
    assert len(lines) == len(set(lines)), text
    assert text.startswith("收件人：")
