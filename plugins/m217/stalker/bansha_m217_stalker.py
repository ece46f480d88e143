"""潜行者 — 新日暮里 (M217), 弱神 ④.

> 7、潜行者④
> 潜行[深夜][指定][限定] —— 选择范围：[自选]且是当天投票对象。
> 结算效果：对结算目标造成[暴击]。

[自选] is not defined by 用语定义: read as the holder's own choice among the players allowed, here
the players his own last ballot named in the vote(s) of "当天", the discussion day before this
night (``noon N-1`` and, on a 日不落 day, ``extra-noon N-1``). The ballots counted are recorded in
``game.data["m217.ballots"]`` (label -> {voter: target}) when a vote is counted. 潜行 resolves at
night step (14) (``深夜14b``, last of the list). Readings: docs/rulings/m217.md (weak-a).
"""

from bansha import Role, Skill, for_skills, hookimpl
from bansha_m217_helpers import hit
from bansha_m217_rules import settle

KEY = "m217.ballots"


def voted_for(game, voter: str) -> set[str]:
    """> 当天投票对象: the targets of the voter's counted ballots of the day before this night."""
    day = game.day - 1
    out = set()
    for label, ballots in game.data.get(KEY, {}).items():
        if label.endswith(f" {day}") and voter in ballots:
            out.add(ballots[voter])
    return out


def stalk(res, a):
    if settle(res, a):
        for t in a.targets:
            # > 结算效果：对结算目标造成[暴击]。
            hit(res, a, t, "暴击")


STALKER = Role(
    name="潜行者", alias="stalker", camp="村民阵营", rule=__doc__,
    skills=(Skill(name="潜行", does=("harm",), alias="stalk", phases=("night",), step="深夜14b", uses=1, may_target_self=True,
                  tags=("指定", "限定", "深夜"), effect=stalk,
                  rule="潜行[深夜][指定][限定] —— 选择范围：[自选]且是当天投票对象。结算效果：对结算目标造成[暴击]。"),),
)


@hookimpl
def bansha_roles():
    return [STALKER]


@hookimpl
@for_skills("潜行")
def bansha_validate_action(game, action):
    if action.skill == "潜行":
        allowed = voted_for(game, action.actor)
        wrong = [t for t in action.chosen if t not in allowed]
        if wrong:
            return f"潜行：{wrong[0]}不是{action.actor}前一天的投票对象（当天投票对象）"
    return None


@hookimpl(tryfirst=True)
def bansha_adjust_ballots(res, ballots):
    """Keeps who voted for whom when a vote is counted (a 迷魂 or cancelled ballot is still a vote)."""
    game = res.game
    seen = game.data.setdefault(KEY, {}).setdefault(game.label, {})
    for b in ballots:
        if b.voter in game.players and b.target in game.players:
            seen[b.voter] = b.target
