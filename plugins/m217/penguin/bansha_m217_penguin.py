"""企鹅 — 新日暮里 (M217), 强神 ⑧.

> 冰冻[夜晚][指定] —— 选择范围：任意一名角色，不能连续两晚选择同一个角色。
> 结算效果：令结算目标获得[冰冻]，持续至下一个[正午]阶段开始。
"""

from bansha import Role, Skill, hookimpl
from bansha_m217_helpers import give


def freeze(res, a):
    # > 令结算目标获得[冰冻]，持续至下一个[正午]阶段开始。 (the dawn before it ends)
    for t in a.targets:
        give(res, t, "冰冻", until=f"dawn {res.game.day}", source="冰冻")


PENGUIN = Role(
    name="企鹅", alias="penguin", camp="村民阵营", rule=__doc__,
    skills=(Skill(name="冰冻", does=("harm",), alias="freeze", phases=("night",), step="午夜10", may_target_self=True,
                  no_repeat_target=True, tags=("指定",), effect=freeze,
                  rule="冰冻[夜晚][指定] —— 不能连续两晚选择同一个角色。令结算目标获得[冰冻]，持续至下一个[正午]阶段开始。"),),
)


@hookimpl
def bansha_roles():
    return [PENGUIN]
