"""What a seat may do now, and how the votes count: the one answer the CLI's ``status``, the
player's view, the web forms and the simulator all ask (docs/cli.md, "What a seat may do now").

Every listing is made by asking the engine's own check (``Game.check_skill`` and
``Game.check_use``, what ``act`` runs before it records anything; ``Game.check_vote`` for a
ballot), so what is listed is what ``act`` and ``vote`` accept. Nothing here changes the game.
"""

from __future__ import annotations

import itertools
import weakref
from typing import TYPE_CHECKING, Any

import msgspec

from bansha.engine.model import GameError, VoteEvent
from bansha.engine.votes import VoteCount, whole  # noqa: F401  (the count's record, here with its question)

if TYPE_CHECKING:
    from bansha.engine.engine import Game
    from bansha.engine.model import Player, Skill

#: the games whose choices are being made (a ``view:`` kind reads the player's view, which lists them)
_BUSY: set[int] = set()

class lazy:
    """``functools.cached_property`` without its lock: Python 3.11's takes an ``RLock`` at each
    first read, a tenth of a simulated seat's time (a seat's listing and its policy's ``Seat``
    live in one thread). The value is kept in the instance's ``__dict__``, where later reads
    find it first (and where it may be given: ``obj.name = value``)."""

    def __init__(self, fn):
        self.fn, self.name, self.__doc__ = fn, fn.__name__, fn.__doc__

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.fn(obj)
        return value


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
    #: an arg that may be left out and is taken only beside some values of another: arg ->
    #: {other arg: those values} (光影传说's 窥探 at 14 seats: a mage's number only with
    #: role=法师; each value alone is one ``act`` takes, their pairing is what this says)
    arg_with: dict[str, dict[str, list[str]]] = {}


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
    out = []
    for test in skill_tests(game, player, values):
        c = test.choice()
        if c is not None:
            out.append((c, test.skill, test.declared))
    return out


def skill_tests(game: Game, player: str, values: dict | None = None) -> list[SkillTest]:
    """The skills of ``player`` that ``check_skill`` accepts now, each as a ``SkillTest`` whose
    targets are not asked yet: ``seat_listing`` asks every target of each (``SkillTest.choice``);
    a program that needs one allowed target asks them in its own order and stops at the first
    (``SkillTest.first``). Both ask the same question of a target, so they cannot disagree."""
    if game.winner is not None or id(game) in _BUSY:
        return []
    p = game.player(player)
    kinds = values if values is not None else None
    out = []
    for skill, acquired in game.sendable_skills(p):
        if game.skill_refused(p, skill) is not None:
            continue
        declared: dict[str, tuple] = {}
        for k in skill.args:
            d = skill.arg_values.get(k)
            if d is not None:
                if kinds is None:
                    kinds = arg_kinds(game)
                declared[k] = expand(d, kinds, game, p)
        out.append(SkillTest(game, p, skill, acquired, declared))
    return out


