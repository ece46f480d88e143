"""The store contract on both backends (``store_url``: SQLite and PostgreSQL): append,
conflict, undo, replay identity, writers in several processes, kill -9 during a write, watch,
many games, copying between stores."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import msgspec
import pytest
from bansha.engine.model import ActEvent, GameError, ResolveEvent, RulingEvent, VoteEvent
from bansha.show.views import director_view
from bansha.store.store import SCHEMA_VERSION, Conflict, Store, StoreError, open_store
from clirun import quiet

from .conftest import NAMES, toy_setup

HERE = Path(__file__).parent
WRITER = HERE / "writer.py"


def new(url, name="g", **kw):
    store = open_store(url, logger=quiet, **kw)
    store.create(name, toy_setup())
    return store


def announce(text):
    return lambda g: RulingEvent(phase=g.label, kind="announce", text=text)


def test_the_url_picks_the_backend(store_url):
    store = Store(store_url)  # the old spelling opens the backend of the URL too
    assert type(store).__name__ == ("SQLiteStore" if "://" not in store_url else "PostgresStore")
    assert store.schema_version() == SCHEMA_VERSION


def test_append_refuse_and_replay(store_url):
    store = new(store_url)
    game = store.load("g")
    killer = next(p.name for p in game.players.values() if p.role == "刀手")
    victim = next(p.name for p in game.players.values() if p.role == "平民")
    with pytest.raises(GameError):
        store.append("g", ActEvent(phase=game.label, actor="甲", skill="nothing"))
    assert store.events("g") == [] and store.last_seq("g") == 0  # a refused event is never stored
    store.append("g", ResolveEvent(phase="day 1"))
    store.append("g", ActEvent(phase="night 1", actor=killer, skill="刀", targets=[victim]))
    played, _ = store.append("g", ResolveEvent(phase="night 1"))
    again = open_store(store_url, logger=quiet).load("g")  # another process's view: a full replay
    assert director_view(again) == director_view(played)
    assert again.announcements == played.announcements and again.feedback == played.feedback
    assert [s for s, _ in store.numbered_events("g")] == [1, 2, 3]
    assert store.events("g", after=2) == store.events("g")[2:]
    # the resolve event keeps what was published, for the record
    assert store.events("g")[2].announcement == played.since((0, {}))[1] or store.events("g")[2].out


def test_undo_drops_one_event_and_an_unknown_game_is_named(store_url):
    store = new(store_url)
    store.append("g", ResolveEvent(phase="day 1"))
    store.append("g", announce("a"))
    assert isinstance(store.undo("g"), RulingEvent)
    assert store.load("g").label == "night 1" and store.last_seq("g") == 1
    store.undo("g")
    with pytest.raises(GameError, match="没有可撤销的事件"):
        store.undo("g")
    with pytest.raises(GameError, match="没有游戏 'nope'"):
        store.load("nope")
    with pytest.raises(GameError, match="已存在"):
        store.create("g", toy_setup())


def test_replace_setup_moves_every_cache_to_the_new_setup(store_url):
    """``bansha board reload``'s store primitive: the new set-up is stored under the write lock,
    a refusal of ``check`` stores nothing, and a second store's cached state is rebuilt from
    the new set-up (the undo count moved on)."""
    store = new(store_url)
    other = open_store(store_url, logger=quiet)
    store.append("g", ResolveEvent(phase="day 1"))
    assert other.load("g").manifest.name != "renamed"  # cached by the other store

    def refuse(setup_raw, rows):
        raise GameError("no")

    with pytest.raises(GameError, match="no"):
        store.replace_setup("g", refuse)
    assert store.setup("g").manifest.name != "renamed"

    def rename(setup_raw, rows):
        assert [seq for seq, _ in rows] == [1]
        old = msgspec.json.decode(setup_raw, type=type(store.setup("g")))
        return msgspec.structs.replace(old, manifest=msgspec.structs.replace(old.manifest, name="renamed"))

    store.replace_setup("g", rename)
    assert store.setup("g").manifest.name == "renamed"
    assert other.load("g").manifest.name == "renamed" and other.load("g").label == "night 1"
    store.append("g", announce("after"))
    assert store.last_seq("g") == 2


def test_append_all_stores_every_event_or_none(store_url):
    # act --file and votes import: one refused event stores none of the batch
    store = new(store_url)
    with pytest.raises(GameError):
        store.append_all("g", lambda g: [announce("a")(g), ActEvent(phase=g.label, actor="甲", skill="nothing")])
    assert store.last_seq("g") == 0
    game, _ = store.append_all("g", lambda g: [announce("a")(g), announce("b")(g), ResolveEvent(phase=g.label)])
    assert [s for s, _ in store.numbered_events("g")] == [1, 2, 3] and game.label == "night 1"
    assert director_view(open_store(store_url, logger=quiet).load("g")) == director_view(game)
    # the stored resolve keeps what it published, as a single append does
    assert isinstance(store.events("g")[2], ResolveEvent)


def test_undo_to_drops_every_event_after_a_point(store_url):
    store = new(store_url)
    for text in "abcd":
        store.append("g", announce(text))
    other = open_store(store_url, logger=quiet)
    other.load("g")  # a cached copy elsewhere must notice the undo
    gone = store.undo_to("g", 1)
    assert [e.text for e in gone] == ["b", "c", "d"] and store.last_seq("g") == 1
    other.append("g", announce("e"))
    assert [e.text for e in store.events("g")] == ["a", "e"]


def test_a_stale_writer_catches_up_instead_of_overwriting(store_url):
    a, b = new(store_url), open_store(store_url, logger=quiet)
    a.append("g", announce("a1"))  # a caches the game at seq 1
    b.append("g", announce("b1"))
    with pytest.raises(Conflict):  # the primitive refuses a stale sequence number
        a._append_raw("g", 1, 0, msgspec.json.encode(RulingEvent(phase="day 1", kind="announce", text="x")))
    game, _ = a.append("g", announce("a2"))  # a catches up from its cache and lands at 3
    assert [e.text for e in a.events("g")] == ["a1", "b1", "a2"]
    assert director_view(game) == director_view(b.load("g"))


def test_an_undo_then_an_append_is_not_mistaken_for_the_same_game(store_url):
    a, b = new(store_url), open_store(store_url, logger=quiet)
    a.append("g", announce("one"))  # a's cache: after event 1 ("one"), no undo
    b.undo("g")
    b.append("g", announce("other"))  # event 1 again, a different one
    game, _ = a.append("g", announce("two"))
    assert [e.text for e in a.events("g")] == ["other", "two"]
    assert [t for _, t in game.announcements] == [t for _, t in b.load("g").announcements]


def test_a_cached_game_is_not_shared_with_callers(store_url):
    store = new(store_url)
    g1 = store.load("g")
    g1.players.clear()  # a caller's changes stay in its copy
    g2, _ = store.append("g", announce("x"))
    assert len(g2.players) == len(NAMES)


def _spawn(url, *args):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE.parent / "kernel"), os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen([sys.executable, str(WRITER), url, *map(str, args)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_writers_in_several_processes(store_url):
    store = new(store_url)
    store.append("g", ResolveEvent(phase="day 1"))  # night 1: rulings only
    procs = [_spawn(store_url, "announce", f"p{i}", 15) for i in range(4)]
    # and every player votes in a new day twice at once: one of the two lands
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    events = store.events("g")
    assert len(events) == 1 + 4 * 15 and store.last_seq("g") == 61
    assert [s for s, _ in store.numbered_events("g")] == list(range(1, 62))
    for i in range(4):  # each writer's own order is kept
        mine = [e.text for e in events[1:] if e.text.startswith(f"p{i}-")]
        assert mine == [f"p{i}-{k}" for k in range(15)]
    store.load("g")


def test_the_same_vote_twice_at_once_lands_once(store_url):
    store = new(store_url)
    procs = [_spawn(store_url, "vote", "甲", "乙") for _ in range(3)]
    procs += [_spawn(store_url, "vote", voter, "甲") for voter in NAMES[1:4]]
    outs = [p.communicate(timeout=120)[0] for p in procs]
    assert sum("ok" in o for o in outs) == 4 and sum("already voted" in o for o in outs) == 2, outs
    assert len(store.events("g")) == 4


def test_kill_9_during_writes_leaves_the_game_before_or_after(store_url):
    store = new(store_url)
    store.append("g", ResolveEvent(phase="day 1"))
    for round_ in range(3):
        p = _spawn(store_url, "announce", f"k{round_}", 100000)
        # let it write for a while, then kill it at an arbitrary point of a write
        p.stdout.readline()
        time.sleep(0.2 + 0.13 * round_)
        p.send_signal(signal.SIGKILL)
        p.wait(30)
        fresh = open_store(store_url, logger=quiet)
        numbered = fresh.numbered_events("g")
        # every stored event is whole, numbered without a gap, and the game row agrees
        assert [s for s, _ in numbered] == list(range(1, len(numbered) + 1))
        assert fresh.last_seq("g") == len(numbered)
        fresh.load("g")
        fresh.append("g", announce(f"after kill {round_}"))  # and the store takes writes
    assert len(store.events("g")) > 4


def test_watch_yields_events_as_they_land(store_url):
    store = new(store_url)
    store.append("g", announce("before"))
    got = []
    seen = threading.Semaphore(0)

    def write():
        # each change waits until the watcher has reported the one before: a watcher reports
        # what it finds when it looks (an event appended and undone in between is not news)
        w = open_store(store_url, logger=quiet)
        time.sleep(0.2)
        w.append("g", announce("w1"))
        assert seen.acquire(timeout=10)
        w.append("g", announce("w2"))
        assert seen.acquire(timeout=10)
        w.undo("g")

    t = threading.Thread(target=write)
    t.start()
    for seq, ev in open_store(store_url, logger=quiet).watch("g", after=1, timeout=5):
        got.append((seq, ev.text if ev else None))
        seen.release()
        if len(got) == 3:
            break
    t.join()
    assert got == [(2, "w1"), (3, "w2"), (3, None)]
    # from 0: what is already there first
    first = next(iter(store.watch("g", after=0, timeout=1)))
    assert first[0] == 1 and first[1].text == "before"
    # a watch with nothing new ends after its timeout
    assert list(store.watch("g", after=2, timeout=0.2)) == []


def test_listing_and_loading_do_not_grow_with_the_number_of_games(store_url):
    """1,000 stored games: loading one and listing a page cost what they cost with 10
    (SQLite: virtual machine steps; PostgreSQL: buffers touched, both from the engine)."""
    setup = msgspec.json.encode(toy_setup())
    ev = msgspec.json.encode(RulingEvent(phase="day 1", kind="announce", text="x"))
    costs = {}
    for total in (10, 1000):
        url = store_url if total == 10 else _fresh_twin(store_url, total)
        store = open_store(url, logger=quiet)
        for i in range(total):
            store.import_raw(f"g{i:04}", setup, [ev] * 5)
        costs[total] = _cost(store, lambda s=store: (s.load("g0005"), s.names(limit=20, after="g0003")))
        assert len(store.names()) == total
        assert store.names(limit=3, after="g0003") == ["g0004", "g0005", "g0006"]
    assert costs[1000] <= 2 * costs[10] + 50, costs


_twins = []


def _fresh_twin(url, n):
    if "://" not in url:
        return str(Path(url).with_name(f"games{n}.db"))
    import uuid

    import psycopg

    base = url.split("?")[0]
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    from .conftest import with_schema

    return with_schema(base, schema)


def _cost(store, op) -> int:
    if hasattr(store, "db"):  # SQLite: count virtual machine instructions, 100 at a time
        steps = [0]

        def tick():
            steps[0] += 1
            return 0

        op()  # warm: the first read of a connection loads the schema
        store.db.set_progress_handler(tick, 100)
        op()
        store.db.set_progress_handler(None, 100)
        return steps[0]
    # PostgreSQL: the blocks the read queries touch
    import json

    total = 0
    with store.connection() as conn:
        for q, args in (("SELECT g.setup, g.last_seq, g.undos, e.seq, e.event FROM games g LEFT JOIN events e"
                         " ON e.game = g.name AND e.seq > 0 WHERE g.name = %s ORDER BY e.seq", ("g0005",)),
                        ("SELECT name FROM games WHERE (created, name) > (SELECT created, name FROM games WHERE name=%s)"
                         " ORDER BY created, name LIMIT 20", ("g0003",))):
            conn.execute("ANALYZE games; ANALYZE events")
            plan = conn.execute("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + q, args).fetchone()[0]
            plan = plan if isinstance(plan, list) else json.loads(plan)
            top = plan[0]["Plan"]
            total += top.get("Shared Hit Blocks", 0) + top.get("Shared Read Blocks", 0)
    return total


def test_a_copied_game_replays_to_the_same_state(store_url, tmp_path):
    src = new(store_url)
    game = src.load("g")
    killer = next(p.name for p in game.players.values() if p.role == "刀手")
    src.append("g", VoteEvent(phase="day 1", voter="甲", target="乙"))
    src.append("g", ResolveEvent(phase="day 1"))
    src.append("g", lambda g: ActEvent(phase=g.label, actor=killer, skill="刀", targets=[next(n for n in NAMES if n != killer and g.players[n].alive)]))
    played, _ = src.append("g", ResolveEvent(phase="night 1"))
    other = str(tmp_path / "other.db") if "://" in store_url else _other_pg()
    dst = open_store(other, logger=quiet)
    dst.import_raw("g", *src.export_raw("g"))
    assert dst.export_raw("g") == src.export_raw("g")  # event for event, byte for byte
    assert director_view(dst.load("g")) == director_view(played)
    assert dst.load("g").announcements == played.announcements


def _other_pg():
    from .conftest import pg_url_or_skip

    return _fresh_twin(pg_url_or_skip() + "?x", 0)


def test_store_errors_are_one_line(store_url, tmp_path):
    store = new(store_url)
    with pytest.raises(StoreError, match="没有处理 nosuch:// 地址的数据库后端"):
        open_store("nosuch://x")
    with pytest.raises(StoreError, match="为空"):
        open_store("")
    assert store.names() == ["g"]


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-q"]))


def test_the_locked_round_refuses_and_catches_up_like_the_optimistic_one(store_url):
    """A writer that lost the race takes the game's lock for its rebuild: force that round."""
    a, b = new(store_url), open_store(store_url, logger=quiet)
    a.optimistic_tries = 0
    a.append("g", announce("a1"))
    b.append("g", announce("b1"))
    game, _ = a.append("g", announce("a2"))  # caught up inside the lock
    with pytest.raises(GameError):
        a.append("g", ActEvent(phase=game.label, actor="甲", skill="nothing"))
    assert [e.text for e in b.events("g")] == ["a1", "b1", "a2"]
    assert director_view(game) == director_view(b.load("g"))
    b.append("g", announce("b2"))  # the refused round left no lock behind


