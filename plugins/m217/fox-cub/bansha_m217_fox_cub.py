"""子狐 — 新日暮里 (M217), 强神 ⑤.

> 咒缚[午夜][指定][限定]——选择范围：1人。
> 结算效果：若目标角色的[实际身份]为[狼人阵营]，目标角色获得[冰冻]，持续至下一个[正午]开始，否则无效果。
"""

from bansha import Role, Skill, hookimpl
from bansha_m217_helpers import WOLF, give, judged_camp


def bind(res, a):
    for t in a.targets:
        # > 若目标角色的[实际身份]为[狼人阵营]，目标角色获得[冰冻]，持续至下一个[正午]开始，否则无效果。
        if judged_camp(res.game, t, a.actor) == WOLF:  # 隐狼<伪装> 4 is judged 村民阵营
            give(res, t, "冰冻", until=f"dawn {res.game.day}", source="咒缚")


FOX_CUB = Role(
    name="子狐", alias="fox-cub", camp="村民阵营", rule=__doc__,
    skills=(Skill(name="咒缚", does=("harm",), alias="bind", phases=("night",), step="午夜12a", uses=1, may_target_self=True,
                  tags=("指定", "限定", "午夜"), effect=bind,
                  rule="咒缚[午夜][指定][限定]——若目标角色实际为狼人阵营，获得[冰冻]，持续至下一个[正午]开始。"),),
)


@hookimpl
def bansha_roles():
    return [FOX_CUB]
