"""灵能 — 新日暮里 (M217), 弱神 ③.

> 9、灵能③
> 感知[指定][夜晚]——选择范围：任意一名已出局角色。
> 结算效果：获知[结算目标]的[实际阵营]，反馈格式为[选择目标是XX阵营]，有多次结算效果，则按顺序多次反馈。

A night check at step (14) (深夜), after 天师<通天> in the document's list. The selection range
is the players out of the game; the feedback names the 选择目标 and reads the 结算目标's actual
camp (a camp changed during the game is the one read).
"""

from bansha import Fact, Role, Skill, for_skills, hookimpl
from bansha_m217_helpers import judged_camp

SENSE = "感知"


def sense(res, a):
    # > 获知[结算目标]的[实际阵营]，反馈格式为[选择目标是XX阵营]，有多次结算效果，则按顺序多次反馈。
    for t in a.targets:
        # 隐狼<伪装> 4 is judged 村民阵营 by a 村民阵营 灵能 ("受到来自于[村民阵营]的以[实际阵营]判断的技能时")
        camp = judged_camp(res.game, t, a.actor)
        res.feedback(a.actor, f"{a.chosen[0]}是{camp}", Fact(player=a.chosen[0], what="camp", value=camp, by=a.skill))


PSYCHIC = Role(
    name="灵能", alias="psychic", camp="村民阵营", rule=__doc__,
    skills=(Skill(name=SENSE, does=("check",), alias="sense", phases=("night",), step="深夜14b", may_target_dead=True,
                  tags=("指定",), effect=sense,
                  rule="感知[指定][夜晚]——选择范围：任意一名已出局角色。结算效果：获知[结算目标]的[实际阵营]，"
                       "反馈格式为[选择目标是XX阵营]。"),),
)


@hookimpl
def bansha_roles():
    return [PSYCHIC]


@hookimpl
@for_skills(SENSE)
def bansha_validate_action(game, action):
    if action.skill == SENSE:
        living = [t for t in action.chosen if game.player(t).alive]
        if living:
            # > 选择范围：任意一名已出局角色。
            return f"{SENSE}：选择范围：任意一名已出局角色（{'、'.join(living)}仍在场上）"
    return None
