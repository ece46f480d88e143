"""Boards compared on the same seeds (docs/simulate.md "Comparing boards"): the coupled deal
deals what two boards share to the same seats and is still a fair deal of each board; a seat's
draws are its own; `bansha simulate A B` and `--vary pool:…` pair the games seed by seed."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter
from types import SimpleNamespace

from bansha.engine.registry import find_manifest
from bansha_sim.boards import coupled_deal, edit_manifest
from bansha_sim.play import new_game, play_game


def sim(*args):
    """The real `bansha simulate` in a subprocess."""
    p = subprocess.run([sys.executable, "-m", "bansha.cli.cli", "simulate", *map(str, args)], capture_output=True, text=True)
    return SimpleNamespace(exit_code=p.returncode, stdout=p.stdout, stderr=p.stderr, output=p.stdout + p.stderr)

NAMES14 = [f"P{i:02d}" for i in range(1, 15)]
FEWER = (("pool:弱神", "-白猫-熊"),)


def test_the_coupled_deal_is_a_fair_deal():
    """Every seat is equally likely to hold a role: qisha-xia's 3 黑侠 at each of 20 seats in
    3/20 of 3,000 deals, within 4 standard deviations (the test fails for a deal that favours
    low seats, as a rank-based deal without the seats' own orders would)."""
    m = find_manifest("qisha-xia")
    names = [f"P{i:02d}" for i in range(1, 21)]
    n = 3000
    at = Counter()
    for seed in range(n):
        for ps in coupled_deal(m, names, seed):
            if ps.role == "黑侠":
                at[ps.name] += 1
    sd = math.sqrt(n * 0.15 * 0.85)
    assert all(abs(at[name] - n * 0.15) < 4 * sd for name in names), at


def test_m217_deals_hold_the_constraints_and_share_seats():
    """m217's constraints (> 狼王恐怖分子狼兄必有且只会有一个 有狼兄必有狼弟; 警察 turns a 强神
    into 警察) hold in every coupled deal; two boards whose 弱神 differ by two roles deal the
    same roles to the same seats in every seed where neither removed role is drawn, and differ
    in few seats where one is."""
    a = find_manifest("m217")
    b = edit_manifest(a, FEWER)
    assert "白猫" not in b.tables[0].pools[3].roles and "白猫" in a.tables[0].pools[3].roles
    same = differ = 0
    for seed in range(200):
        da = coupled_deal(a, NAMES14, seed)
        db = coupled_deal(b, NAMES14, seed)
        roles = [p.role for p in da]
        assert sum(roles.count(r) for r in ("狼王", "恐怖分子", "狼兄")) == 1
        assert ("狼兄" in roles) == ("狼弟" in roles)
        if not {"白猫", "熊"} & set(roles):
            assert [(p.name, p.role) for p in da] == [(p.name, p.role) for p in db]
            same += 1
        else:
            seats = sum(x.role != y.role for x, y in zip(da, db, strict=True))
            assert seats >= 1
            differ += seats
    assert same > 50
    assert differ / (200 - same) < 2.5  # about one seat per removed role drawn


def test_a_seat_draws_from_its_own_source(monkeypatch):
    """A seat's draws do not depend on how many the seats before it drew: with P01 drawing
    ten numbers more at every decision, the other seats' day-1 ballots are the same."""
    from bansha_sim import policies

    def ballots():
        r = play_game("mafia-basic", 10, 4, "random", {"mafia": 3}, keep=True)
        return [(e.voter, e.target) for e in r["events"] if type(e).__name__ == "VoteEvent" and "1" in e.phase]

    before = ballots()

    class Greedy(policies.RandomPolicy):
        def decide(self, seat):
            if seat.name == "P01":
                for _ in range(10):
                    seat.rng.random()
            return super().decide(seat)

    monkeypatch.setattr("bansha_sim.play._policy", lambda name: Greedy())
    after = ballots()
    assert [b for b in after if b[0] != "P01"] == [b for b in before if b[0] != "P01"]
    assert len(before) == 10


def test_compare_two_board_files(tmp_path):
    """`bansha simulate A B`: a board file that gives mafia-basic's 10-seat table 4 mafia instead
    of 3 (theory: 0.93 → 0.99 for the mafia) plays the same seeds; the paired interval is the
    difference's, and excludes 0."""
    from bansha.engine.registry import manifest_path

    text = manifest_path("mafia-basic").read_text(encoding="utf-8")
    b = tmp_path / "more-mafia.toml"
    # a board file of its own has its own id (a variant may not reuse an installed board's)
    text = text.replace('id = "mafia-basic"', 'id = "more-mafia"', 1)
    b.write_text(text.replace('seats = 10\nfixed = { "黑手党" = 3, "平民" = 7 }',
                              'seats = 10\nfixed = { "黑手党" = 5, "平民" = 5 }'), encoding="utf-8")
    r = sim("mafia-basic", str(b), "--seats", "10", "--games", "200", "--jobs", "1", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    first, second = d["values"]
    assert d["vary"] == "board" and second["vary"] == {"board": str(b)}
    diff = second["paired_vs_first"]["黑手党"]
    assert abs(diff["diff"] - (second["rates"]["黑手党"]["p"] - first["rates"]["黑手党"]["p"])) < 1e-9
    assert diff["low"] > 0
    # the text report says both intervals, in the board's language
    t = sim("mafia-basic", str(b), "--seats", "10", "--games", "20", "--jobs", "1")
    assert t.exit_code == 0 and "配对差" in t.stdout and "不配对" in t.stdout, t.output


def test_vary_a_pool_is_the_board_file():
    """`--vary pool:弱神=,-白猫-熊` plays the board as it is and with the two roles out; its games
    are those of a manifest edited so (the same records, seed by seed). The seeds in which
    neither role is drawn play the same game on both boards, so the paired interval is narrower
    than two independent runs' would be."""
    r = sim("m217", "--vary", "pool:弱神=,-白猫-熊", "--games", "30", "--jobs", "1", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert [v["vary"] for v in d["values"]] == [{"pool:弱神": ""}, {"pool:弱神": "-白猫-熊"}]
    recs = [play_game(("m217", FEWER), 14, s) for s in range(30)]
    wolves = sum("狼人阵营" in x["winners"] for x in recs)
    assert d["values"][1]["wins"]["狼人阵营"] == wolves
    diff = d["values"][1]["paired_vs_first"]["狼人阵营"]
    assert diff["high"] - diff["low"] < diff["unpaired_high"] - diff["unpaired_low"]
    # no 白猫 or 熊 is dealt on the edited board
    assert not any(p.role in ("白猫", "熊") for s in range(40) for p in new_game(("m217", FEWER), 14, s, {})[0].players)


def test_bad_edits_are_refused():
    r = sim("m217", "--vary", "pool:弱神=,-国王", "--games", "2")
    assert r.exit_code == 2 and "国王" in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.output
    r = sim("m217", "--vary", "pool:无此池=,-白猫", "--games", "2")
    assert r.exit_code == 2 and "无此池" in r.stderr, r.output
