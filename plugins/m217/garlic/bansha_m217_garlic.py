"""大蒜 — 新日暮里 (M217), 弱神 ④.

> 13、大蒜④
> 熏臭[强制][翻牌]——
> [触发]：大蒜于出局时，大蒜电梯楼上下两层四人获得持续到下一晚结束的[沉默][缴械][迷魂]

A trigger on the 大蒜's exit (``bansha_on_death``): [翻牌] ("X翻牌，实际身份为大蒜。"), then the two
nearest players on each side of the 电梯楼 (the players in the game, the ends adjacent, the 大蒜
counted at his place) get the three statuses, each told with its end. Voted out at noon, the
trigger fires when the vote is counted (the dusk's step (2) lists 熏臭 among the exits' triggers;
nothing lies between). Not on a red card, not under 遗忘, not when the identity is already public.
Readings: docs/rulings/m217.md, group weak-b.
"""

from bansha import Action, Role, Skill, for_skills, hookimpl
from bansha_m217_helpers import flip, forgotten, give

STINK = "熏臭"


def stink(res, player, kill) -> None:
    game = res.game
    if (kill.rule == "红牌" or player.data.get("m217.red") or forgotten(player)
            or STINK in player.data.get("m217.lost", ()) or player.data.get("m217.revealed")):
        # > 红牌罚下出局的角色…不能发动任何技能 / [遗忘]：…失去所有[强制]技能 / [翻牌]…若[实际身份]已经公开则无法发动
        res.trace(STINK, f"{player.name}的{STINK}未触发")
        return
    flip(res, Action(actor=player.name, skill=STINK))
    # > 大蒜电梯楼上下两层四人 / 所有电梯楼相关效果都排除当前已出局成员，并且首尾算作相邻或视为邻居。
    ring = [p.name for p in sorted(game.players.values(), key=lambda p: p.seat) if p.alive or p is player]
    i = ring.index(player.name)
    four = {ring[(i + d) % len(ring)] for d in (-2, -1, 1, 2)} - {player.name}
    # > 持续到下一晚结束 — the night after this one, or the night that follows this day
    night = game.day + (0 if game.phase.name == "dusk" else 1)
    for t in sorted(four, key=lambda n: game.player(n).seat):
        for name in ("沉默", "缴械", "迷魂"):
            give(res, t, name, until=f"night {night}", source=STINK)


GARLIC = Role(
    name="大蒜", alias="garlic", camp="村民阵营", rule=__doc__,
    skills=(Skill(name=STINK, alias="stink", targets=0, tags=("强制", "翻牌"),
                  rule="熏臭[强制][翻牌]——[触发]：大蒜于出局时，大蒜电梯楼上下两层四人获得持续到下一晚结束的"
                       "[沉默][缴械][迷魂]"),),
)


@hookimpl
def bansha_roles():
    return [GARLIC]


@hookimpl
@for_skills(STINK)  # called only in a game where a player holds it
def bansha_on_death(res, player, kill):
    if STINK in res.game.skills_of(player):
        stink(res, player, kill)
