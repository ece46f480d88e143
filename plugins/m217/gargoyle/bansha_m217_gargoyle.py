"""石像鬼 — 新日暮里 (M217), 狼人阵营 ⑤.

> 16、石像鬼[接刀]⑤
> 查验[午夜][指定] —— 选择范围：1人。
> 结算效果：[午夜]结束后，反馈结算目标的[表面阵营]与[表面身份]，有多次结算效果，则按顺序多次反馈。
> 凝望[午夜][限定]——游戏日夜晚，石像鬼可以选择给自阵营的所有存活角色发送一直以来的全部[查验]结果，
> 然后失去[查验]技能，丢失[接刀]标签。

The 游戏流程 lists 石像鬼<查验><凝望> at (14) (step 深夜14b); 凝望 resolves after 查验.
"""

from bansha import Role, Skill, hookimpl
from bansha_m217_helpers import lose, surface


def check(res, a):
    # > 反馈结算目标的[表面阵营]与[表面身份]，有多次结算效果，则按顺序多次反馈。
    seen_all = res.game.player(a.actor).data.setdefault("石像鬼.results", [])
    for t in a.targets:
        seen = surface(res.game, t)
        line = f"{a.chosen[0]}是{seen['camp']}，{seen['role']}身份"
        seen_all.append(line)
        res.feedback(a.actor, line)


def gaze(res, a):
    game = res.game
    me = game.player(a.actor)
    # > 给自阵营的所有存活角色发送一直以来的全部[查验]结果
    results = me.data.get("石像鬼.results", [])
    for p in game.alive():
        if p.camp == me.camp and p.name != me.name:
            res.feedback(p.name, f"石像鬼{me.name}的凝望：" + ("；".join(results) or "没有查验结果"))
    # > 然后失去[查验]技能，丢失[接刀]标签。
    lose(res, a.actor, "查验")
    lose(res, a.actor, "接刀")


GARGOYLE = Role(
    name="石像鬼", alias="gargoyle", camp="狼人阵营", rule=__doc__,
    skills=(
        Skill(name="查验", does=("check",), alias="inspect", phases=("night",), step="深夜14b", may_target_self=True,
              tags=("指定", "午夜"), effect=check,
              rule="查验[午夜][指定] —— 选择范围：1人。结算效果：[午夜]结束后，反馈结算目标的[表面阵营]与[表面身份]"),
        Skill(name="凝望", alias="gaze", phases=("night",), step="深夜14b", priority=111, targets=0,
              uses=1, tags=("限定", "午夜"), effect=gaze,
              rule="凝望[午夜][限定]——给自阵营的所有存活角色发送一直以来的全部[查验]结果，然后失去[查验]技能，丢失[接刀]标签。"),
    ),
)


@hookimpl
def bansha_roles():
    return [GARGOYLE]


@hookimpl
def bansha_setup_game(game):
    # [接刀]: first in the order of succession (the pack plugin hands it over)
    for p in game.players.values():
        if p.role == GARGOYLE.name:
            p.data["m217.接刀"] = 1
