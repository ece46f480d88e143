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


def clustered(units: list[tuple[int, int]], z: float = Z95) -> tuple[float, float, float, float]:
    """A rate over seats that come in games: ``units`` holds (seats won, seats) per game. The
    seats of one game share its outcome (eight 村民 of one game win or lose together), so they
    are not eight independent trials: the Wilson interval is taken at the effective sample size
    (Kish's design effect, the between-game variance of the ratio estimate over the binomial
    one; never above the seats, never below the games when every seat won or every seat lost).
    Returns the rate, the interval and the effective size."""
    seats = sum(n for _, n in units)
    if not seats:
        return 0.0, 0.0, 1.0, 0.0
    won = sum(w for w, _ in units)
    p, g = won / seats, len(units)
    if 0 < p < 1 and g > 1:
        # the ratio estimate's variance between games (no small-sample factor, as in the
        # binomial one it is set against: one seat a game gives a design effect of exactly 1)
        between = sum((w - p * n) ** 2 for w, n in units) / seats ** 2
        n_eff = seats / max(1.0, between / (p * (1 - p) / seats))
    else:  # no spread to measure: count as if a game's seats were one trial
        n_eff = float(g)
    _, lo, hi = wilson(p * n_eff, n_eff, z)
    return p, lo, hi, n_eff


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
    roles: dict[str, dict[str, Any]] = {}
    for r in records:
        mine: dict[str, list[int]] = {}  # role -> [seats won, seats] in this game
        for role, _camp, alive, won in r["players"]:
            s = roles.setdefault(role, {"n": 0, "won": 0, "survived": 0, "games": []})
            s["n"] += 1
            s["won"] += won
            s["survived"] += alive
            u = mine.setdefault(role, [0, 0])
            u[0] += won
            u[1] += 1
        for role, (w, k) in mine.items():
            roles[role]["games"].append((w, k))
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
        "roles": {role: _role_rates(s) for role, s in sorted(roles.items())},
        "causes": dict(causes.most_common()),
    }


def _role_rates(s: dict[str, Any]) -> dict[str, Any]:
    """A role's seats: how many, how many won (with the interval of ``clustered``), survived."""
    p, lo, hi, n_eff = clustered(s["games"])
    return {"n": s["n"], "wins": s["won"], "win_rate": p, "low": lo, "high": hi, "n_eff": n_eff,
            "survival_rate": s["survived"] / s["n"]}


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
