"""What the director reads of the log in the board's language: an event's kind and fields
(``bansha log``, ``bansha undo``) and the kernel's ruling-trace lines (``bansha log --explain``).

The trace keeps the kernel's own wording (scenario files, the simulator and the posts read it:
``count: 甲 3`` is machine text); it is said in the board's language here, where a person reads
it. A rule plugin writes its trace lines in its board's language already; they pass unchanged.
Phase labels ("night 2") are given as the board names them through ``phase_name``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from typing import Any

from bansha.text.messages import join, lang_of, plain, say

#: the kernel's trace lines (engine.py, builtins.py): pattern -> catalogue key (its fields by name)
TRACE_FORMS: list[tuple[re.Pattern, str]] = [(re.compile(p), k) for p, k in [
    (r"^count: no votes$", "tr_count_none"),
    (r"^count: (?P<tally>.+)$", "tr_count"),
    (r"^(?P<voter>.+?)'s vote for (?P<target>.+?) does not count: (?P<why>.+)$", "tr_vote_void"),
    (r"^(?P<voter>.+?)'s vote counts for (?P<target>.+)$", "tr_vote_counts_for"),
    (r"^(?P<name>.+?) counts (?P<n>[\d.]+) extra vote\(s\)$", "tr_extra_votes"),
    (r"^top count (?P<top>[\d.]+) is below (?P<pct>\d+%) of (?P<living>\d+) living \((?P<need>[\d.]+)\)$", "tr_below"),
    (r"^tie between (?P<names>.+): nobody is out$", "tr_tie"),
    (r"^(?P<name>.+?) is not voted out: (?P<why>.+)$", "tr_immune"),
    (r"^(?P<name>.+?) is voted out; the rules settle it later$", "tr_voted_out_later"),
    (r"^(?P<actor>.+?)'s (?P<skill>.+?) sent ahead is refused: (?P<why>.+)$", "tr_ahead_refused"),
    (r"^(?P<actor>.+?)'s (?P<skill>.+?) sent ahead is replaced by the group's later action$", "tr_ahead_replaced"),
    (r"^(?P<actor>.+?)'s (?P<skill>.+?) sent ahead is recorded$", "tr_ahead_recorded"),
    (r"^(?P<actor>.+?)'s (?P<skill>.+?) has no effect: (?P<why>.+)$", "tr_no_effect"),
    (r"^(?P<actor>.+?)'s (?P<skill>.+?) voided: (?P<why>.+)$", "tr_voided"),
    (r"^(?P<actor>.+?)'s (?P<skill>.+?): (?P<old>\[.*\]) -> (?P<new>\[.*\])$", "tr_redirect"),
    (r"^(?P<name>.+?)'s last words lapse$", "tr_lw_lapse"),
    (r"^(?P<name>.+?) is owed last words$", "tr_lw_owed"),
    (r"^(?P<name>.+?) is already out$", "tr_already_out"),
    (r"^(?P<name>.+?) is out \((?P<kind>.+)\)$", "tr_out"),
    (r"^(?P<kind>.+?) on (?P<target>.+?) stopped: (?P<why>.+)$", "tr_stopped"),
    (r"^(?P<kind>.+?) on (?P<target>.+?) by (?P<by>.+)$", "tr_kill_by"),
    (r"^(?P<kind>.+?) on (?P<target>.+)$", "tr_kill"),
    (r"^(?P<name>.+?) gains (?P<status>.+?) until (?P<until>.+)$", "tr_gains_until"),
    (r"^(?P<name>.+?) gains (?P<status>.+)$", "tr_gains"),
    (r"^ruling (?P<kind>.+) applied by the rules$", "tr_ruling_rules"),
    (r"^(?P<name>.+?) removed: (?P<why>.+)$", "tr_removed"),
    (r"^drew (?P<got>.+) from (?P<n>\d+) options$", "tr_drew"),
    (r"^rolled (?P<got>-?\d+) in (?P<a>-?\d+)\.\.(?P<b>-?\d+)$", "tr_rolled"),
    (r"^the game will turn back to the (?P<point>start|resolve) of (?P<label>.+)$", "tr_rewind"),
    (r"^the game turns back to the (?P<point>start|resolve) of (?P<label>.+)$", "tr_rewound"),
    (r"^(?P<label>.+) scheduled$", "tr_scheduled"),
]]

#: the kernel's rule labels and kill kinds (``res.trace(rule, …)``, ``Kill.kind``)
KERNEL_WORDS = ("vote", "void", "random", "director", "schedule", "rewind", "status", "ruling", "window", "ahead")


def _value(text: str, lang: str | None) -> str:
    """A Python repr in a trace line ('丙', ['阿Q']) said plainly."""
    try:
        return plain(ast.literal_eval(text), lang)
    except (ValueError, SyntaxError):
        return text


def word(text: str, lang: str | None) -> str:
    """A kernel rule label or kill kind in the board's language ("vote" -> 投票)."""
    return say(f"tr_word_{text}", lang) if text in KERNEL_WORDS else text


