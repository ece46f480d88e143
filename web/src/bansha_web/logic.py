"""What the pages need from a game beyond bansha.show.views: each seat's forms and the vote count
from the one answer to "what may this seat do now" (``bansha.engine.choices``, which the CLI and the
simulator ask too), a preview on a copy, the amend form's choices, the house rules' fields."""

from __future__ import annotations

import copy
from typing import Any

from bansha.engine.choices import count_votes, seat_choices, vote_choices, vote_rule_line
from bansha.engine.engine import Game
from bansha.engine.model import GameError, ResolveEvent
from bansha.show.explain import trace_lines


def _hidden(game: Game, name: str | None) -> set[str]:
    """Seats whose exit the thread has not been told (an immediate death in a ``hold_public``
    phase): a player's form keeps offering them, so their absence reveals nothing; the engine
    still refuses a use on them."""
    return set(game.unannounced_exits()) - {name} if name is not None else set()


def usable_skills(game: Game, name: str, director: bool = False, choices: list | None = None) -> list[dict[str, Any]]:
    """The skills ``name`` may send now, as ``act`` accepts them (``choices.seat_choices``):
    the exact targets, the counts, each argument's closed set of values (None: free text).
    The engine still checks every submission. ``choices``: ``seat_choices(game, name)`` when
    the caller has it already (``Site.choices``)."""
    hidden = set() if director else _hidden(game, name)
    p = game.player(name)
    if not director and any(st.data.get("no_cast") and not st.told for st in p.statuses):
        # a status that stops casting, not told to the player: their forms are those they would
        # have without it (a form's absence would tell them); the engine refuses the use
        game = private_copy(game)
        p = game.player(name)
        p.statuses = [st for st in p.statuses if not (st.data.get("no_cast") and not st.told)]
        choices = None  # those of the copy
    out = []
    for c in (choices if choices is not None else seat_choices(game, name)):
        skill, _ = game.find_skill(p, c.skill)
        targets = [q for q in game.players if q in c.targets or q in hidden]
        out.append({
            "name": c.skill, "alias": skill.alias, "min": c.min_targets, "max": c.max_targets,
            "uses": c.uses, "args": dict(skill.args), "rule": skill.rule, "tags": list(skill.tags),
            "arg_fields": {k: {"label": meaning, "choices": c.args.get(k), "optional": k in c.optional_args,
                                   "with": c.arg_with.get(k)}
                           for k, meaning in skill.args.items() if k in c.args},
            "targets": targets, "immediate": c.immediate, "acted": c.submitted, "forced": c.forced,
            "group_acted": c.group_acted,
        })
    return out


def withdrawable(game: Game, name: str, offered: set[str]) -> list[str]:
    """The skills ``name`` sent this phase that the page offers no form for (``seat_choices``
    leaves out a skill already used this phase) and that the engine would let them withdraw
    now: asked of the engine itself, on a copy (``unact``'s own checks: not answered at once,
    its window not passed), so that the page keeps a 撤回 button for each."""
    from bansha.engine.copies import copy_game
    from bansha.engine.model import UnactEvent

    out: list[str] = []
    for skill in dict.fromkeys(a.skill for a in game.actions if a.actor == name and a.skill not in offered):
        try:
            copy_game(game).apply(UnactEvent(phase=game.label, actor=name, skill=skill))
        except GameError:
            continue
        out.append(skill)
    return out


def vote_options(game: Game, name: str, director: bool = False) -> dict[str, Any] | None:
    """Whom ``name`` may vote for now (``choices.vote_choices``), the abstain word apart (never
    preselected), their ballots so far, and whether the board asks the floor number."""
    allowed = vote_choices(game, name)
    if allowed is None:
        return None
    abstain = game.manifest.vote.abstain
    hidden = set() if director else _hidden(game, name)
    names = [q for q in game.players if (q in allowed or q in hidden) and q != abstain]
    mine = [b.target for b in game.ballots if b.voter == name]
    post = game.manifest.vote.post  # a rule reads floor numbers: the form asks for one
    return {"targets": names, "abstain": abstain if abstain in allowed else "", "mine": mine,
            "post": post if post != "optional" else ""}


