"""The board: a ruleset's board file (``templates/<id>.toml`` in each board distribution,
``rulesets/<id>/bansha_<id>/``) over the defaults, and what the loop's commands read from it (a
phase's board name, its deadline, a phase as a director types it).

The kernel's tables are ``names`` and ``clock``; any other table is a distribution's, declared
in the ``bansha.board_sections`` entry-point group (bansha-forum's: ``forum``, ``post``, ``pm``,
docs/manifests.md): its schema, defaults and template fields.

The forum's thread is another distribution's (bansha-forum): ``bansha status`` reads the board
on every call and should not pay for the thread parser's patterns (start-up, docs/performance.md).
"""

from __future__ import annotations

import datetime as dt
import os
import re
from typing import TYPE_CHECKING, Annotated, Any, Literal

import msgspec

from bansha.engine.model import GameError
from bansha.text.messages import join, say

if TYPE_CHECKING:
    from pathlib import Path

# pathlib is not imported: ``status`` finds its board file with os (start-up; pathlib and what
# it imports cost a command ~17 M instructions). ``board_file`` still answers a Path.

# ----------------------------------------------------------------------------- the board

WEEKDAYS = ["周一", "周二", "周三", "周四", "周五", "周六", "周日"]

#: the kernel's own tables: a phase's name and its clock (``status``, ``phase``)
DEFAULT_BOARD: dict[str, Any] = {
    "names": {"opening": "{alias}", "phase": "第{day}天 {alias}"},
    "clock": {},
}

#: the fields each template may name (docs/manifests.md "Board templates"): a template is
#: formatted with ``str.format``, which would follow ``{board.__class__}`` into Python
FIELDS = {"names.opening": ("alias", "name"), "names.phase": ("day", "alias", "name")}

#: the entry-point group by which a distribution declares its own tables of the board file
#: (docs/plugins.md, "A table of the board file"): the entry point's name is the table's
SECTIONS_GROUP = "bansha.board_sections"
#: the tables the forum layer declares (docs/manifests.md): a board file shipped with a ruleset
#: has them, and must still load where only the kernel is installed, so without a distribution
#: that declares them they are accepted and ignored; any other unknown table is refused
LAYER_SECTIONS = ("forum", "post", "pm")


class BoardSection:
    """One table of the board file as a distribution declares it: its schema (a msgspec Struct),
    its default table, the fields each of its templates may name (key -> fields), and what the
    table is when a board file leaves it out (``None``: the default table)."""

    __slots__ = ("absent", "default", "fields", "schema")

    def __init__(self, schema: type, default: dict[str, Any], fields: dict[str, tuple[str, ...]] | None = None,
                 absent: dict[str, Any] | None = None):
        self.schema, self.default, self.fields, self.absent = schema, default, fields or {}, absent


_SECTIONS: dict[str, BoardSection] | None = None


def board_sections() -> dict[str, BoardSection]:
    """The installed distributions' tables of the board file, by name, in the order declared
    (read once per process, as what is installed does not change under a running command)."""
    global _SECTIONS
    if _SECTIONS is None:
        from bansha.entrypoints import entry_points

        found: dict[str, BoardSection] = {}
        for ep in entry_points(SECTIONS_GROUP):
            if ep.name in DEFAULT_BOARD or ep.name in found:
                continue  # the kernel's tables stay the kernel's; the first declaration wins
            section = ep.load()
            if isinstance(section, BoardSection):
                found[ep.name] = section
        _SECTIONS = found
    return _SECTIONS


def default_board() -> dict[str, Any]:
    """The kernel's tables and each installed distribution's, as their defaults."""
    return {**DEFAULT_BOARD, **{name: s.default for name, s in board_sections().items()}}


Weekday = Literal["周一", "周二", "周三", "周四", "周五", "周六", "周日"]


# the board file's typed schema: every key's type and allowed values (docs/manifests.md)
class Names(msgspec.Struct, forbid_unknown_fields=True):
    opening: str = ""
    phase: str = ""


class Clock(msgspec.Struct, forbid_unknown_fields=True):
    close: str = ""
    late: Annotated[int, msgspec.Meta(ge=0, le=1440)] = 0
    extend_on: list[Weekday] = []
    note: str = ""


