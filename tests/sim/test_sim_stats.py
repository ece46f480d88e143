"""The per-role intervals of `bansha simulate` and `bansha stats` (sim/src/bansha_sim/stats.py):
seats of one game share its outcome, so a role dealt to eight seats of a game is not eight
independent trials."""

from bansha_sim.run import run
from bansha_sim.stats import aggregate, clustered, wilson


def record(role_seats: int, won: bool, other: str = "黑手党") -> dict:
    players = [("村民", "村民", True, won)] * role_seats + [(other, other, True, not won)]
    return {"winners": ["村民"] if won else [other], "draw": False, "unfinished": False, "days": 3,
            "players": players, "causes": {}}


def test_eight_seats_that_win_together_count_as_one_game():
    recs = [record(8, i % 2 == 0) for i in range(10)]  # 5 of 10 games won, 8 村民 each
    r = aggregate(recs, ["村民", "黑手党"])["roles"]["村民"]
    assert r["n"] == 80 and r["wins"] == 40 and r["win_rate"] == 0.5
    assert abs(r["n_eff"] - 10) < 1e-9
    _, lo, hi = wilson(5, 10)
    assert (round(r["low"], 9), round(r["high"], 9)) == (round(lo, 9), round(hi, 9))
    _, lo80, hi80 = wilson(40, 80)
    assert hi - lo > 2 * (hi80 - lo80)  # what counting seats as trials would have claimed


def test_one_seat_a_game_is_the_plain_wilson_interval():
    recs = [record(1, i % 3 == 0) for i in range(30)]  # 10 of 30 won, one seat each
    r = aggregate(recs, ["村民", "黑手党"])["roles"]["村民"]
    p, lo, hi = wilson(10, 30)
    assert abs(r["n_eff"] - 30) < 1e-9 and abs(r["low"] - lo) < 1e-9 and abs(r["high"] - hi) < 1e-9


def test_a_role_that_always_wins_counts_its_games_not_its_seats():
    p, lo, hi, n_eff = clustered([(3, 3)] * 12)
    assert p == 1.0 and n_eff == 12 and (lo, hi) == wilson(12, 12)[1:]


def test_simulated_villagers_interval_is_no_narrower_than_the_camps():
    """mafia-basic, 20 seats: every 村民 seat of a game wins or loses with its camp, so the role's
    interval cannot be tighter than the camp's over the same games."""
    recs = run("mafia-basic", 20, 200, 0, "random", {}, 30)
    agg = aggregate(recs, ["村民阵营", "黑手党"])
    camp = agg["rates"]["村民阵营"] if "村民阵营" in agg["rates"] else next(iter(agg["rates"].values()))
    villager = max(agg["roles"].values(), key=lambda r: r["n"])
    assert villager["n"] > len(recs)  # several seats a game
    assert villager["high"] - villager["low"] >= 0.95 * (camp["high"] - camp["low"])


# -- the paired interval: exact on the discordant seeds ---------------------------------------


def _won(won: bool) -> dict:
    return {"winners": ["村民"] if won else ["黑手党"], "draw": False}


def test_four_discordant_seeds_do_not_exclude_zero():
    """Four seeds won in b and lost in a, 96 alike: the exact two-sided p of 4 of 4 is 0.125, so
    the 95 % interval holds 0 (the normal interval on the differences did not: [+0.1, +7.9] points)."""
    from bansha_sim.stats import paired

    a = [_won(False)] * 4 + [_won(i % 2 == 0) for i in range(96)]
    b = [_won(True)] * 4 + [_won(i % 2 == 0) for i in range(96)]
    d = paired(a, b, "村民")
    assert d["diff"] == 0.04 and d["discordant"] == [4, 0]
    assert d["low"] < 0 < d["high"] and d["high"] == 0.04
    # against itself: exactly 0, a point
    same = paired(a, a, "村民")
    assert (same["diff"], same["low"], same["high"]) == (0.0, 0.0, 0.0)
    # many discordant seeds one way do exclude it
    many = paired([_won(False)] * 40, [_won(True)] * 30 + [_won(False)] * 10, "村民")
    assert many["low"] > 0


def test_clopper_pearson_against_known_values():
    from bansha_sim.stats import clopper_pearson

    for (k, n), (lo, hi) in {(4, 4): (0.3976, 1.0), (0, 10): (0.0, 0.3085), (5, 10): (0.1871, 0.8129),
                             (300, 1000): (0.2717, 0.3295)}.items():
        got = clopper_pearson(k, n)
        assert abs(got[0] - lo) < 1e-4 and abs(got[1] - hi) < 1e-4, (k, n, got)


def test_paired_coverage_of_a_known_effect():
    """Simulated pairs with a known difference (+0.05: discordance 0.15 one way, 0.10 the other,
    100 seeds): the 95 % interval covers it in at least 93 % of 400 seeded draws."""
    import random

    from bansha_sim.stats import paired

    rng = random.Random(7)
    covered = 0
    for _ in range(400):
        a, b = [], []
        for _ in range(100):
            u = rng.random()
            base = rng.random() < 0.5
            x, y = (False, True) if u < 0.15 else (True, False) if u < 0.25 else (base, base)
            a.append(_won(x))
            b.append(_won(y))
        d = paired(a, b, "村民")
        covered += d["low"] <= 0.05 <= d["high"]
    assert covered >= 0.93 * 400, covered


def test_holm_controls_the_family():
    from bansha_sim.stats import holm

    assert holm([0.01, 0.04, 0.03, 0.5]) == [0.04, 0.09, 0.09, 0.5]
    assert holm([]) == []


def test_a_role_is_counted_as_dealt():
    """qisha-xia at 20 seats: roles change hands in every game (青侠 absorb, …), yet each role's
    count (发牌次数) is the table's count times the games: the seats dealt it, not who holds it
    at the end."""
    from bansha.engine.registry import find_manifest

    table = find_manifest("qisha-xia").tables[0]
    recs = run("qisha-xia", table.seats, 30, 0, "random", {}, 30, jobs=1)
    roles = aggregate(recs, ["黑暗", "光明"])["roles"]
    assert {r: s["n"] for r, s in roles.items()} == {r: 30 * k for r, k in table.fixed.items()}