def test_threads_sharing_one_store(store_url):
    """A web server's threads share one store object: every write lands, once."""
    new(store_url)
    # PostgreSQL: a pool of connections, as a server would open it
    store = open_store(store_url, logger=quiet, **({"pool_size": 4} if "://" in store_url else {}))
    errors = []

    def write(k):
        try:
            for i in range(10):
                store.append("g", announce(f"t{k}-{i}"))
        except Exception as exc:  # reported below, with the thread's failure
            errors.append(repr(exc))

    threads = [threading.Thread(target=write, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    assert sorted(e.text for e in store.events("g")) == sorted(f"t{k}-{i}" for k in range(4) for i in range(10))
    assert [s for s, _ in store.numbered_events("g")] == list(range(1, 41))
    store.close()


# ------------------------------------------------- peek, append(shared=True), meta records

def _state(game):
    """Everything a game holds that a write may change, as plain data."""
    return msgspec.to_builtins({"players": list(game.players.values()), "actions": game.actions, "ballots": game.ballots,
                                "feedback": game.feedback, "announcements": game.announcements, "label": game.label,
                                "applied": game.applied, "trace": game.trace})


def test_peek_is_the_cached_state_without_a_copy_and_follows_other_writers(store_url):
    a, b = new(store_url), open_store(store_url, logger=quiet)
    first = a.peek("g")
    assert a.peek("g") is first  # nothing new: the same object, no copy
    before = _state(first)
    b.append("g", announce("from b"))  # another process writes
    second = a.peek("g")
    assert second is not first and [t for _, t in second.announcements][-1:] == ["from b"]
    assert _state(first) == before  # a state handed out by peek is never changed afterwards
    g, _ = a.append("g", announce("from a"), shared=True)
    assert a.peek("g") is g  # append(shared=True) hands out the cached state itself
    assert _state(second) != _state(g) and [t for _, t in g.announcements][-2:] == ["from b", "from a"]
    assert _state(g) == _state(b.load("g"))  # the same as a replay from the log
    # load still gives a private copy: changing it changes nothing cached
    mine = a.load("g")
    mine.players.clear()
    assert len(a.peek("g").players) == len(NAMES)


def test_peek_without_the_cache_is_a_replay(store_url):
    store = new(store_url, cache=False)
    store.append("g", announce("x"))
    assert _state(store.peek("g")) == _state(store.load("g"))
    with pytest.raises(GameError):
        store.peek("nope")


def test_meta_records_are_shared_by_every_store_and_one_transaction(store_url):
    a, b = new(store_url), open_store(store_url, logger=quiet)
    a.set_meta({"web.x": "1", "web.y": "二"})
    assert b.get_meta(["web.x", "web.y", "web.z"]) == {"web.x": "1", "web.y": "二"}
    b.set_meta({"web.x": None, "web.y": "三"})  # delete one, replace the other
    assert a.get_meta(["web.x", "web.y"]) == {"web.y": "三"}
    assert a.get_meta([]) == {}
    many = {f"web.k{i}": str(i) for i in range(1200)}  # more than one query's worth of keys
    a.set_meta(many)
    assert b.get_meta(list(many)) == many
    for bad in ("schema", "nodot"):  # the store's own key, a key without an application's prefix
        with pytest.raises(StoreError):
            a.set_meta({bad: "x"})
    assert a.schema_version() == SCHEMA_VERSION and open_store(store_url).schema_version() == SCHEMA_VERSION


def test_a_phase_input_written_leaves_every_earlier_state_as_it_was(store_url):
    """A vote, an action that waits for the resolution and a withdrawal are written on a copy
    that shares the cached players and history (``store._copy_for``): every state handed out
    before stays as it was, and the cached state after each write is what a replay gives."""
    from bansha.engine.choices import seat_choices, vote_choices
    from bansha.engine.model import ActEvent, ResolveEvent, UnactEvent, VoteEvent

    a, b = new(store_url), open_store(store_url, logger=quiet)
    written: set[str] = set()
    handed_out = []  # (a state peek gave, what it held then)
    for _ in range(8):
        g = a.peek("g")
        inputs = []
        for name in g.players:
            for c in seat_choices(g, name):
                if c.targets and c.min_targets <= 1 and not c.immediate and not c.args:
                    inputs += [ActEvent(phase=g.label, actor=name, skill=c.skill, targets=[c.targets[-1]]),
                               UnactEvent(phase=g.label, actor=name, skill=c.skill),
                               ActEvent(phase=g.label, actor=name, skill=c.skill, targets=[c.targets[0]])]
            votes = vote_choices(g, name)
            if votes:
                inputs.append(VoteEvent(phase=g.label, voter=name, target=votes[0]))
        for ev in inputs:
            before = a.peek("g")
            handed_out.append((before, _state(before)))
            a.append("g", ev)
            written.add(type(ev).__name__)
            assert _state(a.peek("g")) == _state(b.load("g"))
        for state, then in handed_out:
            assert _state(state) == then
        if a.peek("g").winner is not None:
            break
        a.append("g", lambda g: ResolveEvent(phase=g.label))
    assert written >= {"ActEvent", "UnactEvent", "VoteEvent"}
