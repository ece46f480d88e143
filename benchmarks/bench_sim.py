"""Whole simulated games per CPU-second (``bansha simulate``'s speed), and --jobs 2 against
--jobs 1.

    uv run python benchmarks/bench_sim.py [--games 200] [--policy random] [--profile qisha-xia]

For each board (qisha-xia at 20 seats, m217 at 14, light-shadow at 12, mafia-basic at 20):
games per second of process CPU time in one process; then the wall-clock speed-up of two worker
processes over one on qisha-xia, and the CPU time both took (the parent's and its joined
workers'): on a loaded machine the wall figure says how many cores were free, the CPU ratio
what the forking and chunking cost. ``--profile RULESET`` prints where the time of one process goes
(cProfile, top functions by cumulative time). Targets (issues 15 and 25): 1,000 qisha-xia, 200
m217 and 100 light-shadow games per second per core with ``random``; --jobs 2 at least 1.8 times
--jobs 1. Beside each board's figure: events a game, the policies' picks the engine's check ruled
out before sending and the picks sent and refused (0: the policies choose from the one listing,
``bansha.engine.choices``), the share of the time in the listing, the policies and the rest (the
engine, the deal, the loop), and the engine alone: the recorded games' events replayed through a
new game, no listing and no policy, the ceiling the engine allows. Figures go to
docs/performance.md; nothing here is asserted in tests.
"""

from __future__ import annotations

import argparse
import contextlib
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


@contextlib.contextmanager
def timed_parts(spent: dict):
    """Add to ``spent`` the time of the listing (what the policies choose from:
    ``play._choices``, ``play.vote_choices``; for a policy of one pick, ``play.vote_test`` and the
    targets its questions ask, ``SkillTest.first`` and ``VoteTest.first``) and of the policies'
    decisions (their reading of the seat's view included, the questions they ask not), measured
    around each call while the block runs. Timed in the thread's CPU time (``time.thread_time``),
    as the games are (process CPU time): a wall clock counted the time the process waited for a
    core on a loaded machine, so the shares moved with the load (issue 33, pass 5: mafia-basic's
    listing read 44 % and 66 % of the same games in two runs at a load average of 4)."""
    from bansha.engine import choices
    from bansha_sim import play

    inside = []  # the decision being timed, while it runs

    def timing(fn, key):
        def wrapped(*a, **kw):
            t = time.thread_time()
            if key == "policy":
                inside.append(key)
            try:
                return fn(*a, **kw)
            finally:
                dt = time.thread_time() - t
                spent[key] += dt
                if key == "policy":
                    inside.pop()
                elif inside:
                    spent["policy"] -= dt  # a question the policy asked: the listing's time
        return wrapped

    saved = play._choices, play.vote_choices, play.vote_test, play._policy, choices.SkillTest.first, choices.VoteTest.first
    policy = play._policy

    def wrapped_policy(name):
        pol = policy(name)

        class Timed:
            decide = staticmethod(timing(pol.decide, "policy"))
            ruling = staticmethod(pol.ruling)
            one_pick = pol.one_pick
        return Timed

    play._choices = timing(play._choices, "listing")
    play.vote_choices = timing(play.vote_choices, "listing")
    play.vote_test = timing(play.vote_test, "listing")
    choices.SkillTest.first = timing(choices.SkillTest.first, "listing")
    choices.VoteTest.first = timing(choices.VoteTest.first, "listing")
    play._policy = wrapped_policy
    try:
        yield
    finally:
        (play._choices, play.vote_choices, play.vote_test, play._policy, choices.SkillTest.first,
         choices.VoteTest.first) = saved


def replay(record) -> None:
    """A recorded game's events applied to a new game: the engine's work alone."""
    from bansha.engine.engine import Game

    g = Game(record["setup"])
    for ev in record["events"]:
        g.apply(ev)


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
    print("per board: games per CPU-second; events per game (what the engine recorded); the policies' "
          "picks the engine's check ruled out before sending, and picks sent and refused (0: the policies "
          "choose from the one listing); where a game's time goes; the engine alone (the recorded events "
          "replayed, no listing, no policy): its cost per event and the games per CPU-second it allows")
    rates = {}
    for board, seats in BOARDS:
        play_game(board, seats, 10**6, args.policy)  # load the plugins first
        n = args.games if board != "light-shadow" else max(10, args.games // 10)
        spent = {"listing": 0.0, "policy": 0.0}
        with timed_parts(spent):
            c0 = time.process_time()
            records = [play_game(board, seats, s, args.policy, keep=True) for s in range(n)]
            cpu = time.process_time() - c0
        events = sum(r["n_events"] for r in records)
        c0 = time.process_time()
        for r in records:
            replay(r)
        engine = time.process_time() - c0
        rates[board] = n / cpu
        listing, policy = spent["listing"] / cpu, spent["policy"] / cpu
        print(f"{board} ({seats} seats, {args.policy}): {n / cpu:.1f} games per CPU-second ({n} games), "
              f"1/{base / (n / cpu):.0f} of the floor; {events / n:.0f} events a game, ruled out "
              f"{sum(r['ruled_out'] for r in records) / n:.1f} a game, refused {sum(r['refused'] for r in records)}; "
              f"time: listing {listing:.0%}, policies {policy:.0%}, engine and the rest {1 - listing - policy:.0%}; "
              f"the engine alone {engine / events * 1e6:.0f} µs an event = {n / engine:.0f} games per CPU-second")
    need = 20 * 2000 / (2 * rates["qisha-xia"])
    print(f"a 20-candidate qisha-xia search at 2,000 games each (40,000 games) on 2 cores: ~{need:.0f} s "
          f"at this rate (target 60 s)")
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
