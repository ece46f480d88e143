"""白侠 — 七杀·侠 1.4 (docs/rulings/qisha-xia.md R-C1, R-K4).

> 白侠（1人）也即医生，每晚救治一人，此人当晚不会被杀死，不得连续救治同一人，允许救自己，允许放弃，无反馈。

救治 is shared with the 青侠 the 白侠 absorbs (group 白侠); 银侠 may learn it (1.7).
"""

from bansha import Role, Skill, hookimpl
from bansha_qisha_xia_cards import heal as heal_one
from bansha_qisha_xia_cards import healed


def heal(res, a):
    # "此人当晚不会被杀死……无反馈" (the board's 救治, shared with homebrew roles' card)
    heal_one(res, a.targets[0])


WHITE = Role(
    name="白侠", alias="white", camp="光明", group="白侠",
    rule="白侠（1人）也即医生，每晚救治一人，此人当晚不会被杀死，不得连续救治同一人，允许救自己，允许放弃，无反馈。",
    skills=(Skill(
        name="救治", does=("help",), alias="heal", phases=("night",), step="heal", group="白侠", may_target_self=True,
        no_repeat_target=True, tags=("不得连续",), args={"reflect": "龙侠反弹时被反弹的成员（未明确指定则反弹发送者）"},
        arg_values={"reflect": ("", "{group:白侠}")},
        rule="每晚救治一人，此人当晚不会被杀死", effect=heal,
    ),),
)


@hookimpl
def bansha_roles():
    return [WHITE]


@hookimpl
def bansha_stop_kill(res, kill):
    # R-K4: a reflected kill is healable unless the house rule says otherwise
    return healed(res, kill)