def trace_line(text: str, lang: str | None, phase_name: Callable[[str], str] = str) -> str:
    """One kernel trace line in ``lang`` (a plugin's own line unchanged)."""
    if lang_of(lang) == "en":
        return text
    for pattern, key in TRACE_FORMS:
        m = pattern.match(text)
        if not m:
            continue
        f: dict[str, Any] = dict(m.groupdict())
        if "tally" in f:
            f["tally"] = join((say("tr_count_item", lang, name=n, count=c)
                               for n, _, c in (x.rpartition(" ") for x in f["tally"].split(", "))), lang)
        for k in ("names", "old", "new", "got"):
            if k in f:
                f[k] = _value(f[k], lang)
        for k in ("kind", "why"):
            if k in f:
                f[k] = word(f[k], lang)
        for k in ("until", "label"):
            if k in f:
                f[k] = phase_name(f[k])
        if "point" in f:
            f["point"] = say(f"tr_point_{f['point']}", lang)
        if "why" in f:
            f["why"] = say("tr_because_default", lang) if f["why"] == "ruling" else f["why"]
        return say(key, lang, **f)
    return text


#: an event's fields, in the order a log line shows them
FIELDS = ("phase", "actor", "voter", "skill", "kind", "player", "target", "targets", "args", "text", "post", "change",
          "proxy", "late", "time", "out", "announcement", "play", "event", "record")


def trace_lines(game, traces) -> list[str]:
    """Ruling-trace lines as a director reads them, ``[step] rule：text``, in the board's
    language (a step by its alias): what ``bansha log --explain`` and the web console show."""
    if game.lang == "en":
        return [f"[{t.step}] {t.rule}: {t.text}" for t in traces]
    steps = {s.name: s.alias or s.name for ph in game.manifest.phases for s in ph.steps}
    steps["immediate"] = say("tr_step_immediate", game.lang)  # a skill resolved when submitted
    steps.setdefault("rewind", word("rewind", game.lang))  # the kernel's line where the clock turned back
    return [f"[{steps.get(t.step, t.step)}] {word(t.rule, game.lang)}：{trace_line(t.text, game.lang, game.named)}"
            for t in traces]


