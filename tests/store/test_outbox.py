"""The store's outbox on both backends (``store_url``): what a game sends outside is recorded
before it is sent, once per key, in order; a message's state moves only forward and only from
the state the sender read; an older store gains the table by ``upgrade``."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest
from bansha.engine.model import GameError
from bansha.store.store import SCHEMA_VERSION, StoreError, open_store
from clirun import quiet

from .conftest import toy_setup


def test_a_key_is_recorded_once_and_in_the_order_planned(store_url):
    store = open_store(store_url, logger=quiet)
    store.create("g", toy_setup())
    store.create("h", toy_setup())
    rows = store.outbox_add("g", [("post:夜 1", '{"a": 1}'), ("pm:夜 1:1", '{"b": 2}')])
    assert [(r.key, r.n, r.state, r.tries) for r in rows] == [("post:夜 1", 1, "pending", 0), ("pm:夜 1:1", 2, "pending", 0)]
    # planned again, with a new message and a changed text for an old key: the old row stands
    rows = store.outbox_add("g", [("pm:夜 1:1", '{"b": "changed"}'), ("pm:夜 1:2", '{"c": 3}')])
    assert [(r.key, r.n, r.message) for r in rows] == [("post:夜 1", 1, '{"a": 1}'), ("pm:夜 1:1", 2, '{"b": 2}'),
                                                        ("pm:夜 1:2", 3, '{"c": 3}')]
    assert store.outbox("h") == []  # another game's outbox is its own
    assert [r.key for r in open_store(store_url, logger=quiet).outbox("g")] == ["post:夜 1", "pm:夜 1:1", "pm:夜 1:2"]


def test_a_state_moves_only_from_the_state_read(store_url):
    store = open_store(store_url, logger=quiet)
    store.create("g", toy_setup())
    store.outbox_add("g", [("k", "{}")])
    assert store.outbox_mark("g", "k", "sending", expect=("pending",))
    assert not store.outbox_mark("g", "k", "sending", expect=("pending",))  # a second sender read "pending" too: refused
    assert store.outbox_mark("g", "k", "sending")  # a retry counts a try
    assert store.outbox_mark("g", "k", "sent", remote="4711")
    row = store.outbox("g")[0]
    assert (row.state, row.remote, row.tries) == ("sent", "4711", 2) and row.updated
    assert not store.outbox_mark("g", "k", "pending")  # a sent message stays sent
    assert not store.outbox_mark("g", "missing", "sent", remote="1")
    with pytest.raises(StoreError):
        store.outbox_mark("g", "k", "lost")
    with pytest.raises(StoreError):
        store.outbox_add("g", [("", "{}")])
    with pytest.raises(GameError):
        store.outbox("nobody")


ADDER = """
import sys
from bansha.store.store import open_store
store = open_store(sys.argv[1])
for i in range(40):
    store.outbox_add("g", [(f"k{i}", sys.argv[2]), (f"k{i + 1}", sys.argv[2])])
"""


def test_two_processes_planning_at_once_record_each_key_once(store_url):
    store = open_store(store_url, logger=quiet)
    store.create("g", toy_setup())
    procs = [subprocess.Popen([sys.executable, "-c", ADDER, store_url, who]) for who in ("a", "b")]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    rows = store.outbox("g")
    assert sorted(r.key for r in rows) == sorted(f"k{i}" for i in range(41))
    assert [r.n for r in rows] == list(range(1, 42))  # numbered without a gap or a repeat


def test_a_schema_2_store_gains_the_outbox_by_upgrade(tmp_path):
    db = tmp_path / "old.db"
    store = open_store(db, logger=quiet)
    store.create("g", toy_setup())
    store.close()
    con = sqlite3.connect(db)
    con.execute("DROP TABLE outbox")
    con.execute("UPDATE meta SET value='2' WHERE key='schema'")
    con.commit()
    con.close()
    old = open_store(db, logger=quiet)
    assert old.schema_version() == 2
    assert old.upgrade() == (2, SCHEMA_VERSION)
    old.outbox_add("g", [("k", "{}")])
    assert [r.key for r in open_store(db, logger=quiet).outbox("g")] == ["k"]


def test_a_schema_2_postgresql_store_gains_the_outbox_by_upgrade(pg_url):
    import psycopg

    store = open_store(pg_url, logger=quiet)
    store.create("g", toy_setup())
    store.close()
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("DROP TABLE outbox")
        conn.execute("UPDATE bansha_meta SET value='2' WHERE key='schema'")
    old = open_store(pg_url, logger=quiet)
    assert old.schema_version() == 2
    with pytest.raises(StoreError):
        old.outbox("g")  # an old store is refused with the way out, as every use refuses it
    assert old.upgrade() == (2, SCHEMA_VERSION)
    old.outbox_add("g", [("k", "{}")])
    assert [r.key for r in open_store(pg_url, logger=quiet).outbox("g")] == ["k"]
