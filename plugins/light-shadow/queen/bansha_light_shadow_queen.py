"""皇后 — 光影传说 v1.3.

> 皇后1名：该职业玩家没有任何询问的机会。但是她每天可以对任意一名其他玩家使用一次“真视”技能。
> 上帝将直接告诉皇后对象玩家的职业，但不告知国家。对于猎人，皇后只能知道其伪装后的职业属性。
> （1.3版本：皇后例2删掉该例子——上帝回答“是”时不会再告知谁是皇后。）

(No question: refused by light-shadow.rules.) Reads ``res.data["protected"]`` and
``res.data["disrupted"]`` from the mage web (docs/rulings/light-shadow.md §5, §6).
"""

from bansha import Fact, Role, Skill, hookimpl

# the quoted rule above, as one line for `bansha role show`
RULE = "".join(line.lstrip("> ") for line in __doc__.split("\n\n")[1].splitlines())


def truesight(res, a):
    target = res.game.player(a.targets[0])
    if a.actor in res.data.get("disrupted", ()) or target.name in res.data.get("protected", ()):
        res.feedback(a.actor, f"真视{target.name}：不告诉你。")
        return
    # the profession only: never a nation, never a mage number
    role = res.game.surface(target)["role"]
    res.feedback(a.actor, f"{target.name}是{role}。", Fact(player=target.name, what="role", value=role, by=a.skill))


QUEEN = Role(
    name="皇后", alias="queen", rule=RULE,
    skills=(Skill(name="真视", alias="truesight", phases=("day",), step="skills", effect=truesight, does=("check",),
                  rule="每天可以对任意一名其他玩家使用一次“真视”技能。上帝将直接告诉皇后对象玩家的职业，但不告知国家。"),),
)


@hookimpl
def bansha_roles():
    return [QUEEN]
