"""骑士 — 光影传说 v1.3.

> 骑士1名：该职业玩家每天可以“追击”一次某一名玩家（可以是他自己）。上帝将会在每天的公告中公布被
> “追击”对象当天使用技能的对象。对于猎人，骑士只能公告其虚拟的技能对象。
> 案例1：骑士A“追击”玩家B。此时若：玩家B被己方法师保护，那么公告将不描述骑士A的行为效果。
> 玩家B被对方法师干扰，那么公告将描述：“玩家B今天什么都没干。” 骑士A被对方法师干扰，那么公告将不描述
> 骑士A的行为效果。玩家B当日确实没有使用技能，那么公告将描述：“玩家B今天什么都没干。”
> 玩家B对玩家C使用了技能，但是玩家C被保护，那么公告还是将描述：“玩家B对玩家C使用了技能。”

Reads ``res.data["protected"]`` and ``res.data["disrupted"]`` from the mage web
(docs/rulings/light-shadow.md §9). The knight gets no private line.
"""

from bansha import Role, Skill, hookimpl

# the quoted rule above, as one line for `bansha role show`
RULE = "".join(line.lstrip("> ") for line in __doc__.split("\n\n")[1].splitlines())


def object_of(game, b):
    """What a skill was used on: its chosen player (a hunter's virtual target), or, for a
    skill without a target (窥探), the spied profession of the enemy nation."""
    if b.chosen:
        return b.chosen[0]
    mine = game.player(b.actor).camp
    nation = next(c.name for c in game.manifest.camps if c.name != mine)
    return f"{nation}的{b.args.get('role', '')}{b.args.get('number') or ''}"


def pursue(res, a):
    g, knight, target = res.game, a.actor, a.targets[0]
    if knight in res.data.get("disrupted", ()):
        res.trace("骑士.追击", f"骑士{knight}被对方法师干扰：公告将不描述骑士{knight}的行为效果")
        return
    if target != knight and target in res.data.get("protected", ()):
        res.trace("骑士.追击", f"{target}被己方法师保护：公告将不描述骑士{knight}的行为效果")
        return
    own = {s.name for s in g.ruleset.role(g.player(target).role).skills}  # skills, not 询问/猜测
    used = [b for b in res.by(target) if b.skill in own]
    if target in res.data.get("disrupted", ()) or not used:
        res.announce(f"{target}今天什么都没干。")
    else:
        res.announce(f"{target}对{object_of(g, used[0])}使用了技能。")


KNIGHT = Role(
    name="骑士", alias="knight", rule=RULE,
    skills=(Skill(name="追击", alias="pursue", phases=("day",), step="pursuit", may_target_self=True,
                  effect=pursue, does=("check",), rule="每天可以“追击”一次某一名玩家（可以是他自己）。"),),
)


@hookimpl
def bansha_roles():
    return [KNIGHT]
