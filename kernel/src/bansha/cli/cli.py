"""The ``bansha`` command line: the built-in commands, declared for typer (cli/table.py). Heavy
imports stay inside the commands: start-up matters on every command a director types
(docs/performance.md)."""

from __future__ import annotations

import json
import os
import re
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pathlib is imported where a path is read (start-up: it is not in the floor)
    from pathlib import Path

from bansha.cli.table import Argument, DbOpt, GameArg, JsonOpt, Option, Table, echo

# The commands are declared here without typer (cli/table.py): a plain command line runs its
# command without importing typer; typer reads every other line, and gives every help page,
# from the same declarations (cli/help.py). Every help= is a catalogue key (messages.py), said
# in BANSHA_LANG (else Chinese) when a help page is printed; the docstrings are the developers'.
commands = Table(help="h_app", add_completion=False, pretty_exceptions_enable=False)
role_app = Table(help="h_role_app")
scenario_app = Table(help="h_scenario_app")
commands.add_group(role_app, "role")
commands.add_group(scenario_app, "scenario")
from bansha.cli.db import db_app  # noqa: E402 - self-contained, so that it can sit here

commands.add_group(db_app, "db")
from bansha.cli.board import board_app, role_new  # noqa: E402 - self-contained, like cli/db.py

commands.add_group(board_app, "board")
role_app.command("new", help="h_role_new")(role_new)



class Refused(Exception):
    pass


def say(key: str, lang: str | None = None, /, **fields: Any) -> str:
    from bansha.text.messages import say as _say

    return _say(key, lang, **fields)


#: the language of the board the running command has learnt (``_seen``): a refusal's
#: ``错误：`` / ``error:`` is in it; reset by every command (tests run many in one process)
_BOARD: list[str | None] = [None]


def _seen(g):
    """Note the board of the game a command works on (its language); returns ``g``."""
    _BOARD[0] = g.lang
    return g


def fail(msg: str, as_json: bool = False, lang: str | None = None) -> None:
    """The one way bad input ends: one line ``错误：…`` (``error: …`` on an English board) on
    stderr, or with ``--json`` one JSON object on stdout; exit code 2."""
    msg = " ".join(str(msg).split())  # one line, whatever a message holds
    if as_json:
        echo(json.dumps({"error": msg, "code": 2}, ensure_ascii=False))
    else:
        echo(say("error", lang, message=msg), err=True)
    raise SystemExit(2)


