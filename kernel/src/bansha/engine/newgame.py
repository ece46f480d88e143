"""A new game: its set-up checked and dealt, as ``bansha new`` and the web console's create
form make it (``new_setup``), and a deal file's seats checked against the board
(``check_deal``). What a person typed is read at the door first (``bansha.door.forms``,
``bansha.door.names``); what needs the ruleset is checked here, in the engine. Nothing here
stores anything: ``new_setup`` returns the Setup that ``Store.create`` then writes, so a
refused creation leaves the store as it was."""

from __future__ import annotations

from typing import Any

from bansha.door.forms import parse_int, split_uid
from bansha.door.names import MAX_GAME_NAME, check_name, check_names, fold, reserved_of
from bansha.engine import deal as dealing
from bansha.engine.deal import mismatch, table_for
from bansha.engine.model import Deal, Setup
from bansha.engine.options import check_options
from bansha.engine.registry import checked_ruleset, decode_toml
from bansha.text.messages import GameError, say


def check_deal(rs, setups, source: str) -> None:
    """A deal file's seats: as many as a table of the ruleset, each name once, known roles
    and camps; the error names the file and the key."""
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
