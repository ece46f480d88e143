"""平民 (citizen) — mafia-basic, the textbook mafia game.

> A citizen has no skill: they vote by day.
"""

from bansha import Role, hookimpl

RULE = "".join(line.lstrip("> ") for line in __doc__.split("\n\n")[1].splitlines())

CITIZEN = Role(name="平民", alias="citizen", camp="市民", rule=RULE)


@hookimpl
def bansha_roles():
    return [CITIZEN]
