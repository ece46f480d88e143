"""R-T3 through the CLI: "夜晚出局玩家有一次遗言的机会" — `bansha status` lists who is owed last
words and until when (with the 3.2 clock's 遗言截止), the ruling 遗言 records them once, and they
are announced first in the next announcement."""

import json

from .test_cli_input import TABLE


def test_qisha_xia_status_lists_who_is_owed_and_until_when(bansha_cli, tmp_path):
    deal = tmp_path / "deal.toml"
    deal.write_text("".join(f'[[players]]\nname = "{n}"\nrole = "{r}"\n' for n, r in TABLE), encoding="utf-8")
    cli = bansha_cli
    cli.ok("new", "g", "--ruleset", "qisha-xia", "--deal", deal, "--option", "start_time=2024-05-06 20:00")
    cli.ok("resolve", "g", "--yes")
    cli.refused("ruling", "g", "遗言", "士一", "--text", "我是侠士", message="没有遗言的机会")
    cli.ok("act", "g", "黑一", "杀人", "士一")
    cli.ok("resolve", "g", "--yes")
    out = cli.ok("status", "g").output
    assert "遗言：士一（第1天 夜晚出局；第2天 白天结束前）" in out
    assert "遗言截止: 2024-05-08 周三 20:00" in out
    mine = json.loads(cli.ok("status", "g", "--as", "士一", "--json").output)["you"]
    assert mine["last_words_until"] == "day 2"
    assert "last_words_until" not in json.loads(cli.ok("status", "g", "--as", "士二", "--json").output)["you"]
    cli.ok("new", "s", "--ruleset", "qisha-xia", "--deal", deal)  # no start_time: the schedule
    cli.ok("resolve", "s", "--yes")
    cli.ok("act", "s", "黑一", "杀人", "士一")
    cli.ok("resolve", "s", "--yes")
    assert "等待死者遗言：12:50～20:00" in cli.ok("status", "s").output
    cli.ok("ruling", "g", "遗言", "士一", "--text", "黑一可疑")
    assert "已记录" in cli.ok("status", "g").output
    cli.refused("ruling", "g", "遗言", "士一", "--text", "再说一句", message="只有一次遗言的机会")
    r = cli.ok("resolve", "g", "--yes")
    assert "士一的遗言：黑一可疑" in r.output
    assert "last words" not in cli.ok("status", "g").output


def test_the_ruling_kind_exists_where_last_words_are_owed():
    from bansha.cli.cli import app
    from typer.testing import CliRunner

    assert "遗言" in CliRunner().invoke(app, ["rulings", "qisha-xia"]).output
    assert "遗言" in CliRunner().invoke(app, ["rulings", "m217"]).output
    assert "遗言" not in CliRunner().invoke(app, ["rulings", "light-shadow"]).output
