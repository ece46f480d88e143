"""Aggregates of a simulation: Wilson intervals, per-camp and per-role rates, lengths, causes."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float, float]:
    """The proportion k/n and its Wilson score interval."""
    if n == 0:
        return 0.0, 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return p, max(0.0, c - h), min(1.0, c + h)


def aggregate(records: list[dict[str, Any]], camps: list[str]) -> dict[str, Any]:
    n = len(records)
    wins = Counter()
    for r in records:
        if not r["draw"]:
            for c in r["winners"]:
                wins[c] += 1
    wins_all = {c: wins.get(c, 0) for c in camps}
    for c in wins:
        wins_all.setdefault(c, wins[c])
    rates = {}
    for c, k in wins_all.items():
        p, lo, hi = wilson(k, n)
        rates[c] = {"p": p, "low": lo, "high": hi}
    finished = [r for r in records if not r["unfinished"]]
    days = [r["days"] for r in finished]
    roles: dict[str, dict[str, int]] = {}
    for r in records:
        for role, _camp, alive, won in r["players"]:
            s = roles.setdefault(role, {"n": 0, "won": 0, "survived": 0})
            s["n"] += 1
            s["won"] += won
            s["survived"] += alive
    causes: Counter = Counter()
    for r in records:
        causes.update(r["causes"])
    return {
        "games": n,
        "wins": wins_all,
        "rates": rates,
        "draws": sum(r["draw"] for r in records),
        "unfinished": sum(r["unfinished"] for r in records),
        "stuck": sum(r.get("stuck", False) for r in records),
        "mean_days": (sum(days) / len(days)) if days else None,
        "days": dict(sorted(Counter(days).items())),
        "roles": {role: {"n": s["n"], "win_rate": s["won"] / s["n"], "survival_rate": s["survived"] / s["n"]}
                  for role, s in sorted(roles.items())},
        "causes": dict(causes.most_common()),
    }


def paired(a: list[dict], b: list[dict], camp: str, z: float = Z95) -> dict[str, float]:
    """Paired difference of ``camp``'s win rate between two runs on the same seeds (b − a), with
    a normal interval on the per-seed differences."""
    d = [(camp in y["winners"] and not y["draw"]) - (camp in x["winners"] and not x["draw"]) for x, y in zip(a, b, strict=True)]
    n = len(d)
    mean = sum(d) / n if n else 0.0
    var = sum((v - mean) ** 2 for v in d) / (n - 1) if n > 1 else 0.0
    h = z * math.sqrt(var / n) if n else 0.0
    # what two independent runs of n games each would give (the unpaired interval)
    pa = sum(camp in x["winners"] and not x["draw"] for x in a) / n if n else 0.0
    pb = pa + mean
    u = z * math.sqrt((pa * (1 - pa) + pb * (1 - pb)) / n) if n else 0.0
    return {"diff": mean, "low": mean - h, "high": mean + h, "unpaired_low": mean - u, "unpaired_high": mean + u}
