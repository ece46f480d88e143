"""猎人 — 新日暮里 (M217), 弱神 ④.

> 1、猎人④
> 最后一枪[晨曦][黄昏][指定] —— 选择范围：出局后下一个可发动技能的时点，选择任意一名角色。
> 结算效果：结算目标承受[致死伤害]。

The skill is used only after the 猎人 has left the game, in the first 晨曦 or 黄昏 at or after
the exit (the [亡语] check of ``bansha_m217_rules``, which reads [亡语] from this very sentence),
answered at once (游戏流程 3 (2) and 5 (2): "因此造成的出局立刻通知对应角色"). A red card stops it
(> 红牌罚下出局的角色…不能发动任何技能, ``bansha_m217_director``). 奇迹商人's 猎枪 declares the same
skill for its pseudo-role 礼物 (plugins/m217/merchant), with the same effect. Readings:
docs/rulings/m217.md (group weak-a).
"""

from bansha import Role, Skill, hookimpl
from bansha_m217_helpers import exit_of, hit, window
from bansha_m217_rules import land, settle


def last_shot(res, a):
    # > 选择范围：…选择任意一名角色。 (the chain and 隐身 apply: it is [指定])
    if settle(res, a):
        for t in a.targets:
            # > 结算效果：结算目标承受[致死伤害]。
            hit(res, a, t, "致死伤害")
    land(res)


LAST_SHOT = Skill(name="最后一枪", does=("harm",), alias="last-shot", phases=("dawn", "dusk"), immediate=True, while_out=True,
                  may_target_self=True,
                  # 亡语: the board's tag for "出局后下一个可发动技能的时点" (checked by the rules plugin)
                  tags=("指定", "亡语"), effect=last_shot,
                  rule="最后一枪[晨曦][黄昏][指定] —— 选择范围：出局后下一个可发动技能的时点，选择任意一名角色。"
                       "结算效果：结算目标承受[致死伤害]。")
HUNTER = Role(name="猎人", alias="hunter", camp="村民阵营", rule=__doc__, skills=(LAST_SHOT,))


@hookimpl
def bansha_roles():
    return [HUNTER]


@hookimpl
def bansha_skill_unavailable(game, player, skill):
    """> 选择范围：出局后下一个可发动技能的时点 — offered (``status --as``) only then."""
    if skill != LAST_SHOT:
        return None
    gone = exit_of(game, player.name) if not player.alive else None
    if not gone or window(game, gone[0], skill.phases) != game.label:
        return "最后一枪是[亡语]技能：在猎人出局后的第一个晨曦/黄昏发动"
    return None
