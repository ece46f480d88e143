"""狐狸 — 新日暮里 (M217), 验人系 ⑤.

> 狡黠[夜晚]—— 游戏日夜晚可查验存在于电梯楼的角色，和其相邻的两名玩家的[表面身份]是否都为<非村民阵营>
> 或<村民阵营>，若是，则反馈这些人都为<非村民阵营>或<村民阵营>，并失去此技能。若不是，则反馈<气息杂乱
> 无法分辨>，并且下一夜仍然可以使用。

狡黠 is not [指定]: the targeting chain does not touch it. The three read their 表面阵营.
"""

from bansha import Role, Skill, hookimpl
from bansha_m217_helpers import VILLAGE, lose, surface


def sniff(res, a):
    game = res.game
    # > 存在于电梯楼的角色，和其相邻的两名玩家 (电梯楼: the dead left out, the ends adjacent)
    left, right = game.neighbours(a.targets[0])
    names = [left.name, a.targets[0], right.name]
    camps = {surface(game, n)["camp"] == VILLAGE for n in names}
    if len(camps) == 1:
        # > 若是，则反馈这些人都为<非村民阵营>或<村民阵营>，并失去此技能。
        side = "村民阵营" if camps == {True} else "非村民阵营"
        res.feedback(a.actor, f"{'、'.join(names)}都为{side}")
        lose(res, a.actor, "狡黠")
    else:
        # > 若不是，则反馈<气息杂乱无法分辨>，并且下一夜仍然可以使用。
        res.feedback(a.actor, "气息杂乱无法分辨")


FOX = Role(
    name="狐狸", alias="fox", camp="村民阵营", rule=__doc__,
    skills=(Skill(name="狡黠", does=("check",), alias="cunning", phases=("night",), step="深夜14b", may_target_self=True,
                  effect=sniff,
                  rule="狡黠[夜晚]——查验一名角色和其电梯楼相邻的两名玩家是否都为村民阵营或都为非村民阵营；是则反馈并失去此技能，否则反馈气息杂乱无法分辨。"),),
)


@hookimpl
def bansha_roles():
    return [FOX]
