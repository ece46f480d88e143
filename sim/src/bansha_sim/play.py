"""Play one game with policies as players: dealt and played with one seed, so any game of a
simulation can be played again (``play_game(..., keep=True)`` returns its event log)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

# what a skill's ``arg_values`` stand for: the kernel's one reading, which the CLI's status and
# the web forms read too
from bansha.engine.choices import (  # noqa: F401 (the sim's tests import them here)
    SkillTest,
    arg_kinds,
    expand,
    expand_kind,
    skill_tests,
    vote_choices,
    vote_test,
)
from bansha.engine.engine import Game
from bansha.engine.history import final_votes
from bansha.engine.model import ActEvent, GameError, ResolveEvent, RulingEvent, Setup, VoteEvent
from bansha.engine.registry import ruleset_for

from .boards import coupled_deal, manifest_of
from .policies import Choice, Seat, choice, load_policy
from .stats import seat_records, skill_counts


def _manifest(board):
    """A board (a ruleset reference, or ``(ref, edits)``: ``bansha_sim.boards``)."""
    return manifest_of(board)


@lru_cache(maxsize=8)
def _policy(name: str):
    return load_policy(name)


def new_game(ruleset, seats: int, seed: int, options: dict[str, Any],
             names: list[str] | None = None) -> tuple[Setup, Game]:
    """Dealt by ``coupled_deal`` (bansha_sim.boards): two boards sharing roles deal them to the
    same seats of a seed, so their games can be compared seed by seed. ``names``: the seats'
    names (default ``P01``, ``P02`` …)."""
    m = _manifest(ruleset)
    ruleset_for(m)  # an unknown role or plugin is refused here
    names = list(names) if names else [f"P{i:02d}" for i in range(1, seats + 1)]
    setup = Setup(ruleset=m.id, manifest=m, players=coupled_deal(m, names, seed), seed=seed,
                  options=dict(options))
    return setup, Game(setup)


def table_of(game):
    """The public table at this seat count (who plays which camp's roles), or None."""
    return next((t for t in game.manifest.tables if t.seats == len(game.players)), None)


def role_camps(game) -> dict[str, str]:
    """Each role of the ruleset with its camp (public: the ruleset's documents)."""
    return {r.name: r.camp for r in game.ruleset.roles.values() if r.camp}


def choices_for(game: Game, p, kinds: dict | None = None) -> list[Choice]:
    """The skills ``p`` may send now, as the one listing has them (``bansha.engine.choices.seat_listing``:
    what the CLI's ``status`` and the web forms show, made by asking the engine's checks): the
    targets ``act`` accepts, the count range, the declared values of each ``--arg``.

    A players-as-keys argument (light-shadow's 猜测: ``--arg P03=国王 …``, one key for each player
    of the other nation) cannot be listed as values: the listing offers such a skill only when
    one of its few trial sets is accepted, and a guess is accepted only when it names the whole
    other nation. Such a skill is offered here when the engine's ``check_skill`` accepts it (a
    use left, its day), with the values its keys take; what the policy makes of it is checked by
    the engine (``Game.check``) before it is sent (``_send``)."""
    return _choices(game, p, kinds)[0]


def _choices(game: Game, p, kinds: dict | None = None, one_pick: bool = False,
             tests_out: dict | None = None) -> tuple[list[Choice], list]:
    """``choices_for``, and the listing's own choices (``SkillChoice``) it was made from.

    ``one_pick``: for a policy that needs one allowed target of a skill, not the set
    (``Policy.one_pick``): a skill of targets (and no players-as-keys argument) is handed over unasked, as its
    ``SkillTest`` (``Choice.test``): of one target, the listing's own question of a target, asked in the
    policy's order until one is allowed; of several (or of none to some: ``lo != hi`` or
    ``hi > 1``), its declared range of counts and who may be named at all (``SkillTest.pool``),
    the pick drawn from them asked of the engine's check before it is sent (the whole listing
    asks every target with rings of others at every count: 芬芳's took 14 ms). Its
    ``SkillChoice`` is then not made (the second
    value holds the test in its place: ``_listing_of`` makes the listing when a view wants it).
    Such a policy draws a listed skill's args (one of no target) from the values the listing lists
    (``_listed_values``), an unasked one's from the declared values; a policy of the whole listing (``informed``) from the declared ones,
    as before (its games stay as they were; what it draws is checked before it is sent).
    ``tests_out``: given, it receives each skill's ``SkillTest`` (by name), whose accepted
    actions are sent without a second check (``_send``)."""
    kinds = kinds if kinds is not None else arg_kinds(game)
    tests = skill_tests(game, p.name, kinds)
    if tests_out is not None:
        tests_out.update((t.skill.name, t) for t in tests)
    out = []
    listing = []
    # the skills ``check_skill`` accepts now, in the order of ``sendable_skills``: a skill it
    # refuses is not offered
    for test in tests:
        skill = test.skill
        keys = any(k.startswith("<") for k in skill.args)
        if one_pick and not keys and (test.lo == test.hi == 1 or test.hi > 1 or test.lo != test.hi):
            # one target, or several (a count of the declared range): handed over unasked, with
            # the declared values of its args; a pick of several targets is drawn from who may
            # be named (``SkillTest.pool``) and checked by the engine before it is sent
            listing.append(test)
            out.append(choice(skill=skill.name, lo=test.lo, hi=test.hi, candidates=(), args=tuple(skill.args),
                              does=tuple(skill.does), group=skill.group, per_phase=skill.per_phase, test=test,
                              values={k: v for k, v in test.declared.items() if not k.startswith("<")}))
            continue
        if one_pick and keys and skill.targets == 0 and not skill.max_targets:
            # a guess (players as keys, no targets): the listing's few trial sets say nothing of
            # the guess a policy makes, which is checked before it is sent; its listing is made
            # only when a view wants it
            c = None
            listing.append(test)
        else:
            c = test.choice()
        if c is not None:
            listing.append(c)
            declared = test.declared
            keyed = next((declared[k] for k in skill.args if k.startswith("<") and k in declared), None)
            out.append(choice(skill=skill.name, lo=c.min_targets, hi=c.max_targets, candidates=tuple(c.targets),
                              args=tuple(skill.args), does=tuple(skill.does), group=skill.group,
                              values=_listed_values(declared, c.args) if one_pick else
                              {k: v for k, v in declared.items() if not k.startswith("<")},
                              keyed=keyed, per_phase=skill.per_phase, pairs=(c.arg_with or None) if one_pick else None))
        elif skill.targets == 0 and keys and skill.phases:
            keyed = next((expand(skill.arg_values[k], kinds, game, p) for k in skill.args
                          if k.startswith("<") and k in skill.arg_values), None)
            if not keyed:
                continue
            out.append(choice(skill=skill.name, lo=0, hi=0, candidates=(), args=tuple(skill.args),
                              does=tuple(skill.does), group=skill.group, keyed=keyed, per_phase=skill.per_phase,
                              values={k: v for k, v in test.declared.items() if not k.startswith("<")}))
    return out, listing


def _listed_values(declared: dict, listed: dict) -> dict:
    """Each --arg's declared values (``SkillTest.declared``) that the listing lists
    (``SkillChoice.args``: a value some accepted action takes; ``""``, where the arg may be left
    out, kept): an arg the listing does not offer (it may be left out and takes no value now)
    keeps ``""`` alone (drawn, it is left out: a policy's draws stay as many); one of free text
    (None) keeps its declared examples."""
    out = {}
    for k, vals in declared.items():
        if k.startswith("<"):
            continue
        shown = listed.get(k, ())
        if shown is None:
            out[k] = vals
        else:
            keep = set(shown)
            out[k] = tuple(x for x in vals if x == "" or str(x) in keep)
    return out


def _listing_of(game: Game, name: str, listing: list, ballot, voted: bool):
    """For a seat of a policy of one pick: its listing (``seat_choices``, ``vote_choices``) made
    when its view is first read, from the questions already asked (``SkillTest.choice``,
    ``VoteTest.listing``: each target is asked once). The view is read before anything is sent."""
    def made():
        skills = [c for c in (x.choice() if isinstance(x, SkillTest) else x for x in listing) if c is not None]
        if voted:  # the listing offers a change, which the seat does not send
            return skills, vote_choices(game, name)
        return skills, (ballot.listing() if ballot is not None else None)
    return made


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


def _send(game, log: list, events, listed: int, counts: dict) -> bool:
    """Send the first of ``events`` (a policy's picks in its order of preference, each as
    (whether the listing guarantees it, the event, what the listing's check gave for it or None,
    the check of its args alone or None: ``_args_check``)) the engine accepts, and log it. A pick the listing made just now (``listed``: the game's event count
    then) guarantees is sent as it is: one target of the listed ones, or none where the skill
    takes none, of a skill without args (the listing tried exactly that action), or a listed
    vote target. Any other pick (several targets, args, a keyed guess, or after the seat's own
    event changed the game) is asked of the engine's check first (``Game.check``,
    ``Game.check_vote``: what ``act`` and ``vote`` run; where the listing asked the skill and
    these very targets with nothing applied since, the rest of it: ``Game.check_args``); a pick it refuses is counted in
    ``counts["ruled_out"]`` and never sent. ``counts["refused"]``: sent and refused (0, or the
    listing and the engine disagree). A pick goes with what the check gave for it (the
    listing's or the one just asked: the action, the ballot or the voter, ``Game.apply``'s
    ``checked``), so it is checked once.
    False: no pick was accepted."""
    for sure, ev, checked, args_only in events:
        if not (sure and len(game.applied) == listed):
            try:
                # what the check gave is sent (nothing is applied between): not checked again
                if args_only is not None and len(game.applied) == listed:
                    # the listing asked the skill and these very targets of this state: only the
                    # args are left to ask (``check_use``'s second part)
                    checked = args_only()
                else:
                    checked = game.check_vote(ev) if isinstance(ev, VoteEvent) else game.check(ev)
            except GameError:
                counts["ruled_out"] += 1
                continue
        try:
            game.apply(ev, checked)
        except GameError:
            counts["refused"] += 1
            continue
        log.append(ev)
        return True
    return False


def _args_check(game: Game, c: Choice | None, test: SkillTest | None, targets, args):
    """For a pick with args whose skill and targets the listing asked of this state (one target
    its ``SkillTest`` allowed, of a skill of one target; or none, of a skill of none the listing
    offered): the rest of ``Game.check`` for it, ``Game.check_args`` (``check`` is
    ``check_skill``, ``check_targets``, then ``check_args``: the first two answered already),
    asked by ``_send`` only with nothing applied since the listing. None: ``Game.check``."""
    if c is None or test is None or not args or c.keyed is not None:
        return None
    if targets:
        if not (len(targets) == 1 and test.lo == test.hi == 1 and test.asked.get(targets[0]) is True):
            return None
    elif not (c.test is None and c.hi == 0 and test.hi == 0):
        return None  # a skill of no targets is asked them (``check_targets([])``) when the listing made it
    return lambda: game.check_args(test._p, test.skill, test._acquired, list(targets), args)


def _listed(c: Choice | None, targets, args) -> bool:
    """The listing tried exactly this action: a skill without args, on one listed target (or on
    none, where it takes none), or on one target its ``SkillTest`` allowed."""
    if c is None or c.args or args:
        return False
    if c.test is not None:
        # a target its test allowed stands alone only where the skill takes exactly one (of a
        # skill of several, it is part of some accepted choice)
        return c.lo == c.hi == 1 and len(targets) == 1 and c.test.asked.get(targets[0]) is True
    if len(targets) == 1:
        # where more may be chosen, a listed target may stand on a larger choice only
        return c.lo == c.hi == 1 and targets[0] in c.candidates
    return not targets and c.hi == 0


def play_game(ruleset: str, seats: int, seed: int, policy: str = "random", options: dict | None = None,
              day_limit: int = 30, keep: bool = False, windows: bool = False,
              names: list[str] | None = None) -> dict[str, Any]:
    """Deal with ``seed`` and play until a camp wins, a draw, or the day limit (unfinished).

    ``windows``: a phase with action windows (m217's night: 早夜, 午夜, 深夜, 凌晨) is closed one
    window at a time, as ``bansha resolve --window`` does, and the seats choose again before
    each window (a skill gained in an earlier window is then usable); otherwise every phase is
    closed whole, its input all sent first. ``names``: the seats' names (``new_game``)."""
    setup, game = new_game(ruleset, seats, seed, options or {}, names)
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
    counts = {"ruled_out": 0, "refused": 0}  # the policies' picks the engine's check ruled out; sent and refused
    memo: dict = {}  # the policy's own memory of this game (``Seat.memo``)
    # public: the vote record of each closed vote phase, as the phase's post publishes it
    # (bansha.engine.history.final_votes: each voter's standing vote), and each role's camp (the ruleset)
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
    # a phase of several windows is several passes of this loop
    passes = 8 + (max((len(ph.windows) for ph in game.manifest.phases), default=1) if windows else 0)
    while game.winner is None and game.day <= day_limit and phases < passes * (day_limit + 2):
        phases += 1
        label = game.label
        begin = len(log)
        voting = game.phase.vote
        floor = 0  # the ballots of the phase are its vote thread's posts 1, 2, … (幻觉三 reads them)
        for p in list(game.players.values()):
            if game.winner is not None or game.label != label:
                break
            tests: dict = {}
            if game.sendable_skills(p):
                choices, listing = _choices(game, p, kinds, pol.one_pick, tests)
            elif p.alive and voting:
                choices, listing = [], []  # a vote, no skill: the listing has no skill to ask
            else:
                continue  # nothing it may send now (the index of what may be sent), no vote
            # a seat that has voted (a ballot a rule cast for it) leaves it standing: the listing
            # would offer it a change
            voted = voting and any(b.voter == p.name for b in game.ballots)
            if pol.one_pick:
                # one pick of a ballot: its targets asked in the policy's order (``Seat.vote_test``)
                ballot = vote_test(game, p.name) if not voted else None
                if not choices and ballot is None:
                    continue
                listed = len(game.applied)
                seat = Seat(game, p.name, choices, None, f"{rng}/{label}/{p.name}", camps, table, memo,
                            record, roles, _listing_of(game, p.name, listing, ballot, voted), ballot)
                # a ballot its test allowed is sent as it is
                sure = ballot.asked.get if ballot is not None else {}.get
            else:
                ballot = vote_test(game, p.name)  # vote_choices' question, asked of every target
                vote_listing = ballot.listing() if ballot is not None else None
                votes = vote_listing if not voted else None
                if not choices and not votes:
                    continue
                listed = len(game.applied)
                seat = Seat(game, p.name, choices, votes, f"{rng}/{label}/{p.name}", camps, table, memo,
                            record, roles, (listing, vote_listing))
                sure = set(votes or ()).__contains__
            d = pol.decide(seat)
            for skill, options_, args in d.actions:
                c = next((x for x in choices if x.skill == skill), None)
                if len(game.applied) != listed:
                    # the seat's own event changed the game since the listing: a skill the
                    # engine now refuses whatever the pick (its uses spent, 大奖) is passed over
                    held = game.skills_of(p).get(skill)
                    if held is None or game.skill_refused(p, held[0]) is not None:
                        continue
                # an option is its targets, or (targets, its own args)
                test = tests.get(skill)
                _send(game, log, (
                    (sure_, ActEvent(phase=label, actor=p.name, skill=skill, targets=list(targets), args=dict(a)),
                     test._accepted.get(tuple(targets)) if sure_ and test is not None else None,
                     None if sure_ else _args_check(game, c, test, targets, dict(a)))
                    for targets, a in (o if isinstance(o, tuple) else (o, args) for o in options_)
                    for sure_ in (_listed(c, targets, a),)), listed, counts)
                if game.winner is not None or game.label != label:
                    break
            if game.winner is None and game.label == label and d.votes and game.phase.vote and p.alive:
                voter = ballot._voter if ballot is not None else None
                if _send(game, log, ((sure(t) is True, VoteEvent(phase=label, voter=p.name, target=t, post=floor + 1), voter,
                                      None) for t in d.votes), listed, counts):
                    floor += 1
        if game.winner is None and game.label == label:
            log += answer_rulings(game, pol, rng, camps, table, memo)
        if game.winner is not None:
            break
        ev = ResolveEvent(phase=game.label, window=windows and bool(game.phase.windows))
        try:
            game.apply(ev)
        except GameError:
            stuck = True  # the phase cannot close (a ruling awaited): the game cannot progress
            break
        log.append(ev)
        if voting:
            spans[label] = (begin, len(log))
    causes: dict[str, int] = {}
    for _, _, kind in game.exits:  # the exits as data (``Game.exits``), not parsed from the trace
        causes[kind] = causes.get(kind, 0) + 1
    winners = list(game.winner or [])
    out = {
        "seed": seed,
        "winners": winners,
        "draw": bool(game.draw),
        "unfinished": game.winner is None,
        "stuck": stuck,
        "days": game.day,
        "players": seat_records(game),
        "causes": causes,
        # each skill's uses this game (sent and accepted): the role effects' usage counts
        "skills": skill_counts(game, log),
        "n_events": len(log),
        **counts,
    }
    if keep:
        out["setup"] = setup
        out["events"] = log
    return out


def play_chunk(ruleset: str, seats: int, seeds: list[int], policy: str, options: dict, day_limit: int) -> list[dict]:
    import structlog

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(30))
    return [play_game(ruleset, seats, s, policy, options, day_limit) for s in seeds]
