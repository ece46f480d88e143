"""`bansha simulate` from the command line: the JSON, determinism, refusals, --vary, --keep."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from types import SimpleNamespace

import pytest

TIMING = {"seconds", "games_per_second"}


def bansha(*args, env=None):
    """The real `bansha` entry point (plugin commands are added by ``main``)."""
    p = subprocess.run([sys.executable, "-m", "bansha.cli.cli", *map(str, args)], capture_output=True, text=True,
                       env=None if env is None else {**os.environ, **env})
    return SimpleNamespace(exit_code=p.returncode, stdout=p.stdout, stderr=p.stderr, output=p.stdout + p.stderr)


def sim(*args, db=None):
    extra = ["--db", str(db)] if db else []
    return bansha("simulate", *args, *extra)


def _strip(d):
    if isinstance(d, dict):
        return {k: _strip(v) for k, v in d.items() if k not in TIMING}
    if isinstance(d, list):
        return [_strip(v) for v in d]
    return d


def test_json_keys_and_determinism():
    a = sim("mafia-basic", "--seats", "7", "--games", "60", "--seed", "5", "--jobs", "1", "--json")
    assert a.exit_code == 0, a.output
    d = json.loads(a.stdout)
    for key in ("ruleset", "seats", "games", "policy", "seed", "wins", "rates", "draws", "unfinished",
                "mean_days", "seconds", "games_per_second"):
        assert key in d
    assert d["ruleset"] == "mafia-basic" and d["seats"] == 7 and d["games"] == 60 and d["seed"] == 5
    assert sum(d["wins"].values()) + d["draws"] + d["unfinished"] == 60
    for r in d["rates"].values():
        assert r["low"] <= r["p"] <= r["high"]
    b = sim("mafia-basic", "--seats", "7", "--games", "60", "--seed", "5", "--jobs", "2", "--json")
    assert _strip(json.loads(b.stdout)) == _strip(d)
    c = sim("mafia-basic", "--seats", "7", "--games", "60", "--seed", "6", "--jobs", "1", "--json")
    assert _strip(json.loads(c.stdout)) != _strip(d)  # another seed, other games


@pytest.mark.parametrize("board", [["light-shadow", "--seats", "12", "--policy", "informed"],
                                   ["m217", "--seats", "14", "--policy", "informed"]], ids=lambda b: b[0])
def test_a_seed_gives_the_same_games_in_any_process(board):
    """The seed decides everything, not the interpreter: string hashing (and so the order of a
    set of names) differs between processes unless PYTHONHASHSEED pins it. light-shadow's
    informed policy once drew its questions in a set's order, and its games moved with it."""
    runs = [bansha("simulate", *board, "--games", "8", "--seed", "3", "--jobs", "1", "--json",
                   env={"PYTHONHASHSEED": h}) for h in ("1", "2", "3")]
    for r in runs:
        assert r.exit_code == 0, r.output
    a, b, c = (_strip(json.loads(r.stdout)) for r in runs)
    assert a == b == c


@pytest.mark.parametrize("args,msg", [
    (["nope"], "没有规则 nope"),
    (["mafia-basic", "--seats", "3"], "没有 3 人的桌型"),
    (["mafia-basic", "--seats", "7", "--option", "colour=red"], "没有房规 colour"),
    (["mafia-basic", "--seats", "7", "--option", "mafia"], "--option mafia：应为 键=值"),
    (["mafia-basic", "--seats", "7", "--option", "mafia=9"], "房规 黑手党人数"),  # the plugin's own words, in the board's language
    (["mafia-basic", "--seats", "7", "--policy", "clever"], "没有策略 clever"),
    (["mafia-basic", "--seats", "7", "--games", "0"], "--games 至少为 1"),
    (["mafia-basic", "--seats", "7", "--vary", "mafia=1"], "--vary mafia=1：应为"),
    (["mafia-basic", "--seats", "7", "--vary", "colour=1,2"], "--vary colour：规则 mafia-basic 没有房规 colour"),
    (["mafia-basic", "--seats", "7", "--plot", "x.pdf"], "--plot x.pdf：文件名应以 .png 或 .svg 结尾"),
])
def test_bad_input_is_one_line_exit_2(args, msg):
    """A refusal prints like the kernel's: one line 错误：… on stderr (a Chinese board, no
    BANSHA_LANG), exit 2; with --json one JSON object on stdout instead."""
    r = sim(*args, "--games", "5") if "--games" not in args else sim(*args)
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("错误：") and msg in lines[0], r.stderr
    j = sim(*args, "--json", "--games", "5") if "--games" not in args else sim(*args, "--json")
    assert j.exit_code == 2 and j.stderr == "" and msg in json.loads(j.stdout)["error"], j.output


