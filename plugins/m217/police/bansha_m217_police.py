"""警察 — 新日暮里 (M217), 验人系 ⑤.

> 该身份出现时，一个强神也会变为警察。
> 警队[强制]——[常驻]：持有此技能，且阵营相同的所有角色会共群，并共用下列警队技能。
> 警队可用共用技能：
> 刑侦[深夜][团队][指定]——选择范围：1人。
> 结算效果：反馈结算目标的[表面阵营][表面身份][表面带刀]，有多次结算效果，则按顺序多次反馈。

"一个强神也会变为警察" is the deal constraint ``replace_from = "强神"`` in the manifest.
"""

from bansha import Role, Skill, for_skills, hookimpl
from bansha_m217_helpers import forgotten, surface

GROUP = "警队"


def investigate(res, a):
    game = res.game
    me = game.player(a.actor)
    # > 持有此技能，且阵营相同的所有角色会共群 — the whole 警队 of the sender's camp reads it
    team = [p.name for p in game.alive() if GROUP in p.groups and p.camp == me.camp]
    for t in a.targets:
        # > 结算效果：反馈结算目标的[表面阵营][表面身份][表面带刀]，有多次结算效果，则按顺序多次反馈。
        seen = surface(game, t)
        line = f"{a.chosen[0]}：{seen['camp']}，{seen['role']}身份，{'带刀' if seen['armed'] else '不带刀'}"
        for name in team:
            res.feedback(name, line)


POLICE = Role(
    name="警察", alias="police", camp="村民阵营", group=GROUP, rule=__doc__,
    skills=(
        Skill(name="警队", alias="squad", targets=0, tags=("强制",),
              rule="警队[强制]——[常驻]：持有此技能，且阵营相同的所有角色会共群，并共用警队技能。"),
        Skill(name="刑侦", does=("check",), alias="investigate", phases=("night",), step="深夜14b", group=GROUP,
              may_target_self=True, tags=("指定", "团队", "深夜"), effect=investigate,
              rule="刑侦[深夜][团队][指定]——选择范围：1人。结算效果：反馈结算目标的[表面阵营][表面身份][表面带刀]"),
    ),
)


@hookimpl
def bansha_roles():
    return [POLICE]


def join(res, player) -> None:
    """Handler ``m217.refresh.警队`` (called by ``acquire``): > 持有此技能，且阵营相同的所有角色会共群 —
    whoever gains 警队 joins the 警队 group (its shared 刑侦 is read by the members of his camp)."""
    if GROUP not in player.groups:
        player.groups.append(GROUP)
        res.feedback(player.name, "警队：你加入了警队，可以发动[刑侦]。")


@hookimpl
def bansha_step_handlers():
    return {"m217.refresh.警队": join}


@hookimpl
@for_skills("刑侦")
def bansha_validate_action(game, action):
    # > [遗忘]：…该状态下失去所有[强制]技能 — without 警队 there is no shared 刑侦
    if action.skill == "刑侦" and forgotten(game.player(action.actor)):
        return f"{action.actor}处于遗忘状态，已失去警队（及其刑侦）"
    return None
