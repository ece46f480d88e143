"""``kill -9`` during ``bansha forum push --yes`` at every step, in a real subprocess, then push
again: every message of the phase is on the forum exactly once and the outbox holds its
pid/pmid. The stand-in forum kills the client as each request arrives (before a write is taken:
the store said "sending", the forum has nothing) and, for each write, after the forum stored it
and before it answers (the forum has it, the store does not know) — and once more during the
second push's own reconciling, for a third push to finish."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from bansha.store.store import open_store
from clirun import settled_bytes
from forumserver import discuz_site

from .game import TID, link, linked, new_game, play, site_with_players

BANSHA = str(Path(sys.executable).with_name("bansha"))


def _push(db: Path, site, kill_at=None, args: tuple[str, ...] = ()) -> subprocess.CompletedProcess | None:
    """``bansha forum push g --yes [ARGS]`` in a subprocess; ``kill_at`` = (request number or
    module, when): the forum kills it there with SIGKILL (a module: at its first request). None
    when it was killed."""
    proc = subprocess.Popen([BANSHA, "forum", "push", "g", "--yes", *args, "--db", str(db)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    killed = []

    def hook(n, module, when):
        if kill_at is not None and not killed and kill_at in ((n, when), (module, when)):
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            killed.append(module)
            return True
        return False

    site.hook = hook
    out, err = proc.communicate(timeout=120)
    site.hook = None
    if killed:
        assert proc.returncode == -signal.SIGKILL
        return None
    assert proc.returncode == 0, out + err
    return subprocess.CompletedProcess(proc.args, 0, out, err)


def _each_once(db, site) -> list[str]:
    rows = [(r.key, r.state, r.remote, r.message) for r in open_store(str(db)).outbox("g")]
    on_forum = [p["message"] for p in site.threads[TID]["posts"]] + [p["message"] for p in site.pms]
    for key, state, remote, message in rows:
        token = re.search(r'"token": "([0-9a-f]+)"', message).group(1)
        assert sum(token in m for m in on_forum) == 1, key
        assert state == "sent" and remote, key
    # nothing on the forum that the outbox does not know
    assert sum("〔编号 " in m for m in on_forum) == len(rows)
    return [k for k, *_ in rows]


def test_kill_9_at_every_step_of_a_push_then_push_again_sends_each_message_once(tmp_path):
    with linked(tmp_path) as (db, site, base):
        site.count, site.requests = 0, []
        start_db, start_site = settled_bytes(db), site.snapshot()
        # a push that is not killed: its requests are the steps
        assert _push(db, site) is not None
        keys = _each_once(db, site)
        steps = list(site.requests)
        writes = [i for i, (_m, module) in enumerate(steps, start=1) if module in ("sendreply", "sendpm")]
        assert len(writes) == len(keys) >= 5
        points = [(i, "before") for i in range(1, len(steps) + 1)] + [(i, "after") for i in writes]
        for point in points:
            db.write_bytes(start_db)
            for extra in ("-wal", "-shm"):
                Path(f"{db}{extra}").unlink(missing_ok=True)
            site.restore(start_site)
            assert _push(db, site, kill_at=point) is None, point
            second = _push(db, site)
            assert second is not None and "发送完毕" in second.stdout, point
            assert _each_once(db, site) == keys, point
            if point[1] == "after":  # the message the forum took unrecorded is found, not sent again
                assert "记为已发送，不重发" in second.stdout, point


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        yield tmp_path / "games.db"
        return
    from pgschema import pg_schema

    with pg_schema("door") as url:
        yield url


def test_killed_again_while_reconciling_then_a_third_push_finishes(tmp_path, db_url):
    """On both stores: the outbox is the store's, SQLite's or PostgreSQL's."""
    db = new_game(tmp_path, db=db_url)
    play(db, 3)
    site = site_with_players()
    with discuz_site(site) as base:
        link(db, tmp_path, site, base)
        assert _push(db, site, kill_at=("sendpm", "after")) is None  # the first PM taken, not recorded
        assert _push(db, site, kill_at=("mypm", "before")) is None  # the second push's reconciling read
        third = _push(db, site)
        assert third is not None and "记为已发送，不重发" in third.stdout
        _each_once(db, site)
