"""The kernel's cards for homebrew roles (``homebrew.py``): what every board shares.

Registered as the plugin ``bansha.cards`` with a ruleset that declares homebrew roles (the way
``builtins.py`` gives every ruleset ``bansha.deaths``); a board's rules plugin adds its own cards
through ``bansha_cards`` and may replace one of these by giving a card of the same name.

| card | parameters | does |
| --- | --- | --- |
| 告知 | ``text`` (``{actor}``, ``{target}``, ``{chosen}``) | a private line to ``to`` (default: the sender) |
| 宣布 | ``text`` | a public line |
| 查验 | ``what`` (身份, 阵营, 表面身份, 表面阵营), ``text`` (``{chosen}``, ``{value}``) | tells the sender what the target is |
| 状态 | ``name``, ``until`` (本阶段, 永久), ``count``, ``told`` | gives a status |
| 移除状态 | ``name`` | takes a status away |
| 击杀 | ``kind``, ``last_words`` | a kill, landed by the board's deaths step |
| 保护 | — | kills on the target do not land this phase |
| 阻止 | — | the target's actions of this phase not yet resolved have no effect |
| 转移 | — | (two targets) the first target's actions go to the second |
"""

from __future__ import annotations

from bansha.engine.hookspecs import hookimpl
from bansha.engine.model import Fact, Status
from bansha.homebrew.homebrew import Card, Params

PROTECTED = "bansha.cards.protected"


#: what ``_fields`` gives a text card's ``text``
FIELDS = ("actor", "target", "chosen")


class Text(Params, kw_only=True, forbid_unknown_fields=True):
    text: str
    templates = {"text": FIELDS}


class Tell(Params, kw_only=True, forbid_unknown_fields=True):
    text: str
    to: str = "actor"
    templates = {"text": FIELDS}


class Check(Params, kw_only=True, forbid_unknown_fields=True):
    what: str = "阵营"
    text: str = "{chosen}是{value}。"
    templates = {"text": (*FIELDS, "value")}


class GiveStatus(Params, kw_only=True, forbid_unknown_fields=True):
    name: str
    until: str = "本阶段"
    count: int | None = None
    told: bool = True


class Named(Params, kw_only=True, forbid_unknown_fields=True):
    name: str


class KillParams(Params, kw_only=True, forbid_unknown_fields=True):
    kind: str = "杀人"
    last_words: bool = True


def _fields(a, who):
    return {"actor": a.actor, "target": who or "", "chosen": a.chosen[0] if a.chosen else (who or "")}


def tell(res, a, who, p):
    res.feedback(who, p.text.format(**_fields(a, who)))


def announce(res, a, who, p):
    res.announce(p.text.format(**_fields(a, who)))


def check(res, a, who, p):
    game = res.game
    target = game.player(who)
    if p.what == "身份":
        value = game.identity(target)
    elif p.what == "表面身份":
        value = game.surface(target)["role"]
    elif p.what == "表面阵营":
        value = game.surface(target)["camp"]
    else:
        value = target.camp
    # the line's fact: a camp or a role (a surface is what the check showed), of the target
    res.feedback(a.actor, p.text.format(value=value, **_fields(a, who)),
                 Fact(player=_fields(a, who)["chosen"], what="camp" if p.what in ("阵营", "表面阵营") else "role", value=value, by=a.skill))


def give(res, a, who, p):
    until = None if p.until == "永久" else res.label if p.until == "本阶段" else p.until
    res.add_status(who, Status(name=p.name, until=until, count=p.count, told=p.told, source=a.skill))


def take(res, a, who, p):
    player = res.game.player(who)
    player.statuses = [s for s in player.statuses if s.name != p.name]


def kill(res, a, who, p):
    res.kill(who, kind=p.kind, by=a.actor, action=a, rule=a.skill, last_words=p.last_words)


def protect(res, a, who, p):
    res.data.setdefault(PROTECTED, {})[who] = a.skill


class _Protection:
    """The 保护 card's own hook: a kill on a protected player does not land this phase."""

    @hookimpl
    def bansha_stop_kill(self, res, kill):
        return res.data.get(PROTECTED, {}).get(kill.target)


def block(res, a, who, p):
    for other in res.actions:
        if other.actor == who and other is not a and other.void is None:
            res.void(other, f"{who}被{a.actor}的{a.skill}阻止", rule=a.skill)


def redirect(res, a, who, p):
    if len(a.targets) < 2:
        return
    source, to = a.targets[0], a.targets[1]
    for other in res.actions:
        if other.actor == source and other is not a and other.void is None and other.targets:
            res.redirect(other, [to] * len(other.targets), rule=a.skill)


CHECK_WHAT = ("身份", "阵营", "表面身份", "表面阵营")


class CheckWhat(Check, kw_only=True, forbid_unknown_fields=True):
    def __post_init__(self):
        if self.what not in CHECK_WHAT:
            raise ValueError(f"what: {self.what} ∉ {'、'.join(CHECK_WHAT)}")


CARDS = [
    Card("告知", tell, params=Tell, text="告知：{text}"),
    Card("宣布", announce, params=Text, text="宣布：{text}"),
    Card("查验", check, params=CheckWhat, text="查验{what}：{text}", does=("check",)),
    Card("状态", give, params=GiveStatus, text="获得[{name}]，持续至{until}"),
    Card("移除状态", take, params=Named, text="失去[{name}]"),
    Card("击杀", kill, params=KillParams, text="{kind}", does=("harm",)),
    Card("保护", protect, text="当阶段不会被杀死", does=("help",), hooks=_Protection()),
    Card("阻止", block, text="当阶段的技能无效", does=("harm",)),
    Card("转移", redirect, text="第一个目标的技能改为指向第二个目标", does=("harm",), whole=True),
]


@hookimpl
def bansha_cards():
    return CARDS
