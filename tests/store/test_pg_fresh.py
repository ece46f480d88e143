"""The web server's PostgreSQL store answers from its cache what a LISTEN connection says
nobody changed (``PostgresStore(listen=True)``, bansha_store_postgres._Freshness): these
scenarios play another process's writes, a revoked link, a stale cache's write and a lost
LISTEN connection against a real server (docs/store.md, docs/security.md)."""

from __future__ import annotations

import time

import msgspec
import psycopg
import pytest
from bansha.engine.engine import SILENT
from bansha.engine.model import VoteEvent
from bansha.store.store import open_store

from .conftest import NAMES, toy_setup


def quiet(name):
    return SILENT


def wait_for(cond, what: str, timeout: float = 10.0):
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            pytest.fail(f"not within {timeout} s: {what}")
        time.sleep(0.01)


@pytest.fixture
def stores(pg_url):
    """(this server process's store: pool + LISTEN, another process's plain store)."""
    web = open_store(pg_url, logger=quiet, pool_size=4, listen=True)
    other = open_store(pg_url, logger=quiet, cache=False)
    wait_for(lambda: web._fresh.epoch is not None, "the LISTEN connection is up")
    yield web, other
    web.close()
    other.close()


def count_queries(store):
    """Wrap the store's one way to the server: every round trip of a read or write counts."""
    calls = []
    inner = store._run

    def run(doing, fn, tx=True):
        calls.append(doing)
        return inner(doing, fn, tx)

    store._run = run
    return calls


def vote(voter, target):
    return lambda g: VoteEvent(phase=g.label, voter=voter, target=target)


def test_an_unchanged_game_is_served_without_a_query(stores):
    web, other = stores
    other.create("g", toy_setup())
    first = web.peek("g")
    calls = count_queries(web)
    assert web.peek("g") is first
    assert web.last_seq("g") == 0
    assert calls == []


def test_another_process_write_is_seen_once_notified(stores):
    web, other = stores
    other.create("g", toy_setup())
    web.peek("g")
    other.append("g", vote(NAMES[0], NAMES[1]))
    wait_for(lambda: web._fresh.known.get("g") == (0, 1), "the append's notification")
    calls = count_queries(web)
    g = web.peek("g")
    assert [b.voter for b in g.ballots] == [NAMES[0]]
    assert web.last_seq("g") == 1
    assert len(calls) >= 1  # the cache was stale: it was read again
    # an undo by the other process is announced as well
    other.undo("g")
    wait_for(lambda: web._fresh.known.get("g") == (1, 0), "the undo's notification")
    assert web.peek("g").ballots == []


def test_own_write_is_served_at_once(stores):
    web, other = stores
    other.create("g", toy_setup())
    web.peek("g")
    web.append("g", vote(NAMES[0], NAMES[1]))
    calls = count_queries(web)
    # before or after its own notification: the cached state is the one it wrote
    assert [b.voter for b in web.peek("g").ballots] == [NAMES[0]]
    assert calls == []


def test_a_write_against_a_stale_cache_is_retried_on_the_stored_state(stores):
    web, other = stores
    other.create("g", toy_setup())
    web.peek("g")  # cached with no ballot, seq 0
    other.append("g", vote(NAMES[0], NAMES[1]))
    wait_for(lambda: web._fresh.known.get("g") == (0, 1), "the vote's notification")
    # as if the notification were still on its way: the cache looks fresh
    with web._fresh.lock:
        web._fresh.known["g"] = (0, 0)
    assert web.peek("g").ballots == []  # stale, as a read racing the notification may be
    calls = count_queries(web)
    # the web's vote: a change of vote if the voter has voted (on the state it is written to)
    g, _ = web.append("g", lambda g: VoteEvent(phase=g.label, voter=NAMES[0], target=NAMES[2],
                                               change=any(b.voter == NAMES[0] for b in g.ballots)))
    assert calls.count("writing") == 2  # refused against seq 0, stored against seq 1
    stored = other.numbered_events("g")
    assert [(s, e.target, e.change) for s, e in stored] == [(1, NAMES[1], False), (2, NAMES[2], True)]
    # the state it returns and caches is the stored log's, replayed afresh
    assert [(b.voter, b.target) for b in g.ballots] == [(b.voter, b.target) for b in other.load("g").ballots]
    assert web.last_seq("g") == 2


