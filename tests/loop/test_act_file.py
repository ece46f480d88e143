"""`bansha act GAME --file F`: a phase's actions from a TOML `actions` list (the scenario files'
format) or a CSV of actor,skill,targets,args — all or nothing, each refusal named by its line."""

import os
import subprocess

from test_votes_import import XIA, bansha_exe


def night(cli):
    cli.ok("new", "g", "--ruleset", "qisha-xia", "--players", XIA, "--seed", "11")
    cli.ok("resolve", "g", "--yes")  # day 1: nobody out
    g = cli.load()
    assert g.label == "night 1"
    return {p.role: p.name for p in g.players.values()}


def test_csv_all_or_nothing(bansha_cli, tmp_path):
    cli = bansha_cli
    night(cli)
    bad = tmp_path / "night.csv"
    bad.write_text("actor,skill,targets,args\n# the black group\n包子,杀人,馄饨\n水饺,飞天,馄饨\n油条,杀人,包子;油条\n", encoding="utf-8")
    r = cli.refused("act", "g", "--file", str(bad), message="什么也没有记录")
    assert "第4行：水饺 飞天" in r.output and "第5行：油条 杀人" in r.output and "第3行" not in r.output
    good = tmp_path / "good.csv"
    good.write_text("包子,杀人,馄饨\n", encoding="utf-8")
    r = cli.ok("act", "g", "--file", str(good))
    assert "已记录：包子 杀人 馄饨" in r.output and "第1天 夜晚记录了1个行动" in r.output
    assert [a.describe() for a in cli.load().actions] == ["包子 杀人 馄饨"]
    cli.ok("resolve", "g", "--yes")
    assert not cli.load().players["馄饨"].alive


def test_toml_actions_list_with_withdraw_and_args(bansha_cli, tmp_path):
    cli = bansha_cli
    night(cli)
    f = tmp_path / "night.toml"
    f.write_text('actions = [\n  { actor = "包子", skill = "杀人", targets = ["馄饨"] },\n'
                 '  { actor = "包子", skill = "杀人", withdraw = true },\n'
                 '  { actor = "油条", skill = "杀人", targets = ["粽子"] },\n]\n', encoding="utf-8")
    r = cli.ok("act", "g", "--file", str(f))
    assert "已撤回：包子 杀人（第1天 夜晚）" in r.output and "记录了3个行动" in r.output
    assert [a.describe() for a in cli.load().actions] == ["油条 杀人 粽子"]
    wrong = tmp_path / "wrong.toml"
    wrong.write_text('actions = [\n  { actor = "包子", skill = "杀人", targets = ["馄饨"] },\n'
                     '  { actor = "包子", skill = "杀人", targets = ["馄饨"], expect_error = "x" },\n]\n', encoding="utf-8")
    cli.refused("act", "g", "--file", str(wrong), message="第3行：未知的键 expect_error")
    cli.refused("act", "g", "--file", str(tmp_path / "none.csv"), message="无法读取")
    cli.refused("act", "g", "包子", "杀人", "--file", str(f), message="给了 --file 就不再给玩家")
    cli.refused("act", "g", message="act：应为 玩家 技能")


def test_act_file_in_a_real_process(tmp_path):
    env = {**os.environ, "BANSHA_DB": str(tmp_path / "g.db")}

    def run(*args):
        return subprocess.run([*bansha_exe(), *args], capture_output=True, text=True, env=env)

    assert run("new", "g", "--ruleset", "qisha-xia", "--players", XIA, "--seed", "11").returncode == 0
    assert run("resolve", "g", "--yes").returncode == 0
    f = tmp_path / "n.csv"
    f.write_text("包子,杀人,馄饨\n包子,杀人,不存在\n", encoding="utf-8")
    r = run("act", "g", "--file", str(f))
    assert r.returncode == 2 and r.stderr.startswith("错误：") and "第2行" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    f.write_text("包子,杀人,馄饨\n", encoding="utf-8")
    assert run("act", "g", "--file", str(f)).returncode == 0
