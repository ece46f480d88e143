"""The game store: one contract, two backends (docs/store.md).

A stored game is its set-up and an append-only log of events numbered 1, 2, 3 … The kernel
defines the contract (:class:`Store`) and the SQLite backend (the embedded default, standard
library only). Other backends are distributions in the ``bansha.stores`` entry-point group,
one name per URL scheme (``postgresql`` → ``bansha_store_postgres``), so ``--db
postgresql://…`` picks PostgreSQL and a plain path is SQLite without scanning any entry point.

No backend knows a rule: a backend stores and returns bytes. The rules run here, in the base
class, *outside* the backend's write lock:

- a write rebuilds the game (from the state cached in this object when it has one, else by
  replaying the log), validates and applies the new event, and only then asks the backend to
  append it in a short transaction that checks the game's last sequence number *and* its undo
  count (an undo followed by an append would otherwise reuse a number under a stale state);
  on a conflict it catches up and tries again. A refused event is never stored, two writers
  never land on one number, and the append is one transaction;
- a waiting writer gives up after ``BANSHA_DB_TIMEOUT`` seconds (default 30) with one line,
  a :class:`StoreError` (a :class:`GameError`, so the CLI prints ``error: …`` and exits 2).
"""

from __future__ import annotations

import _thread
import abc
import contextlib
import errno
import itertools
import os
import sqlite3
import stat
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import msgspec

from bansha.engine.copies import copy_game
from bansha.engine.engine import SILENT, Game
from bansha.engine.model import (
    ActEvent,
    Event,
    GameError,
    ResolveEvent,
    Setup,
    UnactEvent,
    VoteEvent,
)
from bansha.store import statecache
from bansha.text.messages import extend, lang_of, say

if TYPE_CHECKING:
    from pathlib import Path

# Start-up: a command on a stored game imports neither pathlib (~17 M instructions with
# urllib.parse, ipaddress, fnmatch), nor threading (its RLock is _thread's), nor copy (only
# a long-lived store copies a cached game). A SQLite path is handled as text with os.path,
# spelt as pathlib spells it (``_path_text``), and ``SQLiteStore.path`` is still a Path.

#: the schema this bansha writes and the newest it reads. 1 is the layout before versions
#: (games + events, no meta table); 2 added ``meta``, ``games.last_seq``/``undos`` and an index;
#: 3 added ``outbox`` (what a game sends outside, each message's state: docs/store.md, "The outbox")
SCHEMA_VERSION = 3

#: an outbox message's states: recorded, not tried; tried (the send may or may not have reached
#: the other side); sent (the other side's id in ``remote``)
OUTBOX_STATES = ("pending", "sending", "sent")

_DECODERS: dict[type, msgspec.json.Decoder] = {}


extend({"st_gap": ("游戏 {name}：缺少第{seq}条事件（记录已损坏）：不再写入，请从备份恢复",
                   "game {name}: event {seq} is missing (the log is damaged): nothing more is written; restore it from a backup")})


def _os_why(exc: OSError) -> str:
    from bansha.door.files import os_why

    return os_why(exc)


def _blob(value: Any) -> Any:
    """A stored cell as bytes; a cell of another type (TEXT written by hand where a BLOB
    belongs) is kept as it is, and its decoding says the event is damaged, by number."""
    return bytes(value) if isinstance(value, bytes | bytearray | memoryview) else value


def _cell_why(value: Any) -> str:
    kind = "TEXT" if isinstance(value, str) else "NULL" if value is None else type(value).__name__.upper()
    return say("st_cell_type", None, kind=kind)


def _decode_why(exc: Exception, type_: type) -> str:
    """msgspec's decoding error in the reader's language."""
    if isinstance(exc, msgspec.ValidationError):
        from bansha.door.files import schema_why

        key, why = schema_why(str(exc), type_, None)
        return say("schema_key", None, key=key, why=why) if key else why
    return say("st_not_json", None)


def _decoder(type_: type) -> msgspec.json.Decoder:
    # made on first use: a decoder of Setup (the whole manifest's types) takes ~2 ms to make,
    # and a command that starts from a kept state (statecache.py) decodes nothing
    dec = _DECODERS.get(type_)
    if dec is None:
        dec = _DECODERS[type_] = msgspec.json.Decoder(type_)
    return dec

_EVENT_TAGS = {"act", "unact", "vote", "resolve", "ruling"}


class StoreError(GameError):
    """A store that cannot be used as asked: one line for the director, never a traceback."""


class Conflict(Exception):
    """Another writer changed the game since it was read (internal: the writer retries)."""


def newer_message(found: int) -> str:
    return say("st_newer", None, found=found, known=SCHEMA_VERSION)


#: what a transaction was doing, as its error says it (``_tx(doing=…)``)
_DOING = {"reading": "st_doing_reading", "writing": "st_doing_writing", "creating the store": "st_doing_creating_store",
          "upgrading the store": "st_doing_upgrading", "creating a game": "st_doing_creating_game",
          "undoing": "st_doing_undoing", "listing games": "st_doing_listing", "dropping the tables": "st_doing_dropping"}


def doing_text(doing: str) -> str:
    """A transaction's ``doing`` in the catalogue's words (the store's errors name it)."""
    return say(_DOING[doing], None) if doing in _DOING else doing


def default_path() -> Path:
    from pathlib import Path

    return Path(_default_path_text())


def _default_path_text() -> str:
    env = os.environ.get("BANSHA_DB")
    if env:
        return _path_text(env)
    import platformdirs

    return _path_text(os.path.join(platformdirs.user_data_dir("bansha"), "games.db"))


def _path_text(text: str) -> str:
    """``str(pathlib.Path(text))`` without importing pathlib (POSIX: repeated slashes and
    ``.`` parts go, a trailing slash goes, ``..`` stays; exactly two leading slashes stay)."""
    if os.name != "posix":
        from pathlib import Path

        return str(Path(text))
    rest = text.lstrip("/")
    lead = len(text) - len(rest)
    root = "//" if lead == 2 else "/" if lead else ""
    return root + "/".join(p for p in rest.split("/") if p and p != ".") or "."


def _path_parent(text: str) -> str:
    """``str(Path(text).parent)`` of a text made by :func:`_path_text`."""
    return os.path.dirname(text) or "."


