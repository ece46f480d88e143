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

PLAN, RECEPTION = "qisha-xia.reflect-plan", "qisha-xia.reception"
BLOCKED, BLOCKED_ACTIONS = "qisha-xia.blocked", "qisha-xia.blocked-actions"

DARK = Role(
    name="暗侠", alias="dark", camp="黑暗", group="暗侠",
    rule="暗侠（1人）每晚可阻止一人，此人当晚行使的特权无效……阻止对己方阵营无效，不得连续阻止同一人，允许放弃。",
    skills=(Skill(
        name="阻止", does=("harm",), alias="block", phases=("night",), step="target", group="暗侠",
        no_repeat_target=True, tags=("不得连续",), args={"reflect": "龙侠反弹时被反弹的成员（未明确指定则反弹发送者）"},
        rule="此人当晚行使的特权无效",
    ),),
)


def _landings(res, blocks, voided):
    """Where each block lands (R-D1, R-L2): reflected onto the blocker if the 龙侠 has a charge
    left at its turn (privileges voided by a block spend none), else on 光侠 if it aims at the
    received player, else on its target."""
    live = [a for a in res.actions if a.void is None and a.seq not in voided and a.skill != "接收"]
    plan = res.data[PLAN](live)
    reception = res.data[RECEPTION]
    out = {}
    for b in blocks:
        t = b.targets[0]
        if (b.seq, 0) in plan:
            t = plan[(b.seq, 0)]
        elif reception and t == reception[1]:
            t = reception[0]
        out[b.seq] = t
    return out


def _decide(res, blocks, landing):
    """"此人当晚行使的特权无效" — the night's blocks decided together: a block stands unless a
    standing block lands on its sender (or on a member of its group, R-B2); the blocks nobody
    blocks stand first. A cycle of blocks (暗侠 and 银侠 blocking each other) is broken by
    ``block_order`` (R-B4): the first block in that order stands. Returns the standing effective
    blocks ({seq: the player it lands on})."""
    game = res.game
    first = game.option("block_order") == "暗侠-first"
    order = sorted(blocks, key=lambda a: (first and a.acquired, a.seq))
    # "阻止对己方阵营无效" — the blocker's camp: 黑暗 for the 暗侠, 光明 for 银侠 (1.7)
    effective = {b.seq: landing[b.seq] for b in blocks
                 if game.player(landing[b.seq]).camp != game.player(b.actor).camp}

    def hits(b, c):
        t = effective.get(b.seq)
        return t is not None and b is not c and hits_player(game, t, c)

    attackers = {c.seq: [b for b in blocks if hits(b, c)] for c in blocks}
    stand, fall = set(), set()
    undecided = list(order)
    while undecided:
        for c in undecided:
            if any(b.seq in stand for b in attackers[c.seq]):
                fall.add(c.seq)
                break
            if all(b.seq in fall for b in attackers[c.seq]):
                stand.add(c.seq)
                break
        else:
            # every undecided block is blocked by an undecided one: the first on a cycle stands
            c = next((c for c in undecided if _on_cycle(c, attackers, undecided)), undecided[0])
            res.trace("1.2 阻止", f"阻止相互作用：{c.actor}的阻止有效（房规 block_order）")
            stand.add(c.seq)
        undecided = [b for b in undecided if b.seq not in stand | fall]
    return {seq: t for seq, t in effective.items() if seq in stand}


def _on_cycle(c, attackers, undecided) -> bool:
    """Whether block ``c`` is blocked, through undecided blocks, by itself."""
    seen, todo = set(), [b for b in attackers[c.seq] if b in undecided]
    while todo:
        b = todo.pop()
        if b is c:
            return True
        if b.seq not in seen:
            seen.add(b.seq)
            todo.extend(x for x in attackers[b.seq] if x in undecided)
    return False


def hits_player(game, name, action):
    """"如果被阻止是多人互知共同行使特权的，则阻止任何一人都有效": a block on ``name`` voids
    ``action`` if ``name`` sent it or belongs to its group."""
    target = game.player(name)
    return action.actor == name or bool(action.group and action.group in target.groups)


def blocks(res):
    """Decide the night's blocks together, before anything is routed (docs/rulings R-B4, R-D1):
    which blocks stand depends on the blocks on their senders, whatever the submission order;
    the routing (qisha-xia.route) then reflects and receives every privilege left, the blocks
    among them, in submission order."""
    game = res.game
    blocked = res.data.setdefault(BLOCKED, set())
    voided = res.data.setdefault(BLOCKED_ACTIONS, set())
    mine = [a for a in res.of("阻止") if a.void is None]
    standing, landing = {}, _landings(res, mine, set())
    for _ in range(len(mine) + 1):
        # where a block lands depends on the 龙侠's charges, which depend on what is blocked
        standing = _decide(res, mine, landing)
        hit = {a.seq for a in res.actions for t in standing.values() if hits_player(game, t, a)}
        again = _landings(res, mine, hit)
        if again == landing:
            break
        landing = again
    for seq, t in standing.items():
        b = next(a for a in mine if a.seq == seq)
        blocked.add(t)
        for other in res.actions:
            if other.void is None and hits_player(game, t, other):
                res.void(other, f"被{b.actor}阻止，当晚行使的特权无效", rule="1.2 阻止")
                voided.add(other.seq)
    for b in mine:
        t = landing[b.seq]
        if b.seq not in standing and b.void is None and game.player(t).camp == game.player(b.actor).camp:
            res.trace("1.2 阻止", f"{b.actor}对{t}的阻止无效：阻止对己方阵营无效")


@hookimpl
def bansha_roles():
    return [DARK]


@hookimpl
def bansha_step_handlers():
    return {"qisha-xia.blocks": blocks}
