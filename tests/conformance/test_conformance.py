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
    from bansha import views

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
