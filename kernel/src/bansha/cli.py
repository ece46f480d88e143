"""The ``bansha`` command line (typer). Heavy imports stay inside the commands: start-up matters
on every command a director types (docs/performance.md)."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import typer

# Help is click's plain text, not rich's: rendering it with rich took a `bansha --help` from
# ~0.1 s to ~0.3 s (docs/performance.md).
app = typer.Typer(
    help="bansha: the director's engine for forum social-deduction games (版杀).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
role_app = typer.Typer(help="Roles of the installed rulesets.", no_args_is_help=True, rich_markup_mode=None)
scenario_app = typer.Typer(help="Scenario files (docs/scenarios.md).", no_args_is_help=True, rich_markup_mode=None)
app.add_typer(role_app, name="role")
app.add_typer(scenario_app, name="scenario")
from .cli_db import db_app  # noqa: E402 - self-contained, so that it can sit here

app.add_typer(db_app, name="db")

# `db: str`, not Path, in every command: a Path folds postgresql://h/db into postgresql:/h/db
DbOpt = typer.Option(None, "--db", envvar="BANSHA_DB",
                     help="game database: a SQLite file (default: the user data dir) or a postgresql:// URL")
JsonOpt = typer.Option(False, "--json", help="print JSON")


class Refused(Exception):
    pass


def fail(msg: str, as_json: bool = False) -> None:
    if as_json:  # a program reading --json output reads the error the same way
        typer.echo(json.dumps({"error": msg, "code": 2}, ensure_ascii=False))
    else:
        typer.echo(f"error: {msg}", err=True)
    raise typer.Exit(2)


def guarded(fn):
    """Turn a GameError into one line on stderr and exit code 2."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from .model import GameError

        try:
            return fn(*args, **kwargs)
        except GameError as exc:
            fail(str(exc), bool(kwargs.get("as_json")))

    return wrapper


def _logger(game: str):
    """The logger of the event a command writes. ``BANSHA_LOG=info`` (or debug, warning)
    prints the engine's events on stderr through structlog, configured here, the entry point;
    otherwise nothing is logged and structlog is not imported (its import with rich's console
    was a third of a write's start-up)."""
    level = os.environ.get("BANSHA_LOG", "").strip().upper()
    if not level:
        from .engine import SILENT

        return SILENT
    import logging

    import structlog

    if not structlog.is_configured():
        structlog.configure(
            wrapper_class=structlog.make_filtering_bound_logger(getattr(logging, level, logging.INFO)),
            logger_factory=structlog.PrintLoggerFactory(sys.stderr),
        )
    return structlog.get_logger("bansha").bind(game=game)


def _store(db: str | None):
    from .store import open_store

    # one command, one replay: no cached state to copy (store.Store.cache)
    return open_store(db, logger=_logger, cache=False)


def _json(data: Any) -> None:
    import msgspec

    typer.echo(json.dumps(msgspec.to_builtins(data), ensure_ascii=False, indent=2))


