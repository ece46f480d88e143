"""The data model: what a role declares, what a manifest states, and what a game is made of.

Declarations (``Role``, ``Skill``) and stored records (``Setup``, the events) are frozen msgspec
structs; the live state of one game (``Player``, ``Action``, ``Status``) is mutable and is
rebuilt from the stored records by replaying the log (see ``engine.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

import msgspec

# the refusal is the text layer's (the door below the engine raises it too); named here as well,
# where role authors and the kernel have always found it
from bansha.text.messages import GameError as GameError

# --------------------------------------------------------------------------- declarations


class Skill(msgspec.Struct, kw_only=True, frozen=True):
    """One skill of a role, declared as data by its plugin.

    The kernel checks everything declared here before an action is recorded; what the skill
    *does* is ``effect``, called during resolution (or at once, for an ``immediate`` skill).
    """

    name: str
    alias: str = ""
    #: phase kinds in which the skill may be used ("night", "day" …)
    phases: tuple[str, ...] = ()
    #: the resolution step its actions run in, and their priority inside it (lower first);
    #: both may be overridden by the manifest's ``[skills.NAME]`` table
    step: str = ""
    priority: int = 100
    #: how many targets: exactly ``targets``, or from ``targets`` to ``max_targets``
    targets: int = 1
    max_targets: int | None = None
    may_target_self: bool = False
    may_target_dead: bool = False
    #: uses over the whole game (None: unlimited; 限定 skills have 1)
    uses: int | None = None
    #: uses in one phase
    per_phase: int = 1
    #: "不得连续…同一人": the chosen target may not be last phase's chosen target
    no_repeat_target: bool = False
    #: resolved when submitted (an answer at once), not when the phase closes
    immediate: bool = False
    #: usable after its holder has left the game (亡语, a last shot, a clock that turns back)
    while_out: bool = False
    #: a skill shared by a group (群内): one action per group and phase, any member sends it
    group: str | None = None
    #: the document's tags: 限定, 强制, 翻牌, 群内 …
    tags: tuple[str, ...] = ()
    #: documented arguments: name -> what it means (shown by ``bansha role show``)
    args: dict[str, str] = {}
    #: the rule text, quoted from the document
    rule: str = ""
    effect: Callable[..., None] | None = None
    #: what the skill does to its targets, for a simulated player's policy (``bansha simulate``,
    #: docs/simulate.md): any of "harm" (a kill, a block), "help" (a heal, a guard), "check" (a
    #: question whose answer is feedback). The engine never reads it.
    does: tuple[str, ...] = ()
    #: what each ``--arg`` takes, for a simulated player's policy (docs/simulate.md): a tuple of
    #: its values ("" among them: it may be left out; "{kind}" inside it: that kind's values), or
    #: a kind the simulator fills in: "camp", "role" (a role dealt at the table), "player", and,
    #: moving with the game, "alive", "post", "option:NAME", "view:KEY" (docs/plugins.md). An
    #: arg named ``<…>`` stands for players' names as keys (猜测's ``--arg 梦见=国王``). The
    #: engine never reads it.
    arg_values: dict[str, str | tuple[str, ...]] = {}
    #: the args whose ``arg_values`` are examples, not the only values taken (a free text: a
    #: letter's words, a question): a form offers a text field for them (``choices.py``)
    open_args: tuple[str, ...] = ()
    #: a homebrew skill's cards, one line each, as ``bansha role show`` prints them (homebrew.py)
    cards: tuple[str, ...] = ()


class Role(msgspec.Struct, kw_only=True, frozen=True):
    """A role as its plugin declares it (through the ``bansha_roles`` hook)."""

    name: str
    alias: str = ""
    #: the camp the role belongs to when dealt (None: the deal or the manifest says)
    camp: str | None = None
    #: a group whose members know each other and share the group's skills
    group: str | None = None
    skills: tuple[Skill, ...] = ()
    #: the rule text, quoted from the document
    rule: str = ""
    #: role-specific set-up keys a deal may give (e.g. ``number`` for 法师1/法师2)
    setup_keys: tuple[str, ...] = ()
    #: how a homebrew role meets named roles ("jinxes"), one line each (homebrew.py)
    jinxes: tuple[str, ...] = ()

    def skill(self, name: str) -> Skill | None:
        for s in self.skills:
            if name in (s.name, s.alias):
                return s
        return None


# ----------------------------------------------------------------------------- manifest


class Selector(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Picks players for win and score rules: every given key must match."""

    role: list[str] = []
    camp: list[str] = []
    group: list[str] = []
    #: with ``all_out``: the condition holds once at least this many of them are out
    min_out: int | None = None


