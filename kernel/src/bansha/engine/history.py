"""What a game's log told, read back: what each phase told (``replay``: the feedback, the
announcement, who joined a group, an amendment's corrections), what an amendment changes
(``snapshot``, ``amend_diff``), each voter's standing vote and the engine's count of a phase
(``final_votes``, ``tally``), the phases played. Engine-level: ``bansha amend`` and the web
console's amendment, the simulator's statistics and the forum's post and PMs (bansha-forum)
all read it here.
"""

from __future__ import annotations

import re
from typing import Any

from bansha.engine.model import GameError, VoteEvent
from bansha.text.messages import join, say


def snapshot(game) -> dict[str, Any]:
    """What has been told and who is alive, to compare before and after an amendment."""
    return {"feedback": {n: list(lines) for n, lines in game.feedback.items()},
            "announcement": list(game.announcements), "alive": {p.name: p.alive for p in game.players.values()}}


def _lines_diff(old: list, new: list) -> tuple[list, list]:
    from collections import Counter

    a, b = Counter(old), Counter(new)
    gone, come = a - b, b - a
    removed, added = [], []
    for x in old:
        if gone[x]:
            gone[x] -= 1
            removed.append(x)
    for x in new:
        if come[x]:
            come[x] -= 1
            added.append(x)
    return removed, added