class SkillTest:
    """One skill ``check_skill`` accepted for a seat, asking ``check_use`` in its parts whether a
    target is one the listing lists (``allowed``: alone, or as part of a choice of several, with
    one of the argument sets tried); each target is asked once. ``found`` (target -> the targets
    and args of an accepted action with it, "" for none) collects the actions accepted. The game
    is private: what it tells is what the listing tells (a policy is handed one)."""

    def __init__(self, game: Game, p: Player, skill: Skill, acquired: bool, declared: dict,
                 found: dict | None = None):
        self._game, self._p, self._acquired = game, p, acquired
        self.skill, self.declared = skill, declared
        self.lo = skill.targets
        self.hi = skill.max_targets if skill.max_targets is not None else self.lo
        #: every player of the game, in seat order: what a program draws its order over, so that
        #: its pick depends on what is allowed alone (two boards may allow the same targets with
        #: other flags: a rule refusing oneself, or the skill not naming oneself)
        self.names = tuple(game.players)
        self._found = found
        self._sizes: list[int] | None = None
        #: each target asked so far: whether it is allowed
        self.asked: dict[str, bool] = {}
        #: a choice of targets (a tuple) accepted without args -> the action ``check`` gave for
        #: it: sent with nothing applied since, it needs no second check (``Game.apply``'s
        #: ``checked``)
        self._accepted: dict[tuple, Any] = {}
        #: target lists the check accepted (``arg_values``' samples)
        self._hits: list[list[str]] = []

    @lazy
    def pool(self) -> list[str]:
        """Who may be named at all (alive, or the dead where it may; itself where it may), seat order."""
        skill, me = self.skill, self._p.name
        return [q.name for q in self._game.players.values()
                if (q.alive or skill.may_target_dead) and (q.name != me or skill.may_target_self)]

    @lazy
    def _trials(self) -> list[dict[str, Any]]:
        # made when a target is first asked (a seat's skill may never be)
        me = self._p.name
        return _arg_trials(self.skill, self.declared, [n for n in self._game.players if n != me])

    def _ok(self, targets: list[str]) -> bool:
        # ``check_use`` in its parts: what reads the targets alone once, then each set of args
        game, p, skill = self._game, self._p, self.skill
        try:
            names = game.check_targets(p, skill, self._acquired, targets)
        except GameError:
            return False
        for args in self._trials:
            try:
                action = game.check_args(p, skill, self._acquired, names, args)
            except GameError:
                continue
            if not args:
                self._accepted[tuple(names)] = action
            if self._found is not None:
                for t in targets or [""]:
                    self._found.setdefault(t, (list(targets), args))
            if targets and len(self._hits) < 4 and list(targets) not in self._hits:
                self._hits.append(list(targets))  # target lists the check accepted (``arg_values``' samples)
            return True
        return False

    @staticmethod
    def _ring(names: list[str], k: int, start: int) -> list[str]:
        return (names[start:] + names[:start])[:k]

    def sizes(self) -> list[int]:
        """The counts of targets the rules accept (a rule may ask more than the declared least,
        or exactly one count: 异端's half), asked once. One target is asked of every name of the
        pool where the skill may take more (a rule may refuse one alone); a skill of one target
        only is asked target by target (``allowed``)."""
        if self._sizes is None:
            pool = self.pool
            hi = min(self.hi, len(pool))
            self._sizes = [k for k in range(max(self.lo, 1), hi + 1)
                           if (k == 1 and hi == 1) or any(self._ok(ts) for ts in self._sets_of(k))]
        return self._sizes

    def _sets_of(self, k: int):
        """The choices of ``k`` targets ``sizes`` asks until one is accepted: one target each name
        of the pool; two, every ordered pair (a rule may accept a pair of a few players only:
        m217's 交换 where [绝情] leaves three); more, the window of ``k`` moving round the whole
        ring. The common case is answered by the first."""
        pool, ring = self.pool, self._ring
        if k == 1:
            return ([t] for t in pool)
        if k == 2:
            return ([a, b] for i in range(1, len(pool)) for a, b in zip(pool, pool[i:] + pool[:i], strict=True))
        return (ring(pool, k, i) for i in range(len(pool)))

    def arg_values(self, samples: list[list[str]]) -> dict[str, list[str] | None]:
        """--arg name -> the values of its closed set some accepted action takes (with one of
        ``samples``, target lists the check accepted): a value the rules refuse whatever the
        targets (窥探's 国王) is not listed; free-text args stay None."""
        shown = shown_args(self.skill, self.declared)
        for k, listed in shown.items():
            if listed is None or k.startswith("<"):
                continue
            keep = []
            for x in self.declared[k]:
                if x == "":
                    continue
                tries = [t for t in self._trials if t.get(k) == x] + [{**self._trials[0], k: x}]
                if any(self._accepts(targets, args) for targets in samples for args in tries):
                    keep.append(str(x))
            shown[k] = keep
        # an arg that may be left out and takes no value now (窥探's mage number where the other
        # side has one mage) is not offered at all
        return {k: v for k, v in shown.items() if v != [] or "" not in self.declared.get(k, ())}

    def arg_with(self, samples: list[list[str]], shown: dict[str, list[str] | None]) -> dict[str, dict[str, list[str]]]:
        """``SkillChoice.arg_with``: for each listed arg that may be left out, the values of each
        other listed arg that some accepted action pairs it with, where those are not all."""
        closed = {k: v for k, v in shown.items() if v and not k.startswith("<")}
        out: dict[str, dict[str, list[str]]] = {}
        for k, mine in closed.items():
            if "" not in self.declared.get(k, ()) or len(closed) < 2:
                continue
            for k2, theirs in closed.items():
                if k2 == k:
                    continue
                paired = [v2 for v2 in theirs if any(self._accepts(t, {**self._trials[0], k2: v2, k: x})
                                                     for t in samples for x in mine)]
                if paired and len(paired) < len(theirs):
                    out.setdefault(k, {})[k2] = paired
        return out

    def _accepts(self, targets: list[str], args: dict[str, Any]) -> bool:
        game, p, skill = self._game, self._p, self.skill
        try:
            game.check_args(p, skill, self._acquired, game.check_targets(p, skill, self._acquired, targets), args)
        except GameError:
            return False
        return True

    def allowed(self, t: str) -> bool:
        """Whether the listing lists ``t`` (a name of ``pool``) among the skill's targets."""
        hit = self.asked.get(t)
        if hit is None:
            sizes = self.sizes() if self.hi else []
            if sizes == [1]:  # the common case: one target, asked alone
                hit = self._ok([t])
            else:
                pool, ring = self.pool, self._ring
                others = [n for n in pool if n != t]
                # t alone, or with k-1 others, the window moving round the ring until one is accepted
                hit = any(self._ok([t]) if k == 1 else any(self._ok([t, *ring(others, k - 1, i)])
                                                          for i in range(len(others)))
                          for k in sizes)
            self.asked[t] = hit
        return hit

    def first(self, order) -> str | None:
        """The first name of ``order`` (any iterable) that the listing lists among the skill's
        targets (``choice().targets``), asking no target after it; None: none of them. A
        uniformly random order gives a uniformly random allowed target, usually for one check."""
        if not self.hi:
            return None
        pool = set(self.pool)
        return next((t for t in order if t in pool and self.allowed(t)), None)

    def choice(self) -> SkillChoice | None:
        """The skill as the listing lists it (every target asked), or None where no use of it is
        accepted."""
        game, p, skill, lo, hi = self._game, self._p, self.skill, self.lo, self.hi
        usable = lo == 0 and self._ok([])
        targets = [t for t in self.pool if self.allowed(t)] if hi else []
        if not (usable or targets):
            return None
        group_acted = bool(skill.group) and any(a.group == skill.group and a.skill == skill.name for a in game.actions)
        # the counts the check accepts (not the declared range: 异端 takes exactly half)
        counts = ([0] if usable else []) + (self.sizes() if targets else [])
        lo, hi = (min(counts), max(counts)) if counts else (lo, hi)
        # each closed --arg's values that some accepted action takes, with targets it accepted
        samples = ([[]] if usable else []) + self._hits
        args = self.arg_values(samples) if self.declared else shown_args(skill, self.declared)
        paired = self.arg_with(samples, args) if self.declared else {}
        return SkillChoice(
            player=p.name, skill=skill.name, targets=targets, min_targets=lo, max_targets=hi,
            args=args, forced="强制" in skill.tags, group=skill.group,
            group_acted=group_acted, submitted=any(a.skill == skill.name and a.actor == p.name for a in game.actions),
            uses=p.uses.get(skill.name) if skill.uses is not None else None, immediate=skill.immediate,
            optional_args=[k for k, v in self.declared.items() if "" in v], arg_with=paired)