class WinRule(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """One way for a camp to win: its own players alive (if ``require_alive``) and every
    selector in ``all_out`` out of the game."""

    all_out: list[Selector] = []
    require_alive: bool = True


class ScoreRule(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    role: list[str] = []
    camp: list[str] = []
    group: list[str] = []
    points: float = 0


class Scores(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    #: first matching rule gives a winner's points
    table: list[ScoreRule] = []
    #: factor applied on a joint win
    joint: float = 0.5
    draw: float = 0


class Step(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    name: str
    #: the step's name in the board's language, where the director reads it (log --explain)
    alias: str = ""
    #: step handlers (named by plugins through ``bansha_step_handlers``) run before the
    #: step's skills, then ``after`` handlers run after them
    handlers: list[str] = []
    after: list[str] = []
    #: resolved when the phase begins, not when it is resolved: its handlers (no skill resolves
    #: in it) settle what the phase opens with (M217's 黄昏 (1), the vote-out, before the dusk's
    #: immediate skills); its private lines are told at once, its public ones as the phase's
    start: bool = False


class PhaseSpec(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    name: str
    alias: str = ""
    #: an optional phase is played only when resolution schedules it (a run-off)
    optional: bool = False
    #: played once at the start, not in the cycle (M217's 开局)
    opening: bool = False
    steps: list[Step] = []
    #: votes are taken in this phase
    vote: bool = False
    #: the public lines of immediate answers wait for the phase to close (a death at dusk is
    #: announced with the dusk); private lines are told at once
    hold_public: bool = False
    #: the name of a phase this one continues on the same day (M217's extra 正午 continues
    #: 正午: "下一个白天额外进行一轮[正午]阶段 … 额外白天并不会让技能重新冷却"): the skills of that
    #: phase may be used here, and a skill used there that day counts as one use of this
    #: phase's ``per_phase``
    continues: str = ""
    #: the phase's action windows (行动时间段), each a list of its steps in order: ``resolve``
    #: resolves the current window only, tells its feedback (its public lines wait for the phase
    #: to close) and, while windows remain, stays in the phase, accepting the next window's
    #: actions; a skill whose window is resolved is refused. Empty: one window, every step
    windows: list[list[str]] = []
    #: each window's name as the board says it (M217: 早夜, 午夜, 深夜, 凌晨), one per window;
    #: empty: "第N个行动时间段" (``Game.window_name``)
    window_names: list[str] = []
    #: the day the board's name of the phase says, against the number of its id: -1 for a
    #: phase that belongs to the day before (M217's 黄昏 settles the vote of the 正午 before it,
    #: "黄昏——投票结束后到正式天黑前": ``dusk 2`` is 第1天 黄昏, the first ``dusk 1`` 第0天 黄昏).
    #: The ids (scenario files, the log) keep their numbers; names and what commands take follow it
    day_offset: int = 0


class SkillOverride(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    step: str | None = None
    priority: int | None = None


class Pool(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """"16选4": ``draw`` roles from ``roles`` without replacement."""

    name: str = ""
    roles: list[str]
    draw: int


class Constraint(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A deal constraint: ``exactly_one`` of these roles; ``role`` ``requires`` another;
    if ``role`` is dealt, one role of ``replace_from`` pool becomes ``role`` too."""

    exactly_one: list[str] = []
    role: str = ""
    requires: str = ""
    replace_from: str = ""


class Table(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """One table size: fixed role counts, draw pools and constraints, camps per seat."""

    seats: int
    #: role name -> count, dealt as is
    fixed: dict[str, int] = {}
    pools: list[Pool] = []
    constraints: list[Constraint] = []
    #: for rulesets whose roles serve every camp: camp -> list of roles in that camp
    camps: dict[str, list[str]] = {}
    #: role -> set-up key values handed out in order to its holders (mage numbers)
    numbering: dict[str, str] = {}


class Camp(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    name: str
    alias: str = ""


class VoteRule(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    #: the highest count must reach this fraction of the living (0: plurality)
    threshold: Annotated[float, msgspec.Meta(ge=0, le=1)] = 0.0
    #: a tie at the top (at or above the threshold): "none" or the name of a run-off phase
    tie: str = "none"
    changes: Annotated[int, msgspec.Meta(ge=0)] = 1
    #: may a vote be changed in the phase's last hour ("白天结束前1个小时不得改票")
    late_changes: bool = True
    abstain: str = "弃权"
    #: may a run-off vote abstain
    runoff_abstain: bool = False
    #: does the threshold apply to a run-off too (False: the higher count is out)
    runoff_threshold: bool = True
    #: publish each player's count, or only who is out
    show_counts: bool = True
    #: a vote without ``--post`` where a rule reads post numbers: "optional" (recorded as is),
    #: "warn" (recorded, and the CLI says ``post_warning``) or "required" (refused)
    post: Literal["optional", "warn", "required"] = "optional"
    #: the warning (or, for "required", the refusal) in the board's words; "" : the catalogue's
    post_warning: str = ""


class Texts(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Announcement templates; ``{name}``, ``{identity}``, ``{count}`` are filled in.

    The ``refuse_*`` templates are the kernel's own refusals in the ruleset's wording; empty
    (the default), the kernel's catalogue says it in the board's ``language`` (messages.py)."""

    out: str = "{name}出局，身份是{identity}。"
    voted_out: str = "{name}被投票出局，身份是{identity}。"
    nobody_out: str = "今日无人出局。"
    #: a phase's exits listed by cause in one line (M217's 黄昏 (3): "公示[投票出局]和[其他原因]出局的名单
    #: 分开列出"), ``{voted}`` and ``{other}``: where a rule publishes it, it is the exits' one line
    #: (the thread post reads it as the phase's exits); "" : none
    exits_split: str = ""
    #: ``{names}`` (all, joined by 、), ``{first}`` and ``{second}``
    runoff: str = "{names}平票，进入高票对决。"
    win: str = "游戏结束，{camps}胜利。"
    #: a win of two camps or more ("" : ``win``)
    joint_win: str = ""
    #: the director's draw ("" : ``win`` with 平局)
    draw: str = ""
    counts: str = "{name}：{count}票"
    refuse_no_uses: str = ""
    refuse_repeat_target: str = ""
    refuse_voter_out: str = ""
    refuse_target_out: str = ""
    refuse_runoff_target: str = ""
    refuse_runoff_abstain: str = ""
    refuse_changes: str = ""
    refuse_late_change: str = ""
    #: an ``--arg`` the skill does not declare (``{actor}``, ``{skill}``, ``{arg}``, ``{takes}``:
    #: its keys). "" : the kernel leaves arguments to the rules (M217 checks its own). A skill
    #: declaring a ``<…>`` key takes keys of its own (a guess keyed by player names)
    refuse_unknown_arg: str = ""


class LastWordsRule(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Which exits owe last words (遗言): one that matches every field given."""

    #: phase names the exit happens in (empty: any)
    phases: list[str] = []
    #: day numbers (empty: any; M217's 首夜 is ``phases = ["night"], days = [1]``)
    days: list[int] = []
    #: kill kinds (``vote``, ``杀人`` …; empty: any)
    kinds: list[str] = []
    #: the phase (by name) whose close ends them: the next one of that name from the exit
    #: (M217's 黄昏: "直到第二天开门前：…应当留下遗言的角色收到遗言通知，并留下遗言", ``dawn``); empty:
    #: the phase current once the exit's event is over
    until: str = ""


class Forbidden(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    #: a regular expression no last words may contain, and the refusal when they do
    pattern: str
    reason: str


class LastWords(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """``[last_words]``: who is owed last words and what they may hold. A player owed them is
    listed by ``bansha status`` until the phase that publishes them closes (the phase current
    once the exit has been resolved); the director records them with the ruling ``kind`` and
    they are announced first in that phase's announcement. Unrecorded, they lapse. No rule:
    nobody is owed any. Rule plugins add the board's own conditions (``bansha_last_words``,
    ``bansha_check_last_words``)."""

    owed: list[LastWordsRule] = []
    #: the ruling kind that records them (``bansha ruling GAME 遗言 PLAYER --text …``)
    kind: str = "遗言"
    #: at most this many characters (0: no limit)
    max_chars: int = 0
    forbid: list[Forbidden] = []
    #: the announcement line (``{name}``, ``{text}``)
    text: str = "{name}的遗言：{text}"
    #: refusals (``{name}``; ``{count}`` and ``{max}`` for the length); "" : the kernel's catalogue
    refuse_not_owed: str = ""
    refuse_recorded: str = ""
    refuse_empty: str = ""
    refuse_too_long: str = ""


class OptionType(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """``[option_types.NAME]``: what a house rule takes (options.py checks every value given).

    ``type``: ``bool``, ``int`` (``min``/``max``), ``number``, ``str`` (any text, or one of
    ``choices``), ``list`` (of text; each one of ``choices`` when given), ``time``
    (``YYYY-MM-DD HH:MM`` or empty) or ``table``. Undeclared, the default's type is the
    option's type."""

    type: str
    choices: list[Any] = []
    min: int | None = None
    max: int | None = None
    #: what a person reads for the option (the web's forms and stats, ``bansha new``'s refusals):
    #: its name and one line saying what it decides, in the board's language; a choice's own
    #: name where its value is an id (``{"game" = "整局"}``). Every shipped board gives them.
    label: str = ""
    help: str = ""
    choice_labels: dict[str, str] = {}


class Manifest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    id: str
    name: str
    #: the language of every kernel message and label for this board: "zh" (default) or "en"
    language: Literal["zh", "en"] = "zh"
    alias: list[str] = []
    description: str = ""
    #: rule plugins (entry-point names in ``bansha.roles``) for what belongs to the ruleset
    rules: list[str] = []
    #: role name -> entry-point name of the plugin that provides it
    roles: dict[str, str]
    #: roles that are never dealt but whose skills every player has (光影传说's 询问 and 猜测)
    common: list[str] = []
    camps: list[Camp]
    tables: list[Table]
    phases: list[PhaseSpec]
    #: the number the first cycle phase carries (光影传说 starts on day 0)
    first_day: int = 1
    skills: dict[str, SkillOverride] = {}
    vote: VoteRule = msgspec.field(default_factory=VoteRule)
    win: dict[str, list[WinRule]] = {}
    scores: Scores = msgspec.field(default_factory=Scores)
    texts: Texts = msgspec.field(default_factory=Texts)
    last_words: LastWords = msgspec.field(default_factory=LastWords)
    #: house rules: name -> default value (scenarios and games may override)
    options: dict[str, Any] = {}
    #: words no player may be named, besides the abstention word: they read as something else
    reserved_names: list[str] = []
    #: house rule -> its type and allowed values (``OptionType``)
    option_types: dict[str, OptionType] = {}
    #: the ruleset has skills that turn the clock back (``res.rewind``): remember every moment
    #: (true) or only the moments listed as "phase:start" or "phase:resolve" (a moment is a count
    #: of events; turning back to it replays them)
    rewind: bool | list[str] = False
    #: the demo script played by ``bansha demo`` (a scenario file name beside the manifest)
    demo: str = ""
    #: the document's order of identities (role names): acquired skills that share a step and a
    #: priority resolve after the real role's, ordered by their caster's actual identity in this
    #: list (a role not listed goes last), then by submission (M217: "其余角色发动的同名技能按照
    #: 发动者[实际身份]排序在真身份牌的后面"); empty: by submission only
    identity_order: list[str] = []
    #: a director's own roles written as data (``[[homebrew]]``): checked against the board's
    #: cards, phases and steps when the ruleset loads (``homebrew.py``, docs/manifests.md)
    homebrew: list[dict[str, Any]] = []
    #: files beside the manifest whose ``[[homebrew]]`` roles are added to ``homebrew`` when it
    #: is read (the stored game keeps them inline)
    homebrew_files: list[str] = []


# --------------------------------------------------------------------------- live state


class Status(msgspec.Struct, kw_only=True):
    name: str
    #: the phase label after whose resolution it ends (None: until removed)
    until: str | None = None
    count: int | None = None
    #: whether the holder is told (shown in their view)
    told: bool = True
    source: str = ""
    data: dict[str, Any] = {}


class Player(msgspec.Struct, kw_only=True):
    name: str
    seat: int
    role: str
    camp: str
    setup: dict[str, Any] = {}
    alive: bool = True
    groups: list[str] = []
    statuses: list[Status] = []
    #: uses left of counted skills
    uses: dict[str, int] = {}
    #: skills acquired from other roles: skill name -> the role it comes from
    acquired: dict[str, str] = {}
    #: role plugins' per-player data (keys are the plugin's own)
    data: dict[str, Any] = {}

    def has(self, status: str) -> bool:
        return any(s.name == status for s in self.statuses)

    def status(self, status: str) -> Status | None:
        for s in self.statuses:
            if s.name == status:
                return s
        return None


class Action(msgspec.Struct, kw_only=True):
    actor: str
    skill: str
    #: the targets as chosen
    chosen: list[str] = []
    #: the final targets after the targeting chain (starts as ``chosen``)
    targets: list[str] = []
    args: dict[str, Any] = {}
    seq: int = 0
    #: why the action has no effect (None: it stands)
    void: str | None = None
    #: used through an acquired skill (resolved after the real role's)
    acquired: bool = False
    #: answered when submitted (an immediate skill, or one a rule opened outside its phases)
    answered: bool = False
    #: group skill: the group name
    group: str | None = None
    #: results an immediate skill produced at submission
    result: dict[str, Any] = {}
    #: a group skill: the group's standing actions this submission replaced ("actor skill
    #: targets"), so that the director is told what was replaced when it was replaced
    replaced: list[str] = []

    def describe(self) -> str:
        return " ".join([self.actor, self.skill, *self.chosen])


class Ballot(msgspec.Struct, kw_only=True):
    voter: str
    target: str
    post: int | None = None
    change: bool = False
    proxy: bool = False
    #: cast in the last hour of the phase
    late: bool = False
    #: when it was posted (the forum's time, "2024-05-06 09:12:40"; "" : not known)
    time: str = ""
    weight: float = 1.0
    #: why the ballot does not count (None: it counts)
    void: str | None = None
    seq: int = 0


# ------------------------------------------------------------------------- stored records


class PlayerSetup(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    name: str
    role: str
    camp: str = ""
    setup: dict[str, Any] = {}
    #: the player's account where the game is played (a forum's uid), bound at sign-up: what
    #: the forum layer sends this seat's PMs to, and the only thing it sends them to ("" none)
    uid: str = ""


class Deal(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A deal file (``bansha new --deal``): the seats in order with their roles."""

    players: list[PlayerSetup]


class Setup(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """How a game was created: everything replay needs besides the events."""

    ruleset: str
    manifest: Manifest
    players: list[PlayerSetup]
    seed: int = 0
    options: dict[str, Any] = {}
    #: where the deal came from, for the record ("seed 7", "deal.toml")
    dealt_by: str = ""


class ActEvent(msgspec.Struct, tag="act", kw_only=True):
    phase: str
    actor: str
    skill: str
    targets: list[str] = []
    args: dict[str, Any] = {}


class UnactEvent(msgspec.Struct, tag="unact", kw_only=True):
    phase: str
    actor: str
    skill: str


#: the highest forum floor a vote may name (a Discuz! thread has far fewer; the store's integers hold it)
MAX_POST = 10**9


class VoteEvent(msgspec.Struct, tag="vote", kw_only=True):
    phase: str
    voter: str
    target: str
    post: int | None = None
    change: bool = False
    proxy: bool = False
    late: bool = False
    #: the forum post's time ("2024-05-06 09:12:40"), read from the vote thread by
    #: ``bansha votes import`` ("" : entered by hand); ``post`` is its floor number
    time: str = ""


class ResolveEvent(msgspec.Struct, tag="resolve", kw_only=True):
    phase: str
    #: in a phase with ``windows``: resolve the current window only (False: every window left)
    window: bool = False
    #: the results as printed when it was resolved (replay recomputes them)
    out: list[str] = []
    announcement: list[str] = []


class RulingEvent(msgspec.Struct, tag="ruling", kw_only=True):
    """The director's input: ``remove`` (disqualify), ``announce`` free text, ``answer`` to a
    question, ``substitute`` a new player into a seat, ``draw`` the game."""

    phase: str
    kind: str
    player: str = ""
    text: str = ""
    data: dict[str, Any] = {}


class AmendEvent(msgspec.Struct, tag="amend", kw_only=True):
    """A correction of a closed phase (``bansha amend``): ``event`` (an act, unact or vote of
    phase ``phase``) is replayed as if it had come just before that phase was resolved (an act
    in the place of the actor's standing act of that skill, a ``--change`` of a ballot right
    after the ballot it changes), and everything after it is replayed on it. The log stays
    append-only: the amendment is the event, and ``record`` keeps what it changed when it was
    written (replay recomputes it)."""

    phase: str
    event: ActEvent | UnactEvent | VoteEvent
    #: which play of the phase, when a rewind (M217's 钟<时光倒流>) played it more than once:
    #: 1 the first, 2 the second…; 0 the one that stands (the last played)
    play: int = 0
    #: {"feedback": {name: {"removed": […], "added": […]}}, "announcement": {…}, "alive": {…}}
    record: dict[str, Any] = {}


Event = ActEvent | UnactEvent | VoteEvent | ResolveEvent | RulingEvent | AmendEvent


# ------------------------------------------------------------------ resolution records


class Kill(msgspec.Struct, kw_only=True):
    """A pending attempt to take a player out, resolved by the ``bansha.deaths`` handler."""

    target: str
    #: the kind of kill as the ruleset names it (杀人, 指杀, 穿透, 致死伤害 …)
    kind: str = "杀人"
    #: who caused it ("" for the rules themselves) and by which action
    by: str = ""
    action: Action | None = None
    #: the rule that made it, for the trace
    rule: str = ""
    #: whether a night death gets last words
    last_words: bool = True


class Fact(msgspec.Struct, kw_only=True, frozen=True):
    """What a feedback line states, as data beside its text (``Resolution.feedback``): that
    ``player``'s ``what`` is ``value`` (``holds``), or is not (``holds=False``: "…是不是影之国的骑士？
    不是"). ``what`` is one of ``FACT_KINDS``: ``camp`` and ``role`` (a camp's or a role's name, as
    the board writes it; a check that shows a surface says what it showed), ``status`` (a
    status's name), ``used`` (a skill's name: whether the player sent it). Set where the text
    is made (the homebrew card 查验, the roles' checks); a policy reads it instead of the words
    (bansha_sim.policies). ``by`` names the skill that learned it, when one did."""

    player: str
    what: str
    value: str
    holds: bool = True
    by: str = ""


#: what a ``Fact`` may state
FACT_KINDS = ("camp", "role", "status", "used")


class TraceLine(msgspec.Struct, kw_only=True):
    phase: str
    step: str
    rule: str
    text: str
