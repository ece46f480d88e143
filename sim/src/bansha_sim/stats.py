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


def seat_records(game) -> list[tuple[str, str, bool, bool]]:
    """Each seat of a game as a record counts it: (the role it was dealt, its camp at the end,
    alive, won). The role as dealt (``Game.dealt``: as the game began), not the one it holds at
    the end: a role's count is how often it was dealt (发牌次数), and its win rate that of the
    seats dealt it."""
    winners = game.winner or ()
    dealt = game.dealt
    return [(dealt.get(p.name, p.role), p.camp, p.alive, p.camp in winners and not game.draw)
            for p in game.players.values()]


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularized incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-14:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def _beta_quantile(q: float, a: float, b: float) -> float:
    lo, hi = 0.0, 1.0
    for _ in range(80):  # bisection: I_x(a, b) increases in x
        mid = (lo + hi) / 2
        if betainc(a, b, mid) < q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def clopper_pearson(k: int, n: int, alpha: float = 0.05) -> tuple[float, float]:
    """The exact (Clopper-Pearson) two-sided interval of a binomial proportion, k of n: never
    narrower than the exact test allows (k = n = 4 gives [0.398, 1] at 95 %: the exact
    two-sided p of 4 of 4 is 0.125)."""
    if n == 0:
        return 0.0, 1.0
    lo = 0.0 if k == 0 else _beta_quantile(alpha / 2, k, n - k + 1)
    hi = 1.0 if k == n else _beta_quantile(1 - alpha / 2, k + 1, n - k)
    return lo, hi


def _won(r: dict, camp: str) -> bool:
    return camp in r["winners"] and not r["draw"]


def paired(a: list[dict], b: list[dict], camp: str, z: float = Z95) -> dict[str, float]:
    """Paired difference of ``camp``'s win rate between two runs on the same seeds (b − a).

    A seed's difference is −1, 0 or +1: only the discordant seeds (won in one run, lost in the
    other) carry it. Given their number ``d``, the seeds won in ``b`` only are binomial (d, π)
    and the difference is d/n · (2π − 1): the interval is the exact (Clopper-Pearson) one of π,
    so that it holds with few discordant seeds (four, all one way, do not exclude 0: the exact
    two-sided p is 0.125), at the level of ``z`` (95 % by default). ``unpaired_low/high``: the
    interval two independent runs of n games each would give (normal)."""
    n = len(a)
    up = sum(_won(y, camp) and not _won(x, camp) for x, y in zip(a, b, strict=True))
    down = sum(_won(x, camp) and not _won(y, camp) for x, y in zip(a, b, strict=True))
    if not n:
        return {"diff": 0.0, "low": 0.0, "high": 0.0, "unpaired_low": 0.0, "unpaired_high": 0.0, "discordant": [0, 0]}
    d = up + down
    mean = (up - down) / n
    alpha = math.erfc(z / math.sqrt(2))
    lo, hi = clopper_pearson(up, d, alpha)
    low, high = (d / n * (2 * lo - 1), d / n * (2 * hi - 1)) if d else (0.0, 0.0)
    pa = sum(_won(x, camp) for x in a) / n
    pb = pa + mean
    u = z * math.sqrt((pa * (1 - pa) + pb * (1 - pb)) / n)
    return {"diff": mean, "low": low, "high": high, "unpaired_low": mean - u, "unpaired_high": mean + u,
            "discordant": [up, down]}


def skill_counts(game, events) -> dict[str, dict[str, int]]:
    """Each skill's uses in one game (an action sent and accepted), by the role its sender was
    dealt: {role: {skill: uses}}."""
    from bansha.engine.model import ActEvent

    dealt = game.dealt
    out: dict[str, dict[str, int]] = {}
    for ev in events:
        if isinstance(ev, ActEvent):
            used = out.setdefault(dealt.get(ev.actor, ""), {})
            used[ev.skill] = used.get(ev.skill, 0) + 1
    return out


def skill_uses(records: list[dict]) -> dict[str, dict[str, dict[str, float]]]:
    """How often each role's skills were used (sent and accepted) over the games: in all, per
    game, and in how many games at least once: {role: {skill: {"uses", "per_game", "games"}}}."""
    total: Counter = Counter()
    games: Counter = Counter()
    for r in records:
        for role, used in r.get("skills", {}).items():
            for k, v in used.items():
                total[(role, k)] += v
                games[(role, k)] += bool(v)
    n = len(records)
    out: dict[str, dict[str, dict[str, float]]] = {}
    for (role, k), v in sorted(total.items()):
        out.setdefault(role, {})[k] = {"uses": v, "per_game": v / n if n else 0.0, "games": games[(role, k)]}
    return out


def holm(pvalues: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values (in the given order): the i-th smallest times the
    number of hypotheses not yet rejected, kept non-decreasing, at most 1. Rejecting where the
    adjusted value is below α holds the family-wise error at α."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        out[i] = running
    return out
