"""Malformed input files: a manifest, a deal, a roster and a scenario, each broken in one way,
give exit code 2 and one line ``error: …`` naming the file and the key or the problem, and
nothing is stored. (tests/kernel/test_cli.py covers a manifest key of the wrong type, a deal
with an unknown role, an empty roster and scenarios with a wrong type or bad TOML.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from bansha.cli.cli import app
from bansha.store.store import Store
from typer.testing import CliRunner

KERNEL = Path(__file__).resolve().parents[1] / "kernel"
TOY_TEXT = (KERNEL / "toy.toml").read_text(encoding="utf-8")
NAMES = "甲,乙,丙,丁,戊,己,庚"
SEVEN = [("甲", "刀手"), ("乙", "刀手"), ("丙", "医生"), ("丁", "查验者"), ("戊", "平民"), ("己", "炸弹"), ("庚", "阻挡者")]


def edit(old: str, new: str) -> str:
    assert old in TOY_TEXT, old
    return TOY_TEXT.replace(old, new, 1)


def deal_text(rows) -> str:
    return "\n".join(f'[[players]]\nname = "{n}"\nrole = "{r}"' + (f'\ncamp = "{c}"' if c else "")
                     for n, r, *rest in rows for c in [rest[0] if rest else ""])


MANIFESTS = {
    "wrong-type": (edit("first_day = 1", 'first_day = "one"'), ["first_day", "expected an integer, got text"]),
    "nested-wrong-type": (edit("seats = 7", 'seats = "seven"'), ["tables[0].seats"]),
    "unknown-key": (edit("first_day = 1", 'first_day = 1\ncolour = "red"'), ["colour"]),
    "unknown-nested-key": (edit("threshold = 0.4", "threshold = 0.4\nmajority = 1"), ["vote", "majority"]),
    "unknown-role": (edit('"平民" = "toy" }', '"平民" = "toy", "龙" = "toy" }'), ["roles.龙", "龙"]),
    "unknown-role-in-table": (edit('"平民" = 1 }', '"平民" = 1, "龙" = 1 }'), ["tables", "unknown role 龙"]),
    "unknown-plugin": (edit('"平民" = "toy" }', '"平民" = "toy", "龙" = "no-such-plugin" }'), ["no-such-plugin", "not installed"]),
    "unknown-handler": (edit('{ name = "block" },', '{ name = "block", handlers = ["no.such.handler"] },'),
                        ["phases.night.steps.block", "no.such.handler"]),
    "unknown-after-handler": (edit('{ name = "info" },', '{ name = "info", after = ["no.such.handler"] },'),
                              ["phases.night.steps.info", "no.such.handler"]),
    "override-of-no-skill": (TOY_TEXT + '\n[skills]\n"飞" = { step = "kill" }\n', ["skills.飞", "no role"]),
    "override-to-no-step": (TOY_TEXT + '\n[skills]\n"刀" = { step = "nowhere" }\n', ["skills.刀.step", "nowhere"]),
    "unknown-camp-in-table": (edit('seats = 7\n', 'seats = 7\ncamps = { "中立" = ["平民"] }\n'), ["tables.camps", "中立"]),
    "not-toml": ("id = [unclosed\n", ["不是有效的 TOML"]),
}


@pytest.fixture
def cli(bansha_cli):
    return bansha_cli


def refused(r, *words: str) -> str:
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(("error: ", "错误：")), r.output
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


def nothing_stored(cli) -> None:
    assert Store(cli.db).names() == []


@pytest.mark.parametrize("case", sorted(MANIFESTS))
def test_a_malformed_manifest(cli, tmp_path, case):
    text, words = MANIFESTS[case]
    path = tmp_path / f"{case}.toml"
    path.write_text(text, encoding="utf-8")
    refused(cli("new", "g", "--ruleset", str(path), "--players", NAMES), str(path), *words)
    nothing_stored(cli)


DEALS = {
    "unknown-role": (deal_text([*SEVEN[:-1], ("庚", "龙")]), ["players[6].role", "unknown role 龙"]),
    "unknown-camp": (deal_text([*SEVEN[:-1], ("庚", "平民", "中立")]), ["players[6].camp", "unknown camp 中立"]),
    "duplicate-name": (deal_text([*SEVEN[:-1], ("甲", "阻挡者")]), ["players[6].name", "甲 is given twice"]),
    "empty-name": (deal_text([*SEVEN[:-1], ("  ", "阻挡者")]), ["players[6].name", "the name is empty"]),
    "too-few-seats": (deal_text(SEVEN[:3]), ["key players", "3 seats", "tables for 7"]),
    "too-many-seats": (deal_text([*SEVEN, ("辛", "平民")]), ["key players", "8 seats"]),
    "unknown-key": (deal_text(SEVEN) + '\nhat = "red"\n', ["players[6]", "hat"]),
    "wrong-type": (deal_text(SEVEN).replace('name = "甲"', "name = 1"), ["players[0].name", "expected text, got an integer"]),
    "no-players": ('title = "x"\n', ["players"]),
    "not-toml": ("[[players]\n", ["not valid TOML: line 1, column 10"]),  # the board's language (toy: en)
}


@pytest.mark.parametrize("case", sorted(DEALS))
def test_a_malformed_deal(cli, tmp_path, case):
    text, words = DEALS[case]
    path = tmp_path / f"{case}.toml"
    path.write_text(text, encoding="utf-8")
    refused(cli("new", "g", "--ruleset", str(KERNEL / "toy.toml"), "--deal", str(path)), str(path), *words)
    nothing_stored(cli)


def test_a_missing_deal_file(cli, tmp_path):
    path = tmp_path / "nowhere.toml"
    refused(cli("new", "g", "--ruleset", str(KERNEL / "toy.toml"), "--deal", str(path)), str(path), "cannot read", "no such file")
    nothing_stored(cli)


def test_a_good_deal_still_plays(cli, tmp_path):
    path = tmp_path / "deal.toml"
    path.write_text(deal_text(SEVEN), encoding="utf-8")
    r = cli("new", "g", "--ruleset", str(KERNEL / "toy.toml"), "--deal", str(path))
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("text", ["", "# nobody yet\n", "\n  \n# 甲\n"])
def test_an_empty_roster_names_the_file(cli, tmp_path, text):
    roster = tmp_path / "roster.txt"
    roster.write_text(text, encoding="utf-8")
    refused(cli("new", "g", "--ruleset", str(KERNEL / "toy.toml"), "--players", str(roster)), str(roster), "no player")
    nothing_stored(cli)


def test_a_roster_with_a_name_twice(cli, tmp_path):
    roster = tmp_path / "roster.txt"
    roster.write_text("\n".join(NAMES.split(",")[:-1] + ["甲"]), encoding="utf-8")
    refused(cli("new", "g", "--ruleset", str(KERNEL / "toy.toml"), "--players", str(roster)), "twice")
    nothing_stored(cli)


SCENARIO = (KERNEL / "scenarios" / "night-kill-heal.toml").read_text(encoding="utf-8")
SCENARIOS = {
    "unknown-top-key": ('colour = "red"\n' + SCENARIO, ["colour"]),
    "unknown-player-key": (SCENARIO.replace('role = "刀手"', 'role = "刀手"\nhat = 1', 1), ["players[0]", "hat"]),
    "unknown-phase-key": (SCENARIO.replace('phase = "night 1"', 'phase = "night 1"\nvotez = []', 1), ["phases[0]", "votez"]),
    "unknown-expect-key": (SCENARIO.replace("[phases.expect]", "[phases.expect]\ndead = []", 1), ["expect", "dead"]),
    "unknown-action-key": (SCENARIO.replace('targets = ["戊"] }', 'targets = ["戊"], target = "丁" }', 1), ["actions[0]", "target"]),
}


@pytest.mark.parametrize("case", sorted(SCENARIOS))
def test_a_scenario_with_an_unknown_key(tmp_path, case):
    text, words = SCENARIOS[case]
    assert text != SCENARIO
    path = tmp_path / f"{case}.toml"
    path.write_text(text.replace('ruleset = "../toy.toml"', f'ruleset = "{(KERNEL / "toy.toml").as_posix()}"'), encoding="utf-8")
    r = CliRunner().invoke(app, ["scenario", "run", str(path)])
    assert r.exit_code == 2, r.output
    invalid = [line for line in r.output.splitlines() if line.startswith("无效  ")]  # scenario run: no board yet, so Chinese
    assert len(invalid) == 1 and str(path) in invalid[0], r.output
    for w in words:
        assert w in invalid[0], (w, invalid[0])
