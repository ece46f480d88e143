"""Play one game with policies as players: dealt and played with one seed, so any game of a
simulation can be played again (``play_game(..., keep=True)`` returns its event log)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

# what a skill's ``arg_values`` stand for: the kernel's one reading, which the CLI's status and
# the web forms read too
from bansha.choices import arg_kinds, expand, expand_kind  # noqa: F401 (the sim's tests import them here)
from bansha.engine import Game
from bansha.history import final_votes
from bansha.model import ActEvent, GameError, ResolveEvent, RulingEvent, Setup, VoteEvent
from bansha.registry import ruleset_for

from .boards import coupled_deal, manifest_of
from .policies import Choice, Seat, load_policy

_OUT = re.compile(r"^(.+) is out \((.+)\)$")


def _manifest(board):
    """A board (a ruleset reference, or ``(ref, edits)``: ``bansha_sim.boards``)."""
    return manifest_of(board)


@lru_cache(maxsize=8)
def _policy(name: str):
    return load_policy(name)


def new_game(ruleset, seats: int, seed: int, options: dict[str, Any]) -> tuple[Setup, Game]:
    """Dealt by ``coupled_deal`` (bansha_sim.boards): two boards sharing roles deal them to the
    same seats of a seed, so their games can be compared seed by seed."""
    m = _manifest(ruleset)
    ruleset_for(m)  # an unknown role or plugin is refused here
    names = [f"P{i:02d}" for i in range(1, seats + 1)]
    setup = Setup(ruleset=m.id, manifest=m, players=coupled_deal(m, names, seed), seed=seed,
                  options=dict(options))
    return setup, Game(setup)


def table_of(game):
    """The public table at this seat count (who plays which camp's roles), or None."""
    return next((t for t in game.manifest.tables if t.seats == len(game.players)), None)


def role_camps(game) -> dict[str, str]:
    """Each role of the ruleset with its camp (public: the ruleset's documents)."""
    return {r.name: r.camp for r in game.ruleset.roles.values() if r.camp}


def _arg_values(skill, kinds, game, p) -> tuple[dict[str, tuple], tuple | None] | None:
    """(values of each declared ``--arg``, the values of a players-as-keys arg or None); None
    when the skill takes arguments it does not declare values for (a policy could not fill them),
    or one whose declared values are empty now (nothing a player could give: 镜像 before any
    skill was used on the 镜)."""
    values: dict[str, tuple] = {}
    keyed = None
    for k in skill.args:
        v = skill.arg_values.get(k)
        if v is None:
            if k.startswith("<") or not skill.targets:
                return None
            continue  # an undeclared optional argument of a targeted skill: left out
        v = expand(v, kinds, game, p)
        if not v:
            return None
        if k.startswith("<"):
            keyed = v
        else:
            values[k] = v
    return values, keyed


def choices_for(game: Game, p, kinds: dict | None = None, memo: dict | None = None) -> list[Choice]:
    """The skills ``p`` may send now, with their declared selection ranges and the values each
    ``--arg`` takes (the rules may still refuse a pick: the simulator then takes the policy's
    next preference). With ``memo`` (one game's), the choices already made from the same
    inputs are given again (in a new list; the Choices are frozen)."""
    kinds = kinds if kinds is not None else arg_kinds(game)
    alive = [q.name for q in game.players.values() if q.alive]
    if memo is None:
        return _choices(game, p, kinds, alive)
    # everything the list is made of: the player's skills (what skills_of is keyed on), the
    # phase, who is in the game, the player's uses left (kinds is the game's own),
    # and the living players' groups ("group:NAME" values: an absorbed 青侠 joins the 黑侠)
    key = ("choices", p.name, p.role, tuple(p.groups), tuple(p.acquired.items()), game.phase.name,
           game.phase.continues, p.alive, tuple(alive), tuple(p.uses.items()),
           tuple(tuple(game.players[n].groups) for n in alive))
    out = memo.get(key)
    if out is None:
        out = memo[key] = _choices(game, p, kinds, alive)
    return list(out)


def _choices(game: Game, p, kinds: dict, alive: list[str]) -> list[Choice]:
    out = []
    everyone = list(game.players)
    for skill, _ in game.skills_of(p).values():
        if not skill.phases or not game.in_phase(skill):
            continue
        if not p.alive and not skill.while_out:
            continue
        if skill.uses is not None and p.uses.get(skill.name, 0) <= 0:
            continue
        declared = _arg_values(skill, kinds, game, p) if skill.args else ({}, None)
        if declared is None:
            continue  # arguments without declared values (a free text), or none to give now: not played
        pool = everyone if skill.may_target_dead else alive
        if not skill.may_target_self:
            pool = [n for n in pool if n != p.name]
        hi = skill.max_targets if skill.max_targets is not None else skill.targets
        out.append(Choice(skill=skill.name, lo=skill.targets, hi=hi, candidates=tuple(pool),
                          args=tuple(skill.args), does=tuple(skill.does), group=skill.group,
                          values=declared[0], keyed=declared[1], per_phase=skill.per_phase))
    return out


def vote_choices(game: Game, p) -> list[str] | None:
    if not game.phase.vote or not p.alive:
        return None
    from bansha.model import Ballot

    v = game.manifest.vote
    runoff = game.scheduled.get(game.phase.name) if game.phase.optional else None
    names = [q.name for q in game.players.values() if q.alive and (runoff is None or q.name in runoff)]
    if runoff is None or v.runoff_abstain:
        names.append(v.abstain)
    ok = []
    for n in names:
        if n in (v.abstain, p.name):  # the rules' say on abstaining and on oneself
            b = Ballot(voter=p.name, target=n)
            if any(game.hook.bansha_validate_vote(game=game, ballot=b)):
                continue
        ok.append(n)
    return ok


def answer_rulings(game: Game, pol, rng, camps, table, memo: dict | None = None) -> list:
    """The director's part: every ruling the game waits for (``bansha_awaited_rulings``: 天师's
    question, 摄魂's text) answered by the policy, from the seat of the player it concerns;
    returns the rulings the engine accepted."""
    out = []
    for asked in game.hook.bansha_awaited_rulings(game=game):
        for r in asked or ():
            seat = Seat(game, r["player"], [], None, f"{rng}/{game.label}/{r['player']}/ruling", camps, table, memo)
            ev = RulingEvent(phase=game.label, kind=r["kind"], player=r["player"],
                             text=pol.ruling(seat, r["kind"], r.get("question", ""), list(r.get("answers", ()))))
            try:
                game.apply(ev)
            except GameError:
                continue
            out.append(ev)
    return out


def _first_accepted(game, log: list, events) -> bool:
    """Apply the first of ``events`` (a policy's choices in its order of preference) that the
    engine accepts, and log it; a refusal leaves the game as it was. False: none was accepted."""
    for ev in events:
        try:
            game.apply(ev)
        except GameError:
            continue
        log.append(ev)
        return True
    return False


def play_game(ruleset: str, seats: int, seed: int, policy: str = "random", options: dict | None = None,
              day_limit: int = 30, keep: bool = False) -> dict[str, Any]:
    """Deal with ``seed`` and play until a camp wins, a draw, or the day limit (unfinished)."""
    setup, game = new_game(ruleset, seats, seed, options or {})
    pol = _policy(policy)
    # each seat draws from its own source each phase, seeded by the seed, the phase and the
    # player (built on first use): two boards played on one seed give the same draws to the
    # same decisions, whatever happened at the other seats (common random numbers)
    rng = f"bansha-sim/{seed}"
    camps = tuple(c.name for c in game.manifest.camps)
    kinds = arg_kinds(game)
    t = table_of(game)
    table = {c: tuple(r) for c, r in t.camps.items()} if t is not None else {}
    log: list = []
    memo: dict = {}  # the policy's own memory of this game (``Seat.memo``)
    # public: the vote record of each closed vote phase, as the phase's post publishes it
    # (bansha.history.final_votes: each voter's standing vote), and each role's camp (the ruleset)
    spans: dict[str, tuple[int, int]] = {}  # a closed vote phase's events: log[begin:end]

    def record() -> dict[str, list[tuple[str, str]]]:
        # made when a policy first reads it (mafia-basic's random players never do), each
        # phase's once a game
        done = memo.setdefault("published votes", {})
        for lb, (b, e) in spans.items():
            if lb not in done:
                done[lb] = [(v.voter, v.target) for v in final_votes(game, log[b:e], lb)]
        return dict(done)

    roles = role_camps(game)
    phases = 0
    stuck = False
    while game.winner is None and game.day <= day_limit and phases < 8 * (day_limit + 2):
        phases += 1
        label = game.label
        begin = len(log)
        voting = game.phase.vote
        floor = 0  # the ballots of the phase are its vote thread's posts 1, 2, … (幻觉三 reads them)
        for p in list(game.players.values()):
            if game.winner is not None or game.label != label:
                break
            choices = choices_for(game, p, kinds, memo) if (p.alive or not game.phase.vote) else []
            votes = vote_choices(game, p)
            if not choices and not votes:
                continue
            d = pol.decide(Seat(game, p.name, choices, votes, f"{rng}/{label}/{p.name}", camps, table, memo,
                              record, roles))
            for skill, options_, args in d.actions:
                # an option is its targets, or (targets, its own args)
                _first_accepted(game, log, (
                    ActEvent(phase=label, actor=p.name, skill=skill, targets=list(targets), args=dict(a))
                    for targets, a in (o if isinstance(o, tuple) else (o, args) for o in options_)))
                if game.winner is not None or game.label != label:
                    break
            if game.winner is None and game.label == label and d.votes and game.phase.vote and p.alive:
                if _first_accepted(game, log, (VoteEvent(phase=label, voter=p.name, target=t, post=floor + 1)
                                               for t in d.votes)):
                    floor += 1
        if game.winner is None and game.label == label:
            log += answer_rulings(game, pol, rng, camps, table, memo)
        if game.winner is not None:
            break
        ev = ResolveEvent(phase=game.label)
        try:
            game.apply(ev)
        except GameError:
            stuck = True  # the phase cannot close (a ruling awaited): the game cannot progress
            break
        log.append(ev)
        if voting:
            spans[label] = (begin, len(log))
    causes: dict[str, int] = {}
    for t in game.trace:
        m = _OUT.match(t.text)
        if m:
            causes[m.group(2)] = causes.get(m.group(2), 0) + 1
    winners = list(game.winner or [])
    out = {
        "seed": seed,
        "winners": winners,
        "draw": bool(game.draw),
        "unfinished": game.winner is None,
        "stuck": stuck,
        "days": game.day,
        "players": [(p.role, p.camp, p.alive, p.camp in winners and not game.draw) for p in game.players.values()],
        "causes": causes,
    }
    if keep:
        out["setup"] = setup
        out["events"] = log
    return out


def play_chunk(ruleset: str, seats: int, seeds: list[int], policy: str, options: dict, day_limit: int) -> list[dict]:
    import structlog

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(30))
    return [play_game(ruleset, seats, s, policy, options, day_limit) for s in seeds]
