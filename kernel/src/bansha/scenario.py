"""Scenario files: a table, the phases played, and what must come out (docs/scenarios.md).

A scenario is played through the same events as a stored game (``Game.apply``), and at the
end its event log is replayed from scratch and must give the very same results.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from .engine import Game, PluginFault
from .messages import excerpt, join, say
from .model import (
    ActEvent,
    Event,
    GameError,
    Manifest,
    PlayerSetup,
    ResolveEvent,
    RulingEvent,
    Setup,
    UnactEvent,
    VoteEvent,
)
from .registry import convert, decode_toml, find_manifest

Strict = {"kw_only": True, "forbid_unknown_fields": True}


class SAction(msgspec.Struct, **Strict):
    actor: str
    skill: str
    targets: list[str] = []
    args: dict[str, Any] = {}
    #: the phase the action was sent for, when not this one (a late PM: refused once closed)
    phase: str | None = None
    #: withdraw the actor's earlier action of this skill instead of submitting one
    withdraw: bool = False
    expect_error: str | None = None


class SVote(msgspec.Struct, **Strict):
    voter: str
    target: str
    post: int | None = None
    change: bool = False
    proxy: bool = False
    late: bool = False
    expect_error: str | None = None


class SRuling(msgspec.Struct, **Strict):
    kind: str
    player: str = ""
    text: str = ""
    data: dict[str, Any] = {}
    expect_error: str | None = None


class SLastWords(msgspec.Struct, **Strict):
    player: str
    text: str
    expect_error: str | None = None


class Expect(msgspec.Struct, **Strict):
    out: list[str] | None = None
    #: like ``out``, and in the order they left the game
    out_in_order: list[str] | None = None
    alive: list[str] | None = None
    feedback: dict[str, list[str]] = {}
    feedback_absent: dict[str, list[str]] = {}
    announcement: list[str] = []
    announcement_absent: list[str] = []
    statuses: dict[str, list[str]] = {}
    statuses_absent: dict[str, list[str]] = {}
    winner: list[str] | None = None
    scores: dict[str, float] = {}
    #: uses left of counted skills: {player: {skill: n}}
    uses: dict[str, dict[str, int]] = {}
    #: exactly the players owed last words not yet recorded, each with the phase whose close
    #: ends the window: {player: "day 2"}
    last_words_owed: dict[str, str] | None = None


class SPhase(msgspec.Struct, **Strict):
    phase: str
    actions: list[SAction] = []
    votes: list[SVote] = []
    rulings: list[SRuling] = []
    #: last words the director records (the ruleset's last-words ruling), after the rulings
    last_words: list[SLastWords] = []
    #: close the phase after its input, every window of it (false: check expectations of
    #: immediate answers only; "window": resolve the current window only and stay in the phase,
    #: a phase with ``windows``: the next entry for the same phase sends the next window's actions)
    resolve: bool | str = True
    expect: Expect | None = None


class SPlayer(msgspec.Struct, **Strict):
    name: str
    role: str
    camp: str = ""
    setup: dict[str, Any] = {}


class Scenario(msgspec.Struct, **Strict):
    ruleset: str
    title: str
    seed: int = 0
    options: dict[str, Any] = {}
    description: str = ""
    players: list[SPlayer]
    phases: list[SPhase] = []


class Mismatch(Exception):
    """A scenario's expectation failed: the message holds expected versus actual."""


def load(path: Path) -> Scenario:
    from .files import read_bytes

    return decode_toml(read_bytes(path), Scenario, str(path))


def setup_of(sc: Scenario, base: Path | None = None, manifest: Manifest | None = None) -> Setup:
    """The scenario's table: under its ruleset, or ``manifest`` (a variant playing its board's
    demo, ``bansha demo``)."""
    manifest = manifest or find_manifest(sc.ruleset, relative_to=base)
    return Setup(
        ruleset=manifest.id,
        manifest=manifest,
        players=[PlayerSetup(name=p.name, role=p.role, camp=p.camp, setup=p.setup) for p in sc.players],
        seed=sc.seed,
        options=sc.options,
        dealt_by="scenario",
    )


