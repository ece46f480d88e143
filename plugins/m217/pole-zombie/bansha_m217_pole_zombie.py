"""撑杆僵尸 — 新日暮里 (M217), 狼人阵营 ⑦.

> 10、撑杆僵尸[群内]⑦
> 跳跃[夜晚]<限定> —— 游戏日夜晚可选择发动该技能，使当晚除验人系以外的[指定]技能对僵尸阵营无效，已附加的状态
> 一并解除。
> 注：被跳跃解除的状态，在跳跃发动前仍是生效的。

"僵尸阵营" is read as 狼人阵营 (actual camp): no 僵尸阵营 exists on this board. 跳跃 resolves at night
step (15) (午夜15a); from then on the rules plugin's ``settle`` asks ``m217.shield.跳跃`` and drops
such final targets as it drops one under 隐身; the statuses those skills attached earlier tonight
are removed, and the kills they queued earlier tonight are stopped. Readings: docs/rulings/m217.md
(group wolves-b).
"""

from bansha import Role, Skill, hookimpl
from bansha_m217_helpers import WOLF

KEY = "跳跃"


def verifier_skills(game) -> set[str]:
    """> 除验人系以外 — the skills of the roles the deal's 验人系 pool lists."""
    return {s.name for t in game.manifest.tables for pool in t.pools if pool.name == "验人系"
            for r in pool.roles for s in game.ruleset.role(r).skills}


def targeted(game, skill_name: str) -> bool:
    """Whether a skill of that name is [指定] and not a 验人系 skill."""
    if skill_name in verifier_skills(game):
        return False
    return any(s.name == skill_name and "指定" in s.tags for r in game.ruleset.roles.values() for s in r.skills)


def jump(res, a):
    game = res.game
    res.data[KEY] = True
    for p in game.players.values():
        if p.camp != WOLF:
            continue
        # > 已附加的状态一并解除。  (tonight's, by a [指定] skill other than a 验人系 one)
        # > 注：被跳跃解除的状态，在跳跃发动前仍是生效的。 — they worked until now (step (15))
        gone = [s for s in p.statuses
                if (s.data.get("gained") or [None])[0] == res.label and targeted(game, s.source)]
        for s in gone:
            p.statuses.remove(s)
            res.trace(KEY, f"{p.name}的{s.name}（来自{s.source}）被移除")
    # a swap of tonight's 魔术师<交换> ("持续至夜晚结束", kept by the rules as ``m217.swaps``) that takes in
    # a 狼人阵营 player is an effect of a [指定] skill attached to him: undone the same way (it worked
    # until now: the balls it moved before step (15) stay moved)
    swaps = res.data.get("m217.swaps", [])
    kept = [pair for pair in swaps if not any(game.player(t).camp == WOLF for t in pair)]
    if kept != swaps:
        res.trace(KEY, f"交换{'、'.join('↔'.join(pair) for pair in swaps if pair not in kept)}被撤销")
        res.data["m217.swaps"] = kept


def shield(res, action, target) -> bool:
    """> 使当晚除验人系以外的[指定]技能对僵尸阵营无效"""
    game = res.game
    return bool(res.data.get(KEY)) and game.player(target).camp == WOLF and targeted(game, action.skill)


ZOMBIE = Role(
    name="撑杆僵尸", alias="pole-zombie", camp="狼人阵营", group="狼人", rule=__doc__,
    skills=(Skill(name=KEY, alias="jump", phases=("night",), step="午夜15a", priority=20, targets=0, uses=1,
                  tags=("夜晚", "限定"), effect=jump,
                  rule="跳跃[夜晚]<限定> —— 游戏日夜晚可选择发动该技能，使当晚除验人系以外的[指定]技能对僵尸阵营"
                       "无效，已附加的状态一并解除。"),),
)


@hookimpl
def bansha_roles():
    return [ZOMBIE]


@hookimpl
def bansha_step_handlers():
    return {f"m217.shield.{KEY}": shield}


@hookimpl(tryfirst=True)
def bansha_stop_kill(res, kill):
    """A kill of tonight by such a skill on a 狼人阵营 player is void too, even one queued before the jump."""
    if not res.data.get(KEY) or res.game.phase.name != "night":
        return None
    # (a kill an effect queues later names its skill as its rule: 摄梦's "若发动者当晚出局")
    skill = kill.action.skill if kill.action is not None else kill.rule
    if res.game.player(kill.target).camp == WOLF and targeted(res.game, skill):
        return f"{KEY}：今晚{skill}对狼人阵营无效"
    return None
