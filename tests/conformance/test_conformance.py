"""The conformance walk in CI (issue 31): on every shipped board, the homebrew example and a
variant made with ``[[edits]]``, one seeded game each (m217's nights also closed window by
window), every surface a person reads rendered after every event and held to the properties
of ``conform.py``. A failure lists each breach once: the check, the board, seed and mode, the
surface and event where it was first seen, and the text.

The bounded run: a short game each (``DAY_LIMIT``), chosen to keep the whole file to a few
minutes of CPU. The larger run is ``benchmarks/conformance.py`` (docs/performance.md,
"The conformance walk").
"""

from __future__ import annotations

import pytest

from . import conform
from .conform import BOARDS, Walk, report

#: the games walked in CI: (board, seed, nights closed window by window)
GAMES = [(board, 1, False) for board in BOARDS] + [("m217", 2, True), ("m217-variant", 3, True)]
DAY_LIMIT = 1


@pytest.mark.parametrize(("board", "seed", "windows"), GAMES,
                         ids=[f"{b}-{s}-{'window' if w else 'whole'}" for b, s, w in GAMES])
def test_every_surface_after_every_event(board, seed, windows):
    w = Walk(board, seed, windows=windows, day_limit=DAY_LIMIT)
    findings = w.run()
    assert w.counts["events"] > 0 and w.counts["texts"] > w.counts["events"], w.counts
    assert not findings, f"{len(findings)} findings ({w.counts}):\n" + report(findings)


def test_the_walk_catches_what_it_checks(monkeypatch):
    """Each check reaches real output: a status line in English, a page that pairs a seat with
    its role for another seat, a label no command takes, a listing that offers a target act
    refuses — each is found."""
    from bansha.show import views

    w = Walk("mafia-basic", 1, day_limit=1, web=False)
    game = w.played.final()
    w.language(game, "status", "第1天 白天 — night 1: P01 is out")
    q = next(iter(game.players.values()))
    other = next(n for n in game.players if n != q.name)
    w.secrecy(game, "page", other, f"{q.name}（{q.role}）", {other: [], "": []})
    w.labels(game, "post", "第0天 夜晚的投票帖")  # mafia-basic begins with 第1天 白天
    found = {f.check for f in w.findings.values()}
    assert {"language", "secrecy", "labels"} <= found, w.findings
    w.close()

    original = views.player_view

    def more(game, name, *a, **kw):  # status lists a skill act does not take
        view = original(game, name, *a, **kw)
        view["you"]["choices"] = [*view["you"].get("choices", []), {"skill": "飞天", "min": 0, "max": 0}]
        return view

    monkeypatch.setattr(conform, "player_view", more)
    w = Walk("mafia-basic", 1, day_limit=1, web=False)
    w.listing(game, w.played.events[-1], "@end")
    w.close()
    assert any(f.check == "listing" and "飞天" in f.text for f in w.findings.values()), w.findings


@pytest.mark.parametrize("board", ["m217", "qisha-xia"])
def test_a_real_process_prints_what_the_walk_read(tmp_path, board):
    """A few of the walk's commands in a real process (the venv's ``bansha``): what a director's
    terminal shows is what the in-process walk checked, byte for byte."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    from bansha.store.store import open_store
    from bansha_sim.states import play

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from clirun import run_main

    p = play(conform.BOARDS[board], 1, day_limit=1, names=conform.NAMES)
    db = str(tmp_path / "g.db")
    store = open_store(db)
    store.create(conform.GAME, p.setup)
    for ev in p.events:
        store.append(conform.GAME, ev)
    game = p.final()
    store.close()
    exe = Path(sys.executable).parent / "bansha"
    env = {**os.environ, "BANSHA_DB": db}
    last = game.named(game.resolved[-1])
    seat = next(iter(game.players))
    for argv in (["status", conform.GAME], ["status", conform.GAME, "--as", seat], ["log", conform.GAME, "--explain"],
                 ["pm", conform.GAME, "--phase", last], ["export", conform.GAME, "--format", "bbcode"]):
        real = subprocess.run([str(exe), *argv, "--db", db], capture_output=True, text=True, env=env, timeout=300)
        code, out, err = run_main([*argv, "--db", db])
        assert (real.returncode, real.stdout) == (code, out), (argv, real.stderr, err)
        assert real.returncode == 0 and real.stdout.strip(), (argv, real.stderr)