def tally(game: Game) -> dict[str, Any] | None:
    """The count ``resolve`` would make now (``choices.count_votes``: weights, forced and void
    ballots, immunity) for the console: each target's votes and voters, the void ballots and
    why, who has not voted, and what the count would decide."""
    count = count_votes(game)
    if count is None:
        return None
    by: dict[str, list[str]] = {}
    for voter, target in count.ballots.items():
        by.setdefault(target, []).append(voter)
    rows = [(t, n, by.get(t, [])) for t, n in count.tally.items()]
    return {"rows": rows, "void": count.void, "abstained": count.abstained, "not_voted": count.not_voted,
            "out": count.out, "runoff": count.runoff, "immune": count.immune, "needed": count.needed,
            "public": count.public, "rule": vote_rule_line(game, count)}


def acted_or_not(game: Game) -> tuple[list[str], list[str]]:
    """Who has acted in this phase, and who could but has not (by seat): only seats with a
    skill they may send now, or a vote, count as waiting."""
    done, waiting = [], []
    actors = {a.actor for a in game.actions} | {b.voter for b in game.ballots}
    for p in sorted(game.players.values(), key=lambda p: p.seat):
        if p.name in actors:
            done.append(p.name)
        elif seat_choices(game, p.name) or vote_choices(game, p.name):
            waiting.append(p.name)
    return done, waiting


def private_copy(game: Game) -> Game:
    """A copy of ``game`` to try something on (the declarations shared, read-only)."""
    return copy.deepcopy(game, {id(x): x for x in (game.setup, game.ruleset, game.manifest, game.pm, game.hook, game.log)})


def preview(game: Game) -> dict[str, Any]:
    """The resolution of the current phase on a copy of ``game``: each player's feedback,
    the announcement, who leaves and the ruling trace. Nothing is stored."""
    g = private_copy(game)
    label = g.label
    mark = g.mark()
    ntrace = len(g.trace)
    g.apply(ResolveEvent(phase=label))
    fb, ann = g.since(mark)
    return {"phase": label, "feedback": fb, "announcement": ann, "out": list(g.out.get(label, [])),
            "trace": trace_lines(g, g.trace[ntrace:]), "next": g.label, "winner": g.winner}


def phases_with_trace(game: Game) -> list[str]:
    seen: list[str] = []
    for t in game.trace:
        if t.phase not in seen:
            seen.append(t.phase)
    return seen


# ------------------------------------------------------------------ amend, rulings, options

def amend_choices(game: Game) -> dict[str, Any]:
    """What the console's amend form offers: the closed phases (latest first), each seat's
    skills that act in some phase (as "seat's name, skill" pairs), every player as a target
    or voter. The engine's replay refuses what the rules did not allow then."""
    acts = []
    for p in sorted(game.players.values(), key=lambda p: p.seat):
        for s, _acquired in game.skills_of(p).values():
            if s.phases:
                acts.append({"player": p.name, "skill": s.name,
                             "max": s.max_targets if s.max_targets is not None else s.targets})
    return {"phases": list(reversed(game.resolved)), "acts": acts,
            "players": [p.name for p in sorted(game.players.values(), key=lambda p: p.seat)],
            # a declared "up to 99" (宗教老爷爷's 异端) is at most the table: no more selects than seats
            "max_targets": min(max([a["max"] for a in acts] or [1]), len(game.players)),
            "abstain": game.manifest.vote.abstain,
            # a vote is offered only where the board takes votes (the engine refuses it elsewhere)
            "votes": any(ph.vote for ph in game.manifest.phases)}


