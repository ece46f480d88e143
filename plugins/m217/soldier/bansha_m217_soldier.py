"""士兵 — 新日暮里 (M217), 强神 ⑥.

> 埋伏[强制]——[常驻]：游戏日夜晚，士兵获得[守护：1]状态。
> [触发]：当[埋伏]的守护次数归0或者变为负数时，士兵失去[突击]技能
> 突击[深夜][指定][限定]——选择范围：1人。
> 结算效果：士兵失去[埋伏]技能，结算目标受到[穿透]。
"""

from bansha import Role, Skill, Status, for_skills, hookimpl
from bansha_m217_helpers import forced_on, hit, lose


def assault(res, a):
    # > 结算效果：士兵失去[埋伏]技能，结算目标受到[穿透]。
    lose(res, a.actor, "埋伏")
    for t in a.targets:
        hit(res, a, t, "穿透")


SOLDIER = Role(
    name="士兵", alias="soldier", camp="村民阵营", rule=__doc__,
    skills=(
        Skill(name="埋伏", alias="ambush", targets=0, tags=("强制",),
              rule="埋伏[强制]——[常驻]：游戏日夜晚，士兵获得[守护：1]状态。守护次数归0时，士兵失去[突击]技能"),
        Skill(name="突击", does=("harm",), alias="assault", phases=("night",), step="深夜15b", uses=1, may_target_self=True,
              tags=("指定", "限定", "深夜"), effect=assault,
              rule="突击[深夜][指定][限定]——选择范围：1人。结算效果：士兵失去[埋伏]技能，结算目标受到[穿透]。"),
    ),
)


@hookimpl
def bansha_roles():
    return [SOLDIER]


@hookimpl
@for_skills("埋伏")  # called only in a game where a player holds it
def bansha_phase_started(game):
    for p in game.players.values():
        if "埋伏" not in game.skills_of(p):  # whoever holds it (an heir's 埋伏 too), lost or not
            continue
        # > 当[埋伏]的守护次数归0或者变为负数时，士兵失去[突击]技能
        # (the spent 守护 is consumed by the trigger: a 圣水 that gives 突击 back is not undone)
        spent = p.data.get("m217.spent", [])
        if "埋伏" in spent:
            spent.remove("埋伏")
            if "突击" not in p.data.get("m217.lost", ()):
                p.data.setdefault("m217.lost", []).append("突击")
                game.feedback[p.name].append((game.label, "埋伏的守护次数归0，你失去了[突击]技能。"))
        # > 游戏日夜晚，士兵获得[守护：1]状态。
        if game.phase.name == "night" and forced_on(game, p, "埋伏"):
            p.statuses.append(Status(name="守护", count=1, until=game.label, source="埋伏",
                                     data={"forced": "埋伏"}))
