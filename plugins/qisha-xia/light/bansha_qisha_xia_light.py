"""光侠 — 七杀·侠 1.6 (docs/rulings/qisha-xia.md R-L1…R-L3).

> 光侠（1人）拥有接收特权，每晚对一个人使用，可使得此人在当晚被其他人使用的特权作用于光侠自己而此人不受任何
> 影响……接收特权使用后无反馈，不得连续接收同一人，不得接收自己，允许放弃。
> 特殊情况：如果被当晚被接收的人被暗侠阻止，会被接收，相当于光侠被阻止……所以接收不再有效。

接收 itself has no effect function: it changes where other privileges land. The
``qisha-xia.receiver`` handler offers ``res.data["qisha-xia.receive"]`` to the handlers that
route the night (the blocks first — a received block blocks 光侠 and so voids the reception,
R-L2 — then every other privilege).
"""

from bansha import Role, Skill, for_skills, hookimpl

RECEIVE, RECEIVED, RECEPTION = "qisha-xia.receive", "qisha-xia.received", "qisha-xia.reception"

LIGHT = Role(
    name="光侠", alias="light", camp="光明",
    rule="光侠（1人）拥有接收特权，每晚对一个人使用……不得连续接收同一人，不得接收自己，允许放弃。",
    skills=(Skill(
        name="接收", does=("help",), alias="receive", phases=("night",), step="target", may_target_self=True,
        no_repeat_target=True, tags=("不得连续",),
        rule="可使得此人在当晚被其他人使用的特权作用于光侠自己而此人不受任何影响",
    ),),
)


def receiver(res):
    reception = next(iter(res.of("接收")), None)
    received = res.data.setdefault(RECEIVED, {})

    def receive(action, slot=0):
        # "被其他人使用的特权作用于光侠自己而此人不受任何影响"; void once 光侠 is blocked (R-L2),
        # except for the night's blocks: they are decided together with the reception, so a
        # block on the received player is received even as it voids the reception
        # ("如果被当晚被接收的人被暗侠阻止，会被接收，相当于光侠被阻止")
        if reception is None or action is reception or (reception.void and action.skill != "阻止"):
            return False
        if action.targets[slot] != reception.targets[0]:
            return False
        if action.actor == reception.targets[0]:
            # "被其他人使用的特权": a privilege the received player uses on himself (a 白侠's heal, a
            # received 银侠's learned heal) is his own, not another's: it stays on him
            return False
        targets = list(action.targets)
        targets[slot] = reception.actor
        res.redirect(action, targets, rule="1.6 接收")
        received[action.seq] = reception.targets[0]
        return True

    res.data[RECEIVE] = receive
    # (光侠, the received player) for deciding the night's blocks before anything is routed
    res.data[RECEPTION] = (reception.actor, reception.targets[0]) if reception and not reception.void else None


@hookimpl
def bansha_roles():
    return [LIGHT]


@hookimpl
def bansha_step_handlers():
    return {"qisha-xia.receiver": receiver}


@hookimpl
@for_skills("接收")
def bansha_validate_action(game, action):
    if action.skill == "接收" and action.targets == [action.actor]:
        return "不得接收自己。"
    return None
