"""Homebrew roles: a director's own role written as data in a board file (``[[homebrew]]``).

A homebrew role is declared in the manifest (or in a file it names under ``homebrew_files``)
with its camp, rule text and skills; each skill's effect is a list of *cards* taken from a
library: the kernel's own (``cards.py``: tell, announce, check, status, kill, protect, block,
redirect …) and those the board's rules plugin adds through ``bansha_cards`` (M217's 穿透,
守护, 冰冻 …; 七杀·侠's 救治 …). Once built, a homebrew role is a ``Role`` like any other: the
engine, the simulator, ``status``, the web forms and the role reference read the same
declarations (docs/manifests.md, "Homebrew roles").

This module holds

- the schema of a declaration (``HomebrewRole``, ``HomebrewSkill``, ``Jinx``: msgspec structs,
  each checked key by key; ``check_schema`` is what a manifest-wide schema plugs in),
- what a card is (``Card``, ``Params``),
- the checks that need the board (``build``: an unknown card, a card the board lacks, a step
  the phase does not have, an impossible target range), each refused in one line naming the
  key, in the board's language,
- ``HomebrewPlugin``: the roles as a pluggy plugin (their hooks: death triggers, the target
  range, the cards' own hooks and handlers).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

import msgspec

from bansha.engine.hookspecs import hookimpl
from bansha.engine.model import Action, GameError, Role, Skill
from bansha.text.messages import extend, join, say

extend({
    "hb_twice": ("角色 {name} 已在 homebrew[{first}] 声明过", "role {name} is already declared at homebrew[{first}]"),
    "hb_skill_twice": ("技能 {name} 在本角色中声明了两次", "skill {name} is declared twice in the role"),
    "hb_killer_only": ("to = \"killer\" 只用于出局触发的技能（trigger = \"death\"）",
                       "to = \"killer\" is only for a skill triggered by its holder's exit (trigger = \"death\")"),
})

if TYPE_CHECKING:
    from bansha.engine.engine import Resolution

#: a skill's target range: players in the game, players out of it, or either
RANGES = ("alive", "dead", "any")
#: when a triggered skill plays its cards by itself: "death" (its holder has left the game, on
#: who caused it) or "targeted" (an action of the phase targets the holder, on its sender: where
#: a step's ``after`` names the handler ``bansha.homebrew.targeted``)
TRIGGERS = ("", "death", "targeted")
#: the handler that plays "targeted" triggers, named by the manifest where they fire
TARGETED = "bansha.homebrew.targeted"
#: whom a card acts on (``to``): the skill's final target, its sender, every player in the
#: game, or (a death trigger) who caused the exit
RECIPIENTS = ("target", "actor", "all", "killer")


# ------------------------------------------------------------------------------- schema


class Jinx(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """How a homebrew skill meets a named role (Blood on the Clocktower's "jinx"): when its
    final target holds ``role``, ``effects`` are played instead of the skill's own cards
    (none: the skill does nothing to that target). ``rule`` is shown in the role reference."""

    role: str
    #: the skill of this role it concerns ("" : every skill)
    skill: str = ""
    rule: str = ""
    effects: list[dict[str, Any]] = []


class HomebrewSkill(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    name: str
    alias: str = ""
    #: phase kinds it is used in (none for a triggered skill)
    phases: list[str] = []
    step: str = ""
    priority: int = 100
    targets: int = 1
    max_targets: int | None = None
    target_self: bool = False
    #: "alive" (default), "dead" (only players out of the game) or "any"
    target_range: str = "alive"
    uses: int | None = None
    per_phase: int = 1
    no_repeat_target: bool = False
    #: "每名玩家仅可被选择一次": a player chosen once (when the skill resolved) is refused after
    once_per_target: bool = False
    #: the targets of one action must be different players
    distinct_targets: bool = False
    immediate: bool = False
    while_out: bool = False
    group: str | None = None
    tags: list[str] = []
    args: dict[str, str] = {}
    #: what each ``--arg`` takes, for forms and a simulated player (``Skill.arg_values``)
    arg_values: dict[str, str | list[str]] = {}
    #: args whose ``arg_values`` are examples of a free text (``Skill.open_args``)
    open_args: list[str] = []
    rule: str = ""
    does: list[str] = []
    #: "death": played by itself when its holder leaves the game, on who caused the exit;
    #: "targeted": when an action of the phase targets the holder, on its sender (where a step's
    #: ``after`` names ``bansha.homebrew.targeted``)
    trigger: str = ""
    #: the cards, in order: ``{ card = "NAME", … its parameters }``
    effects: list[dict[str, Any]] = []


class HomebrewRole(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    name: str
    alias: str = ""
    camp: str | None = None
    group: str | None = None
    rule: str = ""
    skills: list[HomebrewSkill] = []
    jinxes: list[Jinx] = []


class Params(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """What every card takes: whom it acts on, and a condition on the target's camp (the camp
    the board's checks judge by: ``bansha_card_camp``)."""

    card: str
    to: str = "target"
    if_camp: str = ""
    unless_camp: str = ""
    #: the parameters that are texts formatted when the card plays, each with the fields it
    #: may name (files.check_template: ``{chossen}`` or ``{chosen.__class__}`` is refused when
    #: the board loads, never a KeyError or Python's insides in a player's PM mid-game)
    templates: ClassVar[dict[str, tuple[str, ...]]] = {}


class Card:
    """One card of the library: a name, its parameters (a ``Params`` subclass) and ``run``.

    ``run(res, action, who, params)`` plays the card on one player ``who`` (a name) — or, for a
    ``whole`` card (a redirection that reads both targets), once per action with ``who`` None.
    ``hooks`` is a pluggy plugin registered with the ruleset when a homebrew skill uses the card
    (a protection's ``bansha_stop_kill``); ``handlers(skill, params)`` gives step handlers named
    after the skill (M217's ``m217.standing.<skill>``). ``does`` feeds a simulated player's
    policy, ``text`` is the card in one line for ``bansha role show`` (``{…}``: parameters)."""

    def __init__(self, name: str, run: Callable[..., None] | None, *, params: type[Params] = Params, text: str = "",
                 does: tuple[str, ...] = (), whole: bool = False, hooks: object | None = None,
                 handlers: Callable[[str, Any], dict[str, Any]] | None = None, passive: bool = False):
        self.name, self.run, self.params, self.text = name, run, params, text or name
        self.does, self.whole, self.hooks, self.handlers = does, whole, hooks, handlers
        #: the card acts by itself through its hooks or handlers ([常驻]): a skill of such cards
        #: needs no phase
        self.passive = passive

    def describe(self, p: Params, lang: str | None = None) -> str:
        fields = {f: getattr(p, f) for f in p.__struct_fields__}
        line = self.text.format(**fields)
        extra = [say("hb_to_" + p.to, lang)] if p.to != "target" else []
        if p.if_camp:
            extra.append(say("hb_if_camp", lang, camp=p.if_camp))
        if p.unless_camp:
            extra.append(say("hb_unless_camp", lang, camp=p.unless_camp))
        return f"[{self.name}] {line}" + (f"（{'，'.join(extra)}）" if extra else "")


def check_schema(raw: Any, where: str, lang: str | None) -> list[HomebrewRole]:
    """``[[homebrew]]`` as typed declarations; one line naming the key when it is malformed.
    A manifest-wide schema (``Manifest.homebrew``) calls this for its ``homebrew`` key."""
    return _convert(raw, list[HomebrewRole], where, "homebrew", lang)


_MSGSPEC = (
    (re.compile(r"Expected `(.+?)`, got `(.+?)`"), "hb_expected"),
    (re.compile(r"Object contains unknown field `(.+?)`"), "hb_unknown_key"),
    (re.compile(r"Object missing required field `(.+?)`"), "hb_missing_key"),
)


def _convert(raw: Any, type_: Any, where: str, key: str, lang: str | None) -> Any:
    try:
        return msgspec.convert(raw, type_)
    except msgspec.ValidationError as exc:
        what, _, at = str(exc).rpartition(" - at `")
        if not what:
            what, at = str(exc), ""
        path = key + at.rstrip("`").removeprefix("$")
        for pattern, msg in _MSGSPEC:
            m = pattern.fullmatch(what)
            if m is None:
                continue
            if msg == "hb_expected":
                raise GameError(say("hb_key", lang, where=where, key=path, why=say(msg, lang, want=m[1], got=m[2]))) from None
            raise GameError(say("hb_key", lang, where=where, key=f"{path}.{m[1]}", why=say(msg, lang))) from None
        raise GameError(say("hb_key", lang, where=where, key=path, why=what)) from None


# -------------------------------------------------------------------------------- build


class Played(msgspec.Struct, kw_only=True, frozen=True):
    """A card with its checked parameters."""

    card: Any
    params: Any


def build(ruleset, raw: list[dict[str, Any]], cards: dict[str, Card]) -> HomebrewPlugin:
    from bansha.door.files import check_template

    """Check the board's homebrew declarations against its cards, phases, steps, camps and
    roles, and build the roles; ``GameError`` (one line, the board's language) when wrong."""
    m = ruleset.manifest
    lang = m.language
    where = say("m_where", lang, ruleset=m.id)
    decls = check_schema(raw, where, lang)
    steps = {p.name: {s.name for s in p.steps} for p in m.phases}
    camps = {c.name for c in m.camps}
    names = set(m.roles) | {d.name for d in decls}
    plugin = HomebrewPlugin()

    def fail(key: str, msg: str, **fields: Any) -> GameError:
        return GameError(say("hb_key", lang, where=where, key=key, why=say(msg, lang, **fields)))

    def played(effects: list[dict[str, Any]], key: str, skill: str, trigger: str) -> tuple[Played, ...]:
        out = []
        for k, e in enumerate(effects):
            at = f"{key}[{k}]"
            name = e.get("card") if isinstance(e, dict) else None
            if not isinstance(name, str):
                raise fail(f"{at}.card", "hb_no_card")
            if name not in cards:
                raise fail(f"{at}.card", "hb_unknown_card", card=name, known=join(sorted(cards)))
            card = cards[name]
            p = _convert(e, card.params, where, at, lang)
            if p.to not in RECIPIENTS:
                raise fail(f"{at}.to", "hb_choice", value=p.to, choices=join(RECIPIENTS))
            if p.to == "killer" and trigger != "death":
                raise fail(f"{at}.to", "hb_killer_only")
            for field, allowed in type(p).templates.items():
                check_template(getattr(p, field), allowed, where, f"{at}.{field}", lang)
            for ck in ("if_camp", "unless_camp"):
                if getattr(p, ck) and getattr(p, ck) not in camps:
                    raise fail(f"{at}.{ck}", "hb_unknown_camp", camp=getattr(p, ck), known=join(sorted(camps)))
            out.append(Played(card=card, params=p))
            plugin.use(card, p, skill)
        return tuple(out)

    first: dict[str, int] = {}
    for i, d in enumerate(decls):
        rk = f"homebrew[{i}]"
        if d.name in first:
            raise fail(f"{rk}.name", "hb_twice", name=d.name, first=first[d.name])
        first[d.name] = i
        skill_names = [s.name for s in d.skills]
        for j, s in enumerate(d.skills):
            if s.name in skill_names[:j]:
                raise fail(f"{rk}.skills[{j}].name", "hb_skill_twice", name=s.name)
        if d.camp is not None and d.camp not in camps:
            raise fail(f"{rk}.camp", "hb_unknown_camp", camp=d.camp, known=join(sorted(camps)))
        skills = []
        for j, s in enumerate(d.skills):
            sk = f"{rk}.skills[{j}]"
            if s.trigger not in TRIGGERS:
                raise fail(f"{sk}.trigger", "hb_choice", value=s.trigger, choices=join(t for t in TRIGGERS if t))
            if s.target_range not in RANGES:
                raise fail(f"{sk}.target_range", "hb_choice", value=s.target_range, choices=join(RANGES))
            passive = all(e.get("card") in cards and cards[e["card"]].passive for e in s.effects if isinstance(e, dict))
            if not s.trigger and not s.phases and not (passive and s.effects):
                raise fail(f"{sk}.phases", "hb_no_phases")
            for ph in s.phases:
                if ph not in steps:
                    raise fail(f"{sk}.phases", "hb_unknown_phase", phase=ph, known=join(steps))
                step = m.skills[s.name].step if s.name in m.skills and m.skills[s.name].step else s.step
                if not s.immediate and step not in steps[ph]:
                    raise fail(f"{sk}.step", "hb_unknown_step", step=step or "—", phase=ph, known=join(sorted(steps[ph])))
            if s.targets < 0 or (s.max_targets is not None and s.max_targets < s.targets):
                raise fail(f"{sk}.targets", "hb_target_count", n=s.targets, most=s.max_targets)
            if s.trigger and s.targets not in (0, 1):
                raise fail(f"{sk}.targets", "hb_trigger_targets")
            if s.target_range == "dead" and s.target_self:
                raise fail(f"{sk}.target_self", "hb_dead_self")
            for k in [*s.arg_values, *s.open_args]:
                if k not in s.args:
                    raise fail(f"{sk}.arg_values", "hb_unknown_arg", arg=k)
            if s.uses is not None and s.uses < 1 or s.per_phase < 1:
                raise fail(f"{sk}.uses", "hb_uses")
            own = played(s.effects, f"{sk}.effects", s.name, s.trigger)
            if not own and not s.trigger and not s.tags:
                raise fail(f"{sk}.effects", "hb_no_effects")
            jinxes = {}
            for k, jx in enumerate(d.jinxes):
                if jx.skill in ("", s.name):
                    jinxes[jx.role] = played(jx.effects, f"{rk}.jinxes[{k}].effects", s.name, s.trigger)
            compiled = _Compiled(own, jinxes, s.targets, s.target_range, s.once_per_target)
            does = tuple(s.does) or tuple(dict.fromkeys(x for pl in own for x in pl.card.does))
            skill = Skill(
                name=s.name, alias=s.alias, phases=tuple(s.phases), step=s.step, priority=s.priority,
                targets=0 if s.trigger else s.targets, max_targets=s.max_targets, may_target_self=s.target_self,
                may_target_dead=s.target_range != "alive", uses=s.uses, per_phase=s.per_phase,
                no_repeat_target=s.no_repeat_target, immediate=s.immediate, while_out=s.while_out, group=s.group,
                tags=tuple(s.tags), args=dict(s.args), rule=s.rule, does=does, open_args=tuple(s.open_args),
                arg_values={k: v if isinstance(v, str) else tuple(v) for k, v in s.arg_values.items()},
                effect=None if s.trigger else compiled.effect,
                cards=tuple(pl.card.describe(pl.params, lang) for pl in own))
            if s.trigger == "death":
                plugin.on_death[s.name] = compiled
            elif s.trigger == "targeted":
                if not any(TARGETED in st.after for p in m.phases for st in p.steps):
                    raise fail(f"{sk}.trigger", "hb_targeted_handler", handler=TARGETED)
                plugin.on_targeted[s.name] = compiled
            if s.target_range == "dead":
                plugin.dead_only[s.name] = s.name
            if s.once_per_target:
                plugin.once_per_target.add(s.name)
            if s.distinct_targets:
                plugin.distinct_targets.add(s.name)
            skills.append(skill)
        for k, jx in enumerate(d.jinxes):
            if jx.role not in names:
                raise fail(f"{rk}.jinxes[{k}].role", "hb_unknown_role", role=jx.role)
            if jx.skill and jx.skill not in {s.name for s in d.skills}:
                raise fail(f"{rk}.jinxes[{k}].skill", "hb_unknown_skill", skill=jx.skill)
        plugin.roles.append(Role(
            name=d.name, alias=d.alias, camp=d.camp, group=d.group, rule=d.rule, skills=tuple(skills),
            jinxes=tuple(f"{jx.role}{'（' + jx.skill + '）' if jx.skill else ''}：{jx.rule}" for jx in d.jinxes)))
    return plugin


class _Compiled:
    """A homebrew skill's cards, ready to play: ``effect(res, action)`` for the engine."""

    def __init__(self, own, jinxes, targets, target_range, once_per_target=False):
        self.own, self.jinxes, self.targets, self.range = own, jinxes, targets, target_range
        self.once_per_target = once_per_target

    def effect(self, res: Resolution, a: Action) -> None:
        game = res.game
        if self.once_per_target:
            # the players chosen (whatever the board's targeting makes of them) are spent
            seen = game.player(a.actor).data.setdefault(chosen_key(a.skill), [])
            seen.extend(t for t in a.chosen if t not in seen)
        # the board's targeting chain for a skill it answers at once (M217's settle)
        # cards on the action as a whole first (a [翻牌] is public whatever happens to the target)
        for pl in self.own:
            if pl.card.whole:
                self.play(res, a, None, pl)
        final = game.hook.bansha_card_targets(res=res, action=a)
        targets = list(a.targets) if final is None else list(final)
        if self.targets and not targets:
            game.hook.bansha_card_done(res=res, action=a)
            return
        for t in targets if self.targets else [None]:
            cards = self.own
            if t is not None and self.jinxes:
                role = game.player(t).role
                if role in self.jinxes:
                    res.trace(a.skill, say("hb_jinx_trace", game.manifest.language, skill=a.skill, target=t, role=role))
                    cards = self.jinxes[role]
            for pl in cards:
                if not pl.card.whole:
                    self.play(res, a, t, pl)
        game.hook.bansha_card_done(res=res, action=a)

    def play(self, res: Resolution, a: Action, t: str | None, pl: Played) -> None:
        p, game = pl.params, res.game
        if (p.if_camp or p.unless_camp) and t is not None:
            judged = game.hook.bansha_card_camp(game=game, target=t, by=a.actor)
            camp = judged if judged is not None else game.player(t).camp
            if (p.if_camp and camp != p.if_camp) or (p.unless_camp and camp == p.unless_camp):
                return
        if pl.card.whole:
            pl.card.run(res, a, None, p)
            return
        if p.to == "target":
            who = [t] if t is not None else []
        elif p.to == "actor":
            who = [a.actor]
        elif p.to == "killer":
            who = [a.args["killer"]] if a.args.get("killer") else []
        else:
            who = [q.name for q in game.alive()]
        for name in who:
            pl.card.run(res, a, name, p)


def chosen_key(skill: str) -> str:
    """Where a player keeps whom their ``once_per_target`` skill has chosen (``player.data``)."""
    return f"homebrew.chosen.{skill}"


class HomebrewPlugin:
    """The board's homebrew roles as one pluggy plugin (registered as ``bansha.homebrew``)."""

    def __init__(self):
        self.roles: list[Role] = []
        #: triggered skills: name -> their cards
        self.on_death: dict[str, _Compiled] = {}
        self.on_targeted: dict[str, _Compiled] = {}
        #: skills whose range is the players out of the game
        self.dead_only: dict[str, str] = {}
        self.once_per_target: set[str] = set()
        self.distinct_targets: set[str] = set()
        #: the cards' own plugins and handlers, registered once
        self.card_plugins: dict[str, object] = {}
        self.handlers: dict[str, Any] = {}

    def use(self, card: Card, params: Any, skill: str) -> None:
        if card.hooks is not None:
            self.card_plugins.setdefault(card.name, card.hooks)
        if card.handlers is not None:
            self.handlers.update(card.handlers(skill, params))

    @hookimpl
    def bansha_roles(self):
        return self.roles

    @hookimpl
    def bansha_step_handlers(self):
        return {**self.handlers, TARGETED: self.targeted}

    def targeted(self, res: Resolution) -> None:
        """``bansha.homebrew.targeted``: every "targeted" trigger whose holder an action of this
        phase (not voided, not the holder's own) targets plays its cards on the action's sender,
        once per action, in submission order."""
        game = res.game
        done = res.data.setdefault(TARGETED, set())
        for a in res.actions:
            if a.void is not None:
                continue
            for name in dict.fromkeys(a.targets):
                holder = game.player(name)
                if name == a.actor or not holder.alive:
                    continue
                for skill, compiled in self.on_targeted.items():
                    if (holder.role not in self._holders(skill) and skill not in holder.acquired) or (a.seq, name, skill) in done:
                        continue
                    done.add((a.seq, name, skill))
                    t = Action(actor=name, skill=skill, chosen=[a.actor], targets=[a.actor], args={"by": a.skill})
                    res.trace(skill, say("hb_targeted_trace", game.manifest.language, name=name, by=a.actor, skill=skill))
                    compiled.effect(res, t)

    @hookimpl
    def bansha_validate_action(self, game, action):
        lang = game.manifest.language
        if action.skill in self.distinct_targets and len(set(action.chosen)) != len(action.chosen):
            return say("hb_distinct", lang, skill=action.skill, n=len(action.chosen))
        if action.skill in self.once_per_target:
            done = game.player(action.actor).data.get(chosen_key(action.skill), ())
            again = [t for t in action.chosen if t in done]
            if again:
                return say("hb_once_per_target", lang, skill=action.skill, name=again[0])
        if action.skill in self.dead_only:
            living = [t for t in action.chosen if game.player(t).alive]
            if living:
                return say("hb_dead_only", game.manifest.language, skill=action.skill, names="、".join(living))
        return None

    @hookimpl
    def bansha_on_death(self, res, player, kill):
        game = res.game
        for name, compiled in self.on_death.items():
            if player.role not in self._holders(name) and name not in player.acquired:
                continue
            by = kill.by if kill.by and kill.by != player.name and kill.by in game.players else ""
            a = Action(actor=player.name, skill=name, chosen=[by] if by else [], targets=[by] if by else [],
                       args={"killer": by} if by else {})
            res.trace(name, say("hb_trigger_trace", game.manifest.language, name=player.name, skill=name))
            compiled.effect(res, a)

    def _holders(self, skill: str) -> set[str]:
        return {r.name for r in self.roles if any(s.name == skill for s in r.skills)}


def install(ruleset, cards: dict[str, Card]) -> HomebrewPlugin:
    """Build the manifest's homebrew roles (``Ruleset`` calls this with the board's cards)."""
    return build(ruleset, ruleset.manifest.homebrew, cards)
