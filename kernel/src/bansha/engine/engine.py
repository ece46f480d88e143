"""The phase machine and the ordered resolution pipeline.

A ``Game`` is rebuilt from its ``Setup`` by applying its events one by one (``Game.apply``).
Submitting an action checks it at once; resolving a phase runs the manifest's steps in order,
each step's handlers and then its skills' effects (by priority, the real role before an
acquired skill, then submission order), then expires statuses, checks wins and advances the
clock. Nothing here knows a named role: roles act through the hooks in ``hookspecs.py``.
"""

from __future__ import annotations

import random
import re
from typing import Any

from bansha.door.names import check_name, fold, reserved_of
from bansha.engine.builtins import compile_selectors, count_votes, resolve_deaths, win_holds  # noqa: F401  (count_votes, resolve_deaths: their old home, plugins import them from here)
from bansha.engine.model import (
    ActEvent,
    Action,
    AmendEvent,
    Ballot,
    Event,
    Fact,
    GameError,
    Kill,
    PhaseSpec,
    Player,
    ResolveEvent,
    RulingEvent,
    Skill,
    Status,
    TraceLine,
    UnactEvent,
    VoteEvent,
)
from bansha.engine.options import check_options
from bansha.engine.registry import Ruleset, ruleset_for
from bansha.text.messages import extend, join, say


class PluginFault(GameError):
    """A rule plugin raised while the game resolved: the event is refused (a GameError: one
    line, exit 2, nothing stored), and a scenario that meets it is invalid, not a mismatch."""


extend({
    "fault_event": ("规则插件出错（{what}，{label}）：{why}；本次操作未执行，游戏未改变，修正规则后用 bansha board reload 读入",
                    "a rule plugin failed ({what}, {label}): {why}; nothing was done and the game is unchanged; fix the "
                    "board and read it again with bansha board reload"),
    "fault_skill": ("规则插件出错：角色 {role}（插件 {plugin}），技能 {skill}，步骤 {step}：{why}；本次操作未执行，游戏未改变，"
                    "修正规则后用 bansha board reload 读入",
                    "a rule plugin failed: role {role} (plugin {plugin}), skill {skill}, step {step}: {why}; nothing was done "
                    "and the game is unchanged; fix the board and read it again with bansha board reload"),
    "fault_handler": ("规则插件出错：步骤 {step}，处理器 {handler}：{why}；本次操作未执行，游戏未改变，修正规则后用 bansha board reload 读入",
                      "a rule plugin failed: step {step}, handler {handler}: {why}; nothing was done and the game is "
                      "unchanged; fix the board and read it again with bansha board reload"),
})


class _Silent:
    """The logger of a game being replayed: what was logged when it happened is not logged
    again (and a read-only command never imports structlog, ~35% of its start-up)."""

    def debug(self, *args: Any, **kw: Any) -> None:
        pass

    info = warning = debug


SILENT = _Silent()


_NO_ENTRIES: dict = {}


def skill_names(ruleset: Ruleset, table: dict[str, tuple[Skill, bool]]) -> dict[str, tuple[Skill, bool]]:
    """A table of ``skills_of`` by each skill's name and alias, the first skill of a name kept
    (what a scan of the table in its order finds first): ``find_skill`` reads it instead of
    scanning (twice an action: ``check``, then ``submit``). Built once per table: the tables are
    the ruleset's own (``Ruleset.skills_for``), kept as long as it is, so one is known by its id
    (and checked to be that very table)."""
    memo = ruleset.__dict__.get("_skill_names_memo")
    if memo is None:
        memo = ruleset.__dict__["_skill_names_memo"] = {}
    entry = memo.get(id(table))
    if entry is None or entry[0] is not table:
        names: dict[str, tuple[Skill, bool]] = {}
        for s, acquired in table.values():
            names.setdefault(s.name, (s, acquired))
            names.setdefault(s.alias, (s, acquired))
        entry = memo[id(table)] = (table, names)
    return entry[1]


#: the kinds of event ``apply`` tells apart, in the order it asks (a Struct's ``isinstance`` that
#: fails is slow: asked through its metaclass)
_EVENT_KINDS = (AmendEvent, RulingEvent, ActEvent, UnactEvent, VoteEvent, ResolveEvent)
_EXACT_KINDS = frozenset(_EVENT_KINDS)


def event_kind(event: Event) -> type | None:
    """Which of ``_EVENT_KINDS`` ``event`` is an instance of, the first in their order (None:
    none): its own type when that is one of them, else asked with ``isinstance``."""
    kind = type(event)
    if kind in _EXACT_KINDS:
        return kind
    return next((k for k in _EVENT_KINDS if isinstance(event, k)), None)


def counted_skills(ruleset: Ruleset) -> frozenset[str]:
    """The names and aliases of the ruleset's skills with counted uses (``Skill.uses``): every
    table of ``skills_of`` is keyed by such names of its roles' skills, so an action of a skill
    not named here has no use to take off when its phase resolves (built once per ruleset)."""
    found = ruleset.__dict__.get("_counted_skills")
    if found is None:
        found = ruleset.__dict__["_counted_skills"] = frozenset(
            key for role in ruleset.roles.values() for s in role.skills if s.uses is not None
            for key in (s.name, s.alias))
    return found