#: the errors pathlib's ``exists``/``is_dir``/``is_file`` answer False to (any other is raised)
_NOT_THERE = {errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP}


def _stat_or_none(text: str) -> os.stat_result | None:
    try:
        return os.stat(text)
    except OSError as exc:
        if exc.errno in _NOT_THERE:
            return None
        raise
    except ValueError:  # an embedded NUL: pathlib says "not there" too
        return None


def write_timeout() -> float:
    try:
        return float(os.environ.get("BANSHA_DB_TIMEOUT", "30"))
    except ValueError:
        raise StoreError(say("st_timeout_env", None, value=repr(os.environ["BANSHA_DB_TIMEOUT"]))) from None


def structlog_logger(game: str):
    import structlog

    return structlog.get_logger("bansha").bind(game=game)


def scheme_of(url: str) -> str | None:
    """``postgresql://h/db`` → ``postgresql``; a path (even ``C:\\x``) → None."""
    head, sep, _ = url.partition("://")
    return head.lower() if sep and head.replace("+", "").isalnum() else None


def backend_class(url: str | os.PathLike | None) -> type[Store]:
    """The backend of a URL. A plain path is SQLite, chosen without reading entry points
    (start-up: a scan costs ~10 ms and psycopg ~60 ms, and most commands use SQLite)."""
    scheme = scheme_of(str(url)) if url is not None else None
    if scheme is None or scheme == "sqlite":
        return SQLiteStore
    from importlib.metadata import entry_points

    eps = {ep.name: ep for ep in entry_points(group="bansha.stores")}
    if scheme not in eps:
        known = ", ".join(sorted({"sqlite", *eps})) or "sqlite"
        raise StoreError(say("st_no_backend", None, scheme=scheme, known=known))
    return eps[scheme].load()


def open_store(url: str | os.PathLike | None = None, logger=structlog_logger, cache: bool = True, **options) -> Store:
    """The store at ``url``: ``postgresql://…`` (or another installed scheme), else a SQLite
    file path; None is ``BANSHA_DB`` or the user data directory's ``games.db``. ``options``
    go to the backend (PostgreSQL: ``pool_size``)."""
    return backend_class(url)(url, logger=logger, cache=cache, **options)


def _as_recorded(game: Game, ev: ResolveEvent, mark: tuple) -> ResolveEvent:
    """The resolve as the log keeps it: with who left and what was announced, for the record
    (a replay recomputes both). The game's own list of applied events gets the same event, so
    the game a write returns is the game a later read of the log rebuilds."""
    # ``window`` is kept: a replay of a night closed window by window must close it the same way
    recorded = ResolveEvent(phase=ev.phase, window=ev.window, out=list(game.out.get(ev.phase, [])),
                            announcement=game.since(mark)[1])
    if game.applied and game.applied[-1] is ev:
        game.applied[-1] = recorded
    return recorded


def _copy_for(game: Game, event: Event) -> Game:
    """The copy of a cached game a write applies ``event`` to. An input of the phase (a vote, a
    withdrawal, an action that waits for the phase's resolution) changes only the phase's
    lists — the actions, the ballots, the events applied, the last words' deadlines — and the
    game's own counters: those are new, everything else (players, statuses, history) is the
    cached game's, which nobody changes once cached. Anything else (a resolution, a ruling, an
    action answered at once, an amendment) gets the whole copy (``copy_game``). Half a
    night's writes are inputs, and this copy is a tenth of the whole one on a 20-day game."""
    if not _is_input(game, event):
        return copy_game(game)
    new = Game.__new__(type(game))
    new.__dict__.update(vars(game))
    new.actions = list(game.actions)
    new.ballots = list(game.ballots)
    new.applied = list(game.applied)
    new.last_words = {k: dict(v) for k, v in game.last_words.items()}
    return new


def _is_input(game: Game, event: Event) -> bool:
    """``event`` only adds to, or takes from, the phase's inputs (see ``_copy_for``)."""
    if isinstance(event, (VoteEvent, UnactEvent)):
        return True
    if type(event) is not ActEvent or event.actor not in game.players:
        return False
    try:
        skill, _ = game.find_skill(game.players[event.actor], event.skill)
    except GameError:
        return False  # refused by apply in a moment; the whole copy is as good
    return not game.answered_at_once(skill)


def _meta_key(key: str) -> str:
    if not isinstance(key, str) or "." not in key or len(key) > 1000:
        raise StoreError(say("st_meta_key", None, key=repr(key)))
    return key


