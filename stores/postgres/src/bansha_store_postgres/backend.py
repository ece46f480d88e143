"""bansha's PostgreSQL store (``--db postgresql://user@host/db``), for a site whose games are
written by several server processes on several machines.

The backend moves bytes; the rules run in ``bansha.store.store.Store`` outside any lock. An append
is one short transaction: ``UPDATE games … WHERE last_seq = %s AND undos = %s`` (the row lock
serialises writers of one game only; a writer that lost the race sees 0 rows and retries from
the state it has), the event's ``INSERT`` and a ``pg_notify`` that wakes every watcher when
the transaction commits. Watching is LISTEN on a connection of its own.
"""

from __future__ import annotations

import os
import select
import threading
import time
from contextlib import contextmanager
from typing import TYPE_CHECKING

import psycopg
from bansha.engine.copies import copy_game
from bansha.engine.model import GameError
from bansha.store.store import (
    SCHEMA_VERSION,
    Conflict,
    Store,
    StoreError,
    doing_text,
    newer_message,
    structlog_logger,
    write_timeout,
)
from bansha.text.messages import extend, lang_of, say
from psycopg import sql

if TYPE_CHECKING:
    from psycopg_pool import ConnectionPool

CHANNEL = "bansha_events"
#: "<undos> <last_seq> <game>" after every append and undo (the web server's cache, _Freshness)
STATE_CHANNEL = "bansha_state"
#: after every change of the meta table (token hashes, deadlines)
META_CHANNEL = "bansha_meta"

_SCHEMA = [
    "CREATE TABLE bansha_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE games (name TEXT PRIMARY KEY, setup BYTEA NOT NULL, created TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
                           last_seq INTEGER NOT NULL DEFAULT 0, undos INTEGER NOT NULL DEFAULT 0)""",
    """CREATE TABLE events (game TEXT NOT NULL REFERENCES games(name), seq INTEGER NOT NULL, event BYTEA NOT NULL,
                            PRIMARY KEY (game, seq))""",
    "CREATE INDEX games_created ON games (created, name)",
    """CREATE TABLE outbox (game TEXT NOT NULL REFERENCES games(name), key TEXT NOT NULL, n INTEGER NOT NULL, message TEXT NOT NULL,
                            state TEXT NOT NULL, remote TEXT NOT NULL DEFAULT '', tries INTEGER NOT NULL DEFAULT 0,
                            updated TEXT NOT NULL DEFAULT '', PRIMARY KEY (game, key))""",
]
#: version -> statements bringing the previous version to it (PostgreSQL stores began at 2)
_UPGRADES: dict[int, list[str]] = {3: ["""CREATE TABLE outbox (game TEXT NOT NULL REFERENCES games(name), key TEXT NOT NULL, n INTEGER NOT NULL, message TEXT NOT NULL,
                            state TEXT NOT NULL, remote TEXT NOT NULL DEFAULT '', tries INTEGER NOT NULL DEFAULT 0,
                            updated TEXT NOT NULL DEFAULT '', PRIMARY KEY (game, key))"""]}
#: an advisory lock key: two processes opening a new database create its tables once
_SCHEMA_LOCK = 0x62616E736861


def _where(conninfo: str) -> str:
    """host:port/dbname of a URL, never its password."""
    try:
        d = psycopg.conninfo.conninfo_to_dict(conninfo)
    except psycopg.ProgrammingError:
        return "the given URL"
    host = d.get("host") or "localhost"
    port = d.get("port") or "5432"
    return f"{host}:{port}/{d.get('dbname') or d.get('user') or ''}"


#: libpq's and the server's words (English whatever the board) -> the catalogue's key
_LIBPQ = [
    ("53100", r"could not extend file|No space left on device|disk full", "pg_disk_full"),
    ("", r"Connection refused", "pg_refused"),
    ("28P01", r"password authentication failed", "pg_password"),
    ("28000", r"no pg_hba\.conf entry|role .* does not exist", "pg_no_role"),
    ("3D000", r"database .* does not exist", "pg_no_database"),
    ("", r"could not translate host name|Name or service not known|nodename nor servname", "pg_no_host"),
    ("", r"timeout expired|timed out|couldn't get a connection after", "pg_timeout"),
    ("57P01", r"terminating connection|server closed the connection|connection is closed|the connection is lost", "pg_closed"),
    ("53300", r"too many clients|remaining connection slots", "pg_too_many"),
    # libpq's "FATAL:  the database system is shutting down" (or starting up, or in recovery)
    ("57P03", r"the database system is (?:shutting down|starting up|in recovery mode|not yet accepting connections)",
     "pg_not_ready"),
    ("42501", r"permission denied", "pg_permission"),
]


extend({"pg_not_ready": ("服务器正在关闭或启动，暂不接受连接；稍后再试", "the server is shutting down or starting up and takes no connections; try again later")})


def _reason(exc: Exception, conninfo: str) -> str:
    """What went wrong in the reader's words where libpq's message is known (a refused
    connection, a wrong password, a full disk …), else the first line of the server's or
    libpq's message, without a password in it."""
    import re

    from bansha.text.messages import say

    text = str(exc)
    state = getattr(exc, "sqlstate", None) or ""
    for code, pattern, key in _LIBPQ:
        if (code and state == code) or re.search(pattern, text):
            return say(key, None)
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), type(exc).__name__)
    try:
        pw = psycopg.conninfo.conninfo_to_dict(conninfo).get("password")
    except psycopg.ProgrammingError:
        pw = None
    return line.replace(pw, "***") if pw else line


