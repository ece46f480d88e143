"""`bansha stats`: the finished real games of a store (SQLite, and PostgreSQL where
BANSHA_TEST_PG is given; under CI its absence fails), with --compare-sim."""

from __future__ import annotations

import json
import subprocess
import sys

from bansha.engine.model import RulingEvent
from bansha.store.store import open_store
from bansha_sim.play import play_game
from pgschema import pg_schema


def bansha(*args):
    p = subprocess.run([sys.executable, "-m", "bansha.cli.cli", *map(str, args)], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def _fill(url):
    """mafia-basic at 10 seats with one mafioso (theory: the mafia win 49 %): 4 games played to
    the end, 12 the director declared drawn on day 1 (finished, no camp won), one with a player
    removed, one unfinished, one kept by the simulator; 6 of m217 played to the end."""
    store = open_store(url, cache=False)
    wins = {"黑手党": 0, "市民": 0}
    days = []
    for i in range(4):
        r = play_game("mafia-basic", 10, i, "random", {"mafia": 1}, keep=True)
        store.create(f"g{i}", r["setup"])
        for ev in r["events"]:
            store.append(f"g{i}", ev)
        for c in r["winners"]:
            wins[c] += 1
        days.append(r["days"])
    for i in range(4, 16):
        r = play_game("mafia-basic", 10, i, "random", {"mafia": 1}, day_limit=0, keep=True)
        store.create(f"g{i}", r["setup"])
        store.append(f"g{i}", RulingEvent(phase=store.load(f"g{i}").label, kind="draw"))
    r = play_game("mafia-basic", 10, 20, "random", {"mafia": 1}, keep=True)
    store.create("removed", r["setup"])
    for ev in r["events"][:3]:
        store.append("removed", ev)
    store.append("removed", RulingEvent(phase=store.load("removed").label, kind="remove", player="P03"))
    r = play_game("mafia-basic", 10, 21, "random", {"mafia": 1}, day_limit=1, keep=True)
    store.create("open", r["setup"])
    for ev in r["events"][:5]:
        store.append("open", ev)
    store.create("sim-mafia-basic-0", r["setup"])
    m217 = []
    for i in range(6):
        r = play_game("m217", 14, i, "random", keep=True)
        store.create(f"m{i}", r["setup"])
        for ev in r["events"]:
            store.append(f"m{i}", ev)
        m217.append(r)
    store.close()
    return wins, days, m217


def _check(url):
    wins, days, m217 = _fill(url)
    code, out, err = bansha("stats", "mafia-basic", "--db", url, "--json")
    assert code == 0, err
    (g,) = json.loads(out)["groups"]
    assert (g["ruleset"], g["seats"], g["options"]) == ("mafia-basic", 10, {"mafia": 1})
    assert g["games"] == 16 and g["draws"] == 12
    assert g["left_out"] == {"unfinished": 1, "removed": 1, "sim": 1}
    assert g["wins"] == wins
    assert g["rates"]["黑手党"]["p"] == wins["黑手党"] / 16
    assert g["rates"]["黑手党"]["low"] <= g["rates"]["黑手党"]["p"] <= g["rates"]["黑手党"]["high"]
    assert g["mean_days"] == (sum(days) + 12 * 1) / 16
    assert g["roles"]["黑手党"]["n"] == 16 and g["roles"]["平民"]["n"] == 16 * 9
    # every board: m217's group too, its win counts those of the games played
    code, out, err = bansha("stats", "--db", url, "--json")
    groups = {x["ruleset"]: x for x in json.loads(out)["groups"]}
    assert groups["m217"]["games"] == 6
    assert groups["m217"]["wins"]["狼人阵营"] == sum("狼人阵营" in r["winners"] for r in m217)
    assert sum(groups["m217"]["causes"].values()) == sum(sum(r["causes"].values()) for r in m217)
    # --compare-sim: 12 draws in 16 games are far from what policies play (49 %): flagged
    code, out, err = bansha("stats", "mafia-basic", "--db", url, "--compare-sim", "--sim-games", "200", "--json")
    assert code == 0, err
    (g,) = json.loads(out)["groups"]
    sim = g["sim"]
    assert sim["games"] == 200 and 0.35 < sim["rates"]["黑手党"]["p"] < 0.63
    assert sim["rates"]["黑手党"]["disagrees"] or sim["rates"]["市民"]["disagrees"]
    # the text report, in the board's language
    code, out, err = bansha("stats", "mafia-basic", "--db", url, "--compare-sim", "--sim-games", "100")
    assert code == 0 and "已结束 16 局" in out and "不符" in out and "有玩家被移除或替换 1 局" in out, out + err


def test_stats_sqlite(tmp_path):
    _check(str(tmp_path / "games.db"))


def test_stats_postgresql():
    with pg_schema() as url:
        _check(url)


def test_stats_refuses_an_unknown_board(tmp_path):
    code, out, err = bansha("stats", "nope", "--db", tmp_path / "g.db")
    assert code == 2 and err.startswith("错误：") and len(err.strip().splitlines()) == 1, err


def test_the_simulators_own_games_agree_with_it(tmp_path):
    """150 games the simulator played (stored as real ones) against 600 it plays again on other
    seeds: the same law, so no row may be marked 不符. Every camp and role of qisha-xia is a row
    (a dozen tests): at 5 % each, some row of such a group is marked in about every second run;
    Holm's rule over the group holds the chance of any at 5 %."""
    from bansha.engine.registry import find_manifest

    url = str(tmp_path / "games.db")
    seats = find_manifest("qisha-xia").tables[0].seats
    store = open_store(url, cache=False)
    for i in range(150):
        r = play_game("qisha-xia", seats, 10_000 + i, "random", keep=True)
        store.create(f"q{i}", r["setup"])
        store.append_all(f"q{i}", lambda game, events=r["events"]: events)  # one write a game
    store.close()
    code, out, err = bansha("stats", "qisha-xia", "--db", url, "--compare-sim", "--sim-games", "600", "--json")
    assert code == 0, err
    (g,) = json.loads(out)["groups"]
    sim = g["sim"]
    rows = [*sim["rates"].values(), *sim["roles"].values()]
    assert len(rows) >= 8 and sim["correction"] == "holm"
    assert all(r["p_adjusted"] >= r["p_value"] for r in rows)
    assert not any(r["disagrees"] for r in rows), [(k, r["p_value"]) for k, r in sim["roles"].items()]