class OutboxRow(msgspec.Struct, kw_only=True):
    """One message of a game's outbox: ``key`` names it (the application's: the same message
    planned twice is one row), ``n`` its place in the order it was planned, ``message`` the
    application's JSON text of it, ``state`` one of :data:`OUTBOX_STATES`, ``remote`` what the
    other side called it once sent (a forum's pid or pmid), ``tries`` how many times a send was
    started, ``updated`` the time of the last change (UTC, ISO)."""

    key: str
    n: int
    message: str
    state: str = "pending"
    remote: str = ""
    tries: int = 0
    updated: str = ""


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class Store(abc.ABC):
    """A game store. ``Store(url)`` opens the backend of ``url`` (see :func:`open_store`).

    The backend primitives (the ``_raw`` methods, :meth:`names`, :meth:`watch`, the schema
    methods) move bytes; everything that knows a game lives in this class."""

    url: str

    def __new__(cls, url: str | os.PathLike | None = None, *args: Any, **kwargs: Any):
        if cls is Store:
            cls = backend_class(url)
        return super().__new__(cls)

    def __init__(self, url: str | os.PathLike | None = None, logger=structlog_logger, cache: bool = True):
        #: ``logger(game_name)`` gives the logger of new events (structlog, imported lazily)
        self.logger = logger
        #: keep each game's state after a read or write, so that a long-lived process (a web
        #: server, a benchmark writer) catches up from it instead of replaying the whole log.
        #: Copying it costs ~1/3 of a replay (m217: 8 ms against 24 ms), so a one-command
        #: process (the CLI) turns it off and replays once.
        self.cache = cache
        #: game name -> (undos, seq, game): the state after event ``seq``, for the next write
        self._cache: dict[str, tuple[int, int, Game]] = {}
        #: start from the state the previous command left on disk instead of replaying the
        #: log, and leave this one's for the next (statecache.py): the CLI turns it on
        self.keep_states = False
        #: game name -> the digest of its stored bytes as last read or written (keep_states)
        self._digests: dict[str, statecache.LogDigest] = {}

    # ---------------------------------------------------------------- backend primitives

    @abc.abstractmethod
    def names(self, limit: int | None = None, after: str | None = None) -> list[str]:
        """Game names in creation order (``limit``/``after``: one page, by index)."""

    @abc.abstractmethod
    def _read_raw(self, name: str, after: int = 0, setup: bool = True) -> tuple[bytes, int, int, list[tuple[int, bytes]]] | None:
        """In one consistent read: (set-up, last seq, undo count, [(seq, event) with seq >
        after]), or None for an unknown game. ``setup=False``: b"" for the set-up (it holds
        the whole manifest: a writer catching up from its cache does not need it)."""

    @abc.abstractmethod
    def _create_raw(self, name: str, setup: bytes, events: list[bytes] = (), outbox: list[tuple] = ()) -> None:
        """Store a new game (and, for copies, its events and its outbox's rows as
        ``_outbox_raw`` reads them) in one transaction; GameError if the name is taken."""

    @abc.abstractmethod
    def _append_raw(self, name: str, seq: int, undos: int, event: bytes) -> None:
        """Store ``event`` as number ``seq + 1`` if the game's last number is still ``seq``
        and its undo count ``undos``, else raise :class:`Conflict`. One short transaction."""

    @abc.abstractmethod
    def _undo_raw(self, name: str) -> tuple[int, bytes] | None:
        """Delete the last event, returning (seq, event); None when there is none."""

    @abc.abstractmethod
    def watch(self, name: str, after: int = 0, timeout: float | None = None) -> Iterator[tuple[int, Event | None]]:
        """Yield ``(seq, event)`` for each event stored after ``after`` as it lands, and
        ``(seq, None)`` when an undo removed event ``seq``. Stops after ``timeout`` seconds
        without news (None: never)."""

    def schema_version(self) -> int:
        """The schema version the store records (0: empty, no bansha tables; -1: an unknown
        layout), as the backend read it when it opened the store (``_version``)."""
        return self._version

    def upgrade(self) -> tuple[int, int]:
        """Migrate an older store to :data:`SCHEMA_VERSION` in one transaction: (from, to).
        An empty, unknown or newer store is refused as every use refuses it."""
        start = self._version
        if start == SCHEMA_VERSION:
            return start, start
        if start <= 0 or start > SCHEMA_VERSION:
            self._usable()
        self._migrate()
        self._version = SCHEMA_VERSION
        return start, SCHEMA_VERSION

    @abc.abstractmethod
    def _migrate(self) -> None:
        """The backend's upgrade from the version it reads inside the transaction (another
        process may have upgraded meanwhile) to :data:`SCHEMA_VERSION`, in one transaction."""

    def close(self) -> None:  # noqa: B027 - a backend without resources needs nothing
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ------------------------------------------------------------------------ decoding

    def _decode_event(self, name: str, seq: int, raw: bytes) -> Event:
        if not isinstance(raw, bytes):  # a cell that is no BLOB (TEXT, a number, NULL)
            raise StoreError(say("st_event_corrupt", None, name=repr(name), seq=seq, why=_cell_why(raw)))
        try:
            return _decoder(Event).decode(raw)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            try:
                kind = msgspec.json.decode(raw).get("type")
            except Exception:
                kind = None
            if isinstance(kind, str) and kind not in _EVENT_TAGS:
                raise StoreError(say("st_event_kind", None, name=repr(name), seq=seq, kind=repr(kind),
                                     known=SCHEMA_VERSION)) from None
            raise StoreError(say("st_event_corrupt", None, name=repr(name), seq=seq, why=_decode_why(exc, Event))) from None

    def _decode_setup(self, name: str, raw: bytes) -> Setup:
        if not isinstance(raw, bytes):
            raise StoreError(say("st_setup_corrupt", None, name=repr(name), why=_cell_why(raw)))
        try:
            return _decoder(Setup).decode(raw)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise StoreError(say("st_setup_corrupt", None, name=repr(name), why=_decode_why(exc, Setup))) from None

    def _sequence(self, name: str, after: int, last: int, rows) -> None:
        """The events read are numbered ``after``+1 … ``last`` without a gap: a missing event
        (a row deleted by hand, a copy cut short) is found on read, before anything is written."""
        expected = after + 1
        for seq, _ in rows:
            if seq != expected:
                raise StoreError(say("st_gap", None, name=repr(name), seq=expected))
            expected += 1
        if expected != last + 1 and last >= after:
            raise StoreError(say("st_gap", None, name=repr(name), seq=expected))

    def _cells(self, name: str, setup_raw: Any, rows) -> None:
        """A damaged cell (no BLOB) is said before the kept states hash the log."""
        if not isinstance(setup_raw, bytes):
            self._decode_setup(name, setup_raw)
        for seq, raw in rows:
            if not isinstance(raw, bytes):
                self._decode_event(name, seq, raw)

    def _read(self, name: str, after: int = 0, setup: bool = True):
        row = self._read_raw(name, after, setup)
        if row is None:
            raise GameError(say("st_unknown_game", None, name=repr(name)))
        return row

    # ------------------------------------------------------------------------- reading

    def setup(self, name: str) -> Setup:
        return self._decode_setup(name, self._read(name, after=1 << 62)[0])

    def events(self, name: str, after: int = 0) -> list[Event]:
        """The game's events numbered above ``after``, in order."""
        return [e for _, e in self.numbered_events(name, after)]

    def numbered_events(self, name: str, after: int = 0) -> list[tuple[int, Event]]:
        _, last, _, rows = self._read(name, after, setup=False)
        self._sequence(name, after, last, rows)
        return [(seq, self._decode_event(name, seq, raw)) for seq, raw in rows]

    def last_seq(self, name: str) -> int:
        return self._read(name, after=1 << 62, setup=False)[1]

    def _replay(self, game: Game, name: str, rows) -> Game:
        for seq, raw in rows:
            ev = self._decode_event(name, seq, raw)
            try:
                game.apply(ev)
            except GameError as exc:
                raise StoreError(say("st_no_replay", None, name=repr(name), seq=seq, why=exc)) from None
        return game

    def _current(self, name: str, copy: bool = True) -> tuple[int, int, Game]:
        """(undos, seq, a private game at seq): from the cache plus the events since, when
        the cache is still on the stored line, else a replay from the set-up — or, with
        ``keep_states``, from the state a previous command left for this very log (and what
        was replayed is left for the next: an undo after a write finds it). ``copy=False``:
        the cached state itself when nothing landed since, for a caller that copies what it
        changes (``append``, through ``_copy_for``)."""
        cached = self._cache.get(name)
        if cached is not None:
            undos, seq, game = cached
            _, last, now_undos, rows = self._read(name, after=seq, setup=False)
            self._cells(name, b"", rows)
            if now_undos == undos and last >= seq:
                self._sequence(name, seq, last, rows)
                digest = self._digests.get(name)
                if digest is not None and digest.count == seq:
                    for _, raw in rows:
                        digest.add(raw)
                else:
                    self._digests.pop(name, None)
                if not rows and not copy:
                    return now_undos, last, game
                return now_undos, last, self._replay(copy_game(game), name, rows)
        setup_raw, last, undos, rows = self._read(name)
        self._cells(name, setup_raw, rows)
        self._sequence(name, 0, last, rows)
        if not self.keep_states:
            return undos, last, self._replay(Game(self._decode_setup(name, setup_raw)), name, rows)
        hit, digest = statecache.restore(self.url, name, Game, setup_raw, rows)
        self._digests[name] = digest
        game, done = hit if hit is not None else (Game(self._decode_setup(name, setup_raw)), 0)
        self._replay(game, name, rows[done:])
        if done < len(rows):
            statecache.save(self.url, name, game, digest)
        return undos, last, game

    def _kept(self, name: str, game: Game, raws: list[bytes]) -> None:
        """After ``raws`` were appended: leave the state for the next command (keep_states)."""
        digest = self._digests.get(name)
        if not self.keep_states or digest is None:
            return
        for raw in raws:
            digest.add(raw)
        statecache.save(self.url, name, game, digest)

    def load(self, name: str) -> Game:
        undos, seq, game = self._current(name)
        if not self.cache:
            return game
        self._cache[name] = (undos, seq, game)
        return copy_game(game)  # the caller may change it; the cached one stays as stored

    def peek(self, name: str) -> Game:
        """The game's current state *without a copy*: the cached object itself, caught up
        with the stored log (one query says nothing is new). For read-only views in a
        long-lived process (the web server renders every page from it: no copy, which costs
        ~0.25 ms on a 20-day game). The caller promises not to
        change it, nor to keep it as its own: cached states are never changed once cached (a
        write applies to a copy and caches that), so another thread may read one while this
        store moves on. Without the cache (``cache=False``) it is :meth:`load`."""
        cached = self._cache.get(name)
        if cached is not None:
            undos, seq, game = cached
            _, last, now_undos, _ = self._read(name, after=1 << 62, setup=False)
            if now_undos == undos and last == seq:
                return game
        undos, seq, game = self._current(name)  # a new object: the one cached stays as it was
        if self.cache:
            self._cache[name] = (undos, seq, game)
        return game

    # ------------------------------------------------------------------------- writing

    def create(self, name: str, setup: Setup) -> Game:
        game = Game(setup)  # refuses a bad set-up before anything is written
        from bansha.door.names import fold

        # game names are compared as player names are: ｌｓ１ beside ls1 is the same name
        folded = fold(name)
        for other in self.names():
            if other != name and fold(other) == folded:
                raise GameError(say("name_twice", game.lang, what=say("what_game", game.lang), first=other, second=name))
        self._create_raw(name, msgspec.json.encode(setup))
        return game

    def append(self, name: str, event: Event | Callable[[Game], Event], shared: bool = False) -> tuple[Game, tuple]:
        """Rebuild, apply ``event`` and store it. ``event`` may be a function of the rebuilt
        game (to stamp the current phase without a second replay). Returns the game and its
        ``mark()`` from before the event (``game.since(mark)``). ``shared=True``: the game
        returned is the cached state itself, read-only for the caller as :meth:`peek`'s
        (one copy fewer)."""
        deadline = time.monotonic() + write_timeout()
        for attempt in itertools.count():
            # optimistic first: rebuild and apply outside any lock, append if nobody wrote
            # meanwhile. A writer that lost the race twice takes the game's write lock for its
            # catch-up (a few events from its cached state: milliseconds), so it cannot lose
            # again: under many writers no one starves
            locked = attempt >= self.optimistic_tries
            with self._write_lock(name) if locked else contextlib.nullcontext():
                undos, seq, base = self._current(name, copy=False)
                ev = event(base) if callable(event) else event
                game = _copy_for(base, ev)  # ``base`` may be the cached state itself: never changed
                mark = game.mark()
                game.log = self.logger(name)  # only writes log: a replay is silent
                try:
                    game.apply(ev)
                finally:
                    game.log = SILENT
                if isinstance(ev, ResolveEvent):
                    # the log keeps what was published, for the record (replay recomputes it)
                    ev = _as_recorded(game, ev, mark)
                raw = msgspec.json.encode(ev)
                try:
                    self._append_raw(name, seq, undos, raw)
                except Conflict:
                    # the cached state (if any) is untouched: the next round catches up from it
                    if time.monotonic() > deadline:
                        raise StoreError(say("st_gave_up", None, name=repr(name), seconds=f"{write_timeout():g}")) from None
                    continue
            # an amendment's own field "event" would collide with the log call's first argument
            self.logger(name).info("event", **{("amended" if k == "event" else k): v
                                              for k, v in msgspec.to_builtins(ev).items()})
            self._kept(name, game, [raw])
            if not self.cache:
                return game, mark
            self._cache[name] = (undos, seq + 1, game)
            return (game if shared else copy_game(game)), mark
        raise AssertionError("unreachable")

    #: optimistic rounds before a writer takes the game's write lock for its rebuild
    optimistic_tries = 2

    @contextmanager
    def _write_lock(self, name: str):
        """Hold the game's write lock: reads and the append inside are one transaction that
        no other writer of this game can interleave with. A backend overrides it."""
        yield

    def append_all(self, name: str, events: Callable[[Game], list[Event]]) -> tuple[Game, tuple]:
        """Rebuild, apply every event ``events(game)`` gives and store them all, under the
        game's write lock: one refused event (a GameError) stores none of them (``act --file``,
        ``votes import``). Returns the game and its ``mark()`` from before the first."""
        with self._write_lock(name):
            undos, seq, game = self._current(name)
            batch = events(game)
            mark = game.mark()
            encoded = []
            game.log = self.logger(name)
            try:
                for ev in batch:  # every event is applied before any is stored
                    before = game.mark()
                    game.apply(ev)
                    if isinstance(ev, ResolveEvent):
                        ev = _as_recorded(game, ev, before)
                    encoded.append(msgspec.json.encode(ev))
            finally:
                game.log = SILENT
            for raw in encoded:  # inside the lock nobody else writes: no conflict
                self._append_raw(name, seq, undos, raw)
                seq += 1
        self._kept(name, game, encoded)
        if not self.cache:
            return game, mark
        self._cache[name] = (undos, seq, game)
        return copy_game(game), mark

    def undo_to(self, name: str, keep: int) -> list[Event]:
        """Drop every event after the first ``keep``, under the game's write lock; returns
        the dropped ones, oldest first."""
        gone = []
        with self._write_lock(name):
            self._current(name)  # nothing writes to a damaged game: a gap or a bad event is said first
            while self._read(name, after=1 << 62, setup=False)[1] > keep:
                row = self._undo_raw(name)
                if row is None:
                    break
                gone.append(self._decode_event(name, *row))
        self._cache.pop(name, None)
        self._digests.pop(name, None)
        return gone[::-1]

    def undo(self, name: str) -> Event:
        # an unknown game is named as such, and a damaged one (a gap, an event that does not
        # decode or replay) is said before anything is dropped: nothing writes to a damaged game
        self._current(name)
        row = self._undo_raw(name)
        if row is None:
            raise GameError(say("st_no_undo", None, name=repr(name)))
        self._cache.pop(name, None)
        self._digests.pop(name, None)
        return self._decode_event(name, *row)

    def replace_setup(self, name: str, check: Callable[[bytes, list[tuple[int, bytes]]], Setup]) -> Setup:
        """Give the game ``name`` a new set-up (``bansha board reload``): ``check(setup, rows)``
        reads the stored set-up and events and returns the new set-up or refuses (GameError);
        under the game's write lock, so no event lands between the check and the change. The
        game's undo count moves on, so every cached state of it (this process's or another's)
        is rebuilt from the new set-up."""
        with self._write_lock(name):
            setup_raw, last, undos, rows = self._read(name)
            self._cells(name, setup_raw, rows)
            setup = check(setup_raw, rows)
            self._replace_setup_raw(name, msgspec.json.encode(setup), last, undos)
        self._cache.pop(name, None)
        self._digests.pop(name, None)
        return setup

    def _replace_setup_raw(self, name: str, setup: bytes, seq: int, undos: int) -> None:
        """Store ``setup`` as the game's set-up if its log is still at ``seq``/``undos``
        (else Conflict), and count the change as an undo (caches start again)."""
        raise NotImplementedError

    # ------------------------------------------------------------- records beside the games

    def get_meta(self, keys: list[str]) -> dict[str, str]:
        """The values of those of ``keys`` that are set: small records an application keeps
        beside the games in the store's ``meta`` table (the web server's token hashes and
        deadlines), so every process on the store sees them. A key carries its application's
        prefix (``web.…``); ``schema`` is the store's own. No schema change: the table is
        schema 2's."""
        keys = [_meta_key(k) for k in keys]
        out: dict[str, str] = {}
        for i in range(0, len(keys), 500):  # SQLite's limit of bound values, with room
            out.update(self._get_meta_raw(keys[i:i + 500]))
        return out

    def set_meta(self, changes: dict[str, str | None]) -> None:
        """Set each key to its value (None: delete it), all in one transaction."""
        changes = {_meta_key(k): v for k, v in changes.items()}
        if changes:
            self._set_meta_raw(changes)

    def add_meta(self, values: dict[str, str]) -> dict[str, str]:
        """Set each key that is not set yet, and return every key's stored value, in one
        transaction: of two processes adding one key at the same instant, both get the value
        whichever added first (the web server's CSRF secret: two servers starting at once on
        an empty store must not each keep their own)."""
        values = {_meta_key(k): v for k, v in values.items()}
        return self._add_meta_raw(values) if values else {}

    def _get_meta_raw(self, keys: list[str]) -> dict[str, str]:
        raise StoreError(say("st_no_records", None, backend=type(self).__name__))

    def _add_meta_raw(self, values: dict[str, str]) -> dict[str, str]:
        raise StoreError(say("st_no_records", None, backend=type(self).__name__))

    def _set_meta_raw(self, changes: dict[str, str | None]) -> None:
        raise StoreError(say("st_no_records", None, backend=type(self).__name__))

    # ---------------------------------------------------------------------- the outbox

    def outbox_add(self, name: str, items: list[tuple[str, str]]) -> list[OutboxRow]:
        """Record each ``(key, message)`` whose key the game's outbox does not hold yet, after
        the last (state ``pending``), in one transaction, and return the whole outbox in order.
        A key already there keeps its row as it is: planning the same message twice records it
        once, and a message once recorded is never rewritten."""
        self._outbox_game(name)
        for key, message in items:
            if not isinstance(key, str) or not key or len(key) > 1000 or not isinstance(message, str):
                raise StoreError(say("st_outbox_key", None, key=repr(key)[:80]))
        return [OutboxRow(key=k, n=n, message=m, state=st, remote=r, tries=t, updated=u)
                for k, n, m, st, r, t, u in self._outbox_add_raw(name, list(items), _now())]

    def outbox(self, name: str) -> list[OutboxRow]:
        """The game's outbox, in the order its messages were recorded."""
        self._outbox_game(name)
        return [OutboxRow(key=k, n=n, message=m, state=st, remote=r, tries=t, updated=u)
                for k, n, m, st, r, t, u in self._outbox_raw(name)]

    def outbox_mark(self, name: str, key: str, state: str, remote: str = "", expect: tuple[str, ...] | None = None) -> bool:
        """Move message ``key`` to ``state`` (``sending`` counts a try; ``sent`` keeps
        ``remote``), in one committed transaction, only if its state is one of ``expect``
        (None: any but ``sent``: a sent message stays sent). Whether it moved."""
        if state not in OUTBOX_STATES:
            raise StoreError(say("st_outbox_state", None, state=repr(state)[:40]))
        allowed = tuple(expect) if expect is not None else ("pending", "sending")
        return self._outbox_mark_raw(name, key, state, remote, allowed, _now())

    def _outbox_game(self, name: str) -> None:
        self._read(name, after=1 << 62, setup=False)  # an unknown game: one line

    def _outbox_raw(self, name: str) -> list[tuple]:
        raise StoreError(say("st_no_records", None, backend=type(self).__name__))

    def _outbox_add_raw(self, name: str, items: list[tuple[str, str]], now: str) -> list[tuple]:
        raise StoreError(say("st_no_records", None, backend=type(self).__name__))

    def _outbox_mark_raw(self, name: str, key: str, state: str, remote: str, allowed: tuple[str, ...], now: str) -> bool:
        raise StoreError(say("st_no_records", None, backend=type(self).__name__))

    # ------------------------------------------------------------------------- copying

    def export_raw(self, name: str) -> tuple[bytes, list[bytes]]:
        setup, _, _, rows = self._read(name)
        return setup, [raw for _, raw in rows]

    def export_outbox_raw(self, name: str) -> list[tuple]:
        """The game's outbox rows as stored (key, n, message, state, remote, tries, updated):
        what a copy of the game carries, so that what went out is not sent again from it."""
        return [tuple(r) for r in self._outbox_raw(name)]

    def import_raw(self, name: str, setup: bytes, events: list[bytes], outbox: list[tuple] = ()) -> None:
        """Store a game copied from another store, event for event, with its outbox, in one
        transaction."""
        self._create_raw(name, setup, list(events), list(outbox))


