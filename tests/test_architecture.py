"""The house (docs/architecture.md): the kernel holds the engine, the store and the commands that
need only them; the forum layer (the thread's parser, the vote plan, the post and PM writers,
``votes import``, ``post``, ``pm``) is the bansha-forum distribution's, found by the kernel only
through entry points (issue 26: "another forum's format means a kernel change" no more)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import bansha
import pytest
from bansha.cli import cli
from bansha.cli.table import Table
from bansha.entrypoints import entry_points

KERNEL = Path(bansha.__file__).parent
#: what the forum layer defines: none of it may be defined in the kernel again
FORUM_LAYER = {"parse_thread", "read_vote", "plan", "Quote", "Row", "render_post", "pms", "render_pms",
               "check_bbcode", "carried", "carried_into", "last_words_lines", "votes_import", "post", "pm",
               "demo_post", "other_phase"}


def kernel_modules():
    return sorted(KERNEL.rglob("*.py"))  # every layer's modules


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
    assert not {p.name for p in kernel_modules()} & {"forum.py", "posts.py"}
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


#: keys of the board file's forum-layer tables, as a schema or a default table would name them
FORUM_TABLE_KEYS = ("vote_reason", "change_must_quote", "prod_posts", "vote_counts", "vote_record", "headings",
                    "greeting")


def test_the_board_files_forum_tables_are_declared_by_bansha_forum_not_the_kernel():
    """The kernel's board.py holds ``names`` and ``clock`` and the mechanism; ``[forum]``,
    ``[post]`` and ``[pm]`` are bansha-forum's (entry points ``bansha.board_sections``)."""
    text = (KERNEL / "engine" / "board.py").read_text(encoding="utf-8")
    named = {node.id if isinstance(node, ast.Name) else node.value
             for node in ast.walk(ast.parse(text))
             if isinstance(node, ast.Name) or (isinstance(node, ast.Constant) and isinstance(node.value, str))}
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef):
            named.add(node.name)
    assert not named & {*FORUM_TABLE_KEYS, "Forum", "Post", "PM", "Section", "SECTIONS"}, named & {*FORUM_TABLE_KEYS}
    from bansha.engine import board

    assert set(board.DEFAULT_BOARD) == {"names", "clock"}
    eps = {ep.name: ep for ep in entry_points(board.SECTIONS_GROUP)}
    assert set(eps) == {"forum", "post", "pm"} and {ep.dist for ep in eps.values()} == {"bansha-forum"}
    # the check can fail: those keys are declared, in bansha-forum, and load_board gives them
    sections = board.board_sections()
    declared = {key for s in sections.values() for key in s.schema.__struct_fields__}
    assert set(FORUM_TABLE_KEYS) <= declared
    loaded = board.load_board("m217")
    assert loaded["pm"]["greeting"] and loaded["forum"]["vote_reason"] and loaded["post"]["vote_counts"]


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
            "from bansha.cli.cli import main\n"
            "sys.argv = ['bansha', *sys.argv[1:]]\n"
            "main()\n")
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})})


def test_without_bansha_forum_a_shipped_board_file_loads_and_its_forum_tables_are_ignored(tmp_path):
    """A board file shipped with a ruleset holds ``[forum]``, ``[post]``, ``[pm]``: with only the
    kernel it still loads (those tables accepted and ignored); a table nobody declares is refused."""
    import json

    from bansha.engine.board import board_file

    shipped = board_file("m217")
    assert {"forum", "post", "pm"} <= set(tomllib.loads(shipped.read_text(encoding="utf-8")))
    odd = tmp_path / "odd.toml"
    odd.write_text(shipped.read_text(encoding="utf-8") + "\n[weather]\nrain = 1\n", encoding="utf-8")
    code = ("import json, sys\n"
            "from bansha import entrypoints\n"
            "real = entrypoints.entry_points\n"
            "entrypoints.entry_points = lambda g: tuple(e for e in real(g) if e.dist != 'bansha-forum')\n"
            "from bansha.engine.board import load_board\n"
            "from bansha.engine.model import GameError\n"
            "board = load_board('m217', sys.argv[1])\n"
            "try:\n"
            "    load_board('m217', sys.argv[2])\n"
            "    refused = ''\n"
            "except GameError as exc:\n"
            "    refused = str(exc)\n"
            "print(json.dumps({'tables': sorted(board), 'names': board['names'], 'refused': refused}, ensure_ascii=False))\n")
    r = subprocess.run([sys.executable, "-c", code, str(shipped), str(odd)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["tables"] == ["clock", "names"] and got["names"]["phase"]
    assert got["refused"].endswith("未知的表 weather（可用：names、clock）"), got["refused"]


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
