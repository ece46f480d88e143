"""`bansha balance`: the search finds the fair table the exact recursion names, stops the
candidates its sequential test settles, resumes after an interruption with the same result, and
plays on Ray as in one process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction

import pytest
from bansha_sim.balance import candidates, search
from test_sim_theory import day

os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")


def balance(*args):
    p = subprocess.run([sys.executable, "-m", "bansha.cli.cli", "balance", *map(str, args)], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def test_finds_the_fair_table_of_mafia_basic(tmp_path):
    """One mafioso at 9, 10 or 11 seats: the recursion says 0.406, 0.492, 0.369, so 10 seats is
    the fair one; the search ranks it first and stops the others once their 99 % interval
    excludes 0.5, long before --games."""
    fair = min(range(9, 12), key=lambda n: abs(float(day(n, 1)) - 0.5))
    assert fair == 10
    code, out, err = balance("mafia-basic", "--knob", "seats=9..11", "--option", "mafia=1", "--games", "600",
                             "--batch", "150", "--jobs", "2", "--plot", tmp_path / "b.svg", "--json")
    assert code == 0, err
    d = json.loads(out)
    best, *rest = d["candidates"]
    assert best["label"] == "seats=10" and best["n"] == 600 and best["status"] == "done"
    assert best["rate"]["low"] < float(day(10, 1)) < best["rate"]["high"]
    assert {c["status"] for c in rest} == {"off"} and all(c["n"] < 600 for c in rest)
    svg = (tmp_path / "b.svg").read_text()
    # the candidates are labelled by their settings
    assert svg.lstrip().startswith("<?xml") and "seats=10 (n=600)" in svg
    code, out, err = balance("mafia-basic", "--knob", "seats=9..11", "--option", "mafia=1", "--games", "150",
                             "--batch", "150", "--jobs", "1")
    assert code == 0 and "seats=10" in out and "候选" in out, err


def test_a_fair_candidate_stops_early():
    """With a tolerance of 0.1, 10 seats' 99 % interval lies inside 0.4–0.6 after a few hundred
    games: it stops as fair before --games."""
    cands = candidates("mafia-basic", 10, {"mafia": 1}, [])
    (c,) = search(cands, "黑手党", 0.5, 0.1, 2000, 100, 0, "random", 30)
    assert c["status"] == "fair" and c["n"] < 2000
    assert 0.4 <= c["rate"]["p"] <= 0.6


def test_resumes_after_an_interruption(tmp_path):
    state = tmp_path / "s.json"
    knobs = [("seats", [9, 10]), ("mafia", [1, 2])]

    def run(progress=None):
        return search(candidates("mafia-basic", 10, {}, knobs), "黑手党", 0.5, 0.0, 300, 100, 0, "random", 30,
                      state=state, args_key="k", progress=progress)

    class Stop(Exception):
        pass

    def interrupt(cands):
        raise Stop

    with pytest.raises(Stop):
        run(interrupt)
    saved = json.loads(state.read_text())
    assert {c["n"] for c in saved["candidates"]} == {100}
    resumed = run()
    state.unlink()
    whole = run()
    assert [(c["label"], c["n"], c["wins"]) for c in resumed] == [(c["label"], c["n"], c["wins"]) for c in whole]
    # another search's state is refused
    with pytest.raises(ValueError):
        search(candidates("mafia-basic", 10, {}, knobs), "黑手党", 0.4, 0.0, 300, 100, 0, "random", 30,
               state=state, args_key="other")


def test_ray_gives_the_same_search(extra):
    ray = extra("ray", "ray")
    knobs = [("seats", [9, 10])]
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        a = search(candidates("mafia-basic", 10, {"mafia": 1}, knobs), "黑手党", 0.5, 0.0, 100, 50, 3, "random", 30,
                   ray="")
    finally:
        ray.shutdown()
    b = search(candidates("mafia-basic", 10, {"mafia": 1}, knobs), "黑手党", 0.5, 0.0, 100, 50, 3, "random", 30)
    assert [(c["label"], c["n"], c["wins"]) for c in a] == [(c["label"], c["n"], c["wins"]) for c in b]


def test_candidates_that_cannot_be_dealt_are_left_out():
    """qisha-xia's 20 seats: 2 or 3 黑侠 with 5 or 6 侠士 fill the table only as 2+6 or 3+5."""
    code, out, err = balance("qisha-xia", "--camp", "黑暗", "--knob", "fixed:黑侠=2,3", "--knob", "fixed:侠士=5,6",
                             "--games", "10", "--batch", "10", "--jobs", "1", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert sorted(c["label"] for c in d["candidates"]) == ["fixed:黑侠=2 fixed:侠士=6", "fixed:黑侠=3 fixed:侠士=5"]
    assert len(d["invalid"]) == 2 and all(c["n"] == 10 for c in d["candidates"])


@pytest.mark.parametrize("args,msg", [
    (["mafia-basic", "--knob", "seats"], "--knob seats：应为"),
    (["mafia-basic", "--camp", "狼人"], "没有阵营 狼人"),
    (["mafia-basic", "--target", "2"], "--target 应在 0 到 1 之间"),
    (["mafia-basic", "--tolerance", "0"], "--tolerance 应大于 0 且小于 1"),
    (["mafia-basic", "--tolerance", "-0.1"], "--tolerance 应大于 0 且小于 1"),
    (["nope"], "没有规则 nope"),
])
def test_bad_input(args, msg):
    code, out, err = balance(*args, "--games", "5")
    assert code == 2 and err.startswith("错误：") and msg in err and len(err.strip().splitlines()) == 1, err


def test_the_defaults_call_an_exactly_fair_candidate_fair():
    """mafia-basic at 10 seats with one mafioso: the exact recursion gives the mafia 63/128 =
    0.4921875. With its defaults (the 98 % interval within ± 0.02, up to 20,000 games) the
    search calls it 公平; the old defaults (99 %, 2,000 games) could not, an interval at 0.5
    needing 4,142 games to fit. Seed 0 calls it after 4,000 games (about 20 CPU-seconds)."""
    assert day(10, 1) == Fraction(63, 128)
    code, out, err = balance("mafia-basic", "--knob", "seats=10", "--knob", "mafia=1", "--target", "0.4922",
                             "--jobs", "2", "--json")
    assert code == 0, err
    (c,) = json.loads(out)["candidates"]
    assert c["status"] == "fair" and c["n"] < 20_000, c
    assert c["rate"]["low"] < float(day(10, 1)) < c["rate"]["high"]