def lines_of(game: Game, label: str) -> tuple[dict[str, list[str]], list[str]]:
    fb = {n: [t for (ph, t) in lines if ph == label] for n, lines in game.feedback.items()}
    ann = [t for (ph, t) in game.announcements if ph == label]
    return fb, ann


def shown(values, lang: str | None) -> str:
    """Expected or actual values in a mismatch: joined (never a repr), 无/none when empty."""
    if isinstance(values, dict):
        values = [f"{k} {v}" for k, v in values.items()]
    return join(values, lang) if values else say("none", lang)


def quoted(lines, lang: str | None) -> str:
    """Text lines in a mismatch, each quoted (a line may hold 、 or a comma itself)."""
    q = "“{}”" if lang == "zh" else "'{}'"
    return join((q.format(x) for x in lines), lang) if lines else say("none", lang)


def run(sc: Scenario, base: Path | None = None, manifest: Manifest | None = None) -> Game:
    """Play a scenario; raise Mismatch (or GameError for an unplayable file), said in the
    board's language."""
    setup = setup_of(sc, base, manifest)
    game = Game(setup)
    lang = game.lang
    log: list[Event] = []

    def apply(ev: Event, expect_error: str | None, what: str) -> None:
        try:
            game.apply(ev)
        except PluginFault:
            raise  # the board's fault, not the scenario's: the file is invalid
        except GameError as exc:
            if expect_error is None:
                raise Mismatch(say("sc_refused", lang, label=game.named(), what=what, why=exc)) from None
            if expect_error not in str(exc):
                raise Mismatch(say("sc_refused_other", lang, label=game.named(), what=what, why=exc, want=expect_error)) from None
            return
        if expect_error is not None:
            raise Mismatch(say("sc_accepted", lang, label=game.named(), what=what, want=expect_error))
        log.append(ev)

    for index, ph in enumerate(sc.phases):
        if isinstance(ph.resolve, str) and ph.resolve != "window":
            raise GameError(say("sc_resolve", lang, index=index, value=excerpt(ph.resolve)))
        target = game.canonical(ph.phase)
        try:
            while game.position < game.parse_phase(target):
                if game.winner is not None:
                    raise GameError(say("sc_ended", lang, label=game.named()))
                apply(ResolveEvent(phase=game.label), None, say("sc_resolving", lang, label=game.named()))
        except PluginFault:
            raise
        except GameError as exc:
            raise Mismatch(say("sc_unreachable", lang, phase=ph.phase, why=exc)) from None
        if game.label != target:
            raise Mismatch(say("sc_unreachable", lang, phase=ph.phase, why=say("sc_at", lang, label=game.named())))
        label = game.label
        for a in ph.actions:
            sent_for = a.phase or label
            ev = (UnactEvent(phase=sent_for, actor=a.actor, skill=a.skill) if a.withdraw
                  else ActEvent(phase=sent_for, actor=a.actor, skill=a.skill, targets=a.targets, args=a.args))
            apply(ev, a.expect_error, f"{a.actor} {a.skill} {' '.join(a.targets)}".strip())
        for v in ph.votes:
            ev = VoteEvent(phase=label, voter=v.voter, target=v.target, post=v.post, change=v.change, proxy=v.proxy, late=v.late)
            apply(ev, v.expect_error, f"vote {v.voter} -> {v.target}")
        for r in ph.rulings:
            kind = game.ruleset.ruling_kind(r.kind)
            apply(RulingEvent(phase=label, kind=kind, player=r.player, text=r.text, data=r.data), r.expect_error,
                  f"ruling {game.ruleset.ruling_name(kind)}")
        for w in ph.last_words:
            kind = game.manifest.last_words.kind
            apply(RulingEvent(phase=label, kind=kind, player=w.player, text=w.text), w.expect_error, f"{kind} {w.player}")
        if ph.resolve and game.winner is None:
            # every window left of the phase, or (resolve = "window") the current one only
            apply(ResolveEvent(phase=label, window=ph.resolve == "window"), None, say("sc_resolving", lang, label=game.named(label)))
        if ph.expect is not None:
            check(game, label, ph.expect)
    replayed = Game(setup)
    for ev in log:
        replayed.apply(ev)
    if (replayed.announcements, replayed.feedback, replayed.winner) != (game.announcements, game.feedback, game.winner):
        raise Mismatch(say("sc_nondeterminism", lang))
    return game


