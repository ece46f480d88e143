"""平民 (citizen) — mafia-basic, the textbook mafia game.

> 平民没有技能：白天参与投票。
"""

from bansha import Role, hookimpl

RULE = "".join(line.lstrip("> ") for line in __doc__.split("\n\n")[1].splitlines())

CITIZEN = Role(name="平民", alias="citizen", camp="市民", rule=RULE)


@hookimpl
def bansha_roles():
    return [CITIZEN]
