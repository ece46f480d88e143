"""噬时狼妃 — 新日暮里 (M217), 狼人阵营 ⑦.

> 4、噬时狼妃[群内]⑦
> 时间逆流[指定][夜晚]——选择范围：任意一名角色。
> 结算效果：若结算成功，当晚除了实际阵营为[狼人阵营]以外的所有角色对目标角色发动[指定]技能时，那些技能的结算
> 目标全部改为发动者自己，且不知晓，若成功反弹技能，噬时狼妃会知道所有被反弹的技能名称，然后失去此技能。

时间逆流 resolves at night step (4) (早夜4); from then on it is the stage ``m217.chain.时间逆流``
of the targeting chain (manifest option ``chain``):
> [选择目标]——阴谋家[煽动]——蚀时狼妃[时间逆流]——镜[反射]——最终会进行结算效果的所有目标
> 按照顺序先检测B有没有狼妃技能，如果有则将结算目标的球踢回给A
The protected players of the night are kept in ``res.data["时间逆流"]`` ({target: [consorts]}).
Readings: docs/rulings/m217.md (group wolves-b).
"""

from bansha import Role, Skill, hookimpl
from bansha_m217_helpers import WOLF, lose

KEY = "时间逆流"


def time_flow(res, a):
    # > 若结算成功 — the chain has settled the final target (隐身 or a shield voids the action)
    for t in a.targets:
        res.data.setdefault(KEY, {}).setdefault(t, []).append(a.actor)


def stage(res, action, ball):
    """> 当晚除了实际阵营为[狼人阵营]以外的所有角色对目标角色发动[指定]技能时，那些技能的结算目标全部改为
    > 发动者自己，且不知晓"""
    consorts = res.data.get(KEY, {}).get(ball)
    if not consorts or res.game.player(action.actor).camp == WOLF:
        return ball
    for consort in consorts:
        # > 若成功反弹技能，噬时狼妃会知道所有被反弹的技能名称，然后失去此技能。
        res.feedback(consort, f"时间逆流反弹了[{action.skill}]。")
        lose(res, consort, KEY)
    return action.actor


TIME_CONSORT = Role(
    name="噬时狼妃", alias="time-consort", camp="狼人阵营", group="狼人", rule=__doc__,
    skills=(Skill(name=KEY, does=("help",), alias="time-flow", phases=("night",), step="早夜4", may_target_self=True,
                  tags=("指定", "夜晚"), effect=time_flow,
                  rule="时间逆流[指定][夜晚]——选择范围：任意一名角色。结算效果：若结算成功，当晚除了实际阵营为"
                       "[狼人阵营]以外的所有角色对目标角色发动[指定]技能时，那些技能的结算目标全部改为发动者自己，"
                       "且不知晓，若成功反弹技能，噬时狼妃会知道所有被反弹的技能名称，然后失去此技能。"),),
)


@hookimpl
def bansha_roles():
    return [TIME_CONSORT]


@hookimpl
def bansha_step_handlers():
    return {f"m217.chain.{KEY}": stage}
