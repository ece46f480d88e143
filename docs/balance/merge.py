"""One run's JSON from the JSON of runs over consecutive seeds (``bansha simulate … --seed S
--games N1 --json``, then ``--seed S+N1 --games N2``, …): what ``--seed S --games N1+N2+…``
prints, apart from the timing (here the parts' seconds summed), and its plot.

    python docs/balance/merge.py [--plot docs/balance/X.svg] docs/balance/X.json PART.json …

Every count adds up and every rate is recomputed from the counts (a role's wins and survivals
are its rate times its seats, whole numbers); causes of death tied in count cannot be put back
in the order of first appearance, so parts with such a tie are refused.
"""

from __future__ import annotations

import json
import sys
from collections import Counter

from bansha_sim.stats import wilson


def merge(parts: list[dict]) -> dict:
    p0 = parts[0]
    seed = p0["seed"]
    for p in parts:
        if p["seed"] != seed:
            raise SystemExit(f"parts not consecutive: seed {p['seed']}, expected {seed}")
        for k in ("ruleset", "seats", "policy", "options", "day_limit"):
            if p[k] != p0[k]:
                raise SystemExit(f"parts differ in {k}")
        seed += p["games"]
    n = sum(p["games"] for p in parts)
    wins: dict[str, int] = {}
    for p in parts:
        for c, k in p["wins"].items():
            wins[c] = wins.get(c, 0) + k
    rates = {}
    for c, k in wins.items():
        pr, lo, hi = wilson(k, n)
        rates[c] = {"p": pr, "low": lo, "high": hi}
    days: Counter = Counter()
    for p in parts:
        for d, k in p["days"].items():
            days[int(d)] += k
    roles: dict[str, dict[str, int]] = {}
    for p in parts:
        for r, s in p["roles"].items():
            t = roles.setdefault(r, {"n": 0, "won": 0, "survived": 0})
            t["n"] += s["n"]
            t["won"] += round(s["win_rate"] * s["n"])
            t["survived"] += round(s["survival_rate"] * s["n"])
    causes: Counter = Counter()
    for p in parts:
        causes.update(p["causes"])
    mc = causes.most_common()
    if len({k for _, k in mc}) != len(mc):
        raise SystemExit("causes of death tied in count: their order cannot be recovered")
    finished = sum(days.values())
    seconds = sum(p["seconds"] for p in parts)
    return {"ruleset": p0["ruleset"], "seats": p0["seats"], "games": n, "policy": p0["policy"],
            "seed": p0["seed"], "options": p0["options"], "day_limit": p0["day_limit"],
            "wins": wins, "rates": rates, "draws": sum(p["draws"] for p in parts),
            "unfinished": sum(p["unfinished"] for p in parts), "stuck": sum(p["stuck"] for p in parts),
            "mean_days": sum(d * k for d, k in days.items()) / finished if finished else None,
            "days": dict(sorted(days.items())),
            "roles": {r: {"n": s["n"], "win_rate": s["won"] / s["n"], "survival_rate": s["survived"] / s["n"]}
                      for r, s in sorted(roles.items())},
            "causes": dict(mc), "seconds": seconds, "games_per_second": n / seconds}


def main() -> None:
    args = sys.argv[1:]
    plot = None
    if args and args[0] == "--plot":
        plot, args = args[1], args[2:]
    out = merge([json.load(open(f)) for f in args[1:]])
    if plot:
        from pathlib import Path

        from bansha.engine.registry import find_manifest
        from bansha_sim.cli import _plot

        m = find_manifest(out["ruleset"])
        out["plot"] = plot
        _plot(Path(plot), [(None, out["options"], [], out)], [c.name for c in m.camps], m.id, out["seats"],
              out["policy"], None, {c.name: c.alias or c.name for c in m.camps})
    with open(args[0], "w") as f:
        f.write(json.dumps(out, ensure_ascii=False, indent=1) + "\n")


if __name__ == "__main__":
    main()
