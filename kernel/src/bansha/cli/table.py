"""bansha's built-in commands as declared, without typer: the table (``Table``), their
parameters (``Option``, ``Argument``), and the quick way in (``Table.quick``).

A command is a plain function whose defaults say what typer should make of each parameter,
with typer's own arguments: ``as_player: str = Option(None, "--as", help="h_status_as")``.
typer is the command line: cli/help.py turns the table into a ``typer.Typer`` and typer
parses, checks, helps and reports every command line it is given.

Importing typer is a third of a command's instructions (typer's modules and the standard
library's it pulls in: ``subprocess``, ``shutil``, ``pathlib``…; docs/performance.md), and most
command lines a director types are plain: ``bansha vote g1 P03 P07``. ``Table.quick`` reads such
a line itself: when every word is a known option, a value or an argument in its place, it
returns the function and its keyword arguments, exactly as typer would pass them; anything
else (``--help``, an unknown option, a missing argument, a value that is not a number, a value
starting with ``-``…) returns None and the line goes to typer, which says what is wrong.
tests/kernel/test_cli_quick.py checks both ways on generated command lines: whatever the
quick way accepts, typer accepts with the same arguments.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any


class Param:
    """One parameter as declared: ``Option(default, *decls, **typer_keywords)`` or
    ``Argument(default, **typer_keywords)``, the arguments of ``typer.Option`` and
    ``typer.Argument`` (cli/help.py hands them over unchanged)."""

    __slots__ = ("kind", "default", "decls", "kwargs")

    def __init__(self, kind: str, default: Any, decls: tuple[str, ...], kwargs: dict[str, Any]):
        self.kind, self.default, self.decls, self.kwargs = kind, default, decls, kwargs

    def __repr__(self) -> str:
        return f"{self.kind.title()}({self.default!r}, {', '.join(map(repr, self.decls))})"


def Option(default: Any = None, *decls: str, **kwargs: Any) -> Param:  # noqa: N802 - typer's name
    return Param("option", default, decls, kwargs)


def Argument(default: Any = None, **kwargs: Any) -> Param:  # noqa: N802 - typer's name
    return Param("argument", default, (), kwargs)


# `db: str`, not Path, in every command: a Path folds postgresql://h/db into postgresql:/h/db
DbOpt = Option(None, "--db", envvar="BANSHA_DB", help="h_db")
JsonOpt = Option(False, "--json", help="h_json")
GameArg = Argument(..., help="h_game")


def echo(message: Any = "", err: bool = False, nl: bool = True) -> None:
    """A line on stdout (stderr with ``err``), flushed: what ``typer.echo`` does with text."""
    out = sys.stderr if err else sys.stdout
    out.write(f"{'' if message is None else message}{chr(10) if nl else ''}")
    out.flush()


class Table:
    """A group of commands: ``command`` declares one (the arguments of ``Typer.command``),
    ``add_group`` a named sub-group (``bansha db …``); ``kwargs`` are the group's own
    ``typer.Typer`` arguments."""

    def __init__(self, **kwargs: Any):
        self.kwargs = kwargs
        #: command name -> (function, the keywords of ``Typer.command``)
        self.commands: dict[str, tuple[Callable, dict[str, Any]]] = {}
        self.groups: dict[str, Table] = {}

    def command(self, name: str | None = None, **kwargs: Any):
        def declare(fn):
            # typer's name for a function: its own, with dashes
            self.commands[name or fn.__name__.replace("_", "-")] = (fn, kwargs)
            return fn

        return declare

    def add_group(self, table: Table, name: str) -> None:
        self.groups[name] = table

    def names(self) -> set[str]:
        return set(self.commands) | set(self.groups)

    def quick(self, argv: list[str]) -> tuple[Callable, dict[str, Any]] | None:
        """The command ``argv`` names and its keyword arguments, when the line is plain (see
        the module's docstring); else None: typer reads it."""
        table, words = self, list(argv)
        while words and words[0] in table.groups:
            table = table.groups[words.pop(0)]
        if not words or words[0] not in table.commands:
            return None
        fn, _ = table.commands[words[0]]
        spec = _spec(fn)
        if spec is None:
            return None
        kwargs = _parse(spec, words[1:])
        return None if kwargs is None else (fn, kwargs)


# ------------------------------------------------------------------------ the quick parse

#: the annotations the quick way converts itself (a command with any other goes to typer)
_SCALARS = {"str": str, "int": int, "bool": bool, "Path": "Path"}


class _Spec:
    __slots__ = ("arguments", "options", "defaults")

    def __init__(self) -> None:
        #: (name, kind, required, variadic) in order
        self.arguments: list[tuple[str, Any, bool, bool]] = []
        #: option word -> (name, kind, multiple)
        self.options: dict[str, tuple[str, Any, bool]] = {}
        #: name -> (default, envvar)
        self.defaults: dict[str, tuple[Any, str | None]] = {}


def _spec(fn: Callable) -> _Spec | None:
    """What the quick way needs of ``fn``'s parameters (through ``functools.wraps``), or None
    when one of them is beyond it; read once per function."""
    if "_quick_spec" not in fn.__dict__:
        fn._quick_spec = _read_spec(fn)
    return fn._quick_spec


def _read_spec(fn: Callable) -> _Spec | None:
    while hasattr(fn, "__wrapped__"):
        fn = fn.__wrapped__
    code = fn.__code__
    names = code.co_varnames[: code.co_argcount]
    defaults = fn.__defaults__ or ()
    if len(defaults) != len(names) or code.co_kwonlyargcount or code.co_flags & 0x0C:  # *args, **kwargs
        return None
    spec = _Spec()
    for name, param in zip(names, defaults, strict=True):
        kind = _kind(fn.__annotations__.get(name))
        if not isinstance(param, Param) or kind is None or set(param.kwargs) - {"help", "metavar", "envvar"}:
            return None
        scalar, multiple = kind
        envvar = param.kwargs.get("envvar")
        if param.kind == "argument":
            if envvar or scalar is bool:
                return None
            spec.arguments.append((name, scalar, param.default is ..., multiple))
        else:
            decls = param.decls or (f"--{name.replace('_', '-')}",)
            if any("/" in d or not d.startswith("-") for d in decls):
                return None  # a --x/--no-x pair: typer's
            if scalar is bool and param.default is not False:
                return None  # a flag on by default: typer's
            if envvar and (multiple or scalar is not str or param.default is ...):
                return None
            for d in decls:
                spec.options[d] = (name, scalar, multiple)
        spec.defaults[name] = (param.default, envvar)
    # required arguments first, then optional ones, then at most one that takes the rest
    order = [2 if variadic else 0 if required else 1 for _, _, required, variadic in spec.arguments]
    if order != sorted(order) or order.count(2) > 1:
        return None
    return spec


def _kind(annotation: Any) -> tuple[Any, bool] | None:
    """``"str"`` → (str, False), ``"list[int]"`` → (int, True); None for anything else."""
    if not isinstance(annotation, str):
        return None
    text = annotation.replace(" ", "")
    multiple = text.startswith("list[") and text.endswith("]")
    scalar = _SCALARS.get(text[5:-1] if multiple else text)
    if scalar is None or (multiple and scalar is bool):
        return None
    return scalar, multiple


def _convert(scalar: Any, value: str) -> Any:
    if scalar is str:
        return value
    if scalar is int:
        return int(value)  # click's INT is int(); a ValueError sends the line to typer
    if not value.strip():
        raise ValueError(value)  # an empty path: typer's way says it (``path_of``)
    from pathlib import Path

    return Path(value)


def path_of(text: str):
    """A path a person typed, as every command reads one (typer's ``parser`` of a ``Path``
    parameter): an empty one is refused, for ``Path("")`` is the current folder (``scenario run
    ""`` ran every file there)."""
    from pathlib import Path

    if not text.strip():
        # click's own conversion failure, with the parameter's name; its empty message is
        # said as "the path is empty" (cli.usage_message)
        raise ValueError(text)
    return Path(text)


def _parse(spec: _Spec, words: list[str]) -> dict[str, Any] | None:
    given: dict[str, Any] = {}
    positional: list[str] = []
    i, only_arguments = 0, False
    try:
        while i < len(words):
            word = words[i]
            i += 1
            if only_arguments or word == "-" or not word.startswith("-"):
                positional.append(word)
                continue
            if word == "--":
                only_arguments = True
                continue
            name_of, eq, value = word.partition("=") if word.startswith("--") else (word, "", "")
            option = spec.options.get(name_of)
            if option is None:
                return None  # --help, an unknown option, -abc: typer's
            name, scalar, multiple = option
            if scalar is bool:
                if eq:
                    return None
                given[name] = True
                continue
            if not eq:
                if i >= len(words) or words[i].startswith("-"):
                    return None
                value = words[i]
                i += 1
            if multiple:
                given.setdefault(name, []).append(_convert(scalar, value))
            else:
                given[name] = _convert(scalar, value)  # the last one given counts, as in click
        for name, scalar, required, variadic in spec.arguments:
            if variadic:
                if required and not positional:
                    return None
                if positional:  # else its default, below
                    given[name] = [_convert(scalar, w) for w in positional]
                positional = []
            elif positional:
                given[name] = _convert(scalar, positional.pop(0))
            elif required:
                return None
    except ValueError:
        return None
    if positional:
        return None  # extra arguments: typer says which
    kwargs = {}
    for name, (default, envvar) in spec.defaults.items():
        if name in given:
            kwargs[name] = given[name]
        elif envvar and os.environ.get(envvar):
            kwargs[name] = os.environ[envvar]
        elif default is ...:
            return None  # a required option missing: typer says which
        else:
            kwargs[name] = list(default) if isinstance(default, list) else default
    return kwargs

