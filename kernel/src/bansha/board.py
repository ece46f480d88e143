"""The board: a ruleset's board file (phase names, clock, vote formats, post layout:
``templates/<id>.toml`` in each board distribution, ``rulesets/<id>/bansha_<id>/``) over the defaults, and what the loop's
commands read from it (a phase's board name, its deadline, a phase as a director types it).

The forum's thread (forum.py) is another module: ``bansha status`` reads the board on every
call and should not pay for the thread parser's patterns (start-up, docs/performance.md).
"""

from __future__ import annotations

import datetime as dt
import os
import re
from typing import TYPE_CHECKING, Any

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
        raise GameError(say("bd_unreadable", lang, file=file, why=exc.strerror)) from None
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
    import tomllib  # here: a board without a file of its own, or a kept one, parses nothing

    try:
        with open(file, encoding="utf-8") as f:
            data = tomllib.loads(f.read())
    except OSError as exc:
        raise GameError(say("bd_unreadable", lang, file=file, why=exc.strerror)) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise GameError(say("bd_invalid", lang, file=file, why=exc)) from None
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