# ============================================================================== SQLite

_SQLITE_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (name TEXT PRIMARY KEY, setup BLOB NOT NULL, created TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
                    last_seq INTEGER NOT NULL DEFAULT 0, undos INTEGER NOT NULL DEFAULT 0);
CREATE TABLE events (game TEXT NOT NULL REFERENCES games(name), seq INTEGER NOT NULL, event BLOB NOT NULL, PRIMARY KEY (game, seq));
CREATE INDEX games_created ON games(created, name);
CREATE TABLE outbox (game TEXT NOT NULL REFERENCES games(name), key TEXT NOT NULL, n INTEGER NOT NULL, message TEXT NOT NULL,
                     state TEXT NOT NULL, remote TEXT NOT NULL DEFAULT '', tries INTEGER NOT NULL DEFAULT 0,
                     updated TEXT NOT NULL DEFAULT '', PRIMARY KEY (game, key));
"""

#: version -> statements that bring the previous version to it (one transaction, all of them)
_SQLITE_UPGRADES = {
    2: """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
ALTER TABLE games ADD COLUMN last_seq INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN undos INTEGER NOT NULL DEFAULT 0;
UPDATE games SET last_seq = (SELECT COALESCE(MAX(seq), 0) FROM events WHERE events.game = games.name);
CREATE INDEX games_created ON games(created, name);
""",
    3: """
