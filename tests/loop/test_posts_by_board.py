"""Posts by the board's publishing rules (issue 20, item 3), through the `bansha` command in a
real process: M217 names the top without its count and publishes the night with the 晨曦; 七杀·侠
publishes the night's last words with the night's deaths, before the day's discussion."""

import json
import os
import subprocess

from test_votes_import import M217, XIA, bansha_exe


def runner(tmp_path):
    env = {**os.environ, "BANSHA_DB": str(tmp_path / "g.db")}

    def run(*args, ok=True):
        r = subprocess.run([*bansha_exe(), *args], capture_output=True, text=True, env=env)
        if ok:
            assert r.returncode == 0, (args, r.stdout, r.stderr)
        return r

    return run


def test_m217_top_without_its_count_and_the_night_in_the_dawn_post(tmp_path):
    run = runner(tmp_path)
    run("new", "g", "--ruleset", "m217", "--players", M217, "--seed", "3")   # 戌狗 乌鸦, 丑牛 宗教老爷爷
    run("resolve", "g", "--yes")
    run("resolve", "g", "--yes")                                                        # opening, dusk 1
    run("act", "g", "戌狗", "诽谤", "辰龙")                                      # 乌鸦<诽谤>: +2 votes, announced
    run("resolve", "g", "--yes")                                                        # night 1
    # > 夜晚期间需要公示的内容全部在下一个白天开始时公布: the night has no post of its own
    r = run("post", "g", ok=False)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1
    assert r.stderr.startswith("错误：第1天 夜晚不单独发帖") and "第1天 晨曦" in r.stderr
    run("resolve", "g", "--yes")                                                        # dawn 1
    dawn = run("post", "g", "--format", "text").stdout
    assert dawn.startswith("【新日暮里】第1天 晨曦公告") and "【公告】\n辰龙被诽谤。" in dawn
    for v in ("子鼠", "卯兔", "巳蛇", "寅虎"):
        run("vote", "g", v, "辰龙")
    for v in ("午马", "未羊", "申猴"):
        run("vote", "g", v, "子鼠")
    run("resolve", "g", "--yes")                                                        # noon 1
    # > 每天的投票内容公开，但投票计数隐藏，将只宣布当天谁是最高票
    noon = run("post", "g", "--format", "text").stdout
    assert "子鼠 → 辰龙" in noon and "最高票：辰龙\n" in noon
    assert "票）" not in noon and "6票" not in noon and "4票" not in noon
    bb = run("post", "g").stdout
    assert "最高票：辰龙[" in bb or "[*]最高票：辰龙\n" in bb
    data = json.loads(run("post", "g", "--json").stdout)
    votes = next(s for s in data["sections"] if s["key"] == "votes")["lines"]
    assert votes[-1] == "最高票：辰龙"


def test_qisha_xia_night_post_holds_the_last_words_before_the_day(tmp_path):
    run = runner(tmp_path)
    run("new", "g", "--ruleset", "qisha-xia", "--players", XIA, "--seed", "11")
    run("resolve", "g", "--yes")                                                        # day 1
    run("act", "g", "包子", "杀人", "馄饨")
    run("resolve", "g", "--yes")                                                        # night 1: 馄饨 out
    # > 夜晚出局玩家有一次遗言的机会 … d. 等待死者遗言：12:50～20:00 (a. 白天讨论、投票：20:00～次日22:00):
    # the night's post goes up at 20:00 with its deaths and their last words
    run("ruling", "g", "遗言", "馄饨", "--text", "包子是黑侠")
    night = run("post", "g", "--format", "text").stdout
    assert night.startswith("【七杀·侠】第1天 夜晚公告")
    assert "【出局】\n馄饨出局" in night and "【遗言】\n馄饨的遗言：包子是黑侠" in night
    assert night.index("【出局】") < night.index("【遗言】") < night.index("【座位表】")
    for v in ("水饺", "烧卖", "油条"):
        run("vote", "g", v, "包子")
    run("resolve", "g", "--yes")                                                        # day 2 closes
    day = run("post", "g", "--format", "text").stdout
    assert "【遗言】" not in day and "包子是黑侠" not in day                     # told once, with the night
    again = run("post", "g", "--phase", "第1天 夜晚", "--format", "text").stdout
    assert again == night
