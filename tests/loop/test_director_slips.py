"""Issue 31 item 4, through the CLI: the slips a director makes are said for what they are — a
mistyped roster path is a missing file, not a one-seat table; a roster's `##` lines (what
`signup` writes) are not warned about, a `#` line still is; `--accept FLOOR` on a board that
takes no misspelt name is refused with the reason; `pm` says when there is nothing to send;
`未投票` never prints a board's abstain word (七杀·侠's 无) as if it were a name."""

import os
import subprocess

from test_votes_import import M217, THREADS, XIA, bansha_exe, m217_at_noon


def run_in(tmp_path):
    env = {**os.environ, "BANSHA_DB": str(tmp_path / "g.db")}

    def run(*args):
        return subprocess.run([*bansha_exe(), *map(str, args)], capture_output=True, text=True, env=env, cwd=tmp_path)

    return run


def test_a_mistyped_roster_path_is_a_missing_file(tmp_path):
    run = run_in(tmp_path)
    for path in ("名单.txt", "rosters/m217"):
        r = run("new", "g", "--ruleset", "m217", "--players", path)
        assert r.returncode == 2 and r.stderr.strip() == f"错误：{path}：无法读取名单：文件或文件夹不存在", r.stderr
    names = tmp_path / "名单.txt"
    names.write_text("\n".join(M217.split(",")[:13]) + "\n# 秋月 (commented out by hand)\n## 替补：冬雪\n秋月\n", encoding="utf-8")
    r = run("new", "g", "--ruleset", "m217", "--players", "名单.txt")
    assert r.returncode == 0, r.stderr
    assert r.stderr.splitlines() == ["名单.txt：第14行以 # 开头，作为注释跳过：# 秋月 (commented out by hand)"]


def test_accept_on_a_board_without_typos_is_refused(bansha_cli):
    cli = bansha_cli
    m217_at_noon(cli)
    cli.refused("votes", "import", "g", str(THREADS / "m217-noon1.txt"), "--accept", "7",
                message="--accept 7：新日暮里不接受写错的名字（写错的名字作废，须发新帖更正），第7楼没有待确认的提议")


def test_pm_says_when_there_is_nothing_to_send(tmp_path):
    run = run_in(tmp_path)
    assert run("new", "g", "--ruleset", "m217", "--players", M217, "--seed", "3").returncode == 0
    assert run("resolve", "g", "--yes").returncode == 0
    assert run("resolve", "g", "--yes").returncode == 0     # 第0天 黄昏: nobody is told anything
    r = run("pm", "g")
    assert r.returncode == 0 and r.stdout == "" and r.stderr.strip() == "第0天 黄昏没有需要发送的私信"


def test_not_voted_never_prints_the_abstain_word(bansha_cli):
    cli = bansha_cli
    cli.ok("new", "g", "--ruleset", "qisha-xia", "--players", XIA, "--seed", "11")
    for name in XIA.split(","):
        cli.ok("vote", "g", name, "弃权")
    out = cli.ok("status", "g").output
    assert "未投票：（所有可投票的人都已投票）" in out and "未投票：无" not in out


def test_the_two_faced_deal_notice_is_in_the_opening_pm_once(bansha_cli, tmp_path):
    """> 双面[开局]…游戏开始前随机获得未出场的一狼一神作为底牌，并选择其中一张置顶: the notice the deal gives
    is in the 开局 PM (it was told before any event, and no PM carried it), and choosing the card the
    notice named on top does not say it a second time."""
    roles = ["双面人", "白猫", "狼巫", "狼巫", "预言家", "通灵师", "女巫", "骑士", "通灵师", "魔术师", "灵鹿", "猎魔人", "企鹅", "狐狸"]
    deal = tmp_path / "deal.toml"
    deal.write_text("".join(f'[[players]]\nname = "{n}"\nrole = "{r}"\n\n' for n, r in zip("甲乙丙丁戊己庚辛壬癸子丑寅卯", roles, strict=False)),
                    encoding="utf-8")
    cli = bansha_cli
    cli.ok("new", "g", "--ruleset", "m217", "--deal", deal, "--seed", "1")
    cli.ok("act", "g", "甲", "双面", "--arg", "top=神")
    cli.ok("resolve", "g", "--yes")
    lines = cli.ok("pm", "g", "--phase", "开局", "--player", "甲").output.splitlines()
    assert lines[0] == "【新日暮里】开局 私信" and lines[1] == "致 甲（1号）："
    assert len(lines) == 3 and lines[2].startswith("双面：你的底牌是") and lines[2].endswith("。")
