"""黑手党 (mafioso) — mafia-basic, the textbook mafia game.

> 黑手党彼此知道身份。夜晚，黑手党共同杀死一名不是黑手党的玩家。

(The target's range — not a mafioso — is checked by mafia-basic.rules.)
"""

from bansha import Role, Skill, hookimpl

RULE = "".join(line.lstrip("> ") for line in __doc__.split("\n\n")[1].splitlines())


def kill(res, a):
    res.kill(a.targets[0], kind="杀人", by=a.actor, action=a, rule="杀人")


MAFIOSO = Role(
    name="黑手党", alias="mafioso", camp="黑手党", group="黑手党", rule=RULE,
    skills=(Skill(name="杀人", alias="kill", phases=("night",), step="kill", effect=kill, group="黑手党",
                  does=("harm",), rule="夜晚，黑手党共同杀死一名不是黑手党的玩家。"),),
)


@hookimpl
def bansha_roles():
    return [MAFIOSO]
