"""Time CLI commands on a long stored game (as a director types them).

    uv run python benchmarks/bench_cli.py [--ruleset qisha-xia] [--seats N] [--phases 40] [--runs 10]

Builds a game of 40 phases (qisha-xia: 20 days; m217, 4 phases a day after 开局: ``--phases 41``
is 10 days) with random valid actions, the shared night kills left out so that it lasts, in a
temporary database (``--seats`` defaults to the manifest's first table), then runs
`bansha status`, `bansha status --as`, `bansha act` + `bansha unact` and `bansha --help` as
subprocesses and reports the median wall time of each.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bansha.registry import find_manifest  # noqa: E402
from bansha.store import Store  # noqa: E402
from bench_resolve import play  # noqa: E402


def timed(cmd: list[str], runs: int, env: dict) -> float:
    t = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, env=env)
        t.append(time.perf_counter() - t0)
    return statistics.median(t)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ruleset", default="qisha-xia")
    ap.add_argument("--seats", type=int, default=None, help="default: the manifest's first table")
    ap.add_argument("--phases", type=int, default=40, help="phases played (resolved) before timing")
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args()
    import structlog

    # building the game appends every event through the store, which logs it: keep that quiet
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(30))
    if args.seats is None:
        args.seats = find_manifest(args.ruleset).tables[0].seats
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "g.db"
        setup, log = play(args.ruleset, args.seats, 1, args.phases, shared=False)
        store = Store(db)
        store.create("long", setup)
        for ev in log:
            store.append("long", ev)
        game = store.load("long")
        loads = []
        for _ in range(5):
            t0 = time.perf_counter()
            store.load("long")
            loads.append(time.perf_counter() - t0)
        print(f"stored {args.ruleset} game of {args.seats} seats: {len(log)} events, now {game.label}"
              + (f", won by {game.winner}" if game.winner else ""))
        print(f"Store.load (read and replay the log, in process): median {statistics.median(loads) * 1e3:.0f} ms")
        env = {**os.environ, "BANSHA_DB": str(db)}
        exe = [sys.executable, "-m", "bansha.cli"]
        first = next(iter(game.players))
        rows = [
            ("bansha --help", [*exe, "--help"]),
            ("bansha status", [*exe, "status", "long"]),
            (f"bansha status --as {first}", [*exe, "status", "long", "--as", first]),
            ("bansha log --explain", [*exe, "log", "long", "--explain"]),
        ]
        for name, cmd in rows:
            print(f"{name}: median {timed(cmd, args.runs, env) * 1e3:.0f} ms over {args.runs} runs")


if __name__ == "__main__":
    main()
