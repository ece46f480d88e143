"""暗侠 — 七杀·侠 1.2 (docs/rulings/qisha-xia.md R-B1…R-B4).

> 暗侠（1人）每晚可阻止一人，此人当晚行使的特权无效，暗侠及被阻止的人均不会得到反馈（阻止到赤侠则赤侠得到
> “验人失败”的反馈）。如果被阻止是多人互知共同行使特权的，则阻止任何一人都有效。
> 阻止对己方阵营无效，不得连续阻止同一人，允许放弃。

阻止 is shared with the 青侠 the 暗侠 absorbs (group 暗侠). The ``qisha-xia.blocks`` handler
applies every block of the night — the 暗侠's first, then 银侠's learned one (R-B4) — before
any other privilege is routed: a block aimed at the 龙侠 is reflected onto the blocker, one
aimed at the player 光侠 receives lands on 光侠 (R-L2). It writes
``res.data["qisha-xia.blocked"]`` and ``res.data["qisha-xia.blocked-actions"]``.
"""

from bansha import Role, Skill, hookimpl

REFLECT, RECEIVE = "qisha-xia.reflect", "qisha-xia.receive"
BLOCKED, BLOCKED_ACTIONS = "qisha-xia.blocked", "qisha-xia.blocked-actions"

DARK = Role(
    name="暗侠", alias="dark", camp="黑暗", group="暗侠",
    rule="暗侠（1人）每晚可阻止一人，此人当晚行使的特权无效……阻止对己方阵营无效，不得连续阻止同一人，允许放弃。",
    skills=(Skill(
        name="阻止", alias="block", phases=("night",), step="target", group="暗侠",
        no_repeat_target=True, tags=("不得连续",), args={"reflect": "the member reflected by 龙侠"},
        rule="此人当晚行使的特权无效",
    ),),
)


def blocks(res):
    game = res.game
    blocked = res.data.setdefault(BLOCKED, set())
    voided = res.data.setdefault(BLOCKED_ACTIONS, set())
    reflect, receive = res.data[REFLECT], res.data[RECEIVE]
    first = game.option("block_order") == "暗侠-first"
    for a in sorted(res.of("阻止"), key=lambda a: (first and a.acquired, a.seq)):
        if a.void:
            continue
        reflect(a, 0) or receive(a, 0)
        target = game.player(a.targets[0])
        # "阻止对己方阵营无效" — the blocker's camp: 黑暗 for the 暗侠, 光明 for 银侠 (1.7)
        if target.camp == game.player(a.actor).camp:
            res.trace("1.2 阻止", f"{a.actor}'s block on {target.name} is useless (own camp)")
            continue
        blocked.add(target.name)
        # "如果被阻止是多人互知共同行使特权的，则阻止任何一人都有效"
        for other in res.actions:
            if other.void is None and (other.actor == target.name or (other.group and other.group in target.groups)):
                res.void(other, f"blocked by {a.actor}", rule="1.2 阻止")
                voided.add(other.seq)


@hookimpl
def bansha_roles():
    return [DARK]


@hookimpl
def bansha_step_handlers():
    return {"qisha-xia.blocks": blocks}
