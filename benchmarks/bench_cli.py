"""Start-up of the commands a director types, on long stored games, against the interpreter.

    uv run python benchmarks/bench_cli.py [--runs 15] [--ruleset qisha-xia --ruleset m217]

Stores a 20-seat qisha-xia game of 40 phases (20 days) and a 14-seat m217 game of 40 phases
(10 days, now at noon 10) with random valid actions and votes (the shared night kills left
out so that they last), then times, as subprocesses, in interleaved rounds so that a busy
machine slows every row alike:

- the floor: ``python -c "import msgspec, pluggy, sqlite3"`` (the interpreter and the
  libraries every command needs);
- ``bansha --help``, ``status``, ``status --as``, ``act`` (a legal action of the open phase),
  ``unact``, ``vote``, ``resolve`` (each write is undone in process before the next round, so
  every round sees the same game).

Prints the median of each and its ratio to the floor. The targets (issue 9): each command at
most 150 ms and at most 2.3 times the floor. Nothing here is asserted in tests.

``--instructions`` runs each row once under valgrind's callgrind and reports the instructions
it executed instead, and their ratio to the floor's: the same on a busy machine as on an idle
one (wall times on a shared 2-core machine move with its load), at about 40 times the time.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bansha.engine.engine import SILENT, Game  # noqa: E402
from bansha.engine.model import ActEvent, GameError  # noqa: E402
from bansha.engine.registry import find_manifest  # noqa: E402
from bansha.store.store import Store  # noqa: E402
from bench_resolve import play  # noqa: E402

FLOOR = [sys.executable, "-c", "import msgspec, pluggy, sqlite3"]


def legal_action(game: Game) -> tuple[str, str, list[str]] | None:
    """A (player, skill, targets) the engine accepts in the open phase, tried on a copy."""
    rng = random.Random(1)
    for p in game.alive():
        for skill, _ in game.skills_of(p).values():
            if game.phase.name not in skill.phases or skill.immediate or skill.args:
                continue
            for _ in range(20):
                targets = [q.name for q in rng.sample(game.alive(), min(skill.targets, len(game.alive())))]
                try:
                    game.apply(ActEvent(phase=game.label, actor=p.name, skill=skill.name, targets=targets))
                except GameError:
                    continue
                return p.name, skill.name, targets
    return None


def stored_game(store: Store, name: str, ruleset: str, phases: int) -> Game:
    seats = find_manifest(ruleset).tables[0].seats
    setup, log = play(ruleset, seats, 1, phases, shared=False)
    store.create(name, setup)
    for ev in log:
        store.append(name, ev)
    return store.load(name)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--ruleset", action="append", help="default: qisha-xia and m217")
    ap.add_argument("--instructions", action="store_true", help="count instructions under callgrind (one run each)")
    args = ap.parse_args()
    # phases played before timing: a game left at a day (to vote) and one at a night (to act)
    plan = {"qisha-xia": (40, 41), "m217": (40, 42)}
    rulesets = args.ruleset or list(plan)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "g.db"
        store = Store(db, logger=lambda game: SILENT)
        env = {**os.environ, "BANSHA_DB": str(db)}
        exe = [str(Path(sys.executable).parent / "bansha")]
        # (label, command, how many events to undo after it)
        rows: list[tuple[str, list[str], int]] = [("floor: python -c 'import msgspec, pluggy, sqlite3'", FLOOR, 0),
                                                  ("bansha --help", [*exe, "--help"], 0)]
        for rs in rulesets:
            for i, phases in enumerate(plan.get(rs, (40,))):
                name = f"{rs}-{i}"
                game = stored_game(store, name, rs, phases)
                print(f"{name}: {rs}, {len(store.events(name))} events stored, now {game.label}, {len(game.alive())} living")
                tag = f"{rs} ({game.label})"
                if i == 0:
                    first = game.alive()[0].name
                    rows += [(f"{tag}: status", [*exe, "status", name], 0),
                             (f"{tag}: status --as", [*exe, "status", name, "--as", first], 0)]
                act = legal_action(store.load(name))
                if act is not None:
                    who, skill, targets = act
                    rows += [(f"{tag}: act", [*exe, "act", name, who, skill, *targets], 0),
                             (f"{tag}: unact", [*exe, "unact", name, who, skill], 2)]
                if game.phase.vote:
                    voter, target = game.alive()[0].name, game.alive()[1].name
                    rows.append((f"{tag}: vote", [*exe, "vote", name, voter, target], 1))
                rows.append((f"{tag}: resolve", [*exe, "resolve", name, "--yes"], 1))  # an empty phase too
        if args.instructions:
            return count_instructions(rows, env, store)
        times: dict[str, list[float]] = {label: [] for label, _, _ in rows}
        subprocess.run(rows[1][1], capture_output=True, env=env)  # a rescan after an install is not timed
        for _ in range(args.runs):
            for label, cmd, undo in rows:
                t0 = time.perf_counter()
                r = subprocess.run(cmd, capture_output=True, env=env)
                times[label].append(time.perf_counter() - t0)
                if r.returncode != 0:
                    raise SystemExit(f"{label}: exit {r.returncode}: {r.stderr.decode()}")
                for _ in range(undo):  # the same game for the next round
                    store.undo(cmd[2])
        floor = statistics.median(times[rows[0][0]])
        print(f"\nmedian of {args.runs} interleaved runs (targets: <= 150 ms and <= 2.3 x the floor)")
        for label, _, _ in rows:
            med = statistics.median(times[label])
            print(f"  {label:<56} {med * 1e3:6.0f} ms  {med / floor:4.2f} x")


def count_instructions(rows, env, store: Store) -> None:
    import re

    counts = {}
    # the first command after an install rescans the entry points (bansha/entrypoints.py), and
    # the first on a game replays it and leaves its state (statecache.py): a round not counted,
    # as the wall-clock rounds' median leaves it out
    subprocess.run(rows[1][1], capture_output=True, env=env)
    for _label, cmd, undo in rows:
        subprocess.run(cmd, capture_output=True, env=env)
        for _ in range(undo):
            store.undo(cmd[2])
    for label, cmd, undo in rows:
        r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd],
                           capture_output=True, env=env, text=True)
        m = re.search(r"Collected : (\d+)", r.stderr)
        if r.returncode != 0 or m is None:
            raise SystemExit(f"{label}: exit {r.returncode}: {r.stderr[-500:]}")
        counts[label] = int(m.group(1))
        for _ in range(undo):
            store.undo(cmd[2])
    floor = counts[rows[0][0]]
    print("\ninstructions executed, one run each under callgrind (target: <= 2.3 x the floor)")
    for label, _, _ in rows:
        print(f"  {label:<56} {counts[label] / 1e6:7.0f} M  {counts[label] / floor:4.2f} x")


if __name__ == "__main__":
    main()
