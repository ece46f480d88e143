"""隐者 — 新日暮里 (M217), 弱神 ④.

> 8、隐者④
> 隐身衣 <强制>—— 常驻[隐身][迷魂]状态，当场上人数变为开局人数的一半及以下时，该技能失效。
> 脱下隐身衣[夜晚][指定]——选择范围：[隐身衣]尚有效才能发动，选择任意一名角色，发动此技能时[隐身衣]失效。
> 结算效果：结算目标获得[隐身]状态，持续至下一个[黄昏]阶段结束。

[隐身] and [迷魂] are the board's (``bansha_m217_rules``: ``settle`` drops a final target under
隐身, ``bansha_adjust_ballots`` counts a 迷魂 ballot 0). The cloak's two statuses are marked
``forced`` by 隐身衣, so they go when it lapses, when it is taken off, and under 遗忘 (readings:
docs/rulings/m217.md, group weak-b).
"""

from bansha import Role, Skill, Status, for_skills, hookimpl
from bansha_m217_helpers import forced_on, give, holds

CLOAK, DOFF = "隐身衣", "脱下隐身衣"


def cloaked(game, p) -> bool:
    """> [隐身衣]尚有效 — held, not lost, not under 遗忘, its holder in the game."""
    return forced_on(game, p, CLOAK)


def drop(p) -> None:
    """The cloak is gone for good: the skill and its two statuses."""
    if CLOAK not in p.data.get("m217.lost", ()):
        p.data.setdefault("m217.lost", []).append(CLOAK)
    p.statuses = [s for s in p.statuses if s.data.get("forced") != CLOAK]


def lapse(game, tell) -> None:
    """> 当场上人数变为开局人数的一半及以下时，该技能失效。 (场上人数: the players in the game;
    开局人数: every seat dealt)"""
    if len(game.alive()) * 2 > len(game.players):
        return
    for p in game.players.values():
        if p.alive and holds(game, p, CLOAK):
            drop(p)
            tell(p.name, "场上人数已为开局人数的一半及以下，[隐身衣]失效。")


def take_off(res, a):
    """The moment 脱下隐身衣 is cast (before its target is settled, so that the 隐者 may choose
    himself): > 发动此技能时[隐身衣]失效。"""
    p = res.game.player(a.actor)
    if CLOAK in res.game.skills_of(p):
        drop(p)
        res.trace(CLOAK, f"{p.name}脱下隐身衣")
        res.feedback(a.actor, "[隐身衣]失效。")


def doff(res, a):
    # > 结算效果：结算目标获得[隐身]状态，持续至下一个[黄昏]阶段结束。
    for t in a.targets:
        give(res, t, "隐身", until=f"dusk {res.game.day + 1}", source=DOFF)


HERMIT = Role(
    name="隐者", alias="hermit", camp="村民阵营", rule=__doc__,
    skills=(
        Skill(name=CLOAK, alias="cloak", targets=0, tags=("强制",),
              rule="隐身衣 <强制>—— 常驻[隐身][迷魂]状态，当场上人数变为开局人数的一半及以下时，该技能失效。"),
        Skill(name=DOFF, does=("help",), alias="doff", phases=("night",), step="早夜5", may_target_self=True,
              tags=("指定",), effect=doff,
              rule="脱下隐身衣[夜晚][指定]——[隐身衣]尚有效才能发动，任意一名角色，发动时[隐身衣]失效；"
                   "结算目标获得[隐身]，持续至下一个[黄昏]阶段结束。"),
    ),
)


@hookimpl
def bansha_roles():
    return [HERMIT]


def cloak(game, p):
    """Handler ``m217.standing.隐身衣`` (the rules give it to whoever holds the skill):
    > 常驻[隐身][迷魂]状态"""
    return [Status(name=name, source=CLOAK) for name in ("隐身", "迷魂")]


@hookimpl
def bansha_step_handlers():
    return {f"m217.cast.{DOFF}": take_off, f"m217.standing.{CLOAK}": cloak}


@hookimpl
def bansha_skill_unavailable(game, player, skill):
    if skill.name == DOFF and not cloaked(game, player):
        # > 选择范围：[隐身衣]尚有效才能发动
        return f"{DOFF}：[隐身衣]尚有效才能发动（{player.name}的隐身衣已失效）"
    return None


@hookimpl
@for_skills(CLOAK)  # called only in a game where a player holds it
def bansha_on_death(res, player, kill):
    if holds(res.game, player, CLOAK):
        # reading: > 角色出局后，不能…行使特权（视作被业炎处理） — 业炎 holds 遗忘, so the <强制>
        # cloak and its statuses go with its holder
        drop(player)
    lapse(res.game, res.feedback)


@hookimpl
@for_skills(CLOAK)  # called only in a game where a player holds it
def bansha_phase_started(game):
    # a death that no hook saw (a 钟's rewind re-applying a day skill's death) still counts
    lapse(game, lambda name, line: game.feedback[name].append((game.label, line)))
