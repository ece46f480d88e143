"""A role package from outside the repository is pip-installed into a fresh environment and
played: its entry point is found, a manifest given by path names it, the kernel is unchanged."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "out-of-tree-role"


@pytest.fixture(scope="module")
def fresh_env(tmp_path_factory):
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("uv is not on PATH")
    venv = tmp_path_factory.mktemp("fresh") / "venv"
    subprocess.run([uv, "venv", "-q", "--python", sys.executable, str(venv)], check=True)
    env = {**os.environ, "VIRTUAL_ENV": str(venv)}
    env.pop("UV_PROJECT_ENVIRONMENT", None)
    subprocess.run(
        [uv, "pip", "install", "-q", str(ROOT / "kernel"), str(ROOT / "rulesets"), str(EXAMPLE)],
        check=True, env=env, cwd=venv.parent,
    )
    return venv


def test_out_of_tree_role_is_installed_and_played(fresh_env, tmp_path):
    bansha = fresh_env / "bin" / "bansha"
    work = tmp_path / "board"
    shutil.copytree(EXAMPLE, work, ignore=shutil.ignore_patterns("*.py", "pyproject.toml"))
    r = subprocess.run([str(bansha), "scenario", "run", str(work / "scenarios")], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "1 passed, 0 failed" in r.stdout
    db = str(tmp_path / "g.db")
    r = subprocess.run([str(bansha), "new", "g", "--ruleset", str(work / "board.toml"), "--players", "A,B,C,D", "--db", db],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([str(bansha), "role", "show", "铁匠", "--ruleset", str(work / "board.toml")], capture_output=True, text=True)
    assert r.returncode == 0 and "打造" in r.stdout, r.stdout + r.stderr
