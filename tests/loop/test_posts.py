"""`bansha post` and `bansha pm`: the thread post laid out by the board file (balanced BBCode of
Discuz!'s own tags, player text escaped, only what the rules announce) and each player's PM
(only their own feedback)."""

import json
import os
import re
import subprocess
from pathlib import Path

from bansha_forum.posts import check_bbcode
from test_votes_import import M217, THREADS, XIA, bansha_exe, m217_at_noon

ROLES_OF = "role"


def test_m217_noon_post_after_the_imported_thread(bansha_cli):
    cli = bansha_cli
    # the vote-out at noon's close (option vote_out = 正午): the noon's post lists who left
    m217_at_noon(cli, "--option", "vote_out=正午")
    cli.ok("votes", "import", "g", str(THREADS / "m217-noon1.txt"))
    cli.ok("resolve", "g", "--yes")
    bb = cli.ok("post", "g").output
    assert check_bbcode(bb) == []
    assert bb.startswith("[align=center][size=5][b]【新日暮里】第1天 正午公告[/b][/size][/align]")
    # the vote record as the board publishes it: who voted whom, only the top count
    assert "子鼠 → 寅虎（2#）" in bb and "巳蛇 → 午马（11#）" in bb
    # > 每天的投票内容公开，但投票计数隐藏，将只宣布当天谁是最高票
    assert re.search(r"\[\*\]最高票：\S+\n", bb)
    assert "票[/*]" not in bb and "票）" not in bb
    assert "[table]" in bb and "[td]座位[/td]" not in bb and "[td][b]座位[/b][/td]" in bb
    assert "第1天 黄昏" in bb and "第2天 黄昏" not in bb         # the next phase: the 黄昏 of the day whose vote it settles
    g = cli.load()
    out = g.out["noon 1"]
    assert f"[td]{out[0]}[/td][td]出局（第1天 正午）[/td]" in bb
    # secrets stay secret: no living player's role is in the post
    for p in g.players.values():
        if p.alive:
            assert p.role not in bb, p.role
    md = cli.ok("post", "g", "--phase", "第1天 正午", "--format", "md").output
    assert md.startswith("# 【新日暮里】第1天 正午公告") and "| 座位 | 名字 | 状态 |" in md
    text = cli.ok("post", "g", "--phase", "noon 1", "--format", "text").output
    assert "【座位表】" in text and "[" not in text.replace("【", "")
    data = json.loads(cli.ok("post", "g", "--json").output)
    assert data["phase"] == "noon 1" and [s["key"] for s in data["sections"]][0] == "deaths"
    cli.refused("post", "g", "--phase", "noon 7", message="--phase noon 7：第7天 正午 尚未进行")
    cli.refused("post", "g", "--format", "pdf", message="--format")


def test_player_text_is_escaped(bansha_cli):
    cli = bansha_cli
    names = XIA.replace("包子", "[b]包子").replace("麻花", "麻花[/list]")
    cli.ok("new", "g", "--ruleset", "qisha-xia", "--players", names, "--seed", "11")
    for v in ["水饺", "馄饨", "烧卖", "油条", "豆浆", "煎饼", "春卷", "汤圆", "粽子"]:
        cli.ok("vote", "g", v, "麻花[/list]")
    cli.ok("vote", "g", "麻花[/list]", "[b]包子")
    cli.ok("resolve", "g", "--yes")
    bb = cli.ok("post", "g").output
    assert check_bbcode(bb) == [], check_bbcode(bb)
    assert "[\u200bb]包子" in bb and "麻花[\u200b/list]" in bb
    md = cli.ok("post", "g", "--format", "md").output
    assert r"\[b\]包子" in md
    assert check_bbcode(cli.ok("export", "g", "--format", "bbcode").output) == []
    # qisha-xia publishes every count
    assert "麻花[\u200b/list]：9票" in bb


def test_check_bbcode_finds_problems():
    assert check_bbcode("[b]x[/b][list][*]a[/list][hr]") == []
    assert check_bbcode("[b]x") == ["unclosed [b]"]
    assert check_bbcode("[url]x[/url]") == ["unsupported tag url", "unsupported tag url"]
    assert check_bbcode("[b][i]x[/b][/i]") != []


def test_pms_hold_only_each_players_own_feedback(bansha_cli):
    cli = bansha_cli
    cli.ok("new", "g", "--ruleset", "m217", "--players", M217, "--seed", "3")
    cli.ok("resolve", "g", "--yes")  # opening: the wolves learn of each other, the 宗教老爷爷 his heretics
    blocks = json.loads(cli.ok("pm", "g", "--format", "json").output)
    told = {b["player"]: b["lines"] for b in blocks}
    assert set(told) == {"子鼠", "丑牛", "秋月"}
    assert told["丑牛"] == ["你的异端：寅虎、未羊、申猴、酉鸡、戌狗、亥猪、春风。"]
    assert all(b["title"] == "【新日暮里】开局 私信" for b in blocks)
    # each block is the message only, pasted as it is; the recipient is a field of --json and a
    # line only with --to
    text = cli.ok("pm", "g").output
    assert "收件人" not in text and text.count("【新日暮里】开局 私信") == 3 and "致 丑牛（2号）：" in text
    assert text.split("\n\n")[1] == "【新日暮里】开局 私信\n致 丑牛（2号）：\n你的异端：寅虎、未羊、申猴、酉鸡、戌狗、亥猪、春风。"
    addressed = cli.ok("pm", "g", "--to").output
    assert addressed.count("收件人：") == 3 and "收件人：丑牛\n【新日暮里】开局 私信" in addressed
    one = cli.ok("pm", "g", "--player", "寅虎", "--to").output
    assert "收件人：寅虎" in one and "本阶段没有给你的消息。" in one and "异端" not in one
    bb = cli.ok("pm", "g", "--format", "bbcode").output
    assert check_bbcode(bb) == []
    cli.refused("pm", "g", "--player", "nobody", message="没有玩家 nobody")


