"""暗侠 — 七杀·侠 1.2 (docs/rulings/qisha-xia.md R-B1…R-B4).

> 暗侠（1人）每晚可阻止一人，此人当晚行使的特权无效，暗侠及被阻止的人均不会得到反馈（阻止到赤侠则赤侠得到
> “验人失败”的反馈）。如果被阻止是多人互知共同行使特权的，则阻止任何一人都有效。
> 阻止对己方阵营无效，不得连续阻止同一人，允许放弃。

阻止 is shared with the 青侠 the 暗侠 absorbs (group 暗侠). The ``qisha-xia.blocks`` handler
decides every block of the night together (the 暗侠's and 银侠's learned one, R-B4) before any
privilege is routed: a block on a blocker voids that blocker's block whatever the order; a
block aimed at the 龙侠 lands on the blocker if a charge is left at its turn in submission
order, one aimed at the player 光侠 receives lands on 光侠 (R-L2). The routing itself is
qisha-xia.route's, blocks included. It writes ``res.data["qisha-xia.blocked"]`` and
``res.data["qisha-xia.blocked-actions"]``.
"""

from bansha import Role, Skill, hookimpl
from bansha_qisha_xia_cards import blocks  # the board's 阻止 card: homebrew roles share it

DARK = Role(
    name="暗侠", alias="dark", camp="黑暗", group="暗侠",
    rule="暗侠（1人）每晚可阻止一人，此人当晚行使的特权无效……阻止对己方阵营无效，不得连续阻止同一人，允许放弃。",
    skills=(Skill(
        name="阻止", does=("harm",), alias="block", phases=("night",), step="target", group="暗侠",
        no_repeat_target=True, tags=("不得连续",), args={"reflect": "龙侠反弹时被反弹的成员（未明确指定则反弹发送者）"},
        arg_values={"reflect": ("", "{group:暗侠}")},
        rule="此人当晚行使的特权无效",
    ),),
)


@hookimpl
def bansha_roles():
    return [DARK]


@hookimpl
def bansha_step_handlers():
    return {"qisha-xia.blocks": blocks}
