"""The house (docs/architecture.md): the kernel holds the engine, the store and the commands that
need only them; the forum layer (the thread's parser, the vote plan, the post and PM writers,
``votes import``, ``post``, ``pm``) is the bansha-forum distribution's, found by the kernel only
through entry points (issue 26: "another forum's format means a kernel change" no more)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import bansha
import pytest
from bansha import cli
from bansha.cli_table import Table
from bansha.entrypoints import entry_points

KERNEL = Path(bansha.__file__).parent
#: what the forum layer defines: none of it may be defined in the kernel again (the kernel's
#: ``board.Post`` is the board file's ``[post]`` table, not a thread's post)
FORUM_LAYER = {"parse_thread", "read_vote", "plan", "Quote", "Row", "render_post", "pms", "render_pms",
               "check_bbcode", "carried", "carried_into", "last_words_lines", "votes_import", "post", "pm",
               "demo_post", "other_phase"}


def kernel_modules():
    return sorted(KERNEL.glob("*.py"))


def test_no_kernel_module_imports_the_forum_layer_or_names_it():
    for path in kernel_modules():
        text = path.read_text(encoding="utf-8")
        # not imported at start-up, nor inside a function, nor by importlib with its name
        assert "bansha_forum" not in text, path.name
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import):
                assert not any(a.name.split(".")[0] == "bansha_forum" for a in node.names), path.name
            elif isinstance(node, ast.ImportFrom):
                assert (node.module or "").split(".")[0] != "bansha_forum", path.name


def test_the_kernel_defines_no_part_of_the_forum_layer():
    defined = {}
    for path in kernel_modules():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name in FORUM_LAYER:
                defined[node.name] = path.name
    assert not defined, defined
    assert not (KERNEL / "forum.py").exists() and not (KERNEL / "posts.py").exists()
    # the check can fail: the forum layer is defined, in bansha-forum
    import bansha_forum.adapters.discuz_text
    import bansha_forum.loop
    import bansha_forum.posts
    import bansha_forum.votes

    there = {name for mod in (bansha_forum.adapters.discuz_text, bansha_forum.votes, bansha_forum.posts, bansha_forum.loop)
             for name in vars(mod) if name in FORUM_LAYER}
    assert there | {"Quote"} == FORUM_LAYER, FORUM_LAYER - there
    from bansha_forum.thread import Post, Quote  # the thread's posts, as every adapter gives them

    assert Post.__module__ == Quote.__module__ == "bansha_forum.thread"


@pytest.mark.parametrize("name", ["votes", "post", "pm"])
def test_votes_import_post_and_pm_are_served_by_bansha_forum(name):
    assert name not in cli.commands.names()  # not the kernel's own
    [ep] = [ep for ep in entry_points("bansha.commands") if ep.name == name]
    assert ep.dist == "bansha-forum" and ep.module == "bansha_forum.loop"
    table = ep.load()
    assert isinstance(table, Table) and name in table.names()
    line = {"votes": ["votes", "import", "g", "-"], "post": ["post", "g"], "pm": ["pm", "g", "--all"]}[name]
    command, _ = cli.quick(line)  # a plain line runs it as the kernel runs its own
    assert command.__module__ == "bansha_forum.loop"


def test_the_demo_post_is_bansha_forums():
    [ep] = entry_points("bansha.demo")
    assert ep.dist == "bansha-forum" and ep.load().__module__ == "bansha_forum.posts"


def without_forum(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """``bansha *args`` in a real process whose installation does not offer bansha-forum's entry
    points (as where only the kernel is installed)."""
    code = ("import sys\n"
            "from bansha import entrypoints\n"
            "real = entrypoints.entry_points\n"
            "entrypoints.entry_points = lambda g: tuple(e for e in real(g) if e.dist != 'bansha-forum')\n"
            "from bansha.cli import main\n"
            "sys.argv = ['bansha', *sys.argv[1:]]\n"
            "main()\n")
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})})


def test_without_bansha_forum_the_thread_commands_are_no_commands_and_the_rest_works(tmp_path):
    db = str(tmp_path / "g.db")
    players = ",".join(f"P{i:02}" for i in range(1, 13))
    r = without_forum("new", "g", "--ruleset", "light-shadow", "--players", players, "--seed", "5", "--db", db)
    assert r.returncode == 0, r.stderr
    for line in (["votes", "import", "g", "-"], ["post", "g"], ["pm", "g"]):
        r = without_forum(*line, "--db", db)
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        # one line: no such command, and what to install (a user who typed it expects to learn that)
        assert r.stderr.strip().splitlines() == [f"错误：bansha: 没有命令 {line[0]}：它是 bansha-forum 的命令，需要安装 "
                                                 "bansha-forum（uv sync --all-packages 或 pip install bansha-forum）"], r.stderr
    r = without_forum("--help")
    assert r.returncode == 0 and "amend" in r.stdout and "post " not in r.stdout and "votes" not in r.stdout
    # the demo plays to its end; the thread post after it is bansha-forum's
    r = without_forum("demo", "--ruleset", "light-shadow")
    assert r.returncode == 0 and "--- bansha post GAME" not in r.stdout, r.stderr
    exe = str(Path(sys.executable).parent / "bansha")
    assert "--- bansha post GAME" in subprocess.run([exe, "demo", "--ruleset", "light-shadow"], capture_output=True,
                                                    text=True).stdout
