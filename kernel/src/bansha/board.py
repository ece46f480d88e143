"""The board: a ruleset's board file (phase names, clock, vote formats, post layout:
``templates/<id>.toml`` in each board distribution, ``rulesets/<id>/bansha_<id>/``) over the defaults, and what the loop's
commands read from it (a phase's board name, its deadline, a phase as a director types it).

The forum's thread is another distribution's (bansha-forum): ``bansha status`` reads the board
on every call and should not pay for the thread parser's patterns (start-up, docs/performance.md).
"""

from __future__ import annotations

import datetime as dt
import os
import re
from typing import TYPE_CHECKING, Annotated, Any, Literal

import msgspec

from .messages import join, say
from .model import GameError

if TYPE_CHECKING:
    from pathlib import Path

# pathlib is not imported: ``status`` finds its board file with os (start-up; pathlib and what
# it imports cost a command ~17 M instructions). ``board_file`` still answers a Path.

# ----------------------------------------------------------------------------- the board

WEEKDAYS = ["周一", "周二", "周三", "周四", "周五", "周六", "周日"]

DEFAULT_BOARD: dict[str, Any] = {
    "names": {"opening": "{alias}", "phase": "第{day}天 {alias}"},
    "clock": {},
    "forum": {"vote": ["投票对象"], "vote_reason": ["投票理由"], "change": ["改票对象"], "change_reason": ["改票理由"],
              "abstain": ["弃权"], "change_must_quote": True, "typos": 0, "proxy": ["代投"]},
    "post": {"title": "【{board}】{phase}公告", "sections": ["last_words", "deaths", "votes", "announcements", "seats", "deadline"],
             "vote_record": "final", "vote_counts": "all",
             "headings": {"last_words": "遗言", "deaths": "出局", "votes": "投票记录", "announcements": "公告",
                          "seats": "座位表", "deadline": "下一阶段"}},
    "pm": {"title": "【{board}】{phase} 私信", "greeting": "致 {name}（{seat}号）：", "empty": "本阶段没有给你的消息。"},
}


SECTIONS = ("corrections", "last_words", "deaths", "votes", "announcements", "seats", "deadline")
#: the fields each template may name (docs/manifests.md "Board templates"): a template is
#: formatted with ``str.format``, which would follow ``{board.__class__}`` into Python
FIELDS = {"names.opening": ("alias", "name"), "names.phase": ("day", "alias", "name"),
          "post.title": ("board", "phase", "day"), "pm.title": ("board", "phase", "name", "seat"),
          "pm.greeting": ("board", "phase", "name", "seat")}


Weekday = Literal["周一", "周二", "周三", "周四", "周五", "周六", "周日"]
Section = Literal["corrections", "last_words", "deaths", "votes", "announcements", "seats", "deadline"]


# the board file's typed schema: every key's type and allowed values (docs/manifests.md)
class Names(msgspec.Struct, forbid_unknown_fields=True):
    opening: str = ""
    phase: str = ""


class Clock(msgspec.Struct, forbid_unknown_fields=True):
    close: str = ""
    late: Annotated[int, msgspec.Meta(ge=0, le=1440)] = 0
    extend_on: list[Weekday] = []
    note: str = ""


class Forum(msgspec.Struct, forbid_unknown_fields=True):
    vote: list[str] = []
    vote_reason: list[str] = []
    change: list[str] = []
    change_reason: list[str] = []
    abstain: list[str] = []
    change_must_quote: bool = True
    typos: Annotated[int, msgspec.Meta(ge=0, le=1)] = 0
    #: bansha-forum's ``activity``: fewer posts than this in a phase is a player to prod (docs/forums.md)
    prod_posts: Annotated[int, msgspec.Meta(ge=0, le=100000)] = 1
    #: the director's 代投 line's words (docs/manifests.md)
    proxy: list[str] = []


