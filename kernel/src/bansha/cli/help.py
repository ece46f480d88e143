"""The help ``bansha … --help`` prints, in the catalogue's words: Chinese unless
``BANSHA_LANG=en``, like every message said before a board is known (messages.py).

Every ``help=`` given to typer (a command's, an option's, an argument's) is a catalogue key
(``"h_new"``), not the text: ``Command`` and ``Group`` look the keys up only when a help page
or the list of commands is printed, so a command that is run formats no help at all (start-up,
docs/performance.md). A plugin command's help is its keys (``messages.extend``) or its own
literal text, printed as it is.

Chinese has no spaces to break lines at and takes two terminal columns a character; click
wraps by characters at spaces. ``_formatter()`` wraps text holding wide characters itself, by
columns, and leaves English to click, byte for byte.

click's own headings (``Usage:``, ``Options:``, ``[default: …]``) stay English: typer's
vendored click writes them as literals (docs/cli.md)."""

from __future__ import annotations

import functools
import re

import typer
from typer.core import TyperCommand, TyperGroup


def _text(value):
    from bansha.text.messages import text

    return text(value)


#: spaces, a word of printable ASCII, or any other character alone (a Chinese character may
#: end a line wherever it stands); compiled by ``re`` when first wrapped, not at start-up
_TOKEN = r" +|[!-~]+|[^ ]"
#: what may not begin a line (it stays with the character before it), and what may not end one
#: (it goes with the character after it)
_NO_START = set("，。、；：！？）」』》】")
_NO_END = set("（「『《【")


def _wide(text: str) -> bool:
    return any(ord(c) > 0x2E7F for c in text)


