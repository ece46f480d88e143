"""The game store: SQLite from the standard library, a game's setup and its append-only log.

Every write is one transaction that first replays the stored game, applies the new event
and only then appends it: a refused or failed command leaves the stored game as it was.
``BEGIN IMMEDIATE`` serialises writers, so two commands on one game cannot interleave.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

import msgspec

from .engine import Game
from .model import Event, GameError, ResolveEvent, Setup

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (name TEXT PRIMARY KEY, setup BLOB NOT NULL, created TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP);
CREATE TABLE IF NOT EXISTS events (game TEXT NOT NULL REFERENCES games(name), seq INTEGER NOT NULL, event BLOB NOT NULL, PRIMARY KEY (game, seq));
"""

_event_decoder = msgspec.json.Decoder(Event)
_setup_decoder = msgspec.json.Decoder(Setup)


def default_path() -> Path:
    env = os.environ.get("BANSHA_DB")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("bansha")) / "games.db"


def structlog_logger(game: str):
    import structlog

    return structlog.get_logger("bansha").bind(game=game)


class Store:
    def __init__(self, path: str | Path | None = None, logger=structlog_logger):
        #: ``logger(game_name)`` gives the logger of new events (structlog, imported lazily)
        self.logger = logger
        self.path = Path(path) if path else default_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        self.db.executescript(SCHEMA)

    @contextmanager
    def transaction(self):
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        else:
            self.db.execute("COMMIT")

    def names(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT name FROM games ORDER BY created, name")]

    def create(self, name: str, setup: Setup) -> Game:
        with self.transaction():
            if self.db.execute("SELECT 1 FROM games WHERE name=?", (name,)).fetchone():
                raise GameError(f"game {name!r} already exists")
            game = Game(setup)  # refuses a bad set-up before anything is written
            self.db.execute("INSERT INTO games(name, setup) VALUES (?, ?)", (name, msgspec.json.encode(setup)))
        return game

    def events(self, name: str) -> list[Event]:
        return [_event_decoder.decode(r[0]) for r in self.db.execute("SELECT event FROM events WHERE game=? ORDER BY seq", (name,))]

    def setup(self, name: str) -> Setup:
        row = self.db.execute("SELECT setup FROM games WHERE name=?", (name,)).fetchone()
        if row is None:
            raise GameError(f"unknown game {name!r}")
        return _setup_decoder.decode(row[0])

    def load(self, name: str) -> Game:
        game = Game(self.setup(name))
        for ev in self.events(name):
            game.apply(ev)
        return game

    def append(self, name: str, event: Event | Callable[[Game], Event]) -> tuple[Game, tuple]:
        """Replay, apply ``event`` and store it, all in one transaction. ``event`` may be a
        function of the replayed game (to stamp the current phase without a second replay).
        Returns the game and its ``mark()`` from before the event (``game.since(mark)``)."""
        with self.transaction():
            game = self.load(name)
            if callable(event):
                event = event(game)
            mark = game.mark()
            game.log = self.logger(name)  # only writes log: a replay is silent
            game.log.info("event", **msgspec.to_builtins(event))
            game.apply(event)
            if isinstance(event, ResolveEvent):
                # the log keeps what was published, for the record (replay recomputes it)
                event = ResolveEvent(
                    phase=event.phase,
                    out=list(game.out.get(event.phase, [])),
                    announcement=game.since(mark)[1],
                )
            seq = self.db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game=?", (name,)).fetchone()[0]
            self.db.execute("INSERT INTO events(game, seq, event) VALUES (?, ?, ?)", (name, seq, msgspec.json.encode(event)))
        return game, mark

    def append_all(self, name: str, events: Callable[[Game], list[Event]]) -> tuple[Game, tuple]:
        """Replay, apply every event ``events(game)`` gives and store them all, in one
        transaction: one refused event (a GameError) stores none of them."""
        with self.transaction():
            game = self.load(name)
            batch = events(game)
            mark = game.mark()
            game.log = self.logger(name)
            seq = self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game=?", (name,)).fetchone()[0]
            for event in batch:
                before = game.mark()
                game.log.info("event", **msgspec.to_builtins(event))
                game.apply(event)
                if isinstance(event, ResolveEvent):
                    event = ResolveEvent(phase=event.phase, out=list(game.out.get(event.phase, [])),
                                         announcement=game.since(before)[1])
                seq += 1
                self.db.execute("INSERT INTO events(game, seq, event) VALUES (?, ?, ?)", (name, seq, msgspec.json.encode(event)))
        return game, mark

    def undo_to(self, name: str, keep: int) -> list[Event]:
        """Drop every event after the first ``keep``; returns the dropped ones."""
        with self.transaction():
            self.setup(name)
            rows = self.db.execute("SELECT seq, event FROM events WHERE game=? ORDER BY seq", (name,)).fetchall()
            gone = rows[keep:]
            if gone:
                self.db.execute("DELETE FROM events WHERE game=? AND seq>?", (name, rows[keep - 1][0] if keep else 0))
        return [_event_decoder.decode(r[1]) for r in gone]

    def undo(self, name: str) -> Event:
        with self.transaction():
            self.setup(name)
            row = self.db.execute("SELECT seq, event FROM events WHERE game=? ORDER BY seq DESC LIMIT 1", (name,)).fetchone()
            if row is None:
                raise GameError(f"game {name!r} has no event to undo")
            self.db.execute("DELETE FROM events WHERE game=? AND seq=?", (name, row[0]))
        return _event_decoder.decode(row[1])
