"""狼学者 — 新日暮里 (M217), 狼人阵营 ⑧.

> 13、狼学者[群内]⑧
> 诡辩[深夜][指定]——选择范围：猜测一个身份并选择任意一名角色。结算效果：若结算目标的[实际身份]与猜测的身份对应，
> 则结算目标永久获得[迷魂]状态，且目标若出局，发动者的票数永久+1，猜测错误则无效果。无论猜测结果如何，这个技能
> 不会通知发动者任何情况。

诡辩 resolves at night step (14) (深夜14b, before 狼巫). The players a right guess marked are kept
in ``player.data["诡辩"]`` of the scholar; when one of them leaves the game the scholar gains a
status ``诡辩`` with ``votes = 1`` (read by the rules plugin's vote weights), never told.
Readings: docs/rulings/m217.md (group wolves-b).
"""

from bansha import Role, Skill, Status, for_skills, hookimpl
from bansha_m217_helpers import give

KEY = "诡辩"


def sophistry(res, a):
    game = res.game
    for t in a.targets:
        # > 若结算目标的[实际身份]与猜测的身份对应，则结算目标永久获得[迷魂]状态…猜测错误则无效果。
        if game.player(t).role != a.args["role"]:
            res.trace(KEY, f"{t}不是{a.args['role']}：无效果")
            continue
        give(res, t, "迷魂", source=KEY)
        # > 且目标若出局，发动者的票数永久+1
        marks = game.player(a.actor).data.setdefault(KEY, [])
        if t not in marks:
            marks.append(t)
        # > 无论猜测结果如何，这个技能不会通知发动者任何情况。 (no feedback to a.actor)


SCHOLAR = Role(
    name="狼学者", alias="wolf-scholar", camp="狼人阵营", group="狼人", rule=__doc__,
    skills=(Skill(name=KEY, does=("harm",), alias="sophistry", phases=("night",), step="深夜14b", priority=90, may_target_self=True,
                  tags=("深夜", "指定"), effect=sophistry, args={"role": "所猜的身份（本版的一个身份）"},
                  arg_values={"role": "role"},
                  rule="诡辩[深夜][指定]——选择范围：猜测一个身份并选择任意一名角色。结算效果：若结算目标的[实际身份]"
                       "与猜测的身份对应，则结算目标永久获得[迷魂]状态，且目标若出局，发动者的票数永久+1，猜测错误则"
                       "无效果。无论猜测结果如何，这个技能不会通知发动者任何情况。"),),
)


@hookimpl
def bansha_roles():
    return [SCHOLAR]


@hookimpl
@for_skills(KEY)
def bansha_validate_action(game, action):
    # > 选择范围：猜测一个身份
    if action.skill == KEY and action.args.get("role") not in game.ruleset.roles:
        return "诡辩：须用 --arg role=… 猜测本版的一个身份"
    return None


@hookimpl
def bansha_on_death(res, player, kill):
    """> 且目标若出局，发动者的票数永久+1 — once per marked player, whether the scholar is in or out."""
    for p in res.game.players.values():
        if player.name in p.data.get(KEY, ()):
            p.data[KEY].remove(player.name)
            res.add_status(p.name, Status(name=KEY, told=False, source=KEY, data={"votes": 1}))
