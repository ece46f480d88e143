"""骑士 — 新日暮里 (M217), 强神 ⑤.

> 决斗 [正午][指定][翻牌]—— 选择范围：任意一名角色，竞选日不可发动。
> 结算效果：根据结算目标的[实际阵营]，结算下述效果：
> 1此玩家为[狼人阵营]，目标将受到[穿透]，可留遗言，且当天投票取消。
> 2此玩家为[村民阵营]，发动者受到[致死伤害]，可留遗言
> 3此玩家为其他阵营或决斗[隐身]状态则无事发生。
> 无论结果，讨论日正常继续。因决斗造成的死亡的角色的遗言算入当日讨论日。

A noon skill: resolved at once when submitted. This board has no 竞选日 (no 警长 election).
"任意一名角色" includes the 骑士 himself (docs/rulings/m217.md).
"""

from bansha import Role, Skill, hookimpl
from bansha_m217_helpers import VILLAGE, WOLF, flip, hit, judged_camp
from bansha_m217_rules import land, settle


def duel(res, a):
    game = res.game
    flip(res, a)
    # > 3…决斗[隐身]状态则无事发生。
    if not settle(res, a):
        return
    target = game.player(a.targets[0])
    camp = judged_camp(game, target, a.actor)  # 隐狼<伪装> 4 is judged 村民阵营
    if camp == WOLF:
        # > 1此玩家为[狼人阵营]，目标将受到[穿透]，可留遗言，且当天投票取消。
        hit(res, a, target.name, "穿透")
        game.data["m217.vote_cancelled"] = game.label
        res.announce("今日投票取消。")
    elif camp == VILLAGE:
        # > 2此玩家为[村民阵营]，发动者受到[致死伤害]，可留遗言
        hit(res, a, a.actor, "致死伤害")
    else:
        res.trace("决斗", f"{target.name}属于{camp}：无事发生")
    land(res)


KNIGHT = Role(
    name="骑士", alias="knight", camp="村民阵营", rule=__doc__,
    skills=(Skill(name="决斗", does=("harm",), alias="duel", phases=("noon",), immediate=True, may_target_self=True, tags=("指定", "翻牌"),
                  effect=duel,
                  rule="决斗 [正午][指定][翻牌]—— 狼人阵营：目标受到[穿透]，当天投票取消；村民阵营：发动者受到[致死伤害]；其他阵营或隐身：无事发生。"),),
)


@hookimpl
def bansha_roles():
    return [KNIGHT]
