"""Policies: a simulated player. A policy gets a ``Seat`` — the player's own view (the same
``bansha.show.views.player_view`` as ``bansha status --as``), the legal choices now and a seeded
random source — and returns a ``Decision``. It never reads the game.

Policies are found in the entry-point group ``bansha.policies`` (name -> a class or factory
taking no argument), so another distribution can add a smarter one.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import MISSING, dataclass, field, fields
from typing import Any

# functools.cached_property without its lock (a Seat's every first read took it)
from bansha.engine.choices import lazy as cached_property

from .draws import Draws


@dataclass(frozen=True)
class Choice:
    """One skill usable now, as the one listing has it (``bansha.engine.choices.seat_listing``, what
    ``status`` and the web forms show): its name, how many targets (``lo``–``hi``), the players
    ``act`` accepts as its targets now (alone, or as part of a choice of several), the ``--arg``
    keys it documents and what it does for a policy (``Skill.does``)."""

    skill: str
    lo: int
    hi: int
    candidates: tuple[str, ...]
    args: tuple[str, ...] = ()
    does: tuple[str, ...] = ()
    group: str | None = None
    #: the values each ``--arg`` takes (``Skill.arg_values`` expanded now, ``play.expand``; "": left
    #: out; whole numbers where the CLI would read them, a "post")
    values: dict[str, tuple] = field(default_factory=dict)
    #: a players-as-keys argument (猜测's ``--arg 梦见=国王``): the values each key takes, or None
    keyed: tuple[str, ...] | None = None
    #: how many times it may be sent this phase
    per_phase: int = 1
    #: the listing's pairing of its args (``SkillChoice.arg_with``: an arg that may be left out
    #: and is taken only beside some values of another, arg -> {other arg: those values}: 光影传说's
    #: 窥探 at 14 seats takes a mage number only with 法师), or None: ``draw_args`` draws a
    #: combination that keeps it. Given to a policy of one pick (``random``) only
    pairs: dict[str, dict[str, list[str]]] | None = None
    #: for a policy that needs one pick (``Policy.one_pick``), a skill of targets (and no
    #: players-as-keys argument) comes unasked (``bansha.engine.choices.SkillTest``, the listing's
    #: own question): ``candidates`` is empty. Of one target (``lo == hi == 1``),
    #: ``test.first(order)`` is the first of ``order`` the listing would list; of several (or of
    #: none to some), ``lo``–``hi`` is the declared range of counts, ``test.pool`` who may be named
    #: at all and ``values`` the declared values, and a pick is checked by the engine before it
    #: is sent (a count or a set the rules refuse is ruled out, never sent)
    test: Any = None


#: each field of ``Choice`` with a default value, and those made anew (``values``)
_CHOICE_DEFAULTS = {f.name: f.default for f in fields(Choice) if f.default is not MISSING}
_CHOICE_FACTORIES = {f.name: f.default_factory for f in fields(Choice) if f.default_factory is not MISSING}


def choice(**given) -> Choice:
    """A ``Choice`` as ``Choice(**given)`` makes it, without the frozen dataclass's
    ``__init__`` (one ``object.__setattr__`` a field: 8 µs, where the simulator makes one for
    each skill of each seat each phase). ``Choice`` has no ``__post_init__``: the fields are
    all it holds."""
    c = object.__new__(Choice)
    d = c.__dict__
    d.update(_CHOICE_DEFAULTS)
    for name, make in _CHOICE_FACTORIES.items():
        if name not in given:
            d[name] = make()
    d.update(given)
    return c


@dataclass
class Decision:
    """What a seat does this phase. ``actions``: (skill, [targets, …] in order of preference,
    args); an option may carry args of its own, ``(targets, args)``; the simulator sends the
    first the engine accepts, asking its check first where the listing does not guarantee a
    pick (``play._send``: nothing sent is refused). ``votes``: vote targets in order of preference (None: no vote).
    Either may be any iterable: a generator draws its next option only when one is refused."""

    actions: list[tuple[str, list[list[str]], dict[str, str]]] = field(default_factory=list)
    votes: list[str] | None = None


class Seat:
    """What a policy may see: ``name``, ``view`` (the player's view, built on first use),
    ``choices`` (skills usable now), ``vote`` (the players one may vote for, None when no vote
    is taken), ``rng`` (a random source seeded from the game's seed, the phase and the seat, or
    given), ``camps`` and ``table``
    (public: the manifest), ``memo`` (a dict that lives as long as the game: what a policy
    worked out from this seat's view and may carry on from next phase, never shared between
    games), ``votes`` (the published vote record of each closed vote phase) and ``roles`` (each
    role's camp); the announcements (exits and the identities they show, proclamations) are the
    view's. For a policy that needs one pick (``Policy.one_pick``), ``vote`` is None and
    ``vote_test`` (``bansha.engine.choices.VoteTest``, None: no vote) answers ``first(order)``: the first
    of ``order`` the vote listing would list."""

    def __init__(self, game, name: str, choices: list[Choice], vote: list[str] | None, rng,
                 camps: tuple[str, ...] = (), table: dict[str, tuple[str, ...]] | None = None,
                 memo: dict | None = None, votes: dict | None = None, roles: dict | None = None,
                 listing: list | None = None, vote_test=None):
        self._game = game
        self.vote_test = vote_test
        #: (the seat's ``bansha.engine.choices.seat_choices``, its ``vote_choices``) of this state, which
        #: ``choices`` and ``vote`` were made from, or a function making them: the view shows
        #: them (given, the view does not list them again)
        self._listing = listing
        #: the vote record of each closed vote phase, as its post publishes it: label -> [(voter,
        #: target), …] (each voter's standing vote)
        self._votes = votes if votes is not None else {}
        #: each role of the ruleset with its camp (public: the ruleset's documents)
        self.roles = roles or {}
        self.memo = memo if memo is not None else {}
        #: the board's camp names (public: the manifest)
        self.camps = camps
        #: the table's roles of each camp when the board deals by camp (光影传说), else empty
        self.table = table or {}
        self.name = name
        self.choices = choices
        self.vote = vote
        if isinstance(rng, str):
            self._rng_seed = rng  # seeded on first use (``rng``): most seats of mafia-basic draw once
        else:
            self.rng = rng

    @cached_property
    def votes(self) -> dict[str, list[tuple[str, str]]]:
        """The vote record of each closed vote phase (given, or made on first use)."""
        return self._votes() if callable(self._votes) else self._votes

    @cached_property
    def rng(self):
        return Draws(self._rng_seed)

    @cached_property
    def _plain(self) -> dict[str, Any]:
        from bansha.show.views import player_view

        # the view without the seat's listing, which ``choices`` and ``vote`` hold
        return player_view(self._game, self.name, [], None)

    @cached_property
    def card(self) -> dict[str, Any]:
        """The seat's own part of its view (``view["you"]``: its name, role, camp, statuses, uses,
        group … and what the rules add) without the listing (``choices``, ``vote``: the seat's
        ``choices`` and ``vote``/``vote_test`` hold them). Made without listing the seat's
        choices, which ``view`` does for a policy of one pick: what such a policy reads."""
        return self._plain["you"]

    @cached_property
    def players(self) -> list[dict[str, Any]]:
        """Who sits at the table and who is in the game, as the view shows them
        (``view["players"]``), made without listing the seat's choices."""
        return self._plain["players"]

    @cached_property
    def view(self) -> dict[str, Any]:
        from bansha.show.views import player_view

        if self._listing is None:
            return player_view(self._game, self.name)
        if callable(self._listing):  # made when first wanted (a policy of one pick)
            return player_view(self._game, self.name, *self._listing())
        return player_view(self._game, self.name, *self._listing)


class Policy:
    name = "base"
    #: it needs one allowed pick of a skill or a ballot, not the set: the simulator hands over
    #: the listing's questions unasked (``Choice.test``, ``Seat.vote_test``) instead of the
    #: listing, and each is asked in the policy's order only until one is allowed
    one_pick = False

    def decide(self, seat: Seat) -> Decision:  # pragma: no cover - interface
        raise NotImplementedError

    #: the free text a seat has the director announce (摄魂's 公示)
    free_text = "我是好人。"

    def ruling(self, seat: Seat, kind: str, question: str, answers: list[str]) -> str:
        """A director's ruling the board waits for, concerning ``seat``: one of the answers
        offered, drawn (the simulator cannot read a question written in words), or, where
        the ruling takes a free text, ``free_text``."""
        return seat.rng.choice(answers) if answers else self.free_text


#: at most this many combinations are drawn for one pick until one keeps ``Choice.pairs``
PAIR_DRAWS = 16


def draw_args(rng, c: Choice) -> dict[str, str]:
    """Each declared ``--arg`` drawn uniformly from its values ("" leaves it out). Where the
    listing pairs them (``Choice.pairs``), the combination is drawn again until it keeps the
    pairing (up to ``PAIR_DRAWS`` times; the engine's check has the last word): uniform over the
    combinations that keep it."""
    for _ in range(PAIR_DRAWS if c.pairs else 1):
        out = {}
        for k, vals in c.values.items():
            v = rng.choice(vals) if vals else ""
            if v:
                out[k] = v
        if not c.pairs or _paired(out, c.pairs):
            break
    return out


def _paired(args: dict, pairs: dict[str, dict[str, list[str]]]) -> bool:
    """``args`` keeps ``pairs`` (``Choice.pairs``): each arg given among them with a value of
    each other arg that the listing pairs it with."""
    for k, others in pairs.items():
        if k in args:
            for k2, allowed in others.items():
                if str(args.get(k2, "")) not in allowed:
                    return False
    return True


def draw_keyed(rng, c: Choice, seat: Seat, pool: list[str]) -> dict[str, str]:
    """A players-as-keys argument drawn at random: where the table deals by camp, as many
    players as sit outside one's camp, given the other camps' roles in a random order (what
    the table makes public); else some players, each given a uniform value."""
    mine = seat.card.get("camp")
    if seat.table and mine in seat.table:
        others = [r for camp, roles in seat.table.items() if camp != mine for r in roles]
        if len(pool) < len(others):
            return {}
        rng.shuffle(others)
        return dict(zip(rng.sample(pool, len(others)), others, strict=True))
    names = rng.sample(pool, rng.randint(1, len(pool))) if pool else []
    return {n: rng.choice(c.keyed) for n in names} if c.keyed else {}


class RandomPolicy(Policy):
    """Uniform over the legal choices: every usable skill on uniformly drawn targets and
    arguments (a refused draw is drawn again, up to ``tries`` times, so the accepted one is
    uniform over the accepted ones); the vote for a uniformly drawn player among those one may
    vote for. The draws are lazy: a draw is made only when the one before it was refused.

    A skill of several targets (or of none to some) is drawn without its listing: a count
    uniform over the declared range (at most as many as may be named), that many players of
    who may be named at all (``SkillTest.pool``) in a uniformly random order, each arg uniform
    over its declared values. Within a count the accepted pick is uniform over the accepted
    picks of that count; a count is kept in proportion to the share of its draws the engine
    accepts (a count the rules refuse, 芬芳's X or 异端's half, is drawn and ruled out)."""

    name = "random"
    tries = 8
    one_pick = True

    def decide(self, seat: Seat) -> Decision:
        rng = seat.rng
        d = Decision()
        for c in seat.choices:
            if c.test is not None and not c.lo == c.hi == 1:
                # several targets (or none to some), unasked: a count and a set drawn from who
                # may be named at all, each checked by the engine before it is sent
                pool = list(c.test.pool)
                for _ in range(c.per_phase):
                    if c.lo > len(pool):
                        break
                    d.actions.append((c.skill, self._draws(rng, c, pool), {}))
                continue
            if c.test is not None:
                # one target: the first allowed target of a uniformly random order is uniform
                # over the allowed ones (usually one question of the engine, not one a player)
                for _ in range(c.per_phase):
                    if c.args:
                        d.actions.append((c.skill, self._tested(rng, c), {}))
                        continue
                    t = c.test.first(rng.order(c.test.names))
                    if t is None:
                        break
                    d.actions.append((c.skill, [[t]], {}))
                continue
            pool = list(c.candidates)
            if c.keyed is not None:
                others = [q["name"] for q in seat.players if q["name"] != seat.name]
                d.actions.append((c.skill, self._keyed(rng, c, seat, others), {}))
                continue
            for _ in range(c.per_phase):
                if c.lo > len(pool):
                    break
                d.actions.append((c.skill, self._draws(rng, c, pool), {}))
        if seat.vote_test is not None:
            t = seat.vote_test.first(rng.order(seat.vote_test.candidates))
            d.votes = [t] if t is not None else None
        elif seat.vote:
            d.votes = (rng.choice(seat.vote) for _ in range(self.tries))
        return d

    def _draws(self, rng, c: Choice, pool: list[str]):
        for _ in range(self.tries):
            k = c.lo if c.lo == c.hi else rng.randint(c.lo, min(c.hi, len(pool)))
            yield (rng.sample(pool, k), draw_args(rng, c))

    def _tested(self, rng, c: Choice):
        # the allowed targets in a uniformly random order, each with arguments drawn (the engine's
        # check asks the args before it is sent)
        order = rng.order(c.test.names)
        for _ in range(self.tries):
            t = c.test.first(order)
            if t is None:
                return
            yield ([t], draw_args(rng, c))

    def _keyed(self, rng, c: Choice, seat: Seat, others: list[str]):
        # one draw: a guess of every player's identity is refused unless it names exactly the
        # right players, which a retry barely helps (1 in 462 at 12 seats), and each refusal
        # costs the engine a whole check
        a = draw_keyed(rng, c, seat, others)
        if a:
            yield ([], a)


_OUT = "（出局）"
_NO_ANSWER = "不告诉你"  # the boards' "no answer" (a protected or disrupted question)
_NO = "不是"  # a line ending in it denies what it names ("…是不是影之国的骑士？不是")


def identities(seat: Seat) -> dict[str, set[tuple[str, str]]] | None:
    """Where the table deals by camp (光影传说): the (camp, role) each other player may still
    hold, from the table (public) and the seat's feedback. A line naming one player and a camp
    and/or a role says that is what the player is ("…是影之国的。", "…是骑士。"); ending in 不是,
    that the player is not both ("…是不是影之国的骑士？不是"); with 不告诉你 it says nothing. A
    line that contradicts what is known (a hunter's disguise) is passed over. Then a slot held
    by as many players as it has seats leaves everyone else's, and a slot only as many players
    may hold is theirs."""
    if not seat.table:
        return None
    view = seat.view
    me = view["you"]
    names = [q["name"] for q in view["players"] if q["name"] != seat.name]
    texts = [fb["text"] for fb in view["feedback"]]
    # A player's feedback only grows, so the lines are read once a game: the seat's memo keeps
    # the knowledge after the lines read so far (``read``) and what the slots made of it
    # (``settled``); a phase with no new line reuses both. Any other change (a new card, a
    # player gone from the list, a line rewritten) reads everything again.
    sig = (me.get("camp"), me.get("role"), tuple(names))
    state = seat.memo.get(("identities", seat.name))
    if state is None or state["sig"] != sig or texts[:len(state["read"])] != state["read"]:
        slots = Counter((c, r) for c, roles in seat.table.items() for r in roles)
        slots[(me.get("camp"), me.get("role"))] -= 1
        state = {"sig": sig, "read": [], "slots": slots, "settled": None,
                 "dom": {n: {k for k, m in slots.items() if m > 0} for n in names},
                 "roles": sorted({r for _, r in slots}, key=len, reverse=True)}
        seat.memo[("identities", seat.name)] = state
    if state["settled"] is None or len(texts) > len(state["read"]):
        narrowed = _read_lines(seat, state, names, texts[len(state["read"]):])
        state["read"] = texts
        # the settling is a function of the knowledge alone: lines that told nothing new
        # (不告诉你, an answer already known) leave it as it was
        if narrowed or state["settled"] is None:
            state["settled"] = _settle(state["slots"], {n: set(d) for n, d in state["dom"].items()})
    # shared with the next phases while no line is new: read it, never change it
    return state["settled"]


def _read_lines(seat: Seat, state: dict, names: list[str], texts: list[str]) -> bool:
    """What each new feedback line says of one player, narrowing ``state["dom"]``; whether a
    line narrowed it."""
    dom, roles = state["dom"], state["roles"]
    narrowed = False
    for text in texts:
        if _NO_ANSWER in text:
            continue
        hit = [n for n in names if n in text]
        if len(hit) != 1:
            continue
        n = hit[0]
        tail = text.split(n, 1)[1]
        camp = min(((tail.find(c), c) for c in seat.camps if c in tail), default=(0, None))[1]
        role = min(((tail.find(r), r) for r in roles if r in tail), default=(0, None))[1]
        if camp is None and role is None:
            continue
        match = {k for k in dom[n] if camp in (None, k[0]) and role in (None, k[1])}
        if tail.rstrip("。？?！!").endswith(_NO):
            if camp is not None and role is not None and dom[n] - match:
                narrowed = narrowed or bool(match)
                dom[n] -= match
        elif match:
            narrowed = narrowed or match != dom[n]
            dom[n] = match
    return narrowed


def _settle(slots: Counter, dom: dict[str, set[tuple[str, str]]]) -> dict[str, set[tuple[str, str]]]:
    """A slot held by as many players as it has seats leaves everyone else's; a slot only as
    many players may hold is theirs (until nothing changes). The sets are narrowed in place; a
    holder of slot ``k`` is settled on it exactly when it holds one slot (``len(d) == 1``)."""
    live = [(k, m) for k, m in slots.items() if m > 0]
    ds = list(dom.values())
    changed = True
    while changed:
        changed = False
        for k, m in live:
            holders = [d for d in ds if k in d]
            if len(holders) < m:
                continue  # neither rule applies
            fixed = list(map(len, holders)).count(1)
            if fixed == len(holders):
                continue  # every holder settled on it: nothing to take or give
            if fixed >= m:
                for d in holders:
                    if len(d) != 1:
                        d.discard(k)
                changed = True
            elif len(holders) == m:
                for d in holders:
                    if len(d) != 1:
                        d.clear()
                        d.add(k)
                changed = True
    return dom


def settled_guess(seat: Seat, dom: dict[str, set[tuple[str, str]]]) -> dict[str, str] | None:
    """Every player outside the seat's camp with their role, once the knowledge settles each."""
    mine = seat.view["you"].get("camp")
    out = {n: next(iter(d))[1] for n, d in dom.items() if len(d) == 1 and next(iter(d))[0] != mine}
    need = sum(len(r) for c, r in seat.table.items() if c != mine)
    return out if len(out) == need and all(len(d) == 1 for n, d in dom.items() if n in out) else None


def flips(seat: Seat) -> dict[str, str]:
    """The identities the announcements show: a line naming one player and, after the name, a
    role of the ruleset ("P10被投票出局，身份是平民。"): player -> role. Read once a game (the
    announcements only grow)."""
    if not seat.roles:
        return {}
    anns = seat.view["announcements"]
    state = seat.memo.get("flips")
    if state is None:
        names = [q["name"] for q in seat.view["players"]]
        roles = sorted(seat.roles, key=len, reverse=True)
        state = seat.memo["flips"] = {"read": 0, "flips": {}, "names": names, "roles": roles}
    for a in anns[state["read"]:]:
        text = a["text"]
        hit = [n for n in state["names"] if n in text]
        if len(hit) != 1:
            continue
        tail = text.split(hit[0], 1)[1]
        role = min(((tail.find(r), r) for r in state["roles"] if r in tail), default=(0, None))[1]
        if role is not None:
            state["flips"][hit[0]] = role
    state["read"] = len(anns)
    return state["flips"]


def suspicion(seat: Seat, camp: str) -> Counter:
    """From what is public: a vote for a player later shown to be of ``camp`` counts against the
    voter, a vote for one shown to be of another camp for them (a group that votes together
    shows itself so)."""
    shown = flips(seat)
    score: Counter = Counter()
    if not shown or not camp:
        return score
    for ballots in seat.votes.values():
        for voter, target in ballots:
            role = shown.get(target)
            if role is None:
                continue
            score[voter] += 1 if seat.roles.get(role) == camp else -1
    return score


def fact_side(fact: dict, camp: str, seat: Seat) -> bool | None:
    """Whether a feedback line's fact (``bansha.engine.model.Fact`` as the view gives it) puts its
    player on the seat's side (True), against it (False), or says neither (None). A camp: the
    seat's or another; a role: its camp (the ruleset's documents, ``Seat.roles``); "not of a
    camp": against the seat where that camp is the seat's, and with it where the board has two
    camps and the camp is the other. A status or a skill used says no side."""
    what, value, holds = fact["what"], fact["value"], fact.get("holds", True)
    if what == "role":
        value = seat.roles.get(value)
        if value is None or not holds:
            return None
    elif what != "camp" or not camp:
        return None
    if holds:
        return value == camp
    if value == camp:
        return False
    return True if len(seat.camps) == 2 and camp in seat.camps else None


class InformedPolicy(Policy):
    """General play on the view alone: a harmful skill never on a known teammate or a player its
    feedback marks friendly, and first on a player its feedback marks hostile; a helpful one on a
    teammate or a player marked friendly (or itself); a check on someone not yet named in its
    feedback (where the table deals by camp, someone whose identity
    is not settled, asked about an identity still possible for them); the vote for a player
    marked hostile, never for a teammate, and a group votes together (the same pick, made from
    what every member knows). A players-as-keys argument (a guess of identities) is sent once
    the knowledge settles every player outside its camp, and not again after a wrong one.

    What a feedback line tells is read from its facts (``bansha.engine.model.Fact``: a player's camp or
    role, ``fact_side``) where it carries some, from its words (a camp's name after a player's)
    where it carries none."""

    name = "informed"
    #: whether it reads what is public (flips and vote records, ``suspicion``) besides its view's own lines
    reads_public = True

    def _knowledge(self, seat: Seat, dom) -> tuple[set[str], set[str], set[str], str]:
        view = seat.view
        me = view["you"]
        mates = {m.replace(_OUT, "") for m in me.get("group", [])}
        names = [p["name"] for p in view["players"]]
        hostile: set[str] = set()
        friendly: set[str] = set()
        camp = me.get("camp") or ""
        if dom is not None:
            for n, d in dom.items():
                camps = {c for c, _ in d}
                if camps == {camp}:
                    friendly.add(n)
                elif camp not in camps:
                    hostile.add(n)
            return mates, hostile - mates, friendly | mates, camp
        for fb in view["feedback"]:
            if "facts" in fb:
                # the line's facts (bansha.engine.model.Fact), as data: its words are not read
                for f in fb["facts"]:
                    side = fact_side(f, camp, seat)
                    if f["player"] != seat.name and side is not None:
                        (friendly if side else hostile).add(f["player"])
                continue
            text = fb["text"]
            for n in names:
                if n == seat.name or n not in text:
                    continue
                # "X是<camp>的" and the like: a camp word in a line naming one player
                tail = text.split(n, 1)[1]
                # the first camp word after the name says which side the line puts them on
                hits = sorted((tail.find(c), c) for c in seat.camps if c in tail)
                if not hits:
                    continue
                if hits[0][1] == camp:
                    friendly.add(n)
                else:
                    hostile.add(n)
        return mates, hostile - mates - friendly, friendly | mates, camp

    def _questions(self, seat: Seat, c: Choice, turn: list[list[str]], dom, known: dict) -> list:
        """The args of a check about each target of ``turn``, in its order: an identity still
        possible for them, one of another camp first; an argument that is not a camp or a role
        left out where it may be. ``known`` keeps, for this decision, each target's identities
        in sorted order."""
        mine = seat.view["you"].get("camp")
        camps = set(seat.camps)
        # per argument: its values, whether they are camps, whether it must be given
        spec = [(k, vals, set(vals) <= camps, "" not in vals and bool(vals)) for k, vals in c.values.items()]
        r = seat.rng.random
        out = []
        for t in turn:
            n = t[0]
            camp, role = None, None
            if dom and dom[n]:
                # one draw per identity in sorted order (a set's order moves with the
                # interpreter's hash seed), the least taken, another camp's first; on a tie of
                # draws the first in that order, as a stable sort takes it
                if n not in known:
                    opts = sorted(dom[n])
                    known[n] = (opts, [k[0] == mine for k in opts])
                opts, own = known[n]
                camp, role = min(zip(own, [r() for _ in opts], opts, strict=True))[2]
            a = {}
            for k, vals, of_camps, must in spec:
                if camp in vals and of_camps:
                    a[k] = camp
                elif role in vals:
                    a[k] = role
                elif must:
                    a[k] = seat.rng.choice(vals)
            out.append((t, a))
        return out

    def decide(self, seat: Seat) -> Decision:
        rng = seat.rng
        dom = identities(seat)
        mates, hostile, friendly, _ = self._knowledge(seat, dom)
        named = None  # the players a line of the feedback names: read when a check needs it
        known: dict = {}  # each player's identities in sorted order, for _questions
        d = Decision()
        for c in seat.choices:
            if c.keyed is not None:
                guess = settled_guess(seat, dom) if dom is not None else None
                wrong = any(fb["text"].endswith("错误。") for fb in seat.view["feedback"])
                if guess and not wrong:
                    # a settled guess wins at once: nothing else this phase
                    return Decision(actions=[(c.skill, [([], guess)], {})])
                continue
            pool = list(c.candidates)
            if "harm" in c.does:
                pool = [n for n in pool if n not in friendly and n != seat.name]
                first = [n for n in pool if n in hostile]
                if not first and not mates and self.reads_public:
                    score = suspicion(seat, seat.view["you"].get("camp") or "")
                    first = [n for n in pool if score[n] > 0]
            elif "help" in c.does:
                first = [n for n in pool if n in friendly or n == seat.name]
            elif "check" in c.does:
                pool = [n for n in pool if n not in mates and n != seat.name] or pool
                if dom is not None:
                    # a yes-or-no question (a check with arguments) on the nearest to settled; a
                    # check that tells a camp or a role on the least known
                    sign = 1 if c.values else -1
                    first = sorted((n for n in pool if len(dom.get(n, ())) > 1),
                                   key=lambda n: (sign * len(dom[n]), rng.random()))
                else:
                    if named is None:
                        names = [p["name"] for p in seat.view["players"]]
                        # a line's facts name whom it tells of; a line without, its words
                        named = {f["player"] for fb in seat.view["feedback"] for f in fb.get("facts", ())}
                        named |= {n for fb in seat.view["feedback"] if "facts" not in fb for n in names if n in fb["text"]}
                    first = [n for n in pool if n not in named]
            else:
                first = []
            rest = [n for n in pool if n not in first]
            if not ("check" in c.does and dom is not None):
                rng.shuffle(first)
            rng.shuffle(rest)
            order = first + rest
            k = c.lo
            if len(order) < k:
                continue
            options = [order[i:i + k] for i in range(0, max(1, len(order) - k + 1))][:8] if k else [[]]
            for i in range(c.per_phase):
                turn = options[i:] + options[:i]  # a second use prefers the next target
                if c.values and "check" in c.does and dom is not None and k == 1:
                    d.actions.append((c.skill, self._questions(seat, c, turn, dom, known), {}))
                elif c.values:
                    d.actions.append((c.skill, [(t, draw_args(rng, c)) for t in turn], {}))
                else:
                    d.actions.append((c.skill, turn, {}))
        if seat.vote:
            cand = [n for n in seat.vote if n not in friendly and n != seat.name] or list(seat.vote)
            marked = [n for n in cand if n in hostile]
            if marked:
                d.votes = sorted(marked) + cand
            elif mates:
                # follow the group: every member ranks the candidates by the same hash
                key = seat.view["phase"] + "|" + "|".join(sorted(mates | {seat.name}))
                d.votes = sorted(cand, key=lambda n: hashlib.blake2s((key + n).encode(), digest_size=4).digest())
            else:
                score = suspicion(seat, seat.view["you"].get("camp") or "") if self.reads_public else None
                if score and any(score[n] > 0 for n in cand):
                    # the most suspect first (ties drawn), then the others
                    d.votes = sorted(cand, key=lambda n: (-score[n], rng.random()))
                else:
                    d.votes = [rng.choice(cand) for _ in range(4)] + cand
        return d


def load_policy(name: str) -> Policy:
    from importlib.metadata import entry_points

    for ep in entry_points(group="bansha.policies"):
        if ep.name == name:
            return ep.load()()
    known = ", ".join(sorted(ep.name for ep in entry_points(group="bansha.policies")))
    raise ValueError(f"unknown policy {name!r} (installed: {known})")
