"""``bansha_phase_opened(res)``: what a phase's start publishes and does, through a resolution
of its own, on any board (docs/plugins.md "When a phase starts")."""

from pathlib import Path

from bansha import Status, hookimpl
from bansha.engine.engine import Game
from bansha.engine.model import PlayerSetup, ResolveEvent, Setup
from bansha.engine.registry import find_manifest

TOY = (Path(__file__).parent / "toy.toml").read_text(encoding="utf-8")


class Crier:
    """Announces each phase as it opens, tells 丙 privately at night, marks 丁 for the night."""

    @hookimpl
    def bansha_phase_opened(res):
        res.announce(f"{res.label} opens ({res.step})")
        if res.game.phase.name == "night":
            res.feedback("丙", "the night is yours")
            res.add_status("丁", Status(name="marked", until=res.label, source="crier"))


def game(tmp_path, bansha_plugin, hold_night=False):
    bansha_plugin("crier", Crier)
    text = TOY.replace('id = "toy"', 'id = "toy-crier"').replace('rewind = true', 'rewind = true\nrules = ["crier"]')
    if hold_night:
        text = text.replace('name = "night"\nalias = "夜晚"', 'name = "night"\nalias = "夜晚"\nhold_public = true')
    (tmp_path / "toy.toml").write_text(text, encoding="utf-8")
    m = find_manifest(str(tmp_path / "toy.toml"))
    roles = [("甲", "刀手"), ("乙", "刀手"), ("丙", "平民"), ("丁", "医生"), ("戊", "平民")]
    return Game(Setup(ruleset=m.id, manifest=m, players=[PlayerSetup(name=n, role=r) for n, r in roles]))


def test_a_phase_start_publishes_tells_and_acts(tmp_path, bansha_plugin):
    g = game(tmp_path, bansha_plugin)
    # the first phase opens when the game is made
    assert g.announcements == [("day 1", "day 1 opens (开始)")]
    g.apply(ResolveEvent(phase="day 1"))
    assert ("night 1", "night 1 opens (开始)") in g.announcements
    assert g.feedback["丙"][-1] == ("night 1", "the night is yours")
    assert [s.name for s in g.player("丁").statuses] == ["marked"]
    g.apply(ResolveEvent(phase="night 1"))
    # until = the label it opened: gone once that night is resolved
    assert [s.name for s in g.player("丁").statuses] == []


def test_a_held_phase_keeps_its_opening_line_to_its_close(tmp_path, bansha_plugin):
    g = game(tmp_path, bansha_plugin, hold_night=True)
    g.apply(ResolveEvent(phase="day 1"))
    assert ("night 1", "night 1 opens (开始)") not in g.announcements
    g.apply(ResolveEvent(phase="night 1"))
    assert ("night 1", "night 1 opens (开始)") in g.announcements