def test_vary_pairs_the_same_seeds():
    r = sim("mafia-basic", "--seats", "10", "--games", "300", "--vary", "mafia=1,3", "--jobs", "1", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    v1, v3 = d["values"]
    assert v1["vary"] == {"mafia": "1"} or v1["vary"] == {"mafia": 1} or v1["options"]["mafia"] == 1
    # three mafia out of ten win far more often than one (theory: 0.96 vs 0.58)
    diff = v3["paired_vs_first"]["黑手党"]
    assert diff["low"] > 0.2
    assert abs(diff["diff"] - (v3["rates"]["黑手党"]["p"] - v1["rates"]["黑手党"]["p"])) < 1e-9


def test_keep_stores_replayable_games(tmp_path):
    db = tmp_path / "g.db"
    r = sim("mafia-basic", "--seats", "6", "--games", "4", "--keep", "2", "--jobs", "1", "--json", db=db)
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["kept"] == ["sim-mafia-basic-0", "sim-mafia-basic-1"]
    from bansha.store.store import Store

    g = Store(db).load("sim-mafia-basic-1")
    assert g.winner is not None
    s = bansha("log", "sim-mafia-basic-1", "--explain", "--db", db)
    assert s.exit_code == 0 and "出局（" in s.stdout
    # a finished game shows the phase that ended it, whose day is the game's length
    st = bansha("status", "sim-mafia-basic-1", "--db", db, "--json")
    assert st.exit_code == 0, st.output
    view = json.loads(st.stdout)
    assert view["winner"]
    assert view["phase"] == g.resolved[-1], (view["phase"], g.resolved)
    assert int(view["phase"].split()[-1]) == g.day


def test_plot(tmp_path, extra):
    extra("matplotlib", "plot")
    out = tmp_path / "p.svg"
    r = sim("mafia-basic", "--seats", "6", "--games", "30", "--jobs", "1", "--plot", str(out), "--json")
    assert r.exit_code == 0, r.output
    assert out.read_text().lstrip().startswith("<?xml")


def test_policy_sees_only_the_view(monkeypatch):
    """A policy gets a Seat: its attributes are the name, the view, the choices, the vote, the
    rng, the board's camps, its public table and the policy's own memo of the game (what it
    worked out earlier, from its views), and for a policy of one pick (random) the vote
    listing's question (``vote_test``: it answers what ``vote_choices`` would list, and no
    more); the game itself is private."""
    from bansha_sim import policies
    from bansha_sim.play import play_game

    seen = []

    class Spy(policies.RandomPolicy):
        def decide(self, seat):
            seen.append(seat)
            return super().decide(seat)

    monkeypatch.setattr("bansha_sim.play._policy", lambda name: Spy())
    play_game("mafia-basic", 7, 3)
    assert seen
    s = seen[0]
    public = {a for a in vars(s) if not a.startswith("_")}
    assert public <= {"name", "choices", "vote", "vote_test", "rng", "camps", "table", "view", "card", "players", "memo", "votes",
                      "roles"}
    # what the policy is handed of the listing's questions keeps the game private too
    assert {a for a in vars(s.vote_test) if not a.startswith("_")} <= {"candidates", "asked"}
    tests = [c.test for t in seen for c in t.choices if c.test is not None]
    assert tests and all({a for a in vars(t) if not a.startswith("_")} <= {"skill", "declared", "lo", "hi", "pool", "names", "asked"}
                         for t in tests)
    # one memo a game, shared by its seats; the next game starts another
    n = len(seen)
    play_game("mafia-basic", 7, 4)
    assert all(t.memo is s.memo for t in seen[:n]) and all(t.memo is seen[n].memo for t in seen[n:])
    assert seen[n].memo is not s.memo
    from bansha.show.views import player_view

    assert s.view == player_view(s._game, s.name) or s.view["you"]["name"] == s.name
