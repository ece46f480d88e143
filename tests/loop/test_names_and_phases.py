"""Names and phases at every door (issue 20, item 7), through `bansha` in a real process: a
thread author or vote target with a zero-width or full-width character is the player the
command line would take; the director's 代投 post is the named player's vote; every command
that takes a phase takes the board's name for it."""

import json

from test_posts_by_board import runner
from test_votes_import import THREADS, XIA

PLAYERS = XIA.replace("烧卖", "AB")


def test_thread_authors_and_targets_folded_and_the_directors_proxy(tmp_path):
    run = runner(tmp_path)
    run("new", "g", "--ruleset", "qisha-xia", "--players", PLAYERS, "--seed", "11")
    got = json.loads(run("votes", "import", "g", str(THREADS / "qisha-xia-names.txt"), "--json").stdout)
    rows = {p["floor"]: p for p in got["posts"]}
    # 水\u200b饺 and 包\u200b子: the zero-width space is no part of the name (names.clean)
    assert rows[2]["status"] == "record" and rows[2]["recorded"]["voter"] == "水饺"
    assert rows[2]["recorded"]["target"] == "包子"
    # ＡＢ in full width is AB (names.fold), as on the command line
    assert rows[3]["status"] == "record" and rows[3]["recorded"]["voter"] == "AB"
    # > 允许玩家以其他方式联系导演请求代投 … 建议导演…发出代投信息: the 楼主's 代投 post is 馄饨's vote
    assert rows[4]["status"] == "record", rows[4]
    assert rows[4]["recorded"]["voter"] == "馄饨" and rows[4]["recorded"]["target"] == "包子"
    assert "导演不是玩家" not in rows[4]["reason"]
    # one who is not a player stays refused
    assert rows[5]["status"] == "reject" and rows[5]["reason"] == "路人甲不是玩家"
    run("resolve", "g", "--yes")
    post = run("post", "g", "--format", "text", "--phase", "第1天 白天").stdout
    assert "馄饨 → 包子（4#）" in post and "水饺 → 包子（2#）" in post and "AB → 水饺（3#）" in post
    ballots = [b for b in run("log", "g", "--json").stdout.splitlines() if "馄饨" in b]
    assert ballots


def test_act_takes_the_boards_phase_name(tmp_path):
    run = runner(tmp_path)
    run("new", "g", "--ruleset", "qisha-xia", "--players", XIA, "--seed", "11")
    run("resolve", "g", "--yes")                                                        # day 1 -> night 1
    r = run("act", "g", "包子", "杀人", "馄饨", "--phase", "第1天 夜晚")
    assert "已记录" in r.stdout
    run("unact", "g", "包子", "杀人")
    run("act", "g", "包子", "杀人", "馄饨", "--phase", "夜晚 1")
    r = run("act", "g", "包子", "杀人", "水饺", "--phase", "第3天 夜晚", ok=False)
    assert r.returncode == 2 and "规则 qisha-xia 中没有阶段" not in r.stderr and len(r.stderr.splitlines()) == 1
    assert "第3天 夜晚" in r.stderr and "night" not in r.stderr
    run("resolve", "g", "--yes")
    assert not any(p["name"] == "馄饨" and p["alive"] for p in json.loads(run("status", "g", "--json").stdout)["players"])


def test_new_vote_unact_and_ruling_say_the_phase_as_the_board_names_it(tmp_path):
    run = runner(tmp_path)
    out = run("new", "g", "--ruleset", "qisha-xia", "--players", PLAYERS, "--seed", "11").stdout
    assert "当前 第1天 白天" in out and "day 1" not in out
    out = run("vote", "g", "水饺", "包子").stdout
    assert out.startswith("投票：水饺 → 包子（第1天 白天）")
    run("resolve", "g", "--yes")
    run("act", "g", "包子", "杀人", "馄饨")
    out = run("unact", "g", "包子", "杀人").stdout
    assert "（第1天 夜晚）" in out and "night 1" not in out
    out = run("ruling", "g", "remove", "馄饨").stdout
    assert "（第1天 夜晚）" in out and "night" not in out
