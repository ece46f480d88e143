"""The ``bansha`` command's first step: shorten the import path, then run the CLI (cli.py).

A checkout installs every plugin distribution editable, and each adds its folder to the
import path: ~90 entries, which every import that is not found (the standard library's own
probes: ``nt``, ``msvcrt``, ``org.python.core`` …) searches one after the other, and a
command makes dozens. The plugins' modules are found from their folders instead
(entrypoints.shorten_path). Only the command does this: a program that imports bansha
keeps its path as it was.
"""

from __future__ import annotations


def main() -> None:
    from bansha.entrypoints import shorten_path

    shorten_path()
    from bansha.cli.cli import main as run

    run()
