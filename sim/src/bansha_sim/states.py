"""The simulator as a generator of game states: every state a seeded game passes through, one
after each event, on any board (a ruleset id, a board file, a variant with ``[[edits]]``, or a
``(ref, edits)`` pair of ``bansha_sim.boards``).

``game_states`` plays a game with a policy (``play.play_game``: what ``bansha simulate`` plays)
and replays its log, yielding ``(game, event)`` after each event is applied: the very game
object, changed in place by the next step (copy what must outlive it). A phase with action
windows is closed window by window (``windows=True``: the seats choose again before each
window, as a director running ``bansha resolve --window`` collects them) or whole.

The conformance suite (tests/conformance) renders every surface of each state it yields; the
same seed and arguments give the same states.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bansha.engine.engine import Game
from bansha.engine.model import Event, ResolveEvent, Setup


class Played:
    """One seeded game's setup and log (``events``): what ``states()`` replays."""

    def __init__(self, setup: Setup, events: list[Event], record: dict[str, Any]):
        self.setup, self.events, self.record = setup, events, record

    def states(self, events: list[Event] | None = None) -> Iterator[tuple[Game, Event]]:
        """``(game, event)`` after each of ``events`` (default: the game's own log)."""
        game = Game(self.setup)
        for ev in self.events if events is None else events:
            game.apply(ev)
            yield game, ev

    def final(self, events: list[Event] | None = None) -> Game:
        game = Game(self.setup)
        for ev in self.events if events is None else events:
            game.apply(ev)
        return game


def play(board, seed: int, *, seats: int | None = None, policy: str = "random", day_limit: int = 3,
         windows: bool = False, names: list[str] | None = None, options: dict | None = None) -> Played:
    """Play one game (``play.play_game``) and keep its log. ``seats``: default the board's first
    table; ``names``: the seats' names (default ``P01`` …), as many as the seats."""
    from .play import _manifest, play_game

    m = _manifest(board)
    if seats is None:
        seats = m.tables[0].seats
    if names is not None:
        names = list(names)[:seats]
    r = play_game(board, seats, seed, policy, options, day_limit, keep=True, windows=windows, names=names)
    return Played(r.pop("setup"), r.pop("events"), r)


def game_states(board, seed: int, **kw) -> Iterator[tuple[Game, Event]]:
    """Every state of one seeded game: ``(game, event)`` after each event (``play``'s keywords)."""
    yield from play(board, seed, **kw).states()


def whole(events: list[Event]) -> list[Event]:
    """``events`` with each phase closed whole: the window-by-window resolutions of a phase
    (``ResolveEvent(window=True)``) dropped but the one that closed it, which becomes a plain
    resolution (every window left). The input sent between two windows then comes before the
    one resolution, as a director who collects a whole night before ``bansha resolve`` sends it."""
    out: list[Event] = []
    for i, ev in enumerate(events):
        if isinstance(ev, ResolveEvent) and ev.window:
            later = events[i + 1] if i + 1 < len(events) else None
            if later is not None and getattr(later, "phase", None) == ev.phase:
                continue  # a window in the middle of the phase
            ev = ResolveEvent(phase=ev.phase)
        out.append(ev)
    return out


def by_window(events: list[Event], game: Game) -> list[Event]:
    """``events`` (a game closed phase by phase) with each phase of windows closed one window at
    a time: its resolution replaced by one ``ResolveEvent(window=True)`` per window. ``game``: a
    new game of the setup, played along to know each phase's windows."""
    out: list[Event] = []
    for ev in events:
        if isinstance(ev, ResolveEvent) and not ev.window and game.phase.windows:
            for _ in range(len(game.phase.windows) - game.window):
                w = ResolveEvent(phase=ev.phase, window=True)
                if game.label != ev.phase or game.winner is not None:
                    break
                game.apply(w)
                out.append(w)
            continue
        game.apply(ev)
        out.append(ev)
    return out