class Game:
    """The live state of one game, rebuilt from its setup and events."""

    def __init__(self, setup, ruleset: Ruleset | None = None):
        self.setup = setup
        self.ruleset = ruleset or ruleset_for(setup.manifest)
        self.manifest = self.ruleset.manifest
        self.pm = self.ruleset.pm
        self.hook = self.ruleset.hooks
        #: the board's language: every kernel message of this game is in it (messages.py)
        self.lang = self.ruleset.lang
        # the one check of house rules' values (new --option, a scenario's [options]): a value
        # its type does not allow never reaches a rule (options.py)
        self.options = {**self.manifest.options, **check_options(self.manifest, setup.options, "options", self.lang)}
        self.players: dict[str, Player] = {}
        for seat, ps in enumerate(setup.players, start=1):
            role = self.ruleset.role(ps.role)
            camp = self.ruleset.camp(ps.camp) if ps.camp else role.camp
            if not camp:
                raise GameError(self.msg("needs_camp", name=ps.name, role=role.name))
            if ps.name in self.players:
                raise GameError(self.msg("named_twice", name=ps.name))
            p = Player(name=ps.name, seat=seat, role=role.name, camp=camp, setup=dict(ps.setup))
            if role.group:
                p.groups.append(role.group)
            for skill in role.skills:
                if skill.uses is not None:
                    p.uses[skill.name] = skill.uses
            self.players[p.name] = p
        self.openings = [p for p in self.manifest.phases if p.opening]
        self.cycle = [p for p in self.manifest.phases if not p.opening]
        self.phase: PhaseSpec = self.openings[0] if self.openings else self.cycle[0]
        self.day = 0 if self.openings else self.manifest.first_day
        self.actions: list[Action] = []
        self.ballots: list[Ballot] = []
        self.seq = 0
        #: player -> [(phase label, line)]
        self.feedback: dict[str, list[tuple[str, str]]] = {n: [] for n in self.players}
        #: player -> {index of a line of ``feedback``: the facts it states} (``model.Fact``)
        self.feedback_facts: dict[str, dict[int, tuple[Fact, ...]]] = {}
        self.announcements: list[tuple[str, str]] = []
        self.trace: list[TraceLine] = []
        #: phase label -> names that left the game in it
        self.out: dict[str, list[str]] = {}
        #: every exit as data, in order: (phase label, name, the kill's kind). History, like the
        #: trace (a rewind keeps it): what a simulation counts as causes of exit, read without
        #: parsing the trace's text
        self.exits: list[tuple[str, str, str]] = []
        self.winner: list[str] | None = None
        self.draw = False
        self.scores: dict[str, float] = {}
        #: optional phases scheduled to be played next (a run-off) and their data
        self.scheduled: dict[str, Any] = {}
        #: (actor or group, skill) -> (day, phase name, chosen targets) of the last use
        self.last_use: dict[tuple[str, str], tuple[int, str, list[str]]] = {}
        #: rule plugins' game-wide data (keys are the plugin's own)
        self.data: dict[str, Any] = {}
        self.rulings: list[RulingEvent] = []
        #: seat -> the account where the game is played (a forum's uid) bound to it now: the
        #: set-up's, and a substitute's as its ruling gives it (``--arg uid=N``; none given:
        #: the seat is bound to nobody). What bansha sends to a seat goes to this and nowhere
        #: else; a rewind keeps it, as it keeps the substitute
        self.uids: dict[int, str] = {seat: ps.uid for seat, ps in enumerate(setup.players, start=1) if ps.uid}
        self.resolved: list[str] = []
        #: public lines held until the phase closes (``PhaseSpec.hold_public``); a rewind keeps
        #: them: what an immediate answer decided is not undone by turning back the clock
        self.held: list[str] = []
        #: the events applied so far: a rewind replays the first n of them (``snapshots``)
        self.applied: list[Event] = []
        self._in_event = False
        #: (phase label, "start" | "resolve") -> (phase, day, how many events had been applied
        #: then), the moments a rewind (钟-like skills) may turn back to
        self.snapshots: dict[tuple[str, str], tuple] = {}
        #: engine events go to structlog for new events only (``Store.append`` sets it)
        self.log: Any = SILENT
        #: (phase label, point, [keep, …]) of a rewind asked for during this resolution
        self.pending_rewind: tuple[str, str, list] | None = None
        #: players owed last words: name -> {"out": phase label, "until": the label of the
        #: phase whose close publishes them (None until the exit's event is over), "text"}
        self.last_words: dict[str, dict[str, Any]] = {}
        #: players whose last words lapsed unrecorded: name -> the label of the phase that ended them
        self.lapsed_words: dict[str, str] = {}
        #: the current window of a phase with ``windows`` (0: the first, or the only one)
        self.window = 0
        #: what a resolved window leaves to the next ones of the phase: the kills queued and
        #: not yet landed, the resolution's data and the exits so far (``resolve``)
        self.carried: tuple[list[Kill], dict[str, Any], list[str]] | None = None
        #: actions sent ahead in a phase with windows for a skill the actor gains in an earlier
        #: window of it (狼鸦之爪's 夜之锋刃 gives [群内] at 早夜, its 杀人 is 深夜's): (the event,
        #: the window it waits for, its submission number); checked again when that window opens
        self.ahead: list[tuple[ActEvent, int, int]] = []
        #: what was sent ahead and refused when its window opened: (phase label, actor, skill, why)
        self.ahead_refused: list[tuple[str, str, str, str]] = []
        self.hook.bansha_setup_game(game=self)
        #: each player's role as the game began (the deal, after the rules' set-up: mafia-basic's
        #: ``mafia`` option re-deals): what a role's count is of (发牌次数), whoever holds it later
        self.dealt: dict[str, str] = {p.name: p.role for p in self.players.values()}
        self._open_phase()

    # ------------------------------------------------------------------ clock and names

    def msg(self, key: str, /, **fields: Any) -> str:
        """The kernel's message ``key`` in this board's language (messages.py)."""
        return say(key, self.lang, **fields)

    def refusal(self, template: str, key: str, /, **fields: Any) -> str:
        """A refusal the manifest may word (``[texts] refuse_*``); unworded, the catalogue's."""
        return template.format(**fields) if template else say(key, self.lang, **fields)

    def named(self, label: str | None = None) -> str:
        """A phase label ("dusk 4"; default the current one) as the board names it ("第3天 黄昏":
        its board file's ``[names]``): what every line a person reads says."""
        label = self.label if label is None else label
        # a label's name is the ruleset's (its phases and its board's names): made once a label
        # (M217 names each night's windows in its trace as they close)
        memo = self.ruleset.__dict__.get("_named_memo")
        if memo is None:
            memo = self.ruleset.__dict__["_named_memo"] = {}
        found = memo.get(label)
        if found is None:
            found = memo[label] = self._name_of(label)
        return found

    def _name_of(self, label: str) -> str:
        """``named``'s answer, made: the board's ``[names]`` applied to ``label``."""
        from bansha.engine.board import load_board, phase_namer

        # the board's names are the ruleset's (read once: a refusal is asked for often, by
        # ``choices.py`` trying what a seat may do)
        names = self.ruleset.__dict__.get("_board_names")
        if names is None:
            try:
                names = load_board(self.manifest.id, lang=self.lang)["names"]
            except GameError:
                names = {}
            self.ruleset.__dict__["_board_names"] = names
        if not names:
            return label
        return phase_namer(self, {"names": names})(label)

    def phase_word(self, name: str) -> str:
        """A phase's name without its day ("night" -> "夜晚"), in the board's language: what a
        line says of "each night", "two nights running"."""
        try:
            spec = self.ruleset.phase(name)
        except GameError:
            return name
        return spec.name if self.lang == "en" else (spec.alias or spec.name)

    def window_named(self, window: int, label: str | None = None) -> str:
        """Action window ``window`` (0-based) of a phase (default the current one) with its
        phase, as a line names it: "第2天 夜晚·早夜" (``window_name``: the board's name of the
        window, else "第N个行动时间段")."""
        label = self.label if label is None else label
        spec = self.ruleset.phase(label.partition(" ")[0])
        return self.msg("window_named", phase=self.named(label), window=self.window_name(window, spec))

    def lasting(self, until: str | None) -> str:
        """How long a status lasts ("持续至第2天 夜晚结束", "永久"): a status's ``until`` (a phase
        label, None: until removed) in the board's words, for every line that tells it."""
        return self.msg("lasting_ever") if until is None else self.msg("lasting_until", label=self.named(until))

    #: (phase, day, its label): the label made once a phase (read ~40,000 times a simulated game)
    _label_memo: tuple = (None, None, "")

    @property
    def label(self) -> str:
        phase, day = self.phase, self.day
        memo = self._label_memo
        if memo[0] is phase and memo[1] == day:
            return memo[2]
        label = phase.name if phase.opening else f"{phase.name} {day}"
        self._label_memo = (phase, day, label)
        return label

    def parse_phase(self, text: str) -> tuple[int, str]:
        """"day 3" / "白天 3" / "第3天 白天" (the board's name) / "opening" -> a sortable position
        (day, index in the day)."""
        t = text.strip()
        offset = 0
        if t.startswith("第"):  # the board's name, as posts and views print it: every door takes it
            m = re.fullmatch(r"第\s*(\d+)\s*[天日]\s*(.*)", t)
            if m:
                rest = m.group(2).strip().removesuffix("公告").strip()
                t = f"{rest or self.cycle[0].name} {m.group(1)}"
                offset = -1  # the board's day: the id's number is the day less the phase's offset
        name, _, num = t.partition(" ")
        spec = self.ruleset.phase(name)
        if spec.opening:
            return (-1, self.openings.index(spec))
        try:
            day = int(num)
        except ValueError:
            raise GameError(self.msg("bad_phase", text=text)) from None
        if offset:
            day -= spec.day_offset  # "第1天 黄昏" on M217 is dusk 2 (``PhaseSpec.day_offset``)
        return (day, self.cycle.index(spec))

    @property
    def position(self) -> tuple[int, int]:
        if self.phase.opening:
            return (-1, self.openings.index(self.phase))
        return (self.day, self.cycle.index(self.phase))

    def canonical(self, text: str) -> str:
        day, idx = self.parse_phase(text)
        if day == -1:
            return self.openings[idx].name
        return f"{self.cycle[idx].name} {day}"

    def player(self, name: str) -> Player:
        p = self.players.get(name)
        if p is None:
            p = self.players.get(self.find_name(name))
        if p is None:
            raise GameError(self.msg("unknown_player", name=name))
        return p

    def find_name(self, name: str) -> str:
        """The player ``name`` means once normalised and width-folded (``梦见`` with a
        zero-width space, full-width ``Ａｌｉｃｅ``), or ``name`` itself when none is."""
        key = fold(name)
        return next((n for n in self.players if fold(n) == key), name)

    def alive(self) -> list[Player]:
        return [p for p in self.players.values() if p.alive]

    def mark(self) -> tuple[int, dict[str, int]]:
        """Where the told lines stand now; ``since(mark)`` gives what was told after it."""
        return len(self.announcements), {n: len(lines) for n, lines in self.feedback.items()}

    def since(self, mark: tuple[int, dict[str, int]]) -> tuple[dict[str, list[str]], list[str]]:
        """Feedback lines per player and announcement lines told after ``mark``."""
        told, seen = mark
        feedback = {n: [t for _, t in lines[seen.get(n, 0):]] for n, lines in self.feedback.items()}
        return {n: lines for n, lines in feedback.items() if lines}, [t for _, t in self.announcements[told:]]

    def option(self, key: str) -> Any:
        return self.options.get(key)

    def neighbours(self, name: str) -> tuple[Player, Player]:
        """The nearest living players on each side in the seat ring (电梯楼: the dead are
        left out and the ends are adjacent)."""
        ring = [p for p in sorted(self.players.values(), key=lambda p: p.seat) if p.alive or p.name == name]
        i = next(k for k, p in enumerate(ring) if p.name == name)
        return ring[i - 1], ring[(i + 1) % len(ring)]

    def identity(self, player: Player) -> str:
        return self.hook.bansha_identity(game=self, player=player) or player.role

    def surface(self, player: Player) -> dict[str, Any]:
        """The identity a check reads: the last disguise status applied, else the actual one.

        A disguise is any status whose data has ``camp`` or ``role`` (and optional extras).
        """
        seen = {"camp": player.camp, "role": player.role, **player.setup}
        for st in player.statuses:
            if "camp" in st.data or "role" in st.data:
                seen.update(st.data)
        return seen

    def skills_of(self, player: Player) -> dict[str, tuple[Skill, bool]]:
        """Every skill the player can use now: name -> (skill, acquired). The role's own
        skills first, then every player's (``common``), then the groups', then acquired ones.
        The table returned is shared: read it, never change it."""
        acquired = player.acquired
        groups = player.groups
        if not groups and not acquired:
            # the role's skills alone (two calls in three on m217, where the rules' hooks ask it
            # ~2,700 times a game): no key to build
            table = self.ruleset._role_skills_memo.get(player.role)
            if table is None:
                table = self.ruleset._role_skills_memo[player.role] = self.ruleset.skills_for(player.role, (), ())
            return table
        key = (player.role, tuple(groups), tuple(acquired.items()) if acquired else ())
        # the ruleset's memo is asked first here: this is called ~3,500 times in an m217 game
        table = self.ruleset._skills_memo.get(key)
        return table if table is not None else self.ruleset.skills_for(*key)

    def sendable_skills(self, player: Player) -> tuple[tuple[Skill, bool], ...]:
        """The skills of ``player`` (``skills_of``, in its order) that ``skill_refused`` may
        accept now: left out are those it refuses whatever else holds (a standing skill; one of
        another phase, unless a rule may open it (``bansha_skill_window``); one of a window
        already resolved; any skill but a ``while_out`` one of a player out). The index of
        what may be sent, built once per ruleset for each set of skills, phase, window and
        life: ``choices.skill_tests`` asks ``skill_refused`` of these only, so a seat with none
        (a night without a night skill, the dead) is asked nothing."""
        acquired = player.acquired
        phase = self.phase
        key = (player.role, tuple(player.groups), tuple(acquired.items()) if acquired else (),
               phase.name, self.window, player.alive)
        memo = self.ruleset._sendable_memo
        found = memo.get(key)
        if found is None:
            opened = self.hook.implemented("bansha_skill_window")
            found = memo[key] = tuple(
                (s, a) for s, a in self.skills_of(player).values()
                if s.phases and (player.alive or s.while_out)
                and (opened if not self.in_phase(s) else (s.immediate or self.window_of(s.step) >= self.window)))
        return found

    def find_skill(self, player: Player, name: str) -> tuple[Skill, bool]:
        """The first of the player's skills (``skills_of``, in its order) whose name or alias is
        ``name``; else GameError (the rules' ``bansha_unknown_skill``, or the kernel's line)."""
        table = self.skills_of(player)
        entry = self.ruleset.__dict__.get("_skill_names_memo", _NO_ENTRIES).get(id(table))
        found = (entry[1] if entry is not None and entry[0] is table else skill_names(self.ruleset, table)).get(name)
        if found is not None:
            return found
        reason = self.hook.bansha_unknown_skill(game=self, player=player, skill=name)
        raise GameError(reason or self.msg("no_skill", name=player.name, role=player.role, skill=name))

    # -------------------------------------------------------------------- the event log

    def apply(self, event: Event, checked: Action | Ballot | Player | None = None) -> None:
        """Apply one event; raises GameError (and leaves the game as it was) when refused.

        ``checked`` (a trusted apply): what the one listing (``choices.py``) already asked of
        this very event, with nothing applied since: for an ``ActEvent`` the ``Action`` its
        ``check`` accepted (``SkillTest._accepted``, or ``check`` itself), for a ``VoteEvent`` the
        ballot ``check_vote`` accepted, or the voter whose ``check_voter`` and
        ``check_vote_change`` the listing accepted and whose target it allowed (``VoteTest._voter``;
        the rules' ``bansha_validate_vote`` is then asked of the ballot sent). Those checks are
        not asked a second time (the simulator sends what it drew from the listing, or checked
        just before, this way); everything else is as without it."""
        kind = event_kind(event)
        if kind is AmendEvent:
            return self._amend(event)
        self._in_event = True
        try:
            self._apply(event, checked, kind)
        except GameError:
            raise
        except Exception as exc:  # a rule's hook that raised outside a resolution (a check of an action or a vote)
            from bansha.text.messages import excerpt

            why = f"{type(exc).__name__}: {excerpt(exc, 80)}" if str(exc) else type(exc).__name__
            raise PluginFault(self.msg("fault_event", what=type(event).__name__.removesuffix("Event").lower(),
                                       label=self.named(), why=why)) from None
        finally:
            self._in_event = False
        self.applied.append(event)
        # last words owed by an exit of this event are published by the phase current now, or
        # by the next phase of the name the board gives (``LastWordsRule.until``)
        for owed in self.last_words.values() if self.last_words else ():
            if owed["until"] is None:
                owed["until"] = self.next_label_named(owed.get("until_phase") or "")

    def _amend(self, ev: AmendEvent) -> None:
        """Replay the game with ``ev.event`` just before the resolution of the closed phase
        ``ev.phase``; the live state becomes that replay's (refused, nothing changes)."""
        label = self.canonical(ev.phase)
        if self.canonical(ev.event.phase) != label:
            raise GameError(self.msg("amend_other_phase", phase=self.named(ev.event.phase), label=self.named(label)))
        # a rewind (时光倒流) plays a phase again: the play that stands is the last, unless named
        plays = self.plays(label)
        name = self.named(label)
        if not plays:
            raise GameError(self.msg("amend_not_closed", label=name))
        if ev.play < 0 or ev.play > len(plays):
            raise GameError(self.msg("amend_no_play", label=name, play=ev.play, count=len(plays)))
        at = self._amend_at(label, plays[ev.play - 1] if ev.play else plays[-1], ev.event)
        corrected = self._corrected_at(at, ev.event)
        if isinstance(ev.event, ActEvent) and corrected is not None:
            # the corrected action takes the place of the one it replaces, so that it is judged as
            # that one was (光影传说: a 询问 sent before the day's 猜测 stays before it)
            at = corrected
            events = [*self.applied[:at], ev.event, *self.applied[at + 1:]]
        else:
            if corrected is not None:
                # a corrected ballot (``--change``) comes right after the one it changes, so that it
                # is judged when that one was (M217: a ballot cast before the day's 决斗 cancelled
                # the vote stays before it, and may still be corrected)
                at = corrected + 1
            events = [*self.applied[:at], ev.event, *self.applied[at:]]
        fresh = Game(self.setup, self.ruleset)
        for i, e in enumerate(events):
            try:
                try:
                    fresh.apply(e)
                except GameError:
                    # ``amend act`` of a skill the actor had sent in that phase replaces that action
                    # (on every board: not only where a group's new action replaces its standing one)
                    if i != at or not isinstance(e, ActEvent) or not fresh._withdraw_for_amend(e):
                        raise
                    fresh.apply(e)
            except GameError as exc:
                if i == at:
                    raise GameError(self.msg("amend_refused", label=name, why=exc)) from None
                what = self.msg("amend_kind_" + type(e).__name__.removesuffix("Event").lower())
                raise GameError(self.msg("amend_later", label=name, what=what, phase=self.named(e.phase), why=exc)) from None
        log = self.log
        self.__dict__.update(fresh.__dict__)
        self.log = log

    def _corrected_at(self, at: int, event: Event) -> int | None:
        """Where the input an amendment corrects stands, in the play resolved at ``at``: for an
        ``act``, the actor's last act of the same skill, not withdrawn since; for a ``vote
        --change``, the voter's last ballot. None when there is none, or the amendment corrects
        nothing that stands (it then goes just before the resolution)."""
        if isinstance(event, ActEvent):
            def mine(e):
                return isinstance(e, ActEvent | UnactEvent) and e.actor == event.actor and e.skill == event.skill
        elif isinstance(event, VoteEvent) and event.change:
            voter = self.find_name(event.voter)

            def mine(e):
                return isinstance(e, VoteEvent) and self.find_name(e.voter) == voter
        else:
            return None
        for j in range(at - 1, -1, -1):
            e = self.applied[j]
            if isinstance(e, ResolveEvent):
                return None
            if mine(e):
                return None if isinstance(e, UnactEvent) else j
        return None

    def _withdraw_for_amend(self, ev: ActEvent) -> bool:
        """Withdraw the actor's standing action of ``ev``'s skill (an amendment's act replaces
        it); False when there is none to withdraw."""
        try:
            self.standing(ev.actor, ev.skill)
        except GameError:
            return False
        self.apply(UnactEvent(phase=ev.phase, actor=ev.actor, skill=ev.skill))
        return True

    def plays(self, label: str) -> list[int]:
        """Where each play of the closed phase ``label`` began to be resolved (indexes into
        ``applied``): more than one when a rewind played it again. A phase closed window by
        window is one play of several resolutions (``_resolutions``)."""
        out: list[int] = []
        prev = None  # the resolution before, of any phase
        for i, e in enumerate(self.applied):
            if isinstance(e, ResolveEvent):
                if self.canonical(e.phase) == label and not (
                        prev is not None and prev.window and self.canonical(prev.phase) == label):
                    out.append(i)
                prev = e
        return out

    def _resolutions(self, label: str, start: int) -> list[int]:
        """The resolutions of the play of ``label`` that began at ``start``: one, or a window's
        each for a phase closed window by window (``resolve --window``)."""
        out = [start]
        for i in range(start + 1, len(self.applied)):
            e = self.applied[i]
            if isinstance(e, ResolveEvent):
                if not (self.applied[out[-1]].window and self.canonical(e.phase) == label):
                    break
                out.append(i)
        return out

    def _amend_at(self, label: str, start: int, event: Event) -> int:
        """Where an amendment's input goes: just before the resolution that closed the phase;
        in a phase closed window by window, an action (or its withdrawal) just before the
        resolution of the skill's own window, so that it is judged as it would have been then."""
        done = self._resolutions(label, start)
        if len(done) == 1 or not isinstance(event, ActEvent | UnactEvent):
            return done[-1]
        spec = self.ruleset.phase(label.partition(" ")[0])
        skill = next((s for r in self.ruleset.roles.values() for s in r.skills if event.skill in (s.name, s.alias)), None)
        if event.actor in self.players:
            try:
                skill = self.find_skill(self.players[event.actor], event.skill)[0]
            except GameError:
                pass
        window = next((i for i, steps in enumerate(spec.windows) if skill is not None and skill.step in steps), None)
        return done[min(window, len(done) - 1)] if window is not None else done[-1]

    def _apply(self, event: Event, checked: Action | Ballot | Player | None = None, kind: type | None = None) -> None:
        kind = event_kind(event) if kind is None else kind
        if kind is RulingEvent:
            self._check_phase(event.phase)
            return self._ruling(event)
        if self.winner is not None:
            raise GameError(self.msg("game_over", result=self.msg("draw") if self.draw else self.msg("won", camps=join(self.winner, self.lang))))
        self._check_phase(event.phase)
        if kind is ActEvent:
            self.submit(event, checked)
        elif kind is UnactEvent:
            self.withdraw(event)
        elif kind is VoteEvent:
            self.cast(event, checked)
        elif kind is ResolveEvent:
            label = self.label
            try:
                self.resolve()
                # the phase's remaining windows, unless the event closes one window only
                while not event.window and self.window > 0 and self.label == label and self.winner is None:
                    self.resolve()
            except GameError:
                raise
            except Exception as exc:  # a rule's hook outside the steps (a win, the next phase's start)
                raise self.fault(exc, label, "", "") from None

    def fault(self, exc: Exception, step: str, actor: str, what: str) -> PluginFault:
        """A plugin that raised while the game was resolving, as one line naming the role, the
        skill and the step (or the handler): the event is refused, so nothing is stored, and
        the game plays on once the board is fixed (``bansha board reload``)."""
        from bansha.text.messages import excerpt

        why = f"{type(exc).__name__}: {excerpt(exc, 80)}" if str(exc) else type(exc).__name__
        if actor:
            role = self.player(actor).role
            return PluginFault(self.msg("fault_skill", role=role, plugin=self.manifest.roles.get(role) or self.ruleset.role_plugin.get(role, "?"),
                                      skill=what, step=step, why=why))
        return PluginFault(self.msg("fault_handler", handler=what or "—", step=step, why=why))

    def _check_phase(self, phase: str) -> None:
        label = self.label
        if phase == label and self.ruleset.plain_labels:
            return  # the label itself (what a simulator and the CLI stamp): no parsing
        if self.canonical(phase) != label:
            raise GameError(self.msg("wrong_phase", phase=self.named(self.canonical(phase)), label=self.named(label)))

    # --------------------------------------------------------------------------- actions

    def check(self, ev: ActEvent) -> Action:
        """Whether ``act`` accepts ``ev`` now: the action it would record, or GameError saying
        why not. Changes nothing (``submit`` records what this accepts; ``choices.py`` lists
        what a seat may do by asking it, so the listing and ``act`` never disagree)."""
        actor = self.player(ev.actor)
        if not actor.alive and not any(s.while_out for s, _ in self.skills_of(actor).values()):
            raise GameError(self.msg("actor_out", name=actor.name))
        skill, acquired = self.find_skill(actor, ev.skill)
        self.check_skill(actor, skill)
        return self.check_use(actor, skill, acquired, ev.targets, ev.args)

    def check_use(self, actor: Player, skill: Skill, acquired: bool, names, args) -> Action:
        """``check`` of one choice of targets and arguments, once ``check_skill`` has accepted
        the skill (``choices.py`` asks it for each choice; ``check`` asks both)."""
        return self.check_args(actor, skill, acquired, self.check_targets(actor, skill, acquired, names), args)

    def check_targets(self, actor: Player, skill: Skill, acquired: bool, names) -> list[str]:
        """The part of ``check_use`` that reads the targets alone (who they are, how many, a
        repeat, the rules' ``bansha_validate_targets``): the names as the game spells them. ``choices.py`` asks it once for a choice
        of targets, then ``check_args`` for each set of arguments it tries."""
        targets = [self._target(actor, skill, t) for t in names]
        hi = skill.max_targets if skill.max_targets is not None else skill.targets
        if not skill.targets <= len(targets) <= hi:
            want = str(skill.targets) if hi == skill.targets else self.msg("target_range", lo=skill.targets, hi=hi)
            raise GameError(self.msg("target_count", skill=skill.name, want=want, got=len(targets)))
        if skill.no_repeat_target and targets and set(targets) & self.repeat_blocked(actor, skill):
            raise GameError(self.refusal(self.manifest.texts.refuse_repeat_target, "repeat_target",
                skill=skill.name, target=targets[0], phase=self.phase_word(self.phase.name)))
        for reason in self.hook.bansha_validate_targets(game=self, player=actor, skill=skill, acquired=acquired,
                                                        targets=targets):
            if reason:
                raise GameError(reason)
        return targets

    def check_args(self, actor: Player, skill: Skill, acquired: bool, targets: list[str], args) -> Action:
        """The rest of ``check_use`` once ``check_targets`` accepted ``targets``: the rules'
        checks of the whole action (``bansha_validate_action``) and the arguments."""
        action = Action(
            actor=actor.name, skill=skill.name, chosen=list(targets), targets=list(targets),
            args=dict(args), seq=self.seq + 1, acquired=acquired, group=skill.group,
        )
        # only the rules' checks that concern this skill (those declared for it, every undeclared one)
        for reason in self.hook.for_skill("bansha_validate_action", skill.name)(game=self, action=action):
            if reason:
                raise GameError(reason)
        unknown = self._unknown_arg(skill, action)
        if unknown:
            raise GameError(unknown)
        return action

    def check_skill(self, actor: Player, skill: Skill) -> None:
        """What ``check`` asks of a skill whatever its targets and arguments: it is sent (not
        standing), open in this phase, not stopped by a rule or a status, with a use left."""
        why = self.skill_refused(actor, skill)
        if why is not None:
            raise GameError(why())

    def skill_refused(self, actor: Player, skill: Skill):
        """``check_skill``'s answer: None where it accepts the skill, else a function making the
        refusal line (made only when it is shown: ``choices.py`` asks of every seat's every
        skill each phase and shows none)."""
        if not actor.alive and not skill.while_out:
            return lambda: self.msg("actor_out", name=actor.name)
        if not skill.phases:
            # a standing or triggered skill (常驻, [触发]): the rules apply it, nobody sends it
            return lambda: self.msg("not_sent", skill=skill.name)
        # a rule may open a skill outside its phases (answered at once: its step is not here)
        out_of_phase = not self.in_phase(skill)
        if out_of_phase and not self.hook.bansha_skill_window(game=self, player=actor, skill=skill):
            return lambda: self.msg("skill_phase", skill=skill.name, phase=self.phase_word(self.phase.name),
                                    phases="/".join(self.phase_word(n) for n in skill.phases))
        if self.window and not skill.immediate and not out_of_phase and self.window_of(skill.step) < self.window:
            return lambda: self.msg("window_past", skill=skill.name, window=self.window_named(self.window_of(skill.step)))
        unavailable = self.hook.bansha_skill_unavailable(game=self, player=actor, skill=skill)
        if unavailable:
            return lambda: unavailable
        for st in actor.statuses:
            # a status that stops casting; skills with one of its ``except_tags`` still work
            if st.data.get("no_cast") and not set(skill.tags) & set(st.data.get("except_tags", ())):
                return lambda st=st: self.msg("under_status", name=actor.name, status=st.name, skill=skill.name)
        if skill.uses is not None and actor.uses.get(skill.name, 0) - self._pending_uses(actor, skill) <= 0:
            return lambda: self.refusal(self.manifest.texts.refuse_no_uses, "no_uses", actor=actor.name, skill=skill.name)
        if not skill.group and self._used_in_phase(actor, skill)[0] >= self._allowed(actor, skill):
            return lambda: self.msg("used_already", name=actor.name, skill=skill.name, label=self.named())
        return None

    def _allowed(self, actor: Player, skill: Skill) -> int:
        # uses in this phase: the skill's ``per_phase``, unless a rule grants more now (M217's 迅捷)
        allowed = self.hook.bansha_uses_in_phase(game=self, player=actor, skill=skill)
        return skill.per_phase if allowed is None else allowed

    def _used_in_phase(self, actor: Player, skill: Skill) -> tuple[int, list[Action]]:
        """(uses counted in this phase, the owner's standing actions of the skill)."""
        owner = skill.group if skill.group else actor.name
        mine = [a for a in self.actions if a.skill == skill.name and (a.group or a.actor) == owner]
        used = len(mine)
        if self.phase.continues and self.last_use.get((owner, skill.name), (0, ""))[:2] == (self.day, self.phase.continues):
            used += 1  # used in the phase this one continues, the same day: it stays used (no new cool-down)
        return used, mine

    def repeat_blocked(self, actor: Player, skill: Skill) -> set[str]:
        """The targets a ``no_repeat_target`` skill may not choose now (last phase's choice)."""
        if not skill.no_repeat_target:
            return set()
        last = self.last_use.get((skill.group or actor.name, skill.name))
        if last and last[0] == self.day - 1 and last[1] == self.phase.name:
            return set(last[2])
        return set()

    def submit(self, ev: ActEvent, checked: Action | None = None) -> Action | None:
        """Record ``ev`` if ``check`` accepts it (a group's new action replaces its standing
        one); an immediate skill, or one opened outside its phases, is answered at once. In a
        phase with windows, an action ``check`` refuses now that it accepts once the earlier
        windows are resolved on the inputs so far (a skill the actor gains in one of them) waits
        for its window (``ahead``; None is returned). ``checked``: the action ``check`` gave for
        ``ev`` with nothing applied since (``apply``)."""
        if checked is not None:
            action = checked
        else:
            try:
                action = self.check(ev)
            except GameError:
                window = self.ahead_window(ev)
                if window is None:
                    raise
                self.seq += 1
                self.ahead = [*self.ahead, (ev, window, self.seq)]
                return None
        actor = self.players[action.actor]
        skill, _ = self.find_skill(actor, action.skill)
        self.seq = action.seq
        if skill.group:
            # a group's latest ``allowed`` submissions count (one, unless a rule grants more)
            _, mine = self._used_in_phase(actor, skill)
            drop = mine[:max(0, len(mine) - self._allowed(actor, skill) + 1)]
            action.replaced = [a.describe() for a in drop]
            self.actions = [a for a in self.actions if a not in drop]
        self.actions.append(action)
        if self.answered_at_once(skill):
            self._resolve_now(action, skill)
        return action

    def ahead_window(self, ev: ActEvent) -> int | None:
        """The later window of the current phase at whose opening ``check`` accepts ``ev``, the
        earlier ones resolved (on a private copy) with the inputs so far; None: none does, or
        the phase has no window left after this one (a plain ``resolve`` closes every window,
        so a skill gained at 早夜 may be sent with the rest of the night's PMs)."""
        windows = self.phase.windows
        if not windows or self.window >= len(windows) - 1 or self.winner is not None or ev.actor not in self.players:
            return None
        import copy

        later = {n for w in windows[self.window + 1:] for n in w}
        if not any(step in later for step in self.ruleset.skill_steps.get(ev.skill.strip(), ())):
            return None  # no skill of that name resolves in a later window
        memo = {id(x): x for x in (self.setup, self.ruleset, self.manifest, self.pm, self.hook, self.log,
                                   *self.cycle, *self.openings)}
        trial = copy.deepcopy(self, memo)
        trial.log = SILENT
        while trial.window < len(windows) - 1:
            try:
                trial.resolve()
            except GameError:
                return None
            if trial.label != self.label or trial.winner is not None or trial.pending_rewind is not None:
                return None
            try:
                trial.check(ev)
            except GameError:
                continue
            return trial.window
        return None

    def _open_ahead(self, res: Resolution) -> None:
        """The window just opened: each action sent ahead for it is checked again and recorded
        (in its submission order: a group's later action stands), or refused and dropped."""
        due = [x for x in self.ahead if x[1] <= self.window]
        if not due:
            return
        self.ahead = [x for x in self.ahead if x[1] > self.window]
        for ev, _, seq in due:
            try:
                action = self.check(ev)
            except GameError as exc:
                res.trace("ahead", f"{ev.actor}'s {ev.skill} sent ahead is refused: {exc}")
                self.ahead_refused = [*self.ahead_refused, (self.label, ev.actor, ev.skill, str(exc))]
                continue
            action.seq = seq
            skill, _ = self.find_skill(self.players[action.actor], action.skill)
            if skill.group:
                _, mine = self._used_in_phase(self.players[action.actor], skill)
                if any(a.seq > seq for a in mine):
                    res.trace("ahead", f"{ev.actor}'s {ev.skill} sent ahead is replaced by the group's later action")
                    continue
                action.replaced = [a.describe() for a in mine]
                self.actions = [a for a in self.actions if a not in mine]
            self.actions.append(action)
            res.trace("ahead", f"{ev.actor}'s {ev.skill} sent ahead is recorded")

    def answered_at_once(self, skill: Skill) -> bool:
        """A use of ``skill`` now is resolved when sent (an immediate skill, or one opened outside
        its phases), not kept for the phase's resolution."""
        return skill.immediate or not self.in_phase(skill)

    def _unknown_arg(self, skill: Skill, action: Action) -> str | None:
        """An ``--arg`` the skill does not declare, in the ruleset's wording (asked after the
        rules' own checks, so a role's message on its arguments comes first)."""
        text = self.manifest.texts.refuse_unknown_arg
        if not action.args or not text:
            return None
        unknown = [k for k in action.args if k not in skill.args]
        # (every argument declared, the common case, is answered before the skill's
        # declarations are read for a free-form one)
        if not unknown or any(k.startswith("<") for k in skill.args):
            return None
        takes = "、".join(f"--arg {k}=…" for k in skill.args) or "—"
        return text.format(actor=action.actor, skill=skill.name, arg=unknown[0], takes=takes)

    def unannounced_exits(self) -> set[str]:
        """The players who left in this phase while its public lines are held (``hold_public``: an
        immediate death at M217's 黄昏 or 晨曦): the thread hears of them when the phase closes, so
        a player's view shows them in the game until then (the one who left is told at once)."""
        if not self.phase.hold_public or self.winner is not None or self.draw:
            return set()
        return set(self.out.get(self.label, ()))

    def window_of(self, step: str) -> int:
        """The index of the window of the current phase that resolves ``step`` (0 without windows)."""
        for i, names in enumerate(self.phase.windows):
            if step in names:
                return i
        return 0

    def window_name(self, i: int | None = None, spec: PhaseSpec | None = None) -> str:
        """Window ``i`` (default: the current one) of the phase ``spec`` (default: the current
        phase) as the board names it (``PhaseSpec.window_names``: M217's 早夜 … 凌晨), else
        "第N个行动时间段"."""
        spec = self.phase if spec is None else spec
        i = self.window if i is None else i
        names = spec.window_names
        return names[i] if 0 <= i < len(names) else self.msg("window_nth", n=i + 1)

    def in_phase(self, skill: Skill) -> bool:
        """The skill may be used in the current phase: one of its ``phases``, or the phase the
        current one ``continues``."""
        return self.phase.name in skill.phases or bool(self.phase.continues and self.phase.continues in skill.phases)

    def _pending_uses(self, actor: Player, skill: Skill) -> int:
        return sum(1 for a in self.actions if a.actor == actor.name and a.skill == skill.name)

    def _target(self, actor: Player, skill: Skill, name: str) -> str:
        t = self.players.get(name)
        if t is None:
            t = self.players.get(self.find_name(name))
        if t is None:
            raise GameError(self.msg("unknown_target", name=name, skill=skill.name))
        # an exit not yet announced (a death at M217's 黄昏 held until the dusk closes) is not
        # refused: the refusal would tell the sender of a death the thread has not heard of
        if not t.alive and not skill.may_target_dead and (t.name == actor.name or t.name not in self.unannounced_exits()):
            raise GameError(self.msg("target_out", name=t.name, skill=skill.name))
        if t.name == actor.name and not skill.may_target_self:
            raise GameError(self.msg("target_self", skill=skill.name))
        return t.name

    def standing(self, player: str, skill_name: str) -> Action:
        """The action ``unact PLAYER SKILL`` withdraws: the player's own, or for a group skill
        the group's standing one, whichever member sent it (the latest, if a rule lets the
        group send more than one)."""
        actor = self.player(player)
        skill, _ = self.find_skill(actor, skill_name)
        for a in reversed(self.actions):
            if a.skill == skill.name and (a.actor == actor.name or (skill.group and a.group == skill.group)):
                if skill.immediate or a.answered:
                    raise GameError(self.msg("answered_at_once", skill=skill.name))
                return a
        raise GameError(self.msg("nothing_to_withdraw", name=actor.name, skill=skill.name, label=self.named()))

    def withdraw(self, ev: UnactEvent) -> None:
        try:
            action = self.standing(ev.actor, ev.skill)
        except GameError:
            # an action sent ahead for a later window is withdrawn like a standing one
            actor = self.find_name(ev.actor)
            waiting = [x for x in self.ahead if x[0].actor == actor and x[0].skill.strip() == ev.skill.strip()]
            if not waiting:
                raise
            self.ahead = [x for x in self.ahead if x is not waiting[-1]]
            return
        skill, _ = self.skills_of(self.player(action.actor)).get(action.skill, (None, False))
        if skill is not None and self.window_of(skill.step) < self.window:
            raise GameError(self.msg("window_withdraw", skill=skill.name))
        self.actions.remove(action)

    def _resolve_now(self, action: Action, skill: Skill) -> None:
        action.answered = True
        res = Resolution(self, step="immediate")
        if skill.uses is not None:
            self.player(action.actor).uses[skill.name] -= 1
        if skill.effect is not None:
            try:
                skill.effect(res, action)
            except GameError:
                raise
            except Exception as exc:  # a plugin's fault: this action is refused, nothing is stored
                raise self.fault(exc, res.step, action.actor, action.skill) from None
        self._remember_use(action)
        res.finish_immediate()

    def _remember_use(self, a: Action) -> None:
        self.last_use[(a.group or a.actor, a.skill)] = (self.day, self.phase.name, list(a.chosen))

    # ----------------------------------------------------------------------------- votes

    def cast(self, ev: VoteEvent, checked: Ballot | Player | None = None) -> None:
        """Record ``ev`` if ``check_vote`` accepts it. ``checked`` (``apply``), with nothing
        applied since: the ballot ``check_vote`` gave for ``ev``, recorded as it is; or the
        voter whose own checks and target the listing accepted: only the rules' check of the
        ballot is asked."""
        if checked is None:
            ballot = self.check_vote(ev)
        elif isinstance(checked, Ballot):
            ballot = checked
        else:
            ballot = self.check_ballot(checked, ev)
        self.seq = ballot.seq
        self.ballots.append(ballot)

    def check_vote(self, ev: VoteEvent) -> Ballot:
        """Whether ``vote`` accepts ``ev`` now: the ballot it would record, or GameError saying
        why not. Changes nothing (``choices.vote_choices`` asks it)."""
        voter = self.check_voter(ev)
        self.check_vote_target(ev.target)
        self.check_vote_change(voter, ev)
        return self.check_ballot(voter, ev)

    # ``check_vote`` in its parts, asked in its order; ``choices.vote_choices`` asks the voter's
    # (``check_voter``, ``check_vote_change``) once and the others for each target

    def check_voter(self, ev: VoteEvent) -> Player:
        """The voter may vote now (a vote phase, in the game, with the post the board asks)."""
        if not self.phase.vote:
            raise GameError(self.msg("no_vote_phase", label=self.named()))
        voter = self.player(ev.voter)
        if not voter.alive:
            raise GameError(self.refusal(self.manifest.texts.refuse_voter_out, "voter_out", name=voter.name))
        v = self.manifest.vote
        if v.post == "required" and ev.post is None:
            raise GameError(self.refusal(v.post_warning, "post_required", name=voter.name))
        return voter

    def check_vote_target(self, name: str) -> None:
        """``name`` may be voted for now (the abstain word, or a player in the game and in the runoff)."""
        why = self.vote_target_refused(name)
        if why is not None:
            raise GameError(why())

    def vote_target_refused(self, name: str):
        """None where ``name`` may be voted for now, else a function making the refusal line
        (made only when it is shown: ``choices.vote_choices`` asks of every seat)."""
        v = self.manifest.vote
        texts = self.manifest.texts
        runoff = self.scheduled.get(self.phase.name) if self.phase.optional else None
        if name == v.abstain:
            if runoff is not None and not v.runoff_abstain:
                return lambda: self.refusal(texts.refuse_runoff_abstain, "runoff_abstain", label=self.named(),
                                            names=self.msg("or").join(runoff))
            return None
        target = self.players.get(name) or self.player(name)
        if not target.alive:
            return lambda: self.refusal(texts.refuse_target_out, "vote_target_out", name=target.name)
        if runoff is not None and target.name not in runoff:
            return lambda: self.refusal(texts.refuse_runoff_target, "runoff_target", label=self.named(),
                                        names=self.msg("and").join(runoff))
        return None

    def check_vote_change(self, voter: Player, ev: VoteEvent) -> None:
        """A first vote, or a change the board allows."""
        v = self.manifest.vote
        texts = self.manifest.texts
        mine = [b for b in self.ballots if b.voter == voter.name]
        if ev.change:
            if ev.late and not v.late_changes:
                raise GameError(self.refusal(texts.refuse_late_change, "late_change", name=voter.name, label=self.named()))
            if not mine:
                raise GameError(self.msg("no_vote_to_change", name=voter.name))
            if len(mine) > v.changes:
                raise GameError(self.refusal(texts.refuse_changes, "changes_used", name=voter.name, changes=v.changes))
        elif mine:
            raise GameError(self.msg("voted_already", name=voter.name))

    def check_ballot(self, voter: Player, ev: VoteEvent) -> Ballot:
        """The ballot ``ev`` records, if the rules' own checks (``bansha_validate_vote``) accept it."""
        return self.validate_ballot(self.ballot_of(voter, ev))

    def ballot_of(self, voter: Player, ev: VoteEvent) -> Ballot:
        """The ballot ``ev`` would record."""
        return Ballot(voter=voter.name, target=ev.target, post=ev.post, change=ev.change, proxy=ev.proxy,
                      late=ev.late, time=ev.time, seq=self.seq + 1)

    def validate_ballot(self, ballot: Ballot) -> Ballot:
        """``ballot`` if the rules' own checks (``bansha_validate_vote``) accept it."""
        for reason in self.hook.bansha_validate_vote(game=self, ballot=ballot):
            if reason:
                raise GameError(reason)
        return ballot

    # ------------------------------------------------------------------------ resolution

    def resolve(self) -> Resolution:
        res = Resolution(self)
        label = self.label
        windows = self.phase.windows
        # a phase with windows resolves one window at a time (``PhaseSpec.windows``)
        now = set(windows[self.window]) if windows else None
        last = not windows or self.window == len(windows) - 1
        if self.window == 0:
            self._snapshot("resolve")
        if self.carried is not None:
            res.kills, res.data, res.out = self.carried
            self.carried = None
        counted = counted_skills(self.ruleset)
        for a in self.actions:
            if a.skill not in counted:
                continue  # no skill of that name has counted uses: nothing to take off
            skill, _ = self.skills_of(self.player(a.actor)).get(a.skill, (None, False))
            if (skill is not None and skill.uses is not None and not skill.immediate and not a.answered
                    and (now is None or skill.step in now)):
                self.player(a.actor).uses[skill.name] -= 1
        actor, doing = "", ""  # the action's actor and skill, or ("", a handler): what a fault is in
        try:
            for step in self.phase.steps:
                if step.start or (now is not None and step.name not in now):
                    continue  # resolved when the phase began (``_start_steps``), or in another window
                res.step = step.name
                for h in step.handlers:
                    actor, doing = "", h
                    self.ruleset.handlers[h](res)
                for a in res.actions_in(step.name):
                    if a.void:
                        res.trace("void", f"{a.actor}'s {a.skill} has no effect: {a.void}")
                        continue
                    # an earlier effect of the step may have taken the skill away (a card put away)
                    skill, _ = self.skills_of(self.player(a.actor)).get(a.skill, (None, False))
                    if skill is None:
                        res.void(a, f"{a.actor} no longer has {a.skill}", rule="skills")
                    elif skill.effect is not None:
                        actor, doing = a.actor, a.skill
                        skill.effect(res, a)
                for h in step.after:
                    actor, doing = "", h
                    self.ruleset.handlers[h](res)
        except GameError:
            raise
        except Exception as exc:  # a plugin's fault: this resolve is refused, nothing is stored
            raise self.fault(exc, res.step, actor, doing) from None
        if not last:
            # > 夜晚阶段，则需要等待当前行动时间段结束之后再通知 (M217): the window's feedback is told
            # now, its public lines wait for the phase to close; the next window's actions follow
            self.held.extend(res.public)
            res.public = []
            res.publish_late()
            self.carried = (res.kills, res.data, res.out)
            self.window += 1
            res.trace("window", self.msg("window_done", window=self.window_named(self.window - 1, label)))
            self._open_ahead(res)
            return res
        for a in self.actions:
            self._remember_use(a)
        for p in self.players.values():
            if p.statuses:
                p.statuses = [s for s in p.statuses if s.until != label]
        res.publish()
        for name in [n for n, owed in self.last_words.items() if owed["until"] == label]:
            # "死者未在规定时间内遗言视为放弃遗言": published if recorded, lapsed if not
            if self.last_words.pop(name)["text"] is None:
                self.lapsed_words[name] = label
                res.trace("遗言", f"{name}'s last words lapse")
        self.resolved.append(label)
        self.log.info("resolved", phase=label, out=res.out)
        self.check_win(res)
        if self.pending_rewind is None and self.winner is None:
            # (a phase turned back is not left: nothing of the next phase may begin; a game
            # that ended stays in the phase that ended it: its day is the game's length)
            self.advance()
        self._rewind_if_asked()
        return res

    def advance(self) -> None:
        self.actions = []
        self.ballots = []
        self.window, self.carried = 0, None
        self.ahead = []
        while True:
            if self.phase.opening:
                i = self.openings.index(self.phase)
                if i + 1 < len(self.openings):
                    self.phase = self.openings[i + 1]
                else:
                    self.phase, self.day = self.cycle[0], self.manifest.first_day
            else:
                i = self.cycle.index(self.phase)
                if i + 1 < len(self.cycle):
                    self.phase = self.cycle[i + 1]
                else:
                    self.phase, self.day = self.cycle[0], self.day + 1
            if not self.phase.optional or self.phase.name in self.scheduled:
                break
        self._open_phase()

    def _open_phase(self) -> None:
        """The phase begins: the rules' turn of the clock (``bansha_phase_started``), then what
        its start publishes and does (``bansha_phase_opened``, a resolution of its own)."""
        self.hook.bansha_phase_started(game=self)
        res = Resolution(self, step="开始")
        self.hook.bansha_phase_opened(res=res)
        if self.phase.hold_public:
            self.held.extend(res.public)
            res.public = []
        res.publish_late()
        self._start_steps()
        self._snapshot("start")

    def _start_steps(self) -> None:
        """The phase's ``start`` steps, resolved as it begins (M217's 黄昏 (1): the vote-out is
        settled before the dusk's immediate skills are sent): their handlers and ``after``
        handlers, told as an immediate answer is (public lines held in a ``hold_public`` phase)."""
        steps = [step for step in self.phase.steps if step.start]
        if not steps or self.winner is not None:
            return
        res = Resolution(self, step=steps[0].name)
        for step in steps:
            res.step = step.name
            for h in (*step.handlers, *step.after):
                self.ruleset.handlers[h](res)
        res.finish_immediate()

    # -------------------------------------------------------------------- turning back time

    #: the live state a rewind restores; history (feedback, announcements, trace, out) stays
    _REWOUND = ("players", "actions", "ballots", "scheduled", "last_use", "data", "winner", "draw", "scores", "out",
                "last_words", "lapsed_words", "window", "carried", "ahead")

    def _snapshot(self, point: str) -> None:
        # A moment is remembered as a count of events, not as a copy of the state: a deep copy
        # at every night and noon was 30-40 % of an m217 replay, in games where no clock is ever
        # turned back. A "start" is reached by the event being applied (a resolve), a
        # "resolve" is before it.
        wanted = self.manifest.rewind
        if wanted is True or (wanted and f"{self.phase.name}:{point}" in wanted):
            n = len(self.applied) + (point == "start" and self._in_event)
            self.snapshots[(self.label, point)] = (self.phase, self.day, n)

    def _state_after(self, n: int) -> dict[str, Any]:
        """The live state after the game's first ``n`` events: they are replayed on a new game
        (the log is the game; a replay draws the same)."""
        past = Game(self.setup, self.ruleset)
        for ev in self.applied[:n]:
            past.apply(ev)
        return {k: getattr(past, k) for k in self._REWOUND}

    def _rewind_if_asked(self) -> None:
        if self.pending_rewind is None:
            return
        label, point, keeps = self.pending_rewind
        self.pending_rewind = None
        phase, day, n = self.snapshots[(label, point)]
        seated = {p.seat: p.name for p in self.players.values()}
        for k, v in self._state_after(n).items():
            setattr(self, k, v)
        self.phase, self.day = phase, day
        # a substitute stays in the seat: turning back the clock does not bring back who left
        self._rename({p.name: seated[p.seat] for p in self.players.values() if seated[p.seat] != p.name})
        for keep in keeps:
            keep(self)
        self.trace.append(TraceLine(phase=self.label, step="rewind", rule="rewind",
                                    text=f"the game turns back to the {point} of {label}"))
        # what the keeps re-applied (a death by a day skill) may decide the game
        self.check_win()

    # ------------------------------------------------------------------------------- win

    def check_win(self, res: Resolution | None = None) -> None:
        # a rewind asked for in this resolution replaces the state: nothing is decided on it
        if self.winner is not None or self.pending_rewind is not None:
            return
        winners = self.hook.bansha_check_win(game=self)
        if winners is None:
            # the manifest's rules, compiled once per ruleset (Ruleset.win_rules)
            players = self.players.values()
            winners = []
            for camp, rules in self.ruleset.win_rules:
                for alive, sels in rules:
                    if win_holds(players, camp, alive, sels):
                        winners.append(camp)
                        break
        if winners:
            self.end(winners, res)

    def rule_holds(self, camp: str, rule) -> bool:
        """Whether one of the manifest's win rules holds for ``camp`` now (a rule plugin's
        ``bansha_check_win`` may weigh them differently)."""
        return win_holds(self.players.values(), camp, rule.require_alive, compile_selectors(rule.all_out))

    def end(self, winners: list[str], res: Resolution | None = None, draw: bool = False) -> None:
        self.winner = winners
        self.draw = draw
        sc = self.manifest.scores
        if draw:
            self.scores = {n: sc.draw for n in self.players}
        else:
            factor = sc.joint if len(winners) > 1 else 1.0
            for p in self.players.values():
                if p.camp in winners:
                    rule = next((r for r in sc.table if matches(p, r)), None)
                    if rule is not None:
                        self.scores[p.name] = rule.points * factor
        texts = self.manifest.texts
        tmpl = texts.draw if draw and texts.draw else texts.joint_win if len(winners) > 1 and texts.joint_win else texts.win
        text = tmpl.format(camps="、".join(winners) if winners else "平局")
        if self.held:  # the phase will not close: what waited for it is told before the end
            self.announcements.extend((self.label, line) for line in self.held)
            self.held = []
        if res is not None:
            res.announce(text)
            res.publish_late()
        else:
            self.announcements.append((self.label, text))

    # --------------------------------------------------------------------------- rulings

    def owes_last_words(self, res: Resolution, player: Player, kill: Kill) -> bool:
        """Whether this exit owes last words: the rules' ``bansha_last_words``, else the
        manifest's ``[last_words] owed`` rules (an exit whose kill forbids them owes none)."""
        owed = self.hook.bansha_last_words(game=self, player=player, kill=kill)
        if owed is None:
            owed = kill.last_words and self._last_words_rule(kill) is not None
        return bool(owed)

    def _last_words_rule(self, kill: Kill):
        """The first ``[last_words] owed`` rule this exit matches, or None."""
        return next((r for r in self.manifest.last_words.owed
                     if (not r.phases or self.phase.name in r.phases) and (not r.days or self.day in r.days)
                     and (not r.kinds or kill.kind in r.kinds)), None)

    def next_label_named(self, name: str) -> str:
        """The label of the next phase called ``name`` from the current one (the current one if it
        is); "" or a name the cycle has not: the current label."""
        if not name or name == self.phase.name:
            return self.label
        if not any(p.name == name for p in self.cycle):
            return self.label
        if self.phase.opening:
            day, i = self.manifest.first_day, 0
        else:
            day, i = self.day, self.cycle.index(self.phase)
        for _ in range(len(self.cycle) + 1):
            if self.cycle[i].name == name:
                return f"{name} {day}"
            i += 1
            if i == len(self.cycle):
                i, day = 0, day + 1
        return self.label

    def lapsing_last_words(self, whole: bool = True) -> list[str]:
        """Who is owed last words not yet recorded that closing the current phase ends (``whole``:
        every window left; else the current window only, which ends none but the last)
        (``bansha resolve`` refuses to close it unless --yes, naming them)."""
        if not whole and self.phase.windows and self.window < len(self.phase.windows) - 1:
            return []
        return [n for n, owed in self.last_words.items() if owed["until"] == self.label and owed["text"] is None]

    def _last_words(self, ev: RulingEvent) -> None:
        cfg = self.manifest.last_words
        p = self.player(ev.player)
        owed = self.last_words.get(p.name)
        if owed is None and p.name in self.lapsed_words:
            # owed, and the time the board gives is past: say so, not that none were owed
            raise GameError(self.msg("lw_lapsed", name=p.name, until=self.named(self.lapsed_words[p.name])))
        if owed is None:
            raise GameError(self.refusal(cfg.refuse_not_owed, "lw_not_owed", name=p.name))
        if owed["text"] is not None:
            raise GameError(self.refusal(cfg.refuse_recorded, "lw_recorded", name=p.name))
        text = ev.text.strip()
        if not text:
            raise GameError(self.refusal(cfg.refuse_empty, "lw_empty", name=p.name))
        if cfg.max_chars and len(text) > cfg.max_chars:
            raise GameError(self.refusal(cfg.refuse_too_long, "lw_too_long", name=p.name, count=len(text), max=cfg.max_chars))
        for f in cfg.forbid:
            if re.search(f.pattern, text):
                raise GameError(f.reason.format(name=p.name))
        for reason in self.hook.bansha_check_last_words(game=self, player=p, text=text):
            if reason:
                raise GameError(reason)
        owed["text"] = text
        line = cfg.text.format(name=p.name, text=text)
        # they appear in the next announcement: this phase's, first (or at once if the game is over)
        if self.winner is not None:
            self.announcements.append((self.label, line))
        else:
            self.held.append(line)

    def _ruling(self, ev: RulingEvent) -> None:
        if self.winner is not None and ev.kind == self.manifest.last_words.kind and self.manifest.last_words.owed:
            self._last_words(ev)
            self.rulings.append(ev)
            return
        if self.winner is not None and ev.kind != "announce":
            raise GameError(self.msg("over_only_announce", kind=ev.kind))
        # the rules may refuse a ruling (a seat substituted once already) before anything changes
        for reason in self.hook.bansha_validate_ruling(game=self, ruling=ev):
            if reason:
                raise GameError(reason)
        res = Resolution(self, step="ruling")
        if self.hook.bansha_apply_ruling(res=res, ruling=ev):
            res.trace("director", f"ruling {self.ruleset.ruling_name(ev.kind)} applied by the rules")
        elif ev.kind == "remove":
            p = self.player(ev.player)
            if not p.alive:
                raise GameError(self.msg("already_out", name=p.name))
            res.trace("director", f"{p.name} removed: {ev.text or 'ruling'}")
            res.remove(p, Kill(target=p.name, kind="ruling", rule="director", last_words=False))
        elif ev.kind == "announce":
            if not ev.text:
                raise GameError(self.msg("announce_needs_text"))
            res.announce(ev.text)
        elif ev.kind == "substitute":
            p = self.player(ev.player)
            new = check_name(ev.text, "what_player", self.lang, reserved=reserved_of(self.manifest))
            if fold(new) in {fold(n) for n in self.players}:
                raise GameError(self.msg("substitute_bad", name=new))
            uid = str(ev.data.get("uid", "")).strip()
            if uid and not (uid.isascii() and uid.isdigit() and len(uid) <= 18):
                raise GameError(self.msg("substitute_uid", uid=uid[:40]))
            if uid and any(u == uid for seat, u in self.uids.items() if seat != p.seat):
                raise GameError(self.msg("uid_twice", uid=uid))
            if uid:
                self.uids[p.seat] = uid
            else:
                self.uids.pop(p.seat, None)
            self.feedback[new] = self.feedback.pop(p.name)
            if p.name in self.feedback_facts:
                self.feedback_facts[new] = self.feedback_facts.pop(p.name)
            self._rename({p.name: new})
            res.announce(f"{ev.player}由{new}替补。")
        elif ev.kind == "draw":
            self.end([], res, draw=True)
        elif ev.kind == self.manifest.last_words.kind and self.manifest.last_words.owed:
            self._last_words(ev)
        elif ev.kind == "answer":
            # recorded below for the rule plugins that read game.rulings, but only for a player
            # the game waits on (bansha_awaited_rulings): an answer to nobody's question is a slip
            awaited = [r for found in self.hook.bansha_awaited_rulings(game=self) for r in found or []]
            if not any(r.get("kind") == "answer" and r.get("player") == ev.player for r in awaited):
                raise GameError(self.msg("answer_not_asked", name=ev.player))
        else:
            kinds = self.ruleset.ruling_kinds
            raise GameError(self.msg("unknown_ruling", kind=ev.kind, kinds=join(kinds, self.lang))
                            + self.msg("ruling_names", names=join(map(self.ruleset.ruling_name, kinds), self.lang)))
        self.rulings.append(ev)
        res.finish_immediate()

    def _rename(self, names: dict[str, str]) -> None:
        """Substitutes (old name -> new name) take over their seats: the player, the seat's
        pending actions and votes, the votes cast for it, its last use of a skill and its
        place in a scheduled run-off. What was told and announced stays history."""

        def rn(name: str) -> str:
            return names.get(name, name)

        for p in self.players.values():
            p.name = rn(p.name)
        self.players = {p.name: p for p in sorted(self.players.values(), key=lambda p: p.seat)}
        self.dealt = {rn(n): role for n, role in self.dealt.items()}
        for a in self.actions:
            a.actor, a.chosen, a.targets = rn(a.actor), [*map(rn, a.chosen)], [*map(rn, a.targets)]
        for b in self.ballots:
            b.voter, b.target = rn(b.voter), rn(b.target)
        self.last_use = {(rn(who), skill): (day, phase, [*map(rn, chosen)])
                         for (who, skill), (day, phase, chosen) in self.last_use.items()}
        self.scheduled = {k: [*map(rn, v)] if isinstance(v, list) else v for k, v in self.scheduled.items()}
        # the rules' own records (lovers, an idol, a list of heretics, an action's arguments):
        # every string that is exactly an old name, as a key or a value, at any depth
        self.data = _renamed(self.data, names)
        for p in self.players.values():
            p.data = _renamed(p.data, names)
            for st in p.statuses:
                st.data = _renamed(st.data, names)
                st.source = rn(st.source) if isinstance(st.source, str) else st.source
        for a in self.actions:
            a.args = _renamed(a.args, names)


