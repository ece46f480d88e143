"""A homebrew role is a role like any other to "what may this seat do now" (choices.py): the
same question the CLI, the web forms and the simulator ask."""

from __future__ import annotations

from pathlib import Path

from bansha.engine import choices
from bansha.engine.engine import Game
from bansha.engine.model import ActEvent, PlayerSetup, ResolveEvent, Setup
from bansha.engine.registry import find_manifest

BOARD = Path(__file__).parent.parent.parent / "examples" / "homebrew-board" / "board.toml"
SEATS = [("甲", "黑手党"), ("乙", "黑手党"), ("丙", "医生"), ("丁", "侦探"), ("戊", "平民"), ("己", "平民"), ("庚", "平民")]


def game_at_night():
    m = find_manifest(str(BOARD))
    g = Game(Setup(ruleset=m.id, manifest=m, players=[PlayerSetup(name=n, role=r) for n, r in SEATS]))
    g.apply(ResolveEvent(phase=g.label))
    return g


def test_the_homebrew_skills_are_offered_with_their_targets():
    g = game_at_night()
    doctor = {c.skill: c for c in choices.seat_choices(g, "丙")}
    assert set(doctor) == {"守护"}
    # "可以守护自己": every player in the game
    assert doctor["守护"].targets == [n for n, _ in SEATS]
    detective = {c.skill: c for c in choices.seat_choices(g, "丁")}
    # 调查 takes another player ("每晚调查一名其他玩家")
    assert detective["调查"].targets == [n for n, _ in SEATS if n != "丁"]
    assert choices.seat_choices(g, "戊") == []


def test_a_limit_of_the_declaration_is_what_the_choices_say():
    """"不得连续两晚守护同一人": after guarding 戊 on night 1, 戊 is not offered on night 2."""
    g = game_at_night()
    g.apply(ActEvent(phase=g.label, actor="丙", skill="守护", targets=["戊"]))
    g.apply(ResolveEvent(phase=g.label))
    g.apply(ResolveEvent(phase=g.label))  # day 2, nobody voted
    assert g.label == "night 2"
    offered = {c.skill: c for c in choices.seat_choices(g, "丙")}["守护"].targets
    assert "戊" not in offered and "丙" in offered
