"""Regressions for what the fuzzer (test_fuzz_cli.py) found in the kernel, as plain tests.

- ``--arg KEY=VALUE`` crashed on a value that ``str.isdigit`` accepts but ``int`` does not
  (``²``, ``--5``): a traceback, not a one-line error.
- ``ruling substitute`` left the seat's pending actions and votes (and votes cast for it)
  under the old name: the phase could no longer resolve (KeyError in the vote count or the
  step loop), and a run-off or 不得连续 rule no longer knew the seat.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bansha.cli.cli import _kv, app
from bansha.store.store import Store
from typer.testing import CliRunner

TOY = str(Path(__file__).resolve().parents[1] / "kernel" / "toy.toml")
SEATS = [("甲", "刀手"), ("乙", "禁言者"), ("丙", "炸弹"), ("丁", "查验者"), ("戊", "平民"), ("己", "医生"), ("庚", "刀手")]


@pytest.fixture
def cli(tmp_path):
    runner = CliRunner()
    db = tmp_path / "games.db"

    def run(*args: str, code: int = 0):
        r = runner.invoke(app, [*args, "--db", str(db)])
        assert r.exception is None or isinstance(r.exception, SystemExit), r.output
        assert r.exit_code == code, r.output
        return r.output

    deal = tmp_path / "deal.toml"
    deal.write_text("\n".join(f'[[players]]\nname = "{n}"\nrole = "{r}"' for n, r in SEATS), encoding="utf-8")
    run("new", "g", "--ruleset", TOY, "--deal", str(deal))
    run.db = db
    return run


def test_arg_values_are_whole_numbers_or_text():
    assert _kv(["a=12", "b=-3", "c=--5", "d=²", "e=1.5", "f=", "g=x=y", "h=٣"]) == {
        "a": 12, "b": -3, "c": "--5", "d": "²", "e": "1.5", "f": "", "g": "x=y", "h": 3}


@pytest.mark.parametrize("value", ["²", "--5", "-", "¼", "٣"])
def test_an_odd_arg_value_is_no_traceback(cli, value):
    cli("resolve", "g", "--yes")
    cli("act", "g", "甲", "刀", "戊", "--arg", f"n={value}")


def test_a_substitute_takes_over_a_pending_vote_and_the_votes_for_the_seat(cli):
    cli("vote", "g", "甲", "乙")
    cli("vote", "g", "丙", "甲")
    cli("vote", "g", "丁", "甲")
    cli("ruling", "g", "substitute", "甲", "--text", "新甲")
    cli("vote", "g", "戊", "新甲")
    out = cli("resolve", "g", "--yes")
    assert "新甲：3票" in out and "乙：1票" in out
    g = Store(cli.db).load("g")
    assert "甲" not in g.players and not g.players["新甲"].alive  # 3 of 7 ≥ 40%


def test_a_substitute_takes_over_a_pending_action(cli):
    cli("resolve", "g", "--yes")
    cli("act", "g", "丁", "验", "乙")
    cli("act", "g", "庚", "刀", "丁")
    cli("act", "g", "己", "救", "丁")
    cli("ruling", "g", "substitute", "丁", "--text", "新丁")
    out = cli("resolve", "g", "--yes")
    assert "[新丁] 乙是禁言者。" in out
    g = Store(cli.db).load("g")
    assert g.players["新丁"].alive  # healed: the heal and the kill follow the seat


def test_not_twice_running_follows_the_seat(cli):
    cli("resolve", "g", "--yes")
    cli("act", "g", "己", "救", "戊")
    cli("resolve", "g", "--yes")
    cli("ruling", "g", "substitute", "戊", "--text", "新戊")
    cli("resolve", "g", "--yes")
    assert "two nights running" in cli("act", "g", "己", "救", "新戊", code=2)


def test_a_runoff_keeps_a_substituted_leader(cli):
    for voter, target in [("甲", "乙"), ("丙", "乙"), ("丁", "乙"), ("乙", "戊"), ("己", "戊"), ("庚", "戊")]:
        cli("vote", "g", voter, target)
    out = cli("resolve", "g", "--yes")
    assert "平票" in out and "第1天 对决" in out
    cli("ruling", "g", "substitute", "乙", "--text", "新乙")
    cli("vote", "g", "甲", "新乙")
    assert "between" in cli("vote", "g", "丙", "丁", code=2)


def test_a_rewind_does_not_bring_back_a_substituted_player(tmp_path):
    """时钟 turns the game back to before a substitution: the seat keeps its new player (the
    snapshot held the old name; the feedback, which is history, is under the new one)."""
    runner = CliRunner()
    db = str(tmp_path / "games.db")
    deal = tmp_path / "deal.toml"
    seats = [(n, "时钟" if n == "戊" else r) for n, r in SEATS]
    deal.write_text("\n".join(f'[[players]]\nname = "{n}"\nrole = "{r}"' for n, r in seats), encoding="utf-8")

    def cli(*args: str) -> str:
        r = runner.invoke(app, [*args, "--db", db])
        assert r.exit_code == 0, r.output
        return r.output

    cli("new", "g", "--ruleset", TOY, "--deal", str(deal))
    cli("resolve", "g", "--yes")
    cli("act", "g", "丁", "验", "乙")
    cli("resolve", "g", "--yes")
    cli("vote", "g", "丁", "甲")
    cli("ruling", "g", "substitute", "丁", "--text", "新丁")
    cli("act", "g", "戊", "倒流")  # back to the start of night 1
    g = Store(db).load("g")
    assert g.label == "night 1"
    assert list(g.players) == ["甲", "乙", "丙", "新丁", "戊", "己", "庚"]
    assert "乙是禁言者。" in cli("status", "g", "--as", "新丁")
    cli("act", "g", "新丁", "验", "甲")
    assert "[新丁] 甲是刀手。" in cli("resolve", "g", "--yes")