def _renamed(value, names: dict[str, str]):
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, dict):
        return {_renamed(k, names): _renamed(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, names) for v in value]
    if isinstance(value, tuple):
        return tuple(_renamed(v, names) for v in value)
    return value


class SeededDraws(random.Random):
    """The random source of one resolution: seeded from the game's seed, the phase and the
    event sequence (so a replay draws the same), and every draw written to the ruling trace."""

    def __init__(self, seed: str, res: Resolution):
        super().__init__(seed)
        self._res = res

    def choice(self, seq):
        got = super().choice(seq)
        self._res.trace("random", f"drew {got!r} from {len(seq)} options")
        return got

    def sample(self, population, k, **kw):
        got = super().sample(population, k, **kw)
        self._res.trace("random", f"drew {got!r} from {len(population)} options")
        return got

    def randint(self, a, b):
        got = super().randint(a, b)
        self._res.trace("random", f"rolled {got} in {a}..{b}")
        return got


def matches(p: Player, sel) -> bool:
    if sel.role and p.role not in sel.role:
        return False
    if sel.camp and p.camp not in sel.camp:
        return False
    if sel.group and not set(sel.group) & set(p.groups):
        return False
    return True


_NO_STEPS: frozenset[str] = frozenset()


class Resolution:
    """What a phase's resolution (or one immediate answer) produces; handed to every effect.

    Effects read ``res.game`` and change it only through these methods, so that every change
    is traced and every line reaches the right reader.
    """

    def __init__(self, game: Game, step: str = ""):
        self.game = game
        self.label = game.label
        self.step = step
        self.actions: list[Action] = game.actions
        # the random source is seeded when first used (seeding is a SHA-512 of the seed
        # string; most resolutions draw nothing), from the moment the resolution began: its
        # step and the game's count of inputs then (the string is made only if it is used)
        self._seed_at = (step, game.seq)
        self._rng: SeededDraws | None = None
        self.lines: dict[str, list[str]] = {}
        #: player -> {index in ``lines``: the facts that line states}
        self.line_facts: dict[str, dict[int, tuple[Fact, ...]]] = {}
        self.public: list[str] = []
        self.kills: list[Kill] = []
        self.out: list[str] = []
        #: scratch space for one resolution: plugins keep intermediate results here
        self.data: dict[str, Any] = {}

    @property
    def rng(self) -> SeededDraws:
        """The resolution's random source (``SeededDraws``): every draw is traced."""
        if self._rng is None:
            step, seq = self._seed_at
            self._rng = SeededDraws(f"{self.game.setup.seed}/{self.label}/{step}/{seq}", self)
        return self._rng

    @rng.setter
    def rng(self, value) -> None:
        self._rng = value

    # -- reading

    def actions_in(self, step: str) -> list[Action]:
        game = self.game
        players, skills_of = game.players, game.skills_of
        # only the actions whose skill name resolves in this step somewhere in the ruleset are
        # looked up (the lookup was a third of an m217 night: 22 steps, every action each time)
        if step not in game.ruleset.steps_of_skills:
            return []  # no skill of the ruleset resolves in this step (deaths, dawn …)
        steps = game.ruleset.skill_steps
        chosen = []
        for a in self.actions:
            if step not in steps.get(a.skill, _NO_STEPS):
                continue
            # looked up each step: a player may lose or gain a skill during the resolution
            actor = players[a.actor]
            skill, _ = skills_of(actor).get(a.skill, (None, False))
            if skill is not None and skill.step == step and not skill.immediate and not a.answered:
                # an acquired skill goes after the real role's, by its caster's actual identity
                # in the manifest's ``identity_order``, then by submission
                rank = game.ruleset.identity_rank.get(actor.role, len(game.ruleset.identity_rank)) if a.acquired else -1
                # (the place in the list breaks a tie, as a stable sort on the four keys does)
                chosen.append((skill.priority, a.acquired, rank, a.seq, len(chosen), a))
        if len(chosen) < 2:
            return [t[-1] for t in chosen]
        chosen.sort()
        return [t[-1] for t in chosen]

    def of(self, skill: str) -> list[Action]:
        """Actions of a skill in this phase, in submission order."""
        return [a for a in self.actions if a.skill == skill]

    def by(self, actor: str) -> list[Action]:
        return [a for a in self.actions if a.actor == actor]

    # -- changing

    def trace(self, rule: str, text: str) -> None:
        game = self.game
        game.trace.append(TraceLine(phase=self.label, step=self.step, rule=rule, text=text))
        if game.log is not SILENT:  # (a replay's logger drops it: not even called)
            game.log.debug("trace", phase=self.label, step=self.step, rule=rule, text=text)

    def void(self, action: Action, reason: str, rule: str = "") -> None:
        if action.void is None:
            action.void = reason
            self.trace(rule or "void", f"{action.actor}'s {action.skill} voided: {reason}")

    def redirect(self, action: Action, targets: list[str], rule: str) -> None:
        self.trace(rule, f"{action.actor}'s {action.skill}: {action.targets} -> {targets}")
        action.targets = list(targets)

    def feedback(self, player: str, text: str, *facts: Fact) -> None:
        """A private line to ``player``; ``facts``: what it states, as data (``model.Fact``)."""
        lines = self.lines.setdefault(player, [])
        if facts:
            self.line_facts.setdefault(player, {})[len(lines)] = facts
        lines.append(text)

    def announce(self, text: str) -> None:
        self.public.append(text)

    def kill(self, target: str, kind: str = "杀人", by: str = "", action: Action | None = None,
             rule: str = "", last_words: bool = True) -> None:
        self.kills.append(Kill(target=target, kind=kind, by=by, action=action, rule=rule, last_words=last_words))
        self.trace(rule or kind, f"{kind} on {target}" + (f" by {by}" if by else ""))

    def add_status(self, player: str, status: Status) -> None:
        self.game.player(player).statuses.append(status)
        self.trace(status.source or "status", f"{player} gains {status.name}" + (f" until {status.until}" if status.until else ""))

    def remove(self, player: Player, kill: Kill) -> None:
        """Take ``player`` out of the game now and announce it with their identity."""
        player.alive = False
        self.out.append(player.name)
        self.game.out.setdefault(self.label, []).append(player.name)
        self.game.exits.append((self.label, player.name, kill.kind))
        texts = self.game.manifest.texts
        tmpl = texts.voted_out if kill.kind == "vote" else texts.out
        self.announce(tmpl.format(name=player.name, identity=self.game.identity(player)))
        self.trace(kill.rule or kill.kind, f"{player.name} is out ({kill.kind})")
        if self.game.owes_last_words(self, player, kill):
            rule = self.game._last_words_rule(kill)
            self.game.last_words[player.name] = {"out": self.label, "until": None, "text": None,
                                                 "until_phase": rule.until if rule is not None else ""}
            self.trace("遗言", f"{player.name} is owed last words")
        self.game.hook.bansha_on_death(res=self, player=player, kill=kill)

    def schedule(self, phase: str, data: Any = True) -> None:
        """Play the optional phase ``phase`` next (a run-off), with ``data`` for it."""
        self.game.scheduled[phase] = data
        self.trace("schedule", f"{phase} scheduled")

    # -- closing

    def publish(self) -> None:
        """Close the phase's resolution: what was held for the phase goes first."""
        g = self.game
        self.public, g.held = [*g.held, *self.public], []
        self.publish_late()
        # scheduled optional phases are consumed once played
        if g.phase.optional:
            g.scheduled.pop(g.phase.name, None)

    def publish_late(self) -> None:
        """Tell what this resolution produced so far: private lines, then public ones."""
        g = self.game
        for name, lines in self.lines.items():
            told = g.feedback.setdefault(name, [])
            for i, facts in self.line_facts.get(name, {}).items():
                g.feedback_facts.setdefault(name, {})[len(told) + i] = facts
            told.extend((self.label, line) for line in lines)
        g.announcements.extend((self.label, line) for line in self.public)
        self.lines, self.line_facts, self.public = {}, {}, []

    def rewind(self, to: str, point: str = "start", keep=None) -> None:
        """Turn the game back to the ``point`` ("start" or "resolve": just before it was
        resolved) of phase ``to`` once this resolution is over. Every player's state, actions
        and votes return to what they were then; what was announced and told stays told.
        ``keep(game)`` re-applies what survives the rewind (the skill that caused it).
        Needs ``rewind`` in the manifest (the moments to turn back to are remembered only then).

        Several rewinds asked for in one resolution (two clocks at one dusk) make one: the
        game turns back to the earliest of the moments asked for, and every ``keep`` is
        applied, in the order asked."""
        g = self.game
        key = (g.canonical(to), point)
        if key not in g.snapshots:
            raise GameError(self.msg("no_moment", point=point, to=to))
        keeps = [keep] if keep is not None else []
        if g.pending_rewind is not None:
            label, old_point, old_keeps = g.pending_rewind
            mine = (g.parse_phase(key[0]), point != "start")
            theirs = (g.parse_phase(label), old_point != "start")
            if theirs <= mine:
                key = (label, old_point)
            keeps = [*old_keeps, *keeps]
        g.pending_rewind = (key[0], key[1], keeps)
        self.trace("rewind", f"the game will turn back to the {key[1]} of {key[0]}")

    def finish_immediate(self) -> None:
        if self.game.phase.hold_public and self.game.winner is None:
            self.game.held.extend(self.public)
            self.public = []
        self.publish_late()
        self.game.check_win(self)
        self.game._rewind_if_asked()
