"""What the pages need from a game beyond bansha.views (kernel functions that do not exist yet
live here: legal skills and targets of a seat, the vote tally, a preview on a copy)."""

from __future__ import annotations

import copy
from typing import Any

from bansha.engine import Game
from bansha.model import ResolveEvent
from bansha.views import public_players


def usable_skills(game: Game, name: str, director: bool = False) -> list[dict[str, Any]]:
    """The skills ``name`` may use in the current phase, with their selection range, uses
    left and arguments: what the forms offer (the engine still checks every submission). A
    skill a rule makes unavailable now (``bansha_skill_unavailable``) is left out, and one a
    status stops (``no_cast``) — on a player's page only when that status was told to them,
    so that the form does not reveal what the player was not told."""
    p = game.player(name)
    if game.winner is not None:
        return []
    known = {q["name"]: q["alive"] for q in public_players(game, name)}
    out = []
    for s, _acquired in game.skills_of(p).values():
        if not s.phases or not game.in_phase(s):
            continue
        if game.hook.bansha_skill_unavailable(game=game, player=p, skill=s):
            continue
        if any(st.data.get("no_cast") and (director or st.told) and not set(s.tags) & set(st.data.get("except_tags", ()))
               for st in p.statuses):
            continue
        if not p.alive and not s.while_out:
            continue
        left = p.uses.get(s.name) if s.uses is not None else None
        if left is not None and left <= 0:
            continue
        targets = [n for n, alive in known.items()
                   if (alive or s.may_target_dead) and (n != name or s.may_target_self)]
        out.append({
            "name": s.name, "alias": s.alias, "min": s.targets,
            "max": s.max_targets if s.max_targets is not None else s.targets,
            "uses": left, "args": dict(s.args), "rule": s.rule, "tags": list(s.tags),
            "targets": targets, "immediate": s.immediate,
            "acted": any(a.skill == s.name and a.actor == name for a in game.actions),
        })
    return out


def vote_options(game: Game, name: str) -> dict[str, Any] | None:
    if not game.phase.vote or game.winner is not None:
        return None
    p = game.player(name)
    if not p.alive:
        return None
    runoff = game.scheduled.get(game.phase.name) if game.phase.optional else None
    known = public_players(game, name)
    names = [q["name"] for q in known if q["alive"] and (not isinstance(runoff, list) or q["name"] in runoff)]
    abstain = game.manifest.vote.abstain
    mine = [b.target for b in game.ballots if b.voter == name]
    return {"targets": names, "abstain": abstain, "mine": mine}


def tally(game: Game) -> list[tuple[str, float, list[str]]]:
    """The live count, most votes first: each target, its votes as ``resolve`` will count them
    (``bansha.choices.count_votes``: weights, forced and void ballots) and the voters counted
    for it."""
    from bansha.choices import count_votes

    count = count_votes(game)
    if count is None:
        return []
    by: dict[str, list[str]] = {}
    for voter, target in count.ballots.items():
        by.setdefault(target, []).append(voter)
    return [(t, int(n) if n == int(n) else n, by.get(t, [])) for t, n in count.tally.items()]


def acted_or_not(game: Game) -> tuple[list[str], list[str]]:
    """Who has acted in this phase, and who could but has not (by seat)."""
    done, waiting = [], []
    actors = {a.actor for a in game.actions} | {b.voter for b in game.ballots}
    for p in sorted(game.players.values(), key=lambda p: p.seat):
        if p.name in actors:
            done.append(p.name)
        elif usable_skills(game, p.name) or vote_options(game, p.name):
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
            "trace": g.trace[ntrace:], "next": g.label, "winner": g.winner}


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
            "max_targets": max([a["max"] for a in acts] or [1]), "abstain": game.manifest.vote.abstain}


def option_fields(manifest) -> list[dict[str, Any]]:
    """The house rules of a ruleset as form fields, from its ``[option_types]``: a choice
    list where the type names its values (bool, str with choices), a number field with the
    declared range (int), text otherwise; ``table`` options are not offered (a TOML table is
    not a form field: ``bansha new --option`` or a deal's manifest)."""
    from bansha.options import allowed, shown, type_of

    out = []
    for key, default in manifest.options.items():
        t = type_of(manifest, key)
        if t.type == "table":
            continue
        field = {"key": key, "type": t.type, "default": shown(default), "choices": [str(c) for c in t.choices],
                 "min": t.min, "max": t.max, "allowed": allowed(t, "zh")}
        if t.type == "bool":
            field["choices"] = ["true", "false"]
        out.append(field)
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
