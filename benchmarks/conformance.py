"""The conformance walk, larger than CI's (tests/conformance, issue 31): seeded simulated games
on every board, each surface a person reads rendered after every event and held to the checks
of ``tests/conformance/conform.py`` (nothing raises or is refused that the state allows, one
language, secrecy, one label per phase, the listings against ``act``, windows against whole).

    uv run python benchmarks/conformance.py [--boards m217,qisha-xia] [--seeds 1-20] [--days 4]
        [--policy random] [--no-web] [--deep-every 1] [--json findings.json]

``--seeds 1-20`` (or ``1,5,9``): the seeds of each board; m217 and its variant are played
twice a seed, nights closed whole and window by window. ``--deep-every N``: the posts, PMs,
export, log, undo, amend and mismatch surfaces after every Nth event (and every resolution;
status and pages are rendered after every event). Prints each finding once (the check, the
board, seed and mode, where it was first seen, the text), then the counts and the time; exit
status 1 when anything was found. Figures go to docs/performance.md ("The conformance walk").
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from conformance.conform import BOARDS, Walk, report  # noqa: E402


def seeds_of(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += list(range(int(lo), int(hi or lo) + 1))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", default=",".join(BOARDS))
    ap.add_argument("--seeds", default="1-5")
    ap.add_argument("--days", type=int, default=4)
    ap.add_argument("--policy", default="random")
    ap.add_argument("--no-web", action="store_true")
    ap.add_argument("--deep-every", type=int, default=1)
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    findings, counts, started, cpu = [], {}, time.perf_counter(), time.process_time()
    for board in a.boards.split(","):
        for seed in seeds_of(a.seeds):
            for windows in (False, True) if board.startswith("m217") else (False,):
                w = Walk(board, seed, windows=windows, day_limit=a.days, web=not a.no_web,
                         deep_every=a.deep_every, policy=a.policy)
                t = time.process_time()
                found = w.run()
                print(f"{w.tag}: {w.counts['events']} events, {len(found)} findings, {time.process_time() - t:.1f} s CPU",
                      file=sys.stderr, flush=True)
                findings += found
                for k, v in w.counts.items():
                    counts[k] = counts.get(k, 0) + v
    # one finding per check, surface and text across the games (each game reports its own)
    seen, unique = set(), []
    for f in findings:
        key = (f.check, f.where.split(" @")[0].split(" --phase")[0], f.text[:120])
        if key not in seen:
            seen.add(key)
            unique.append(f)
    print(report(unique))
    print(f"\n{len(unique)} findings; {counts}; {time.perf_counter() - started:.0f} s, "
          f"{time.process_time() - cpu:.0f} s CPU", file=sys.stderr)
    if a.json:
        Path(a.json).write_text(json.dumps([{k: getattr(f, k) for k in f.__struct_fields__} for f in unique], ensure_ascii=False, indent=1), encoding="utf-8")
    return 1 if unique else 0


if __name__ == "__main__":
    raise SystemExit(main())
