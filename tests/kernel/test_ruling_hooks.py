"""The director's rulings go through the rules: ``bansha_validate_ruling`` refuses one with a
reason before anything changes, ``bansha_apply_ruling`` applies a kind the rules give a meaning
to (or one of their own), and the kernel records every accepted ruling."""

from pathlib import Path

import pytest
from bansha import hookimpl
from bansha.engine import Game
from bansha.model import GameError, PlayerSetup, RulingEvent, Setup
from bansha.registry import find_manifest

TOY = (Path(__file__).parent / "toy.toml").read_text(encoding="utf-8")
ROLES = [("甲", "刀手"), ("乙", "刀手"), ("丙", "医生"), ("丁", "查验者"), ("戊", "平民"), ("己", "炸弹"), ("庚", "阻挡者")]


class Rules:
    """A toy rule: one substitute per seat; ``answer`` is told to the player who asked;
    ``warn`` is a kind of the toy's own."""

    @hookimpl
    def bansha_validate_ruling(game, ruling):
        if ruling.kind == "substitute" and game.player(ruling.player).data.get("subbed"):
            return "one substitute per seat"
        return None

    @hookimpl
    def bansha_apply_ruling(res, ruling):
        game = res.game
        if ruling.kind == "answer":
            res.feedback(ruling.player, f"导演回复：{ruling.text}")
            return True
        if ruling.kind == "warn":
            game.player(ruling.player).data["warned"] = True
            res.announce(f"{ruling.player}被警告。")
            return True
        if ruling.kind == "substitute":
            game.player(ruling.player).data["subbed"] = True
        return None


@pytest.fixture
def game(bansha_plugin, tmp_path):
    bansha_plugin("toy.rulings", Rules)
    path = tmp_path / "toy.toml"
    path.write_text(TOY.replace('id = "toy"', 'id = "toy-rulings"\nrules = ["toy.rulings"]'), encoding="utf-8")
    m = find_manifest(str(path))
    return Game(Setup(ruleset=m.id, manifest=m, players=[PlayerSetup(name=n, role=r) for n, r in ROLES]))


def test_the_rules_apply_a_ruling_and_the_kernel_records_it(game):
    game.apply(RulingEvent(phase="day 1", kind="answer", player="丁", text="是"))
    assert ("day 1", "导演回复：是") in game.feedback["丁"]
    game.apply(RulingEvent(phase="day 1", kind="warn", player="戊"))
    assert game.player("戊").data["warned"] and ("day 1", "戊被警告。") in game.announcements
    assert [r.kind for r in game.rulings] == ["answer", "warn"]


def test_the_rules_refuse_a_ruling_before_anything_changes(game):
    game.apply(RulingEvent(phase="day 1", kind="substitute", player="戊", text="新戊"))
    assert "新戊" in game.players and game.player("新戊").seat == 5
    before = (list(game.players), list(game.announcements), len(game.rulings))
    with pytest.raises(GameError, match="one substitute per seat"):
        game.apply(RulingEvent(phase="day 1", kind="substitute", player="新戊", text="又一个"))
    assert (list(game.players), list(game.announcements), len(game.rulings)) == before


def test_a_kind_nobody_applies_is_refused(game):
    with pytest.raises(GameError, match="unknown ruling shout"):
        game.apply(RulingEvent(phase="day 1", kind="shout", player="戊"))
    assert game.rulings == []


def test_a_ruling_is_stored_logged_and_replayed(game, tmp_path):
    """A RulingEvent has a field ``kind``: the store's log line must not collide with it."""
    from bansha.store import Store

    store = Store(tmp_path / "games.db")
    store.create("g", game.setup)
    store.append("g", RulingEvent(phase="day 1", kind="warn", player="戊"))
    again = store.load("g")
    assert again.player("戊").data["warned"] and [r.kind for r in again.rulings] == ["warn"]


def test_rulings_lists_the_kernels_kinds_and_those_the_rules_add(bansha_cli):
    """`bansha rulings RULESET`: the kernel's kinds, then each kind a rule plugin declares
    through bansha_ruling_kinds; an unknown kind is refused naming them all."""
    import json

    from bansha.cli import app
    from typer.testing import CliRunner

    r = CliRunner().invoke(app, ["rulings", "m217", "--json"])
    assert r.exit_code == 0, r.output
    kinds = json.loads(r.output)
    assert list(kinds)[:5] == ["remove", "announce", "answer", "substitute", "draw"]
    assert {"void", "accelerate", "delay", "proclaim", "reask"} <= set(kinds)
    assert "红牌" in kinds["remove"]                 # a rule may give a kernel kind its meaning
    bansha_cli.ok("new", "g", "--ruleset", "m217", "--players", "甲,乙,丙,丁,戊,己,庚,辛,壬,癸,子,丑,寅,卯")
    bansha_cli.refused("ruling", "g", "frobnicate", message="没有裁定 frobnicate（可用：remove、announce")  # m217 is a Chinese board


def test_a_ruling_is_typed_and_shown_by_the_boards_name(bansha_cli):
    """A director types a ruling by the name the board gives it (m217's 公示, 红牌) or its id,
    and every surface says the name: the line `ruling` prints, `rulings`, `log` and the trace
    the scenario runner and `log --explain` read (a run of the conformance walk on m217 found
    `裁定 proclaim 已记录` and `类型=proclaim`)."""
    names = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛", "壬", "癸", "子", "丑", "寅", "卯"]
    bansha_cli.ok("new", "g", "--ruleset", "m217", "--players", ",".join(names))
    from bansha.cli import app
    from typer.testing import CliRunner

    listed = CliRunner().invoke(app, ["rulings", "m217"]).output
    assert "公示\t" in listed and "红牌\t" in listed and "proclaim" not in listed
    said = bansha_cli.ok("ruling", "g", "公告", "--text", "今晚推迟一小时").output
    assert said.startswith("裁定 公告 已记录") and "announce" not in said
    said = bansha_cli.ok("ruling", "g", "announce", "--text", "再推迟一小时").output  # the id is taken too
    assert said.startswith("裁定 公告 已记录")
    said = bansha_cli.ok("ruling", "g", "红牌", "丙", "--text", "犯规").output
    assert said.startswith("裁定 红牌 已记录")
    log = bansha_cli.ok("log", "g", "--explain").output
    assert "类型=公告" in log and "类型=红牌" in log
    assert "remove" not in log and "announce" not in log and "proclaim" not in log
    bansha_cli.refused("ruling", "g", "公式", message="没有裁定 公式（可用：remove、announce")
    bansha_cli.refused("ruling", "g", "公式", message="，即红牌、公告、回答、替补、平局")