def _kv(pairs: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            from .model import GameError

            raise GameError(f"--arg {pair!r}: expected KEY=VALUE")
        # a whole number is an int; anything else (1.5, --5, ², 甲) stays the text it is
        out[key] = int(value) if re.fullmatch(r"-?\d+", value) else value
    return out


def _echo_phase(label: str, feedback: dict[str, list[str]], announcement: list[str]) -> None:
    """One phase's results: each player's private lines, then the public ones."""
    typer.echo(f"== {label}")
    for name, lines in feedback.items():
        for line in lines:
            typer.echo(f"  [{name}] {line}")
    for line in announcement:
        typer.echo(f"  (public) {line}")


def _print_results(game, mark, label: str, as_json: bool) -> None:
    fb, ann = game.since(mark)
    if as_json:
        _json({"phase": label, "feedback": fb, "announcement": ann,
               "out": game.out.get(label, []), "next": game.label, "winner": game.winner, "scores": game.scores})
        return
    _echo_phase(label, fb, ann)
    if game.winner is not None:
        typer.echo(f"  game over: {'draw' if game.draw else '、'.join(game.winner)}" + (f"  scores: {game.scores}" if game.scores else ""))
    else:
        typer.echo(f"  now: {game.label}")


# ----------------------------------------------------------------------------- catalogue


@app.command()
@guarded
def rulesets(as_json: bool = JsonOpt) -> None:
    """List installed rulesets."""
    from .registry import installed_manifests

    rows = [{"id": m.id, "name": m.name, "alias": m.alias, "seats": [t.seats for t in m.tables]} for m in installed_manifests().values()]
    if as_json:
        return _json(rows)
    for r in rows:
        typer.echo(f"{r['id']}\t{r['name']}\tseats {'/'.join(map(str, r['seats']))}")


@app.command()
@guarded
def roles(ruleset: str = typer.Argument(None, help="ruleset id (default: all installed)"), as_json: bool = JsonOpt,
          markdown: bool = typer.Option(False, "--markdown", help="every role and skill with its arguments, as Markdown (docs/roles/)")) -> None:
    """List the roles of a ruleset (or of every installed ruleset)."""
    from .registry import find_manifest, installed_manifests, ruleset_for

    manifests = [find_manifest(ruleset)] if ruleset else list(installed_manifests().values())
    if markdown:
        from .views import roles_reference

        typer.echo("\n".join(roles_reference(ruleset_for(m)) for m in manifests), nl=False)
        return
    rows = []
    for m in manifests:
        rs = ruleset_for(m)
        for role in rs.roles.values():
            rows.append({"ruleset": m.id, "role": role.name, "alias": role.alias, "camp": role.camp,
                         "skills": [s.name for s in role.skills], "plugin": m.roles[role.name],
                         "common": role.name in m.common})
    if as_json:
        return _json(rows)
    for r in rows:
        common = "  (every player's skills, not dealt)" if r["common"] else ""
        typer.echo(f"{r['ruleset']}\t{r['role']} ({r['alias']})\t{'、'.join(r['skills']) or '-'}{common}")


@app.command()
@guarded
def rulings(ruleset: str = typer.Argument(..., help="ruleset id or manifest path"), as_json: bool = JsonOpt) -> None:
    """The kinds of director's ruling a ruleset takes (`bansha ruling GAME KIND …`)."""
    from .registry import find_manifest, ruleset_for

    kinds = ruleset_for(find_manifest(ruleset)).ruling_kinds
    if as_json:
        return _json(kinds)
    for kind, meaning in kinds.items():
        typer.echo(f"{kind}\t{meaning}")


@role_app.command("show")
@guarded
def role_show(name: str, ruleset: str = typer.Option(None, "--ruleset", help="ruleset id"), as_json: bool = JsonOpt) -> None:
    """The rule text of a role and each skill with its arguments."""
    from .model import GameError
    from .registry import find_manifest, installed_manifests, ruleset_for

    manifests = [find_manifest(ruleset)] if ruleset else list(installed_manifests().values())
    for m in manifests:
        rs = ruleset_for(m)
        try:
            role = rs.role(name)
        except GameError:
            continue
        if as_json:
            return _json({"ruleset": m.id, "role": role})
        typer.echo(f"{role.name} ({role.alias}) — {m.name}, camp {role.camp or 'by the deal'}")
        if role.rule:
            typer.echo(f"  {role.rule}")
        for s in role.skills:
            n = s.targets if s.max_targets in (None, s.targets) else f"{s.targets}-{s.max_targets}"
            typer.echo(f"  skill {s.name} ({s.alias}) in {'/'.join(s.phases)}, step {s.step or 'at once'}, priority {s.priority}, {n} target(s)"
                       + (f", {s.uses} use(s)" if s.uses is not None else "") + (f", tags {'、'.join(s.tags)}" if s.tags else ""))
            for k, v in s.args.items():
                typer.echo(f"    --arg {k}=…  {v}")
            if s.rule:
                typer.echo(f"    {s.rule}")
        return
    raise GameError(f"unknown role {name!r}" + (f" in ruleset {ruleset}" if ruleset else " in any installed ruleset"))


# ------------------------------------------------------------------------------- a game


def _players(values: list[str]) -> list[str]:
    names: list[str] = []
    for v in values:
        p = Path(v)
        if p.is_file():
            text = p.read_text(encoding="utf-8")
            names += [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
        else:
            names += [n for n in v.replace("，", ",").replace(",", " ").split() if n]
    return names


def _check_deal(rs, setups, source: str) -> None:
    """A deal file's seats: as many as a table of the ruleset, each name once, known roles
    and camps; the error names the file and the key."""
    from .model import GameError

    seen: set[str] = set()
    for i, ps in enumerate(setups):
        where = f"{source}: key players[{i}]"
        if not ps.name.strip():
            raise GameError(f"{where}.name: a player needs a name")
        if ps.name in seen:
            raise GameError(f"{where}.name: player {ps.name!r} is named twice")
        seen.add(ps.name)
        try:
            rs.role(ps.role)
        except GameError as exc:
            raise GameError(f"{where}.role: {exc}") from None
        if ps.camp:
            try:
                rs.camp(ps.camp)
            except GameError as exc:
                raise GameError(f"{where}.camp: {exc}") from None
    sizes = [t.seats for t in rs.manifest.tables]
    if sizes and len(setups) not in sizes:
        raise GameError(f"{source}: key players: {len(setups)} seats, but ruleset {rs.manifest.id} "
                        f"has tables for {'/'.join(map(str, sizes))}")


@app.command()
@guarded
def new(
    game: str,
    ruleset: str = typer.Option(..., "--ruleset", help="ruleset id or manifest path"),
    players: list[str] = typer.Option(None, "--players", help="a roster file (a name a line) or names, comma-separated"),
    seed: int = typer.Option(0, "--seed", help="seed of every random choice"),
    deal_file: Path = typer.Option(None, "--deal", help="a TOML deal: [[players]] name, role, camp, setup"),
    option: list[str] = typer.Option([], "--option", help="house rule KEY=VALUE"),
    db: str = DbOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Create a game, dealing roles from the manifest with the seed (or from --deal)."""
    from . import deal as dealing
    from .model import Deal, GameError, Setup
    from .registry import convert, decode_toml, find_manifest, ruleset_for

    manifest = find_manifest(ruleset)
    try:
        rs = ruleset_for(manifest)
    except GameError as exc:
        # a manifest given as a file: name the file whose keys are wrong
        if ruleset.endswith(".toml") or "/" in ruleset:
            raise GameError(f"{ruleset}: {exc}") from None
        raise
    if deal_file is not None:
        try:
            raw = deal_file.read_bytes()
        except OSError as exc:
            raise GameError(f"{deal_file}: cannot read the deal: {exc.strerror}") from None
        setups = decode_toml(raw, Deal, str(deal_file)).players
        _check_deal(rs, setups, str(deal_file))
        dealt_by = str(deal_file)
    else:
        names = _players(players or [])
        if not names:
            files = [v for v in players or [] if Path(v).is_file()]
            raise GameError(f"{files[0]}: no player names in the roster file" if files else "--players: no player names given")
        setups = dealing.deal(rs, names, seed)
        dealt_by = f"seed {seed}"
    opts = convert(_kv(option), dict, "--option")
    for k in opts:
        if k not in manifest.options:
            raise GameError(f"--option {k}: ruleset {manifest.id} has no house rule {k!r}")
    setup = Setup(ruleset=manifest.id, manifest=manifest, players=setups, seed=seed, options=opts, dealt_by=dealt_by)
    g = _store(db).create(game, setup)
    if as_json:
        return _json({"game": game, "phase": g.label, "players": setups})
    typer.echo(f"game {game}: {manifest.name}, {len(setups)} players ({dealt_by}), now {g.label}")
    for p in g.players.values():
        typer.echo(f"  {p.seat:>2} {p.name}\t{p.role}{p.setup.get('number', '') or ''}\t{p.camp}")


@app.command()
@guarded
def act(
    game: str, player: str = typer.Argument(None), skill: str = typer.Argument(None),
    targets: list[str] = typer.Argument(None),
    arg: list[str] = typer.Option([], "--arg", help="a skill argument KEY=VALUE"),
    phase: str = typer.Option(None, "--phase", help="the phase the PM was sent for (default: the current one); a closed phase is refused"),
    file: Path = typer.Option(None, "--file", help="record every action of a file, all or nothing (TOML 'actions' list or CSV actor,skill,targets,args)"),
    db: str = DbOpt, as_json: bool = JsonOpt,
) -> None:
    """Record PLAYER's action for the current phase (checked at once), or with --file a phase's actions."""
    from .model import ActEvent, GameError

    if file is not None:
        if player or skill or arg or phase:
            raise GameError("--file takes no PLAYER, SKILL, --arg or --phase: they are in the file")
        from .cli_loop import act_file

        return act_file(game, file, db, as_json)
    if not player or not skill:
        raise GameError("act: expected PLAYER SKILL [TARGET…], or --file F")

    args = _kv(arg)
    g, mark = _store(db).append(game, lambda g: ActEvent(phase=phase or g.label, actor=player, skill=skill, targets=targets or [], args=args))
    a = next((a for a in reversed(g.actions) if a.actor == player), None)
    fb, ann = g.since(mark)
    if as_json:
        return _json({"recorded": a, "feedback": fb, "announcement": ann, "winner": g.winner})
    typer.echo(f"recorded: {player} {skill} {' '.join(targets or [])}")
    for old in a.replaced if a is not None else ():  # a group's standing action it replaces
        typer.echo(f"  replaces: {old}")
    for name, lines in fb.items():  # an immediate answer
        for line in lines:
            typer.echo(f"  [{name}] {line}")
    for t in ann:
        typer.echo(f"  (public) {t}")


@app.command()
@guarded
def unact(game: str, player: str, skill: str, db: str = DbOpt, as_json: bool = JsonOpt) -> None:
    """Withdraw PLAYER's action of SKILL in the current phase."""
    from .model import UnactEvent

    store = _store(db)
    gone = []

    def event(g):
        gone.append(g.standing(player, skill))  # named as what it removes: a group's may be another member's
        return UnactEvent(phase=g.label, actor=player, skill=skill)

    g, _ = store.append(game, event)
    label, a = g.label, gone[0]
    if as_json:
        return _json({"withdrawn": {"player": a.actor, "skill": a.skill, "targets": a.chosen, "phase": label}})
    typer.echo(f"withdrawn: {a.describe()} ({label})")


@app.command()
@guarded
def vote(
    game: str, voter: str, target: str,
    post: int = typer.Option(None, "--post", help="forum post number"),
    change: bool = typer.Option(False, "--change", help="this is a vote change"),
    proxy: bool = typer.Option(False, "--proxy", help="entered by the director for the voter (代投)"),
    late: bool = typer.Option(False, "--late", help="posted in the last hour of the vote"),
    db: str = DbOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Record a vote (or 弃权) in the current phase."""
    from .model import VoteEvent

    store = _store(db)
    g, _ = store.append(game, lambda g: VoteEvent(phase=g.label, voter=voter, target=target, post=post, change=change, proxy=proxy, late=late))
    label = g.label
    if as_json:
        return _json({"vote": {"voter": voter, "target": target, "post": post, "change": change, "phase": label}})
    typer.echo(f"vote: {voter} -> {target} ({label})")


@app.command()
@guarded
def resolve(game: str, db: str = DbOpt, as_json: bool = JsonOpt) -> None:
    """Close the current phase, resolve it in the manifest's order and advance."""
    from .model import ResolveEvent

    store = _store(db)
    labels: list[str] = []

    def close(g):
        labels.append(g.label)
        return ResolveEvent(phase=g.label)

    g, mark = store.append(game, close)
    label = labels[0]
    _print_results(g, mark, label, as_json)


@app.command()
@guarded
def ruling(
    game: str, kind: str = typer.Argument(..., help="remove | announce | answer | substitute | draw, or a kind the ruleset adds (bansha rulings RULESET)"),
    player: str = typer.Argument("", help="the player it concerns"),
    text: str = typer.Option("", "--text", help="announcement, answer, reason or the substitute's name"),
    arg: list[str] = typer.Option([], "--arg", help="extra data for the rules KEY=VALUE"),
    db: str = DbOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Record a director's ruling (disqualification, free text, an answer, a substitute, a draw)."""
    from .model import RulingEvent

    store = _store(db)
    data = _kv(arg)
    g, mark = store.append(game, lambda g: RulingEvent(phase=g.label, kind=kind, player=player, text=text, data=data))
    label = g.label
    if as_json:
        return _json({"ruling": kind, "phase": label, "announcement": g.since(mark)[1], "winner": g.winner})
    typer.echo(f"ruling {kind} recorded ({label})")
    for t in g.since(mark)[1]:
        typer.echo(f"  (public) {t}")


@app.command()
@guarded
def status(game: str, as_player: str = typer.Option(None, "--as", help="one player's view"), db: str = DbOpt, as_json: bool = JsonOpt) -> None:
    """The director's view, or with --as one player's view."""
    from .views import director_view, player_view

    g = _store(db).load(game)
    view = player_view(g, as_player) if as_player else director_view(g)
    if not as_player:  # the director's to-do list: skills not used, votes, deadline (cli_loop)
        from .cli_loop import echo_loop_view, loop_view

        view["loop"] = loop_view(g)
    if as_json:
        return _json(view)
    typer.echo(f"{view['ruleset']} — {view['phase']}" + (f" — over: {view['winner']}" if view["winner"] is not None else ""))
    for k, v in view["facts"].items():
        typer.echo(f"{k}: {v}")
    if as_player:
        you = view["you"]
        typer.echo(f"you: {you['name']} {you['role']}{you['setup'].get('number', '') or ''} {you['camp']}" + ("" if you["alive"] else " (out)"))
        for k, v in you.items():
            if k not in ("name", "role", "camp", "setup", "alive") and v:
                typer.echo(f"  {k}: {v}")
        typer.echo("players: " + "  ".join(p["name"] + ("" if p["alive"] else "(out)") for p in view["players"]))
        for f in view["feedback"]:
            typer.echo(f"  [{f['phase']}] {f['text']}")
        return
    for p in view["players"]:
        extra = []
        if p["statuses"]:
            extra.append("statuses " + ",".join(p["statuses"]))
        if p["uses"]:
            extra.append("uses " + ",".join(f"{k}:{v}" for k, v in p["uses"].items()))
        if p["acted"]:
            extra.append("acted " + "; ".join(p["acted"]))
        if p["voted"]:
            extra.append("voted " + "→".join(p["voted"]))
        num = p["setup"].get("number", "") or ""
        typer.echo(f"  {p['seat']:>2} {p['name']}\t{p['identity']}{num}\t{p['camp']}\t{'alive' if p['alive'] else 'out'}\t{'  '.join(extra)}")
    for w in view["last_words"]:  # 遗言 owed: until the phase that publishes them closes
        typer.echo(f"last words: {w['player']} (out in {w['out']}; until {w['until']} closes)"
                   + (" recorded" if w["recorded"] else ""))
    echo_loop_view(view["loop"])


@app.command("log")
@guarded
def log_(game: str, explain: bool = typer.Option(False, "--explain", help="the ruling trace of every step"), db: str = DbOpt, as_json: bool = JsonOpt) -> None:
    """The game's events, and with --explain the ruling trace of every resolution step."""
    import msgspec

    store = _store(db)
    events = store.events(game)
    g = store.load(game)
    if as_json:
        return _json({"events": [msgspec.to_builtins(e) | {"type": type(e).__name__} for e in events],
                      "trace": g.trace if explain else []})
    for i, e in enumerate(events, start=1):
        d = msgspec.to_builtins(e)
        d.pop("type", None)  # the event's kind is printed first
        typer.echo(f"{i:>4} {type(e).__name__.removesuffix('Event').lower():<8} " + " ".join(f"{k}={v}" for k, v in d.items() if v not in ("", [], {}, None, False)))
        if explain and isinstance(e, msgspec.Struct) and type(e).__name__ == "ResolveEvent":
            for t in g.trace:
                if t.phase == d["phase"]:
                    typer.echo(f"       [{t.step}] {t.rule}: {t.text}")


@app.command()
@guarded
def undo(game: str, to: str = typer.Option(None, "--to", help="drop every event after PHASE was resolved"),
         db: str = DbOpt, as_json: bool = JsonOpt) -> None:
    """Drop the game's last event (or with --to PHASE every event after that phase)."""
    import msgspec

    if to is not None:
        from .cli_loop import undo_to

        return undo_to(game, to, db, as_json)

    ev = _store(db).undo(game)
    kind = type(ev).__name__.removesuffix("Event").lower()
    if as_json:
        return _json({"undone": kind, "event": ev})
    typer.echo(f"undone: {kind} {msgspec.to_builtins(ev)}")


@app.command()
@guarded
def export(game: str, fmt: str = typer.Option("md", "--format", help="md | bbcode | json"), db: str = DbOpt) -> None:
    """Forum-ready announcements (Markdown or Discuz! BBCode), or the whole game as JSON."""
    import msgspec

    from .model import GameError
    from .views import export_text

    store = _store(db)
    g = store.load(game)
    if fmt == "json":
        return _json({"setup": store.setup(game), "events": [msgspec.to_builtins(e) | {"type": type(e).__name__} for e in store.events(game)],
                      "announcements": g.announcements, "winner": g.winner, "scores": g.scores})
    if fmt not in ("md", "bbcode"):
        raise GameError(f"--format {fmt!r}: expected md, bbcode or json")
    from .forum import load_board, phase_namer

    typer.echo(export_text(g, fmt, phase_namer(g, load_board(g.manifest.id))), nl=False)


@app.command()
@guarded
def games(db: str = DbOpt, as_json: bool = JsonOpt) -> None:
    """List stored games."""
    names = _store(db).names()
    if as_json:
        return _json(names)
    for name in names:
        typer.echo(name)


@app.command()
@guarded
def demo(ruleset: str = typer.Option("light-shadow", "--ruleset", help="ruleset id"), as_json: bool = JsonOpt) -> None:
    """Play a scripted game of RULESET end to end, printing each phase's results."""
    from .model import GameError
    from .registry import find_manifest, ruleset_files
    from .scenario import Mismatch, lines_of, load, run

    m = find_manifest(ruleset)
    if not m.demo:
        raise GameError(f"ruleset {m.id} has no demo script")
    path = next(p for p in ruleset_files().values() if load_id(p) == m.id).parent / m.demo
    sc = load(path)
    try:
        game = run(sc, path.parent)
    except Mismatch as exc:
        raise GameError(f"the demo script {path.name} no longer plays as written: {exc}") from None
    if as_json:
        return _json({"title": sc.title, "announcements": game.announcements, "feedback": game.feedback, "winner": game.winner, "scores": game.scores})
    typer.echo(f"{m.name} — {sc.title}")
    for seat, p in enumerate(game.setup.players, start=1):  # the deal, before any conversion
        camp = p.camp or game.ruleset.role(p.role).camp
        typer.echo(f"  {seat:>2} {p.name}\t{p.role}{p.setup.get('number', '') or ''}\t{camp}")
    for label in game.resolved + ([game.label] if game.winner is not None and game.label not in game.resolved else []):
        fb, ann = lines_of(game, label)
        if not any(fb.values()) and not ann:
            continue
        typer.echo("")
        _echo_phase(label, fb, ann)
    typer.echo(f"\ngame over: {'draw' if game.draw else '、'.join(game.winner or []) or 'not finished'}" + (f"; scores {game.scores}" if game.scores else ""))
    from .cli_loop import demo_post

    demo_post(game)  # the last phase's thread post, as `bansha post` writes it


def load_id(path: Path) -> str:
    import tomllib

    try:
        return tomllib.loads(path.read_text(encoding="utf-8")).get("id", "")
    except (OSError, tomllib.TOMLDecodeError):
        return ""


@scenario_app.command("run")
def scenario_run(
    paths: list[Path] = typer.Argument(..., help="scenario files or folders"),
    verbose: bool = typer.Option(False, "-v", help="name every passing file"),
    as_json: bool = JsonOpt,
) -> None:
    """Run scenario files: exit 0 when all pass, 1 on a mismatch, 2 on an invalid file."""
    from .model import GameError
    from .scenario import Mismatch, run_file

    files: list[Path] = []
    for p in paths:
        files += sorted(p.rglob("*.toml")) if p.is_dir() else [p]
    results = []
    for f in files:
        try:
            run_file(f)
            results.append({"file": str(f), "result": "passed", "message": ""})
        except Mismatch as exc:
            results.append({"file": str(f), "result": "failed", "message": str(exc)})
        except (GameError, OSError) as exc:
            results.append({"file": str(f), "result": "invalid", "message": str(exc)})
    count = {k: sum(r["result"] == k for r in results) for k in ("passed", "failed", "invalid")}
    if as_json:
        _json({"results": results, **count})
    else:
        for r in results:
            if r["result"] == "failed":
                typer.echo(f"FAILED  {r['file']}\n{r['message']}")
            elif r["result"] == "invalid":
                typer.echo(f"INVALID {r['file']}: {r['message']}", err=True)
            elif verbose:
                typer.echo(f"ok      {r['file']}")
        typer.echo(f"{count['passed']} passed, {count['failed']} failed" + (f", {count['invalid']} invalid" if count["invalid"] else ""))
    if count["invalid"]:
        raise typer.Exit(2)
    if count["failed"]:
        raise typer.Exit(1)


# the director's loop (votes import, post, pm): kernel/src/bansha/cli_loop.py
from .cli_loop import register as _register_loop  # noqa: E402

_register_loop(app, store=lambda db: _store(db), echo_json=lambda data: _json(data), fail=lambda msg: fail(msg))

COMMAND_GROUP = "bansha.commands"


def _builtin_names() -> set[str]:
    names = {g.name for g in app.registered_groups}
    for c in app.registered_commands:
        names.add(c.name or c.callback.__name__.replace("_", "-"))
    return names


def add_plugin_commands(argv: list[str]) -> None:
    """Add the commands other distributions declare in the ``bansha.commands`` entry-point
    group (docs/plugins.md): the entry point's name is the command's name, its object a
    ``typer.Typer`` (a command with sub-commands) or a function (one command).

    Only what this command line needs is imported: the named command when it is not a
    built-in, or every one of them for the top-level help. A built-in command cannot be
    replaced by a plugin."""
    first = next((a for a in argv if not a.startswith("-")), None)
    builtin = _builtin_names()
    listing = first is None  # `bansha`, `bansha --help`: the help lists every command
    if not listing and first in builtin:
        return
    from .entrypoints import entry_points
    from .model import GameError

    for ep in entry_points(COMMAND_GROUP):
        if ep.name in builtin or not (listing or ep.name == first):
            continue
        try:
            obj = ep.load()
        except Exception as exc:  # a broken plugin: one line naming it, never a traceback
            raise GameError(f"command {ep.name!r} of {ep.dist or 'an unknown distribution'} "
                            f"cannot be loaded: {type(exc).__name__}: {exc}") from None
        if isinstance(obj, typer.Typer):
            only = obj.registered_commands
            if len(only) == 1 and not obj.registered_groups and obj.registered_callback is None:
                # a Typer of one command is that command (`bansha hello GAME`), as when run alone
                app.command(name=ep.name, help=only[0].help)(only[0].callback)
            else:
                app.add_typer(obj, name=ep.name)
        elif callable(obj):
            app.command(name=ep.name)(obj)
        else:
            raise GameError(f"command {ep.name!r} of {ep.dist}: {ep.value} is neither a typer.Typer nor a function")


def main() -> None:
    """The ``bansha`` entry point. Usage errors (an unknown option, a missing argument, a value
    of the wrong type) print one line ``error: …`` and exit 2, like every other bad input.
    Logging is configured here, the entry point, lazily (``_logger``)."""
    from .model import GameError

    try:
        add_plugin_commands(sys.argv[1:])
    except GameError as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(2)
    try:
        code = app(prog_name="bansha", standalone_mode=False)
    except Exception as exc:
        # typer's (vendored click) usage errors carry a message and an exit code
        if not (hasattr(exc, "format_message") and hasattr(exc, "exit_code")):
            raise
        if type(exc).__name__ == "NoArgsIsHelpError":  # `bansha` alone: the help
            typer.echo(exc.format_message())
            sys.exit(0)
        message = " ".join(exc.format_message().split())
        ctx = getattr(exc, "ctx", None)
        where = f"{ctx.command_path}: " if ctx is not None else ""
        typer.echo(f"error: {where}{message}", err=True)
        sys.exit(exc.exit_code)
    sys.exit(code or 0)


if __name__ == "__main__":
    sys.exit(main())
