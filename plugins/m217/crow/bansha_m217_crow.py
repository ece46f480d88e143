"""乌鸦 — 新日暮里 (M217), 弱神 ④.

> 3、乌鸦④
> 诽谤 [夜晚][指定]—— 选择范围：任意一名角色
> 结算效果：结算目标在下一个游戏日投票时被投票数多计一票，并公示[目标角色被诽谤]。
> PS：一天内有多次投票贴，诽谤对于所有的投票贴都正常生效。多个诽谤诽谤同一人时，只公示一次诽谤，但计票会按照
> 实际诽谤次数计票。

诽谤 resolves at night step (14) (``深夜14b``). The extra ballots are kept in
``game.data["m217.slander"]`` (day -> {target: count}) and added to the count of that day's
votes (``noon N`` and, on a 日不落 day, ``extra-noon N``) as ``res.data["extra_votes"]``. Readings: docs/rulings/m217.md (weak-a).
"""

from bansha import Role, Skill, hookimpl
from bansha_m217_cards import count_slander, slander
from bansha_m217_rules import settle


def slander_effect(res, a):
    if not settle(res, a):
        return
    for t in a.targets:
        # > 结算效果：结算目标在下一个游戏日投票时被投票数多计一票，并公示[目标角色被诽谤]。(the board's
        # 诽谤 card: homebrew roles share it)
        slander(res, t)


CROW = Role(
    name="乌鸦", alias="crow", camp="村民阵营", rule=__doc__,
    skills=(Skill(name="诽谤", does=("harm",), alias="slander", phases=("night",), step="深夜14b", may_target_self=True,
                  tags=("指定",), effect=slander_effect,
                  rule="诽谤 [夜晚][指定]—— 选择范围：任意一名角色。结算效果：结算目标在下一个游戏日投票时被投票数多计一票，"
                       "并公示[目标角色被诽谤]。"),),
)


@hookimpl
def bansha_roles():
    return [CROW]


@hookimpl
def bansha_adjust_ballots(res, ballots):
    """> 结算目标在下一个游戏日投票时被投票数多计一票
    > PS：一天内有多次投票贴，诽谤对于所有的投票贴都正常生效。
    The extra votes are carried by no ballot: the kernel adds ``res.data["extra_votes"]``."""
    count_slander(res)
