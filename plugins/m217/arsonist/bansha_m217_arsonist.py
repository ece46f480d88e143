"""纵火者 (纵火犯) — 新日暮里 (M217), 强神 ⑤.

> 纵火[午夜][指定][限定]——选择范围：1人。
> 结算效果：结算目标获得[业炎]状态，若成功赋予[业炎]，且当晚所有的[杀人]结算目标正好是纵火目标，则[杀人]无效，
> 技能来源受到[穿透]。

The 游戏流程 resolves 纵火犯<纵火> at (15), after 狼队<杀人>. No end is given for this 业炎: it is
permanent (docs/rulings/m217.md).
"""

from bansha import Role, Skill, hookimpl
from bansha_m217_helpers import give, hit


def arson(res, a):
    for t in a.targets:
        # > 结算目标获得[业炎]状态
        give(res, t, "业炎", source="纵火")
        kills = [k for k in res.kills if k.rule == "杀人"]
        # > 若成功赋予[业炎]，且当晚所有的[杀人]结算目标正好是纵火目标，则[杀人]无效，技能来源受到[穿透]。
        if kills and all(k.target == t for k in kills):
            for k in kills:
                res.kills.remove(k)
                res.trace("纵火", f"对{t}的杀人无效；其来源{k.by}受到穿透")
                hit(res, a, k.by, "穿透")


ARSONIST = Role(
    name="纵火者", alias="arsonist", camp="村民阵营", rule=__doc__,
    skills=(Skill(name="纵火", does=("harm",), alias="arson", phases=("night",), step="深夜15b", uses=1, may_target_self=True,
                  tags=("指定", "限定", "午夜"), effect=arson,
                  rule="纵火[午夜][指定][限定]——结算目标获得[业炎]；当晚所有的[杀人]结算目标正好是纵火目标时，[杀人]无效，技能来源受到[穿透]。"),),
)


@hookimpl
def bansha_roles():
    return [ARSONIST]
