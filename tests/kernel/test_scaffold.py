"""``bansha role new NAME --board ID``: the distribution it writes plays its own scenario and
passes its own test on every shipped board (here with the module registered in-process; the
installed path, from wheels, is tests/kernel/test_outsider_path.py). Bad input is one line."""

import importlib.util
import subprocess
import sys

import pytest
from bansha.scenario import run_file

BOARDS = ["m217", "qisha-xia", "light-shadow", "mafia-basic"]


def _bansha(*args):
    return subprocess.run([sys.executable, "-m", "bansha.cli", *args], capture_output=True, text=True)


def _import(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("board", BOARDS)
def test_a_new_role_plays_its_scenario_and_passes_its_test(tmp_path, bansha_plugin, board):
    out = _bansha("role", "new", "白昼学者", "--board", board, "--alias", "day-scholar", "--dir", str(tmp_path))
    assert out.returncode == 0, out.stderr
    folder = tmp_path / "bansha-community-day-scholar"
    assert out.stdout.strip() == str(folder)
    assert {p.name for p in folder.iterdir()} >= {"pyproject.toml", "bansha_community_day_scholar.py", "board.toml",
                                                  "scenarios", "tests", "README.md"}
    assert '"community.day-scholar" = "bansha_community_day_scholar"' in (folder / "pyproject.toml").read_text(encoding="utf-8")
    bansha_plugin("community.day-scholar", _import(folder / "bansha_community_day_scholar.py"))
    game = run_file(folder / "scenarios" / "day-scholar.toml")
    assert ("玩家1" in game.feedback) and any(t == "玩家2的座位号是2。" for _, t in game.feedback["玩家1"])
    _import(folder / "tests" / "test_day_scholar.py").test_the_variant_deals_the_role()


def test_bad_names_and_a_used_folder_are_one_line(tmp_path):
    out = _bansha("role", "new", "白昼学者", "--board", "m217", "--dir", str(tmp_path))
    assert out.returncode == 2 and "--alias" in out.stderr and "Traceback" not in out.stderr
    out = _bansha("role", "new", "x", "--board", "no-such-board", "--dir", str(tmp_path))
    assert out.returncode == 2 and "no-such-board" in out.stderr and "Traceback" not in out.stderr
    assert _bansha("board", "new", "m217-v", "--extends", "m217", "--dir", str(tmp_path)).returncode == 0
    out = _bansha("board", "new", "m217-v", "--extends", "m217", "--dir", str(tmp_path))
    assert out.returncode == 2 and "已存在" in out.stderr and len(out.stderr.strip().splitlines()) == 1
