"""An amendment names which play of a phase it corrects (issue 20, item 6): after 钟<时光倒流>
turned the clock back, night 2 was played twice; `bansha amend` corrects the play that stands
unless another is named with --play, and its preview says which."""

import json
from pathlib import Path

from bansha.authoring import scenario
from bansha.engine.model import AmendEvent
from bansha.store.store import open_store
from test_posts_by_board import runner

SCENARIOS = Path(__file__).parents[1] / "scenarios" / "m217"


def rewound(tmp_path):
    """> 若发动时处于[晨曦]阶段，则游戏内时间，所有人员技能状态、存活状态均回到上一个夜晚开始
    (tests/scenarios/m217/080-clock-dawn.toml: 己 the 钟 is killed in night 2, turns the clock
    back at dawn 2, and night 2 is played again: 戊 is killed)."""
    game = scenario.run_file(SCENARIOS / "080-clock-dawn.toml")
    store = open_store(str(tmp_path / "g.db"))
    store.create("g", game.setup)
    for ev in game.applied:
        store.append("g", ev)
    assert not store.load("g").player("戊").alive and store.load("g").player("己").alive
    return store


def test_amend_corrects_the_play_that_stands_and_says_so(tmp_path):
    store = rewound(tmp_path)
    run = runner(tmp_path)
    r = run("amend", "g", "--phase", "第2天 夜晚", "act", "庚", "救药", "戊")
    assert r.stdout.startswith("更正 第2天 夜晚（第2次进行，共2次，现行的一次）：庚 救药 戊")
    assert "存活：戊 出局 → 存活" in r.stdout
    data = json.loads(run("amend", "g", "--phase", "第2天 夜晚", "act", "庚", "救药", "戊", "--json").stdout)
    assert data["play"] == 2 and data["plays"] == 2 and data["phase_name"] == "第2天 夜晚"
    run("amend", "g", "--phase", "第2天 夜晚", "act", "庚", "救药", "戊", "--yes")
    last = store.events("g")[-1]
    assert isinstance(last, AmendEvent) and last.play == 2            # the log says which play
    g = store.load("g")
    assert g.player("戊").alive and g.player("己").alive              # the 钟's own rewind stands


def test_the_other_play_only_when_named(tmp_path):
    rewound(tmp_path)
    run = runner(tmp_path)
    r = run("amend", "g", "--phase", "第2天 夜晚", "--play", "1", "act", "庚", "救药", "戊")
    assert r.stdout.startswith("更正 第2天 夜晚（第1次进行，共2次）：庚 救药 戊"), r.stdout
    assert "告知的内容没有变化" in r.stdout                           # 戊 was not attacked in play 1
    # healing the 钟 in the play the rewind undid would undo its own death: named, and refused
    # in one line because the 钟's 时光倒流 at dawn 2 no longer applies
    r = run("amend", "g", "--phase", "第2天 夜晚", "--play", "1", "act", "庚", "救药", "己", "--yes", ok=False)
    assert r.returncode == 2 and r.stderr.startswith("错误：更正第2天 夜晚之后，第2天 晨曦的一条行动不再成立：")
    r = run("amend", "g", "--phase", "第2天 夜晚", "--play", "3", "act", "庚", "救药", "戊", ok=False)
    assert r.returncode == 2 and r.stderr == "错误：第2天 夜晚没有第3次进行（共进行了2次）\n"