def test_light_shadow_post_names_the_day(bansha_cli):
    cli = bansha_cli
    cli.ok("new", "g", "--ruleset", "light-shadow", "--players", "甲,乙,丙,丁,戊,己,庚,辛,壬,癸,子,丑", "--seed", "1")
    cli.ok("resolve", "g", "--yes")
    bb = cli.ok("post", "g").output
    assert bb.startswith("[align=center][size=5][b]【光影传说】第0天公告")
    assert "第1天：21:00 前私信询问与技能对象" in bb and check_bbcode(bb) == []


def test_a_director_copies_the_template(bansha_cli, tmp_path):
    cli = bansha_cli
    cli.ok("new", "g", "--ruleset", "light-shadow", "--players", "甲,乙,丙,丁,戊,己,庚,辛,壬,癸,子,丑", "--seed", "1")
    cli.ok("resolve", "g", "--yes")
    from bansha.engine.board import board_file

    mine = tmp_path / "mine.toml"
    mine.write_text(board_file("light-shadow").read_text(encoding="utf-8")
                    .replace('title = "【{board}】{phase}公告"', 'title = "{phase}·我的版"')
                    .replace('sections = ["deaths", "last_words", "announcements", "seats", "deadline"]',
                             'sections = ["seats"]'), encoding="utf-8")
    out = cli.ok("post", "g", "--template", str(mine), "--format", "text").output
    assert out.startswith("第0天·我的版") and "【座位表】" in out and "下一天" not in out
    bad = tmp_path / "bad.toml"
    bad.write_text("[post]\nsections = ['weather']\n", encoding="utf-8")
    cli.refused("post", "g", "--template", str(bad), message="bad.toml：键 post.sections[0]：weather 不是可选值")


def test_post_and_pm_in_a_real_process(tmp_path):
    env = {**os.environ, "BANSHA_DB": str(tmp_path / "g.db")}

    def run(*args):
        return subprocess.run([*bansha_exe(), *args], capture_output=True, text=True, env=env)

    assert run("new", "g", "--ruleset", "m217", "--players", M217, "--seed", "3").returncode == 0
    early = run("post", "g")
    assert early.returncode == 2 and early.stderr.startswith("错误：还没有结算过任何阶段（游戏当前在 opening）；请用 --phase 指定阶段")
    assert run("resolve", "g", "--yes").returncode == 0
    r = run("post", "g", "--format", "text")
    assert r.returncode == 0 and r.stdout.startswith("【新日暮里】开局公告")
    r = run("pm", "g", "--json")
    assert r.returncode == 0 and {b["player"] for b in json.loads(r.stdout)} == {"子鼠", "丑牛", "秋月"}


def test_board_files_ship_for_every_ruleset():
    from bansha.engine.board import board_file, load_board

    for rid in ("light-shadow", "qisha-xia", "m217"):
        assert Path(board_file(rid)).is_file()
        assert load_board(rid)["post"]["sections"]


def test_last_words_come_first_in_the_next_post(bansha_cli):
    cli = bansha_cli
    m217_at_noon(cli)
    cli.ok("votes", "import", "g", str(THREADS / "m217-noon1.txt"))
    cli.ok("resolve", "g", "--yes")
    # > （1）结算被[投票出局]的角色: voted out as dusk 2 begins, his last words owed until it closes
    out = cli.load().out["dusk 2"][0]
    # M217 forbids Discuz! code in last words: refused in one line, nothing stored
    cli.refused("ruling", "g", "遗言", out, "--text", "[b]我是好人[/b]", message="")
    cli.ok("ruling", "g", "遗言", out, "--text", "我是好人，<真的>*别投*了|")
    cli.ok("resolve", "g", "--yes")  # dusk 2 publishes them
    bb = cli.ok("post", "g").output
    assert "【新日暮里】第1天 黄昏公告" in bb and check_bbcode(bb) == []
    assert f"[quote]{out}的遗言：我是好人，<真的>*别投*了|[/quote]" in bb
    assert bb.index("[quote]") < bb.index("[table]")
    md = cli.ok("post", "g", "--format", "md").output
    assert r"> " + out + r"的遗言：我是好人，\<真的\>\*别投\*了\|" in md


def test_loop_commands_refuse_with_a_json_object_under_json(bansha_cli):
    # the loop's commands end bad input the kernel's one way: with --json, one JSON object
    for args in (["post", "nope", "--json"], ["pm", "nope", "--json"]):
        r = bansha_cli(*args)
        assert r.exit_code == 2, r.output
        assert json.loads(r.stdout) == {"error": "没有游戏 'nope'", "code": 2}
