"""The CLI on the toy ruleset: a game played through commands, and every kind of bad input
refused with one line, exit code 2 and the stored game unchanged."""

from pathlib import Path

import pytest
from bansha.cli.cli import app
from bansha.store.store import Store
from typer.testing import CliRunner

TOY = str(Path(__file__).parent / "toy.toml")
NAMES = "甲,乙,丙,丁,戊,己,庚"


@pytest.fixture
def cli(bansha_cli):
    return bansha_cli


@pytest.fixture
def game(cli):
    r = cli("new", "g", "--ruleset", TOY, "--players", NAMES, "--seed", "5")
    assert r.exit_code == 0, r.output
    return Store(cli.db).load("g")


def role_holder(game, role):
    return next(p.name for p in game.players.values() if p.role == role)


def snapshot(cli):
    s = Store(cli.db)
    return [(type(e).__name__, e) for e in s.events("g")]


def test_a_night_through_the_cli(cli, game):
    killer = role_holder(game, "刀手")
    victim = role_holder(game, "平民")
    assert cli("resolve", "g", "--yes").exit_code == 0  # day 1: no votes, nobody out
    r = cli("act", "g", killer, "kill", victim)
    assert r.exit_code == 0, r.output
    r = cli("resolve", "g", "--yes", "--json")
    assert r.exit_code == 0, r.output
    assert f"{victim}出局，身份是平民。" in r.output
    status = cli("status", "g")
    assert "out" in status.output
    explain = cli("log", "g", "--explain")
    assert "deaths" in explain.output and victim in explain.output


def test_undo_and_amend_gives_the_corrected_result(cli, game):
    killer = role_holder(game, "刀手")
    first, second = [p.name for p in game.players.values() if p.role in ("平民", "查验者")][:2]
    cli("resolve", "g", "--yes")
    cli("act", "g", killer, "刀", first)
    cli("resolve", "g", "--yes")
    assert not Store(cli.db).load("g").players[first].alive
    preview = cli("undo", "g")  # the resolution: previewed, nothing written without --yes
    assert preview.exit_code == 0 and "--yes" in preview.output.splitlines()[-1]
    assert not Store(cli.db).load("g").players[first].alive
    assert cli("undo", "g", "--yes").exit_code == 0
    assert cli("unact", "g", killer, "刀").exit_code == 0
    assert cli("act", "g", killer, "刀", second).exit_code == 0
    cli("resolve", "g", "--yes")
    g = Store(cli.db).load("g")
    assert g.players[first].alive and not g.players[second].alive


def test_player_view_holds_only_their_own_card(cli, game):
    cop = role_holder(game, "查验者")
    killer = role_holder(game, "刀手")
    r = cli("status", "g", "--as", cop, "--json")
    assert r.exit_code == 0
    assert "刀手" not in r.output and "坏人" not in r.output
    r = cli("status", "g", "--as", killer, "--json")
    other_killer = [p.name for p in game.players.values() if p.role == "刀手" and p.name != killer][0]
    assert other_killer in r.output  # group members know each other


BAD = [
    (("act", "nogame", "甲", "刀", "乙"), "没有游戏"),
    (("act", "g", "无名", "刀", "乙"), "unknown player"),
    (("act", "g", "{killer}", "飞", "{victim}"), "has no skill"),
    (("act", "g", "{killer}", "刀", "{victim}"), "not in day"),
    (("act", "g", "{killer}", "刀"), "wrong phase"),
    (("vote", "g", "{killer}", "无名"), "unknown player"),
    (("new", "h", "--ruleset", "nosuch", "--players", NAMES), "没有规则 nosuch"),
    (("new", "h", "--ruleset", TOY, "--players", "甲,乙"), "no table for 2 players"),
    (("new", "g", "--ruleset", TOY, "--players", NAMES), "已存在"),
    (("resolve", "g", "--extra"), None),
]


