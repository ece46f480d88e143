"""龙侠 — 七杀·侠 1.8 (docs/rulings/qisha-xia.md R-D1…R-D5).

> 龙侠（1人）拥有弹射特权，被动使用。如果白侠救治龙侠，相当于龙侠救治了白侠，而龙侠没有被救治；赤侠验证龙侠，
> 相当于龙侠验证赤侠从而龙侠得到赤侠身份，而赤侠得到“验人失败”的反馈；黑侠杀龙侠，则黑侠出局，龙侠不受影响；
> 暗侠阻止龙侠，则暗侠相当于阻止了自己；幻侠对龙侠使用幻觉，相当于龙侠对幻侠使用幻觉（如果使用的是幻觉一，
> 则另一个被作用的对象不变）……
> 光侠的吸收不会被反弹，且当龙侠被吸收时，反弹优先产生作用，当反弹没有效果时，吸收产生作用。
> 反弹只能反弹一个人，如果是多人互知、共同行使特权的……只会反弹一人（可以在行使特权时指定，未明确指定则反弹
> 发送行使特权站内消息的人）。
> 龙侠的反弹只有3次效果，3次反弹后将不再有效，同一晚的多次反弹会计为多次，按发送行使特权的先后顺序起作用。
> 龙侠的反弹产生效果时不会得到反馈，龙侠自然也不会知道自己拥有反弹的次数。

A reflection turns the privilege back onto one member of the acting side: the action's target
becomes that member (a heal heals the healer, a kill kills the killer, a block blocks the
blocker, 幻觉 lands on the 幻侠) and ``res.data["qisha-xia.reflected"]`` records it, so that
验人 (qisha-xia.red) answers the 龙侠 instead and 幻觉一 (qisha-xia.illusion) follows the 龙侠's
vote. The charges live in the 龙侠's ``player.data`` and are never shown to anyone.
"""

from bansha import Role, hookimpl

CHARGES = "qisha-xia.charges"
REFLECT, REFLECTED, PLAN = "qisha-xia.reflect", "qisha-xia.reflected", "qisha-xia.reflect-plan"

DRAGON = Role(name="龙侠", alias="dragon", camp="光明", rule="龙侠（1人）拥有弹射特权，被动使用。")


def reflector(res):
    """Offer the reflection to the handlers that route the night's privileges (blocks, route):
    ``qisha-xia.reflect`` reflects one slot now; ``qisha-xia.reflect-plan`` says, without
    spending anything, which slots of a list of privileges (in submission order) would be
    reflected, so that the night's blocks can be decided before anything is routed."""
    game = res.game
    dragon = next((p for p in game.alive() if p.role == DRAGON.name), None)
    reflected = res.data.setdefault(REFLECTED, {})

    def member(action):
        # "只会反弹一人（可以在行使特权时指定，未明确指定则反弹发送行使特权站内消息的人）" (R-D3)
        group = [p.name for p in game.alive() if action.group and action.group in p.groups]
        named = action.args.get("reflect")
        return named if named in group else action.actor

    def reflect(action, slot=0):
        if dragon is None or action.targets[slot] != dragon.name or action.seq in reflected:
            return False
        # "龙侠的反弹只有3次效果，3次反弹后将不再有效"
        if dragon.data[CHARGES] <= 0:
            return False
        dragon.data[CHARGES] -= 1
        targets = list(action.targets)
        targets[slot] = member(action)
        res.redirect(action, targets, rule="1.8 反弹")
        reflected[action.seq] = targets[slot]
        return True

    def plan(actions):
        # "同一晚的多次反弹会计为多次，按发送行使特权的先后顺序起作用"
        left = dragon.data[CHARGES] if dragon is not None else 0
        out = {}
        for a in sorted(actions, key=lambda a: a.seq):
            for slot, t in enumerate(a.targets):
                if dragon is not None and t == dragon.name and left > 0 and a.seq not in {s for s, _ in out}:
                    left -= 1
                    out[(a.seq, slot)] = member(a)
        return out

    res.data[REFLECT] = reflect
    res.data[PLAN] = plan


@hookimpl
def bansha_roles():
    return [DRAGON]


@hookimpl
def bansha_step_handlers():
    return {"qisha-xia.reflector": reflector}


@hookimpl
def bansha_setup_game(game):
    for p in game.players.values():
        if p.role == DRAGON.name:
            p.data[CHARGES] = 3
