"""`bansha serve` on PostgreSQL answers a player's page from its cache while its LISTEN
connection says nothing changed: another server process's vote and its revocation of a link
reach this process's pages once notified (docs/web.md, docs/security.md). Needs a server
(BANSHA_TEST_PG; in CI a missing one fails, as tests/store's)."""

from __future__ import annotations

import time

import pytest
from bansha.engine.model import ResolveEvent, VoteEvent
from pgschema import pg_schema
from webhelpers import SEATS, setup_of


@pytest.fixture
def pg(tmp_path):
    with pg_schema("w") as url:
        yield url


def wait_for(cond, what, timeout=10.0):
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, f"not within {timeout} s: {what}"
        time.sleep(0.01)


def test_another_process_vote_and_revocation_reach_this_process_pages(pg):
    from bansha.store.store import open_store
    from bansha_web.app import Throttle, create_app
    from bansha_web.cli import _open
    from bansha_web.tokens import Tokens
    from litestar.testing import TestClient

    other = open_store(pg, cache=False)  # another server process (or the CLI) on the store
    other.create("g1", setup_of())
    other.append("g1", lambda g: ResolveEvent(phase=g.label))
    other.append("g1", lambda g: ResolveEvent(phase=g.label))  # day 2: votes
    theirs = Tokens(other)
    link = theirs.new_player("g1", SEATS[0][0])
    store, tokens = _open(pg)  # as `bansha serve --db postgresql://…` opens it
    try:
        wait_for(lambda: store._fresh.epoch is not None, "the LISTEN connection is up")
        with TestClient(create_app(store, tokens, throttle=Throttle(limit=1000))) as c:
            before = c.get(f"/p/{link}/view")
            assert before.status_code == 200 and "已投" not in before.text
            voter, target = SEATS[0][0], SEATS[2][0]  # the director's proxy vote, written elsewhere
            other.append("g1", lambda g: VoteEvent(phase=g.label, voter=voter, target=target, proxy=True))
            wait_for(lambda: store._fresh.known.get("g1") == (0, 3), "the vote's notification")
            assert f"（已投 {target}）" in c.get(f"/p/{link}/view").text
            gen = store._fresh.meta_gen
            theirs.new_player("g1", SEATS[0][0])  # the other process gives the seat a new link
            wait_for(lambda: store._fresh.meta_gen > gen, "set_meta's notification")
            assert c.get(f"/p/{link}/view").status_code == 404
    finally:
        store.close()
        other.close()


def test_a_player_submission_is_one_round_trip_and_a_read_none(pg):
    """docs/performance.md (issue 21 item 7): on a fresh cache a player's read asks the store
    nothing (the seat check and the state from the LISTEN cache), a submission exactly one
    statement (the append: its optimistic check, the insert and the notifications at once)."""
    from bansha.store.store import open_store
    from bansha_web.app import Throttle, create_app
    from bansha_web.cli import _open
    from bansha_web.tokens import Tokens
    from litestar.testing import TestClient
    from webhelpers import csrf_of, to_night

    other = open_store(pg, cache=False)
    other.create("g1", setup_of())
    link = Tokens(other).new_player("g1", "赤")
    to_night(other)
    other.close()
    store, tokens = _open(pg)
    trips: list[str] = []
    inner = store._run

    def counted(doing, fn, tx=True):
        trips.append(doing)
        return inner(doing, fn, tx)

    try:
        wait_for(lambda: store._fresh.epoch is not None, "the LISTEN connection is up")
        with TestClient(create_app(store, tokens, throttle=Throttle(limit=1000))) as c:
            page = c.get(f"/p/{link}").text  # warms the cache
            c.get(f"/p/{link}/view")
            store._run = counted
            assert c.get(f"/p/{link}/view").status_code == 200
            assert trips == []
            for path, data in (("act", {"skill": "验人", "target": "黑二"}), ("unact", {"skill": "验人"})):
                seq = store._fresh.known["g1"]
                r = c.post(f"/p/{link}/{path}", data={**data, "_csrf_token": csrf_of(page)})
                assert r.status_code == 200, r.text[:300]
                assert trips == ["writing"], trips
                trips.clear()
                wait_for(lambda s=seq: store._fresh.known.get("g1", (0, 0)) > s, "the write's own notification")
                assert c.get(f"/p/{link}/view").status_code == 200
                assert trips == []
    finally:
        store._run = inner
        store.close()


def test_requests_run_on_the_loop_on_sqlite_and_a_near_postgresql_with_its_cache(pg, tmp_path, monkeypatch):
    """site.runs_inline: SQLite always; PostgreSQL when it has the LISTEN cache and its round
    trip is under INLINE_ROUND_TRIP (this test's server is on this machine); a store without
    the cache, or a server slower than the bound, keeps worker threads."""
    from bansha.store.store import open_store
    from bansha_web import site
    from bansha_web.cli import _open

    lite = open_store(str(tmp_path / "g.db"))
    assert site.runs_inline(lite)
    lite.close()
    plain = open_store(pg)  # the CLI's kind: no LISTEN cache
    assert not site.runs_inline(plain)
    plain.close()
    served, _ = _open(pg)  # as `bansha serve` opens it
    try:
        assert site.runs_inline(served)
        monkeypatch.setattr(site, "INLINE_ROUND_TRIP", 0.0)  # as if the server were far away
        assert not site.runs_inline(served)
    finally:
        served.close()
