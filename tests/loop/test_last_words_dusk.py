"""Issue 31, 黄昏 × 遗言, through the real CLI in real processes. M217's vote-out leaves at 黄昏 (1);
his 遗言 is owed until the next 开门 (> 直到第二天开门前：…应当留下遗言的角色收到遗言通知，并留下遗言), so the
黄昏's close does not drop it; a bare `resolve` that would end it unrecorded is refused as an unsent
【强制】 skill is (`--yes` closes it, saying who lost them); a late `ruling 遗言` says the time is past,
not that none were owed; recorded, they are in one post."""

import os
import subprocess

from test_votes_import import M217, THREADS, bansha_exe


def runner(tmp_path):
    env = {**os.environ, "BANSHA_DB": str(tmp_path / "g.db")}

    def run(*args, code=0):
        r = subprocess.run([*bansha_exe(), *map(str, args)], capture_output=True, text=True, env=env)
        assert r.returncode == code, (args, r.stdout, r.stderr)
        assert "Traceback" not in r.stderr
        return r

    return run


def at_dusk_with_a_vote_out(run):
    run("new", "g", "--ruleset", "m217", "--players", M217, "--seed", "3")
    for _ in range(4):
        run("resolve", "g", "--yes")
    run("votes", "import", "g", THREADS / "m217-noon1.txt")
    out = run("resolve", "g", "--yes").stdout
    assert "[子鼠] 你可以留下遗言" in out and "当前：第1天 黄昏" in out


def test_a_dusk_last_words_wait_for_the_next_opening(tmp_path):
    run = runner(tmp_path)
    at_dusk_with_a_vote_out(run)
    assert "遗言：子鼠（第1天 黄昏出局；第2天 晨曦结束前）" in run("status", "g").stdout
    run("resolve", "g", "--yes")                                       # the 黄昏 closes: still owed
    assert "遗言：子鼠（第1天 黄昏出局；第2天 晨曦结束前）" in run("status", "g").stdout
    run("resolve", "g", "--yes")                                       # 第2天 夜晚, every window
    refused = run("resolve", "g", code=2)                              # 晨曦 would end them
    assert refused.stderr.splitlines() == ["错误：第2天 晨曦结算后以下玩家将失去遗言：子鼠（尚未记录）；确认照样结算请加 --yes"]
    out = run("resolve", "g", "--yes").stdout
    assert "未留遗言，遗言作废：子鼠" in out and "当前：第2天 正午" in out
    late = run("ruling", "g", "遗言", "子鼠", "--text", "我是好人", code=2)
    assert late.stderr.strip() == "错误：子鼠的遗言时限已过：须在第2天 晨曦结束前留下"
    assert "只有首夜出局和白天出局" not in late.stderr


def test_recorded_in_the_night_they_are_in_one_post(tmp_path):
    run = runner(tmp_path)
    at_dusk_with_a_vote_out(run)
    run("resolve", "g", "--yes")                                       # 第1天 黄昏
    run("ruling", "g", "遗言", "子鼠", "--text", "我是好人")            # during 第2天 夜晚
    run("resolve", "g", "--yes")
    run("resolve", "g")                                                # 晨曦: nothing owed now
    posts = {p: run("post", "g", "--phase", p, "--format", "text").stdout
             for p in ("第1天 正午", "第1天 黄昏", "第2天 晨曦")}
    assert [p for p, text in posts.items() if "子鼠的遗言：我是好人" in text] == ["第2天 晨曦"]
    assert posts["第2天 晨曦"].count("我是好人") == 1


def test_the_dusk_post_gives_its_exits_once_as_the_split_list(tmp_path):
    """> 在黄昏阶段（包括正常的被投票出局）的角色出局信息…公示[投票出局]和[其他原因]出局的名单分别有哪些:
    the 黄昏's post has its exits once, the split list, in its 出局 section."""
    run = runner(tmp_path)
    at_dusk_with_a_vote_out(run)
    run("resolve", "g", "--yes")
    post = run("post", "g", "--phase", "第1天 黄昏", "--format", "text").stdout
    exits = post.split("【出局】", 1)[1].split("【", 1)[0]
    assert exits.strip().splitlines() == ["投票出局：子鼠；其他原因出局：无。"]
    assert "子鼠被投票出局" not in post
