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
