"""Time resolving one night of a table dealt from the manifest's pools, a busy night, and
replaying a long game.

    uv run python benchmarks/bench_resolve.py [--ruleset qisha-xia] [--seats N] [--reps 200]

``--seats`` defaults to the manifest's first table (qisha-xia 20, m217 14). Random but valid
night actions are drawn from a fixed seed, so runs are comparable:

- one night: every living player tries each skill once on a random target (refused ones dropped);
- a busy night (night 2, when the wolves may kill; ``--phase`` names another kind): every living
  player retries each skill on other random targets until one is accepted, so that most roles act;
- a replay of a 60-phase game without the shared night kills.

For qisha-xia's first night (20 seats), the same nights are also resolved by a hand-written
straight-line resolver (handwritten_qisha.py, with and without writing the feedback), checked
against the engine on 300 other random nights before anything is timed, and the engine's time is
given as a multiple of it (issue 15's target: at most 3).

Figures go to docs/performance.md; nothing here is asserted in tests.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import handwritten_qisha  # beside this script
from bansha.engine.deal import deal
from bansha.engine.engine import Game
from bansha.engine.model import ActEvent, GameError, ResolveEvent, Setup, VoteEvent
from bansha.engine.registry import find_manifest, ruleset_for


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


# arguments a busy night gives the skills that need one (m217); a skill that declares others
# is tried without
BUSY_ARGS = {
    "通天": {"question": "狼王在场吗"},
    "诡辩": {"role": "预言家"},
    "寻踪": {"role": "狼王"},
    "大奖": {"prize": "杀人"},
    "蛊惑": {"category": "强神"},
    "窥视": {"point": "深夜15b"},
    "馈赠": {"gift": "守护"},
}


def ring_targets(game: Game, rng: random.Random, n: int) -> list[str]:
    """``n`` consecutive living seats of the ring (面包师<芬芳>)."""
    seats = sorted(game.alive(), key=lambda q: q.seat)
    start = rng.randrange(len(seats))
    return [seats[(start + i) % len(seats)].name for i in range(n)]


def busy_actions(game: Game, rng: random.Random, tries: int = 40) -> list[ActEvent]:
    """Every living player sends every skill of this phase (a group skill once per group),
    retrying random targets until the engine accepts one: a night in which most roles act.
    Skills that need an argument get one from ``BUSY_ARGS``; 芬芳 gets consecutive seats."""
    events = []
    sent_groups: set[str] = set()
    for p in game.alive():
        for skill, _ in game.skills_of(p).values():
            if game.phase.name not in skill.phases or skill.immediate or skill.group in sent_groups:
                continue
            n = skill.targets
            pool = game.alive() if not skill.may_target_dead else list(game.players.values())
            for _ in range(tries):
                if skill.name == "芬芳":
                    targets = ring_targets(game, rng, round(len(game.alive()) / 4))
                else:
                    targets = [q.name for q in rng.sample(pool, min(n, len(pool)))]
                ev = ActEvent(phase=game.label, actor=p.name, skill=skill.name, targets=targets,
                              args=BUSY_ARGS.get(skill.name, {}))
                try:
                    game.apply(ev)
                except GameError:
                    continue
                events.append(ev)
                if skill.group:
                    sent_groups.add(skill.group)
                break
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


def check_handwritten(nights: int) -> None:
    """The hand-written resolver (handwritten_qisha.py) against the engine on ``nights`` random
    first nights of qisha-xia: the same players out, the same lines told, the same public lines."""
    for rep in range(nights):
        setup, game = new_game("qisha-xia", 20, 10_000 + rep)
        while game.phase.name != "night":
            game.apply(ResolveEvent(phase=game.label))
        random_actions(game, random.Random(rep))
        hand, bare = handwritten_qisha.night(game), handwritten_qisha.night(game, feedback=False)
        label, mark = game.label, game.mark()
        game.apply(ResolveEvent(phase=label))
        told, public = game.since(mark)
        engine = (game.out.get(label, []), told, public)
        if hand != engine or bare[0] != engine[0]:
            raise SystemExit(f"the hand-written resolver differs from the engine (seed {10_000 + rep}):\n"
                             f"  hand-written {hand}\n  engine       {engine}")
    print(f"qisha-xia: the hand-written first night agrees with the engine on {nights} random nights")


def main() -> None:
    import structlog

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(30))
    ap = argparse.ArgumentParser()
    ap.add_argument("--ruleset", default="qisha-xia")
    ap.add_argument("--seats", type=int, default=None, help="default: the manifest's first table")
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--phase", default="night", help="the phase kind to time")
    args = ap.parse_args()
    if args.seats is None:
        args.seats = find_manifest(args.ruleset).tables[0].seats

    # qisha-xia's first night has a hand-written resolver to compare with: checked first
    handwritten = args.ruleset == "qisha-xia" and args.phase == "night" and args.seats == 20
    if handwritten:
        check_handwritten(300)

    # one night: set up to the first night, submit random actions, time resolve()
    times, hand, bare = [], [], []
    for rep in range(args.reps):
        setup, game = new_game(args.ruleset, args.seats, rep)
        while game.phase.name != args.phase and game.winner is None:
            game.apply(ResolveEvent(phase=game.label))
        random_actions(game, random.Random(rep))
        if handwritten:
            t0 = time.perf_counter()
            handwritten_qisha.night(game)
            hand.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            handwritten_qisha.night(game, feedback=False)
            bare.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        game.apply(ResolveEvent(phase=game.label))
        times.append(time.perf_counter() - t0)
    print(f"{args.ruleset}: resolve one {args.phase} of {args.seats} seats: median {statistics.median(times) * 1e3:.3f} ms, "
          f"p95 {sorted(times)[int(len(times) * 0.95)] * 1e3:.3f} ms over {len(times)} phases")
    if handwritten:
        engine = statistics.median(times)
        for what, t in (("with its feedback", hand), ("bare (who is out)", bare)):
            print(f"  the hand-written resolver of the same nights, {what}: median {statistics.median(t) * 1e3:.3f} ms; "
                  f"the engine takes {engine / statistics.median(t):.1f} times that (target: at most 3)")

    # a busy phase: the second of its kind (night 2: the first night may forbid kills), most roles acting
    # (before it, the table votes one random player out at each vote (m217: noon 1), so that
    # someone is out and the day's ballots exist: 灵能<感知>, 潜行者<潜行> need them; no skill is
    # used before it)
    times, acted, sent, alive, able = [], [], [], [], []
    for rep in range(args.reps):
        setup, game = new_game(args.ruleset, args.seats, rep)
        rng = random.Random(rep)
        for _ in range(100):
            if game.label == f"{args.phase} 2" or game.winner is not None:
                break
            if game.phase.vote:
                top = rng.choice(game.alive()).name
                for p in game.alive():
                    game.apply(VoteEvent(phase=game.label, voter=p.name, target=top))
            game.apply(ResolveEvent(phase=game.label))
        if game.label != f"{args.phase} 2":
            continue
        evs = busy_actions(game, rng)
        if game.winner is not None:
            continue  # an action ended the game
        acted.append(len({e.actor for e in evs}))
        sent.append(len(evs))
        alive.append(len(game.alive()))
        able.append(sum(any(game.phase.name in s.phases and not s.immediate
                                for s, _ in game.skills_of(p).values()) for p in game.alive()))
        t0 = time.perf_counter()
        game.apply(ResolveEvent(phase=game.label))
        times.append(time.perf_counter() - t0)
    if times:
        print(f"{args.ruleset}: resolve a busy {args.phase} 2 of {args.seats} seats "
              f"({statistics.mean(acted):.1f} of {statistics.mean(alive):.1f} living players act, "
              f"{statistics.mean(able):.1f} hold a skill of the phase; "
              f"{statistics.mean(sent):.1f} actions): median {statistics.median(times) * 1e3:.3f} ms, "
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
