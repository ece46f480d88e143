"""魔术师 — 新日暮里 (M217), 强神 ⑥.

> 交换[午夜][指定] —— 选择范围：[绝情]，2人。
> 结算效果：若最终结算目标正好为2个角色且结算成功，则当晚之后所有[指定]技能的结算目标都会被交换，持续至
> 夜晚结束，若最终结算目标不是2个角色，该技能发动无效，但魔术师之后仍然不可选择当晚交换的目标进行交换。

The swap is the chain stage ``m217.chain.交换``: "然后再检测球当前所在的A有没有魔术技能".
[绝情] is read from the last sentence: a player once chosen for 交换 may not be chosen again.
"""

from bansha import Role, Skill, for_skills, hookimpl
from bansha_m217_cards import swap as swap_targets
from bansha_m217_cards import swap_stage


def swap(res, a):
    me = res.game.player(a.actor)
    me.data.setdefault("交换.chosen", []).extend(a.chosen)
    # > 若最终结算目标正好为2个角色且结算成功… (the board's 交换 card: homebrew roles share it)
    swap_targets(res, a)


MAGICIAN = Role(
    name="魔术师", alias="magician", camp="村民阵营", rule=__doc__,
    skills=(Skill(name="交换", alias="swap", phases=("night",), step="午夜9", targets=2,
                  may_target_self=True, tags=("指定", "午夜"), effect=swap,
                  rule="交换[午夜][指定] —— [绝情]，2人：当晚之后所有[指定]技能的结算目标都会被交换。"),),
)


@hookimpl
def bansha_roles():
    return [MAGICIAN]


@hookimpl
def bansha_step_handlers():
    return {"m217.chain.交换": swap_stage}


@hookimpl
@for_skills("交换")
def bansha_validate_action(game, action):
    if action.skill != "交换":
        return None
    if len(set(action.chosen)) != len(action.chosen):
        return "交换须选择2名不同角色"
    used = set(game.player(action.actor).data.get("交换.chosen", ()))
    again = [t for t in action.chosen if t in used]
    # > 但魔术师之后仍然不可选择当晚交换的目标进行交换 ([绝情])
    if again:
        return f"{again[0]}已被选择过交换（[绝情]）"
    return None
