"""影子 — 新日暮里 (M217), 不定阵营 ②.

> 附身[开局]—— 游戏开始时，影子选择一名角色作为附身对象，并转入相同阵营，跟随该角色阵营变动，拥有和附身对象相同的获胜条件。当该角色出局时，获得该角色的全部技能，且继承得到的技能为初始状态。影子附身的角色若有[群内]或[接刀]标签，则目标角色出局后，影子也会获得这些标签并执行相应效果，[接刀]标签的接刀顺序与目标角色一致。

Modelled here (readings: docs/rulings/m217.md, group cupid):

- 附身 resolves at the opening step 开局, after 丘比特<丘比特之箭> (游戏流程 1's order); it is not [指定]
  (no targeting chain). The host's seat is ``player.data["m217.影子.host"]`` (a 替补 takes a seat over).
- The camp: the machinery's ``follow`` (``change_camp`` with its notice "你的阵营转变为xx阵营。", and every
  later change of the host's camp through the handler ``m217.follow.跟随``). The same win condition is
  the same camp.
- When the host leaves, the 影子 (if in the game) acquires every skill of the host's role card
  (``acquire``: counted uses 刷新至初始, a skill's own state through ``m217.refresh.<skill>``), never
  the host's temporary or acquired skills ("不会获得临时技能和二手技能"), and the host's [群内] (the group
  狼人) or [接刀] (its order, ``data["m217.接刀"]``) tag.
"""

from __future__ import annotations

from bansha import Role, Skill, hookimpl
from bansha_m217_helpers import acquire, follow, identity

GROUP = "狼人"  # the wolves' 群内 group (m217.wolf-pack)
HOST = "m217.影子.host"
SHADOW_SKILL = "附身"


def possess(res, a):
    """> 游戏开始时，影子选择一名角色作为附身对象，并转入相同阵营"""
    game = res.game
    host = game.player(a.targets[0])
    game.player(a.actor).data[HOST] = host.seat
    res.feedback(a.actor, f"附身：你附身了{host.name}。")
    # > 并转入相同阵营，跟随该角色阵营变动
    follow(res, a.actor, host.name, skill=SHADOW_SKILL)


SHADOW = Role(
    name="影子", alias="shadow", camp="不定阵营", rule=__doc__,
    skills=(
        Skill(name="附身", alias="possess", phases=("opening",), step="开局", priority=40, tags=("开局",),
              effect=possess,
              rule="附身[开局]—— 游戏开始时，影子选择一名角色作为附身对象，并转入相同阵营，跟随该角色阵营变动，"
                   "拥有和附身对象相同的获胜条件。当该角色出局时，获得该角色的全部技能，且继承得到的技能为初始状态。"),
    ),
)


def shadows_of(game, host) -> list:
    # whoever used 附身 on that seat (the host's seat is set by its effect only)
    return [p for p in game.players.values() if p.data.get(HOST) == host.seat]


@hookimpl
def bansha_roles():
    return [SHADOW]


@hookimpl
def bansha_on_death(res, player, kill):
    """> 当该角色出局时，获得该角色的全部技能，且继承得到的技能为初始状态。
    > 影子附身的角色若有[群内]或[接刀]标签，则目标角色出局后，影子也会获得这些标签并执行相应效果，
    > [接刀]标签的接刀顺序与目标角色一致。"""
    game = res.game
    for s in shadows_of(game, player):
        if not s.alive or s.data.get("m217.影子.inherited"):
            continue
        s.data["m217.影子.inherited"] = True
        # > 身份更换 … 4：获取技能的角色获取到该角色身份时，获取的是最后更换出来的身份技能 (a 双面人: the card on top)
        card = identity(game, player)
        role = game.ruleset.role(card) if card else None
        names = []
        for skill in role.skills if role else ():
            # "初始状态": ``acquire`` refreshes a skill with a state of its own (九尾's tails) and hands
            # out its standing statuses (九尾's 不死 …)
            # option shadow_opening: is "继承得到的技能为初始状态" a "刷新至初始" 条目 (an inherited [开局] skill
            # decided in the phase it is gained)? Default false: the sentence does not say 刷新至初始
            acquire(res, s.name, skill.name, role.name, refreshed=bool(game.option("shadow_opening")))
            names.append(skill.name)
        res.feedback(s.name, f"附身对象{player.name}出局，你获得了其全部技能：{'、'.join(names) or '无'}。")
        order = player.data.get("m217.接刀")
        if s.data.get("m217.tags-barred"):
            # a lover wolf of 丘比特 (not 双狼) gains no [群内]/[接刀] (bansha_m217_cupid)
            res.trace("附身", f"{s.name}不获得[群内]/[接刀]：情侣不得获得")
        elif order is not None and "接刀" not in player.data.get("m217.lost", ()):
            s.data["m217.接刀"] = order
            res.feedback(s.name, "你获得了[接刀]标签，接刀顺序与附身对象一致。")
        elif GROUP in player.groups and order is None:
            if GROUP not in s.groups:
                s.groups.append(GROUP)
            res.feedback(s.name, "你获得了[群内]标签。")

