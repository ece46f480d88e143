"""The CLI run in this process, and the database file as the tests compare it before and after
a refused command (the door's promise: the stored game unchanged, byte for byte)."""

from __future__ import annotations

import contextlib
import io
import sqlite3
import sys
from pathlib import Path


def run_main(argv: list) -> tuple[int, str, str]:
    """``bansha ARGV`` through ``cli.main`` (the installed entry point's path, typer and all):
    the exit code, standard output and standard error. A SystemExit is the exit code; any
    other exception propagates — a traceback a director would have seen."""
    from bansha.cli import cli

    out, err = io.StringIO(), io.StringIO()
    old = sys.argv
    sys.argv = ["bansha", *map(str, argv)]
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


def settled_bytes(path) -> bytes | None:
    """The database file with every committed write in it (None: no file). The store runs in
    WAL mode, where a connection an earlier command of this process left open may write its
    pages back at any moment: a checkpoint first makes before and after comparable."""
    path = Path(path)
    if not path.exists():
        return None
    con = sqlite3.connect(path)
    try:
        con.execute("PRAGMA wal_checkpoint(FULL)")
    finally:
        con.close()
    return path.read_bytes()


#: what a library says in English: never in a refusal on a Chinese board (the door's reports)
LIBRARY_ENGLISH = ["Expected `", "Object contains", "Object missing", "Got unexpected", "codec", "Errno", "No such file",
                   "Invalid statement", "disk I/O", "error:", "Invalid enum", "string argument", "is not a valid",
                   "Permission denied", "JSON is malformed", "Traceback"]


# a store logger that says nothing (the store tests open many stores)
def quiet(_name):
    class Q:
        def info(self, *a, **k):
            pass

        debug = warning = info

    return Q()
