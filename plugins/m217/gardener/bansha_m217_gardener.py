"""花匠 — 新日暮里 (M217), 弱神 ④ (③ in the role's own heading).

> 6、花匠③
> 玫瑰[夜晚][指定][限定]——选择范围：任意一名角色。玫瑰可在任意时段发动，不可选择上一个对你使用[玫瑰]的角色
> 花匠可选择一名玩家，该玩家立刻获得[玫瑰]并得到通知：你收到来自[技能来源]的玫瑰

"玫瑰可在任意时段发动" and "立刻获得" make 玫瑰 an immediate skill of every phase (the night's
order (13) places it among the night skills; answered at once, the chain and 隐身 are read when
it is sent). [技能来源] is the 花匠 who sent it. The last giver of a rose to a player is kept in
``player.data["玫瑰.from"]``. Readings: docs/rulings/m217.md (weak-a).
"""

from bansha import Role, Skill, for_skills, hookimpl
from bansha_m217_helpers import give
from bansha_m217_rules import settle

FROM = "玫瑰.from"


def rose(res, a):
    if not settle(res, a):
        return
    for t in a.targets:
        # > 该玩家立刻获得[玫瑰]并得到通知：你收到来自[技能来源]的玫瑰
        give(res, t, "玫瑰", source="玫瑰", told=False)
        res.feedback(t, f"你收到来自{a.actor}的玫瑰。")
        res.game.player(t).data[FROM] = a.actor


GARDENER = Role(
    name="花匠", alias="gardener", camp="村民阵营", rule=__doc__,
    skills=(Skill(name="玫瑰", alias="rose", phases=("opening", "dusk", "night", "dawn", "noon", "extra-noon"),
                  immediate=True, uses=1, may_target_self=True, tags=("指定", "限定"), effect=rose,
                  rule="玫瑰[夜晚][指定][限定]——选择范围：任意一名角色。玫瑰可在任意时段发动，不可选择上一个对你使用[玫瑰]的角色。"
                       "该玩家立刻获得[玫瑰]并得到通知：你收到来自[技能来源]的玫瑰"),),
)


@hookimpl
def bansha_roles():
    return [GARDENER]


@hookimpl
@for_skills("玫瑰")
def bansha_validate_action(game, action):
    if action.skill == "玫瑰":
        # > 不可选择上一个对你使用[玫瑰]的角色
        last = game.player(action.actor).data.get(FROM)
        if last and last in action.chosen:
            return f"玫瑰：上一枝玫瑰由{last}送给你，不能选择{last}"
    return None
