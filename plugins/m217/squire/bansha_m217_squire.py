"""侍从 — 新日暮里 (M217), 弱神 ③.

> 5、侍从③
> 替死[夜晚][指定]——游戏日夜晚，侍从可选择一名玩家。该玩家若当晚出局，侍从代替其出局。每名玩家仅可被选择一次。

替死 resolves at night step (12) (``午夜12a``, after 子狐<咒缚>): the final target is kept in
``res.data["替死"]``. When a kill that nothing else stops would take that player out tonight
(``bansha_stop_kill``, asked last, after 守护/坚韧/不死), it is stopped and the 侍从 leaves instead:
a kill of rule 替死 and kind 致死伤害 (only 不死 keeps him in: "除了红牌罚下，其他情况下都不会出局").
Readings: docs/rulings/m217.md (weak-a).
"""

from bansha import Role, Skill, for_skills, hookimpl
from bansha_m217_cards import stand_in as stand_in_for
from bansha_m217_cards import stood_in
from bansha_m217_rules import settle

CHOSEN = "替死.chosen"


def stand_in(res, a):
    game = res.game
    squire = game.player(a.actor)
    # > 每名玩家仅可被选择一次。 (the chosen player, whatever the chain makes of it)
    squire.data.setdefault(CHOSEN, []).extend(t for t in a.chosen if t not in squire.data.get(CHOSEN, []))
    if settle(res, a):
        for t in a.targets:
            stand_in_for(res, a, t)  # the board's 替死 card: homebrew roles share it


SQUIRE = Role(
    name="侍从", alias="squire", camp="村民阵营", rule=__doc__,
    skills=(Skill(name="替死", does=("help",), alias="stand-in", phases=("night",), step="午夜12a", tags=("指定",),
                  effect=stand_in,
                  rule="替死[夜晚][指定]——游戏日夜晚，侍从可选择一名玩家。该玩家若当晚出局，侍从代替其出局。"
                       "每名玩家仅可被选择一次。"),),
)


@hookimpl
def bansha_roles():
    return [SQUIRE]


@hookimpl
@for_skills("替死")
def bansha_validate_action(game, action):
    if action.skill == "替死":
        done = game.player(action.actor).data.get(CHOSEN, [])
        again = [t for t in action.chosen if t in done]
        if again:
            return f"替死：{again[0]}已被选择过（每名玩家仅可被选择一次）"
    return None


@hookimpl(trylast=True)
def bansha_stop_kill(res, kill):
    """> 该玩家若当晚出局，侍从代替其出局。 Asked last: only a kill that would land."""
    return stood_in(res, kill)
