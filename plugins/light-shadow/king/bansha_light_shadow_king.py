"""国王 — 光影传说 v1.3.

> 国王1名：该职业玩家没有任何询问的机会。但是他每天可以对任意一名其他玩家使用一次“辨别”技能。
> 上帝将直接回馈国王技能对象玩家所属的国家。但是，对于猎人，国王只能知道其伪装后的国家属性。

(No question: refused by light-shadow.rules.) Reads ``res.data["protected"]`` and
``res.data["disrupted"]`` from the mage web (docs/rulings/light-shadow.md §5, §6).
"""

from bansha import Fact, Role, Skill, hookimpl

# the quoted rule above, as one line for `bansha role show`
RULE = "".join(line.lstrip("> ") for line in __doc__.split("\n\n")[1].splitlines())


def discern(res, a):
    target = res.game.player(a.targets[0])
    if a.actor in res.data.get("disrupted", ()) or target.name in res.data.get("protected", ()):
        res.feedback(a.actor, f"辨别{target.name}：不告诉你。")
        return
    # "对于猎人，国王只能知道其伪装后的国家属性": checks read the surface identity
    camp = res.game.surface(target)["camp"]
    res.feedback(a.actor, f"{target.name}是{camp}的。", Fact(player=target.name, what="camp", value=camp, by=a.skill))


KING = Role(
    name="国王", alias="king", rule=RULE,
    skills=(Skill(name="辨别", alias="discern", phases=("day",), step="skills", effect=discern, does=("check",),
                  rule="每天可以对任意一名其他玩家使用一次“辨别”技能。上帝将直接回馈国王技能对象玩家所属的国家。"),),
)


@hookimpl
def bansha_roles():
    return [KING]
