"""预言家 — 新日暮里 (M217), 验人系 ⑥.

> 预言 [夜晚][指定]—— 选择范围：任意一名角色。
> 结算效果：反馈结算目标的[表面阵营]，若其为[村民阵营]，反馈[选择目标为村民阵营]，否则，反馈[选择目标为
> 非村民阵营]，有多次结算效果，则按顺序多次反馈。
> 天意<强制><限定>——若[预言]反馈为[非村民阵营]，该反馈的[结算目标]因最高票[投票出局]，且预言家当天投票给
> 了该角色时，预言家会收到通知，仅限下一晚，[预言]可额外发动一次。
"""

from bansha import Fact, Role, Skill, for_skills, hookimpl
from bansha_m217_helpers import VILLAGE, forced_on, surface
from bansha_m217_rules import vote_ballots


def foresee(res, a):
    me = res.game.player(a.actor)
    for t in a.targets:
        # > 反馈结算目标的[表面阵营]，若其为[村民阵营]，反馈[选择目标为村民阵营]，否则…[选择目标为非村民阵营]
        village = surface(res.game, t)["camp"] == VILLAGE
        fact = Fact(player=a.chosen[0], what="camp", value=VILLAGE, holds=village, by=a.skill)
        if village:
            res.feedback(a.actor, f"{a.chosen[0]}为村民阵营", fact)
        else:
            res.feedback(a.actor, f"{a.chosen[0]}为非村民阵营", fact)
            me.data.setdefault("预言.non_village", []).append(t)


SEER = Role(
    name="预言家", alias="seer", camp="村民阵营", rule=__doc__,
    skills=(
        Skill(name="预言", does=("check",), alias="foresee", phases=("night",), step="深夜14b", may_target_self=True,
              per_phase=2, tags=("指定",), effect=foresee,
              rule="预言 [夜晚][指定]—— 选择范围：任意一名角色。结算效果：反馈结算目标的[表面阵营]（村民阵营/非村民阵营）"),
        Skill(name="天意", alias="providence", targets=0, uses=1, tags=("强制", "限定"),
              rule="天意<强制><限定>——预言为非村民阵营的结算目标因最高票投票出局且预言家当天投票给了该角色时，仅限下一晚，预言可额外发动一次。"),
    ),
)


@hookimpl
def bansha_roles():
    return [SEER]


@hookimpl
def bansha_skill_unavailable(game, player, skill):
    # whoever the target: asked once per skill (a seat's listing drops it at once)
    if skill.name != "预言":
        return None
    p = player
    done = sum(1 for a in game.actions if a.actor == p.name and a.skill == "预言")
    # > 仅限下一晚，[预言]可额外发动一次。
    if done >= 1 and p.data.get("天意.night") != game.day:
        return f"{p.name}今晚已发动过预言（第二次预言需要天意）"
    return None


@hookimpl
@for_skills("天意")  # called only in a game where a player holds it
def bansha_on_death(res, player, kill):
    if kill.kind != "vote":
        return
    game = res.game
    for seer in game.players.values():
        # whoever holds 天意 (forced_on asks holds): "预言家" is the skill's holder
        if not forced_on(game, seer, "天意") or seer.uses.get("天意", 0) <= 0:
            continue
        # his last ballot of the vote (settled at noon's close or at 黄昏 (1): option vote_out)
        mine = vote_ballots(game).get(seer.name)
        # > 该反馈的[结算目标]因最高票[投票出局]，且预言家当天投票给了该角色时
        if player.name in seer.data.get("预言.non_village", ()) and mine == player.name:
            seer.uses["天意"] -= 1
            # > 仅限下一晚: the night of this dusk (黄昏 N → 夜晚 N), or after a noon's close N → N+1
            seer.data["天意.night"] = game.day if game.phase.name == "dusk" else game.day + 1
            res.feedback(seer.name, "天意：仅限下一晚，[预言]可额外发动一次。")
