"""Time resolving one night of a 20-seat table, and replaying a 20-day game.

    uv run python benchmarks/bench_resolve.py [--ruleset qisha-xia] [--reps 200]

Random but valid night actions are drawn from a fixed seed, so runs are comparable. Figures go
to docs/performance.md; nothing here is asserted in tests.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bansha.deal import deal
from bansha.engine import Game
from bansha.model import ActEvent, GameError, ResolveEvent, Setup, VoteEvent
from bansha.registry import find_manifest, ruleset_for


def new_game(ruleset: str, seats: int, seed: int) -> tuple[Setup, Game]:
    m = find_manifest(ruleset)
    names = [f"P{i:02d}" for i in range(1, seats + 1)]
    setup = Setup(ruleset=m.id, manifest=m, players=deal(ruleset_for(m), names, seed), seed=seed)
    return setup, Game(setup)


def random_actions(game: Game, rng: random.Random, shared: bool = True) -> list[ActEvent]:
    """Every living player tries each of their skills on a random living target; the ones
    the engine refuses are dropped (as a director's refused PM would be). ``shared=False``
    leaves out group skills (the shared night kills), so that a game lasts many days."""
    events = []
    for p in game.alive():
        for skill, _ in game.skills_of(p).values():
            if game.phase.name not in skill.phases or skill.immediate or (skill.group and not shared):
                continue
            targets = [q.name for q in rng.sample(game.alive(), min(skill.targets, len(game.alive())))]
            ev = ActEvent(phase=game.label, actor=p.name, skill=skill.name, targets=targets)
            try:
                game.apply(ev)
            except GameError:
                continue
            events.append(ev)
    if game.phase.vote:
        # everyone votes for a random living player (or abstains): counts stay spread out
        for p in game.alive():
            target = rng.choice([*(q.name for q in game.alive()), game.manifest.vote.abstain])
            ev = VoteEvent(phase=game.label, voter=p.name, target=target)
            try:
                game.apply(ev)
            except GameError:
                continue
            events.append(ev)
    return events


def play(ruleset: str, seats: int, seed: int, phases: int, shared: bool = True) -> tuple[Setup, list]:
    setup, game = new_game(ruleset, seats, seed)
    rng = random.Random(seed)
    log: list = []
    for _ in range(phases):
        if game.winner is not None:
            break
        log += random_actions(game, rng, shared)
        ev = ResolveEvent(phase=game.label)
        game.apply(ev)
        log.append(ev)
    return setup, log


def main() -> None:
    import structlog

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(30))
    ap = argparse.ArgumentParser()
    ap.add_argument("--ruleset", default="qisha-xia")
    ap.add_argument("--seats", type=int, default=20)
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--phase", default="night", help="the phase kind to time")
    args = ap.parse_args()

    # one night: set up to the first night, submit random actions, time resolve()
    times = []
    for rep in range(args.reps):
        setup, game = new_game(args.ruleset, args.seats, rep)
        while game.phase.name != args.phase and game.winner is None:
            game.apply(ResolveEvent(phase=game.label))
        random_actions(game, random.Random(rep))
        t0 = time.perf_counter()
        game.apply(ResolveEvent(phase=game.label))
        times.append(time.perf_counter() - t0)
    print(f"{args.ruleset}: resolve one {args.phase} of {args.seats} seats: median {statistics.median(times) * 1e3:.3f} ms, "
          f"p95 {sorted(times)[int(len(times) * 0.95)] * 1e3:.3f} ms over {len(times)} phases")

    # replay: the cost every CLI command pays to rebuild a game from its log
    setup, log = play(args.ruleset, args.seats, 1, 60, shared=False)
    t = []
    for _ in range(20):
        t0 = time.perf_counter()
        g = Game(setup)
        for ev in log:
            g.apply(ev)
        t.append(time.perf_counter() - t0)
    print(f"{args.ruleset}: replay {len(log)} events ({g.label}): median {statistics.median(t) * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
