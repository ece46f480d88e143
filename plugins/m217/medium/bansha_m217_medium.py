"""通灵师 — 新日暮里 (M217), 验人系 ⑦.

> 通灵[夜晚][指定] ——选择范围：任意一名角色
> 结算效果：反馈结算目标的[表面身份]，反馈格式为[选择目标是XX身份]，有多次结算效果，则按顺序多次反馈。
"""

from bansha import Fact, Role, Skill, hookimpl
from bansha_m217_helpers import surface


def commune(res, a):
    # > 反馈结算目标的[表面身份]，反馈格式为[选择目标是XX身份]，有多次结算效果，则按顺序多次反馈。
    for t in a.targets:
        role = surface(res.game, t)["role"]
        res.feedback(a.actor, f"{a.chosen[0]}是{role}身份", Fact(player=a.chosen[0], what="role", value=role, by=a.skill))


COMMUNE = Skill(name="通灵", does=("check",), alias="commune", phases=("night",), step="深夜14b", may_target_self=True,
                tags=("指定",), effect=commune,
                rule="通灵[夜晚][指定]——选择范围：任意一名角色。结算效果：反馈结算目标的[表面身份]")
MEDIUM = Role(name="通灵师", alias="medium", camp="村民阵营", rule=__doc__, skills=(COMMUNE,))


@hookimpl
def bansha_roles():
    return [MEDIUM]
