"""The quick way into a command (cli_table.Table.quick) gives the command exactly what typer
would give it, or leaves the line to typer: checked on generated command lines for every
built-in command, and on the lines a director types, in a real ``bansha`` process."""

from __future__ import annotations

import functools
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from bansha.cli import cli
from bansha.cli.help import typer_app
from bansha.cli.table import Param, Table, _spec


def every_command(table: Table, path: tuple[str, ...] = ()):
    for name, (fn, kwargs) in table.commands.items():
        yield (*path, name), fn, kwargs
    for name, group in table.groups.items():
        yield from every_command(group, (*path, name))


def tables() -> list[Table]:
    """The built-in commands' table, and each command a plugin declares in a table as the
    built-in ones are (bansha-forum's ``votes import``, ``post``, ``pm``) under its own name."""
    found = [cli.commands]
    for name, obj in cli.plugin_commands(None).items():
        if isinstance(obj, Table):
            found.append(cli._only(obj, name))
    return found


def every_table_command():
    for table in tables():
        yield from every_command(table)


def typer_call(path, fn, kwargs, argv) -> dict | str:
    """The keyword arguments typer calls ``fn`` with for ``bansha *path *argv``, or what it
    raised instead (a usage error, the help's exit)."""
    seen: list[dict] = []

    @functools.wraps(fn)
    def record(**given):
        seen.append(given)

    top = table = Table(**cli.commands.kwargs)
    for name in path[:-1]:
        table.add_group(sub := Table(), name)
        table = sub
    table.command(path[-1], **kwargs)(record)
    try:
        typer.main.get_group(typer_app(top))(args=[*path, *argv], prog_name="bansha", standalone_mode=False)
    except Exception as exc:  # noqa: BLE001 - every way typer refuses a line is an answer here
        return type(exc).__name__
    return seen[0] if seen else "not called"


def declared(fn):
    while hasattr(fn, "__wrapped__"):
        fn = fn.__wrapped__
    return [(name, param) for name, param in zip(fn.__code__.co_varnames, fn.__defaults__ or (), strict=False)
            if isinstance(param, Param)]


VALUES = ["g1", "P03", "杀人", "12", "0", "-", "", "a b", "-5", "--", "x=y", "３", "1.5"]
NOISE = ["--help", "--nope", "-x", "--json=1", "-v=1", "--db", "--"]


def lines_for(fn, rng: random.Random, n: int):
    """``n`` command lines for ``fn``: its arguments' values, its options with and without
    values (``--opt v``, ``--opt=v``), repeated, in any order, with words it does not take."""
    words: list[list[str]] = []
    for name, param in declared(fn):
        if param.kind == "argument":
            words += [[v] for v in VALUES[:6]]
        else:
            for decl in param.decls or (f"--{name.replace('_', '-')}",):
                words += [[decl]] + [[decl, v] for v in rng.sample(VALUES, 3)] + [[f"{decl}={rng.choice(VALUES)}"]]
    arguments = sum(param.kind == "argument" for _, param in declared(fn))
    for i in range(n):
        line: list[str] = []
        if i % 2:  # one value for each argument (or one more, or one fewer), then options
            line += [rng.choice(VALUES[:6]) for _ in range(max(0, arguments + rng.choice((-1, 0, 0, 0, 1))))]
            words_here = [w for w in words if w[0].startswith("-")] or [[]]
        else:
            words_here = words
        for _ in range(rng.randint(0, 5)):
            line += rng.choice(words_here) if rng.random() > 0.08 else [rng.choice(NOISE)]
        yield line


@pytest.mark.parametrize("env_db", [None, "from-env.db", ""])
def test_whatever_the_quick_way_takes_typer_takes_with_the_same_arguments(monkeypatch, env_db):
    if env_db is None:
        monkeypatch.delenv("BANSHA_DB", raising=False)
    else:
        monkeypatch.setenv("BANSHA_DB", env_db)
    rng = random.Random(9)
    taken = left = 0
    for path, fn, kwargs in every_table_command():
        for argv in lines_for(fn, rng, 150):
            quick = cli.quick([*path, *argv])
            if quick is None:
                left += 1
                continue
            taken += 1
            command, given = quick
            assert command is fn, (path, argv)
            assert given == typer_call(path, fn, kwargs, argv), (path, argv)
    # the check above is not empty: most generated lines go one way or the other
    assert taken > 500 and left > 500, (taken, left)


def test_every_built_in_command_may_be_taken_the_quick_way():
    slow = [" ".join(path) for path, fn, _ in every_table_command() if _spec(fn) is None]
    assert not slow, slow
    # the forum's commands are among them (bansha-forum declares them in a table)
    assert {("votes", "import"), ("post",), ("pm",)} <= {path for path, _, _ in every_table_command()}


