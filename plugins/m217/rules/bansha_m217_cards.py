"""新日暮里 (M217): the board's cards for homebrew roles (kernel/src/bansha/homebrew/homebrew.py).

``bansha_m217_rules`` gives them through ``bansha_cards``; each plays the board's own machinery
(``give``, ``hit``, ``flip``, ``surface``, ``judged_camp``), so a homebrew skill meets the
targeting chain, 隐身, 守护 and the night's order of deaths as a Python role does.

| card | parameters | 用语定义 |
| --- | --- | --- |
| 指杀, 穿透, 致死伤害, 暴击 | — | the target 承受 that kill (``hit``; step (20) lands it, an action answered at once lands it now) |
| 获得状态 | ``name``, ``until`` (本阶段, 晨曦: "持续至下一个[正午]开始", 下一晚, 永久), ``count``, ``told`` | ``give``: told as the document says |
| 守护 | ``count`` | [守护：X] for good |
| 沉默, 冰冻 | ``until`` | the status (told with its end) |
| 常驻状态 | ``name``, ``count`` | [常驻]: whoever holds the skill has the status (``m217.standing.<skill>``) |
| 表面身份, 表面阵营, 实际阵营, 实际身份 | ``text`` (``{chosen}``, ``{value}``; 表面阵营's ``village``/``other``) | feedback to the sender, once per 结算目标 |
| 翻牌 | — | "X翻牌，实际身份为Y。" |
| 诽谤 | — | 乌鸦's: "结算目标在下一个游戏日投票时被投票数多计一票，并公示[目标角色被诽谤]" |
| 交换 | — | 魔术师's: "若最终结算目标正好为2个角色且结算成功，则当晚之后所有[指定]技能的结算目标都会被交换" (the chain stage ``m217.chain.交换``) |
| 替死 | — | 侍从's: "该玩家若当晚出局，侍从代替其出局" (a ``bansha_stop_kill`` asked last) |
| 刷新至初始 | — | 圣女's: the target's counted skills, lost skills and skills' own state 刷新至初始, and told |
| 投票取消 | — | "当天投票取消" (骑士's 决斗) |
"""

from __future__ import annotations

from bansha import Card, Fact, Params, Status, hookimpl
from bansha_m217_helpers import (
    VILLAGE,
    flip,
    give,
    hit,
    identity,
    judged_camp,
    surface,
    vote_cancelled,
)

KILLS = ("指杀", "穿透", "致死伤害", "暴击")


class StatusParams(Params, kw_only=True, forbid_unknown_fields=True):
    name: str
    until: str = "永久"
    count: int | None = None
    told: bool | None = None


class Until(Params, kw_only=True, forbid_unknown_fields=True):
    until: str = "晨曦"


class Guard(Params, kw_only=True, forbid_unknown_fields=True):
    count: int = 1


class Standing(Params, kw_only=True, forbid_unknown_fields=True):
    name: str
    count: int | None = None


class Feedback(Params, kw_only=True, forbid_unknown_fields=True):
    text: str = "{chosen}是{value}"
    templates = {"text": ("chosen", "value", "target")}


class SideFeedback(Params, kw_only=True, forbid_unknown_fields=True):
    village: str = "{chosen}为村民阵营"
    other: str = "{chosen}为非村民阵营"
    templates = {"village": ("chosen", "target"), "other": ("chosen", "target")}


UNTIL = ("本阶段", "晨曦", "下一晚", "永久")


def _until(res, until: str) -> str | None:
    game = res.game
    if until == "本阶段":
        return res.label
    if until == "晨曦":
        # > 持续至下一个[正午]阶段开始 (the dawn before it ends)
        return f"dawn {game.day}"
    if until == "下一晚":
        return f"night {game.day + (0 if game.phase.name in ('dusk', 'opening') else 1)}"
    if until == "永久":
        return None
    raise ValueError(until)


def _check_until(p):
    if p.until not in UNTIL:
        raise ValueError(f"until：{p.until} 不是可选值（{'、'.join(UNTIL)}）")


class CheckedStatus(StatusParams, kw_only=True, forbid_unknown_fields=True):
    def __post_init__(self):
        _check_until(self)


class CheckedUntil(Until, kw_only=True, forbid_unknown_fields=True):
    def __post_init__(self):
        _check_until(self)