class _Freshness:
    """What this process knows of the store's newest state, from a LISTEN connection of its
    own (``PostgresStore(listen=True)``, the web server): the newest (undos, last seq) of each
    game it was told of or has read or written since the LISTEN began, and a counter of the
    meta table's changes. A cached state at least as new as the newest known one is served
    without a query; a write is still checked by ``_append_raw``'s ``WHERE last_seq = … AND
    undos = …``, so a cache that is stale after all costs a retry, never a wrong event.

    Every commit after the LISTEN began is announced on it (the append, undo and set_meta
    statements notify in their own transactions), so "known" can only lag by the delivery
    of a notification. While the connection is down nothing is known (every read queries,
    as without ``listen``); after a reconnection nothing learnt before counts (``epoch``)."""

    def __init__(self, url: str):
        self.url = url
        self.lock = threading.Lock()
        #: the LISTEN's generation, None while it is not listening
        self.epoch: int | None = None
        self._epochs = 0
        #: game -> the newest (undos, last_seq) known in this epoch
        self.known: dict[str, tuple[int, int]] = {}
        #: bumped by every forget: a query that was running then notes nothing
        self.forgets = 0
        #: bumped by every change of the meta table this process makes or is told of (and by
        #: every epoch): a cached meta value counts only while it is unchanged
        self.meta_gen = 0
        #: the LISTEN connection's server process (a test ends it to see the fallback)
        self.backend_pid: int | None = None
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        self._thread = threading.Thread(target=self._run, daemon=True, name="bansha-pg-listen")
        self._thread.start()

    # ------------------------------------------------------------------------ callers

    def token(self):
        """Taken before a query: what the query's answer is noted against. A forget while
        it runs voids it (the answer may predate the write that was forgotten for)."""
        return None if self.epoch is None else (self.epoch, self.forgets)

    def note(self, name: str, state: tuple[int, int], token, own: bool = False) -> None:
        """The store held ``state`` at some moment after ``token`` was taken. ``own``: the
        state this process's write committed, which no forget can make stale (only the
        epoch must be the same: every later commit is announced)."""
        if token is None:
            return
        with self.lock:
            if token == (self.epoch, self.forgets) or (own and token[0] == self.epoch):
                old = self.known.get(name)
                if old is None or state > old:
                    self.known[name] = state

    def fresh(self, name: str, undos: int, seq: int) -> bool:
        # (undos, seq) grows with every commit: an append adds 1 to seq, an undo 1 to undos
        if self.epoch is None:
            return False
        known = self.known.get(name)
        return known is not None and (undos, seq) >= known

    def forget(self, name: str) -> None:
        with self.lock:
            self.forgets += 1
            self.known.pop(name, None)

    def meta_token(self):
        return None if self.epoch is None else (self.epoch, self.meta_gen)

    def meta_changed(self) -> None:
        with self.lock:
            self.meta_gen += 1

    def close(self) -> None:
        self._stop.set()
        try:
            os.write(self._wake_w, b"x")
        except OSError:
            pass
        self._thread.join(timeout=5)
        os.close(self._wake_r)
        os.close(self._wake_w)

    # -------------------------------------------------------------------------- thread

    def _handle(self, channel: str, payload: str) -> None:
        if channel == META_CHANNEL:
            self.meta_changed()
            return
        if channel == CHANNEL:
            # the older note, which names the game only (a bansha before bansha_state sends
            # nothing else): forget what is known, so the next read asks; this bansha's own
            # writes send it first and bansha_state right after, which puts it back
            self.forget(payload)
            return
        undos, seq, name = payload.split(" ", 2)
        with self.lock:
            if self.epoch is None:
                return
            state = (int(undos), int(seq))
            old = self.known.get(name)
            if old is None or state > old:
                self.known[name] = state

    def _run(self) -> None:
        while not self._stop.is_set():
            conn = None
            try:
                # keepalives: a connection lost without a word from the server (a cable, a
                # firewall) is noticed within ~11 s, not hours
                conn = psycopg.connect(self.url, autocommit=True, connect_timeout=10, keepalives=1,
                                       keepalives_idle=5, keepalives_interval=2, keepalives_count=3)
                for channel in (CHANNEL, STATE_CHANNEL, META_CHANNEL):
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
                self.backend_pid = conn.info.backend_pid
                with self.lock:
                    self._epochs += 1
                    self.known.clear()
                    self.meta_gen += 1
                    self.epoch = self._epochs
                while not self._stop.is_set():
                    ready = select.select([conn.fileno(), self._wake_r], [], [], 5.0)[0]
                    if conn.fileno() in ready:
                        batch = list(conn.notifies(timeout=0))
                        for i, n in enumerate(batch):
                            if n.channel == CHANNEL and any(
                                    m.channel == STATE_CHANNEL and m.payload.split(" ", 2)[-1] == n.payload
                                    for m in batch[i + 1:]):
                                # this bansha's append sends both: the state note right after
                                # says it all, and forgetting first would make every read
                                # between the two ask the store
                                continue
                            self._handle(n.channel, n.payload)
                        if conn.closed or conn.pgconn.status != psycopg.pq.ConnStatus.OK:
                            break
            except Exception:  # the server went away: fall back to queries, then reconnect
                pass
            finally:
                with self.lock:
                    self.epoch = None
                    self.known.clear()
                    self.meta_gen += 1
                if conn is not None:
                    conn.close()
            self._stop.wait(1.0)


