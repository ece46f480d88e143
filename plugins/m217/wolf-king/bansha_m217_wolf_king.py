"""狼王 — 新日暮里 (M217), 狼人阵营 ⑧.

> 1.狼王[群内]⑧
> 冲锋[深夜][指定] —— 选择目标：若报复有次数时，消耗1点报复次数，1人
> 结算效果：对结算目标造成一次[指杀]。
> 报复[晨曦][黄昏][指定][亡语][1][迅捷]—— 选择范围：不是因为[特攻]或[暴击]出局时，1人。
> 结算效果：结算目标承受[暴击]。

Readings (docs/rulings/m217.md, group wolves-a): 冲锋 is not in the 游戏流程; it resolves in step
(15) right after the pack's 杀人 (深夜15b) and its kill lands after the kills (20) lists. The 报复
use it spends is spent when 冲锋 resolves (a 冲锋 voided by 沉默 spends nothing). 报复 is answered
at once ("立刻在该阶段发动", 黄昏/晨曦 (2)); [亡语] is checked by the rules plugin; [迅捷] adds no use
to a [1] skill (option ``swift``).
"""

from bansha import Role, Skill, for_skills, hookimpl
from bansha_m217_helpers import exit_of, hit
from bansha_m217_rules import land, settle

REVENGE = "报复"


def charge(res, a):
    me = res.game.player(a.actor)
    # > 若报复有次数时，消耗1点报复次数
    me.uses[REVENGE] = me.uses.get(REVENGE, 0) - 1
    res.trace("冲锋", f"{a.actor}消耗1点报复次数（剩余{me.uses[REVENGE]}次）")
    # > 结算效果：对结算目标造成一次[指杀]。
    if settle(res, a):
        hit(res, a, a.targets[0], "指杀")


def revenge(res, a):
    # > 结算效果：结算目标承受[暴击]。
    if settle(res, a):
        hit(res, a, a.targets[0], "暴击")
    land(res)


WOLF_KING = Role(
    name="狼王", alias="wolf-king", camp="狼人阵营", group="狼人", rule=__doc__,
    skills=(
        Skill(name="冲锋", does=("harm",), alias="charge", phases=("night",), step="深夜15b", priority=25,
              may_target_self=True, tags=("深夜", "指定", "指杀"), effect=charge,
              rule="冲锋[深夜][指定] —— 选择目标：若报复有次数时，消耗1点报复次数，1人。结算效果：对结算目标造成一次[指杀]。"),
        Skill(name=REVENGE, does=("harm",), alias="revenge", phases=("dawn", "dusk"), immediate=True, while_out=True,
              uses=1, tags=("晨曦", "黄昏", "指定", "亡语", "迅捷"), effect=revenge,
              rule="报复[晨曦][黄昏][指定][亡语][1][迅捷]—— 选择范围：不是因为[特攻]或[暴击]出局时，1人。结算效果：结算目标承受[暴击]。"),
    ),
)


@hookimpl
def bansha_roles():
    return [WOLF_KING]


@hookimpl
def bansha_skill_unavailable(game, player, skill):
    if skill.name == "冲锋" and player.uses.get(REVENGE, 0) <= 0:
        # > 选择目标：若报复有次数时，消耗1点报复次数
        return "冲锋：报复已没有次数（若报复有次数时，消耗1点报复次数）"
    return None


@hookimpl
@for_skills(REVENGE)
def bansha_validate_action(game, action):
    if action.skill != REVENGE:
        return None
    # > 选择范围：不是因为[特攻]或[暴击]出局时，1人。
    gone = exit_of(game, action.actor)
    if gone and gone[2] in ("特攻", "暴击"):
        return "报复：不是因为[特攻]或[暴击]出局时（此次是因[特攻]或[暴击]出局）"
    return None