_SCHEMA: type | None = None


def board_schema() -> type:
    """The whole board file's schema: the kernel's tables and each installed distribution's."""
    global _SCHEMA
    if _SCHEMA is None:
        _SCHEMA = _board_schema()
    return _SCHEMA


def _board_schema() -> type:
    return msgspec.defstruct(
        "Board",
        [("names", Names, msgspec.field(default_factory=Names)), ("clock", dict[str, Clock], {}),
         *((name, s.schema, msgspec.field(default_factory=s.schema)) for name, s in board_sections().items())],
        forbid_unknown_fields=True)


CLOSE = re.compile(r"(次日)?\s*([01]?\d|2[0-3])[:：]([0-5]\d)")


def check_board(data: dict[str, Any], file: str, lang: str | None = None) -> None:
    """A board file's table against its schema: every key's type and allowed values, clock
    times, weekdays, and the fields each template may name (files.py says what is wrong)."""
    from bansha.door.files import check_template, convert

    clocks = data.get("clock")
    if isinstance(clocks, dict):  # each phase's clock on its own: a refusal names the phase
        for phase, clock in clocks.items():
            convert(clock, Clock, file, lang, prefix=f"clock.{phase}")
    board = convert(data, board_schema(), file, lang)
    fields_of = dict(FIELDS)
    for name, section in board_sections().items():
        fields_of.update({f"{name}.{key}": fields for key, fields in section.fields.items()})
    for key, fields in fields_of.items():
        table, _, name = key.partition(".")
        text = getattr(getattr(board, table), name)
        if text:
            check_template(text, fields, file, key, lang)
    for phase, clock in board.clock.items():
        if clock.close and not CLOSE.fullmatch(clock.close.strip()):
            raise GameError(say("bd_close", lang, file=file, phase=phase, value=clock.close))


def _merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for k, v in over.items():
        out[k] = _merge(base[k], v) if isinstance(v, dict) and isinstance(base.get(k), dict) else v
    return out


def board_file(ruleset_id: str) -> Path | None:
    """``templates/<id>.toml`` beside the installed manifests; a house variant without one of
    its own (``id = "m217-tucheng"``, ``extends = "m217"``) uses its board's (``m217``)."""
    text = _board_file(ruleset_id)
    if text is None:
        return None
    from pathlib import Path

    return Path(text)


def _board_file(ruleset_id: str) -> str | None:
    from bansha.engine.registry import RULESET_GROUP
    from bansha.entrypoints import entry_points

    found: dict[str, str] = {}
    for ep in entry_points(RULESET_GROUP):
        try:
            root = os.path.join(os.path.dirname(ep.load().__file__), "templates")
        except (ImportError, AttributeError, TypeError):
            continue
        try:
            names = os.listdir(root)
        except OSError:
            continue  # no templates folder: no board files
        for name in sorted(names):
            if name.endswith(".toml") and name != ".toml":
                found.setdefault(name.removesuffix(".toml"), os.path.join(root, name))
    if ruleset_id in found:
        return found[ruleset_id]
    bases = [k for k in found if ruleset_id.startswith(k + "-")]
    return found[max(bases, key=len)] if bases else None


def load_board(ruleset_id: str, path: Path | str | None = None, has_vote: bool = True, lang: str | None = None) -> dict[str, Any]:
    """The board file of a ruleset (or the one a director passes with ``--template``), over the
    defaults. A board file that does not parse is refused naming the file, in ``lang`` (the
    game's; ``None``: ``BANSHA_LANG``, else Chinese)."""
    if path:
        from pathlib import Path  # a path the director gives, spelt as given (Path's way)

        file = str(Path(path))
    else:
        file = _board_file(ruleset_id)
    board = default_board()
    if file is not None:
        data = _board_table(file, lang)
        unknown = set(data) - set(board) - set(LAYER_SECTIONS)
        if unknown:
            raise GameError(say("bd_unknown_tables", lang, file=file, tables=join(sorted(unknown), lang), known=join(board, lang)))
        data = {k: v for k, v in data.items() if k in board}  # the forum layer's, not installed: ignored
        check_board(data, file, lang)
        board = _merge(board, data)
        for name, section in board_sections().items():
            if name not in data and section.absent is not None:
                board[name] = dict(section.absent)
    return board


