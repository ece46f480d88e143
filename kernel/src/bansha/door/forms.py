"""The door every typed value goes through, shared by the command line and the web forms
(docs/cli.md "Names", docs/web.md "One door"): numbers, ``KEY=VALUE`` pairs, a roster, a
deal, a new game's setup. Each refusal is a GameError of one line in the board's language
that quotes at most a short excerpt of what was typed (a 5,000-character value is not echoed).

Nothing here stores anything: ``new_setup`` returns the Setup that ``Store.create`` then
writes, so a refused creation leaves the store as it was."""

from __future__ import annotations

import re
from typing import Any

from bansha.engine.model import GameError
from bansha.text.messages import EXCERPT, excerpt, extend, say  # noqa: F401  (excerpt: re-exported)

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


def check_deal(rs, setups, source: str) -> None:
    """A deal file's seats: as many as a table of the ruleset, each name once, known roles
    and camps; the error names the file and the key."""
    from bansha.door.names import check_name, fold, reserved_of
    from bansha.engine.deal import mismatch, table_for

    lang = rs.lang
    seen: dict[str, str] = {}
    for i, ps in enumerate(setups):
        try:
            ps.name = check_name(ps.name, "what_player", lang, reserved=reserved_of(rs.manifest))
        except GameError as exc:
            raise GameError(say("deal_key", lang, file=source, key=f"players[{i}].name", why=exc)) from None
        if fold(ps.name) in seen:
            first = seen[fold(ps.name)]
            raise GameError(say("deal_key", lang, file=source, key=f"players[{i}].name",
                                why=say("name_repeated", lang, what=say("what_roster", lang), name=ps.name) if first == ps.name
                                else say("name_twice", lang, what=say("what_roster", lang), first=first, second=ps.name)))
        seen[fold(ps.name)] = ps.name
        try:
            rs.role(ps.role)
        except GameError as exc:
            raise GameError(say("deal_key", lang, file=source, key=f"players[{i}].role", why=exc)) from None
        if ps.camp:
            try:
                rs.camp(ps.camp)
            except GameError as exc:
                raise GameError(say("deal_key", lang, file=source, key=f"players[{i}].camp", why=exc)) from None
    uids = [ps.uid for ps in setups if ps.uid]
    if len(set(uids)) < len(uids):
        raise GameError(say("uid_twice", lang, uid=next(u for u in uids if uids.count(u) > 1)))
    sizes = [t.seats for t in rs.manifest.tables]
    if sizes and len(setups) not in sizes:
        raise GameError(say("deal_seats", lang, file=source, count=len(setups), ruleset=rs.manifest.id, sizes="/".join(map(str, sizes))))
    if sizes:
        why = mismatch(rs, table_for(rs, len(setups)), setups)
        if why:
            raise GameError(say("deal_table", lang, file=source, seats=len(setups), why=why))


def new_setup(ruleset: str, game: str, *, names: list[str] | None = None, seed: int | str = 0,
              deal: bytes | None = None, deal_source: str = "", options: dict[str, Any] | None = None,
              listed: bool = False):
    """The checked (game name, Setup, manifest, ruleset) of a new game, as ``bansha new`` and
    the console's create form make it: the ruleset found, the game's name (names.py), the seed
    (0..2^63−1), the house rules (options.check_options), and the seats either from ``deal``
    (a deal file's TOML, checked as ``--deal``) or from ``names`` dealt with the seed. Stores
    nothing."""
    from bansha.door.names import MAX_GAME_NAME, check_name, check_names, reserved_of
    from bansha.engine import deal as dealing
    from bansha.engine.model import Deal, Setup
    from bansha.engine.options import check_options
    from bansha.engine.registry import checked_ruleset, decode_toml

    rs = checked_ruleset(ruleset)
    manifest = rs.manifest
    lang = rs.lang
    game = check_name(game, "what_game", lang, limit=MAX_GAME_NAME)
    if isinstance(seed, str):
        seed = parse_int(seed or "0", "--seed", lang)
    if not 0 <= seed <= 2**63 - 1:
        raise GameError(say("seed_range", lang, seed=seed))
    opts = check_options(manifest, options or {}, "--option", lang)
    if deal:
        setups = decode_toml(deal, Deal, deal_source, lang).players  # in the board's language
        check_deal(rs, setups, deal_source)
        dealt_by = deal_source
    else:
        pairs_ = [split_uid(n) for n in names or []]
        checked = check_names([n for n, _ in pairs_], lang, reserved=reserved_of(manifest), in_list=listed)
        if not checked:
            raise GameError(say("no_players", lang))
        uids = {c: uid for c, (_, uid) in zip(checked, pairs_, strict=False) if uid}
        if len(set(uids.values())) < len(uids):  # one account, two seats: a PM would reach one person twice
            twice = next(u for u in uids.values() if list(uids.values()).count(u) > 1)
            raise GameError(say("uid_twice", lang, uid=twice))
        setups = dealing.deal(rs, checked, seed)
        for ps in setups:
            ps.uid = uids.get(ps.name, "")
        dealt_by = f"seed {seed}"
    setup = Setup(ruleset=manifest.id, manifest=manifest, players=setups, seed=seed, options=opts, dealt_by=dealt_by)
    return game, setup, manifest, rs