def _kill(kind):
    def run(res, a, who, p):
        hit(res, a, who, kind)
    return run


def give_status(res, a, who, p):
    give(res, who, p.name, until=_until(res, p.until), count=p.count, source=a.skill, told=p.told)


def _named(name):
    def run(res, a, who, p):
        give(res, who, name, until=_until(res, p.until), source=a.skill)
    return run


def guard(res, a, who, p):
    give(res, who, "守护", count=p.count, source=a.skill)


def standing_handlers(skill, p):
    """> [常驻]: the rules give whoever holds the skill these statuses (``m217.standing.<skill>``)."""
    def statuses(game, player):
        return [Status(name=p.name, count=p.count, source=skill)]
    return {f"m217.standing.{skill}": statuses}


def _feedback(read, what):
    """A check's card: the line, and its fact (``what``: camp or role) about the chosen player."""
    def run(res, a, who, p):
        value = read(res.game, who, a.actor)
        chosen = a.chosen[0] if a.chosen else who
        res.feedback(a.actor, p.text.format(chosen=chosen, value=value, target=who),
                     Fact(player=chosen, what=what, value=value, by=a.skill))
    return run


def side(res, a, who, p):
    # > 反馈结算目标的[表面阵营]，若其为[村民阵营]，反馈[选择目标为村民阵营]，否则…[选择目标为非村民阵营]
    chosen = a.chosen[0] if a.chosen else who
    village = surface(res.game, who)["camp"] == VILLAGE
    res.feedback(a.actor, (p.village if village else p.other).format(chosen=chosen, target=who),
                 Fact(player=chosen, what="camp", value=VILLAGE, holds=village, by=a.skill))


def reveal(res, a, who, p):
    flip(res, a)


def cancel_vote(res, a, who, p):
    # > 且当天投票取消。
    res.game.data["m217.vote_cancelled"] = res.game.label
    res.announce("今日投票取消。")


SLANDER = "m217.slander"
VOTE_PHASES = ("noon", "extra-noon")
#: this count of votes has added the slanders (res.data)
COUNTED = "m217.slander.counted"


def slander(res, target: str) -> None:
    """> 结算目标在下一个游戏日投票时被投票数多计一票，并公示[目标角色被诽谤]。
    > 多个诽谤诽谤同一人时，只公示一次诽谤，但计票会按照实际诽谤次数计票。
    Kept in ``game.data["m217.slander"]`` (day -> {target: count}): night N is followed by the
    discussion day noon N."""
    game = res.game
    tonight = game.data.setdefault(SLANDER, {}).setdefault(str(game.day), {})
    if target not in tonight:
        res.announce(f"{target}被诽谤。")
    tonight[target] = tonight.get(target, 0) + 1


def count_slander(res) -> None:
    """> PS：一天内有多次投票贴，诽谤对于所有的投票贴都正常生效。 The day's slanders as votes no
    ballot carries (``res.data["extra_votes"]``), once per count whoever asks (乌鸦's plugin, the
    card's hook)."""
    game = res.game
    if game.phase.name not in VOTE_PHASES or res.data.get(COUNTED) or vote_cancelled(game):
        return  # 骑士's 决斗: the day's vote is cancelled, 诽谤 with it
    res.data[COUNTED] = True
    extra = res.data.setdefault("extra_votes", {})
    for target, n in sorted(game.data.get(SLANDER, {}).get(str(game.day), {}).items()):
        res.trace("诽谤", f"{target}额外计{n}票")
        extra[target] = extra.get(target, 0) + n


class _Slander:
    @hookimpl
    def bansha_adjust_ballots(self, res, ballots):
        count_slander(res)


def refresh(res, target: str) -> None:
    """> 该玩家[实际身份]的对应技能刷新至初始，并且目标会收到技能刷新的通知。 Counted uses, lost skills
    and a skill's own state (``m217.refresh.<skill>``, 九尾狐's tails)."""
    game = res.game
    p = game.player(target)
    for s in game.ruleset.role(p.role).skills:
        if s.uses is not None:
            p.uses[s.name] = s.uses
        again = game.ruleset.handlers.get(f"m217.refresh.{s.name}")
        if again is not None:
            again(res, p)
    p.data["m217.lost"] = []
    res.feedback(target, "圣水：你的技能已刷新至初始。")


