"""铁匠 and 暴徒 — an example of a role package written outside the bansha repository.

> 铁匠：每晚可为一名其他玩家打造盔甲，盔甲抵挡当晚的一次杀人。
> 暴徒：每晚可杀一人。
"""

from bansha import Role, Skill, Status, hookimpl


def forge(res, action):
    # the armour lasts until the end of this night and is spent by the first kill it stops
    res.add_status(action.targets[0], Status(name="盔甲", until=res.label, count=1, told=False, source="铁匠"))


def strike(res, action):
    res.kill(action.targets[0], kind="杀人", by=action.actor, action=action, rule="暴徒")


@hookimpl
def bansha_roles():
    return [
        Role(name="铁匠", alias="smith", camp="村民", rule=__doc__.splitlines()[2],
             skills=(Skill(name="打造", alias="forge", phases=("night",), step="protect", effect=forge),)),
        Role(name="暴徒", alias="thug", camp="暴徒", rule=__doc__.splitlines()[3],
             skills=(Skill(name="杀人", alias="kill", phases=("night",), step="kill", effect=strike),)),
        Role(name="村民", alias="villager", camp="村民"),
    ]


@hookimpl
def bansha_stop_kill(res, kill):
    armour = res.game.player(kill.target).status("盔甲")
    if armour is not None and armour.count:
        armour.count -= 1
        return "盔甲 stops the kill"
    return None
