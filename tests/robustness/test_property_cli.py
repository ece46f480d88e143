"""A property of the whole command line (issue 11): whatever a director types, bansha exits 0 or
2, never with a traceback; a refusal is one line (one JSON object with --json) and leaves the
database file byte-identical.

hypothesis generates names (CJK, full width, zero-width and control characters, BOMs, the
boards' reserved words, a leading ``-``, commas), house-rule values, ``--arg`` values, post
numbers, seeds and roster files, for all three shipped boards, and drives ``bansha.cli.main``
in-process (the real entry point: click's usage errors included), plus a few real subprocess
runs. ``derandomize=True``: every run tries the same examples, so CI is deterministic; a
failure prints the reproducing blob (``print_blob``)."""

from __future__ import annotations

import contextlib
import io
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

BOARDS = {
    "light-shadow": [f"光{i}" for i in range(1, 13)],
    "qisha-xia": [f"侠{i:02d}" for i in range(1, 21)],
    "m217": [f"新{i:02d}" for i in range(1, 15)],
}
SETTINGS = settings(max_examples=150, derandomize=True, deadline=None, print_blob=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

# pieces a new user (or a pasted forum post) brings: invisible characters, full width,
# the boards' reserved words, what the command line reads specially
PIECES = st.sampled_from(["\u200b", "\ufeff", "\u200d", "\x00", "\x07", "\t", " ", "　", "-", "--", ",", "，", "#",
                          "弃权", "无", "Ａ", "A", "é", "e\u0301", "[/list]", "**", "\\", "'", '"', "=", "１２", "0",
                          "-1", "true", "1", "9" * 20, "梦见", "光1", "侠01", "新01"])
TEXT = st.lists(st.one_of(PIECES, st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=4)),
                max_size=5).map("".join)


def settled_bytes(db):
    """The database file with every committed write in it (None: no file). The store runs in
    WAL mode, where a connection an earlier command of this process left open may write its
    pages back at any moment: a checkpoint first makes before and after comparable."""
    if not db.exists():
        return None
    con = sqlite3.connect(db)
    try:
        con.execute("PRAGMA wal_checkpoint(FULL)")
    finally:
        con.close()
    return db.read_bytes()


def run_main(argv: list[str]) -> tuple[int, str, str]:
    """``bansha ARGV`` through the real entry point; (exit code, stdout, stderr). Anything
    but a SystemExit is a traceback a director would have seen."""
    from bansha import cli

    out, err = io.StringIO(), io.StringIO()
    old = sys.argv
    sys.argv = ["bansha", *argv]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                cli.main()
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.argv = old
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def templates(tmp_path_factory):
    """One stored game of each board, copied for every example."""
    root = tmp_path_factory.mktemp("templates")
    made = {}
    for board, names in BOARDS.items():
        db = root / f"{board}.db"
        code, out, err = run_main(["new", "g", "--ruleset", board, "--players", ",".join(names), "--db", str(db)])
        assert code == 0, (out, err)
        made[board] = db
    return made


def check(argv: list[str], db: Path) -> None:
    before = settled_bytes(db)
    code, out, err = run_main([*argv, "--db", str(db)])
    assert code in (0, 2), (argv, code, out, err)
    assert "Traceback" not in out + err, (argv, out, err)
    if code == 2:
        lines = [line for line in (out + err).splitlines() if line.strip()]
        assert len(lines) == 1, (argv, out, err)
        assert settled_bytes(db) == before, argv


BOARD = st.sampled_from(sorted(BOARDS))


@SETTINGS
@given(board=BOARD, game=TEXT, extra=st.lists(TEXT, max_size=3), option=st.tuples(st.sampled_from(
    ["start_time", "double_questions_day", "block_order", "weekend_extension", "win", "chain", "nosuch", ""]), TEXT),
    seed=st.one_of(st.integers(-5, 5), st.integers(2**63 - 3, 2**63 + 3), TEXT), as_json=st.booleans())
def test_new_with_generated_names_options_and_seeds(tmp_path, board, game, extra, option, seed, as_json):
    names = BOARDS[board][: len(BOARDS[board]) - len(extra)] + extra
    argv = ["new", game, "--ruleset", board, "--players", ",".join(names), "--seed", str(seed), "--option", f"{option[0]}={option[1]}"]
    check([*argv, *(["--json"] if as_json else [])], tmp_path / f"new-{board}.db")


@SETTINGS
@given(board=BOARD, data=st.binary(max_size=200), encoding=st.sampled_from(["utf-8", "utf-8-sig", "gb18030", "utf-16", "raw"]))
def test_new_from_generated_roster_files(tmp_path, board, data, encoding):
    roster = tmp_path / "roster.txt"
    names = "\n".join(BOARDS[board])
    roster.write_bytes(data if encoding == "raw" else (data.decode("latin-1") + "\n" + names).encode(encoding, "replace"))
    check(["new", "r", "--ruleset", board, "--players", str(roster)], tmp_path / f"roster-{board}.db")


@SETTINGS
@given(board=BOARD, command=st.sampled_from(["act", "unact", "vote", "ruling", "status", "export", "log", "undo", "resolve"]),
       who=st.one_of(TEXT, st.sampled_from(["光1", "侠01", "新01", "梦见\u200b", "光１"])), what=TEXT, target=TEXT,
       arg=st.tuples(TEXT, TEXT), post=TEXT, as_json=st.booleans())
def test_commands_on_a_game_with_generated_args(tmp_path, templates, board, command, who, what, target, arg, post, as_json):
    db = tmp_path / f"{board}.db"
    shutil.copyfile(templates[board], db)
    argv = {
        "act": ["act", "g", who, what, target, "--arg", f"{arg[0]}={arg[1]}"],
        "unact": ["unact", "g", who, what],
        "vote": ["vote", "g", who, target, "--post", post],
        "ruling": ["ruling", "g", what or "announce", who, "--text", target, "--arg", f"{arg[0]}={arg[1]}"],
        "status": ["status", "g", "--as", who],
        "export": ["export", "g", "--format", what],
        "log": ["log", "g", what],
        "undo": ["undo", what or "g"],
        "resolve": ["resolve", what or "g"],
    }[command]
    check([*argv, *(["--json"] if as_json else [])], db)


@pytest.mark.parametrize("argv", [
    ["new", "g\u200b", "--ruleset", "qisha-xia", "--players", "无,侠02", "--option", "start_time=tomorrow"],
    ["new", "g", "--ruleset", "m217", "--players", ",".join(BOARDS["m217"]), "--seed", str(2**63)],
    ["vote", "g", "新01", "新02", "--post", "0"],
    ["bogus-command", "--json"],
])
def test_real_subprocess_refusals_are_one_line(tmp_path, templates, argv):
    db = tmp_path / "m217.db"
    shutil.copyfile(templates["m217"], db)
    before = settled_bytes(db)
    r = subprocess.run([sys.executable, "-m", "bansha.cli", *argv, "--db", str(db)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2, r
    assert len([line for line in (r.stdout + r.stderr).splitlines() if line.strip()]) == 1, r
    assert "Traceback" not in r.stderr and settled_bytes(db) == before