SWAPS = "m217.swaps"


def swap(res, a) -> None:
    """> 若最终结算目标正好为2个角色且结算成功…若最终结算目标不是2个角色，该技能发动无效"""
    if len(set(a.targets)) != 2:
        res.trace("交换", f"最终目标{'、'.join(a.targets) or '无'}不是2名角色：不交换")
        return
    res.data.setdefault(SWAPS, []).append(list(a.targets))


def swap_stage(res, action, ball):
    """The chain stage ``m217.chain.交换``: > 则当晚之后所有[指定]技能的结算目标都会被交换，持续至夜晚结束"""
    for x, y in res.data.get(SWAPS, []):
        ball = y if ball == x else x if ball == y else ball
    return ball


STAND_IN = "替死"


def stand_in(res, a, target: str) -> None:
    """The 结算目标 of a 替死 tonight, with who stands in (``res.data["替死"]``)."""
    res.data.setdefault(STAND_IN, []).append([target, a.actor])


def stood_in(res, kill) -> str | None:
    """> 该玩家若当晚出局，侍从代替其出局。 Asked last: only a kill that would land is taken over —
    the one who stands in leaves instead, by a 致死伤害 of rule 替死 (only 不死 keeps him in)."""
    game = res.game
    if game.phase.name != "night":
        return None
    for pair in res.data.get(STAND_IN, []):
        target, squire = pair[:2]
        if target != kill.target or len(pair) > 2 or not game.player(squire).alive:
            continue
        pair.append("used")  # one stand-in per choice
        res.kill(squire, kind="致死伤害", by=squire, rule="替死", last_words=kill.last_words)
        # > 侍从代替其出局 — in the target's place: he leaves next, before the kills queued after it
        res.kills.insert(0, res.kills.pop())
        return f"替死（由{squire}代为出局）"
    return None


class _StandIn:
    @hookimpl(trylast=True)
    def bansha_stop_kill(self, res, kill):
        return stood_in(res, kill)


def _identity(game, t, by):
    p = game.player(t)
    return identity(game, p) or p.role


CARDS = [
    *(Card(kind, _kill(kind), text=f"结算目标承受[{kind}]", does=("harm",)) for kind in KILLS),
    Card("获得状态", give_status, params=CheckedStatus, text="获得[{name}]（{until}）"),
    Card("守护", guard, params=Guard, text="获得[守护：{count}]", does=("help",)),
    Card("沉默", _named("沉默"), params=CheckedUntil, text="获得[沉默]（{until}）", does=("harm",)),
    Card("冰冻", _named("冰冻"), params=CheckedUntil, text="获得[冰冻]（{until}）", does=("harm",)),
    Card("常驻状态", lambda res, a, who, p: None, params=Standing, text="[常驻]：持有者获得[{name}]",
         handlers=standing_handlers, passive=True),
    Card("表面身份", _feedback(lambda g, t, by: surface(g, t)["role"], "role"), params=Feedback,
         text="反馈[表面身份]：{text}", does=("check",)),
    Card("表面阵营", side, params=SideFeedback, text="反馈[表面阵营]：{village} / {other}", does=("check",)),
    Card("实际阵营", _feedback(judged_camp, "camp"), params=Feedback, text="反馈[实际阵营]：{text}", does=("check",)),
    Card("实际身份", _feedback(_identity, "role"), params=Feedback, text="反馈[实际身份]：{text}", does=("check",)),
    Card("翻牌", reveal, text="公开实际身份", whole=True),
    Card("投票取消", cancel_vote, text="当天投票取消", whole=False),
    Card("诽谤", lambda res, a, who, p: slander(res, who), text="下一个游戏日投票时多计一票，并公示", does=("harm",),
         hooks=_Slander()),
    Card("交换", lambda res, a, who, p: swap(res, a), text="当晚之后所有[指定]技能的结算目标互换", does=("harm",),
         whole=True, handlers=lambda skill, p: {"m217.chain.交换": swap_stage}),
    Card("替死", lambda res, a, who, p: stand_in(res, a, who), text="该玩家若当晚出局，发动者代替其出局", does=("help",),
         hooks=_StandIn()),
    Card("刷新至初始", lambda res, a, who, p: refresh(res, who), text="技能刷新至初始，并通知", does=("help",)),
]
