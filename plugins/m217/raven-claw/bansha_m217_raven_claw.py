"""狼鸦之爪 — 新日暮里 (M217), 狼人阵营 ⑧.

> 15、狼鸦之爪⑧
> 身份属性（不是技能）：开局阶段结束后，若狼鸦之爪属于狼人阵营，所有[群内]狼都知晓狼鸦之爪是谁。
> 夜之锋刃[强制][指定][早夜][限定]——选择范围：若狼人阵营存活人数为2及以下，选择任意一名角色。
> 结算效果：发动者获得[群内]标签，结算目标获得[漏洞]并承担[致死伤害]。

Readings (docs/rulings/m217.md, group wolves-a): not [群内] at first. When 开局 ends (the first
黄昏 begins), if its actual camp is 狼人阵营, every [群内] wolf is told "狼鸦之爪是X。" (and sees it in
``bansha status --as``); the 狼鸦之爪 is told nothing of them. "狼人阵营存活人数" counts the players
in the game whose actual camp is 狼人阵营, the 狼鸦之爪 included; 夜之锋刃 is offered and accepted only
while it is 2 or fewer. [强制]: 沉默 does not stop it; the engine cannot choose for the player (the
director has the target sent). It resolves at (3) (早夜3); its 致死伤害 lands at (20) in the place
夜之锋刃 has there. [漏洞] is not defined by the document: a permanent status told to the holder,
with no effect of its own.
"""

from bansha import Role, Skill, hookimpl
from bansha_m217_helpers import WOLF, forgotten, give, has, hit
from bansha_m217_rules import settle

ME = "狼鸦之爪"
BLADE = "夜之锋刃"
GROUP = "狼人"


def wolves_alive(game) -> int:
    return sum(1 for p in game.alive() if p.camp == WOLF)


def blade(res, a):
    game = res.game
    me = game.player(a.actor)
    # > 发动者获得[群内]标签 (> [超度]：…会丢失且无法获得[群内]或[接刀]标签)
    if GROUP not in me.groups and not has(me, "超度"):
        pack = [p.name for p in game.alive() if GROUP in p.groups]
        me.groups.append(GROUP)
        res.feedback(a.actor, "夜之锋刃：你获得了[群内]标签。")
        for name in pack:
            res.feedback(name, f"狼鸦之爪{a.actor}获得了[群内]标签。")
    # > 结算目标获得[漏洞]并承担[致死伤害]。
    if settle(res, a):
        t = a.targets[0]
        give(res, t, "漏洞", source=BLADE, told=True)
        hit(res, a, t, "致死伤害")


RAVEN_CLAW = Role(
    name=ME, alias="raven-claw", camp="狼人阵营", rule=__doc__,
    skills=(Skill(name=BLADE, does=("harm",), alias="night-blade", phases=("night",), step="早夜3", priority=10, uses=1,
                  may_target_self=True, tags=("强制", "指定", "早夜", "限定"), effect=blade,
                  rule="夜之锋刃[强制][指定][早夜][限定]——选择范围：若狼人阵营存活人数为2及以下，选择任意一名角色。"
                       "结算效果：发动者获得[群内]标签，结算目标获得[漏洞]并承担[致死伤害]。"),),
)


@hookimpl
def bansha_roles():
    return [RAVEN_CLAW]


@hookimpl
def bansha_skill_unavailable(game, player, skill):
    # > 选择范围：若狼人阵营存活人数为2及以下
    if skill.name != BLADE:
        return None
    if forgotten(player):
        # > [遗忘]：…该状态下失去所有[强制]技能
        return f"{BLADE}是[强制]技能：在[遗忘]下失效"
    if wolves_alive(game) > 2:
        return f"{BLADE}：若狼人阵营存活人数为2及以下（目前多于2人）"
    return None


def known(game) -> list[str]:
    return game.data.get("m217.狼鸦之爪", [])


@hookimpl
def bansha_phase_started(game):
    """> 身份属性（不是技能）：开局阶段结束后，若狼鸦之爪属于狼人阵营，所有[群内]狼都知晓狼鸦之爪是谁。"""
    if game.phase.name != game.cycle[0].name or game.day != game.manifest.first_day:
        return
    claws = [p.name for p in sorted(game.players.values(), key=lambda p: p.seat) if p.role == ME and p.camp == WOLF]
    if not claws:
        return
    game.data["m217.狼鸦之爪"] = claws
    for p in game.players.values():
        if GROUP in p.groups and p.role != ME:
            game.feedback[p.name].append((game.label, f"狼鸦之爪是{'、'.join(claws)}。"))


@hookimpl
def bansha_player_view(game, player):
    if known(game) and GROUP in player.groups and player.name not in known(game):
        return {ME: "、".join(known(game))}
    return None
