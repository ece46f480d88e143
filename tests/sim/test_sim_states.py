"""The simulator as a generator of game states (``bansha_sim.states``): one state after each
event of a seeded game, on any board, nights closed window by window or whole."""

from __future__ import annotations

from bansha.engine.engine import Game
from bansha.engine.model import ResolveEvent
from bansha_sim.states import by_window, game_states, play, whole


def test_a_state_after_every_event_and_the_same_game_again():
    p = play("qisha-xia", 5, day_limit=2)
    seen = [(game.label, len(game.applied), ev) for game, ev in p.states()]
    assert len(seen) == len(p.events) > 10
    assert [n for _, n, _ in seen] == list(range(1, len(p.events) + 1))
    assert [ev for *_, ev in seen] == p.events
    again = [ev for _, ev in game_states("qisha-xia", 5, day_limit=2)]
    assert again == p.events  # the seed decides every event


def test_nights_closed_window_by_window_and_whole():
    p = play("m217", 2, day_limit=1, windows=True, names=[f"座{i}" for i in range(1, 15)])
    windows = [e for e in p.events if isinstance(e, ResolveEvent) and e.window]
    night = next(ph for ph in p.setup.manifest.phases if ph.windows)
    assert len(windows) >= len(night.windows)  # every window of the first night closed alone
    assert all(n.name.startswith("座") for n in p.setup.players)
    closed = whole(p.events)
    assert not any(isinstance(e, ResolveEvent) and e.window for e in closed)
    assert len(closed) == len(p.events) - len(windows) + sum(1 for e in closed if isinstance(e, ResolveEvent) and e.phase.startswith("night"))
    a, b = p.final(), p.final(closed)
    assert (a.label, a.announcements, a.feedback) == (b.label, b.announcements, b.feedback)
    # and back: the whole game's resolutions split into windows
    q = play("m217", 2, day_limit=1)
    split = by_window(q.events, Game(q.setup))
    assert sum(1 for e in split if isinstance(e, ResolveEvent) and e.window) >= len(night.windows)
    c, d = q.final(), q.final(split)
    assert (c.label, c.announcements, c.feedback) == (d.label, d.announcements, d.feedback)