class PostgresStore(Store):
    def __init__(self, url, logger=structlog_logger, cache: bool = True, pool_size: int = 1, listen: bool = False):
        """``pool_size`` > 1: a psycopg-pool of that many connections, for a server whose
        threads write at once; 1 (the CLI, one writer process): one connection, no pool
        threads to start (start-up) or to stop. ``listen`` (the web server, with ``cache``):
        a LISTEN connection tells this store of every write, so that a cached state or meta
        value nobody changed is answered without a query (:class:`_Freshness`)."""
        super().__init__(url, logger, cache)
        self.url = str(url)
        self.where = _where(self.url)
        self._timeout = write_timeout()
        try:
            # a first connection, direct: an unreachable server is one line now, not a pool
            # timeout later
            first = psycopg.connect(self.url, connect_timeout=10, autocommit=True)
        except psycopg.Error as exc:
            raise StoreError(say("st_pg_unreachable", None, where=self.where, why=_reason(exc, self.url))) from None
        try:
            self._version = self._check(first)
        except BaseException:
            first.close()
            raise
        self._pool: ConnectionPool | None = None
        self._pool_size = pool_size
        self._conn: psycopg.Connection | None = None
        #: the connection of this thread's _write_lock, while it is held
        self._held = threading.local()
        self._conn_lock = threading.RLock()
        if pool_size > 1:
            first.close()
        else:
            # autocommit: every use is a `with conn.transaction()` block (BEGIN … COMMIT)
            first.execute(f"SET lock_timeout = {int(self._timeout * 1000)}")
            self._conn = first
        self._fresh: _Freshness | None = _Freshness(self.url) if listen and cache else None
        #: meta key -> (the meta token it was read under, its value or None)
        self._meta_cache: dict[str, tuple[tuple, str | None]] = {}

    # ----------------------------------------------------------------------- connections

    @contextmanager
    def _write_lock(self, name):
        # the game's row, locked until this transaction ends; the reads and the append
        # inside use the same connection (their transactions nest as savepoints)
        with self.connection() as conn:
            try:
                with conn.transaction():
                    self._held.conn = conn
                    conn.execute("SELECT 1 FROM games WHERE name=%s FOR UPDATE", (name,))
                    yield
            except psycopg.Error as exc:
                raise self._error(exc, "writing") from None
            finally:
                self._held.conn = None
                if self._fresh is not None:
                    # what the transaction wrote was not noted (it might have rolled back):
                    # the next read asks, and a read that ran across the commit notes nothing
                    self._fresh.forget(name)

    @contextmanager
    def connection(self):
        held = getattr(self._held, "conn", None)
        if held is not None:
            yield held
        elif self._pool_size <= 1:
            if self._conn is None or self._conn.closed:
                raise StoreError(say("st_pg_closed", None, where=self.where))
            with self._conn_lock:  # threads sharing the one connection take turns
                yield self._conn
        else:
            with self.pool.connection() as conn:
                yield conn

    @property
    def pool(self) -> ConnectionPool:
        with self._conn_lock:  # threads starting at once must not each make a pool
            if self._pool is None:
                self._pool = self._make_pool()
        return self._pool

    def _make_pool(self) -> ConnectionPool:
        from psycopg_pool import ConnectionPool

        ms = int(self._timeout * 1000)

        def configure(conn):
            # a writer waits for another's row lock at most BANSHA_DB_TIMEOUT (the URL's own
            # options, e.g. a search_path, stay as given)
            conn.execute(f"SET lock_timeout = {ms}")

        return ConnectionPool(self.url, min_size=1, max_size=self._pool_size, open=True, timeout=self._timeout,
                              configure=configure, kwargs={"connect_timeout": 10, "autocommit": True})

    def _error(self, exc: Exception, doing: str = "") -> StoreError:
        what = f"（{doing_text(doing)}）" if doing and lang_of(None) == "zh" else (f" ({doing})" if doing else "")
        if isinstance(exc, psycopg.errors.LockNotAvailable):
            return StoreError(say("st_pg_locked", None, where=self.where, what=what, seconds=f"{self._timeout:g}"))
        if isinstance(exc, psycopg.errors.ReadOnlySqlTransaction | psycopg.errors.InsufficientPrivilege):
            return StoreError(say("st_pg_cannot_write", None, where=self.where, what=what, why=_reason(exc, self.url)))
        return StoreError(say("st_pg_other", None, where=self.where, what=what, why=_reason(exc, self.url)))

    def _run(self, doing: str, fn, tx: bool = True):
        """``fn(conn)`` on this thread's connection, in a transaction unless ``tx`` is False
        (one statement: autocommit makes it its own transaction, a round trip saved; inside
        ``_write_lock`` it joins the lock's transaction); errors become one line."""
        try:
            with self.connection() as conn:
                if not tx:
                    return fn(conn)
                with conn.transaction():
                    return fn(conn)
        except (GameError, Conflict):
            raise
        except psycopg.Error as exc:
            raise self._error(exc, doing) from None
        except Exception as exc:  # the pool's timeout: the server went away or is full
            if type(exc).__module__.startswith("psycopg_pool"):
                raise StoreError(say("st_pg_unreachable", None, where=self.where, why=_reason(exc, self.url))) from None
            raise

    # --------------------------------------------------------------------------- schema

    @staticmethod
    def _read_version(conn) -> int:
        tables = {r[0] for r in conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
            " AND table_name IN ('bansha_meta', 'games', 'events')")}
        if not tables:
            return 0
        if "bansha_meta" not in tables:
            return -1
        row = conn.execute("SELECT value FROM bansha_meta WHERE key='schema'").fetchone()
        try:
            return int(row[0]) if row else -1
        except ValueError:
            return -1

    def _check(self, conn) -> int:
        try:
            version = self._read_version(conn)
            if version == 0:
                with conn.transaction():
                    conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
                    if self._read_version(conn) == 0:
                        for stmt in _SCHEMA:
                            conn.execute(stmt)
                        conn.execute("INSERT INTO bansha_meta VALUES ('schema', %s)", (str(SCHEMA_VERSION),))
                version = self._read_version(conn)
        except psycopg.Error as exc:
            raise self._error(exc, "opening the store") from None
        return version

    def _usable(self) -> None:
        v = self._version
        if v == SCHEMA_VERSION:
            return
        if v == -1:
            raise StoreError(say("st_pg_layout", None, where=self.where, known=SCHEMA_VERSION))
        if v > SCHEMA_VERSION:
            raise StoreError(say("st_pg_other", None, where=self.where, what="", why=newer_message(v)))
        raise StoreError(say("st_pg_old_schema", None, where=self.where, found=v, known=SCHEMA_VERSION))

    def _migrate(self) -> None:
        def migrate(conn):
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            for target in range(self._read_version(conn) + 1, SCHEMA_VERSION + 1):
                for stmt in _UPGRADES[target]:
                    conn.execute(stmt)
            conn.execute("UPDATE bansha_meta SET value=%s WHERE key='schema'", (str(SCHEMA_VERSION),))

        self._run("upgrading the store", migrate)

    # ------------------------------------------------------------------------ primitives

    def names(self, limit=None, after=None):
        self._usable()
        q = "SELECT name FROM games"
        args: list = []
        if after is not None:
            q += " WHERE (created, name) > (SELECT created, name FROM games WHERE name=%s)"
            args.append(after)
        q += " ORDER BY created, name"
        if limit is not None:
            q += " LIMIT %s"
            args.append(limit)
        return self._run("listing games", lambda c: [r[0] for r in c.execute(q, args)], tx=False)

    def _read_raw(self, name, after=0, setup=True):
        self._usable()
        column = "g.setup" if setup else "''::bytea"

        def read(conn):
            # one statement, one snapshot: the game row and its events together
            rows = conn.execute(
                f"SELECT {column}, g.last_seq, g.undos, e.seq, e.event FROM games g"
                " LEFT JOIN events e ON e.game = g.name AND e.seq > %s WHERE g.name = %s ORDER BY e.seq",
                (after, name)).fetchall()
            if not rows:
                return None
            setup, last, undos = bytes(rows[0][0]), rows[0][1], rows[0][2]
            return setup, last, undos, [(r[3], bytes(r[4])) for r in rows if r[3] is not None]

        fresh, token = self._fresh_token()
        row = self._run("reading", read, tx=False)
        if fresh is not None and row is not None:
            fresh.note(name, (row[2], row[1]), token)
        return row

    def _get_meta_raw(self, keys):
        self._usable()
        fresh = self._fresh
        token = fresh.meta_token() if fresh is not None and self._held_conn() is None else None
        if token is not None:
            cache = self._meta_cache
            hits = [cache.get(k) for k in keys]
            if all(h is not None and h[0] == token for h in hits):
                return {k: h[1] for k, h in zip(keys, hits, strict=True) if h[1] is not None}
        out = self._run("reading", lambda c: dict(c.execute(
            "SELECT key, value FROM bansha_meta WHERE key = ANY(%s)", (list(keys),)).fetchall()), tx=False)
        if token is not None:
            if len(self._meta_cache) > 50_000:  # unknown tokens tried are cached too: bounded
                self._meta_cache.clear()
            for k in keys:
                self._meta_cache[k] = (token, out.get(k))
        return out

    def _set_meta_raw(self, changes):
        self._usable()

        def write(conn):
            for key, value in changes.items():
                if value is None:
                    conn.execute("DELETE FROM bansha_meta WHERE key=%s", (key,))
                else:
                    conn.execute("INSERT INTO bansha_meta VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                                 (key, value))
            # every listening process drops its cached meta at this commit (a revoked link)
            conn.execute("SELECT pg_notify(%s, '')", (META_CHANNEL,))

        try:
            self._run("writing", write)
        finally:
            if self._fresh is not None:  # this process: at once, before the notification
                self._fresh.meta_changed()

    def _add_meta_raw(self, values):
        self._usable()

        def add(conn):
            for key, value in values.items():
                conn.execute("INSERT INTO bansha_meta VALUES (%s, %s) ON CONFLICT (key) DO NOTHING", (key, value))
            conn.execute("SELECT pg_notify(%s, '')", (META_CHANNEL,))
            # read back in the same transaction: a concurrent insert of the key committed first
            # (ours waited for it and did nothing), so this reads its value
            return dict(conn.execute("SELECT key, value FROM bansha_meta WHERE key = ANY(%s)", (list(values),)).fetchall())

        try:
            return self._run("writing", add)
        finally:
            if self._fresh is not None:
                self._fresh.meta_changed()

    def _outbox_raw(self, name):
        self._usable()
        return self._run("reading", lambda c: [tuple(r) for r in c.execute(
            "SELECT key, n, message, state, remote, tries, updated FROM outbox WHERE game=%s ORDER BY n", (name,)).fetchall()], tx=False)

    def _outbox_add_raw(self, name, items, now):
        self._usable()

        def add(conn):
            # the game's row locked: two processes planning at once number their rows one after the other
            conn.execute("SELECT 1 FROM games WHERE name=%s FOR UPDATE", (name,))
            last = conn.execute("SELECT COALESCE(MAX(n), 0) FROM outbox WHERE game=%s", (name,)).fetchone()[0]
            for key, message in items:
                cur = conn.execute("INSERT INTO outbox(game, key, n, message, state, updated) VALUES (%s, %s, %s, %s, 'pending', %s)"
                                   " ON CONFLICT (game, key) DO NOTHING", (name, key, last + 1, message, now))
                if cur.rowcount == 1:
                    last += 1
            return [tuple(r) for r in conn.execute(
                "SELECT key, n, message, state, remote, tries, updated FROM outbox WHERE game=%s ORDER BY n", (name,)).fetchall()]

        return self._run("writing", add)

    def _outbox_mark_raw(self, name, key, state, remote, allowed, now):
        self._usable()
        return self._run("writing", lambda c: c.execute(
            "UPDATE outbox SET state=%s, remote=CASE WHEN %s='' THEN remote ELSE %s END, tries=tries+%s, updated=%s"
            " WHERE game=%s AND key=%s AND state = ANY(%s)",
            (state, remote, remote, 1 if state == "sending" else 0, now, name, key, list(allowed))).rowcount == 1, tx=False)

    def _create_raw(self, name, setup, events=(), outbox=()):
        self._usable()

        def create(conn):
            cur = conn.execute("INSERT INTO games(name, setup, last_seq) VALUES (%s, %s, %s) ON CONFLICT (name) DO NOTHING",
                               (name, setup, len(events)))
            if cur.rowcount != 1:
                raise GameError(say("st_exists", None, name=repr(name)))
            if events:
                with conn.cursor() as c:
                    c.executemany("INSERT INTO events(game, seq, event) VALUES (%s, %s, %s)",
                                  [(name, i, e) for i, e in enumerate(events, start=1)])
            if outbox:
                with conn.cursor() as c:
                    c.executemany("INSERT INTO outbox(game, key, n, message, state, remote, tries, updated)"
                                  " VALUES (%s, %s, %s, %s, %s, %s, %s, %s)", [(name, *r) for r in outbox])

        self._run("creating a game", create)

    def _append_raw(self, name, seq, undos, event):
        self._usable()

        def append(conn):
            # one statement, so one round trip and its own transaction: take the next number
            # if the game is as the writer read it, store the event, wake the watchers (the
            # notification goes out at commit)
            row = conn.execute(
                "WITH u AS (UPDATE games SET last_seq = last_seq + 1 WHERE name=%s AND last_seq=%s AND undos=%s"
                " RETURNING name, last_seq, undos),"
                " i AS (INSERT INTO events(game, seq, event) SELECT name, last_seq, %s FROM u RETURNING seq)"
                " SELECT i.seq, pg_notify(%s, %s), pg_notify(%s, u.undos || ' ' || u.last_seq || ' ' || u.name)"
                " FROM i, u", (name, seq, undos, event, CHANNEL, name, STATE_CHANNEL)).fetchone()
            if row is None:
                raise Conflict()

        fresh, token = self._fresh_token()
        try:
            self._run("writing", append, tx=False)
        except Conflict:
            if fresh is not None:  # the cache was stale after all: the retry queries
                fresh.forget(name)
            raise
        if fresh is not None:
            fresh.note(name, (undos, seq + 1), token, own=True)

    def _replace_setup_raw(self, name, setup, seq, undos):
        self._usable()

        def replace(conn):
            # the undo count moves on: every cached state of the game, here or in another
            # process, is rebuilt from the new set-up (watchers are told as for an undo)
            row = conn.execute(
                "WITH u AS (UPDATE games SET setup=%s, undos = undos + 1 WHERE name=%s AND last_seq=%s AND undos=%s"
                " RETURNING name, last_seq, undos)"
                " SELECT pg_notify(%s, %s), pg_notify(%s, u.undos || ' ' || u.last_seq || ' ' || u.name) FROM u",
                (setup, name, seq, undos, CHANNEL, name, STATE_CHANNEL)).fetchone()
            if row is None:
                raise Conflict()

        fresh, _ = self._fresh_token()
        try:
            self._run("writing", replace, tx=False)
        finally:
            if fresh is not None:
                fresh.forget(name)

    def _undo_raw(self, name):
        self._usable()

        def undo(conn):
            row = conn.execute("SELECT last_seq FROM games WHERE name=%s FOR UPDATE", (name,)).fetchone()
            if row is None or row[0] == 0:
                return None
            ev = conn.execute("DELETE FROM events WHERE game=%s AND seq=%s RETURNING event", (name, row[0])).fetchone()
            conn.execute("UPDATE games SET last_seq = last_seq - 1, undos = undos + 1 WHERE name=%s", (name,))
            now = conn.execute("SELECT undos, last_seq, pg_notify(%s, %s), pg_notify(%s, undos || ' ' || last_seq || ' ' || name)"
                               " FROM games WHERE name=%s", (CHANNEL, name, STATE_CHANNEL, name)).fetchone()
            return row[0], bytes(ev[0]), (now[0], now[1])

        fresh, token = self._fresh_token()
        out = self._run("undoing", undo)
        if out is None:
            return None
        if fresh is not None:  # a read racing the undo must not cache what it removed
            fresh.note(name, out[2], token, own=True)
        return out[0], out[1]

    # ------------------------------------------------------------ the cache, from LISTEN

    def _held_conn(self):
        return getattr(self._held, "conn", None)

    def _fresh_token(self):
        """(the freshness watch, its token) when a query's answer may be noted: not inside a
        write lock's transaction (its uncommitted rows may yet roll back)."""
        fresh = self._fresh
        if fresh is None or self._held_conn() is not None:
            return None, None
        return fresh, fresh.token()

    def _cached_fresh(self, name):
        """The cached (undos, seq, game) when no write newer than it is known, else None."""
        cached = self._cache.get(name)
        fresh = self._fresh
        if cached is None or fresh is None or self._held_conn() is not None:
            return None
        return cached if fresh.fresh(name, cached[0], cached[1]) else None

    def peek(self, name):
        cached = self._cached_fresh(name)
        return cached[2] if cached is not None else super().peek(name)

    def _current(self, name, copy=True):
        # a writer starts from the cache without a query too: if another process wrote
        # meanwhile, _append_raw's check refuses the event (Conflict) and the retry reads
        cached = self._cached_fresh(name)
        if cached is not None:
            undos, seq, game = cached
            return undos, seq, (copy_game(game) if copy else game)
        return super()._current(name, copy)

    def last_seq(self, name):
        cached = self._cached_fresh(name)
        return cached[1] if cached is not None else super().last_seq(name)

    def watch(self, name, after=0, timeout=None):
        """LISTEN on a connection of its own; read the log when a notification names the game
        (and once at the start, for what landed before the LISTEN)."""
        self._usable()
        try:
            conn = psycopg.connect(self.url, autocommit=True, connect_timeout=10)
        except psycopg.Error as exc:
            raise StoreError(say("st_pg_unreachable", None, where=self.where, why=_reason(exc, self.url))) from None
        try:
            conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(CHANNEL)))
            _, _, undos, _ = self._read(name, after=1 << 30, setup=False)
            seen = after
            idle_since = time.monotonic()
            check = True
            while True:
                if check:
                    _, last, now_undos, rows = self._read(name, after=seen, setup=False)
                    news = False
                    if now_undos != undos:
                        low = min(max(after, seen - (now_undos - undos), 0), last)
                        for s in range(seen, low, -1):
                            news = True
                            yield s, None
                        seen, undos = low, now_undos
                        _, last, _, rows = self._read(name, after=seen, setup=False)
                    for s, raw in rows:
                        news = True
                        seen = s
                        yield s, self._decode_event(name, s, raw)
                    if news:
                        idle_since = time.monotonic()
                    check = False
                wait = 1.0 if timeout is None else max(0.0, timeout - (time.monotonic() - idle_since))
                if timeout is not None and wait == 0.0:
                    return
                # psycopg's notifies() generator blocks in C; select() on the socket keeps the
                # wait bounded by the timeout on every psycopg 3 version
                if select.select([conn.fileno()], [], [], min(wait, 1.0))[0]:
                    for n in conn.notifies(timeout=0):
                        if n.payload == name:
                            check = True
        except psycopg.Error as exc:
            raise self._error(exc, "watching") from None
        finally:
            conn.close()

    def close(self) -> None:
        if self._fresh is not None:
            self._fresh.close()
            self._fresh = None
        if self._conn is not None:
            self._conn.close()
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    def drop_everything(self) -> None:
        """Drop bansha's tables (tests: a clean database per test)."""
        def drop(conn):
            conn.execute("DROP TABLE IF EXISTS events, games, bansha_meta")
        self._run("dropping the tables", drop)
