"""恐怖分子 — 新日暮里 (M217), 狼人阵营 ⑦.

> 2、恐怖分子[群内]⑦
> 爆破[正午][指定][翻牌][忍耐]——选择范围：1人。
> 发动效果：发动者承受[暴击]，本技能造成的出局，其遗言必须强制留空。
> 结算效果：结算目标承受[暴击]。

A noon skill: answered at once when submitted ("白昼阶段发动的技能，按照现实时间立刻结算"). The
发动效果 lands on the 恐怖分子 first (it is the cost of casting, whatever the chain does to the
target), then the 结算效果 on the final target. Every exit it causes gets no last-words notice but
"你的遗言必须强制留空。". [忍耐] is not defined by the document: option ``endure`` (docs/rulings/m217.md).
"""

from bansha import Role, Skill, hookimpl
from bansha_m217_helpers import flip
from bansha_m217_rules import land, settle

BLAST = "爆破"


def blast(res, a):
    flip(res, a)
    # > 发动效果：发动者承受[暴击]，本技能造成的出局，其遗言必须强制留空。
    res.kill(a.actor, kind="暴击", by=a.actor, action=a, rule=BLAST, last_words=False)
    # > 结算效果：结算目标承受[暴击]。
    if settle(res, a):
        res.kill(a.targets[0], kind="暴击", by=a.actor, action=a, rule=BLAST, last_words=False)
    land(res)


TERRORIST = Role(
    name="恐怖分子", alias="terrorist", camp="狼人阵营", group="狼人", rule=__doc__,
    skills=(Skill(name=BLAST, does=("harm",), alias="blast", phases=("noon",), immediate=True, may_target_self=True,
                  tags=("正午", "指定", "翻牌", "忍耐"), effect=blast,
                  rule="爆破[正午][指定][翻牌][忍耐]——选择范围：1人。发动效果：发动者承受[暴击]，本技能造成的出局，"
                       "其遗言必须强制留空。结算效果：结算目标承受[暴击]。"),),
)


@hookimpl
def bansha_roles():
    return [TERRORIST]


@hookimpl
def bansha_skill_unavailable(game, player, skill):
    # [忍耐] (not defined by the document), option ``endure``: "无" (no effect, the default) or
    # "首日不可" (the skill waits: not in the first 正午)
    if "忍耐" in skill.tags and game.option("endure") == "首日不可" and game.day == game.manifest.first_day:
        return f"{skill.name}是[忍耐]技能：第一个正午不能发动（房规 endure = 首日不可）"
    return None


@hookimpl
def bansha_on_death(res, player, kill):
    if kill.rule == BLAST:
        # > 本技能造成的出局，其遗言必须强制留空。
        res.feedback(player.name, "爆破：你的遗言必须强制留空。")
