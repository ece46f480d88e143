"""The director's loop on the command line, as far as it needs only the engine and the store:
``act --file``, ``amend``, ``undo --to``, the to-do list of ``status`` (docs/cli.md, "A
director's day"). Registered on the ``bansha`` app by ``cli.py``; heavy imports stay inside the
commands. What reads or writes the thread (``votes import``, ``post``, ``pm``) is bansha-forum's
(docs/architecture.md, "The house")."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pathlib is imported where a path is read (start-up)
    from pathlib import Path

from bansha.cli.table import Argument, DbOpt, GameArg, JsonOpt, Option, echo


class _Helpers:
    """What the loop's commands share with ``cli.py``: its store, JSON printer and one-line
    error (given at registration: this module never imports ``cli``)."""

    def __init__(self, store=None, echo_json=None, fail=None):
        self._store, self._json, self.fail = store, echo_json, fail


_HELPERS = _Helpers()


def _cli() -> _Helpers:
    return _HELPERS


def register(app, store, echo_json, fail) -> None:
    global _HELPERS
    _HELPERS = _Helpers(store, echo_json, fail)
    app.command("amend", help="h_amend")(amend)


# ------------------------------------------------------------------------- act --file


def read_actions(path: Path, lang: str | None = None) -> list[tuple[int, dict]]:
    """A phase's actions from a file, each with its line: a TOML file with the scenario
    files' ``actions`` list (``actor``, ``skill``, ``targets``, ``args``, ``phase``,
    ``withdraw``), or a CSV of ``actor,skill,targets,args`` (targets separated by spaces,
    ``;`` or ``、``; args ``K=V`` separated by ``;``; an optional header; ``#`` comments).
    Refusals are said in ``lang``, the board's."""
    from bansha.door.files import read_text

    text = read_text(path, lang)  # at most MAX_BYTES, UTF-8, a BOM dropped
    return actions_of_text(text, path, path.suffix.lower() == ".toml", lang)


def actions_of_text(text: str, path, toml: bool, lang: str | None = None) -> list[tuple[int, dict]]:
    """``read_actions`` of a text already read (``path`` names it in a refusal): the one reader
    of actions, ``act --file``'s and the forum layer's (a player's PM read as an action)."""
    import csv
    import io
    import re

    from bansha.door.files import parse_toml
    from bansha.engine.model import GameError
    from bansha.text.messages import join, say

    def at(line, message, **fields):  # a refusal naming the file and the line
        return GameError(say("lp_line", lang, file=path, line=line, why=say(message, lang, **fields)))

    out: list[tuple[int, dict]] = []
    if toml:
        data = parse_toml(text, str(path), lang)
        extra = set(data) - {"actions"}
        if extra or not isinstance(data.get("actions"), list):
            found = say("lp_found", lang, keys=join(sorted(extra), lang)) if extra else ""
            raise GameError(say("lp_actions_list", lang, file=path, found=found))
        lines = [text[:m.start()].count("\n") + 1 for m in re.finditer(r"(?m)(?:^|[{,\s])actor\s*=", text)]
        allowed = {"actor", "skill", "targets", "args", "phase", "withdraw"}
        for i, a in enumerate(data["actions"]):
            line = lines[i] if i < len(lines) else 0
            if not isinstance(a, dict):
                raise at(line, "lp_action_table")
            bad = set(a) - allowed
            if bad:
                raise at(line, "lp_action_key", key=sorted(bad)[0], keys=join(sorted(allowed), lang))
            if not a.get("actor") or not a.get("skill"):
                raise at(line, "lp_action_needs")
            if (not isinstance(a.get("targets", []), list) or not isinstance(a.get("args", {}), dict)
                    or not all(isinstance(t, str) for t in a.get("targets", []))
                    or not all(isinstance(a[k], str) for k in ("actor", "skill", "phase") if k in a)
                    or not isinstance(a.get("withdraw", False), bool)
                    or not all(isinstance(v, str | int) and not isinstance(v, bool) for v in a.get("args", {}).values())):
                raise at(line, "lp_action_types")
            out.append((line, a))
        return out
    try:
        rows = list(csv.reader(io.StringIO(text)))
    except csv.Error:  # a field past csv's limit, a NUL byte
        raise GameError(say("lp_csv_bad", lang, file=path)) from None
    for n, row in enumerate(rows, start=1):
        cells = [c.strip() for c in row]
        if not any(cells) or cells[0].startswith("#"):
            continue
        if n == 1 and [c.lower() for c in cells[:2]] == ["actor", "skill"]:
            continue
        if len(cells) < 2 or not cells[0] or not cells[1] or len(cells) > 4:
            raise at(n, "lp_csv_fields", count=len(cells))
        targets = [t for t in re.split(r"[\s;；、]+", cells[2]) if t] if len(cells) > 2 else []
        args: dict = {}
        for pair in (re.split(r"[;；]", cells[3]) if len(cells) > 3 else []):
            if not pair.strip():
                continue
            k, sep, v = pair.strip().partition("=")
            if not sep or not k:
                raise at(n, "lp_csv_arg", pair=pair.strip())
            args[k.strip()] = int(v) if re.fullmatch(r"-?\d{1,18}", v.strip()) else v.strip()
        out.append((n, {"actor": cells[0], "skill": cells[1], "targets": targets, "args": args}))
    return out


def act_file(game: str, path: Path, db, as_json: bool) -> None:
    """``bansha act GAME --file F``: every action of the file, all or nothing."""
    cli = _cli()
    from bansha.engine.model import ActEvent, GameError, UnactEvent
    from bansha.text.messages import say

    lang = None
    try:
        store = cli._store(db)
        g = store.load(game)  # first: the file's refusals are said in the board's language
        lang = g.lang
        entries = read_actions(path, lang)
        if not entries:
            raise GameError(say("lp_no_action", lang, file=path))

        def event(g, a):
            if a.get("withdraw"):
                return UnactEvent(phase=a.get("phase") or g.label, actor=a["actor"], skill=a["skill"])
            return ActEvent(phase=a.get("phase") or g.label, actor=a["actor"], skill=a["skill"],
                            targets=[str(t) for t in a.get("targets", [])], args=dict(a.get("args", {})))

        refused = []
        for line, a in entries:  # every refusal, each named by its line, before anything is written
            try:
                g.apply(event(g, a))
            except GameError as exc:
                refused.append(say("lp_refused_line", lang, line=line, actor=a["actor"], skill=a["skill"], why=exc))
        if refused:
            raise GameError(say("lp_nothing_recorded", lang, file=path, refusals=say("lp_sep", lang).join(refused)))
        label = g.label
        g, mark = store.append_all(game, lambda g: [event(g, a) for _, a in entries])
        fb, ann = g.since(mark)
        if as_json:
            return cli._json({"recorded": [a for _, a in entries], "feedback": fb, "announcement": ann, "winner": g.winner})
        named = g.named  # phases as the board names them
        for _, a in entries:
            text = " ".join([a["actor"], a["skill"], *map(str, a.get("targets", []))])
            echo(say("l_withdrawn", lang, text=text, label=named(g.canonical(a.get("phase") or label))) if a.get("withdraw")
                 else say("l_recorded", lang, text=text))
        for name, lines in fb.items():
            for line in lines:
                echo(f"  [{name}] {line}")
        for t in ann:
            echo(f"  {say('l_public', lang)} {t}")
        echo(say("l_acts_recorded", lang, count=len(entries), label=named(label)))
    except GameError as exc:
        cli.fail(str(exc), as_json, lang)


# --------------------------------------------------------------------------- amend, undo --to

def amend(
    game: str = GameArg,
    kind: str = Argument(..., metavar="act|unact|vote", help="h_amend_kind"),
    words: list[str] = Argument(None, metavar="…", help="h_amend_words"),
    phase: str = Option(..., "--phase", help="h_amend_phase"),
    play: int = Option(0, "--play", help="h_amend_play"),
    arg: list[str] = Option([], "--arg", help="h_amend_arg"),
    post: int = Option(None, "--post", help="h_amend_post"),
    change: bool = Option(False, "--change", help="h_amend_change"),
    proxy: bool = Option(False, "--proxy", help="h_amend_proxy"),
    late: bool = Option(False, "--late", help="h_amend_late"),
    yes: bool = Option(False, "--yes", help="h_amend_yes"),
    db: str = DbOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Correct a closed phase: insert or withdraw an input and replay everything after it.
    Prints, per player, the feedback lines removed and added, the announcement lines removed
    and added and who is alive differently; --yes writes it as an amendment event."""
    from bansha.engine.model import ActEvent, GameError, UnactEvent, VoteEvent
    from bansha.text.messages import say

    words = words or []
    shapes = {"act": (2, None), "unact": (2, 2), "vote": (2, 2)}

    def make(label, lang=None):
        from bansha.engine.model import MAX_POST

        if post is not None and not 1 <= post <= MAX_POST:
            raise GameError(say("post_number", lang, post=post))
        if kind not in shapes:
            raise GameError(say("lp_amend_kind", lang, kind=kind))
        lo, hi = shapes[kind]
        if len(words) < lo or (hi is not None and len(words) > hi):
            raise GameError(say("lp_amend_shape", lang, kind=kind, want=say(f"lp_want_{kind}", lang)))
        if kind == "act":
            return ActEvent(phase=label, actor=words[0], skill=words[1], targets=words[2:], args=_kv(arg, lang))
        if kind == "unact":
            return UnactEvent(phase=label, actor=words[0], skill=words[1])
        return VoteEvent(phase=label, voter=words[0], target=words[1], post=post, change=change, proxy=proxy, late=late)

    _amend({"game": game, "phase": phase, "db": db, "play": play}, make, yes, as_json)


def _kv(pairs, lang=None):
    import re

    from bansha.engine.model import GameError
    from bansha.text.messages import say

    out = {}
    for pair in pairs:
        k, sep, v = pair.partition("=")
        if not sep or not k:
            raise GameError(say("kv_expected", lang, flag="--arg", pair=pair))
        out[k] = int(v) if re.fullmatch(r"-?\d{1,18}", v) else v  # longer: text (the store holds 64 bits)
    return out


def amendment(g, phase: str, make, play: int = 0):
    """The amendment of the closed phase ``phase`` (as a director types it) whose input is
    ``make(label)``, applied to ``g`` (a private copy: it changes; a refused amendment raises
    the engine's GameError), and what it changes (``history.amend_diff``): ``(AmendEvent with
    its record, label, diff)``. ``play``: which play of a phase a rewind played more than once
    (0: the one that stands, the last); the event names it whenever there were several, so
    that the log says which. ``bansha amend`` and the web console's amend share it."""
    from bansha.engine.board import parse_phase_arg
    from bansha.engine.history import amend_diff, snapshot
    from bansha.engine.model import AmendEvent

    label = parse_phase_arg(g, phase)
    count = len(g.plays(label))
    if count > 1 and not play:
        play = count
    ev = AmendEvent(phase=label, event=make(label), play=play)
    before = snapshot(g)
    g.apply(ev)
    diff = amend_diff(before, snapshot(g))
    return AmendEvent(phase=label, event=ev.event, play=play, record=diff), label, diff


def _amend(obj, make, yes: bool, as_json: bool) -> None:
    cli = _cli()
    from bansha.engine.model import GameError
    from bansha.text.messages import say

    lang = None
    try:
        store = cli._store(obj["db"])
        game = obj["game"]
        g = store.load(game)
        lang = g.lang
        # a refused amendment: one line, nothing written
        from bansha.engine.board import parse_phase_arg

        plays = len(g.plays(parse_phase_arg(g, obj["phase"])))
        ev, label, diff = amendment(g, obj["phase"], lambda label: make(label, lang), obj.get("play", 0))
        if yes:
            store.append(game, ev)
        named = g.named(label)
        if as_json:
            return cli._json({"phase": label, "phase_name": named, "play": ev.play or plays, "plays": plays,
                              "amendment": ev.event, "changes": diff, "written": yes})
        from bansha.show.explain import input_line

        which = ""
        if plays > 1:  # a rewind played it again: say which play is corrected
            which = say("l_amend_play", lang, play=ev.play, count=plays,
                        standing=say("l_amend_standing", lang) if ev.play == plays else "")
        echo(say("l_amend", lang, label=named + which, what=input_line(ev.event, lang)))
        echo_diff(g, diff, lang)
        echo(say("l_amend_written" if yes else "l_amend_dry", lang))
    except GameError as exc:
        cli.fail(str(exc), as_json, lang)


def echo_diff(g, diff, lang) -> None:
    """What a correction changes (``history.amend_diff``), per player and in the thread, as
    ``amend`` and the preview of ``undo`` print it."""
    from bansha.engine.history import named_diff
    from bansha.text.messages import say

    diff = named_diff(diff, g.named)  # "night 1：text" -> "第1天 夜晚：text", as the web console shows it
    for name, d in diff["feedback"].items():
        for line in d["removed"]:
            echo(f"  [{name}] - {line}")
        for line in d["added"]:
            echo(f"  [{name}] + {line}")
    public = say("l_public", lang)
    for line in diff["announcement"]["removed"]:
        echo(f"  {public} - {line}")
    for line in diff["announcement"]["added"]:
        echo(f"  {public} + {line}")
    state = {True: say("l_alive", lang), False: say("l_out", lang)}
    for name, a in diff["alive"].items():
        echo(say("l_amend_alive", lang, name=name, was=state[bool(a["was"])], now=state[bool(a["now"])]))
    if not diff["feedback"] and not diff["announcement"]["removed"] and not diff["announcement"]["added"] and not diff["alive"]:
        echo(say("l_amend_nothing", lang))


def undo_preview(game: str, db, as_json: bool) -> bool:
    """``bansha undo`` without --yes when the last event is a resolution: print what undoing it
    withdraws (as ``amend`` previews a correction) and write nothing; True when it did."""
    cli = _cli()
    from bansha.engine.engine import Game
    from bansha.engine.history import amend_diff, snapshot
    from bansha.engine.model import ResolveEvent
    from bansha.text.messages import say

    store = cli._store(db)
    events = store.events(game)
    if not events or not isinstance(events[-1], ResolveEvent):
        return False
    now = store.load(game)
    before = Game(store.setup(game))
    for ev in events[:-1]:
        before.apply(ev)
    diff = amend_diff(snapshot(now), snapshot(before))
    label = now.canonical(events[-1].phase)
    if as_json:
        cli._json({"undo": "resolve", "phase": label, "phase_name": now.named(label), "changes": diff, "written": False,
                   "back_to": before.label})
        return True
    echo(say("l_undo_resolve", now.lang, label=now.named(label), back=before.named()))
    echo_diff(now, diff, now.lang)
    echo(say("l_undo_dry", now.lang))
    return True


def undo_to(game: str, phase: str, db, as_json: bool, yes: bool = True) -> None:
    """``bansha undo GAME --to PHASE``: drop every event after the resolution that closed PHASE."""
    cli = _cli()
    import msgspec

    from bansha.engine.board import parse_phase_arg
    from bansha.engine.engine import Game
    from bansha.engine.model import GameError, ResolveEvent
    from bansha.text.messages import say

    lang = None
    try:
        store = cli._store(db)
        events = store.events(game)
        g = Game(store.setup(game))
        lang = g.lang
        label = parse_phase_arg(g, phase)
        keep = None
        for i, ev in enumerate(events):
            g.apply(ev)
            if isinstance(ev, ResolveEvent) and g.canonical(ev.phase) == label:
                keep = i + 1
        if keep is None:
            raise GameError(say("lp_not_resolved", lang, phase=phase, label=g.named(label)))
        # the corrections of phases up to PHASE written after it closed: they go with the events
        from bansha.engine.model import AmendEvent

        upto = g.parse_phase(label)
        fixes = [e for e in events[keep:] if isinstance(e, AmendEvent) and g.parse_phase(g.canonical(e.phase)) <= upto]
        if fixes and not yes:
            from bansha.show.explain import input_line  # the correction's input, as `amend` says it

            for e in fixes:
                echo(say("l_undo_drops_fix", lang, phase=g.named(g.canonical(e.phase)), what=input_line(e.event, lang)))
            if as_json:
                return cli._json({"kept": keep, "written": False,
                                  "drops_corrections": [msgspec.to_builtins(e) for e in fixes]})
            echo(say("l_undo_dry", lang))
            return
        gone = store.undo_to(game, keep)
        now = store.load(game).label
        if as_json:
            return cli._json({"kept": keep, "undone": [msgspec.to_builtins(e) | {"type": type(e).__name__} for e in gone], "phase": now})
        from bansha.show.explain import (
            event_text,  # an event in the board's words, as plain `undo` says it
        )

        for e in gone:
            echo(say("l_undone", lang, what=event_text(g, e)))
        echo(say("l_undone_to", lang, count=len(gone), label=g.named(now)))
    except GameError as exc:
        cli.fail(str(exc), as_json, lang)


# ------------------------------------------------------------------------------ status


def loop_view(g) -> dict:
    """The director's to-do list for the current phase: every seat's skills not yet sent
    (``choices.all_choices``: forced ones marked, the exact selection range and the --args'
    values), who has not voted, the live count (``choices.count_votes``: the count resolve
    will make) with the threshold in whole votes, and the phase's deadline from the board."""
    import msgspec

    from bansha.engine.board import load_board, phase_namer
    from bansha.engine.choices import all_choices, count_votes, vote_rule_line
    from bansha.engine.model import GameError

    try:
        board = load_board(g.manifest.id)
    except GameError:
        board = load_board("", None)
    pending = []
    for cs in all_choices(g).values():
        for c in cs:
            if c.submitted or c.group_acted:
                continue
            pending.append(msgspec.to_builtins(c))
    vote = None
    count = count_votes(g) if g.phase.vote else None
    if count is not None:
        vote = {"not_voted": count.not_voted, "tally": [{"player": n, "votes": c} for n, c in count.tally.items()],
                "abstained": count.abstained, "void": count.void, "threshold": count.threshold, "needed": count.needed,
                "public_counts": count.public, "out": count.out, "runoff": count.runoff, "immune": count.immune,
                "rule": vote_rule_line(g, count)}
    clock = board.get("clock", {}).get(g.phase.name, {})
    # a phase with windows (M217's night): the window open and those resolved, as the board names them
    window = None
    if g.phase.windows and g.winner is None:
        window = {"open": g.window_name(), "index": g.window, "resolved": [g.window_name(i) for i in range(g.window)]}
    return {"phase_name": phase_namer(g, board)(g.label), "pending": pending, "vote": vote,
            "deadline": clock.get("note") or None, "closes": clock.get("close") or None, "window": window}


def echo_loop_view(view: dict, lang: str | None = None) -> None:
    from bansha.show.views import args_line
    from bansha.text.messages import say

    echo(f"{view['phase_name']}" + (say("lv_deadline", lang, text=view["deadline"]) if view["deadline"] else ""))
    w = view.get("window")
    if w:
        echo("  " + say("l_window_open", lang, window=w["open"],
                        done=say("lv_sep", lang).join(w["resolved"]) or say("lv_none", lang)))
    if view["pending"]:
        echo(say("lv_pending", lang))
    sep = say("lv_sep", lang)
    for s in view["pending"]:
        rng = s["targets"]
        shown = sep.join(rng) if len(rng) <= 8 else say("lv_many", lang, count=len(rng), names=sep.join(rng[:8]))
        lo, hi = s["min_targets"], s["max_targets"]
        want = str(lo) if lo == hi else f"{lo}-{hi}"
        args = args_line(s["args"], s.get("arg_with"), lang)
        echo(f"  {s['player']} {s['skill']}" + (say("lv_forced", lang) if s["forced"] else "")
             + (" " + say("lv_group", lang, group=s["group"]) if s["group"] else "")
             + (" " + say("lv_targets", lang, count=want, names=shown) if hi else "") + (f"  {args}" if args else ""))
    v = view["vote"]
    if v is not None:
        # nobody left: said in words, never "无", which is a board's abstain word (七杀·侠: 投票对象：无)
        echo(say("lv_not_voted", lang, names=sep.join(v["not_voted"])) if v["not_voted"] else say("lv_all_voted", lang))
        label = say("lv_tally" if v["public_counts"] else "lv_tally_hidden", lang)
        tally = say("lv_comma", lang).join(f"{t['player']} {t['votes']:g}" for t in v["tally"]) or say("lv_no_votes", lang)
        echo(f"{label}{tally}" + (say("lv_abstained", lang, count=len(v["abstained"])) if v["abstained"] else "")
             + (say("lv_void", lang, count=len(v["void"])) if v["void"] else ""))
        echo(v["rule"])
        if v["out"]:
            echo(say("lv_would_out", lang, name=v["out"]))
        elif v["runoff"]:
            echo(say("lv_would_runoff", lang, names=sep.join(v["runoff"])))
        elif v["immune"]:
            echo(say("lv_would_immune", lang, text=v["immune"]))


