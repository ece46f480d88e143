"""Whole simulated games per CPU-second (``bansha simulate``'s speed), and --jobs 2 against
--jobs 1.

    uv run python benchmarks/bench_sim.py [--games 200] [--policy random] [--profile qisha-xia]

For each board (qisha-xia at 20 seats, m217 at 14, light-shadow at 12, mafia-basic at 20):
games per second of process CPU time in one process; then the wall-clock speed-up of two worker
processes over one on qisha-xia, and the CPU time both took (the parent's and its joined
workers'): on a loaded machine the wall figure says how many cores were free, the CPU ratio
what the forking and chunking cost. ``--profile RULESET`` prints where the time of one process goes
(cProfile, top functions by cumulative time). Targets (issue 15): 1,000 qisha-xia and 200 m217
games per second per core with ``random``; --jobs 2 at least 1.8 times --jobs 1. Figures go to
docs/performance.md; nothing here is asserted in tests.
"""

from __future__ import annotations

import argparse
import os
import time

BOARDS = [("qisha-xia", 20), ("m217", 14), ("light-shadow", 12), ("mafia-basic", 20)]


def handwritten_mafia(seats: int, mafia: int, seed: int) -> bool:
    """mafia-basic under random play as a plain loop (no engine, no plugins, no policy): the
    floor every figure is set against, measured in the same run. True: the mafia won."""
    import random

    rng = random.Random(seed)
    alive = list(range(seats))
    bad = set(rng.sample(alive, mafia))
    while True:
        votes: dict[int, int] = {}
        for p in alive:
            t = rng.choice([q for q in alive if q != p])
            votes[t] = votes.get(t, 0) + 1
        top = max(votes.values())
        out = rng.choice([q for q, n in votes.items() if n == top])
        alive.remove(out)
        bad.discard(out)
        if not bad:
            return False
        if len(bad) >= len(alive) - len(bad):
            return True
        alive.remove(rng.choice([q for q in alive if q not in bad]))
        if len(bad) >= len(alive) - len(bad):
            return True


def floor(games: int = 2000) -> float:
    """Games per CPU-second of ``handwritten_mafia`` at 20 seats, 4 mafia."""
    c0 = time.process_time()
    for s in range(games):
        handwritten_mafia(20, 4, s)
    return games / (time.process_time() - c0)


def main() -> None:
    import structlog
    from bansha_sim.play import play_game
    from bansha_sim.run import run

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(30))
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--policy", default="random")
    ap.add_argument("--profile", default=None)
    ap.add_argument("--skip-jobs", action="store_true")
    args = ap.parse_args()
    if args.profile:
        import cProfile
        import pstats

        seats = dict(BOARDS)[args.profile]
        pr = cProfile.Profile()
        pr.enable()
        for s in range(args.games):
            play_game(args.profile, seats, s, args.policy)
        pr.disable()
        pstats.Stats(pr).sort_stats("cumulative").print_stats(30)
        return
    base = floor()
    print(f"floor: a hand-written mafia-basic loop (20 seats, 4 mafia): {base:.0f} games per CPU-second "
          f"(load average {os.getloadavg()[0]:.1f})")
    for board, seats in BOARDS:
        play_game(board, seats, 10**6, args.policy)  # load the plugins first
        c0 = time.process_time()
        n = args.games if board != "light-shadow" else max(10, args.games // 10)
        for s in range(n):
            play_game(board, seats, s, args.policy)
        cpu = time.process_time() - c0
        print(f"{board} ({seats} seats, {args.policy}): {n / cpu:.1f} games per CPU-second ({n} games), "
              f"1/{base / (n / cpu):.0f} of the floor")
    if not args.skip_jobs:
        n = args.games * 2
        w, cpu = {}, {}
        for jobs in (1, 2, 1, 2):  # twice each, interleaved: the best of two under a varying load
            t0, c0 = time.perf_counter(), os.times()
            run("qisha-xia", 20, n, 0, args.policy, {}, 30, jobs=jobs)
            c1 = os.times()
            # the parent's CPU and the (joined) workers'
            c = sum(c1[:4]) - sum(c0[:4])
            w[jobs] = min(w.get(jobs, 1e9), time.perf_counter() - t0)
            cpu[jobs] = min(cpu.get(jobs, 1e9), c)
        print(f"qisha-xia {n} games: --jobs 1 {w[1]:.2f} s wall {cpu[1]:.2f} CPU-s; --jobs 2 {w[2]:.2f} s wall "
              f"{cpu[2]:.2f} CPU-s: wall speed-up {w[1] / w[2]:.2f}, CPU of two workers / one {cpu[2] / cpu[1]:.3f} "
              f"(load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