def test_a_lost_listen_connection_falls_back_to_queries(stores, pg_url):
    web, other = stores
    other.create("g", toy_setup())
    web.peek("g")
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (web._fresh.backend_pid,))
    wait_for(lambda: web._fresh.epoch is None, "the store noticed the drop")
    # a write nobody will hear of: with no LISTEN, every read asks the server
    other.append("g", vote(NAMES[0], NAMES[1]))
    if web._fresh.epoch is None:
        calls = count_queries(web)
        assert [b.voter for b in web.peek("g").ballots] == [NAMES[0]]
        assert calls
    # it reconnects, and what it learnt before counts for nothing until read again
    wait_for(lambda: web._fresh.epoch is not None, "the LISTEN connection is back")
    other.append("g", vote(NAMES[1], NAMES[0]))
    wait_for(lambda: web._fresh.known.get("g") == (0, 2), "a notification on the new connection")
    assert [b.voter for b in web.peek("g").ballots] == [NAMES[0], NAMES[1]]


def test_a_revoked_link_is_refused_at_once_here_and_once_notified_elsewhere(stores):
    from bansha_web.tokens import Tokens

    web, other = stores
    other.create("g", toy_setup())
    here, there = Tokens(web), Tokens(other)
    link = here.new_player("g", NAMES[0])
    assert here.player(link) == ("g", NAMES[0])
    calls = count_queries(web)

    def from_cache() -> bool:
        calls.clear()
        assert here.player(link) == ("g", NAMES[0])
        return not calls

    # the notifications of the writes above (the game made by the other process, the link made
    # here) arrive when they arrive, and one arriving late makes the next check read once (a
    # full run on a loaded machine saw it); once they are in, the seat's check comes from the
    # cached meta, with no query at all
    wait_for(from_cache, "a check answered from the cached meta")
    assert from_cache() and calls == []
    # revoked by this process: refused on the very next request
    link2 = here.new_player("g", NAMES[0])
    assert here.player(link) is None
    assert here.player(link2) == ("g", NAMES[0])
    # revoked by another process: refused once its notification arrived
    gen = web._fresh.meta_gen
    link3 = there.new_player("g", NAMES[0])
    wait_for(lambda: web._fresh.meta_gen > gen, "set_meta's notification")
    assert here.player(link2) is None
    assert here.player(link3) == ("g", NAMES[0])


def test_a_write_by_an_older_bansha_is_not_served_stale(stores, pg_url):
    """An older process announces a write on bansha_events only (no bansha_state)."""
    web, other = stores
    other.create("g", toy_setup())
    web.peek("g")
    raw = msgspec.json.encode(VoteEvent(phase="day 1", voter=NAMES[0], target=NAMES[1]))
    with psycopg.connect(pg_url, autocommit=True) as old:
        with old.transaction():
            old.execute("UPDATE games SET last_seq = 1 WHERE name='g'")
            old.execute("INSERT INTO events(game, seq, event) VALUES ('g', 1, %s)", (raw,))
            old.execute("SELECT pg_notify('bansha_events', 'g')")
    wait_for(lambda: "g" not in web._fresh.known, "the older note")
    assert [b.voter for b in web.peek("g").ballots] == [NAMES[0]]


def test_this_process_undo_and_locked_writes_are_seen_at_once(stores):
    web, other = stores
    other.create("g", toy_setup())
    web.append("g", vote(NAMES[0], NAMES[1]))
    web.undo("g")
    assert web.peek("g").ballots == []  # before or after the undo's notification
    web.append_all("g", lambda g: [VoteEvent(phase=g.label, voter=NAMES[2], target=NAMES[3])])
    assert [b.voter for b in web.peek("g").ballots] == [NAMES[2]]
    assert [b.voter for b in other.load("g").ballots] == [NAMES[2]]