def check(game: Game, label: str, ex: Expect) -> None:
    fb, ann = lines_of(game, label)
    problems: list[str] = []
    lang = game.lang

    def want(cond: bool, key: str, **fields) -> None:
        if not cond:
            problems.append(say(key, lang, **fields))

    if ex.out is not None:
        actual = game.out.get(label, [])
        want(sorted(actual) == sorted(ex.out), "sc_out", want=shown(sorted(ex.out), lang), got=shown(sorted(actual), lang))
    if ex.out_in_order is not None:
        actual = game.out.get(label, [])
        want(actual == ex.out_in_order, "sc_out_order", want=shown(ex.out_in_order, lang), got=shown(actual, lang))
    if ex.alive is not None:
        actual = [p.name for p in game.alive()]
        want(sorted(actual) == sorted(ex.alive), "sc_alive", want=shown(sorted(ex.alive), lang), got=shown(sorted(actual), lang))
    for name, wanted in ex.feedback.items():
        have = fb.get(name)
        if have is None:
            problems.append(say("sc_no_player", lang, name=name))
            continue
        for w in wanted:
            want(any(w in line for line in have), "sc_line", name=name, want=w, got=quoted(have, lang))
    for name, unwanted in ex.feedback_absent.items():
        have = fb.get(name, [])
        for w in unwanted:
            want(not any(w in line for line in have), "sc_no_line", name=name, want=w, got=quoted(have, lang))
    for w in ex.announcement:
        want(any(w in line for line in ann), "sc_ann_line", want=w, got=quoted(ann, lang))
    for w in ex.announcement_absent:
        want(not any(w in line for line in ann), "sc_ann_no_line", want=w, got=quoted(ann, lang))
    for name, sts in ex.statuses.items():
        have = [s.name for s in game.player(name).statuses]
        for s in sts:
            want(s in have, "sc_status", name=name, want=s, got=shown(have, lang))
    for name, sts in ex.statuses_absent.items():
        have = [s.name for s in game.player(name).statuses]
        for s in sts:
            want(s not in have, "sc_no_status", name=name, want=s, got=shown(have, lang))
    if ex.winner is not None:
        actual = game.winner or []
        want(sorted(actual) == sorted(ex.winner), "sc_winner", want=shown(sorted(ex.winner), lang), got=shown(sorted(actual), lang))
    for name, pts in ex.scores.items():
        actual = game.scores.get(name, 0)
        want(abs(actual - pts) < 1e-9, "sc_score", name=name, want=f"{pts:g}", got=f"{actual:g}")
    for name, uses in ex.uses.items():
        for skill, n in uses.items():
            actual = game.player(name).uses.get(skill)
            want(actual == n, "sc_uses", name=name, skill=skill, want=n, got=say("none", lang) if actual is None else actual)
    if ex.last_words_owed is not None:
        actual = {n: o["until"] for n, o in game.last_words.items() if o["text"] is None}
        want(actual == ex.last_words_owed, "sc_lw_owed", want=shown(ex.last_words_owed, lang), got=shown(actual, lang))
    if problems:
        from .explain import (
            trace_lines,  # the kernel's trace in the board's words, as `log --explain`
        )

        trace = "\n".join("  " + line for line in trace_lines(game, [t for t in game.trace if t.phase == label]))
        named = game.named(label)
        raise Mismatch(f"{named}{'：' if lang == 'zh' else ':'}\n- " + "\n- ".join(problems)
                       + "\n" + say("sc_trace", lang, label=named) + "\n" + (trace or say("sc_trace_empty", lang)))


def run_file(path: Path) -> Game:
    return run(load(path), path.parent)


__all__ = ["Scenario", "Mismatch", "load", "run", "run_file", "convert"]