@pytest.mark.parametrize(("args", "message"), BAD[:-1])
def test_bad_input_is_refused_and_changes_nothing(cli, game, args, message):
    killer = role_holder(game, "刀手")
    victim = role_holder(game, "平民")
    args = [a.format(killer=killer, victim=victim) for a in args]
    if args[-1] == "刀" and args[0] == "act":
        cli("resolve", "g", "--yes")  # night 1
        cli("resolve", "g", "--yes")  # day 2: the kill now takes a target and is in the wrong phase
        args = ["act", "g", killer, "刀", victim]
        message = "not in day"
    before = snapshot(cli)
    r = cli(*args)
    assert r.exit_code == 2, r.output
    assert message in r.output
    # the toy board is English ("error:"); an unknown game or ruleset has no board yet: zh
    assert len([line for line in r.output.splitlines() if line.startswith(("error:", "错误："))]) == 1
    assert snapshot(cli) == before


def test_bad_night_input(cli, game):
    killer = role_holder(game, "刀手")
    doctor = role_holder(game, "医生")
    victim = role_holder(game, "平民")
    cli("resolve", "g", "--yes")
    cases = [
        (("act", "g", killer, "刀", victim, doctor), "takes 1 target"),
        (("act", "g", doctor, "救", doctor, victim), "takes 1 target"),
        (("act", "g", killer, "刀"), "takes 1 target"),
        (("act", "g", doctor, "救", "无名"), "unknown player"),
        (("act", "g", killer, "刀", "--arg", "oops"), "expected KEY=VALUE"),
        (("unact", "g", doctor, "救"), "no 救 to withdraw"),
    ]
    for args, message in cases:
        before = snapshot(cli)
        r = cli(*args)
        assert r.exit_code == 2 and message in r.output, (args, r.output)
        assert snapshot(cli) == before
    cli("act", "g", killer, "刀", victim)
    cli("resolve", "g", "--yes")
    before = snapshot(cli)
    r = cli("act", "g", victim, "救", doctor)
    assert r.exit_code == 2 and "out of the game" in r.output
    r = cli("vote", "g", victim, doctor)
    assert r.exit_code == 2 and "out of the game" in r.output
    assert snapshot(cli) == before


