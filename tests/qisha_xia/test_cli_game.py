"""A whole 20-player game of qisha-xia played from the CLI to a win with scores (the demo's
script replayed as commands), `bansha demo`, and the 3.2 deadlines shown by `bansha status`."""

import tomllib
from pathlib import Path

import pytest
from bansha.cli.cli import app
from typer.testing import CliRunner

DEMO = Path(__file__).resolve().parents[2] / "rulesets/qisha-xia/bansha_qisha_xia/demos/qisha-xia.toml"


@pytest.fixture
def cli(tmp_path):
    runner = CliRunner()

    def run(*args: str):
        r = runner.invoke(app, [*args, "--db", str(tmp_path / "games.db")])
        assert r.exit_code == 0, r.output
        return r.output

    run.tmp = tmp_path
    return run


def deal(tmp_path, script):
    path = tmp_path / "deal.toml"
    path.write_text("".join(f'[[players]]\nname = "{p["name"]}"\nrole = "{p["role"]}"\n' for p in script["players"]), encoding="utf-8")
    return str(path)


def test_a_whole_game_from_the_cli(cli):
    script = tomllib.loads(DEMO.read_text(encoding="utf-8"))
    cli("new", "g", "--ruleset", "qisha-xia", "--deal", deal(cli.tmp, script))
    for phase in script["phases"]:
        for a in phase.get("actions", []):
            args = [x for k, v in a.get("args", {}).items() for x in ("--arg", f"{k}={v}")]
            cli("act", "g", a["actor"], a["skill"], *a.get("targets", []), *args)
        for v in phase.get("votes", []):
            cli("vote", "g", v["voter"], v["target"], "--post", str(v["post"]), *(["--change"] if v.get("change") else []))
        out = cli("resolve", "g", "--yes")
    assert "光明获胜。" in out and "游戏结束：光明" in out
    assert "青一 35" in out and "士一 20" in out and "35.0" not in out and "{" not in out  # no Python repr
    status = cli("status", "g")
    assert "结束：光明" in status and "青侠（白侠）" in status


def test_the_demo_plays():
    r = CliRunner().invoke(app, ["demo", "--ruleset", "qisha-xia"])
    out = r.output
    assert r.exit_code == 0, out
    assert "光明获胜。" in out and "得分：" in out


def test_status_shows_the_deadline_and_the_weekend_extension(cli, tmp_path):
    script = tomllib.loads(DEMO.read_text(encoding="utf-8"))
    d = deal(tmp_path, script)
    # day 1 starts on Wednesday 2024-05-01 20:00 and ends Thursday 22:00
    cli("new", "w", "--ruleset", "qisha-xia", "--deal", d, "--option", "start_time=2024-05-01 20:00")
    out = cli("status", "w")
    assert "截止: 2024-05-02 周四 22:00" in out and "周末延长: 否" in out
    # night 1: Thursday 22:00 → Friday 12:50, last words until Friday 20:00
    cli("resolve", "w", "--yes")
    out = cli("status", "w")
    assert "截止: 2024-05-03 周五 12:50" in out and "遗言截止: 2024-05-03 周五 20:00" in out
    # day 2 starts on Friday 20:00: extended to Sunday 22:00; players see it too
    cli("resolve", "w", "--yes")
    out = cli("status", "w", "--as", "士一")
    assert "开始: 2024-05-03 周五 20:00" in out and "截止: 2024-05-05 周日 22:00" in out and "周末延长: 是" in out


def test_status_without_a_start_time_shows_the_schedule(cli, tmp_path):
    script = tomllib.loads(DEMO.read_text(encoding="utf-8"))
    cli("new", "s", "--ruleset", "qisha-xia", "--deal", deal(tmp_path, script))
    assert "白天讨论、投票：截止次日22:00（逢周五开始则延至周日22:00）" in cli("status", "s")


def test_group_kill_by_a_second_member_through_the_cli(bansha_cli, tmp_path):
    """R-K1 "每晚共同杀人": the director is told what 黑二's kill replaces; each 黑侠 sees the
    group's standing kill; 黑一's unact names and removes 黑二's kill; a 黑侠 who has left is
    listed in the group marked 出局."""
    import json

    from .test_cli_input import TABLE

    deal = tmp_path / "deal.toml"
    deal.write_text("".join(f'[[players]]\nname = "{n}"\nrole = "{r}"\n' for n, r in TABLE), encoding="utf-8")
    cli = bansha_cli
    cli.ok("new", "g", "--ruleset", "qisha-xia", "--deal", deal)
    cli.ok("resolve", "g", "--yes")
    cli.ok("act", "g", "黑一", "杀人", "士一")
    assert "取代：黑一 杀人 士一" in cli.ok("act", "g", "黑二", "杀人", "士二").output
    for name in ("黑一", "黑三"):
        assert json.loads(cli.ok("status", "g", "--as", name, "--json").output)["you"]["group_acted"] == ["黑二 杀人 士二"]
    assert "已撤回：黑二 杀人 士二" in cli.ok("unact", "g", "黑一", "杀人").output
    assert "昨夜无人出局。" in cli.ok("resolve", "g", "--yes").output  # the replaced kill did not come back
    for voter in [n for n, _ in TABLE if n != "黑一"][:10]:
        cli.ok("vote", "g", voter, "黑一", "--post", "1")
    cli.ok("resolve", "g", "--yes")
    assert json.loads(cli.ok("status", "g", "--as", "黑二", "--json").output)["you"]["group"] == ["黑一（出局）", "黑三"]