def amend_diff(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """Per player the feedback lines removed and added, the thread's announcement lines
    removed and added, and who is alive differently ("phase：line" strings)."""
    fb = {}
    for name in dict.fromkeys([*before["feedback"], *after["feedback"]]):
        removed, added = _lines_diff(before["feedback"].get(name, []), after["feedback"].get(name, []))
        if removed or added:
            fb[name] = {"removed": [f"{ph}：{t}" for ph, t in removed], "added": [f"{ph}：{t}" for ph, t in added]}
    removed, added = _lines_diff(before["announcement"], after["announcement"])
    alive = {n: {"was": before["alive"].get(n), "now": v} for n, v in after["alive"].items() if before["alive"].get(n) != v}
    return {"feedback": fb, "announcement": {"removed": [f"{ph}：{t}" for ph, t in removed],
                                             "added": [f"{ph}：{t}" for ph, t in added]}, "alive": alive}


def replay(setup, events) -> tuple[Any, dict[str, dict[str, Any]]]:
    """The game rebuilt from its events, and what each phase's events told, as the commands
    printed it when they ran: label -> {"feedback": {name: [lines]}, "announcement": [lines]};
    an amendment's corrections are kept under the phase current when it was written
    (``"corrections"``: name -> {"removed", "added"})."""
    from bansha.engine.engine import Game
    from bansha.engine.model import AmendEvent

    game = Game(setup)
    told: dict[str, dict[str, Any]] = {}
    # what the deal itself told (双面人's cards, given as the game is created): the first phase's
    start = {n: [t for _, t in lines] for n, lines in game.feedback.items() if lines}
    if start or game.announcements:
        told[game.label] = {"feedback": start, "announcement": [t for _, t in game.announcements]}
    corrections: dict[str, dict[str, Any]] = {}
    amends: dict[str, dict[str, Any]] = {}  # the amended phase -> name -> its corrections
    for ev in events:
        if isinstance(ev, AmendEvent):
            before = snapshot(game)
            game.apply(ev)
            fix = amend_diff(before, snapshot(game))
            mine = corrections.setdefault(game.label, {})
            pub = mine.setdefault("", {"removed": [], "added": []})  # "" : the thread's lines
            pub["removed"] += fix["announcement"]["removed"]
            pub["added"] += fix["announcement"]["added"]
            amended = amends.setdefault(game.canonical(ev.phase), {})
            for name, d in fix["feedback"].items():
                for slot in (mine.setdefault(name, {"removed": [], "added": []}),
                             amended.setdefault(name, {"removed": [], "added": []})):
                    slot["removed"] += d["removed"]
                    slot["added"] += d["added"]
            # what each phase told is now what the corrected history tells
            _, told = replay(setup, list(game.applied))
            continue
        label = game.canonical(ev.phase)
        mark = game.mark()
        groups = {p.name: set(p.groups) for p in game.players.values()}
        game.apply(ev)
        fb, ann = game.since(mark)
        t = told.setdefault(label, {"feedback": {}, "announcement": []})
        for name, lines in fb.items():
            t["feedback"].setdefault(name, []).extend(lines)
        t["announcement"] += ann
        for name, lines in joined(game, groups).items():
            t.setdefault("group", {}).setdefault(name, []).extend(lines)
    for label, fix in corrections.items():
        slot = told.setdefault(label, {"feedback": {}, "announcement": []})
        slot["corrections"] = {n: d for n, d in fix.items() if n}
        if fix.get("", {}).get("removed") or fix.get("", {}).get("added"):
            slot["thread_corrections"] = fix[""]
    for label, by_name in amends.items():
        told.setdefault(label, {"feedback": {}, "announcement": []})["amended"] = by_name
    return game, told


def joined(game, before: dict[str, set[str]]) -> dict[str, list[str]]:
    """What a player who joined a group (an absorbed 青侠: > 转变为与吸收者相同的阵营和身份，并互知)
    is told of it, and what its members are told of them: name -> lines. Group members know each
    other (views.player_view); the PM says so the phase it happens."""
    out: dict[str, list[str]] = {}
    for p in game.players.values():
        for group in sorted(set(p.groups) - before.get(p.name, set())):
            mates = [q for q in game.players.values() if q.name != p.name and group in q.groups]
            shown = [q.name + ("" if q.alive else say("ps_out_mark", game.lang)) for q in mates]
            out.setdefault(p.name, []).append(say("ps_group_members", game.lang, group=group,
                                                  members=join(shown, game.lang) if shown else say("ps_group_alone", game.lang)))
            for q in mates:
                if group in before.get(q.name, set()):
                    out.setdefault(q.name, []).append(say("ps_group_joined", game.lang, group=group, name=p.name))
    return out


def played(game) -> list[str]:
    return list(dict.fromkeys([*game.resolved, game.label]))


def pick_phase(game, phase: str | None) -> str:
    from bansha.engine.board import parse_phase_arg

    if phase is None:
        if not game.resolved:
            raise GameError(say("ps_none_resolved", game.lang, label=game.label))
        return game.resolved[-1]
    label = parse_phase_arg(game, phase)
    if label not in played(game):
        raise GameError(say("ps_not_played", game.lang, phase=phase, label=game.named(label),
                            played=join((game.named(x) for x in played(game)), game.lang)))
    return label


def final_votes(game, events, label: str) -> list[VoteEvent]:
    """Each voter's standing vote of the phase, as recorded (in the order first cast)."""
    final: dict[str, VoteEvent] = {}
    for e in events:
        if isinstance(e, VoteEvent) and game.canonical(e.phase) == label:
            final[e.voter] = e
    order = {id(e): i for i, e in enumerate(events)}
    # in thread order: the floor of the standing vote, then the order entered
    return sorted(final.values(), key=lambda e: (e.post is None, e.post or 0, order[id(e)]))


def tally(game, label: str) -> list[tuple[str, str]]:
    """The vote count of the phase as the engine made it (after every rule's adjustment)."""
    for t in game.trace:
        if t.phase == label and t.rule == "vote" and t.text.startswith("count: "):
            body = t.text.removeprefix("count: ")
            if body == "no votes":
                return []
            return [tuple(item.rsplit(" ", 1)) for item in body.split(", ")]
    return []


def not_counted_as_cast(game, label: str) -> dict[str, str]:
    """voter -> "void" (the ballot did not count) or "changed" (a rule made it count for
    another: 幻觉一) for the phase's count as the engine made it (its trace): what the thread's
    vote record marks, so that the record and the counts beside it agree."""
    out: dict[str, str] = {}
    for t in game.trace:
        if t.phase != label or t.rule != "vote":
            continue
        m = re.match(r"^(.+?)'s vote (for .+? does not count: |counts for )", t.text)
        if m:
            out[m.group(1)] = "void" if m.group(2).startswith("for ") else "changed"
    return out


def out_since(game, upto: str) -> dict[str, str]:
    """name -> the label of the phase they left in, for phases up to ``upto``."""
    pos = game.parse_phase(upto)
    gone: dict[str, str] = {}
    for label, names in game.out.items():
        try:
            if game.parse_phase(label) > pos:
                continue
        except GameError:
            continue
        for n in names:
            gone.setdefault(n, label)
    return gone


def next_label(game, label: str) -> str | None:
    seq = played(game)
    i = seq.index(label)
    return seq[i + 1] if i + 1 < len(seq) else None


def named_diff(diff: dict[str, Any], name) -> dict[str, Any]:
    """``amend_diff``'s lines with their phases as the board names them ("night 1：…" ->
    "第1天 夜晚：…"): what ``bansha amend`` prints and the web console's preview shows."""
    return {"feedback": {n: {k: [phase_line(name, x) for x in v] for k, v in d.items()} for n, d in diff["feedback"].items()},
            "announcement": {k: [phase_line(name, x) for x in v] for k, v in diff["announcement"].items()},
            "alive": diff["alive"]}


def phase_line(name, text: str) -> str:
    """"night 1：line" -> "第1天 夜晚：line" (the board's phase name)."""
    label, sep, line = text.partition("：")
    return f"{name(label)}：{line}" if sep else text
