"""猎魔人 — 新日暮里 (M217), 强神 ⑦.

> 猎杀 [夜晚][指定][3] —— 选择范围：任意一名角色，每晚只能发动1次。
> 结算效果：根据结算目标的[实际阵营]结算效果，若该角色是狼人阵营，目标角色受到[穿透]，若该角色是三方或不定
> 阵营，该技能额外消耗1点次数，若该角色是村民阵营，该技能额外消耗2点次数。
> 无论是否存在结算目标，结算是否成功，若发动[猎杀]后次数为负数，猎魔人受到[致死伤害]。
> 宿命<强制> —— 游戏日夜晚，获得仅针对[实际阵营]为[村民阵营]的[坚韧]状态。
"""

from bansha import Role, Skill, Status, for_skills, hookimpl
from bansha_m217_helpers import VILLAGE, WOLF, forced_on, hit, judged_camp


def hunt(res, a):
    me = res.game.player(a.actor)
    for t in a.targets:
        camp = judged_camp(res.game, t, a.actor)  # 隐狼<伪装> 4 is judged 村民阵营
        if camp == WOLF:
            # > 若该角色是狼人阵营，目标角色受到[穿透]
            hit(res, a, t, "穿透")
        else:
            # > 三方或不定阵营，该技能额外消耗1点次数，若该角色是村民阵营，该技能额外消耗2点次数。
            me.uses["猎杀"] -= 2 if camp == VILLAGE else 1
            res.trace("猎杀", f"{t}属于{camp}：猎杀剩余{me.uses['猎杀']}次")
    # > 若发动[猎杀]后次数为负数，猎魔人受到[致死伤害]。
    if me.uses["猎杀"] < 0:
        hit(res, a, me.name, "致死伤害")


HUNTER = Role(
    name="猎魔人", alias="demon-hunter", camp="村民阵营", rule=__doc__,
    skills=(
        # > 选择范围：任意一名角色，每晚只能发动1次。 (per_phase = 1 although [3] is counted)
        Skill(name="猎杀", does=("harm",), alias="hunt", phases=("night",), step="深夜15b", uses=3, per_phase=1, may_target_self=True,
              tags=("指定",), effect=hunt,
              rule="猎杀 [夜晚][指定][3] —— 狼人阵营：目标受到[穿透]；三方/不定：额外消耗1次；村民阵营：额外消耗2次；次数为负数时猎魔人受到[致死伤害]。"),
        Skill(name="宿命", alias="fate", targets=0, tags=("强制",),
              rule="宿命<强制> —— 游戏日夜晚，获得仅针对[实际阵营]为[村民阵营]的[坚韧]状态。"),
    ),
)


@hookimpl
def bansha_roles():
    return [HUNTER]


@hookimpl
@for_skills("宿命")  # called only in a game where a player holds it
def bansha_phase_started(game):
    if game.phase.name != "night":
        return
    for p in game.players.values():
        # > 游戏日夜晚，获得仅针对[实际阵营]为[村民阵营]的[坚韧]状态。
        if forced_on(game, p, "宿命"):  # whoever holds it (forced_on asks holds)
            p.statuses.append(Status(name="坚韧", until=game.label, source="宿命",
                                     data={"forced": "宿命", "only_from_camp": VILLAGE}))
