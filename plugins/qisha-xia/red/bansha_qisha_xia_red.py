"""赤侠 — 七杀·侠 1.5 (docs/rulings/qisha-xia.md R-C1, R-C2).

> 赤侠（1人）也即警察，每晚验一人，可验得此人身份（受暗侠、光侠特权的影响，详见1.2、1.6、1.9），允许放弃。
> （1.2）阻止到赤侠则赤侠得到“验人失败”的反馈。
> （1.8）赤侠验证龙侠，相当于龙侠验证赤侠从而龙侠得到赤侠身份，而赤侠得到“验人失败”的反馈。

验人 is shared with the 青侠 the 赤侠 absorbs (group 赤侠): every member is told the result.
银侠 may learn it (1.7). The identity is the one shown by the rules (青侠（中立）…).
"""

from bansha import Role, Skill, hookimpl
from bansha_qisha_xia_cards import (  # the board's 验人 card: homebrew roles share it
    check,
    check_failed,
)

RED = Role(
    name="赤侠", alias="red", camp="光明", group="赤侠",
    rule="赤侠（1人）也即警察，每晚验一人，可验得此人身份（受暗侠、光侠特权的影响，详见1.2、1.6、1.9），允许放弃。",
    skills=(Skill(
        name="验人", does=("check",), alias="check", phases=("night",), step="check", group="赤侠",
        args={"reflect": "龙侠反弹时被反弹的成员（未明确指定则反弹发送者）"},
        arg_values={"reflect": ("", "{group:赤侠}")}, rule="每晚验一人，可验得此人身份", effect=check,
    ),),
)


@hookimpl
def bansha_roles():
    return [RED]


@hookimpl
def bansha_step_handlers():
    return {"qisha-xia.check-failed": check_failed}
