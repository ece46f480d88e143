"""黑蝙蝠 — 新日暮里 (M217), 狼人阵营 ⑧.

> 14、黑蝙蝠[群内]⑧
> 庇护[午夜][指定]——选择范围：任意一名角色，不能连续两天选择同一个角色。
> 结算效果：结算目标获得[坚韧]，持续至当晚结束。
> 反弹[凌晨][强制][指定][限定]——选择范围：第一个对自己发动的[庇护]结算目标实行[指杀][穿透]的角色。
> 结算效果：对结算目标造成[穿透]。
> PS：由于会得知选择范围的原因，黑蝙蝠会得知谁第一个对自己的庇护目标进行了攻击。

庇护 resolves at night step (12) (午夜12b, after 摄梦). 反弹 is <强制>: nobody sends it; at night
step (18) (``m217.at.凌晨18.黑蝙蝠``, after 恶灵骑士) the engine reads the kills queued tonight
(they land at step (20)) and sends 反弹 at the one who sent first a 指杀 or 穿透 on the 庇护 target;
the action passes the targeting chain like any [指定] skill. The 庇护 targets of the night are
kept in ``res.data["庇护"]`` ({bat: [targets]}). Readings: docs/rulings/m217.md (group wolves-b).
"""

from bansha import Role, Skill, hookimpl
from bansha_m217_helpers import forced_on, give, hit, send_forced, spend

SHELTER, REBOUND = "庇护", "反弹"


def shelter(res, a):
    for t in a.targets:
        # > 结算效果：结算目标获得[坚韧]，持续至当晚结束。
        give(res, t, "坚韧", until=res.label, source=SHELTER)
        res.data.setdefault(SHELTER, {}).setdefault(a.actor, []).append(t)


def rebound_at_dawn(res):
    """> 反弹[凌晨][强制][指定][限定]——选择范围：第一个对自己发动的[庇护]结算目标实行[指杀][穿透]的角色。"""
    game = res.game
    for bat, targets in res.data.get(SHELTER, {}).items():
        p = game.player(bat)
        if not p.alive or p.uses.get(REBOUND, 0) <= 0 or not forced_on(game, p, REBOUND):
            continue
        # the attack that was sent first (a 杀人's attacker is its random 群内 source); the bat is not
        # its own 反弹's target when the pack's 杀人 names him its source
        attacks = sorted((k for k in res.kills if k.target in targets and k.kind in ("指杀", "穿透") and k.action
                          and k.by != bat), key=lambda k: k.action.seq)
        if not attacks:
            continue
        # > PS：由于会得知选择范围的原因，黑蝙蝠会得知谁第一个对自己的庇护目标进行了攻击。
        send_forced(res, bat, REBOUND, attacks[0].by, f"对{attacks[0].target}的{attacks[0].rule}")


def rebound(res, a):
    spend(res, a)  # <限定>
    for t in a.targets:
        # > 结算效果：对结算目标造成[穿透]。
        hit(res, a, t, "穿透", rule=REBOUND)


BLACK_BAT = Role(
    name="黑蝙蝠", alias="black-bat", camp="狼人阵营", group="狼人", rule=__doc__,
    skills=(
        Skill(name=SHELTER, does=("help",), alias="shelter", phases=("night",), step="午夜12b", priority=120, may_target_self=True,
              no_repeat_target=True, tags=("午夜", "指定"), effect=shelter,
              rule="庇护[午夜][指定]——选择范围：任意一名角色，不能连续两天选择同一个角色。结算效果：结算目标获得"
                   "[坚韧]，持续至当晚结束。"),
        Skill(name=REBOUND, does=("harm",), alias="rebound", phases=("night",), step="凌晨18", priority=20, uses=1,
              tags=("凌晨", "强制", "指定", "限定"), effect=rebound,
              rule="反弹[凌晨][强制][指定][限定]——选择范围：第一个对自己发动的[庇护]结算目标实行[指杀][穿透]的角色。"
                   "结算效果：对结算目标造成[穿透]。"),
    ),
)


@hookimpl
def bansha_roles():
    return [BLACK_BAT]


@hookimpl
def bansha_step_handlers():
    return {"m217.at.凌晨18.黑蝙蝠": rebound_at_dawn}


@hookimpl
def bansha_skill_unavailable(game, player, skill):
    if skill.name == REBOUND:
        return f"{REBOUND}是<强制>技能：无需发动，夜晚第(18)步自动结算"
    return None