def option_fields(manifest) -> list[dict[str, Any]]:
    """The house rules of a ruleset as form fields, from its ``[option_types]``: a choice
    list where the type names its values (bool, str with choices), a number field with the
    declared range (int), text otherwise; ``table`` options are not offered (a TOML table is
    not a form field: ``bansha new --option`` or a deal's manifest)."""
    from bansha.engine.options import allowed, label_of, shown, type_of, value_label

    out = []
    for key, default in manifest.options.items():
        t = type_of(manifest, key)
        if t.type == "table":
            continue
        # each choice a (value, what a person reads) pair: the label of options.py
        choices = [(str(c), value_label(manifest, key, c)) for c in t.choices]
        if t.type == "bool":
            choices = [("true", value_label(manifest, key, True)), ("false", value_label(manifest, key, False))]
        out.append({"key": key, "label": label_of(manifest, key), "help": t.help, "type": t.type,
                    "default": shown(default), "choices": choices, "min": t.min, "max": t.max,
                    "allowed": allowed(t, manifest.language)})
    return out


def changed_options(manifest, form_value) -> dict[str, str]:
    """The house rules a creation form sets: the fields of the chosen ruleset whose value
    differs from its default (check_options then checks each one as ``--option`` does)."""
    out = {}
    for f in option_fields(manifest):
        value = form_value(f"opt_{manifest.id}_{f['key']}")
        if value is None:
            continue
        value = value.strip()
        if value != "" and value != f["default"]:
            out[f["key"]] = value
        elif value == "" and f["type"] in ("list", "time") and f["default"] != "":
            out[f["key"]] = ""  # emptied on purpose
    return out


# ----------------------------------------------------------------------------- deadline

def deadline_key(game: str) -> str:
    return f"web.deadline.{game}"


class Deadlines:
    """The directors' deadlines, kept in the store's meta so that every server process shows
    them; read at most once a second per game here (a page shows it; another process's change
    shows within a second, this process's at once)."""

    def __init__(self, store, ttl: float = 1.0):
        self.store, self.ttl = store, ttl
        self._seen: dict[str, tuple[float, str | None]] = {}

    def raw(self, game_name: str) -> str | None:
        import time

        now = time.monotonic()
        hit = self._seen.get(game_name)
        if hit is None or now - hit[0] > self.ttl:
            hit = (now, self.store.get_meta([deadline_key(game_name)]).get(deadline_key(game_name)))
            self._seen[game_name] = hit
        return hit[1]

    def set(self, game_name: str, value: str | None) -> None:
        self.store.set_meta({deadline_key(game_name): value})
        self._seen.pop(game_name, None)


def deadline_of(deadlines: Deadlines, game_name: str, game: Game) -> dict[str, str] | None:
    """The director's deadline of the current phase, or None; a deadline set for an earlier
    phase has lapsed."""
    import json

    raw = deadlines.raw(game_name)
    if not raw:
        return None
    try:
        d = json.loads(raw)
    except ValueError:
        return None
    return d if d.get("phase") == game.label and game.winner is None else None


# ------------------------------------------------------------------------ describing events

def post_number(text: str) -> int | None:
    """A vote's floor number (楼层) as typed: empty is none; else a whole number from 1."""
    from bansha.door.forms import parse_int

    text = text.strip()
    return parse_int(text, "楼层", "zh", lo=1, hi=10**9) if text else None


def describe_input(ev, game: Game) -> str:
    """An act, unact or vote event in a line of the board's words: the kernel's
    ``explain.input_line``, as ``bansha amend`` says it."""
    from bansha.show.explain import input_line

    return input_line(ev, game.lang, game.ruleset.ruling_name)


def describe_event(ev, game: Game) -> str:
    """Any stored event in a line of the board's words, as the undo confirmation shows it: the
    kernel's ``explain.event_text``, as ``bansha undo`` says it."""
    from bansha.show.explain import event_text

    return event_text(game, ev)
