"""The door every typed value goes through, shared by the command line and the web forms
(docs/cli.md "Names", docs/web.md "One door"): numbers, ``KEY=VALUE`` pairs, a roster, a
forum uid. Each refusal is a GameError of one line in the board's language that quotes at most
a short excerpt of what was typed (a 5,000-character value is not echoed).

What needs the board to check — a deal file's seats, a new game's whole set-up — is the
engine's (``bansha.engine.newgame``): the door sits below the engine and reads no ruleset."""

from __future__ import annotations

import re
from typing import Any

from bansha.text.messages import EXCERPT, GameError, excerpt, extend, say  # noqa: F401  (excerpt: re-exported)

extend({
    "form_int": ("{what} {value}：应为整数", "{what} {value}: expected a whole number"),
    "form_int_range": ("{what} {value}：应在 {lo} 到 {hi} 之间", "{what} {value}: expected {lo} to {hi}"),
    "form_text": ("{what}：应为文字，不是上传的文件", "{what}: expected text, not an uploaded file"),
    "kv_twice": ("{flag} {key}：给了两次（{first} 与 {second}），只能给一次", "{flag} {key}: given twice ({first} and {second}); give it once"),
    "form_too_long": ("{what}：太长（{count} 个字符，最多 {max} 个）", "{what}: too long ({count} characters, at most {max})"),
})

#: whole numbers typed in a form or on the command line: at most this many digits (2^63 has 19)
MAX_DIGITS = 19
NUMBER = re.compile(rf"-?\d{{1,{MAX_DIGITS}}}")




def text_of(value: Any, what: str, lang: str | None = None, limit: int | None = None) -> str:
    """A form field's text: refused when it is an uploaded file (a text field a client sent
    as a file) or longer than ``limit``."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise GameError(say("form_text", lang, what=what))
    if limit is not None and len(value) > limit:
        raise GameError(say("form_too_long", lang, what=what, count=len(value), max=limit))
    return value


def parse_int(text: str, what: str, lang: str | None = None, lo: int | None = None, hi: int | None = None) -> int:
    """A whole number as typed: decimal digits with an optional minus (``²``, ``1.5`` and a
    5,000-digit number are refused, not crashed on), within ``lo``..``hi``."""
    t = text.strip()
    if not NUMBER.fullmatch(t):
        raise GameError(say("form_int", lang, what=what, value=excerpt(t)))
    n = int(t)
    if (lo is not None and n < lo) or (hi is not None and n > hi):
        raise GameError(say("form_int_range", lang, what=what, value=n, lo="" if lo is None else lo,
                            hi="" if hi is None else hi))
    return n


def value_of(text: str) -> Any:
    """A ``--arg`` or ``--option`` value: a whole number (ASCII digits, at most 19) is an int;
    anything else (1.5, --5, ², 甲, a 5,000-digit number) stays the text it is."""
    return int(text) if NUMBER.fullmatch(text) else text


def pairs(items: list[str], flag: str = "--arg", lang: str | None = None) -> dict[str, Any]:
    """``KEY=VALUE`` pairs (``--arg``, ``--option``, a ruling's data), each value by ``value_of``."""
    out: dict[str, Any] = {}
    for pair in items:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise GameError(say("kv_expected", lang, flag=flag, pair=excerpt(pair)))
        if key in out:  # `--arg post=12 --arg post=13`: which one was meant is not ours to guess
            raise GameError(say("kv_twice", lang, flag=flag, key=excerpt(key), first=excerpt(out[key]), second=excerpt(value)))
        out[key] = value_of(value)
    return out


def roster_names(text: str, source: str, lang: str | None = None) -> tuple[list[str], list[str]]:
    """A roster's names and the notes to say: one name a line (a name may hold spaces), a line
    starting with ``#`` a comment, skipped and said so (``source``: the file, or the form's
    field), blank lines skipped. The one reading of a roster: ``bansha new --players FILE``
    and the console's create form; each name is then checked by ``names.check_names``
    (``new_setup``)."""
    names, notes = [], []
    for i, line in enumerate(text.splitlines(), start=1):
        line = line.strip().lstrip("\ufeff")
        if line.startswith("##"):
            continue  # a note a tool wrote on purpose (``signup``'s substitutes): skipped, not said
        if line.startswith("#"):
            notes.append(say("roster_skipped", lang, file=source, line=i, text=line))
        elif line:
            names.append(line)
    return names, notes


def roster_lines(text: str) -> list[str]:
    """The names of a pasted roster (``roster_names`` without its notes)."""
    return roster_names(text, "")[0]


UID_SUFFIX = re.compile(r"\s+(?:uid|UID)\s*[=:：]\s*(\d{1,18})\s*$")


def split_uid(line: str) -> tuple[str, str]:
    """A roster line's name and the forum uid it may end with (``甲 uid=1001``, ``乙 UID：7``;
    bansha signup writes them so): ``(name, uid or "")``."""
    m = UID_SUFFIX.search(line)
    return (line[:m.start()], m.group(1)) if m else (line, "")
