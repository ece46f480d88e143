"""Names at the door: one normalisation of every player and game name, and the checks that
keep a name from reading as something else (docs/cli.md "Names").

A name is stored normalised (``clean``): Unicode NFC, a BOM, zero-width, control and other
format characters removed, surrounding blanks stripped. Two names are the same name when
their ``fold`` is equal: NFKC as well, so full-width ``Ａｌｉｃｅ`` is ``Alice``. Only
``unicodedata`` is imported (it is built in)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from bansha.text.messages import GameError, say

#: at most this many characters (after normalisation) in a player's or a game's name
MAX_PLAYER_NAME = 32
MAX_GAME_NAME = 32


def clean(text: str) -> str:
    """NFC, without a BOM, zero-width, control or format characters, blanks stripped."""
    text = unicodedata.normalize("NFC", text)
    # Cc: control (\t, \x00 …); Cf: format (BOM U+FEFF, zero-width space U+200B, ZWJ …)
    kept = "".join(" " if ch in "\t\r\n" else ch for ch in text if ch in "\t\r\n" or unicodedata.category(ch) not in ("Cc", "Cf"))
    return kept.strip()


def fold(text: str) -> str:
    """The form two names are compared in: ``clean`` and NFKC (full width is half width)."""
    return unicodedata.normalize("NFKC", clean(text))


def check_name(raw: str, what: str, lang: str | None = None, *, reserved: Iterable[str] = (),
               limit: int = MAX_PLAYER_NAME, in_list: bool = False) -> str:
    """``raw`` normalised, or a GameError saying why it cannot be a name. ``what`` is the
    catalogue key of what is named (``what_player``, ``what_game``); ``reserved`` the
    ruleset's words that read as something else (its abstention word); ``in_list``: the name
    came from a comma-separated list (a comma in it would have split it)."""
    label = say(what, lang)
    name = clean(raw)
    if "\n" in clean(raw.replace("\n", "\u2028").replace("\r", "\u2028")).replace("\u2028", "\n"):
        # a line break inside a name (not around it): two names pasted as one, never a space
        raise GameError(say("name_newline", lang, what=label, name=name))
    if not name:
        raise GameError(say("name_empty", lang, what=label))
    if len(name) > limit:
        raise GameError(say("name_too_long", lang, what=label, name=name[:24] + "…", count=len(name), max=limit))
    if name.startswith("-"):
        raise GameError(say("name_dash", lang, what=label, name=name))
    if in_list and ("," in name or "，" in name):
        raise GameError(say("name_comma", lang, what=label, name=name))
    if fold(name) in {fold(r) for r in reserved}:
        raise GameError(say("name_reserved", lang, what=label, name=name))
    return name


def check_names(raws: Iterable[str], lang: str | None = None, *, reserved: Iterable[str] = (),
                what: str = "what_roster", in_list: bool = False) -> list[str]:
    """A table's player names, each checked; two that fold alike are refused, naming both."""
    reserved = tuple(reserved)
    seen: dict[str, str] = {}
    out = []
    for raw in raws:
        name = check_name(raw, "what_player", lang, reserved=reserved, in_list=in_list)
        key = fold(name)
        if key in seen:
            first = seen[key]
            if first == name:
                raise GameError(say("name_repeated", lang, what=say(what, lang), name=name))
            raise GameError(say("name_twice", lang, what=say(what, lang), first=first, second=name))
        seen[key] = name
        out.append(name)
    return out


def reserved_of(manifest) -> tuple[str, ...]:
    """The words of a board that cannot be names: its abstention word and ``reserved_names``."""
    return (manifest.vote.abstain, *manifest.reserved_names)


def width(text: str) -> int:
    """Columns ``text`` takes in a terminal: wide and full-width characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 0 if unicodedata.combining(ch) else 1 for ch in text)


def pad(text: str, cols: int) -> str:
    """``text`` padded with spaces to ``cols`` terminal columns."""
    return text + " " * max(0, cols - width(text))
