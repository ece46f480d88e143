"""PhaseSpec.hold_public: an immediate answer's public lines wait for the phase to close
(M217: a death at dusk is announced with the dusk), private lines are told at once, and a
game that ends meanwhile tells them before the end."""

from pathlib import Path

from bansha.engine.engine import Game
from bansha.engine.model import ActEvent, PlayerSetup, ResolveEvent, Setup
from bansha.engine.registry import find_manifest

TOY = Path(__file__).parent / "toy.toml"


def game_with_held_day(tmp_path, players):
    text = TOY.read_text(encoding="utf-8").replace('id = "toy"', 'id = "toy-held"').replace(
        'alias = "白天"\nvote = true', 'alias = "白天"\nvote = true\nhold_public = true')
    path = tmp_path / "held.toml"
    path.write_text(text, encoding="utf-8")
    m = find_manifest(str(path))
    assert any(p.hold_public for p in m.phases)
    return Game(Setup(ruleset=m.id, manifest=m, players=[PlayerSetup(name=n, role=r) for n, r in players]))


PLAYERS = [("甲", "刀手"), ("乙", "平民"), ("丙", "医生"), ("丁", "查验者"), ("戊", "平民"), ("己", "时钟"), ("庚", "平民")]


def test_public_lines_wait_for_the_phase_private_ones_do_not(tmp_path):
    g = game_with_held_day(tmp_path, PLAYERS)
    g.apply(ResolveEvent(phase="day 1"))
    g.apply(ActEvent(phase="night 1", actor="甲", skill="刀", targets=["戊"]))
    g.apply(ResolveEvent(phase="night 1"))
    mark = g.mark()
    g.apply(ActEvent(phase="day 2", actor="己", skill="倒流"))  # announces, then turns back
    fb, ann = g.since(mark)
    assert ann == []  # held: day 2 has not closed
    assert g.held == ["己发动时光回溯。"]
    # the rewind took the game back to night 1; the held line survives it and is told when
    # the next phase closes
    assert g.label == "night 1" and g.players["戊"].alive
    g.apply(ResolveEvent(phase="night 1"))
    assert ("night 1", "己发动时光回溯。") in g.announcements and g.held == []


def test_a_game_that_ends_tells_what_was_held_first(tmp_path):
    g = game_with_held_day(tmp_path, PLAYERS)
    g.held = ["乙出局。"]
    g.end(["好人"])
    assert [t for _, t in g.announcements] == ["乙出局。", "游戏结束，好人胜利。"]
    assert g.held == []
