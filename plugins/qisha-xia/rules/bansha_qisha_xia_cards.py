"""七杀·侠 (qisha-xia): the board's cards for homebrew roles (kernel/src/bansha/homebrew/homebrew.py).

``bansha_qisha_xia_rules`` gives them through ``bansha_cards``. They write and read the night's
shared results under the keys the rules document (``qisha-xia.healed`` …), so a homebrew
privilege is routed, reflected, received and blocked like the board's own.

| card | parameters | 七杀·侠 |
| --- | --- | --- |
| 救治 | — | 1.4 "此人当晚不会被杀死……无反馈" (a reflected kill is healable unless ``reflected_kill_healable`` is false) |
| 杀人 | — | 1.1 "可杀死任何人……但会被白侠救治" |
| 验人 | — | 1.5 "可验得此人身份": every member of the sender's group is told; a reflected check tells the 龙侠, a blocked one "验人失败" (the handler ``qisha-xia.check-failed``) |
| 阻止 | — | 1.2 "此人当晚行使的特权无效": every 阻止 of the night decided together (the handler ``qisha-xia.blocks``) |

验人 and 阻止 are 赤侠's and 暗侠's own code (their plugins import it): the handlers the manifest
names come with the card, so a board whose 赤侠 or 暗侠 is a homebrew role still has them.
"""

from __future__ import annotations

from bansha import Card, Fact, hookimpl

HEALED, REFLECTED = "qisha-xia.healed", "qisha-xia.reflected"
PLAN, RECEPTION = "qisha-xia.reflect-plan", "qisha-xia.reception"
BLOCKED, BLOCKED_ACTIONS = "qisha-xia.blocked", "qisha-xia.blocked-actions"
FAILED = "验人失败"


def heal(res, target: str) -> None:
    # > 此人当晚不会被杀死……无反馈
    res.data.setdefault(HEALED, set()).add(target)
    res.trace("1.4 救治", f"{target}被救治，当晚不会被杀死")


def healed(res, kill) -> str | None:
    """Whether ``kill`` is stopped by a heal of the night (白侠's 救治 or a homebrew one)."""
    if kill.target not in res.data.get(HEALED, ()):
        return None
    # R-K4: a reflected kill is healable unless the house rule says otherwise
    reflected = kill.action is not None and kill.action.seq in res.data.get(REFLECTED, {})
    if reflected and not res.game.option("reflected_kill_healable"):
        return None
    return "救治"


class _Heal:
    @hookimpl
    def bansha_stop_kill(self, res, kill):
        return healed(res, kill)


def kill(res, a, who, p):
    # > 可杀死任何人（包括暗侠、幻侠），但会被白侠救治
    res.kill(who, kind="杀人", by=a.actor, action=a, rule="1.1 杀人")


# ----------------------------------------------------------------- 1.5 验人 (赤侠's)


def checkers(game, a):
    return [p.name for p in game.alive() if a.group in p.groups] if a.group else [a.actor]


def check(res, a):
    game = res.game
    member = res.data.get(REFLECTED, {}).get(a.seq)
    if member is not None:
        # "相当于龙侠验证赤侠从而龙侠得到赤侠身份，而赤侠得到“验人失败”的反馈"
        seen = game.identity(game.player(member))
        res.feedback(a.chosen[0], f"{member}是{seen}。", Fact(player=member, what="role", value=seen, by=a.skill))
        for name in checkers(game, a):
            res.feedback(name, FAILED)
        return
    # a check received by 光侠 reads 光侠: "赤侠会得到“光侠”的身份反馈"
    seen = game.identity(game.player(a.targets[0]))
    for name in checkers(game, a):
        res.feedback(name, f"{a.chosen[0]}是{seen}。", Fact(player=a.chosen[0], what="role", value=seen, by=a.skill))


def check_failed(res):
    """"阻止到赤侠则赤侠得到“验人失败”的反馈" — a blocked check has no effect but this line."""
    for a in res.of("验人"):
        if a.seq in res.data.get(BLOCKED_ACTIONS, ()):
            for name in checkers(res.game, a):
                res.feedback(name, FAILED)



# ----------------------------------------------------------------- 1.2 阻止 (暗侠's)


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


CARDS = [
    Card("救治", lambda res, a, who, p: heal(res, who), text="当晚不会被杀死，无反馈", does=("help",), hooks=_Heal()),
    Card("杀人", kill, text="杀人（可被救治）", does=("harm",)),
    Card("验人", lambda res, a, who, p: check(res, a), text="验得身份，告知发送者的群", does=("check",), whole=True,
         handlers=lambda skill, p: {"qisha-xia.check-failed": check_failed}),
    Card("阻止", lambda res, a, who, p: None, text="此人当晚行使的特权无效（当晚所有阻止一并裁定）", does=("harm",),
         handlers=lambda skill, p: {"qisha-xia.blocks": blocks}),
]
