"""狼巫 — 新日暮里 (M217), 狼人阵营 ⑦.

> 8.狼巫[群内]⑦
> 黑暗侦测[夜晚][指定]——选择范围：任意一名角色
> 结算效果：反馈结算目标的[表面身份]，反馈格式为[选择目标是XX身份]，有多次结算效果，则按顺序多次反馈。
"""

from bansha import Fact, Role, Skill, hookimpl
from bansha_m217_helpers import surface


def detect(res, a):
    # > 反馈结算目标的[表面身份]，反馈格式为[选择目标是XX身份]，有多次结算效果，则按顺序多次反馈。
    for t in a.targets:
        role = surface(res.game, t)["role"]
        res.feedback(a.actor, f"{a.chosen[0]}是{role}身份", Fact(player=a.chosen[0], what="role", value=role, by=a.skill))


WOLF_WITCH = Role(
    name="狼巫", alias="wolf-witch", camp="狼人阵营", group="狼人", rule=__doc__,
    skills=(Skill(name="黑暗侦测", does=("check",), alias="dark-detect", phases=("night",), step="深夜14b",
                  may_target_self=True, tags=("指定",), effect=detect,
                  rule="黑暗侦测[夜晚][指定]——选择范围：任意一名角色。结算效果：反馈结算目标的[表面身份]"),),
)


@hookimpl
def bansha_roles():
    return [WOLF_WITCH]