def test_malformed_files(cli, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('id = "x"\nname = 3\n', encoding="utf-8")
    r = cli("new", "h", "--ruleset", str(bad), "--players", NAMES)
    assert r.exit_code == 2 and "bad.toml" in r.output and "name" in r.output
    deal = tmp_path / "deal.toml"
    deal.write_text('[[players]]\nname = "甲"\nrole = "龙"\n', encoding="utf-8")
    r = cli("new", "h", "--ruleset", TOY, "--deal", str(deal))
    assert r.exit_code == 2 and "unknown role" in r.output
    assert "h" not in Store(cli.db).names()


def test_export_formats(cli, game):
    killer = role_holder(game, "刀手")
    victim = role_holder(game, "平民")
    cli("resolve", "g", "--yes")
    cli("act", "g", killer, "刀", victim)
    cli("resolve", "g", "--yes")
    bb = cli("export", "g", "--format", "bbcode")
    assert "[list]" in bb.output and victim in bb.output
    md = cli("export", "g", "--format", "md")
    assert "## 第1天 夜晚" in md.output  # the board's phase names, as `bansha post` gives them
    js = cli("export", "g", "--format", "json")
    assert '"events"' in js.output
    assert cli("export", "g", "--format", "pdf").exit_code == 2


DEAL = """
[[players]]
name = "甲"
role = "刀手"
[[players]]
name = "乙"
role = "禁言者"
[[players]]
name = "丙"
role = "炸弹"
[[players]]
name = "丁"
role = "查验者"
[[players]]
name = "戊"
role = "平民"
[[players]]
name = "己"
role = "医生"
[[players]]
name = "庚"
role = "平民"
"""


def test_silenced_actor_and_used_up_skill(cli, tmp_path):
    deal = tmp_path / "deal.toml"
    deal.write_text(DEAL, encoding="utf-8")
    assert cli("new", "g", "--ruleset", TOY, "--deal", str(deal)).exit_code == 0
    assert cli("act", "g", "丙", "引爆", "甲").exit_code == 0  # 限定, answered at once
    before = snapshot(cli)
    r = cli("act", "g", "丙", "引爆", "乙")
    assert r.exit_code == 2 and "no use of 引爆 left" in r.output
    assert snapshot(cli) == before
    cli("resolve", "g", "--yes")
    assert cli("act", "g", "乙", "禁言", "己").exit_code == 0
    cli("resolve", "g", "--yes")
    status = cli("status", "g", "--as", "己", "--json")
    assert "沉默" in status.output
    cli("resolve", "g", "--yes")  # day 2; 沉默 lasts until the end of night 2
    before = snapshot(cli)
    r = cli("act", "g", "己", "救", "丁")
    assert r.exit_code == 2 and "沉默" in r.output, r.output


def test_scenario_run_exit_codes(cli, tmp_path):

    runner = CliRunner()
    good = Path(__file__).parent / "scenarios" / "night-kill-heal.toml"
    assert runner.invoke(app, ["scenario", "run", str(good)]).exit_code == 0
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(good.read_text(encoding="utf-8").replace('out = ["丁"]', 'out = ["戊"]').replace(
        'ruleset = "../toy.toml"', f'ruleset = "{TOY}"'), encoding="utf-8")
    r = runner.invoke(app, ["scenario", "run", str(wrong)])
    assert r.exit_code == 1 and "out: expected 戊, actual 丁" in r.output  # the toy board is English
    for text, message in [
        ("ruleset = 3\n", "ruleset"),
        (f'ruleset = "{TOY}"\ntitle = "x"\n[[players]]\nname = "甲"\nrole = "刀手"\n[[phases]]\nphase = "黄昏 1"\n', "unknown phase"),
        ("title = [unclosed\n", "不是有效的 TOML"),
    ]:
        bad = tmp_path / "bad.toml"
        bad.write_text(text, encoding="utf-8")
        r = runner.invoke(app, ["scenario", "run", str(bad)])
        assert r.exit_code == 2 and message in r.output, r.output


def test_empty_roster_file(cli, tmp_path):
    roster = tmp_path / "roster.txt"
    roster.write_text("# nobody yet\n", encoding="utf-8")
    r = cli("new", "g", "--ruleset", TOY, "--players", str(roster))
    assert r.exit_code == 2 and "no player names" in r.output


@pytest.mark.parametrize(("argv", "lang", "message"), [
    (["resolve", "g", "--extra"], "", "错误：bansha resolve: 没有选项 --extra"),
    (["new", "g", "--ruleset", "toy", "--seed", "abc"], "", "--seed 的值无效：abc：应为整数"),
    (["act"], "", "缺少参数 GAME"),
    (["nosuch"], "", "没有命令 nosuch"),
    (["resolve", "g", "--extra"], "en", "error: bansha resolve: no such option --extra"),
    (["new", "g", "--ruleset", "toy", "--seed", "abc"], "en", "invalid value for --seed: abc：expected an integer"),
    (["act"], "en", "missing argument GAME"),
    (["nosuch"], "en", "no such command nosuch"),
])
def test_usage_errors_are_one_line_and_exit_2(monkeypatch, capsys, tmp_path, argv, lang, message):
    """click's usage errors in the catalogue's words: BANSHA_LANG, else Chinese."""
    import sys

    from bansha.cli.cli import main

    monkeypatch.setenv("BANSHA_LANG", lang)
    monkeypatch.setattr(sys, "argv", ["bansha", *argv, "--db", str(tmp_path / "g.db")] if argv[0] != "nosuch" else ["bansha", *argv])
    with pytest.raises(SystemExit) as exit_:
        main()
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert err.startswith(("error:", "错误：")) and err.count("\n") == 1 and message in err, err


def test_act_with_the_phase_as_the_board_names_it_keeps_the_phase_id(cli, game):
    """``act --phase "第1天 夜晚"`` is stored as the log names the phase ("night 1"), as ``act``
    without --phase is (the conformance walk found the typed label in the log: plain ``undo``
    and whatever reads an event's phase saw two names for one phase)."""
    killer = role_holder(game, "刀手")
    victim = role_holder(game, "平民")
    assert cli("resolve", "g", "--yes").exit_code == 0
    named = Store(cli.db).load("g").named()
    assert named != "night 1"  # the board's own name for it
    r = cli("act", "g", killer, "kill", victim, "--phase", named)
    assert r.exit_code == 0, r.output
    (ev,) = [e for _, e in snapshot(cli) if type(e).__name__ == "ActEvent"]
    assert ev.phase == "night 1"
