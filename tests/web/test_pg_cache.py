"""`bansha serve` on PostgreSQL answers a player's page from its cache while its LISTEN
connection says nothing changed: another server process's vote and its revocation of a link
reach this process's pages once notified (docs/web.md, docs/security.md). Needs a server
(BANSHA_TEST_PG; in CI a missing one fails, as tests/store's)."""

from __future__ import annotations

import time

import pytest
from bansha.model import ResolveEvent, VoteEvent
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
    from bansha.store import open_store
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
