"""Time ``bansha.engine.choices``: what every seat may do now (``all_choices``), per phase of a game
played with random valid actions, and the live count (``count_votes``), each as a multiple of a
floor measured in the same run on the same states: resolving the phase on a private copy (what
``count_votes`` does, and what the director's ``resolve`` costs).

    uv run python benchmarks/bench_choices.py [--ruleset qisha-xia] [--phases 12] [--reps 5]

The simulator asks the choices per seat per phase; ``status`` asks them once. Figures go to
docs/performance.md; nothing here is asserted in tests.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bansha.engine.choices import all_choices, count_votes
from bansha.engine.copies import copy_game
from bansha.engine.model import ResolveEvent
from bench_resolve import new_game, random_actions  # beside this script


def timed(fn, reps: int) -> float:
    best = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        best.append(time.perf_counter() - t)
    return min(best)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ruleset", default="qisha-xia")
    ap.add_argument("--seats", type=int, default=0)
    ap.add_argument("--phases", type=int, default=12)
    ap.add_argument("--reps", type=int, default=5)
    a = ap.parse_args()
    from bansha.engine.registry import find_manifest

    seats = a.seats or find_manifest(a.ruleset).tables[0].seats
    _, game = new_game(a.ruleset, seats, 7)
    rng = random.Random(7)
    rows = []
    for _ in range(a.phases):
        if game.winner is not None:
            break
        random_actions(game, rng)
        floor = timed(lambda: copy_game(game).resolve(), a.reps)
        listing = timed(lambda: all_choices(game), a.reps)
        count = timed(lambda: count_votes(game), a.reps) if game.phase.vote else None
        n = sum(len(v) for v in all_choices(game).values())
        rows.append((game.label, n, floor, listing, count))
        game.apply(ResolveEvent(phase=game.label))
    print(f"{a.ruleset}, {seats} seats: per phase, the floor is resolving it on a copy")
    print(f"{'phase':<14}{'skills':>7}{'resolve ms':>12}{'choices ms':>12}{'x floor':>9}{'count x floor':>15}")
    for label, n, floor, listing, count in rows:
        print(f"{label:<14}{n:>7}{floor * 1e3:>12.2f}{listing * 1e3:>12.2f}{listing / floor:>9.1f}"
              + (f"{count / floor:>15.2f}" if count is not None else f"{'—':>15}"))
    ratios = [listing / floor for _, _, floor, listing, _ in rows]
    per_seat = statistics.median(listing / seats for _, _, _, listing, _ in rows)
    print(f"median: all_choices = {statistics.median(ratios):.1f} x a phase's resolve; {per_seat * 1e6:.0f} µs a seat")


if __name__ == "__main__":
    main()
