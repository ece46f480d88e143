"""The on-disk game state between commands (bansha/store/statecache.py): a command that starts from
the state the previous one left must know exactly what a replay of the log knows, and a state
that is not the state of the log it reads (an undo, another database at the same path, edited
code, a damaged file) must never be used."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import msgspec
import pytest
from bansha.engine.engine import SILENT, Game
from bansha.show import views
from bansha.store import statecache
from bansha.store.store import Store

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "robustness"))
from random_games import RandomGame  # noqa: E402

RULESETS = ["qisha-xia", "m217", "light-shadow", "mafia-basic"]


@pytest.fixture(autouse=True)
def cache_dir(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("BANSHA_CACHE_DIR", str(folder))
    monkeypatch.delenv("BANSHA_NO_CACHE", raising=False)
    return folder


def command_store(url) -> Store:
    """A store as one CLI command opens it: nothing kept in memory, states kept on disk."""
    store = Store(url, logger=lambda _n: SILENT, cache=False)
    store.keep_states = True
    return store


def state(game: Game) -> dict:
    """Everything a game knows besides what it shares with its ruleset, comparable."""
    return {k: v for k, v in vars(game).items() if k not in statecache.SHARED}


def seen(game: Game) -> dict:
    """What the director and every player are shown."""
    return {"director": msgspec.json.encode(views.director_view(game)),
            **{n: msgspec.json.encode(views.player_view(game, n)) for n in game.players}}


def played(ref: str, seed: int) -> RandomGame:
    rg = RandomGame(ref, seed, day_limit=4)
    rg.play()
    return rg


@pytest.mark.parametrize("ref", RULESETS)
def test_commands_that_start_from_kept_states_end_where_a_replay_ends(ref, tmp_path):
    rg = played(ref, seed=5)
    assert len(rg.log) > 20, "a game long enough to matter"
    url = tmp_path / "games.db"
    Store(url, logger=lambda _n: SILENT).create("g", rg.setup)
    restored = 0
    real_restore = statecache._restored

    def counting(*a, **k):
        nonlocal restored
        hit = real_restore(*a, **k)
        restored += hit is not None
        return hit

    statecache._restored = counting
    try:
        for i, ev in enumerate(rg.log, start=1):
            command_store(url).append("g", ev)  # each event by a command of its own
            if i % 7 == 0 or i == len(rg.log):
                kept = command_store(url).load("g")
                replayed = Store(url, logger=lambda _n: SILENT, cache=False).load("g")
                assert state(kept) == state(replayed), f"after event {i}"
                assert seen(kept) == seen(replayed), f"after event {i}"
    finally:
        statecache._restored = real_restore
    # every command after the first started from the previous command's state
    assert restored >= len(rg.log) - 1


def test_an_undo_a_new_database_or_a_damaged_file_replays(tmp_path, cache_dir):
    rg = played("qisha-xia", seed=2)
    url = tmp_path / "games.db"
    store = command_store(url)
    store.create("g", rg.setup)
    for ev in rg.log[:30]:
        store.append("g", ev)
    files = list((cache_dir / "states").rglob("*.pickle"))
    assert 1 <= len(files) <= statecache.KEEP

    def straight():
        return Store(url, logger=lambda _n: SILENT, cache=False).load("g")

    # an undo: the newest kept state is after the dropped event, the one before it is used
    hits = []
    real = statecache._restored
    statecache._restored = lambda *a, **k: hits.append(real(*a, **k)) or hits[-1]
    try:
        command_store(url).undo("g")
        assert state(command_store(url).load("g")) == state(straight())
        assert hits[-1] is not None and hits[-1][1] == 29
        # and another event in its place: the state of the dropped one is not taken for it
        command_store(url).append("g", rg.log[29])
        assert hits[-1][1] == 29
        assert state(command_store(url).load("g")) == state(straight())
    finally:
        statecache._restored = real
    # another database at the same path, with the same game name and another log
    os.unlink(url)
    other = command_store(url)
    other.create("g", rg.setup)
    for ev in rg.log[:12]:
        other.append("g", ev)
    Store(url, logger=lambda _n: SILENT).undo("g")  # behind the cache's back: a plain store
    assert len(straight().applied) == 11
    assert state(command_store(url).load("g")) == state(straight())
    # a damaged file is a miss, never an error
    for f in (cache_dir / "states").rglob("*.pickle"):
        f.write_bytes(b"\x80\x05garbage")
    assert state(command_store(url).load("g")) == state(straight())
    for f in (cache_dir / "states").rglob("*.pickle"):
        f.write_bytes(b"")
    assert state(command_store(url).load("g")) == state(straight())


def test_edited_code_is_not_trusted(tmp_path, cache_dir, monkeypatch):
    rg = played("qisha-xia", seed=3)
    url = tmp_path / "games.db"
    store = command_store(url)
    store.create("g", rg.setup)
    for ev in rg.log[:10]:
        store.append("g", ev)
    hits = []
    real = statecache._restored
    monkeypatch.setattr(statecache, "_restored", lambda *a, **k: hits.append(real(*a, **k)) or hits[-1])
    command_store(url).load("g")
    assert hits[-1] is not None
    # a source file the state was computed with changes (its size or time): replayed
    src = Path(statecache.__file__)
    stamp = os.stat(src)
    try:
        os.utime(src, ns=(stamp.st_atime_ns, stamp.st_mtime_ns + 1_000_000_000))
        command_store(url).load("g")
        assert hits[-1] is None
    finally:
        os.utime(src, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))


def test_no_cache_writes_nothing(tmp_path, cache_dir, monkeypatch):
    monkeypatch.setenv("BANSHA_NO_CACHE", "1")
    rg = played("qisha-xia", seed=4)
    store = command_store(tmp_path / "games.db")
    store.create("g", rg.setup)
    for ev in rg.log[:5]:
        store.append("g", ev)
    assert not cache_dir.exists()


def test_a_state_holding_the_ruleset_is_not_kept(tmp_path, cache_dir):
    rg = played("qisha-xia", seed=4)
    store = command_store(tmp_path / "games.db")
    store.create("g", rg.setup)
    game, _ = store.append("g", rg.log[0])
    game.data["oops"] = game.ruleset  # a rule keeping what belongs to the command
    digest = statecache.LogDigest(b"x")
    for f in (cache_dir / "states").rglob("*.pickle"):
        f.unlink()
    statecache.save(store.url, "g", game, digest)
    assert not list((cache_dir / "states").rglob("*.pickle"))


def test_the_cli_reads_the_kept_state_and_says_the_same(tmp_path):
    """Real commands in subprocesses: with the cache and without it, the same output."""
    rg = played("qisha-xia", seed=6)
    db = tmp_path / "games.db"
    store = Store(db, logger=lambda _n: SILENT)
    store.create("g", rg.setup)
    for ev in rg.log[:40]:
        store.append("g", ev)
    exe = str(Path(sys.executable).parent / "bansha")
    base = {**os.environ, "BANSHA_DB": str(db)}
    first = subprocess.run([exe, "status", "g"], capture_output=True, text=True, env=base)
    assert first.returncode == 0, first.stderr
    assert list((tmp_path / "cache" / "states").rglob("*.pickle")), "status left the state"
    again = subprocess.run([exe, "status", "g"], capture_output=True, text=True, env=base)
    cold = subprocess.run([exe, "status", "g"], capture_output=True, text=True, env={**base, "BANSHA_NO_CACHE": "1"})
    assert first.stdout == again.stdout == cold.stdout
    name = rg.setup.players[0].name
    for cmd in (["status", "g", "--as", name], ["log", "g", "--explain"], ["export", "g", "--format", "json"]):
        warm = subprocess.run([exe, *cmd], capture_output=True, text=True, env=base)
        cold = subprocess.run([exe, *cmd], capture_output=True, text=True, env={**base, "BANSHA_NO_CACHE": "1"})
        assert warm.returncode == cold.returncode == 0, warm.stderr + cold.stderr
        assert warm.stdout == cold.stdout, cmd


def test_only_the_most_recently_written_games_and_environments_are_kept(tmp_path, cache_dir, monkeypatch):
    """A game deleted from its store, or a test's throwaway database, leaves its states behind;
    so does a removed virtual environment its entry points. Both caches keep only the most
    recently written, and a game whose states went replays (the same state)."""
    from bansha import entrypoints

    monkeypatch.setattr(statecache, "MAX_GAMES", 3)
    rg = played("mafia-basic", seed=1)
    stores, folders = [], []
    for i in range(5):
        url = tmp_path / f"g{i}.db"
        before = set((cache_dir / "states").iterdir()) if (cache_dir / "states").exists() else set()
        store = command_store(url)
        store.create("g", rg.setup)
        for ev in rg.log[:3]:
            store.append("g", ev)
        stores.append(url)
        folders += sorted(set((cache_dir / "states").iterdir()) - before)
        time.sleep(0.02)  # apart by more than the file system's clock step
    assert len(folders) == 5
    assert set((cache_dir / "states").iterdir()) == set(folders[2:])
    # the first game's folder went; it replays to the same state, and is kept again
    first = command_store(stores[0]).load("g")
    assert state(first) == state(Store(stores[0], logger=lambda _n: SILENT, cache=False).load("g"))
    command_store(stores[0]).append("g", rg.log[3])
    assert len(list((cache_dir / "states").iterdir())) == 3
    # entry points: one file per environment, the newest MAX_ENVIRONMENTS kept
    monkeypatch.setattr(entrypoints, "MAX_ENVIRONMENTS", 2)
    for i in range(4):
        entrypoints._write(str(cache_dir / f"entry-points-{i:08x}.marshal"), {"format": 0})
    assert sorted(p.name for p in cache_dir.glob("entry-points-*.marshal")) == [
        "entry-points-00000002.marshal", "entry-points-00000003.marshal"]
