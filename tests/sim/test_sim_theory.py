"""mafia-basic under the random policy against the exact recursion (docs/simulate.md).

Every living player votes uniformly for another living player; plurality, a tie broken by a
uniform draw among the tied. The whole process is invariant under relabelling the players, so
the player voted out is uniform over the living: a mafioso with probability m/n. The night kill
under random play is uniform over the non-mafia (any one of them: the count is all that matters).
With d(n, m) the mafia's win probability at the start of a day with n living, m mafia:

    win checks after every death: m = 0 → town; m ≥ n − m → mafia
    d(n, m) = m/n · after(n−1, m−1) + (n−m)/n · after(n−1, m)  then the night
    night(n, m) = after-check of (n−1, m), then d(n−1, m)

The recursion is computed here, independently of the simulator; the simulated count must lie in
the 99.9 % two-sided binomial acceptance region around it (normal approximation with continuity
correction): the test can fail.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from functools import cache

import pytest
from bansha_sim.run import run
from bansha_sim.stats import aggregate


def _over(n: int, m: int) -> Fraction | None:
    if m == 0:
        return Fraction(0)
    if m >= n - m:
        return Fraction(1)
    return None


@cache
def day(n: int, m: int) -> Fraction:
    r = _over(n, m)
    if r is not None:
        return r
    return Fraction(m, n) * _after_day(n - 1, m - 1) + Fraction(n - m, n) * _after_day(n - 1, m)


def _after_day(n: int, m: int) -> Fraction:
    r = _over(n, m)
    return r if r is not None else night(n, m)


@cache
def night(n: int, m: int) -> Fraction:
    r = _over(n - 1, m)  # the kill removes a non-mafia player
    return r if r is not None else day(n - 1, m)


def test_recursion_small_cases():
    # n=3, m=1: the day removes the mafioso w.p. 1/3 (town wins), else 1 vs 1: mafia
    assert day(3, 1) == Fraction(2, 3)
    # n=4, m=1: day: 1/4 town; else (3,1) night → (2,1) mafia at once
    assert day(4, 1) == Fraction(3, 4)
    # n=5, m=1: 1/5 town; else (4,1) → night → (3,1) → day(3,1) = 2/3
    assert day(5, 1) == Fraction(4, 5) * Fraction(2, 3)


Z999 = 3.2905267314919255


CASES = [(5, 1), (7, 2), (8, 2), (10, 3), (12, 3), (16, 4), (20, 4), (20, 6)]


@pytest.mark.parametrize("seats,mafia", CASES)
def test_random_policy_matches_theory(seats, mafia):
    games = 2000
    recs = run("mafia-basic", seats, games, 12345, "random", {"mafia": mafia}, day_limit=30, jobs=1)
    agg = aggregate(recs, ["黑手党", "市民"])
    assert agg["unfinished"] == 0 and agg["draws"] == 0
    k = agg["wins"]["黑手党"]
    assert k + agg["wins"]["市民"] == games
    p = float(day(seats, mafia))
    sd = math.sqrt(games * p * (1 - p))
    assert abs(k - games * p) <= Z999 * sd + 0.5, (k / games, p)
    # every player dealt mafia is counted
    assert agg["roles"]["黑手党"]["n"] == games * mafia


def test_jobs_identical():
    a = run("mafia-basic", 9, 120, 7, "random", {"mafia": 2}, 30, jobs=1)
    b = run("mafia-basic", 9, 120, 7, "random", {"mafia": 2}, 30, jobs=2)
    assert json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


def test_chunks_are_short_enough_for_every_worker_and_cover_every_seed_once():
    from bansha_sim.run import CHUNK, chunk_size, chunks

    assert chunk_size(10_000, 2) == CHUNK  # long runs: the chunk's cap
    assert chunk_size(120, 2) == 4 and chunk_size(5, 4) == 1  # short ones: 16 chunks a worker
    parts = chunks(7, 120, chunk_size(120, 2))
    assert len(parts) == 30 and [s for p in parts for s in p] == list(range(7, 127))


# -- the length of a game: the day of the phase that ended it ---------------------------------


def _lengths_after(n: int, m: int, d: int, night_next: bool) -> dict[int, Fraction]:
    """The length distribution from a state just after a death on day ``d`` (the game may have
    ended there: its length is ``d``), the night of day ``d`` next or the day ``d + 1``."""
    r = _over(n, m)
    if r is not None:
        return {d: Fraction(1)}
    return _night_lengths(n, m, d) if night_next else _day_lengths(n, m, d + 1)


@cache
def _day_lengths(n: int, m: int, d: int) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for w, (n2, m2) in ((Fraction(m, n), (n - 1, m - 1)), (Fraction(n - m, n), (n - 1, m))):
        if w:
            for k, p in _lengths_after(n2, m2, d, True).items():
                out[k] = out.get(k, Fraction(0)) + w * p
    return out


@cache
def _night_lengths(n: int, m: int, d: int) -> dict[int, Fraction]:
    return _lengths_after(n - 1, m, d, False)  # the night's kill ends day d


def lengths(n: int, m: int) -> dict[int, Fraction]:
    """The exact distribution of a game's length in days (the first day is day 1)."""
    return _day_lengths(n, m, 1)


def test_length_recursion_small_cases():
    # n=3, m=1: the day ends the game either way (town at 1/3, mafia 1 vs 1 at 2/3)
    assert lengths(3, 1) == {1: Fraction(1)}
    # n=5, m=1: day 1 takes the mafioso (1/5); else the night leaves (3,1), decided on day 2
    assert lengths(5, 1) == {1: Fraction(1, 5), 2: Fraction(4, 5)}
    # the wins it sums to are the recursion's
    assert sum(lengths(10, 3).values()) == 1


def test_lengths_match_theory():
    """Simulated lengths against the exact distribution: at 10 seats with one mafioso the mean
    is 3.344 days (the count on the phase after the end gave 3.833), and under ``--days 4`` no
    finished game is longer than 4 days. Each day's count lies in its 99.9 % acceptance region."""
    exact = lengths(10, 1)
    mean = sum(k * p for k, p in exact.items())
    assert abs(float(mean) - 3.344) < 0.001
    games = 2000
    recs = run("mafia-basic", 10, games, 4242, "random", {"mafia": 1}, day_limit=30, jobs=1)
    agg = aggregate(recs, ["黑手党", "市民"])
    assert agg["unfinished"] == 0
    assert set(agg["days"]) <= set(exact)
    for k, p in exact.items():
        count = agg["days"].get(k, 0)
        sd = math.sqrt(games * float(p) * (1 - float(p)))
        assert abs(count - games * float(p)) <= Z999 * sd + 0.5, (k, count, games * float(p))
    sd_mean = math.sqrt(float(sum(k * k * p for k, p in exact.items()) - mean * mean) / games)
    assert abs(agg["mean_days"] - float(mean)) <= Z999 * sd_mean, (agg["mean_days"], float(mean))
    short = aggregate(run("mafia-basic", 10, 400, 4242, "random", {"mafia": 1}, day_limit=4, jobs=1), ["黑手党", "市民"])
    assert max(short["days"]) <= 4
    # the games that end within 4 days are the same games, of the same lengths
    full = aggregate(recs[:400], ["黑手党", "市民"])["days"]
    assert short["days"] == {k: v for k, v in full.items() if k <= 4}
    assert short["unfinished"] == sum(v for k, v in full.items() if k > 4)