LINES = [
    ["status", "g1"], ["status", "g1", "--as", "P01"], ["status", "g1", "--json"],
    ["act", "g1", "P01", "杀人", "P02"], ["act", "g1", "P01", "赌博", "--arg", "x=1", "--phase", "night 2"],
    ["unact", "g1", "P01", "杀人"], ["vote", "g1", "P01", "P02", "--post", "7"], ["resolve", "g1"],
    ["resolve", "g1", "--yes", "--db", "other.db", "--json"], ["log", "g1", "--explain"], ["undo", "g1"],
    ["db", "info"], ["votes", "import", "g1", "-", "--dry-run"], ["post", "g1", "--format", "text"],
]


@pytest.mark.parametrize("line", LINES, ids=" ".join)
def test_the_lines_a_director_types_are_taken_the_quick_way_as_typer_reads_them(line):
    found = cli.quick(line)
    assert found is not None, line
    table, words = next(t for t in tables() if line[0] in t.names()), list(line)
    while words[0] in table.groups:
        table = table.groups[words.pop(0)]
    fn, kwargs = table.commands[words[0]]
    path = line[: len(line) - len(words) + 1]
    assert found == (fn, typer_call(path, fn, kwargs, words[1:]))


def bansha_imports(args: list[str], db: Path) -> tuple[int, set[str]]:
    """Run ``bansha *args`` as the installed command does (bansha.start), in a real process;
    its exit code and the modules it imported."""
    out = db.parent / "modules.txt"
    out.unlink(missing_ok=True)
    code = ("import atexit, os, sys\n"
            "atexit.register(lambda: open(os.environ['MODULES_OUT'], 'w').write('\\n'.join(sys.modules)))\n"
            "from bansha.start import main\n"
            "sys.argv = ['bansha', *sys.argv[1:]]\n"
            "main()\n")
    r = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                       env={**os.environ, "BANSHA_DB": str(db), "MODULES_OUT": str(out)})
    return r.returncode, set(out.read_text().split())


def test_a_plain_line_runs_without_typer_and_a_help_or_a_wrong_line_with_it(tmp_path):
    db = tmp_path / "g.db"
    players = ",".join(f"P{i:02}" for i in range(1, 13))
    for line in (["new", "g", "--ruleset", "light-shadow", "--players", players, "--seed", "5"],
                 ["status", "g"], ["status", "g", "--as", "P01"], ["resolve", "g", "--yes", "--json"], ["undo", "g"]):
        code, modules = bansha_imports(line, db)
        assert code == 0 and "typer" not in modules and "bansha.cli.cli" in modules, line
    code, modules = bansha_imports(["status", "nosuch"], db)
    assert code == 2 and "typer" not in modules  # the command's own refusal: one line, no typer
    # a plugin's command declared in a table (bansha-forum's post) runs the quick way too
    assert bansha_imports(["resolve", "g", "--yes"], db)[0] == 0
    code, modules = bansha_imports(["post", "g", "--format", "text"], db)
    assert code == 0 and "typer" not in modules and "bansha_forum.loop" in modules
    for line, want in ((["status", "g", "--help"], 0), (["status"], 2), (["statu", "g"], 2),
                       (["status", "g", "--jsn"], 2), (["--help"], 0)):
        code, modules = bansha_imports(line, db)
        assert code == want and "typer" in modules, line


@pytest.mark.parametrize("json_out", [False, True])
def test_a_word_the_terminal_could_not_decode_is_one_line_and_nothing_runs(tmp_path, json_out):
    """Bytes that are not UTF-8 reach Python as lone surrogates, which sqlite3 cannot bind: it
    was a traceback (UnicodeEncodeError) from the store; now one line at the door, exit 2."""
    db = tmp_path / "g.db"
    exe = str(Path(sys.executable).parent / "bansha")
    for args in ([b"status", b"g\xff"], [b"ruling", b"g", b"\xff", b"--db", str(db).encode()],
                 [b"act", b"g", b"P0\xe91", b"\xe6\x9d\x80\xe4\xba\xba"]):
        r = subprocess.run([exe.encode(), *args, *([b"--json"] if json_out else [])], capture_output=True,
                           env={**os.environ, "BANSHA_DB": str(db), "BANSHA_LANG": "en"})
        assert r.returncode == 2, r
        out = (r.stdout if json_out else r.stderr).decode()
        assert "Traceback" not in r.stderr.decode() and len(out.splitlines()) == 1, out
        assert "is not valid UTF-8: " in out, out
        # the word as its bytes: \xff (in JSON, the backslash escaped)
        assert ("\\\\x" if json_out else "\\x") in out, out
    assert not db.exists()  # nothing opened, nothing written
