"""蛊医 — 新日暮里 (M217), 狼人阵营 ⑥.

> 5、蛊医[群内]⑥
> 蛊惑[指定][早夜]—— 选择范围：任意一名角色，并选择狼人/强神/弱神
> 结算效果：结算目标在胜负判定中，视为该身份类别，直到下一个游戏日夜晚开始。若被选择的角色本身不属于被选择的
> 身份类别，则蛊医立即收到通知，然后失去该技能。
> PS：只改变阵营胜利条件，不会改变角色的实际身份、表面身份、表面阵营和实际阵营。

The win check of the rules plugin reads ``category(game, p)``, which honours
``p.data["m217.category"]``: 蛊惑 sets it and ``player.data["蛊惑"]`` remembers what to restore
when the next night starts. 蛊惑 resolves at night step (15) (午夜15a), its tag [早夜] kept.
Readings: docs/rulings/m217.md (group wolves-b).
"""

from bansha import Role, Skill, for_skills, hookimpl
from bansha_m217_helpers import WOLF, dealt_category, lose

KEY = "蛊惑"
CATEGORIES = ("狼人", "强神", "弱神")


def own_category(game, p) -> str | None:
    """> 若被选择的角色本身不属于被选择的身份类别 — the category the board deals the role in (a
    狼人阵营 role no pool lists yet is 狼人), whatever a 蛊惑 made of it."""
    return dealt_category(game, p.role) or ("狼人" if game.ruleset.role(p.role).camp == WOLF else None)


def bewitch(res, a):
    game = res.game
    cat = a.args["category"]
    for t in a.targets:
        p = game.player(t)
        mark = p.data.get(KEY) or {"restore": p.data.get("m217.category")}
        # > 结算目标在胜负判定中，视为该身份类别，直到下一个游戏日夜晚开始。
        mark["until"] = game.day + 1
        p.data[KEY] = mark
        p.data["m217.category"] = cat
        res.trace(KEY, f"{game.named(f'night {game.day + 1}')}开始前，{t}在胜负判定中计为{cat}")
        # > 若被选择的角色本身不属于被选择的身份类别，则蛊医立即收到通知，然后失去该技能。
        if own_category(game, p) != cat:
            res.feedback(a.actor, f"蛊惑：结算目标不属于[{cat}]，你失去了[蛊惑]。")
            lose(res, a.actor, KEY)


GU_DOCTOR = Role(
    name="蛊医", alias="gu-doctor", camp="狼人阵营", group="狼人", rule=__doc__,
    skills=(Skill(name=KEY, alias="bewitch", phases=("night",), step="午夜15a", may_target_self=True,
                  tags=("指定", "早夜"), effect=bewitch, args={"category": "狼人|强神|弱神"},
                  arg_values={"category": CATEGORIES},
                  rule="蛊惑[指定][早夜]—— 选择范围：任意一名角色，并选择狼人/强神/弱神。结算效果：结算目标在胜负判定中，"
                       "视为该身份类别，直到下一个游戏日夜晚开始。若被选择的角色本身不属于被选择的身份类别，则蛊医"
                       "立即收到通知，然后失去该技能。"),),
)


@hookimpl
def bansha_roles():
    return [GU_DOCTOR]


@hookimpl
@for_skills(KEY)
def bansha_validate_action(game, action):
    # > 并选择狼人/强神/弱神
    if action.skill == KEY and action.args.get("category") not in CATEGORIES:
        return "蛊惑：须用 --arg category=狼人|强神|弱神 选择类别"
    return None


@hookimpl
def bansha_phase_started(game):
    """> 直到下一个游戏日夜晚开始 — the category returns when that night starts."""
    if game.phase.name != "night":
        return
    for p in game.players.values():
        mark = p.data.get(KEY)
        if mark and game.day >= mark["until"]:
            p.data["m217.category"] = mark["restore"]
            del p.data[KEY]
