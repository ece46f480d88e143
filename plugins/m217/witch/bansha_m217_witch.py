"""女巫 — 新日暮里 (M217), 强神 ⑧.

> 灵通[夜晚]<强制> —— 游戏日夜晚，反馈所有[指杀]技能的[选择目标]，反馈没有次数和先后顺序，按照电梯楼顺序
> 排列名单。救药数量为0及以下时，该技能暂时失效。
> 救药 [夜晚][1][指定]—— 选择范围：可选任意一名角色，当晚使用了<毒药>或次数不足时，不可选择。
> 结算效果：令结算目标获得状态[守护：∞]，持续至夜晚结束。
> 毒药[夜晚][1][指定] —— 选择范围：可选任意一名角色，当晚使用了<救药>或次数不足时，不可选择。
> 结算效果：对结算目标造成[穿透]
> PS：只要有选择目标就会反馈，不论最终有没有结算目标或有多个结算目标。

灵通 is the step handler ``m217.witch.灵通`` (step 凌晨16, before 救药 and 毒药).
"""

from bansha import Role, Skill, for_skills, hookimpl
from bansha_m217_helpers import forced_on, give, hit


def insight(res):
    game = res.game
    for witch in game.players.values():
        if not forced_on(game, witch, "灵通"):  # whoever holds 灵通 (forced_on asks holds)
            continue
        # > 救药数量为0及以下时，该技能暂时失效。 (tonight's 救药 is counted as not yet spent)
        pending = sum(1 for a in res.actions if a.actor == witch.name and a.skill == "救药")
        if witch.uses.get("救药", 0) + pending <= 0:
            continue
        # > 反馈所有[指杀]技能的[选择目标]…只要有选择目标就会反馈
        # (a skill that casts a [指杀] skill of another card — 赌徒<大奖>'s <杀人> — marks its action
        # ``result["m217.指杀"]`` when it is cast)
        chosen = {t for a in res.actions if "指杀" in _tags(game, a) or a.result.get("m217.指杀") for t in a.chosen}
        # > 反馈没有次数和先后顺序，按照电梯楼顺序排列名单。
        names = [p.name for p in sorted(game.players.values(), key=lambda p: p.seat) if p.name in chosen]
        res.feedback(witch.name, "灵通：" + ("、".join(names) if names else "今晚没有[指杀]的选择目标"))


def _tags(game, a):
    skill = game.skills_of(game.player(a.actor)).get(a.skill)
    return skill[0].tags if skill else ()


def save(res, a):
    # > 令结算目标获得状态[守护：∞]，持续至夜晚结束。
    for t in a.targets:
        give(res, t, "守护", until=res.label, source="救药")


def poison(res, a):
    # > 对结算目标造成[穿透]
    for t in a.targets:
        hit(res, a, t, "穿透")


WITCH = Role(
    name="女巫", alias="witch", camp="村民阵营", rule=__doc__,
    skills=(
        Skill(name="灵通", alias="insight", targets=0, tags=("强制",),
              rule="灵通[夜晚]<强制> —— 反馈所有[指杀]技能的[选择目标]，按照电梯楼顺序排列名单。救药数量为0及以下时，该技能暂时失效。"),
        Skill(name="救药", does=("help",), alias="save", phases=("night",), step="凌晨16", priority=10, uses=1,
              may_target_self=True, tags=("指定",), effect=save,
              rule="救药 [夜晚][1][指定]—— 令结算目标获得状态[守护：∞]，持续至夜晚结束。"),
        Skill(name="毒药", does=("harm",), alias="poison", phases=("night",), step="凌晨16", priority=20, uses=1,
              may_target_self=True, tags=("指定",), effect=poison,
              rule="毒药[夜晚][1][指定] —— 对结算目标造成[穿透]"),
    ),
)


@hookimpl
def bansha_roles():
    return [WITCH]


@hookimpl
def bansha_step_handlers():
    return {"m217.witch.灵通": insight}


@hookimpl
@for_skills("救药", "毒药")
def bansha_validate_action(game, action):
    other = {"救药": "毒药", "毒药": "救药"}.get(action.skill)
    # > 当晚使用了<毒药>…不可选择 / 当晚使用了<救药>…不可选择
    if other and any(a.actor == action.actor and a.skill == other for a in game.actions):
        return f"{action.actor}今晚已发动{other}：不能再发动{action.skill}"
    return None