def guarded(fn):
    """Turn a GameError into one line on stderr (or one JSON object) and exit code 2."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from bansha.engine.model import GameError

        _BOARD[0] = None
        try:
            out = fn(*args, **kwargs)
            sys.stdout.flush()  # a closed pipe shows here, not at the interpreter's exit
            return out
        except GameError as exc:
            fail(str(exc), bool(kwargs.get("as_json")), _BOARD[0])
        except BrokenPipeError:
            # `bansha status | head`: the reader has what it wanted; nothing is wrong
            _quiet_stdout()
            raise SystemExit(0) from None

    return wrapper


def _logger(game: str):
    """The logger of the event a command writes. ``BANSHA_LOG=info`` (or debug, warning)
    prints the engine's events on stderr through structlog, configured here, the entry point;
    otherwise nothing is logged and structlog is not imported (its import with rich's console
    was a third of a write's start-up)."""
    level = os.environ.get("BANSHA_LOG", "").strip().upper()
    if not level:
        from bansha.engine.engine import SILENT

        return SILENT
    import logging

    import structlog

    if not structlog.is_configured():
        structlog.configure(
            wrapper_class=structlog.make_filtering_bound_logger(getattr(logging, level, logging.INFO)),
            logger_factory=structlog.PrintLoggerFactory(sys.stderr),
        )
    return structlog.get_logger("bansha").bind(game=game)


def _store(db: str | None, read: bool = False):
    """The store ``--db`` names; ``read``: for a command that only reads, which never
    creates a store (an SQLite file not there is an empty store, nothing made on disk)."""
    from bansha.store.store import SQLiteStore, backend_class, open_store

    options = {"create": False} if read and backend_class(db) is SQLiteStore else {}
    # one command, one replay: no cached state to copy (store.Store.cache); and not even the
    # replay when the previous command left the state of this very log (statecache.py)
    store = open_store(db, logger=_logger, cache=False, **options)
    store.keep_states = True
    return store


def _json(data: Any) -> None:
    import msgspec

    echo(json.dumps(msgspec.to_builtins(data), ensure_ascii=False, indent=2))


def _kv(pairs: list[str], flag: str = "--arg", lang: str | None = None) -> dict[str, Any]:
    # one door with the web forms (forms.py): a whole number is an int; anything else (1.5,
    # --5, ², 甲, a 5,000-digit number) stays the text it is
    from bansha.door.forms import pairs as parse_pairs

    return parse_pairs(pairs, flag, lang)


def _echo_phase(label: str, feedback: dict[str, list[str]], announcement: list[str], lang: str | None = None) -> None:
    """One phase's results: each player's private lines, then the public ones."""
    echo(f"== {label}")
    for name, lines in feedback.items():
        for line in lines:
            echo(f"  [{name}] {line}")
    public = say("l_public", lang)
    for line in announcement:
        echo(f"  {public} {line}")


def _scores(scores: dict[str, float], lang: str | None) -> str:
    """Scores for text output: 米粉 35, 麻团 10 (never a dict's repr)."""
    from bansha.text.messages import join, num

    return join((f"{k} {num(v)}" for k, v in scores.items()), lang)


def _result(game) -> str:
    from bansha.text.messages import join

    return say("draw", game.lang) if game.draw else join(game.winner or [], game.lang) or say("l_not_finished", game.lang)


def _print_results(game, mark, label: str, as_json: bool, closed: tuple | None = None, lapsed=(), refused=()) -> None:
    """What a resolve told; ``closed``: (the phase's spec, the window open before it) where the
    phase closed has windows, to name the windows it resolved and the one open now."""
    fb, ann = game.since(mark)
    windows: list[str] = []
    if closed is not None and closed[0].windows:
        spec, first = closed
        stayed = game.label == label and game.winner is None
        upto = game.window if stayed else len(spec.windows)
        windows = [game.window_name(i, spec) for i in range(first, upto)]
    if as_json:
        _json({"phase": label, "feedback": fb, "announcement": ann,
               "out": game.out.get(label, []), "next": game.label, "winner": game.winner, "scores": game.scores,
               # the window of a phase with windows the next resolve resolves (0: the phase is left)
               "window": game.window,
               # the windows this resolve closed, and the one open now, as the board names them
               "windows_closed": windows, "window_open": game.window_name() if game.phase.windows else None,
               # who was owed last words this resolve ended unrecorded (``--yes``)
               "last_words_lapsed": list(lapsed),
               # actions sent ahead for a window this resolve opened, refused then
               "ahead_refused": [{"player": a, "skill": s, "why": why} for _, a, s, why in refused]})
        return
    _echo_phase(game.named(label), fb, ann, game.lang)
    for _, actor, skill, why in refused:
        echo("  " + say("l_ahead_refused", game.lang, actor=actor, skill=skill, why=why))
    if lapsed:
        echo("  " + say("l_last_words_lapsed", game.lang, names=say("lv_sep", game.lang).join(lapsed)))
    if windows:
        sep = say("lv_sep", game.lang)
        if game.label == label and game.winner is None:
            echo("  " + say("l_window_closed", game.lang, window=sep.join(windows), next=game.window_name()))
        else:
            echo("  " + say("l_window_last", game.lang, window=sep.join(windows)))
    if game.winner is not None:
        echo("  " + say("l_game_over", game.lang, result=_result(game))
                   + ("  " + say("l_scores", game.lang, scores=_scores(game.scores, game.lang)) if game.scores else ""))
    else:
        echo("  " + say("l_now", game.lang, label=game.named()))


# ----------------------------------------------------------------------------- catalogue


@commands.command(help="h_rulesets")
@guarded
def rulesets(as_json: bool = JsonOpt) -> None:
    """List installed rulesets."""
    from bansha.engine.registry import broken_manifests, installed_manifests, plugins_missing
    from bansha.text.messages import extend, join

    extend({"l_rs_missing": ("（缺少插件：{names}，无法使用）", " (plugins not installed: {names}; cannot be played)"),
            "l_rs_broken": ("无法读取：{why}", "cannot be read: {why}")})
    rows = [{"id": m.id, "name": m.name, "alias": m.alias, "seats": [t.seats for t in m.tables], "language": m.language,
             "missing": plugins_missing(m)} for m in installed_manifests().values()]
    broken = broken_manifests()
    if as_json:
        return _json([*rows, *({"id": stem, "broken": why} for stem, why in broken.items())])
    for r in rows:
        missing = say("l_rs_missing", r["language"], names=join(r["missing"], r["language"])) if r["missing"] else ""
        echo(f"{r['id']}\t{r['name']}\t" + say("l_seats", r["language"], seats="/".join(map(str, r["seats"]))) + missing)
    for stem, why in broken.items():
        echo(f"{stem}\t" + say("l_rs_broken", None, why=" ".join(why.split())))


@commands.command(help="h_roles")
@guarded
def roles(ruleset: str = Argument(None, help="h_roles_ruleset"), as_json: bool = JsonOpt,
          markdown: bool = Option(False, "--markdown", help="h_roles_markdown")) -> None:
    """List the roles of a ruleset (or of every installed ruleset)."""
    from bansha.engine.model import GameError
    from bansha.engine.registry import find_manifest, installed_manifests

    if markdown and as_json:
        raise GameError(say("markdown_json"))
    manifests = [find_manifest(ruleset)] if ruleset else list(installed_manifests().values())
    if markdown:
        from bansha.show.views import roles_reference

        echo("\n".join(roles_reference(rs) for m in manifests if (rs := _loadable(m, listing=not ruleset)) is not None), nl=False)
        return
    rows = []
    for m in manifests:
        rs = _loadable(m, listing=not ruleset)
        if rs is None:
            continue
        for role in rs.roles.values():
            rows.append({"ruleset": m.id, "role": role.name, "alias": role.alias, "camp": role.camp,
                         "skills": [s.name for s in role.skills], "plugin": rs.role_plugin[role.name],
                         "common": role.name in m.common, "language": m.language})
    if as_json:
        return _json([{k: v for k, v in r.items() if k != "language"} for r in rows])
    for r in rows:
        common = "  " + say("l_common", r["language"]) if r["common"] else ""
        echo(f"{r['ruleset']}\t{r['role']} ({r['alias']})\t{'、'.join(r['skills']) or '-'}{common}")


def _loadable(m, listing: bool):
    """The loaded board, or (listing every board) None for one that cannot load (a plugin not
    installed): `bansha rulesets` marks it; one board's fault never hides the others."""
    from bansha.engine.model import GameError
    from bansha.engine.registry import ruleset_for

    try:
        return ruleset_for(m)
    except GameError:
        if listing:
            return None
        raise


@commands.command(help="h_rulings")
@guarded
def rulings(ruleset: str = Argument(..., help="h_ruleset_ref"), as_json: bool = JsonOpt) -> None:
    """The kinds of director's ruling a ruleset takes (`bansha ruling GAME KIND …`)."""
    from bansha.engine.registry import find_manifest, ruleset_for

    rs = ruleset_for(find_manifest(ruleset))
    kinds = rs.ruling_kinds
    if as_json:
        return _json(kinds)
    for kind, meaning in kinds.items():  # by the name a director types (the id is taken too)
        echo(f"{rs.ruling_name(kind)}\t{meaning}")


@role_app.command("show", help="h_role_show")
@guarded
def role_show(name: str = Argument(..., help="h_role_name"), ruleset: str = Option(None, "--ruleset", help="h_ruleset_id"), as_json: bool = JsonOpt) -> None:
    """The rule text of a role and each skill with its arguments."""
    from bansha.engine.model import GameError
    from bansha.engine.registry import find_manifest, installed_manifests

    manifests = [find_manifest(ruleset)] if ruleset else list(installed_manifests().values())
    for m in manifests:
        rs = _loadable(m, listing=not ruleset)
        if rs is None:
            continue
        try:
            role = rs.role(name)
        except GameError:
            continue
        if as_json:
            return _json({"ruleset": m.id, "role": _plain(role)})
        lang = rs.lang
        echo(say("l_role", lang, role=role.name, alias=role.alias, ruleset=m.name, camp=role.camp or say("l_by_deal", lang)))
        if role.rule:
            for line in quoted_rule(role.rule):
                echo(f"  {line}")
        for s in role.skills:
            n = s.targets if s.max_targets in (None, s.targets) else f"{s.targets}-{s.max_targets}"
            alias = say("l_alias", lang, alias=s.alias) if s.alias else ""
            if not s.phases:  # a triggered skill: played by the rules when its moment comes, never sent
                head = say("l_skill_triggered", lang, skill=s.name, alias=alias)
            else:
                phases = "/".join(_phase_word(rs, p) for p in s.phases)
                head = say("l_skill", lang, skill=s.name, alias=alias, phases=phases, priority=s.priority, targets=n,
                           step=_step_word(rs, s) if s.step else say("l_at_once", lang))
            echo("  " + head
                       + (say("l_skill_uses", lang, uses=s.uses) if s.uses is not None else "")
                       + (say("l_skill_tags", lang, tags="、".join(s.tags)) if s.tags else ""))
            for k, v in s.args.items():
                echo(f"    --arg {k}=…  {v}")
            if s.rule:
                echo(f"    {s.rule}")
            for card in s.cards:  # a homebrew skill's cards (homebrew.py)
                echo(say("l_cards", lang, cards=card))
        for jinx in role.jinxes:
            echo(say("l_jinx", lang, jinx=jinx))
        return
    raise GameError(say("unknown_role_in", None, name=name, ruleset=ruleset) if ruleset else say("unknown_role_any", None, name=name))


def quoted_rule(text: str) -> list[str]:
    """The rule a person reads of a role's ``rule``: its quoted lines (``> …``, the document's
    words) where it has any — a plugin's docstring also holds implementation notes, in
    English, that are no rule — else the text as it is."""
    from bansha.show.views import card_text  # the one card text (a player's page shows the same)

    return [line.strip() for line in card_text(text).splitlines() if line.strip()]


def _phase_word(rs, name: str) -> str:
    """A phase kind as the board names it (正午 for noon), else as declared."""
    try:
        spec = rs.phase(name)
    except Exception:  # noqa: BLE001 (a skill may name a phase another board has)
        return name
    return spec.alias or spec.name


def _step_word(rs, skill) -> str:
    """A skill's step as the board names it (its ``alias``), else as declared."""
    for phase in rs.manifest.phases:
        if phase.name in skill.phases or phase.alias in skill.phases:
            for step in phase.steps:
                if step.name == skill.step:
                    return step.alias or step.name
    return skill.step


def _plain(obj: Any) -> Any:
    """A declaration as JSON data: its fields, without the functions (a skill's effect, a
    role's hooks) JSON cannot hold."""
    import msgspec

    if isinstance(obj, msgspec.Struct):
        return {f: _plain(getattr(obj, f)) for f in obj.__struct_fields__ if not callable(getattr(obj, f))}
    if isinstance(obj, list | tuple):
        return [_plain(v) for v in obj]
    if isinstance(obj, dict):
        return {str(k): _plain(v) for k, v in obj.items() if not callable(v)}
    if isinstance(obj, set | frozenset):
        return sorted(_plain(v) for v in obj)
    return obj if obj is None or isinstance(obj, str | int | float | bool) else str(obj)


# ------------------------------------------------------------------------------- a game


def read_roster(path: Path, lang: str | None = None) -> tuple[list[str], list[str]]:
    """A roster file's names, a name a line, and the notes to print: UTF-8 (with or without a
    BOM), else GB18030 (Chinese Windows' encoding), else refused naming the byte that is
    neither. A line starting with ``#`` is a comment, skipped and said so."""
    from bansha.door.files import MAX_BYTES, os_why
    from bansha.engine.model import GameError

    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise GameError(say("roster_unreadable", lang, file=path, why=os_why(exc, lang))) from None
    if len(raw) > MAX_BYTES:
        raise GameError(say("file_too_big", lang, file=path, max=MAX_BYTES // 1024 // 1024))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        try:
            text = raw.decode("gb18030")
        except UnicodeDecodeError:
            raise GameError(say("roster_encoding", lang, file=path, byte=exc.start + 1)) from None
    from bansha.door.forms import roster_names

    return roster_names(text, str(path), lang)


def looks_like_path(value: str) -> bool:
    """``--players`` given something that reads as a file's path (a folder separator, or a file
    ending such as ``.txt``, and no comma) rather than names."""
    v = value.strip()
    if not v or re.search(r"[,，]", v):
        return False
    return "/" in v or "\\" in v or re.search(r"\.(txt|csv|tsv|toml|lst|list|md|text)$", v, re.IGNORECASE) is not None


def _players(values: list[str], lang: str | None = None, reserved: tuple[str, ...] = ()) -> tuple[list[str], list[str]]:
    """The names ``--players`` gives (roster files or comma-separated names), each checked
    (names.py) and none twice; and the notes to print (comment lines skipped)."""
    from pathlib import Path

    from bansha.door.names import check_names

    names: list[str] = []
    notes: list[str] = []
    listed = False
    def is_file(p: Path) -> bool:
        try:
            return p.is_file()
        except (OSError, ValueError):  # a 5,000-character name, a NUL: no file, a name to check
            return False

    for v in values:
        p = Path(v)
        if is_file(p):
            got, said = read_roster(p, lang)
            names += got
            notes += said
        elif looks_like_path(v):
            # a mistyped roster file, not a one-seat table named after it
            from bansha.engine.model import GameError

            raise GameError(say("roster_unreadable", lang, file=v, why=say("os_enoent", lang)))
        else:
            listed = True
            names += [n for n in re.split(r"[,，]", v) if n.strip()]
    from bansha.door.forms import split_uid

    pairs_ = [split_uid(n) for n in names]  # a roster line may end with the player's forum uid
    checked = check_names([n for n, _ in pairs_], lang, reserved=reserved, in_list=listed)
    return [f"{n} uid={uid}" if uid else n for n, (_, uid) in zip(checked, pairs_, strict=False)], notes


def _check_deal(rs, setups, source: str) -> None:
    """A deal file's seats, checked at the one door (newgame.check_deal)."""
    from bansha.engine.newgame import check_deal

    check_deal(rs, setups, source)


@commands.command(help="h_new")
@guarded
def new(
    game: str = GameArg,
    ruleset: str = Option(..., "--ruleset", help="h_ruleset_ref"),
    players: list[str] = Option(None, "--players", help="h_new_players"),
    seed: int = Option(0, "--seed", help="h_new_seed"),
    deal_file: Path = Option(None, "--deal", help="h_new_deal"),
    option: list[str] = Option([], "--option", help="h_option"),
    db: str = DbOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Create a game, dealing roles from the manifest with the seed (or from --deal)."""
    from pathlib import Path

    from bansha.engine.model import GameError
    from bansha.engine.newgame import new_setup
    from bansha.engine.registry import checked_ruleset

    rs = checked_ruleset(ruleset)  # the one validator (a board given as a file: naming the file)
    manifest = rs.manifest
    lang = _BOARD[0] = rs.lang
    notes: list[str] = []
    raw = None
    names: list[str] = []
    if deal_file is not None:
        from bansha.door.files import os_why

        if players:  # the deal names the players: a roster beside it would be ignored
            raise GameError(say("deal_and_players", lang))
        try:
            raw = deal_file.read_bytes()
        except OSError as exc:
            raise GameError(say("deal_unreadable", lang, file=deal_file, why=os_why(exc, lang))) from None
    else:
        from bansha.door.names import reserved_of

        # the roster files' notes here; every name then goes through the one door (forms.py)
        names, notes = _players(players or [], lang, reserved_of(manifest))
        if not names:
            files = [v for v in players or [] if Path(v).is_file()]
            raise GameError(say("no_players_in_file", lang, file=files[0]) if files else say("no_players", lang))
    # one door with the console's create form: name, seed, house rules, deal or roster
    game, setup, manifest, rs = new_setup(ruleset, game, names=names, seed=seed, deal=raw, deal_source=str(deal_file),
                                          options=_kv(option, "--option", lang))
    setups = setup.players
    dealt_by = setup.dealt_by
    g = _store(db).create(game, setup)
    if as_json:
        return _json({"game": game, "phase": g.label, "players": setups, "notes": notes})
    for note in notes:  # a skipped comment line of the roster
        echo(note, err=True)
    dealt = say("l_seed", lang, seed=seed) if deal_file is None else dealt_by
    echo(say("l_new", lang, game=game, ruleset=manifest.name, count=len(setups), dealt=dealt, label=g.named()))
    _seats(g, [(p.seat, p.name, f"{p.role}{p.setup.get('number', '') or ''}", p.camp) for p in g.players.values()])


def _seats(g, rows: list[tuple]) -> None:
    """Seats as aligned columns: a name of wide (CJK) characters takes two columns a character."""
    from bansha.door.names import pad, width

    cols = [max((width(str(r[i])) for r in rows), default=0) for i in range(1, len(rows[0]) if rows else 1)]
    for r in rows:
        cells = [pad(str(c), cols[i]) for i, c in enumerate(r[1:-1])] + [str(r[-1])]
        echo(f"  {r[0]:>2} " + "  ".join(cells).rstrip())


def _name(text: str) -> str:
    """A player's name as the director typed it, normalised as names are stored (names.py):
    ``act 梦见`` with a zero-width space is 梦见."""
    from bansha.door.names import clean

    return clean(text)


@commands.command(help="h_act")
@guarded
def act(
    game: str = GameArg, player: str = Argument(None, help="h_player"), skill: str = Argument(None, help="h_skill"),
    targets: list[str] = Argument(None, help="h_act_targets"),
    arg: list[str] = Option([], "--arg", help="h_arg"),
    phase: str = Option(None, "--phase", help="h_act_phase"),
    file: Path = Option(None, "--file", help="h_act_file"),
    db: str = DbOpt, as_json: bool = JsonOpt,
) -> None:
    """Record PLAYER's action for the current phase (checked at once), or with --file a phase's actions."""
    from bansha.engine.model import ActEvent, GameError

    if file is not None:
        if player or skill or arg or phase:
            raise GameError(say("act_file_extra"))
        from bansha.cli.loop import act_file

        return act_file(game, file, db, as_json)
    if not player or not skill:
        raise GameError(say("act_shape"))

    who: list[str] = []

    def event(g):
        _seen(g)
        args = _kv(arg, "--arg", g.lang)
        # names as stored: normalised, and a player's own spelling where one is meant (names.py)
        who.append(g.find_name(_name(player)))
        from bansha.engine.board import parse_phase_arg

        # the phase as the log keeps it ("night 1"), however it was typed ("第1天 夜晚")
        return ActEvent(phase=parse_phase_arg(g, phase) if phase else g.label, actor=who[0], skill=skill.strip(),
                        targets=[g.find_name(_name(t)) for t in targets or []], args=args)

    g, mark = _store(db).append(game, event)
    # an action sent ahead for a later window (a skill an earlier window gives) waits for it
    ahead = g.ahead[-1] if g.ahead and g.applied and g.ahead[-1][0] is g.applied[-1] else None
    a = None if ahead else next((a for a in reversed(g.actions) if a.actor == who[0]), None)
    fb, ann = g.since(mark)
    if as_json:
        return _json({"recorded": a, "feedback": fb, "announcement": ann, "winner": g.winner,
                      "ahead": g.window_name(ahead[1]) if ahead else None})
    echo(say("l_recorded", g.lang, text=" ".join([who[0], skill.strip(), *(g.find_name(_name(t)) for t in targets or [])]))
         + (say("l_ahead", g.lang, window=g.window_name(ahead[1])) if ahead else ""))
    for old in a.replaced if a is not None else ():  # a group's standing action it replaces
        echo("  " + say("l_replaces", g.lang, text=old))
    for name, lines in fb.items():  # an immediate answer
        for line in lines:
            echo(f"  [{name}] {line}")
    for t in ann:
        echo(f"  {say('l_public', g.lang)} {t}")


@commands.command(help="h_unact")
@guarded
def unact(game: str = GameArg, player: str = Argument(..., help="h_player"),
          skill: str = Argument(..., help="h_skill"), db: str = DbOpt, as_json: bool = JsonOpt) -> None:
    """Withdraw PLAYER's action of SKILL in the current phase."""
    from bansha.engine.model import UnactEvent

    store = _store(db)
    gone = []

    def event(g):
        _seen(g)
        actor = g.find_name(_name(player))
        gone.append(g.standing(actor, skill))  # named as what it removes: a group's may be another member's
        return UnactEvent(phase=g.label, actor=actor, skill=skill)

    g, _ = store.append(game, event)
    label, a = g.label, gone[0]
    if as_json:
        return _json({"withdrawn": {"player": a.actor, "skill": a.skill, "targets": a.chosen, "phase": label}})
    echo(say("l_withdrawn", g.lang, text=a.describe(), label=g.named(label)))


@commands.command(help="h_vote")
@guarded
def vote(
    game: str = GameArg, voter: str = Argument(..., help="h_voter"),
    target: str = Argument(..., help="h_vote_target"),
    post: str = Option(None, "--post", help="h_vote_post"),
    change: bool = Option(False, "--change", help="h_vote_change"),
    proxy: bool = Option(False, "--proxy", help="h_vote_proxy"),
    late: bool = Option(False, "--late", help="h_vote_late"),
    db: str = DbOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Record a vote (or 弃权) in the current phase."""
    from bansha.engine.model import VoteEvent

    store = _store(db)
    names: list[str] = []
    number: list[int | None] = []

    def event(g):
        _seen(g)
        number[:] = [_post(post, g.lang)]
        names[:] = [g.find_name(_name(voter)), g.find_name(_name(target))]
        return VoteEvent(phase=g.label, voter=names[0], target=names[1], post=number[0], change=change, proxy=proxy, late=late)

    g, _ = store.append(game, event)
    label = g.label
    rule = g.manifest.vote
    # a vote without its post number where the board reads them (docs/rulings): said, not silent
    warning = (g.refusal(rule.post_warning, "post_missing", name=names[0])
               if rule.post == "warn" and number[0] is None else "")
    if as_json:
        return _json({"vote": {"voter": names[0], "target": names[1], "post": number[0], "change": change, "phase": label},
                      "warnings": [warning] if warning else []})
    echo(say("l_vote", g.lang, voter=names[0], target=names[1], label=g.named(label)))
    if warning:
        echo(say("l_vote_warning", g.lang, text=warning))


def _post(post: str | None, lang: str | None = None) -> int | None:
    """``--post``: a positive integer; full-width digits (１２) are read as digits."""
    import unicodedata

    from bansha.engine.model import MAX_POST, GameError

    if post is None:
        return None
    text = unicodedata.normalize("NFKC", post).strip()
    if not re.fullmatch(r"[0-9]{1,10}", text, flags=re.ASCII) or not 1 <= int(text) <= MAX_POST:
        raise GameError(say("post_number", lang, post=post))
    return int(text)


@commands.command(help="h_resolve")
@guarded
def resolve(game: str = GameArg, phase: str = Option(None, "--phase", help="h_resolve_phase"),
            yes: bool = Option(False, "--yes", help="h_resolve_yes"),
            window: bool = Option(False, "--window", help="h_resolve_window"),
            db: str = DbOpt, as_json: bool = JsonOpt) -> None:
    """Close the current phase (with --window, only its current window), resolve it in the
    manifest's order and advance. Refused (nothing written) when --phase names another phase,
    and unless --yes when nothing was recorded in the phase though a seat could act or vote, or
    a 【强制】 skill is unsent (``resolve_guard``)."""
    from bansha.engine.model import ResolveEvent

    store = _store(db)
    labels: list = []

    def close(g):
        _seen(g)
        if window and not g.phase.windows:  # --window on a phase without windows would close it whole
            from bansha.engine.model import GameError
            from bansha.text.messages import extend

            extend({"rs_no_windows": ("--window：{label} 没有行动时间段，不能只结算一个时间段（要结算整个阶段，不写 --window）",
                                      "--window: {label} has no windows to close one of (leave --window out to resolve the phase)")})
            raise GameError(say("rs_no_windows", g.lang, label=g.named()))
        resolve_guard(g, phase, yes, whole=not window)
        labels[:] = [g.label, (g.phase, g.window), g.lapsing_last_words(whole=not window), len(g.ahead_refused)]
        return ResolveEvent(phase=g.label, window=window)

    g, mark = store.append(game, close)
    label = labels[0]
    lapsed = [n for n in labels[2] if n not in g.last_words]
    _print_results(g, mark, label, as_json, labels[1], lapsed, g.ahead_refused[labels[3]:])


def resolve_guard(g, phase: str | None, yes: bool, whole: bool = True) -> None:
    """What ``bansha resolve`` asks before it closes a phase (the simulator, the demo and the
    scenario runner resolve without it): the phase is the one named (``--phase``); unless
    ``yes``, no 【强制】 skill is owed (``choices.owed``) and something was recorded in the phase
    if anything could have been (a second ``resolve`` typed by mistake closes nothing)."""
    from bansha.engine.board import parse_phase_arg
    from bansha.engine.model import (
        ActEvent,
        GameError,
        ResolveEvent,
        RulingEvent,
        UnactEvent,
        VoteEvent,
    )

    if phase is not None and parse_phase_arg(g, phase) != g.label:
        raise GameError(say("rs_phase", g.lang, label=g.named(), asked=phase.strip()))
    if yes or g.winner is not None:
        return
    from bansha.engine.choices import all_choices, owed, vote_choices

    choices = all_choices(g)
    due = owed(g, choices)
    if due:
        items = say("lv_sep", g.lang).join(f"{c.player} {c.skill}" for c in due)
        raise GameError(say("rs_owed", g.lang, label=g.named(), items=items))
    lapsing = g.lapsing_last_words(whole)
    if lapsing:  # a 遗言 owed that this close would end, as an unsent 【强制】 skill blocks it
        raise GameError(say("rs_last_words", g.lang, label=g.named(), names=say("lv_sep", g.lang).join(lapsing)))
    since = next((i for i in range(len(g.applied) - 1, -1, -1) if isinstance(g.applied[i], ResolveEvent)), -1)
    recorded = any(isinstance(e, (ActEvent, UnactEvent, VoteEvent, RulingEvent)) for e in g.applied[since + 1:])
    if recorded or g.actions or g.ballots:
        return
    able = set(choices) | {p.name for p in g.alive() if g.phase.vote and vote_choices(g, p.name)}
    if able:
        raise GameError(say("rs_empty", g.lang, label=g.named(), count=len(able)))


@commands.command(help="h_ruling")
@guarded
def ruling(
    game: str = GameArg, kind: str = Argument(..., help="h_ruling_kind"),
    player: str = Argument("", help="h_ruling_player"),
    text: str = Option("", "--text", help="h_ruling_text"),
    arg: list[str] = Option([], "--arg", help="h_ruling_arg"),
    db: str = DbOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Record a director's ruling (disqualification, free text, an answer, a substitute, a draw)."""
    from bansha.engine.model import RulingEvent

    store = _store(db)
    kind = kind.strip()

    def event(g):
        _seen(g)
        return RulingEvent(phase=g.label, kind=g.ruleset.ruling_kind(kind), player=g.find_name(_name(player)) if player else "",
                           text=text, data=_kv(arg, "--arg", g.lang))

    g, mark = store.append(game, event)
    label, kind = g.label, g.ruleset.ruling_kind(kind)
    if as_json:
        return _json({"ruling": kind, "phase": label, "announcement": g.since(mark)[1], "winner": g.winner})
    echo(say("l_ruling", g.lang, kind=g.ruleset.ruling_name(kind), label=g.named(label)))
    for t in g.since(mark)[1]:
        echo(f"  {say('l_public', g.lang)} {t}")


@commands.command(help="h_status")
@guarded
def status(game: str = GameArg, as_player: str = Option(None, "--as", help="h_status_as"), db: str = DbOpt, as_json: bool = JsonOpt) -> None:
    """The director's view, or with --as one player's view."""
    from bansha.show.views import args_line, director_view, player_view

    g = _seen(_store(db, read=True).load(game))
    lang = g.lang
    if as_player is not None and not _name(as_player):
        # an empty --as is no player: never the director's whole view by mistake
        from bansha.engine.model import GameError
        from bansha.text.messages import extend

        extend({"as_empty": ("--as：玩家名为空（看主持人视图时不写 --as）", "--as: the player's name is empty (leave --as out for the director's view)")})
        raise GameError(say("as_empty", lang))
    view = player_view(g, g.find_name(_name(as_player))) if as_player is not None else director_view(g)
    if as_player is None:  # the director's to-do list: skills not used, votes, deadline (cli/loop.py)
        from bansha.cli.loop import echo_loop_view, loop_view

        view["loop"] = loop_view(g)
    if as_json:
        return _json(view)
    from bansha.engine.board import load_board, phase_namer

    name = phase_namer(g, load_board(g.manifest.id, lang=lang))
    echo(f"{view['ruleset']} — {name(view['phase'])}" + (" — " + say("l_over", lang, winner=_text(view["winner"], lang)) if view["winner"] is not None else ""))
    for k, v in view["facts"].items():
        echo(f"{k}: {_text(v, lang)}")
    out_mark = say("l_out_mark", lang)
    if as_player is not None:
        you = view["you"]
        echo(say("l_you", lang, text=f"{you['name']} {you['role']}{you['setup'].get('number', '') or ''} {you['camp']}")
                   + ("" if you["alive"] else out_mark))
        for k, v in you.items():
            if k not in ("name", "role", "camp", "setup", "alive", "choices") and v:
                if k == "last_words_until":
                    v = name(v)
                key = say(f"lv_key_{k}", lang) if f"lv_key_{k}" in _catalogue() else k
                echo(f"  {key}: {_text(v, lang)}")
        if you.get("choices"):
            echo("  " + say("lv_choices", lang))
            sep = say("lv_sep", lang)
            for c in you["choices"]:
                args = args_line(c["args"], c.get("arg_with"), lang)
                echo(f"    {c['skill']}" + (say("lv_forced", lang) if c["forced"] else "")
                     + (say("lv_choice_sent", lang) if c["submitted"] else say("lv_choice_group", lang) if c["group_acted"] else "")
                     + (" " + say("lv_range", lang, names=sep.join(c["targets"])) if c["max"] else "") + (f"  {args}" if args else ""))
        echo(say("l_players", lang, text="  ".join(p["name"] + ("" if p["alive"] else out_mark) for p in view["players"])))
        for f in view["feedback"]:
            echo(f"  [{name(f['phase'])}] {f['text']}")
        return
    rows = []
    for p in view["players"]:
        extra = []
        if p["statuses"]:
            extra.append(say("l_statuses", lang, text="、".join(p["statuses"])))
        if p["uses"]:
            extra.append(say("l_uses", lang, text="、".join(f"{k}:{v}" for k, v in p["uses"].items())))
        if p["acted"]:
            extra.append(say("l_acted", lang, text="; ".join(p["acted"])))
        if p["voted"]:
            extra.append(say("l_voted", lang, text="→".join(p["voted"])))
        num = p["setup"].get("number", "") or ""
        rows.append((p["seat"], p["name"], f"{p['identity']}{num}", p["camp"], say("l_alive" if p["alive"] else "l_out", lang), "  ".join(extra)))
    _seats(g, rows)
    for w in view["last_words"]:  # 遗言 owed: until the phase that publishes them closes
        echo(say("l_last_words", lang, player=w["player"], out=name(w["out"]), until=name(w["until"]) if w["until"] else "—")
                   + (" " + say("l_recorded_mark", lang) if w["recorded"] else ""))
    echo_loop_view(view["loop"], lang)


def _catalogue():
    from bansha.text.messages import CATALOGUE

    return CATALOGUE


def _text(value: Any, lang: str | None) -> str:
    """A view's value for text output (messages.plain): never a Python repr."""
    from bansha.text.messages import plain

    return plain(value, lang)


@commands.command("log", help="h_log")
@guarded
def log_(game: str = GameArg, explain: bool = Option(False, "--explain", help="h_log_explain"), db: str = DbOpt, as_json: bool = JsonOpt) -> None:
    """The game's events, and with --explain the ruling trace of every resolution step."""
    import msgspec

    store = _store(db, read=True)
    events = store.events(game)
    g = _seen(store.load(game))
    if as_json:
        return _json({"events": [msgspec.to_builtins(e) | {"type": type(e).__name__} for e in events],
                      "trace": g.trace if explain else []})
    from bansha.show.explain import event_line, trace_lines

    for i, e in enumerate(events, start=1):
        d = msgspec.to_builtins(e)
        d.pop("type", None)  # the event's kind is printed first
        echo(f"{i:>4} " + event_line(d, type(e).__name__.removesuffix("Event").lower(), g.lang, g.named, g.ruleset.ruling_name))
        if explain and isinstance(e, msgspec.Struct) and type(e).__name__ == "ResolveEvent":
            # the kernel's trace said in the board's words (explain.py)
            for line in trace_lines(g, [t for t in g.trace if t.phase == d["phase"]]):
                echo("       " + line)


@commands.command(help="h_undo")
@guarded
def undo(game: str = GameArg, to: str = Option(None, "--to", help="h_undo_to"),
         yes: bool = Option(False, "--yes", help="h_undo_yes"),
         db: str = DbOpt, as_json: bool = JsonOpt) -> None:
    """Drop the game's last event (or with --to PHASE every event after that phase). A
    resolution is undone with --yes only: without it, what undoing it withdraws is printed
    (as amend previews); --to without --yes names the corrections of earlier phases it would
    drop and writes nothing."""
    if to is not None:
        from bansha.cli.loop import undo_to

        return undo_to(game, to, db, as_json, yes)
    if not yes:
        from bansha.cli.loop import undo_preview

        if undo_preview(game, db, as_json):
            return

    from bansha.show.explain import event_text

    store = _store(db)
    ev = store.undo(game)
    kind = type(ev).__name__.removesuffix("Event").lower()
    if as_json:
        return _json({"undone": kind, "event": ev})
    g = store.load(game)  # the game without it: the board's words for the event
    echo(say("l_undone", g.lang, what=event_text(g, ev)))


@commands.command(help="h_export")
@guarded
def export(game: str = GameArg, fmt: str = Option(None, "--format", help="h_export_format"), db: str = DbOpt,
           as_json: bool = Option(False, "--json", help="h_export_json")) -> None:
    """Forum-ready announcements (Markdown or Discuz! BBCode), or the whole game as JSON."""
    import msgspec

    from bansha.engine.model import GameError
    from bansha.show.views import export_text

    store = _store(db, read=True)
    g = _seen(store.load(game))
    if as_json and fmt not in (None, "json"):  # two formats asked for: one would be ignored
        from bansha.text.messages import extend

        extend({"export_two": ("--json 与 --format {fmt} 不能同时使用：只写一种格式", "--json and --format {fmt} cannot be used together: one format only")})
        raise GameError(say("export_two", g.lang, fmt=fmt))
    fmt = fmt or "md"
    if fmt == "json" or as_json:
        return _json({"setup": store.setup(game), "events": [msgspec.to_builtins(e) | {"type": type(e).__name__} for e in store.events(game)],
                      "announcements": g.announcements, "winner": g.winner, "scores": g.scores})
    if fmt not in ("md", "bbcode"):
        raise GameError(say("format", g.lang, fmt=fmt))
    from bansha.engine.board import load_board, phase_namer

    echo(export_text(g, fmt, phase_namer(g, load_board(g.manifest.id))), nl=False)


@commands.command(help="h_games")
@guarded
def games(db: str = DbOpt, as_json: bool = JsonOpt) -> None:
    """List stored games."""
    names = _store(db, read=True).names()
    if as_json:
        return _json(names)
    for name in names:
        echo(name)


@commands.command(help="h_demo")
@guarded
def demo(ruleset: str = Option("light-shadow", "--ruleset", help="h_ruleset_id"), as_json: bool = JsonOpt) -> None:
    """Play a scripted game of RULESET end to end, printing each phase's results."""
    import msgspec

    from bansha.authoring.scenario import Mismatch, lines_of, load, run
    from bansha.engine.model import GameError
    from bansha.engine.registry import checked_ruleset, demo_file, find_manifest, manifest_path

    m = checked_ruleset(ruleset).manifest  # the board checked whole, as `new` checks it
    lang = m.language
    source = manifest_path(ruleset)
    path = demo_file(source) if source is not None else None
    if path is None:
        raise GameError(say("no_demo", lang, ruleset=m.id))
    sc = load(path)
    base = find_manifest(sc.ruleset, relative_to=path.parent)
    if base.id != m.id:
        # a variant plays its board's demo under its own rules: the inputs as written, the
        # expectations (the board's results) not asked of it
        sc = msgspec.structs.replace(sc, phases=[msgspec.structs.replace(ph, expect=None) for ph in sc.phases])
    try:
        game = run(sc, path.parent, manifest=m)
    except Mismatch as exc:
        raise GameError(say("demo_broken", lang, file=path.name, why=exc)) from None
    if as_json:
        return _json({"title": sc.title, "announcements": game.announcements, "feedback": game.feedback, "winner": game.winner, "scores": game.scores})
    echo(f"{m.name} — {sc.title}")
    # the deal, before any conversion
    _seats(game, [(seat, p.name, f"{p.role}{p.setup.get('number', '') or ''}", p.camp or game.ruleset.role(p.role).camp)
                  for seat, p in enumerate(game.setup.players, start=1)])
    for label in game.resolved + ([game.label] if game.winner is not None and game.label not in game.resolved else []):
        fb, ann = lines_of(game, label)
        if not any(fb.values()) and not ann:
            continue
        echo("")
        _echo_phase(game.named(label), fb, ann, game.lang)
    echo("\n" + say("l_game_over", game.lang, result=_result(game))
               + ("  " + say("l_scores", game.lang, scores=_scores(game.scores, game.lang)) if game.scores else ""))
    from bansha.entrypoints import entry_points

    for ep in entry_points(DEMO_GROUP):  # bansha-forum's: the last phase's thread post, as `bansha post` writes it
        ep.load()(game)


@scenario_app.command("run", help="h_scenario_run")
def scenario_run(
    paths: list[Path] = Argument(..., help="h_scenario_paths"),
    verbose: bool = Option(False, "-v", help="h_scenario_verbose"),
    as_json: bool = JsonOpt,
) -> None:
    """Run scenario files: exit 0 when all pass, 1 on a mismatch, 2 on an invalid file."""
    from bansha.authoring.scenario import Mismatch, run_file
    from bansha.door.files import os_why
    from bansha.engine.model import GameError
    from bansha.text.messages import extend

    extend({"sc_plugin_fault": ("规则插件出错：{why}", "a rule plugin failed: {why}")})
    files: list[Path] = []
    results = []
    for p in paths:
        try:
            files += sorted(p.rglob("*.toml")) if p.is_dir() else [p]
        except OSError as exc:  # a folder on the way nobody may read
            results.append({"file": str(p), "result": "invalid", "message": say("file_unreadable", None, file=p, why=os_why(exc))})
    for f in files:
        try:
            run_file(f)
            results.append({"file": str(f), "result": "passed", "message": ""})
        except Mismatch as exc:
            results.append({"file": str(f), "result": "failed", "message": str(exc)})
        except GameError as exc:
            results.append({"file": str(f), "result": "invalid", "message": str(exc)})
        except OSError as exc:
            results.append({"file": str(f), "result": "invalid", "message": say("file_unreadable", None, file=f, why=os_why(exc))})
        except Exception as exc:  # a rule plugin's fault outside a resolution: this file is invalid, the next runs
            from bansha.text.messages import excerpt

            results.append({"file": str(f), "result": "invalid",
                            "message": say("sc_plugin_fault", None, why=f"{type(exc).__name__}: {excerpt(exc, 80)}")})
    count = {k: sum(r["result"] == k for r in results) for k in ("passed", "failed", "invalid")}
    if as_json and count["invalid"]:
        # a refusal with --json is one object {"error", "code": 2}; the report rides along
        first = next(r for r in results if r["result"] == "invalid")
        echo(json.dumps({"error": first["message"], "code": 2, "results": results, **count}, ensure_ascii=False))
    elif as_json:
        _json({"results": results, **count})
    else:
        for r in results:
            if r["result"] == "failed":
                echo(say("l_sc_failed", None, file=r["file"], message=r["message"]))
            elif r["result"] == "invalid":
                echo(say("l_sc_invalid", None, file=r["file"], message=r["message"]), err=True)
            elif verbose:
                echo(say("l_sc_ok", None, file=r["file"]))
        echo(say("l_scenarios", None, passed=count["passed"], failed=count["failed"])
                   + (say("l_invalid", None, invalid=count["invalid"]) if count["invalid"] else ""))
    if count["invalid"]:
        raise SystemExit(2)
    if count["failed"]:
        raise SystemExit(1)


# the director's loop that needs only the engine and the store (amend; act --file, undo --to and
# status's to-do list are called from the commands above): kernel/src/bansha/cli/loop.py. What
# reads or writes the thread (votes import, post, pm) is bansha-forum's, through COMMAND_GROUP.
from bansha.cli.loop import register as _register_loop  # noqa: E402

_register_loop(commands, store=_store, echo_json=_json, fail=fail)

COMMAND_GROUP = "bansha.commands"
#: what a distribution adds to ``bansha demo``'s output: a function of the played game
DEMO_GROUP = "bansha.demo"
#: the commands the other distributions of bansha's repository add, by the distribution: where
#: one is not installed, its command is no command, and the refusal says what to install (the
#: kernel never imports them: docs/architecture.md, "The house")
ELSEWHERE = {"votes": "bansha-forum", "post": "bansha-forum", "pm": "bansha-forum", "activity": "bansha-forum",
             "signup": "bansha-forum", "serve": "bansha-web", "simulate": "bansha-sim", "stats": "bansha-sim",
             "balance": "bansha-sim"}


def __getattr__(name: str):
    """``bansha.cli.cli.app``: the ``typer.Typer`` of every command ``bansha`` runs, the built-in
    ones and the installed distributions' (``bansha.commands``: bansha-forum's ``votes
    import``, ``post``, ``pm`` …), made when first asked for (an in-process run:
    ``typer.testing.CliRunner().invoke(app, …)``)."""
    if name == "app":
        from bansha.cli.help import typer_app

        made = typer_app(commands)
        for plugin, obj in plugin_commands(None).items():
            _add_plugin_command(made, plugin, obj)
        globals()["app"] = made
        return made
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def app_for(argv: list[str]):
    """The ``typer.Typer`` to run this command line with: only the command or group the line
    names, a built-in one or a plugin's; for the top-level help or an unknown name, the list of
    every command, by name and summary (cli.help.listing_app)."""
    from bansha.cli.help import App, listing_app, typer_app

    first = next((a for a in argv if not a.startswith("-")), None)
    if first is not None and first in commands.names():
        return typer_app(commands, only=first)
    found = plugin_commands(first)
    if first is not None and first in found:
        if isinstance(found[first], Table):  # declared as the built-in ones: its own table, that name only
            return typer_app(_only(found[first], first), only=first)
        app = App(**commands.kwargs)
        _add_plugin_command(app, first, found[first])
        return app
    app = listing_app(commands)
    for name, obj in found.items():
        _add_plugin_command(app, name, obj, listing=True)
    return app


def plugin_commands(first: str | None) -> dict[str, Any]:
    """The commands other distributions declare in the ``bansha.commands`` entry-point group
    (docs/plugins.md), by name: the entry point's name is the command's name, its object a
    ``typer.Typer`` (a command with sub-commands), a function (one command), or a table of
    commands declared as the built-in ones are (``cli.table.Table``), which holds the command or
    group of that name and is run the quick way too (``quick``).

    Only what this command line needs is imported: the one named ``first``, or every one of
    them for the top-level help (``first`` None). A built-in command cannot be replaced by a
    plugin."""
    from bansha.entrypoints import entry_points

    builtin = commands.names()
    found = {}
    for ep in entry_points(COMMAND_GROUP):
        if ep.name in builtin or not (first is None or ep.name == first):
            continue
        try:
            found[ep.name] = ep.load()
        except Exception as exc:  # a broken plugin: one line naming it, never a traceback
            from bansha.engine.model import GameError  # here: the list of commands needs no msgspec

            raise GameError(say("plugin_command", None, name=ep.name, dist=ep.dist or say("an_unknown_dist"),
                                why=f"{type(exc).__name__}: {exc}")) from None
        if isinstance(found[ep.name], Table):
            if ep.name not in found[ep.name].names():
                from bansha.engine.model import GameError

                raise GameError(say("plugin_command_kind", None, name=ep.name, dist=ep.dist, value=ep.value))
        elif not callable(found[ep.name]):
            from bansha.engine.model import GameError

            raise GameError(say("plugin_command_kind", None, name=ep.name, dist=ep.dist, value=ep.value))
    return found


def _only(table: Table, name: str) -> Table:
    """The command or group ``name`` of a plugin's table, as a table of its own (under the
    built-in commands' help: ``bansha``'s)."""
    own = Table(**commands.kwargs)
    if name in table.groups:
        own.add_group(table.groups[name], name)
    else:
        own.commands[name] = table.commands[name]
    return own


def quick(argv: list[str]):
    """The command a plain command line names and its keyword arguments, without typer: a
    built-in command's, or one a plugin declares in a table (``cli.table.Table``); else None."""
    found = commands.quick(argv)
    if found is not None:
        return found
    first = argv[0] if argv else None
    if first is None or first.startswith("-") or first in commands.names():
        return None
    obj = plugin_commands(first).get(first)
    return _only(obj, first).quick(argv) if isinstance(obj, Table) else None


def _add_plugin_command(app, name: str, obj, listing: bool = False) -> None:
    import inspect

    import typer

    from bansha.cli.help import App, _listed, listing_app, typer_app

    if isinstance(obj, Table):  # the command or group of that name, as the built-in ones are added
        made = (listing_app if listing else typer_app)(_only(obj, name))
        app.registered_commands += made.registered_commands
        app.registered_groups += made.registered_groups
        return None

    if isinstance(obj, typer.Typer):
        only = obj.registered_commands
        if len(only) == 1 and not obj.registered_groups and obj.registered_callback is None:
            # a Typer of one command is that command (`bansha hello GAME`), as when run alone
            help_, obj = only[0].help, only[0].callback
        elif listing:
            return app.add_typer(App(help=obj.info.help), name=name)
        else:
            return app.add_typer(obj, name=name)
    else:
        help_ = None
    if listing:  # the list prints its name and summary only: typer's defaults from the real one
        app.command(name=name, help=help_ if help_ is not None else inspect.getdoc(obj))(_listed)
    else:
        app.command(name=name, help=help_)(obj)


def usage_message(exc: Exception) -> str:
    """click's usage error in the catalogue's words (``BANSHA_LANG``, else Chinese): no board
    is known yet when the command line itself is wrong."""
    # typer vendors click (typer._click): the error classes are told by name, not imported
    kinds = {c.__name__ for c in type(exc).__mro__}
    param = getattr(exc, "param", None)
    pname = None
    if param is not None:
        pname = "/".join(param.opts) if getattr(param, "param_type_name", "") == "option" else (param.human_readable_name or param.name or "").upper()
    if "NoSuchOption" in kinds:
        return say("usage_no_such_option", None, option=exc.option_name)
    if "MissingParameter" in kinds:
        pname = pname or (exc.param_hint if isinstance(exc.param_hint, str) else "")
        kind = "usage_missing_option" if getattr(param, "param_type_name", "") == "option" else "usage_missing_argument"
        return say(kind, None, param=pname)
    if "BadOptionUsage" in kinds:
        return say("usage_option_value", None, option=exc.option_name)
    if "BadParameter" in kinds:
        value = " ".join(exc.message.split())
        if not value:  # only ``table.path_of`` fails on an empty value: a blank path
            return say("usage_bad_value", None, param=pname or exc.param_hint or "", value=say("usage_empty_path", None))
        m = re.fullmatch(r"'(.*)' is not a valid (int|integer|float|boolean)\.?", value)
        if m:
            kind = {"float": "allowed_number", "boolean": "allowed_bool"}.get(m.group(2), "allowed_int")
            value = f"{m.group(1)}：{say(kind, None)}"
        elif re.fullmatch(r"'(.*)' is not (?:one of|in the range) .*", value):
            value = say("usage_bad_choice", None, value=value.split("'")[1])
        elif m := re.fullmatch(r"(\S+) is not in the range (-?\d+(?:\.\d+)?)?(<=?)?x(<=?)?(-?\d+(?:\.\d+)?)?\.?", value):
            # click's IntRange: "0 is not in the range 1<=x<=64."
            from bansha.text.messages import extend

            extend({"usage_range": ("{value}：应在 {lo} 到 {hi} 之间", "{value}: expected {lo} to {hi}"),
                    "usage_range_lo": ("{value}：应至少为 {lo}", "{value}: expected at least {lo}"),
                    "usage_range_hi": ("{value}：应至多为 {hi}", "{value}: expected at most {hi}")})
            got, lo, _, _, hi = m.groups()
            key = "usage_range" if lo and hi else "usage_range_lo" if lo else "usage_range_hi"
            value = say(key, None, value=got, lo=lo, hi=hi)
        return say("usage_bad_value", None, param=pname or exc.param_hint or "", value=value)
    message = " ".join(exc.format_message().split())
    m = re.match(r"No such command '([^']*)'\.?(?: Did you mean '([^']*)'\?)?", message)
    if m:
        if m.group(1) in ELSEWHERE:  # a command of a distribution not installed here: say which
            return say("usage_not_installed", None, command=m.group(1), dist=ELSEWHERE[m.group(1)])
        near = say("usage_did_you_mean", None, command=m.group(2)) if m.group(2) else ""
        return say("usage_no_such_command", None, command=m.group(1)) + near
    m = re.match(r"Got unexpected extra arguments?(?:\(s\))? \((.*)\)", message)
    if m:
        return say("usage_extra", None, args=m.group(1))
    return say("usage_other", None, message=message)


def _quiet_stdout() -> None:
    """Point stdout at nothing, so that the interpreter's last flush into a closed pipe does
    not complain."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # in-process (tests): stdout is no file
        pass


def main() -> None:
    """The ``bansha`` entry point. Usage errors (an unknown option, a missing argument, a value
    of the wrong type) print one line ``错误：…`` (or with ``--json`` a JSON object) and exit
    2, like every other bad input. A closed pipe (``bansha status | head``) ends quietly with
    0. Logging is configured here, the entry point, lazily (``_logger``)."""
    try:
        _main()
    except BrokenPipeError:  # the reader stopped reading: nothing more to say
        _quiet_stdout()
        sys.exit(0)


def _main() -> None:
    argv = sys.argv[1:]
    for n, word in enumerate(argv, 1):
        # bytes the terminal's encoding could not decode reach Python as lone surrogates, which
        # no store, name check or output can take: one line at the door, nothing run
        if not word.isascii():
            try:
                word.encode("utf-8")
            except UnicodeEncodeError:
                shown = word.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
                fail(say("usage_not_utf8", None, n=n, word=shown), "--json" in argv)
    try:
        found = quick(argv)
    except Exception as exc:
        from bansha.engine.model import GameError

        if not isinstance(exc, GameError):  # a broken plugin's command: said by app_for below
            raise
        found = None
    if found is not None:  # a plain command line of a command declared in a table: typer is not needed
        command, kwargs = found
        sys.exit(command(**kwargs) or 0)
    import typer

    as_json = "--json" in argv
    try:
        app = app_for(argv)
    except Exception as exc:
        from bansha.engine.model import (
            GameError,  # here: `bansha --help` imports no msgspec (start-up)
        )

        if not isinstance(exc, GameError):
            raise
        fail(str(exc), as_json)
    try:
        # one command, or the list: still a group, as in the whole app (`bansha status GAME`)
        code = typer.main.get_group(app)(prog_name="bansha", standalone_mode=False)
    except Exception as exc:
        # typer's (vendored click) usage errors carry a message and an exit code
        if not (hasattr(exc, "format_message") and hasattr(exc, "exit_code")):
            raise
        if type(exc).__name__ == "NoArgsIsHelpError":  # `bansha` alone: the help
            echo(exc.format_message())
            sys.exit(0)
        ctx = getattr(exc, "ctx", None)
        where = f"{ctx.command_path}: " if ctx is not None else ""
        try:
            fail(where + usage_message(exc), as_json)
        except SystemExit:
            sys.exit(exc.exit_code)
    sys.exit(code or 0)


if __name__ == "__main__":
    sys.exit(main())
