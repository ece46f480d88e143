"""What a seat may do now, and how the votes count: the one answer the CLI's ``status``, the
player's view, the web forms and the simulator all ask (docs/cli.md, "What a seat may do now").

Every listing is made by asking the engine's own check (``Game.check_skill`` and
``Game.check_use``, what ``act`` runs before it records anything; ``Game.check_vote`` for a
ballot), so what is listed is what ``act`` and ``vote`` accept. Nothing here changes the game.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

import msgspec

from .model import GameError
from .votes import VoteCount, whole  # noqa: F401  (the count's record, here with its question)

if TYPE_CHECKING:
    from .engine import Game
    from .model import Player, Skill

#: the games whose choices are being made (a ``view:`` kind reads the player's view, which lists them)
_BUSY: set[int] = set()

#: at most this many combinations of argument values are tried for one choice of targets
ARG_TRIALS = 24


class SkillChoice(msgspec.Struct, frozen=True):
    """One skill a seat may use now, as ``act`` accepts it."""

    player: str
    skill: str
    #: every target ``act`` accepts now (in seat order): alone, or as part of a valid choice
    targets: list[str]
    min_targets: int
    max_targets: int
    #: --arg name -> the values it takes (a closed set), None: free text
    args: dict[str, list[str] | None]
    #: 【强制】: the rules expect it sent
    forced: bool
    group: str | None
    #: the group already has a standing action of this skill (a new one replaces it)
    group_acted: bool
    #: this seat already has a standing action of this skill
    submitted: bool
    #: uses left over the game (None: unlimited)
    uses: int | None = None
    #: answered at once when sent
    immediate: bool = False
    #: the args of a closed set that may be left out (a "" among the declared values: 七杀·侠's
    #: ``reflect``, left out: the sender)
    optional_args: list[str] = []


# ------------------------------------------------------------------------ argument values


def arg_kinds(game: Game) -> dict[str, tuple[str, ...]]:
    """What the table's kinds of ``Skill.arg_values`` stand for (for the whole game): the
    camps, the roles it deals (the ruleset's playable roles when the table names none), the
    players."""
    t = next((t for t in game.manifest.tables if t.seats == len(game.players)), None)
    roles: list[str] = []
    if t is not None:
        roles += list(t.fixed) + [r for pool in t.pools for r in pool.roles]
        roles += [r for camp in t.camps.values() for r in camp]
    if not roles:
        roles = [r for r in game.ruleset.roles if r not in game.manifest.common]
    return {"camp": tuple(c.name for c in game.manifest.camps), "role": tuple(dict.fromkeys(roles)),
            "player": tuple(game.players)}


def expand_kind(kind: str, kinds: dict, game: Game, p: Player) -> tuple:
    """The values of one kind of ``Skill.arg_values`` now, for player ``p`` (docs/plugins.md):
    the table's (``arg_kinds``), "alive", "post" (1 … the number in the game), "group:NAME" (the
    group's living members), "option:NAME",
    "view:KEY" (the player's own view). An unknown kind has no values."""
    if kind in kinds:
        return kinds[kind]
    if kind == "alive":
        return tuple(q.name for q in game.players.values() if q.alive)
    if kind == "post":
        return tuple(range(1, sum(q.alive for q in game.players.values()) + 1))
    head, _, name = kind.partition(":")
    if head == "group":  # the living members of a group (those a group's skill may name)
        return tuple(q.name for q in game.players.values() if q.alive and name in q.groups)
    if head == "option":
        v = game.option(name)
        return tuple(v) if isinstance(v, (list, tuple)) else (() if v is None else (v,))
    if head == "view":
        _BUSY.add(id(game))  # the view lists the seat's choices: not while they are being made
        try:
            parts = [part for part in game.hook.bansha_player_view(game=game, player=p) if part]
        finally:
            _BUSY.discard(id(game))
        v = next((part[name] for part in reversed(parts) if part.get(name)), ())
        return tuple(v) if isinstance(v, (list, tuple)) else (v,)
    return ()


def expand(declared, kinds: dict, game: Game, p: Player) -> tuple:
    """A declaration of ``Skill.arg_values``: a kind, or values in which ``"{kind}"`` stands
    for that kind's values (``("", "最先", "{option:death_order}")``)."""
    if isinstance(declared, str):
        return expand_kind(declared, kinds, game, p)
    out: list = []
    for v in declared:
        if isinstance(v, str) and len(v) > 2 and v[0] == "{" and v[-1] == "}":
            out += expand_kind(v[1:-1], kinds, game, p)
        else:
            out.append(v)
    return tuple(dict.fromkeys(out))


def shown_args(skill: Skill, values: dict[str, tuple]) -> dict[str, list[str] | None]:
    """--arg name -> its closed set of values ("" left out: the arg may be omitted), None where
    any text is taken (undeclared, or declared ``Skill.open_args``: its values are examples)."""
    out: dict[str, list[str] | None] = {}
    for k in skill.args:
        v = values.get(k)
        out[k] = None if v is None or k in skill.open_args else [str(x) for x in v if x != ""]
    return out


def _arg_trials(skill: Skill, values: dict[str, tuple], others: list[str]) -> list[dict[str, Any]]:
    """The argument sets tried with each choice of targets, the most natural first: every
    declared arg's first value (an optional one left out), then the other combinations."""
    plain = [(k, values[k]) for k in skill.args if not k.startswith("<") and values.get(k)]
    keyed = [values[k] for k in skill.args if k.startswith("<") and values.get(k)]
    trials: list[dict[str, Any]] = []
    for combo in itertools.islice(itertools.product(*(v for _, v in plain)), ARG_TRIALS):
        trials.append({k: x for (k, _), x in zip(plain, combo, strict=True) if x != ""})
    if keyed:  # players' names as keys (猜测's --arg 梦见=国王): one key with each value
        extra = [{name: v} for v in keyed[0][:4] for name in others[:3]]
        trials += [{**trials[0], **e} for e in extra]
    return trials or [{}]


# ---------------------------------------------------------------------------- the choices


def seat_choices(game: Game, player: str, values: dict | None = None) -> list[SkillChoice]:
    """Every skill ``player`` may send now, with the exact targets and the argument values
    ``act`` accepts (``values``: ``arg_kinds(game)``, when the caller keeps it)."""
    return [c for c, _, _ in seat_listing(game, player, values)]


def seat_listing(game: Game, player: str, values: dict | None = None) -> list[tuple[SkillChoice, Skill, dict[str, tuple]]]:
    """``seat_choices`` with each choice's skill and the declared values of its args as the
    check takes them ("" where the arg may be left out; whole numbers for a "post"): what a
    program choosing for the seat (the simulator's policies) picks from."""
    if game.winner is not None or id(game) in _BUSY:
        return []
    p = game.player(player)
    kinds = values if values is not None else None
    out = []
    for skill, acquired in game.skills_of(p).values():
        if not skill.phases or game.skill_refused(p, skill) is not None:
            continue
        declared: dict[str, tuple] = {}
        for k in skill.args:
            d = skill.arg_values.get(k)
            if d is not None:
                if kinds is None:
                    kinds = arg_kinds(game)
                declared[k] = expand(d, kinds, game, p)
        c = _choice(game, p, skill, acquired, declared)
        if c is not None:
            out.append((c, skill, declared))
    return out


def _choice(game: Game, p: Player, skill: Skill, acquired: bool, declared: dict,
            found: dict | None = None) -> SkillChoice | None:
    """The choice of one skill ``check_skill`` accepted; ``found`` (target -> the targets and
    args of an accepted action with it, "" for none) collects the actions that were accepted."""
    lo = skill.targets
    hi = skill.max_targets if skill.max_targets is not None else lo
    pool = [q.name for q in game.players.values()
            if (q.alive or skill.may_target_dead) and (q.name != p.name or skill.may_target_self)]
    trials = _arg_trials(skill, declared, [n for n in game.players if n != p.name])

    def ok(targets: list[str]) -> bool:
        # ``check_use`` in its parts: what reads the targets alone once, then each set of args
        try:
            names = game.check_targets(p, skill, acquired, targets)
        except GameError:
            return False
        for args in trials:
            try:
                game.check_args(p, skill, acquired, names, args)
            except GameError:
                continue
            if found is not None:
                for t in targets or [""]:
                    found.setdefault(t, (list(targets), args))
            return True
        return False

    targets: list[str] = []
    usable = lo == 0 and ok([])
    if hi:
        def ring(names: list[str], k: int, start: int) -> list[str]:
            return (names[start:] + names[:start])[:k]

        # the counts the rules accept (a rule may ask more than the declared least: 异端's half)
        sizes = [k for k in range(max(lo, 1), min(hi, len(pool)) + 1)
                 if k == 1 or any(ok(ring(pool, k, i)) for i in range(min(3, len(pool))))]
        if sizes == [1]:  # the common case: one target, each asked alone
            targets = [t for t in pool if ok([t])]
        else:
            for t in pool:
                others = [n for n in pool if n != t]
                # t alone, or with k-1 others, the window moving round the ring until one is accepted
                if any(ok([t]) if k == 1 else any(ok([t, *ring(others, k - 1, i)]) for i in range(len(others)))
                       for k in sizes):
                    targets.append(t)
        usable = usable or bool(targets)
    if not usable:
        return None
    group_acted = bool(skill.group) and any(a.group == skill.group and a.skill == skill.name for a in game.actions)
    return SkillChoice(
        player=p.name, skill=skill.name, targets=targets, min_targets=lo, max_targets=hi,
        args=shown_args(skill, declared), forced="强制" in skill.tags, group=skill.group,
        group_acted=group_acted, submitted=any(a.skill == skill.name and a.actor == p.name for a in game.actions),
        uses=p.uses.get(skill.name) if skill.uses is not None else None, immediate=skill.immediate,
        optional_args=[k for k, v in declared.items() if "" in v])


def examples(game: Game, player: str, skill: str) -> dict[str, tuple[list[str], dict[str, Any]]]:
    """For each target ``seat_choices`` lists for ``skill`` ("" for a use without targets), the
    targets and args of an action the check accepted with it: what the listing stands on (the
    property test sends them through ``act``)."""
    p = game.player(player)
    sk, acquired = game.find_skill(p, skill)
    try:
        game.check_skill(p, sk)
    except GameError:
        return {}
    kinds = arg_kinds(game)
    declared = {k: expand(d, kinds, game, p) for k, d in sk.arg_values.items() if k in sk.args}
    found: dict = {}
    _choice(game, p, sk, acquired, declared, found)
    return found


def all_choices(game: Game) -> dict[str, list[SkillChoice]]:
    """Every seat that may send a skill now, with its choices (seat order)."""
    if game.winner is not None:
        return {}
    kinds = arg_kinds(game)
    out = {}
    for name in game.players:
        c = seat_choices(game, name, kinds)
        if c:
            out[name] = c
    return out


def vote_choices(game: Game, player: str) -> list[str] | None:
    """Whom ``player`` may vote for now (seat order, then the abstain word where abstaining is
    accepted), as ``vote`` accepts it (a change where the seat has voted); None: may not vote."""
    if not game.phase.vote or game.winner is not None:
        return None
    from .model import VoteEvent

    p = game.player(player)
    if not p.alive:
        return None
    change = any(b.voter == p.name for b in game.ballots)
    post = 1 if game.manifest.vote.post == "required" else None
    label = game.label
    # ``check_vote`` in its parts: the voter's once, the target's and the rules' for each target
    ev = VoteEvent(phase=label, voter=p.name, target="", change=change, post=post)
    try:
        voter = game.check_voter(ev)
        game.check_vote_change(voter, ev)
    except GameError:
        return None
    out = []
    # the ballot check_ballot would make, built once a seat and given each target
    first = game.ballot_of(voter, ev)
    refused, validate, replace = game.vote_target_refused, game.validate_ballot, msgspec.structs.replace
    # no rule checks a ballot (qisha-xia): what the kernel accepts is the answer
    ruled = game.hook.implemented("bansha_validate_vote")
    for target in [*game.players, game.manifest.vote.abstain]:
        if refused(target) is not None:
            continue
        if not ruled:
            out.append(target)
            continue
        try:
            validate(replace(first, target=target))
        except GameError:
            continue
        out.append(target)
    return out or None


def owed(game: Game, choices: dict[str, list[SkillChoice]] | None = None) -> list[SkillChoice]:
    """What ``resolve``'s guard lists as still owed: every 【强制】 skill a seat may send now and
    neither it nor its group has sent."""
    choices = all_choices(game) if choices is None else choices
    return [c for cs in choices.values() for c in cs if c.forced and not c.submitted and not c.group_acted]


# ------------------------------------------------------------------------------- the count


def count_votes(game: Game) -> VoteCount | None:
    """The count ``resolve`` would make now (weights, forced and void ballots, extra votes,
    immunity): the phase resolved on a private copy, read from its vote step. None where the
    phase takes no vote."""
    if not game.phase.vote or game.winner is not None:
        return None
    from .engine import SILENT
    from .store import _copy_game

    g = _copy_game(game)
    g.log = SILENT
    try:
        res = g.resolve()
    except GameError:
        return None
    count = res.data.get("vote_count")
    if count is None:
        return None
    # who may still vote and has not (a seat the rules keep from voting is not waited for)
    voted = {b.voter for b in game.ballots}
    count.not_voted = [p.name for p in game.alive() if p.name not in voted and vote_choices(game, p.name) is not None]
    return count
