"""Packages from outside the repository are pip-installed into a fresh environment and used by
the very next command: a role package (its entry point found, a manifest given by path names it),
a command package (``bansha hello`` through the ``bansha.commands`` group) and a forum format
(``bansha votes import`` reading MyBoard's JSON through the ``bansha.forums`` group). The kernel
is unchanged, and the entry-point cache (bansha/entrypoints.py) sees each install at once."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ROLE = ROOT / "examples" / "out-of-tree-role"
COMMAND = ROOT / "examples" / "out-of-tree-command"
FORUM = ROOT / "forum"
MYBOARD = ROOT / "examples" / "out-of-tree-forum"


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


def test_a_shipped_board_file_loads_with_the_kernel_alone(tmp_path):
    """A board file shipped with a ruleset holds bansha-forum's tables (``[forum]``, ``[post]``,
    ``[pm]``, docs/manifests.md): installed with the kernel alone (no bansha-forum), it still
    loads, those tables accepted and ignored, its phase names and clock the kernel's."""
    import json
    import tomllib

    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("uv is not on PATH")
    venv = tmp_path / "venv"
    subprocess.run([uv, "venv", "-q", "--python", sys.executable, str(venv)], check=True)
    env = {**os.environ, "VIRTUAL_ENV": str(venv), "BANSHA_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("UV_PROJECT_ENVIRONMENT", None)
    env.pop("BANSHA_NO_CACHE", None)
    board = ROOT / "rulesets" / "m217"
    # the ruleset's own distribution (manifest and board file), without its roles or bansha-forum
    subprocess.run([uv, "pip", "install", "-q", str(ROOT / "kernel")], check=True, env=env, cwd=tmp_path)
    subprocess.run([uv, "pip", "install", "-q", "--no-deps", str(board)], check=True, env=env, cwd=tmp_path)
    shipped = tomllib.loads((board / "bansha_m217" / "templates" / "m217.toml").read_text(encoding="utf-8"))
    assert {"forum", "post", "pm"} <= set(shipped)
    code = ("import json\n"
            "from importlib.util import find_spec\n"
            "from bansha.engine.board import board_file, load_board\n"
            "b = load_board('m217')\n"
            "print(json.dumps({'file': str(board_file('m217')), 'tables': sorted(b), 'names': b['names'],\n"
            "                  'clock': b['clock'], 'forum': find_spec('bansha_forum') is not None}, ensure_ascii=False))\n")
    r = subprocess.run([str(venv / "bin" / "python"), "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["file"].endswith("m217.toml") and not got["forum"]
    assert got["tables"] == ["clock", "names"]
    assert got["names"] == {"opening": "{alias}", "phase": "第{day}天 {alias}", **shipped.get("names", {})}
    assert got["clock"] == shipped.get("clock", {})


def test_out_of_tree_forum_format_is_read_by_votes_import(fresh_env, tmp_path):
    """Issue 26: "a new forum format is a plugin outside the kernel". The kernel alone has no
    thread commands; bansha-forum adds them; MyBoard's format (docs/plugins.md, "A forum format")
    is one more distribution, and votes import reads it, neither the kernel nor bansha-forum
    changed."""
    import json

    install, bansha, _ = fresh_env
    install(ROLE)  # a board to play on: 铁匠铺, whose day is a vote
    db = str(tmp_path / "g.db")
    r = bansha("new", "g", "--ruleset", str(ROLE / "board.toml"), "--players", "甲,乙,丙,丁", "--db", db)
    assert r.returncode == 0, r.stderr
    thread = tmp_path / "thread.json"
    posts = [(1, "导演", "第1天 投票帖"), (2, "甲", "投票对象：乙"), (3, "丙", "投票对象：乙"), (4, "路人", "投票对象：甲")]
    thread.write_text(json.dumps({"myboard_posts": [
        {"id": 100 + f, "floor": f, "user": u, "time": f"2024-5-6 09:{10 + f}", "body": b} for f, u, b in posts],
        "total": 4}, ensure_ascii=False), encoding="utf-8")
    # the kernel alone: no thread commands, and one line saying what to install
    r = bansha("votes", "import", "g", str(thread), "--db", db)
    assert r.returncode == 2 and "pip install bansha-forum" in r.stderr, r.stderr
    assert len(r.stderr.splitlines()) == 1 and "Traceback" not in r.stderr, r.stderr
    install(FORUM)
    # bansha-forum without MyBoard: the JSON is no thread it knows (pasted text takes any text)
    r = bansha("votes", "import", "g", str(thread), "--db", db, "--forum", "myboard")
    assert r.returncode == 2 and "myboard" in r.stderr and "Traceback" not in r.stderr, r.stderr
    install(MYBOARD)
    r = bansha("votes", "import", "g", str(thread), "--db", db, "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    got = json.loads(r.stdout)
    assert got["recorded"] == 2
    assert [(p["floor"], p["status"]) for p in got["posts"]] == [(1, "ignore"), (2, "record"), (3, "record"), (4, "reject")]
    r = bansha("status", "g", "--db", db, "--json")
    tally = json.loads(r.stdout)["loop"]["vote"]["tally"]
    assert tally == [{"player": "乙", "votes": 2}]
