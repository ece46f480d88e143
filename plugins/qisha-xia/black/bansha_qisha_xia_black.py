"""黑侠 — 七杀·侠 1.1 (docs/rulings/qisha-xia.md R-K1…R-K4).

> 黑侠（3人）也即杀手，互知，每晚共同杀人，可杀死任何人（包括暗侠、幻侠），但会被白侠救治。杀人允许放弃，
> 不得自杀，无须写杀帖。

杀人 is a group skill: one kill a night for the 黑侠 and the 青侠 they absorb, the last
submission counts (R-K1). 银侠 may learn it (1.7): then it is 银侠's own kill.
"""

from bansha import Role, Skill, hookimpl


def kill(res, a):
    # "可杀死任何人（包括暗侠、幻侠），但会被白侠救治" — the heal is qisha-xia.white's bansha_stop_kill
    res.kill(a.targets[0], kind="杀人", by=a.actor, action=a, rule="1.1 杀人")


BLACK = Role(
    name="黑侠", alias="black", camp="黑暗", group="黑侠",
    rule="黑侠（3人）也即杀手，互知，每晚共同杀人，可杀死任何人（包括暗侠、幻侠），但会被白侠救治。杀人允许放弃，不得自杀，无须写杀帖。",
    skills=(Skill(
        name="杀人", does=("harm",), alias="kill", phases=("night",), step="kill", group="黑侠", may_target_self=True,
        args={"reflect": "龙侠反弹杀人时被反弹的黑侠（未明确指定则反弹发送者）"},
        arg_values={"reflect": ("", "{group:黑侠}")},
        rule="每晚共同杀人", effect=kill,
    ),),
)


@hookimpl
def bansha_roles():
    return [BLACK]


@hookimpl
def bansha_validate_targets(game, player, skill, acquired, targets):
    if skill.name != "杀人" or not (skill.group == "黑侠" or acquired):
        return None
    target = targets[0]
    if target == player.name:
        return "不得自杀。"
    # R-K2: the kill is the group's, so "自" is the group (house option kill_teammate_allowed)
    if skill.group and not game.option("kill_teammate_allowed") and skill.group in game.player(target).groups:
        return f"不得自杀：{target}与你同为黑侠。"
    return None