def _wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` columns, a wide character counted as two; a line
    neither begins with a closing mark (，。）…) nor ends with an opening one (（「…)."""
    import unicodedata

    def cols(tok: str) -> int:
        return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in tok)

    lines: list[str] = []
    line: list[str] = []  # the tokens of the line being filled
    for tok in re.findall(_TOKEN, re.sub(r"\s*\n\s*", " ", text.strip())):
        if tok[0] == " " and not line:
            continue  # spaces are kept inside a line (click puts two before "[required]"), not at its ends
        if line and cols("".join(line) + tok) > width and tok[0] != " ":
            # what goes down with ``tok``: the token before a closing mark, an opening mark
            keep = len(line) - 1 if tok in _NO_START or line[-1] in _NO_END else len(line)
            if not "".join(line[:keep]).strip():
                keep = len(line)  # nothing would be left on the line: break before ``tok`` after all
            lines.append("".join(line[:keep]).rstrip())
            line = [t for t in line[keep:] if t[0] != " "]
        line.append(tok)
    lines.append("".join(line).rstrip())
    return lines


@functools.cache
def _formatter():
    """The formatter class, made when the first help page is: a command that runs makes none
    (a class made at import is paid by every start-up)."""
    from typer._click.formatting import HelpFormatter

    class Formatter(HelpFormatter):
        """click's formatter, wrapping Chinese by terminal columns (``\\b`` tells click that a
        paragraph is wrapped already)."""

        def write_text(self, text: str) -> None:
            if _wide(text):
                text = "\b\n" + "\n".join(_wrap(text, max(self.width - self.current_indent, 11)))
            super().write_text(text)

        def write_dl(self, rows, col_max: int = 30, col_spacing: int = 2) -> None:
            rows = list(rows)
            first = min(max((len(r[0]) for r in rows), default=0), col_max) + col_spacing
            width = max(self.width - first - 2, 10)  # as click's write_dl computes it
            super().write_dl([(a, "\b\n" + "\n".join(_wrap(b, width)) if b and _wide(b) else b) for a, b in rows],
                             col_max, col_spacing)

    return Formatter


class _Localized:
    """What ``Command`` and ``Group`` add to typer's classes: the catalogue's words for the
    help keys, looked up when help is printed."""

    def get_help(self, ctx) -> str:
        """The help page, through ``_formatter`` (click's ``Context.make_formatter``, with the
        formatter that wraps Chinese)."""
        formatter = _formatter()(width=ctx.terminal_width, max_width=ctx.max_content_width)
        self.format_help(ctx, formatter)
        return formatter.getvalue().rstrip("\n")

    def get_help_option(self, ctx):
        option = super().get_help_option(ctx)
        if option is not None and not getattr(option, "_keyed", False):
            # click's "Show this message and exit." is a literal: the key instead, once (click
            # keeps the option; format_help puts the words in its place)
            option.help, option._keyed = "h_help_option", True
        return option

    def format_help(self, ctx, formatter) -> None:
        self.help, self.epilog = _text(self.help), _text(self.epilog)
        for param in self.get_params(ctx):
            if getattr(param, "help", None):
                param.help = _text(param.help)
        super().format_help(ctx, formatter)

    def get_short_help_str(self, limit: int = 45) -> str:
        """The line beside the command in its group's list. click shortens a long English
        help at its first full stop or at ``limit`` characters; Chinese is cut at its first
        。 (the first sentence, whole: click would count its characters as one word)."""
        self.help, self.short_help = _text(self.help), _text(self.short_help)
        if not self.short_help and self.help and "。" in self.help:
            return self.help.partition("。")[0].strip()
        return super().get_short_help_str(limit)


class Command(_Localized, TyperCommand):
    pass


class Group(_Localized, TyperGroup):
    pass


class App(typer.Typer):
    """A ``typer.Typer`` whose commands and groups print their help from the catalogue, as
    plain text (rich's rendering took a ``bansha --help`` from ~0.1 s to ~0.3 s,
    docs/performance.md)."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("cls", Group)
        kwargs.setdefault("rich_markup_mode", None)
        kwargs.setdefault("no_args_is_help", True)
        super().__init__(**kwargs)

    def command(self, name: str | None = None, *, cls=None, **kwargs):
        return super().command(name, cls=cls or Command, **kwargs)


# ------------------------------------------------------------------ the table, as typer's app


def typer_app(table, only: str | None = None) -> App:
    """The ``typer.Typer`` of a table of commands (cli/table.py): every command with its
    parameters as declared, or with ``only`` the one command or group of that name (typer
    turns every command an app holds into a click command on each run, ~10 ms for bansha's
    thirty, and a run needs one)."""
    app = App(**table.kwargs)
    for name, (fn, kwargs) in table.commands.items():
        if only is None or name == only:
            app.command(name, **kwargs)(_for_typer(fn))
    for name, group in table.groups.items():
        if only is None or name == only:
            app.add_typer(typer_app(group), name=name)
    return app


def listing_app(table) -> App:
    """The app for the list of commands (``bansha``, ``bansha --help``, "no such command" and
    its neighbours): each command and group by its name and summary only. Building every
    command's parameters, which the list does not print, cost ~41 M of the ~401 M instructions
    of ``bansha --help`` (callgrind, benchmarks/bench_cli.py's row)."""
    import inspect

    app = App(**table.kwargs)
    for name, (fn, kwargs) in table.commands.items():
        # typer's own default for the help, taken from the real function: its docstring
        help_ = kwargs.get("help")
        app.command(name, **{**kwargs, "help": help_ if help_ is not None else inspect.getdoc(fn)})(_listed)
    for name, group in table.groups.items():
        app.add_typer(App(help=group.kwargs.get("help")), name=name)
    return app


def _listed() -> None:
    """What a command of the list runs: nothing (the list is only printed)."""


def _for_typer(fn):
    """``fn`` as typer reads a command: its parameters' defaults (cli/table.py's ``Option`` and
    ``Argument``) made ``typer.Option`` and ``typer.Argument`` with the same arguments, its
    annotations evaluated (``Path`` is imported here: the commands' module need not)."""
    import inspect
    from pathlib import Path

    from bansha.cli.table import Param, path_of

    sig = inspect.signature(fn, eval_str=True, locals={"Path": Path})
    params = []
    for p in sig.parameters.values():
        if isinstance(p.default, Param):
            d = p.default
            kwargs = d.kwargs
            if p.annotation in (Path, list[Path]) and "parser" not in kwargs:
                kwargs = {**kwargs, "parser": path_of}
            made = typer.Option(d.default, *d.decls, **kwargs) if d.kind == "option" else typer.Argument(d.default, **kwargs)
            p = p.replace(default=made)
        params.append(p)

    def command(*args, **kwargs):
        return fn(*args, **kwargs)

    for attr in ("__module__", "__name__", "__qualname__", "__doc__"):
        setattr(command, attr, getattr(fn, attr))
    command.__signature__ = sig.replace(parameters=params)
    command.__annotations__ = {p.name: p.annotation for p in params if p.annotation is not p.empty}
    return command