class Post(msgspec.Struct, forbid_unknown_fields=True):
    title: str = ""
    sections: list[Section] = []
    vote_record: Literal["final", "none"] = "final"
    vote_counts: Literal["all", "top", "none"] = "all"
    #: where last words go: "" (the post of the phase they were published in) or "with_exit"
    last_words: Literal["", "with_exit"] = ""
    #: <phase> = [<phases>]: the phases whose telling this phase's post carries
    carry: dict[str, list[str]] = {}
    headings: dict[Section, str] = {}


class PM(msgspec.Struct, forbid_unknown_fields=True):
    title: str = ""
    greeting: str = ""
    empty: str = ""


class Board(msgspec.Struct, forbid_unknown_fields=True):
    names: Names = msgspec.field(default_factory=Names)
    clock: dict[str, Clock] = {}
    forum: Forum = msgspec.field(default_factory=Forum)
    post: Post = msgspec.field(default_factory=Post)
    pm: PM = msgspec.field(default_factory=PM)


CLOSE = re.compile(r"(次日)?\s*([01]?\d|2[0-3])[:：]([0-5]\d)")


def check_board(data: dict[str, Any], file: str, lang: str | None = None) -> None:
    """A board file's table against its schema: every key's type and allowed values, clock
    times, weekdays, and the fields each template may name (files.py says what is wrong)."""
    from .files import check_template, convert

    clocks = data.get("clock")
    if isinstance(clocks, dict):  # each phase's clock on its own: a refusal names the phase
        for phase, clock in clocks.items():
            convert(clock, Clock, file, lang, prefix=f"clock.{phase}")
    board = convert(data, Board, file, lang)
    for key, fields in FIELDS.items():
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
    from .entrypoints import entry_points
    from .registry import RULESET_GROUP

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
    board = DEFAULT_BOARD
    if file is not None:
        data = _board_table(file, lang)
        unknown = set(data) - set(DEFAULT_BOARD)
        if unknown:
            raise GameError(say("bd_unknown_tables", lang, file=file, tables=join(sorted(unknown), lang), known=join(DEFAULT_BOARD, lang)))
        check_board(data, file, lang)
        board = _merge(DEFAULT_BOARD, data)
        if "forum" not in data:
            board["forum"] = {}
    return board


def _board_table(file: str, lang: str | None = None) -> dict[str, Any]:
    """The board file's TOML table. A parse is kept beside the entry points' cache (a marshal,
    as theirs) for this file as it is now (its size and modification time): ``import tomllib``
    compiles its patterns, ~14 M instructions of a ``bansha status``, which reads the board for
    the timetable every time (docs/performance.md)."""
    import marshal

    from .entrypoints import cache_root, short_key, write_whole

    try:
        st = os.stat(file)
    except OSError as exc:
        from .files import os_why

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
    from .files import (
        read_toml,  # here: a board without a file of its own, or a kept one, parses nothing
    )

    data = read_toml(file, lang)
    if kept is not None:
        try:
            write_whole(kept, marshal.dumps({"stamp": stamp, "table": data}))
        except ValueError:
            pass  # a date or time in the board: marshal holds none, so it is parsed each time
    return data


def phase_namer(game, board: dict[str, Any]):
    """label ("noon 2") -> the board's name of the phase ("第2天 正午")."""
    def name(label: str) -> str:
        base, _, num = label.partition(" ")
        try:
            spec = game.ruleset.phase(base)
        except GameError:
            return label
        alias = spec.alias or spec.name
        if spec.opening or not num:
            return board["names"]["opening"].format(alias=alias, name=spec.name)
        return board["names"]["phase"].format(day=num, alias=alias, name=spec.name)
    return name


def parse_phase_arg(game, text: str) -> str:
    """A phase as a director types it: "noon 2", "正午 2", "第2天 正午", "第2天" (light-shadow)."""
    t = text.strip()
    m = re.fullmatch(r"第\s*(\d+)\s*[天日]\s*(.*)", t)
    if m:
        rest = m.group(2).strip().removesuffix("公告").strip()
        t = f"{rest or game.cycle[0].name} {m.group(1)}"
    return game.canonical(t)


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
