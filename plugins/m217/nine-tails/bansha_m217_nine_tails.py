"""九尾狐 — 新日暮里 (M217), 强神 ⑥.

> 九尾[强制]——[常驻]：九尾狐获得[不死]。
> [触发]：获得本技能时，获得5根尾巴，每有任何一名[实际阵营]为[村民阵营]的角色宣布出局时，九尾狐会立刻收到通知
> 损失一根尾巴。
> [触发]：当尾巴为0或负数时，九尾狐会获得[遗忘]且立刻受到[致死伤害]
"""

from bansha import Role, Skill, Status, for_skills, hookimpl
from bansha_m217_helpers import VILLAGE, forced_on, gained_by, give, holders

NINE_TAILS = Role(
    name="九尾狐", alias="nine-tails", camp="村民阵营", rule=__doc__,
    skills=(Skill(name="九尾", alias="nine-tails", targets=0, tags=("强制",),
                  rule="九尾[强制]——[常驻]：获得[不死]；5根尾巴，每有村民阵营角色出局损失一根；尾巴为0或负数时获得[遗忘]且立刻受到[致死伤害]。"),),
)


@hookimpl
def bansha_roles():
    return [NINE_TAILS]


def standing(game, p):
    """Handler ``m217.standing.九尾`` (whoever holds the skill: "九尾狐" is its holder):
    > [常驻]：九尾狐获得[不死]。 / [触发]：获得本技能时，获得5根尾巴"""
    p.data["九尾.tails"] = 5
    return [Status(name="不死", source="九尾")]


@hookimpl
@for_skills("九尾")  # called only in a game where a player holds it
def bansha_on_death(res, player, kill):
    if player.camp != VILLAGE:
        return
    for fox in holders(res.game, "九尾"):
        # an heir who gained 九尾 by this very exit (影子's host, 复仇者's 仇人) does not lose a tail for it
        if not forced_on(res.game, fox, "九尾") or gained_by(res, fox, "九尾"):
            continue
        # > 每有任何一名[实际阵营]为[村民阵营]的角色宣布出局时，九尾狐会立刻收到通知损失一根尾巴。
        fox.data["九尾.tails"] -= 1
        res.feedback(fox.name, f"{player.name}出局，你损失了一根尾巴，剩余{fox.data['九尾.tails']}根。")
        if fox.data["九尾.tails"] <= 0:
            # > 当尾巴为0或负数时，九尾狐会获得[遗忘]且立刻受到[致死伤害]
            give(res, fox.name, "遗忘", source="九尾")
            res.kill(fox.name, kind="致死伤害", by=fox.name, rule="九尾")


def refresh(res, player):
    """刷新至初始 (圣水, 影子's inheritance, 雪恨): > 获得本技能时，获得5根尾巴 — the tails are the skill's
    initial state."""
    player.data["九尾.tails"] = 5
    res.trace("九尾", f"{player.name}的尾巴刷新为5条")


@hookimpl
def bansha_step_handlers():
    return {"m217.refresh.九尾": refresh, "m217.standing.九尾": standing}


@hookimpl
def bansha_player_view(game, player):
    if player.data.get("九尾.tails") is not None and "九尾" in game.skills_of(player):
        return {"尾巴": player.data.get("九尾.tails")}
    return None
