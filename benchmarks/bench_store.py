"""The store under contention (docs/store.md, docs/performance.md): writers in separate
processes appending to one game, readers loading it meanwhile, on each backend.

    uv run python benchmarks/bench_store.py [--pg postgresql://…] [--writers 1,4,8,16] [--writes 50]
        [--readers 4] [--events 120] [--games 1000]

Each writer process opens its own store and appends ``--writes`` director's rulings (always
valid, so every write lands) to one stored qisha-xia game that already holds ``--events``
events; a write's latency is the wall time of ``Store.append`` (rebuild, apply, store, with
its waits and retries). With 16 writers, ``--readers`` processes load the game in a loop
meanwhile. A failed write or read is counted with its message, not raised. Then 1,000 games:
the time to load one game and to list a page with 10 stored games and with ``--games``.

``--pg`` (or BANSHA_TEST_PG) adds PostgreSQL; without it only SQLite is measured. The script
runs against whichever bansha its interpreter imports, so the same file measures an older
checkout (``/path/to/old/.venv/bin/python benchmarks/bench_store.py``).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))


class Quiet:
    def info(self, *a, **k):
        pass

    debug = warning = info


def quiet(_name):
    return Quiet()


def _store(url):
    from bansha.store.store import Store

    try:
        return Store(url, logger=quiet)
    except TypeError:  # an older Store took a path
        return Store(Path(url), logger=quiet)


def _writer(url, who, writes, start, out):
    from bansha.engine.model import RulingEvent

    store = _store(url)
    lat, errors = [], []
    start.wait()
    for i in range(writes):
        t0 = time.perf_counter()
        try:
            store.append("g", lambda g, i=i: RulingEvent(phase=g.label, kind="announce", text=f"{who}-{i}"))
            lat.append(time.perf_counter() - t0)
        except Exception as exc:  # counted, not raised: the figure is how many fail
            errors.append(f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
    out.put(("w", lat, errors))


def _reader(url, stop, out):
    store = _store(url)
    n, errors = 0, []
    while not stop.is_set():
        try:
            store.load("g")
            n += 1
        except Exception as exc:
            errors.append(f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
    out.put(("r", n, errors))


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))] if xs else float("nan")


def contention(url, setup, log, writers, writes, readers):
    store = _store(url)
    store.create("g", setup)
    for ev in log:
        store.append("g", ev)
    ctx = multiprocessing.get_context("fork")
    start, stop, out = ctx.Event(), ctx.Event(), ctx.Queue()
    ws = [ctx.Process(target=_writer, args=(url, f"w{k}", writes, start, out)) for k in range(writers)]
    rs = [ctx.Process(target=_reader, args=(url, stop, out)) for _ in range(readers)]
    for p in ws + rs:
        p.start()
    time.sleep(0.5)  # every process has opened its store
    t0 = time.perf_counter()
    start.set()
    results = [out.get(timeout=600) for _ in ws]
    wall = time.perf_counter() - t0
    stop.set()
    results += [out.get(timeout=60) for _ in rs]
    for p in ws + rs:
        p.join(60)
    lat = [x for kind, xs, _ in results if kind == "w" for x in xs]
    errors = [e for _, _, es in results for e in es]
    reads = sum(n for kind, n, _ in results if kind == "r")
    stored = len(_store(url).events("g")) - len(log)
    return {"writers": writers, "readers": readers, "writes/s": len(lat) / wall, "p50": pct(lat, 50),
            "p95": pct(lat, 95), "max": max(lat, default=float("nan")), "failed": len(errors),
            "stored": stored, "asked": writers * writes, "reads": reads, "errors": sorted(set(errors))[:3]}


def many_games(url_of, setup, events, total):
    import msgspec

    store = _store(url_of(total))
    raw = msgspec.json.encode(setup)
    evs = [msgspec.json.encode(e) for e in events]
    if hasattr(store, "import_raw"):
        for i in range(total):
            store.import_raw(f"g{i:04}", raw, evs)
    else:  # an older store: its own API, one game at a time
        for i in range(total):
            store.create(f"g{i:04}", setup)
            for e in events:
                store.append(f"g{i:04}", e)
    name = f"g{total // 2:04}"
    loads, lists = [], []
    for _ in range(20):
        t0 = time.perf_counter()
        store.load(name)
        loads.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        store.names(limit=20) if "limit" in store.names.__code__.co_varnames else store.names()
        lists.append(time.perf_counter() - t0)
    return statistics.median(loads), statistics.median(lists)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pg", default=os.environ.get("BANSHA_TEST_PG", ""), help="a postgresql:// URL (default: BANSHA_TEST_PG)")
    ap.add_argument("--writers", default="1,4,8,16")
    ap.add_argument("--writes", type=int, default=50)
    ap.add_argument("--readers", type=int, default=4)
    ap.add_argument("--events", type=int, default=120, help="events stored in the game before the writers start")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--only", choices=["sqlite", "postgresql"], default=None)
    args = ap.parse_args()
    from bench_resolve import play

    setup, log = play("qisha-xia", 20, 1, 40, shared=False)
    log = log[: args.events]
    import bansha.store.store as st

    print(f"bansha store: {st.__file__}; game: qisha-xia, 20 seats, {len(log)} events before the writers")
    with tempfile.TemporaryDirectory() as tmp:
        backends = []
        if args.only in (None, "sqlite"):
            backends.append(("sqlite", lambda tag: str(Path(tmp) / f"{tag}.db")))
        if args.pg and args.only in (None, "postgresql"):
            import psycopg

            def pg(tag, base=args.pg):
                schema = f"bench_{uuid.uuid4().hex[:10]}"
                with psycopg.connect(base, autocommit=True) as c:
                    c.execute(f"CREATE SCHEMA {schema}")
                return f"{base}{'&' if '?' in base else '?'}options=-csearch_path%3D{schema}"

            backends.append(("postgresql", pg))
        for backend, url_of in backends:
            print(f"\n## {backend}")
            print("| writers | readers | writes/s | p50 | p95 | max | failed | stored/asked | reads |")
            print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
            for n in map(int, args.writers.split(",")):
                readers = args.readers if n == 16 else 0
                r = contention(url_of(f"w{n}"), setup, log, n, args.writes, readers)
                print(f"| {n} | {readers} | {r['writes/s']:.0f} | {r['p50'] * 1e3:.0f} ms | {r['p95'] * 1e3:.0f} ms | "
                      f"{r['max'] * 1e3:.0f} ms | {r['failed']} | {r['stored']}/{r['asked']} | {r['reads']} |"
                      + (f" {r['errors']}" if r["errors"] else ""), flush=True)
            small = many_games(url_of, setup, log[:30], 10)
            big = many_games(url_of, setup, log[:30], args.games)
            print(f"\nload one 30-event game: {small[0] * 1e3:.1f} ms with 10 games stored, {big[0] * 1e3:.1f} ms with {args.games}; "
                  f"list a page of 20: {small[1] * 1e3:.2f} ms / {big[1] * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
