"""Determinism: a game's seed and its log reproduce every result.

1. Every scenario file is played (``bansha.authoring.scenario.run``) while the events it applies are
   recorded; the same events then go through a store (JSON-encoded set-up and log, exactly
   what ``bansha`` keeps), and the game loaded back must give the same feedback,
   announcements, winner, scores, ruling trace and live state. (The runner itself compares
   announcements, feedback and winner on an in-memory replay.)
2. The same game created twice with the same seed and driven by the same commands gives an
   identical ``bansha export --format json``.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
import typer.main
import typer.testing
from bansha.authoring import scenario
from bansha.cli.cli import app
from bansha.engine.engine import Game
from bansha.engine.registry import find_manifest, installed_manifests
from bansha.store.store import Store

from .test_fuzz_cli import TOY, Fuzzer, names_for

TESTS = Path(__file__).resolve().parents[1]
FILES = sorted([*(TESTS / "scenarios").rglob("*.toml"), *(TESTS / "kernel" / "scenarios").glob("*.toml")])


class Recording(Game):
    """A game that keeps every event it accepted, in order (what a store would append)."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.accepted: list = []

    def apply(self, event) -> None:
        super().apply(event)
        self.accepted.append(event)


def outcome(g: Game) -> dict:
    return {
        "label": g.label,
        "announcements": g.announcements,
        "feedback": g.feedback,
        "winner": g.winner,
        "draw": g.draw,
        "scores": g.scores,
        "trace": [msgspec.to_builtins(t) for t in g.trace],
        "out": g.out,
        "resolved": g.resolved,
        "players": msgspec.to_builtins(list(g.players.values())),
    }


def test_there_are_scenarios():
    assert len(FILES) > 200


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_scenario_replays_from_the_store(path, tmp_path, monkeypatch):
    games: list[Recording] = []

    def recording(*args, **kw):
        games.append(Recording(*args, **kw))
        return games[-1]

    monkeypatch.setattr(scenario, "Game", recording)
    sc = scenario.load(path)
    played = scenario.run(sc, path.parent)
    assert played is games[0]
    setup = scenario.setup_of(sc, path.parent)
    store = Store(tmp_path / "games.db", logger=lambda _name: _Quiet())
    # the log as the store encodes it, stored as a copied game is (appending one by one would
    # replay n times); the last event goes through Store.append, which replays all the others
    *head, last = played.accepted or [None]
    store.import_raw("g", msgspec.json.encode(setup), [msgspec.json.encode(ev) for ev in head])
    if last is not None:
        appended, _ = store.append("g", last)
        assert outcome(appended) == outcome(played)
    assert outcome(store.load("g")) == outcome(played)


class _Quiet:
    def info(self, *a, **k):
        pass

    debug = warning = info


@pytest.mark.parametrize("ref", [*sorted(installed_manifests()), TOY], ids=lambda r: Path(r).stem)
def test_same_seed_same_commands_same_export(ref, tmp_path, monkeypatch):
    command = typer.main.get_command(app)
    monkeypatch.setattr(typer.testing, "_get_command", lambda _app: command)
    runner = typer.testing.CliRunner()
    manifest = find_manifest(ref)
    exports, histories = [], []
    for run in ("a", "b"):
        db = tmp_path / run / "games.db"
        r = runner.invoke(app, ["new", "g", "--ruleset", ref, "--players", ",".join(names_for(manifest.tables[0].seats)),
                                "--seed", "11", "--db", str(db)])
        assert r.exit_code == 0, r.output
        fz = Fuzzer(ref, seed=4, db=db, name="g")
        for _ in range(70):
            fz.step()
        histories.append(fz.history)
        r = runner.invoke(app, ["export", "g", "--format", "json", "--db", str(db)])
        assert r.exit_code == 0, r.output
        exports.append(r.output)
    assert histories[0] == histories[1]
    assert exports[0] == exports[1]