def _board_table(file: str, lang: str | None = None) -> dict[str, Any]:
    """The board file's TOML table. A parse is kept beside the entry points' cache (a marshal,
    as theirs) for this file as it is now (its size and modification time): ``import tomllib``
    compiles its patterns, ~14 M instructions of a ``bansha status``, which reads the board for
    the timetable every time (docs/performance.md)."""
    import marshal

    from bansha.entrypoints import cache_root, short_key, write_whole

    try:
        st = os.stat(file)
    except OSError as exc:
        from bansha.door.files import os_why

        raise GameError(say("bd_unreadable", lang, file=file, why=os_why(exc, lang))) from None
    except ValueError:  # a path holding a NUL byte
        raise GameError(say("bd_unreadable", lang, file=file, why=say("os_enoent", lang))) from None
    stamp = [os.path.abspath(file), st.st_size, st.st_mtime_ns]
    root = cache_root()
    kept = None if root is None else os.path.join(root, "boards", f"{short_key(stamp[0])}.marshal")
    if kept is not None:
        try:
            with open(kept, "rb") as f:
                saved = marshal.loads(f.read())
            if saved["stamp"] == stamp:
                return saved["table"]
        except (OSError, ValueError, TypeError, KeyError, EOFError):
            pass  # none yet, or not one this code wrote: parse
    from bansha.door.files import (
        read_toml,  # here: a board without a file of its own, or a kept one, parses nothing
    )

    data = read_toml(file, lang)
    if kept is not None:
        try:
            write_whole(kept, marshal.dumps({"stamp": stamp, "table": data}))
        except ValueError:
            pass  # a date or time in the board: marshal holds none, so it is parsed each time
    return data


def board_day(game, label: str) -> str:
    """The day the board's name of ``label`` says ("dusk 2" -> "1" on M217, whose 黄昏 belongs to
    the day whose vote it settles: ``PhaseSpec.day_offset``); "" for an opening."""
    base, _, num = label.partition(" ")
    if not num:
        return ""
    try:
        offset = game.ruleset.phase(base).day_offset
    except GameError:
        return num
    return str(int(num) + offset) if offset and num.isdigit() else num


def phase_namer(game, board: dict[str, Any]):
    """label ("noon 2") -> the board's name of the phase ("第2天 正午"; "dusk 2" -> "第1天 黄昏")."""
    def name(label: str) -> str:
        base, _, num = label.partition(" ")
        try:
            spec = game.ruleset.phase(base)
        except GameError:
            return label
        alias = spec.alias or spec.name
        if spec.opening or not num:
            return board["names"]["opening"].format(alias=alias, name=spec.name)
        return board["names"]["phase"].format(day=board_day(game, label), alias=alias, name=spec.name)
    return name


def parse_phase_arg(game, text: str) -> str:
    """A phase as a director types it: "noon 2", "正午 2", "第2天 正午", "第1天 黄昏" (M217: dusk 2),
    "第2天" (light-shadow): ``Game.canonical``, the one reading of a phase."""
    return game.canonical(text.strip())


def deadline(board: dict[str, Any], phase: str, start: dt.datetime, lang: str | None = None) -> tuple[dt.datetime | None, int]:
    """When the phase ``phase`` (a phase name) that began at ``start`` closes, and the minutes
    before it in which no vote may change. None when the board's clock does not say."""
    clock = board.get("clock", {}).get(phase)
    if not clock or not clock.get("close"):
        return None, 0
    text = clock["close"].strip()
    days = 0
    if text.startswith("次日"):
        days, text = 1, text.removeprefix("次日").strip()
    m = re.fullmatch(r"(\d{1,2})[:：](\d{2})", text)
    if not m:
        raise GameError(say("bd_clock", lang, phase=phase, value=clock["close"]))
    if WEEKDAYS[start.weekday()] in clock.get("extend_on", []):
        days += 1
    day = start.date() + dt.timedelta(days=days)
    return dt.datetime.combine(day, dt.time(int(m.group(1)), int(m.group(2)))), int(clock.get("late", 0))
