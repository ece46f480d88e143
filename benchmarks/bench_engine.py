"""The engine alone on whole simulated games: the simulator's games replayed from their logs.

    uv run python benchmarks/bench_engine.py [--games 100] [--instructions]

``bansha simulate`` spends its time in two places: the engine (``Game.apply``: checks, casts,
resolutions) and the simulator (the legal choices, the policy's draws, the refused tries). Here
the games of ``bench_sim.py`` (20-seat qisha-xia, 14-seat m217, policy ``random``, seeds 0…) are
played once with their logs kept, then replayed: games per second of process CPU time of the
replay (best of three) is what the engine alone allows, the ceiling of the simulator's speed.

``--instructions`` counts instead, under valgrind's callgrind, the instructions of replaying 10 of
them (a run that loads the ruleset and replays none is subtracted): the same on a busy machine.
Figures go to docs/performance.md; nothing here is asserted in tests.
"""

from __future__ import annotations

import argparse
import pickle
import re
import subprocess
import sys
import tempfile
import time

BOARDS = [("qisha-xia", 20), ("m217", 14)]


def logs(board: str, seats: int, games: int) -> list:
    from bansha_sim.play import play_game

    out = []
    for seed in range(games):
        r = play_game(board, seats, seed, "random", keep=True)
        out.append((r["setup"], r["events"]))
    return out


def replay(games: list, n: int | None = None) -> None:
    from bansha.engine.engine import Game

    for setup, events in games[:n]:
        g = Game(setup)
        for ev in events:
            g.apply(ev)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--instructions", action="store_true")
    ap.add_argument("--replay", nargs=2, help=argparse.SUPPRESS)  # FILE N: the callgrind child
    args = ap.parse_args()
    if args.replay:
        from bansha.engine.engine import Game

        with open(args.replay[0], "rb") as f:
            games = pickle.load(f)
        Game(games[0][0])  # the ruleset is loaded in both runs: not counted
        replay(games, int(args.replay[1]))
        return
    import structlog

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(30))
    for board, seats in BOARDS:
        games = logs(board, seats, args.games if not args.instructions else 10)
        events = sum(len(e) for _, e in games)
        if args.instructions:
            with tempfile.NamedTemporaryFile(suffix=".pickle") as f:
                f.write(pickle.dumps(games))
                f.flush()
                counts = []
                for n in (0, len(games)):
                    cmd = [sys.executable, __file__, "--replay", f.name, str(n)]
                    subprocess.run(cmd, check=True)  # bytecode and caches warm
                    r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd],
                                       capture_output=True, text=True, check=True)
                    counts.append(int(re.search(r"Collected : (\d+)", r.stderr).group(1)))
            per = (counts[1] - counts[0]) / len(games)
            print(f"{board} ({seats} seats): replay of {len(games)} simulated games ({events} events): "
                  f"{per / 1e6:.1f} M instructions per game")
            continue
        replay(games, 1)
        best = float("inf")
        for _ in range(3):
            c0 = time.process_time()
            replay(games)
            best = min(best, time.process_time() - c0)
        print(f"{board} ({seats} seats): replay of {len(games)} simulated games ({events} events): "
              f"{len(games) / best:.1f} games per CPU-second")


if __name__ == "__main__":
    main()
