"""灵鹿 — 新日暮里 (M217), 强神 ⑦.

> 森林庇护[夜晚]<限定> —— 游戏日夜晚可选择发动该技能，所有角色仅当晚获得[不死]状态。
> 长寿之命<强制> —— 灵鹿永久获得[守护：1]状态
"""

from bansha import Role, Skill, Status, hookimpl
from bansha_m217_helpers import give


def sanctuary(res, a):
    # > 所有角色仅当晚获得[不死]状态。
    for p in res.game.alive():
        give(res, p.name, "不死", until=res.label, source="森林庇护")


DEER = Role(
    name="灵鹿", alias="deer", camp="村民阵营", rule=__doc__,
    skills=(
        Skill(name="森林庇护", alias="sanctuary", phases=("night",), step="凌晨17", targets=0, uses=1,
              tags=("限定",), effect=sanctuary,
              rule="森林庇护[夜晚]<限定> —— 所有角色仅当晚获得[不死]状态。"),
        Skill(name="长寿之命", alias="longevity", targets=0, tags=("强制",),
              rule="长寿之命<强制> —— 灵鹿永久获得[守护：1]状态"),
    ),
)


@hookimpl
def bansha_roles():
    return [DEER]


def longevity(game, p):
    """Handler ``m217.standing.长寿之命`` (the rules give it to whoever holds the skill; lost with it
    under 遗忘): > 灵鹿永久获得[守护：1]状态"""
    return [Status(name="守护", count=1, source="长寿之命")]


@hookimpl
def bansha_step_handlers():
    return {"m217.standing.长寿之命": longevity}
