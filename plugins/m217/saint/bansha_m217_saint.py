"""圣女 — 新日暮里 (M217), 强神 ⑤ (游戏流程 (6) calls her 修女).

> 圣水[早夜][指定][限定]——选择范围：1人。
> 结算效果：根据结算目标的[实际阵营]结算效果，若该玩家[实际阵营]是村民阵营，该玩家[实际身份]的对应技能刷新至
> 初始，并且目标会收到技能刷新的通知。若该玩家[实际阵营]是狼人阵营，其永久获得[净化]状态，若该玩家[实际阵营]是
> 三方阵营，该角色永久获得[超度]状态。

"刷新至初始" resets counted uses, gives back lost skills, and resets a skill's own state through the
handler ``m217.refresh.<skill>`` its role plugin may provide (九尾: 5 tails again).
"""

from bansha import Role, Skill, hookimpl
from bansha_m217_cards import refresh
from bansha_m217_helpers import VILLAGE, WOLF, give, judged_camp


def holy_water(res, a):
    game = res.game
    for t in a.targets:
        p = game.player(t)
        camp = judged_camp(game, p, a.actor)  # 隐狼<伪装> 4 is judged 村民阵营
        if camp == VILLAGE:
            # > 该玩家[实际身份]的对应技能刷新至初始，并且目标会收到技能刷新的通知。 (the board's
            # 刷新至初始 card: counted uses, lost skills, a skill's own state — 九尾狐's tails)
            refresh(res, t)
        elif camp == WOLF:
            # > 若该玩家[实际阵营]是狼人阵营，其永久获得[净化]状态
            give(res, t, "净化", source="圣水")
        elif camp == "三方阵营":
            # > 若该玩家[实际阵营]是三方阵营，该角色永久获得[超度]状态。
            give(res, t, "超度", source="圣水")


SAINT = Role(
    name="圣女", alias="saint", camp="村民阵营", rule=__doc__,
    skills=(Skill(name="圣水", does=("help",), alias="holy-water", phases=("night",), step="早夜6", uses=1, may_target_self=True,
                  tags=("指定", "限定", "早夜"), effect=holy_water,
                  rule="圣水[早夜][指定][限定]——村民阵营：技能刷新至初始；狼人阵营：永久[净化]；三方阵营：永久[超度]。"),),
)


@hookimpl
def bansha_roles():
    return [SAINT]