CREATE TABLE outbox (game TEXT NOT NULL REFERENCES games(name), key TEXT NOT NULL, n INTEGER NOT NULL, message TEXT NOT NULL,
                     state TEXT NOT NULL, remote TEXT NOT NULL DEFAULT '', tries INTEGER NOT NULL DEFAULT 0,
                     updated TEXT NOT NULL DEFAULT '', PRIMARY KEY (game, key));
""",
}

_V1_TABLES = {"games", "events"}
_V2_TABLES = {"meta", "games", "events"}


class SQLiteStore(Store):
    """One SQLite file (WAL: readers never wait for the writer, the writer's transaction is
    a check and one insert)."""

    def __init__(self, url: str | os.PathLike | None = None, logger=structlog_logger, cache: bool = True,
                 create: bool = True):
        """``create=False``: a read — a file that is not there is an empty store held in memory,
        and nothing (no folder, no file) is made on disk."""
        super().__init__(url, logger, cache)
        if url is None:
            path = _default_path_text()
        else:
            text = os.fspath(url)
            if text.startswith("sqlite://"):
                text = text.removeprefix("sqlite://")
            if not text.strip():
                raise StoreError(say("st_db_empty", None))
            path = _path_text(text)
        #: the file's path as text (``path`` is it as a Path)
        self._path = path
        self.url = path
        self._timeout = write_timeout()
        self._lock = _thread.RLock()
        try:
            st = _stat_or_none(path)
            if st is not None and stat.S_ISDIR(st.st_mode):
                raise StoreError(say("st_is_dir", None, path=path))
            if st is None and not create:  # a read never creates a store: nothing to read is no game
                self.db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
                self._version = self._check(create=True)
                return
            try:
                os.makedirs(_path_parent(path), exist_ok=True)
            except OSError as exc:
                raise StoreError(say("st_no_folder", None, path=path, folder=_path_parent(path), why=_os_why(exc))) from None
            new = st is None or st.st_size == 0
        except OSError as exc:  # a folder on the way we may not enter
            raise StoreError(say("st_cannot_open", None, path=path, why=_os_why(exc))) from None
        try:
            self.db = self._connect()
        except sqlite3.Error as exc:
            raise self._error(exc) from None
        self._version = self._check(create=new)

    @property
    def path(self) -> Path:
        """The SQLite file."""
        from pathlib import Path

        return Path(self._path)

    def _connect(self) -> sqlite3.Connection:
        if self._frozen():
            # a WAL store needs its -shm file even to be read; in a folder we cannot write it
            # cannot be made, so a store nobody here may change is read as immutable
            import urllib.parse

            uri = "file:" + urllib.parse.quote(str(self.path.resolve())) + "?mode=ro&immutable=1"
            return sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        db = sqlite3.connect(self._path, timeout=self._timeout, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA foreign_keys=ON")
        return db

    def _frozen(self) -> bool:
        p = self._path
        st = _stat_or_none(p)
        return st is not None and stat.S_ISREG(st.st_mode) and not os.access(p, os.W_OK) \
            and not os.access(_path_parent(p), os.W_OK) and _stat_or_none(f"{p}-wal") is None

    def _error(self, exc: sqlite3.Error, doing: str = "") -> StoreError:
        msg = str(exc)
        code = getattr(exc, "sqlite_errorname", "") or ""
        colon = "：" if lang_of(None) == "zh" else ": "
        where = f"{self._path}{colon}" + (f"{doing_text(doing)}{colon}" if doing else "")
        if "locked" in msg or "busy" in msg:
            return StoreError(say("st_locked", None, where=where, seconds=f"{self._timeout:g}"))
        if "readonly" in msg or "read-only" in msg:
            return StoreError(say("st_read_only", None, where=where))
        if code.startswith("SQLITE_FULL") or "database or disk is full" in msg or (
                (code.startswith("SQLITE_IOERR") or "disk I/O error" in msg) and self._disk_full()):
            return StoreError(say("st_disk_full", None, where=where))
        if code.startswith("SQLITE_IOERR") or "disk I/O error" in msg:
            return StoreError(say("st_io_error", None, where=where))
        if "not a database" in msg or "malformed" in msg:
            return StoreError(say("st_not_a_db", None, where=where, why=say("st_why_damaged", None)))
        if "unable to open" in msg:
            return StoreError(say("st_cannot_open_db", None, where=where, why=say("st_why_cannot_open", None)))
        if code.startswith("SQLITE_TOOBIG") or "too big" in msg:
            return StoreError(say("st_too_big", None, where=where))
        return StoreError(say("st_sqlite_other", None, where=where, code=code or type(exc).__name__))

    def _disk_full(self) -> bool:
        """Is the file's disk full (SQLite says "disk I/O error" when a read needs room too)?"""
        import shutil

        try:
            return shutil.disk_usage(os.path.dirname(os.path.abspath(self._path)) or ".").free < 1 << 20
        except (OSError, TypeError, ValueError):
            return False

    @contextmanager
    def _write_lock(self, name: str):
        # BEGIN IMMEDIATE takes the file's write lock; the reads and the append inside join it
        with self._tx(doing="writing"):
            yield

    @contextmanager
    def _tx(self, mode: str = "IMMEDIATE", doing: str = ""):
        # one connection, many threads (a web server's): a thread's transaction is its own
        with self._lock:
            if self.db.in_transaction:  # inside this thread's _write_lock: part of it
                try:
                    yield self.db
                except sqlite3.Error as exc:
                    raise self._error(exc, doing) from None
                return
            try:
                self.db.execute(f"BEGIN {mode}")
            except sqlite3.Error as exc:
                raise self._error(exc, doing) from None
            try:
                yield self.db
            except sqlite3.Error as exc:
                self._rollback()
                raise self._error(exc, doing) from None
            except BaseException:
                self._rollback()
                raise
            try:
                self.db.execute("COMMIT")
            except sqlite3.Error as exc:
                self._rollback()
                raise self._error(exc, doing) from None

    def _rollback(self) -> None:
        try:
            self.db.execute("ROLLBACK")
        except sqlite3.Error:
            pass

    def _tables(self) -> set[str]:
        # SQLite's own tables (sqlite_sequence, sqlite_stat1 after an ANALYZE) are not a layout
        return {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")}

    def _read_version(self) -> int:
        tables = self._tables()
        if not tables:
            return 0
        if tables == _V2_TABLES or (tables >= _V2_TABLES and "meta" in tables):
            row = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            try:
                return int(row[0]) if row else -1
            except ValueError:
                return -1
        if tables == _V1_TABLES:
            return 1
        return -1

    def _check(self, create: bool) -> int:
        """Check (or, for a new file, create) the schema: an older store must be upgraded
        (``bansha db upgrade``), a newer or unknown one is refused before anything is read."""
        try:
            version = self._read_version()
            if version == 0 and create:
                with self._tx(doing="creating the store"):
                    if self._read_version() == 0:  # another process may have just made it
                        # statement by statement: executescript would COMMIT the open transaction
                        for stmt in filter(str.strip, _SQLITE_SCHEMA.split(";")):
                            self.db.execute(stmt)
                        self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
                try:  # WAL: readers do not block the writer; a read-only file keeps its mode
                    self.db.execute("PRAGMA journal_mode=WAL")
                except sqlite3.Error:
                    pass
                version = SCHEMA_VERSION
            self.db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: still atomic after a crash
        except sqlite3.Error as exc:
            raise self._error(exc) from None
        return version

    def _usable(self) -> None:
        v = self._version
        if v == SCHEMA_VERSION:
            return
        if v == 0:
            raise StoreError(say("st_empty_file", None, path=self._path))
        if v == -1:
            raise StoreError(say("st_layout", None, path=self._path, tables=", ".join(sorted(self._tables())),
                                 known=SCHEMA_VERSION))
        if v > SCHEMA_VERSION:
            raise StoreError(f"{self._path}{'：' if lang_of(None) == 'zh' else ': '}{newer_message(v)}")
        raise StoreError(say("st_old_schema", None, path=self._path, found=v, known=SCHEMA_VERSION))

    def _migrate(self) -> None:
        with self._tx(doing="upgrading the store"):
            v = self._read_version()
            for target in range(v + 1, SCHEMA_VERSION + 1):
                for stmt in filter(str.strip, _SQLITE_UPGRADES[target].split(";")):
                    self.db.execute(stmt)
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        try:
            self.db.execute("PRAGMA journal_mode=WAL")
        except sqlite3.Error:
            pass

    # the primitives

    def names(self, limit: int | None = None, after: str | None = None) -> list[str]:
        self._usable()
        sql, args = "SELECT name FROM games", []
        if after is not None:
            sql += " WHERE (created, name) > (SELECT created, name FROM games WHERE name=?)"
            args.append(after)
        sql += " ORDER BY created, name"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        try:
            with self._lock:
                return [r[0] for r in self.db.execute(sql, args)]
        except sqlite3.Error as exc:
            raise self._error(exc) from None

    def _read_raw(self, name, after=0, setup=True):
        self._usable()
        column = "setup" if setup else "x''"
        with self._tx("DEFERRED", "reading"):  # one snapshot for the game row and its events
            row = self.db.execute(f"SELECT {column}, last_seq, undos FROM games WHERE name=?", (name,)).fetchone()
            if row is None:
                return None
            rows = self.db.execute("SELECT seq, event FROM events WHERE game=? AND seq>? ORDER BY seq", (name, after)).fetchall()
        return _blob(row[0]), row[1], row[2], [(s, _blob(e)) for s, e in rows]

    def _create_raw(self, name, setup, events=(), outbox=()):
        self._usable()
        with self._tx(doing="creating a game"):
            if self.db.execute("SELECT 1 FROM games WHERE name=?", (name,)).fetchone():
                raise GameError(say("st_exists", None, name=repr(name)))
            self.db.execute("INSERT INTO games(name, setup, last_seq) VALUES (?, ?, ?)", (name, setup, len(events)))
            self.db.executemany("INSERT INTO events(game, seq, event) VALUES (?, ?, ?)",
                                [(name, i, e) for i, e in enumerate(events, start=1)])
            self.db.executemany("INSERT INTO outbox(game, key, n, message, state, remote, tries, updated)"
                                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [(name, *r) for r in outbox])

    def _append_raw(self, name, seq, undos, event):
        self._usable()
        with self._tx(doing="writing"):
            cur = self.db.execute("UPDATE games SET last_seq=last_seq+1 WHERE name=? AND last_seq=? AND undos=?", (name, seq, undos))
            if cur.rowcount != 1:
                raise Conflict()
            self.db.execute("INSERT INTO events(game, seq, event) VALUES (?, ?, ?)", (name, seq + 1, event))

    def _replace_setup_raw(self, name, setup, seq, undos):
        self._usable()
        with self._tx(doing="writing"):
            cur = self.db.execute("UPDATE games SET setup=?, undos=undos+1 WHERE name=? AND last_seq=? AND undos=?",
                                  (setup, name, seq, undos))
            if cur.rowcount != 1:
                raise Conflict()

    def _undo_raw(self, name):
        self._usable()
        with self._tx(doing="undoing"):
            row = self.db.execute("SELECT seq, event FROM events WHERE game=? ORDER BY seq DESC LIMIT 1", (name,)).fetchone()
            if row is None:
                return None
            self.db.execute("DELETE FROM events WHERE game=? AND seq=?", (name, row[0]))
            self.db.execute("UPDATE games SET last_seq=?, undos=undos+1 WHERE name=?", (row[0] - 1, name))
        return row[0], _blob(row[1])

    def _get_meta_raw(self, keys):
        self._usable()
        with self._tx("DEFERRED", "reading"):
            rows = self.db.execute(f"SELECT key, value FROM meta WHERE key IN ({','.join('?' * len(keys))})", keys).fetchall()
        return dict(rows)

    def _set_meta_raw(self, changes):
        self._usable()
        with self._tx(doing="writing"):
            for key, value in changes.items():
                if value is None:
                    self.db.execute("DELETE FROM meta WHERE key=?", (key,))
                else:
                    self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def _add_meta_raw(self, values):
        self._usable()
        keys = list(values)
        with self._tx(doing="writing"):  # IMMEDIATE: the insert and the read back, one writer at a time
            self.db.executemany("INSERT OR IGNORE INTO meta VALUES (?, ?)", list(values.items()))
            rows = self.db.execute(f"SELECT key, value FROM meta WHERE key IN ({','.join('?' * len(keys))})", keys).fetchall()
        return dict(rows)

    def _outbox_raw(self, name):
        self._usable()
        with self._tx("DEFERRED", "reading"):
            return self.db.execute("SELECT key, n, message, state, remote, tries, updated FROM outbox WHERE game=? ORDER BY n",
                                   (name,)).fetchall()

    def _outbox_add_raw(self, name, items, now):
        self._usable()
        with self._tx(doing="writing"):
            last = self.db.execute("SELECT COALESCE(MAX(n), 0) FROM outbox WHERE game=?", (name,)).fetchone()[0]
            for key, message in items:
                if self.db.execute("SELECT 1 FROM outbox WHERE game=? AND key=?", (name, key)).fetchone() is None:
                    last += 1
                    self.db.execute("INSERT INTO outbox(game, key, n, message, state, updated) VALUES (?, ?, ?, ?, 'pending', ?)",
                                    (name, key, last, message, now))
            return self.db.execute("SELECT key, n, message, state, remote, tries, updated FROM outbox WHERE game=? ORDER BY n",
                                   (name,)).fetchall()

    def _outbox_mark_raw(self, name, key, state, remote, allowed, now):
        self._usable()
        with self._tx(doing="writing"):
            cur = self.db.execute(
                f"UPDATE outbox SET state=?, remote=CASE WHEN ?='' THEN remote ELSE ? END, tries=tries+?, updated=?"
                f" WHERE game=? AND key=? AND state IN ({','.join('?' * len(allowed))})",
                (state, remote, remote, 1 if state == "sending" else 0, now, name, key, *allowed))
            return cur.rowcount == 1

    def watch(self, name, after=0, timeout=None, poll=0.05):
        """Poll ``PRAGMA data_version`` (it changes when another connection commits) on a
        connection of its own, and read the log only when it changed."""
        self._usable()
        db = self._connect()
        try:
            _, last, undos, _ = self._read(name, after=1 << 62, setup=False)
            seen = after
            version = None
            idle_since = time.monotonic()
            while True:
                v = db.execute("PRAGMA data_version").fetchone()[0]
                if v != version:
                    version = v
                    db.execute("BEGIN")
                    try:
                        row = db.execute("SELECT last_seq, undos FROM games WHERE name=?", (name,)).fetchone()
                        rows = db.execute("SELECT seq, event FROM events WHERE game=? AND seq>? ORDER BY seq", (name, seen)).fetchall()
                    finally:
                        db.execute("COMMIT")
                    news = False
                    if row is not None and row[1] != undos:
                        # d undos since: events seen-d+1 … seen may be gone or replaced; report
                        # them gone, then yield whatever now stands at those numbers again
                        low = max(after, seen - (row[1] - undos), 0)
                        low = min(low, row[0])
                        for s in range(seen, low, -1):
                            news = True
                            yield s, None
                        seen, undos = low, row[1]
                        rows = db.execute("SELECT seq, event FROM events WHERE game=? AND seq>? ORDER BY seq", (name, seen)).fetchall()
                    for s, raw in rows:
                        news = True
                        seen = s
                        yield s, self._decode_event(name, s, _blob(raw))
                    if news:
                        idle_since = time.monotonic()
                if timeout is not None and time.monotonic() - idle_since > timeout:
                    return
                time.sleep(poll)
        except sqlite3.Error as exc:
            raise self._error(exc, "watching") from None
        finally:
            db.close()

    def close(self) -> None:
        self.db.close()
