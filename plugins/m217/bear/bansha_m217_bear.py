"""熊 — 新日暮里 (M217), 弱神 ④.

> 15、熊④
> 咆哮[强制][黄昏]—— [触发]：黄昏阶段，若熊电梯上下两侧有[表面阵营]为[狼人阵营]的角色，则下一个游戏日白天将公示熊咆哮了，
> （即使熊当夜死亡，只要熊身旁有狼仍会公示熊咆哮了），如无狼人阵营或场上无熊则无事发生。
> PS：多个[咆哮]技能存在时，所有咆哮分别判定，可能会有多次[熊咆哮了]的公示，但不知道对应的是哪头熊。

Judged at dusk step (4) (handler ``m217.at.黄昏4.熊``, no action): each 熊 in the game whose
<强制> skill works looks at its two neighbours on the 电梯楼 (the nearest players in the game,
the ends adjacent) and their 表面阵营. A roar is announced "熊咆哮了。" when the next 正午 opens
(开门, "下一个游戏日白天"), one line per roaring bear, without a name. The lines wait in
``game.data["m217.tomorrow"]`` (shared with 摄魂师, whose imitation is announced with them).
Readings: docs/rulings/m217.md, group weak-b.
"""

from bansha import Role, Skill, hookimpl
from bansha_m217_helpers import WOLF, forced_on, surface

ROAR = "咆哮"
QUEUE = "m217.tomorrow"    # {"noon N": [line, …]} announced when that noon opens


def roar(res) -> None:
    game = res.game
    if game.pending_rewind is not None:
        return  # the dusk is turned back (钟): it is judged when the dusk is played again
    # > 如无狼人阵营或场上无熊则无事发生。 (the bears found first, then sorted: every dusk of every game asks)
    bears = (p for p in game.players.values() if p.alive and ROAR in game.skills_of(p) and forced_on(game, p, ROAR))
    for bear in sorted(bears, key=lambda p: p.seat):
        # > 若熊电梯上下两侧有[表面阵营]为[狼人阵营]的角色
        wolves = [q.name for q in game.neighbours(bear.name)
                  if q.name != bear.name and surface(game, q.name)["camp"] == WOLF]
        res.trace(ROAR, f"{bear.name}：相邻的狼人为{'、'.join(wolves) or '无'}")
        if wolves:
            # > 则下一个游戏日白天将公示熊咆哮了，（即使熊当夜死亡，只要熊身旁有狼仍会公示熊咆哮了）
            game.data.setdefault(QUEUE, {}).setdefault(f"noon {game.day}", []).append("熊咆哮了。")


BEAR = Role(
    name="熊", alias="bear", camp="村民阵营", rule=__doc__,
    skills=(Skill(name=ROAR, alias="roar", targets=0, tags=("强制", "黄昏"),
                  rule="咆哮[强制][黄昏]——黄昏阶段，若熊电梯上下两侧有[表面阵营]为[狼人阵营]的角色，则下一个游戏日白天"
                       "公示熊咆哮了（即使熊当夜死亡）；多头熊分别判定。"),),
)


@hookimpl
def bansha_roles():
    return [BEAR]


@hookimpl
def bansha_step_handlers():
    return {"m217.at.黄昏4.熊": roar}


@hookimpl
def bansha_phase_opened(res):
    """> PS：…可能会有多次[熊咆哮了]的公示，但不知道对应的是哪头熊。 — at 开门, the start of the 正午."""
    for line in res.game.data.get(QUEUE, {}).pop(res.label, []):
        res.announce(line)
