"""Packages from outside the repository are pip-installed into a fresh environment and used by
the very next command: a role package (its entry point found, a manifest given by path names it)
and a command package (``bansha hello`` through the ``bansha.commands`` group). The kernel is
unchanged, and the entry-point cache (bansha/entrypoints.py) sees each install at once."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ROLE = ROOT / "examples" / "out-of-tree-role"
COMMAND = ROOT / "examples" / "out-of-tree-command"


@pytest.fixture(scope="module")
def fresh_env(tmp_path_factory):
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("uv is not on PATH")
    top = tmp_path_factory.mktemp("fresh")
    venv = top / "venv"
    subprocess.run([uv, "venv", "-q", "--python", sys.executable, str(venv)], check=True)
    env = {**os.environ, "VIRTUAL_ENV": str(venv), "BANSHA_CACHE_DIR": str(top / "cache")}
    env.pop("UV_PROJECT_ENVIRONMENT", None)
    env.pop("BANSHA_NO_CACHE", None)
    # the kernel alone, no board installed: every listing command still works
    subprocess.run([uv, "pip", "install", "-q", str(ROOT / "kernel")],
                   check=True, env=env, cwd=top)

    def install(package: Path) -> None:
        subprocess.run([uv, "pip", "install", "-q", str(package)], check=True, env=env, cwd=top)

    def bansha(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(venv / "bin" / "bansha"), *args], capture_output=True, text=True, env=env)

    return install, bansha, top / "cache"


def test_out_of_tree_role_is_seen_by_the_next_command(fresh_env, tmp_path):
    install, bansha, cache = fresh_env
    work = tmp_path / "board"
    shutil.copytree(ROLE, work, ignore=shutil.ignore_patterns("*.py", "pyproject.toml"))
    board = str(work / "board.toml")
    # before the install: refused in one line, and the scan is cached
    r = bansha("role", "show", "铁匠", "--ruleset", board)
    assert r.returncode == 2 and "example.smith" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert list(cache.glob("entry-points-*.marshal")), "the first command wrote the entry-point cache"
    install(ROLE)
    r = bansha("role", "show", "铁匠", "--ruleset", board)
    assert r.returncode == 0 and "打造" in r.stdout, r.stdout + r.stderr
    r = bansha("scenario", "run", str(work / "scenarios"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "1个通过，0个失败" in r.stdout  # no board's language yet: BANSHA_LANG, else zh
    db = str(tmp_path / "g.db")
    r = bansha("new", "g", "--ruleset", board, "--players", "A,B,C,D", "--db", db)
    assert r.returncode == 0, r.stderr


def test_out_of_tree_command_adds_bansha_hello(fresh_env, tmp_path):
    install, bansha, _ = fresh_env
    r = bansha("hello", "g")
    assert r.returncode == 2 and "hello" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert "hello" not in bansha("--help").stdout
    install(COMMAND)
    help_text = bansha("--help").stdout
    assert "hello" in help_text and "Say hello to each living player" in help_text
    install(ROLE)  # a board to play on (the fresh environment has no shipped roles)
    db = str(tmp_path / "g.db")
    r = bansha("new", "g", "--ruleset", str(ROLE / "board.toml"), "--players", "甲,乙,丙,丁", "--db", db)
    assert r.returncode == 0, r.stderr
    r = bansha("hello", "g", "--db", db)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [f"你好，{n}" for n in "甲乙丙丁"]
    # a built-in command stays the kernel's, and an unknown game is still one line
    r = bansha("hello", "nope", "--db", db)
    assert r.returncode == 2 and r.stderr.startswith(("error: ", "错误：")) and len(r.stderr.splitlines()) == 1
