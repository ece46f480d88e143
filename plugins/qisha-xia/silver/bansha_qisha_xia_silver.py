"""银侠 — 七杀·侠 1.7 (docs/rulings/qisha-xia.md R-S1…R-S3).

> 银侠（1人）拥有模仿特权，被动生效——如果白侠救治银侠，银侠学会救治可以在下一个夜晚救治一人；如果赤侠验证
> 银侠，银侠学会验人可以在下一个夜晚验一个人；如果暗侠阻止银侠，银侠学会阻止可以在下一个夜晚阻止一人；如果
> 黑侠杀到银侠（但未出局，比如同时被救治），银侠学会杀人可以在下一个夜晚杀一个人——模仿对其他特权无效，模仿
> 到的特权仅可以在下一个夜晚使用，允许放弃，如果模仿到多个特权，只能选其一使用。注意，银侠学会的杀人、阻止、
> 验人、救治，作用于青侠时不会产生吸收青侠的效果，仅产生该特权的效果……如果银侠学到阻止，则该阻止特权对银侠
> 所在的光明方（而不是暗侠所在的黑暗方）无效，对黑暗方和独立的青侠有效。

A learned privilege is put in ``player.acquired`` (skill → the role it comes from), so 银侠
uses it under its own name and it resolves after the real role's; an acquired skill is 银侠's
own, never the group's. The ``qisha-xia.learn`` handler runs at dawn: it drops last night's
privileges and teaches the ones that took effect on 银侠 this night.
"""

from bansha import Role, hookimpl

LEARNED, BLOCKED = "qisha-xia.learned", "qisha-xia.blocked"
#: "模仿对其他特权无效": the four privileges 银侠 can learn, and the role each comes from
LEARNABLE = {"救治": "白侠", "验人": "赤侠", "阻止": "暗侠", "杀人": "黑侠"}
NO_MIMIC = "银侠没有可用的模仿特权：模仿到的特权仅可以在下一个夜晚使用。"

SILVER = Role(name="银侠", alias="silver", camp="光明",
              rule="银侠（1人）拥有模仿特权，被动生效……模仿到的特权仅可以在下一个夜晚使用，允许放弃，如果模仿到多个特权，只能选其一使用。")


def learn(res):
    for silver in (p for p in res.game.players.values() if p.role == SILVER.name):
        # "模仿到的特权仅可以在下一个夜晚使用"
        for skill in silver.data.pop(LEARNED, []):
            silver.acquired.pop(skill, None)
        if not silver.alive:
            continue
        # R-S1: what took effect on 银侠, after blocks, reflections and reception; a kill it survived
        took = {a.skill for a in res.actions if a.void is None and silver.name in a.targets and a.skill != "阻止"}
        if silver.name in res.data.get(BLOCKED, ()):  # a block that worked on 银侠 (R-B1)
            took.add("阻止")
        learned = [skill for skill in LEARNABLE if skill in took]
        for skill in learned:
            silver.acquired[skill] = LEARNABLE[skill]
            res.feedback(silver.name, f"你学会了{skill}。")
        silver.data[LEARNED] = learned


@hookimpl
def bansha_roles():
    return [SILVER]


@hookimpl
def bansha_step_handlers():
    return {"qisha-xia.learn": learn}


@hookimpl
def bansha_unknown_skill(game, player, skill):
    return NO_MIMIC if player.role == SILVER.name else None


@hookimpl
def bansha_validate_action(game, action):
    # "如果模仿到多个特权，只能选其一使用"
    if action.acquired and game.player(action.actor).role == SILVER.name:
        if any(a.actor == action.actor and a.acquired for a in game.actions):
            return "模仿到多个特权，只能选其一使用。"
    return None


@hookimpl
def bansha_player_view(game, player):
    learned = player.data.get(LEARNED) if player.role == SILVER.name else None
    return {"模仿": "、".join(learned) + "（仅下一个夜晚）"} if learned else None