def event_line(ev: dict[str, Any], kind: str, lang: str | None, phase_name: Callable[[str], str] = str,
               ruling_name: Callable[[str], str] = str) -> str:
    """An event (``msgspec.to_builtins``) as ``bansha log`` prints it: its kind and each field set,
    keys and values in the board's language."""
    if lang_of(lang) == "en":
        return f"{kind:<8} " + " ".join(f"{k}={plain(v, lang)}" for k, v in ev.items() if v not in ("", [], {}, None, False))
    parts = []
    for k in sorted((k for k in ev if ev[k] not in ("", [], {}, None, False) and k != "type"),
                    key=lambda k: FIELDS.index(k) if k in FIELDS else len(FIELDS)):
        v = ev[k]
        if k == "phase":
            shown = phase_name(v)
        elif k == "event" and isinstance(v, dict):  # an amendment's input: its own phase is the amendment's
            inner = {x: y for x, y in v.items() if x not in ("type", "phase")}
            shown = "（" + " ".join(event_line(inner, str(v.get("type", "")), lang, phase_name, ruling_name).split()) + "）"
        elif k == "record":
            continue  # what an amendment changed: `bansha amend` printed it; the log says it was one
        elif k == "kind" and kind in ("ruling", "RulingEvent"):
            shown = ruling_name(v)  # the board's name of the kind ("公示"), as it is typed
        elif isinstance(v, bool):
            shown = ""
        else:
            shown = plain(v, lang)
        label = say(f"ef_{k}", lang) if f"ef_{k}" in _KEYS else k
        parts.append(label if isinstance(v, bool) else f"{label}={shown}")
    return f"{say(f'ev_{kind}', lang) if f'ev_{kind}' in _KEYS else kind:<4} " + " ".join(parts)


def input_line(ev, lang: str | None, ruling_name: Callable[[str], str] = str) -> str:
    """An act, unact, vote or ruling (an event, or an amendment's input) in one line of the
    board's words ("春卷 验人 甲", "撤回 春卷 验人", "花卷 投 包子（2楼）"): what ``undo``,
    ``amend`` and the web console's undo and amendment say of it."""
    from bansha.engine.model import ActEvent, RulingEvent, UnactEvent, VoteEvent

    if isinstance(ev, ActEvent):
        line = say("in_act", lang, actor=ev.actor, skill=ev.skill, targets=" ".join(ev.targets)).rstrip()
        # the arguments' values (what was chosen), not their keys (what a director types)
        return line + (say("in_args", lang, args=join((plain(v, lang) for v in ev.args.values()), lang)) if ev.args else "")
    if isinstance(ev, UnactEvent):
        return say("in_unact", lang, actor=ev.actor, skill=ev.skill)
    if isinstance(ev, VoteEvent):
        return (say("in_vote", lang, voter=ev.voter, target=ev.target)
                + (say("in_post", lang, post=ev.post) if ev.post else "")
                + "".join(say(f"in_{k}", lang) for k in ("change", "proxy", "late") if getattr(ev, k)))
    if isinstance(ev, RulingEvent):
        return (say("in_ruling", lang, kind=ruling_name(ev.kind)) + (f" {ev.player}" if ev.player else "")
                + (say("in_text", lang, text=ev.text[:40]) if ev.text else ""))
    return type(ev).__name__


def event_text(game, ev) -> str:
    """Any stored event in one line of the board's words, its phase as the board names it
    ("第1天 夜晚：春卷 验人 甲", "结算 第1天 夜晚", "更正 第1天 夜晚：撤回 春卷 验人"): the one
    description plain ``undo``, ``undo --to`` and the web console's undo give."""
    from bansha.engine.model import AmendEvent, ResolveEvent

    lang = game.lang
    where = game.named(ev.phase) if getattr(ev, "phase", "") else ""
    if isinstance(ev, ResolveEvent):
        return say("in_resolve_window" if ev.window else "in_resolve", lang, label=where)
    if isinstance(ev, AmendEvent):
        return say("in_amend", lang, label=where, what=input_line(ev.event, lang, game.ruleset.ruling_name))
    return say("in_at", lang, label=where, what=input_line(ev, lang, game.ruleset.ruling_name))


def _keys() -> set[str]:
    from bansha.text.messages import CATALOGUE

    return set(CATALOGUE)


_KEYS = _keys()


def cause(kind: str, lang: str | None) -> str:
    """A kill's kind as a cause of exit (the simulator's report: "vote" -> 投票出局)."""
    return say(f"tr_cause_{kind}", lang) if kind in KERNEL_WORDS else kind


__all__ = ["cause", "event_line", "event_text", "input_line", "trace_line", "word"]
