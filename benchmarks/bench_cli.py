"""Time CLI commands on a long stored game (as a director types them).

    uv run python benchmarks/bench_cli.py [--ruleset qisha-xia] [--runs 10]

Builds a game of 20 days (40 phases, the shared night kills left out so that it lasts) with random valid actions in a temporary database, then runs
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
    ap.add_argument("--seats", type=int, default=20)
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "g.db"
        setup, log = play(args.ruleset, args.seats, 1, 40, shared=False)
        store = Store(db)
        store.create("long", setup)
        for ev in log:
            store.append("long", ev)
        game = store.load("long")
        print(f"stored game: {len(log)} events, now {game.label}")
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