def first_allowed(game: Game, player: str, skill: str, order, values: dict | None = None) -> str | None:
    """The first name of ``order`` that ``seat_choices`` lists among ``skill``'s targets for
    ``player`` now (None: none, or the skill is not listed), asking the targets in that order
    and no further."""
    test = next((t for t in skill_tests(game, player, values) if t.skill.name == skill), None)
    return test.first(order) if test is not None else None


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
    SkillTest(game, p, sk, acquired, declared, found).choice()
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
    test = vote_test(game, player)
    return test.listing() if test is not None else None


def first_vote(game: Game, player: str, order) -> str | None:
    """The first name of ``order`` that ``vote_choices`` lists for ``player`` now (None: none,
    or the seat may not vote), asking the targets in that order and no further."""
    test = vote_test(game, player)
    return test.first(order) if test is not None else None


def vote_test(game: Game, player: str) -> VoteTest | None:
    """``check_vote`` in its parts: the voter's (``check_voter``, ``check_vote_change``) asked
    now, once; None where they refuse (the seat may not vote). Each target is asked by the
    ``VoteTest`` when wanted: all of them (``listing``: ``vote_choices``), or in an order until
    one is accepted (``first``)."""
    if not game.phase.vote or game.winner is not None:
        return None
    p = game.player(player)
    if not p.alive:
        return None
    change = any(b.voter == p.name for b in game.ballots)
    post = 1 if game.manifest.vote.post == "required" else None
    ev = VoteEvent(phase=game.label, voter=p.name, target="", change=change, post=post)
    try:
        voter = game.check_voter(ev)
        game.check_vote_change(voter, ev)
    except GameError:
        return None
    # the ballot check_ballot would make, built once a seat and given each target
    return VoteTest(game, game.ballot_of(voter, ev), voter, phase_votes(game))


#: each game's vote listing of the phase (``PhaseVotes``), while it holds
_PHASE_VOTES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class PhaseVotes:
    """The phase's one vote listing, the same for every voter: each target's own check
    (``vote_target_refused``: the abstain word, who is in the game, the run-off's names), asked
    once a target; and whether the rules check ballots (``bansha_validate_vote``), whose
    per-voter exceptions each seat's ``VoteTest`` asks of its own ballot. Kept while only
    ballots are applied (a ballot changes no target's answer): any other event, another phase
    or another count of exits makes a new one (``phase_votes``)."""

    def __init__(self, game: Game, key: tuple):
        self.key = key
        #: how many of the game's events were looked at (only ballots since ``key`` was taken)
        self.seen = len(game.applied)
        #: who may be named at all: the players (seat order), then the abstain word
        self.candidates = (*game.players, game.manifest.vote.abstain)
        #: a rule checks each ballot (no rule does on qisha-xia: the targets' answers are the listing)
        self.ruled = game.hook.implemented("bansha_validate_vote")
        #: each target asked so far: whether ``vote_target_refused`` lets it be named
        self.targets: dict[str, bool] = {}


def phase_votes(game: Game) -> PhaseVotes:
    """The game's ``PhaseVotes`` now: the one kept, if nothing but ballots was applied since
    it was made in this phase, else a new one."""
    applied = game.applied
    key = (id(applied), game.label, game.window, len(game.exits), id(game.scheduled.get(game.phase.name)))
    pv = _PHASE_VOTES.get(game)
    if pv is not None and pv.key == key:
        n = len(applied)
        if pv.seen <= n and all(type(e) is VoteEvent for e in itertools.islice(applied, pv.seen, n)):
            pv.seen = n
            return pv
    pv = _PHASE_VOTES[game] = PhaseVotes(game, key)
    return pv


class VoteTest:
    """The targets of one seat's vote, asked one by one: the target's check
    (``vote_target_refused``, once a phase for every voter: ``PhaseVotes``), then the rules'
    (``validate_ballot``) of the ballot naming it."""

    def __init__(self, game: Game, ballot, voter: Player | None = None, phase: PhaseVotes | None = None):
        self._game = game
        self._ballot = ballot
        #: the voter whose own checks (``check_voter``, ``check_vote_change``) accepted it: a
        #: target allowed here, sent with nothing applied since, needs only the rules' check of
        #: its ballot (``Game.apply``'s ``checked``)
        self._voter = voter
        self._phase = phase = phase if phase is not None else PhaseVotes(game, ())
        #: who may be named at all: the players (seat order), then the abstain word
        self.candidates = phase.candidates
        # no rule checks a ballot (qisha-xia): what the kernel accepts is the answer
        self._ruled = phase.ruled
        #: each target asked so far: whether it is allowed
        self.asked: dict[str, bool] = {}

    def allowed(self, target: str) -> bool:
        """Whether ``vote`` accepts a ballot for ``target`` (one of ``candidates``)."""
        hit = self.asked.get(target)
        if hit is None:
            hit = self.asked[target] = self._allowed(target)
        return hit

    def _allowed(self, target: str) -> bool:
        targets = self._phase.targets
        ok = targets.get(target)
        if ok is None:
            ok = targets[target] = self._game.vote_target_refused(target) is None
        if not ok:
            return False
        if not self._ruled:
            return True
        try:
            self._game.validate_ballot(msgspec.structs.replace(self._ballot, target=target))
        except GameError:
            return False
        return True

    def first(self, order) -> str | None:
        """The first name of ``order`` (any iterable) ``listing`` holds, asking none after it."""
        cands = set(self.candidates)
        return next((t for t in order if t in cands and self.allowed(t)), None)

    def listing(self) -> list[str] | None:
        """Every target accepted, in ``candidates``' order; None: none."""
        return [t for t in self.candidates if self.allowed(t)] or None


def owed(game: Game, choices: dict[str, list[SkillChoice]] | None = None) -> list[SkillChoice]:
    """What ``resolve``'s guard lists as still owed: every 【强制】 skill a seat may send now and
    neither it nor its group has sent."""
    choices = all_choices(game) if choices is None else choices
    return [c for cs in choices.values() for c in cs if c.forced and not c.submitted and not c.group_acted]


# ------------------------------------------------------------------------------- the count


def vote_rule_line(game: Game, count: VoteCount) -> str:
    """The threshold and tie line of a count, from the rule that made it (``VoteCount``'s
    ``threshold``, ``needed`` and ``tie``): what ``status`` prints, so that it says what the
    count does ("出局门槛：最高票出局（平票抽签决定出局者）" where the board draws lots)."""
    from bansha.text.messages import say

    lang = game.lang
    if count.threshold and count.needed is not None:
        threshold = say("lv_rule_share", lang, pct=f"{count.threshold:.0%}", needed=count.needed)
    else:
        threshold = say("lv_rule_plurality", lang)
    if count.tie in ("none", "draw", "all"):
        tie = say(f"lv_tie_{count.tie}", lang)
    else:
        tie = say("lv_tie_runoff", lang, phase=game.phase_word(count.tie))
    return say("lv_rule", lang, threshold=threshold, tie=tie)


def count_votes(game: Game) -> VoteCount | None:
    """The count ``resolve`` would make now (weights, forced and void ballots, extra votes,
    immunity): the phase resolved on a private copy, read from its vote step. None where the
    phase takes no vote."""
    if not game.phase.vote or game.winner is not None:
        return None
    from bansha.engine.copies import copy_game
    from bansha.engine.engine import SILENT

    g = copy_game(game)
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
