"""面包师 — 新日暮里 (M217), 弱神 ④.

> 4、面包师④
> 芬芳<限定>[午夜] —— 游戏日夜晚可选择电梯楼中[排除已出局]的连续X名角色赠予面包，X为存活人数/4（四舍五入），
> 当夜[狼人阵营]所有持有符合条件技能的角色会收到通知，在[深夜][凌晨]使用的[指定]技能只能选择面包师选择的角色作为
> 技能目标。

芬芳 is sent with the X players as its targets (any order; they must be X consecutive living
seats of the ring). It resolves at night step (14) (``深夜14b``, the number decides the order; its
tag [午夜] is kept). A skill is "used in [深夜][凌晨]" when it carries the tag 深夜 or 凌晨, or
carries no sub-step tag and resolves in the 深夜/凌晨 window (steps ``深夜…``/``凌晨…``): 杀人,
黑暗侦测; 石像鬼's 查验 ([午夜]) is not. A wolf's such action is refused when sent after 芬芳 and
voided by 芬芳 when sent before; one the engine sends (a <强制> skill: 反弹, 邪恶) is dropped by the
rules' ``settle`` (handler ``m217.shield.面包师``) when it chooses a player without bread. Readings: docs/rulings/m217.md (weak-a).
"""

from bansha import Role, Skill, hookimpl
from bansha_m217_helpers import WOLF

SUBSTEPS = ("早夜", "午夜", "深夜", "凌晨")
LATE = ("深夜", "凌晨")


def bread_count(game) -> int:
    # > X为存活人数/4（四舍五入） (half up, not Python's round-half-even)
    return int(len(game.alive()) / 4 + 0.5)


def consecutive(game, names: list[str]) -> bool:
    """> 电梯楼中[排除已出局]的连续X名角色 / 所有电梯楼相关效果都排除当前已出局成员，并且首尾算作相邻"""
    ring = [p.name for p in sorted(game.alive(), key=lambda p: p.seat)]
    n, want = len(ring), set(names)
    if len(want) != len(names) or not want <= set(ring):
        return False
    # a run that is the chosen set starts at one of them (or anywhere, for none)
    return any({ring[(i + k) % n] for k in range(len(names))} == want for i in range(n) if not want or ring[i] in want)


def late_targeted(skill) -> bool:
    """A [指定] skill used in [深夜][凌晨]: by its sub-step tag, else by its step's window."""
    if "指定" not in skill.tags:
        return False
    tagged = [t for t in skill.tags if t in SUBSTEPS]
    if tagged:
        return any(t in LATE for t in tagged)
    return skill.step.startswith(LATE)


def bound(game, p) -> list:
    """The 狼人阵营 player's skills that 芬芳 binds (> 所有持有符合条件技能的角色)."""
    if p.camp != WOLF:
        return []
    return [s for s, _ in game.skills_of(p).values() if "night" in s.phases and late_targeted(s)]


def breads(game) -> list[str] | None:
    """Tonight's bread holders, from a 芬芳 sent in this night (the latest one)."""
    return next((a.chosen for a in reversed(game.actions) if a.skill == "芬芳" and not a.void), None)


def fragrance(res, a):
    game = res.game
    holders = a.chosen
    res.data["芬芳"] = holders
    wolves = [p for p in sorted(game.alive(), key=lambda p: p.seat) if bound(game, p)]
    for w in wolves:
        # > 当夜[狼人阵营]所有持有符合条件技能的角色会收到通知
        res.feedback(w.name, f"面包师赠予了面包：{'、'.join(holders)}。今夜[深夜][凌晨]使用的[指定]技能只能选择他们。")
    # > 在[深夜][凌晨]使用的[指定]技能只能选择面包师选择的角色作为技能目标。 (sent before 芬芳)
    for other in res.actions:
        actor = game.player(other.actor)
        skill = game.skills_of(actor).get(other.skill, (None,))[0]
        if other is a or other.void or skill is None or skill not in bound(game, actor):
            continue
        if not set(other.chosen) <= set(holders):
            res.void(other, f"芬芳：只能选择{'、'.join(holders)}", rule="芬芳")


def shield(res, action, target) -> bool:
    """A bound skill that nobody sends — the engine casts a wolf's <强制> skill at its only allowed target
    (黑蝙蝠<反弹>, 恶灵骑士<邪恶>, at (18)) — cannot choose a player without bread: it is not cast (its
    <限定> use is kept for a later night). Sent actions were refused or voided above already."""
    holders = res.data.get("芬芳")
    if holders is None:
        return False
    game = res.game
    actor = game.player(action.actor)
    skill = game.skills_of(actor).get(action.skill, (None,))[0]
    return skill is not None and skill in bound(game, actor) and not set(action.chosen) <= set(holders)


BAKER = Role(
    name="面包师", alias="baker", camp="村民阵营", rule=__doc__,
    skills=(Skill(name="芬芳", alias="fragrance", phases=("night",), step="深夜14b", targets=1, max_targets=99,
                  may_target_self=True, uses=1, tags=("限定", "午夜"), effect=fragrance,
                  rule="芬芳<限定>[午夜] —— 电梯楼中[排除已出局]的连续X名角色赠予面包（X为存活人数/4，四舍五入）；"
                       "当夜狼人阵营在[深夜][凌晨]使用的[指定]技能只能选择这些角色。"),),
)


@hookimpl
def bansha_roles():
    return [BAKER]


@hookimpl
def bansha_step_handlers():
    return {"m217.shield.面包师": shield}


@hookimpl
def bansha_validate_action(game, action):
    if action.skill == "芬芳":
        x = bread_count(game)
        if len(action.chosen) != x or not consecutive(game, action.chosen):
            return f"芬芳须选择电梯楼中连续的{x}名存活角色（存活人数/4，四舍五入）"
        return None
    holders = breads(game) if game.phase.name == "night" else None
    if holders is None:
        return None
    p = game.player(action.actor)
    skill = game.skills_of(p).get(action.skill, (None,))[0]
    if skill is not None and skill in bound(game, p) and not set(action.chosen) <= set(holders):
        return f"芬芳：今晚{action.skill}只能选择{'、'.join(holders)}"
    return None


@hookimpl
def bansha_player_view(game, player):
    """The 选择范围 of 芬芳 is a run of seats, not one name: the holder is told X."""
    if game.phase.name == "night" and "芬芳" in game.skills_of(player) and player.uses.get("芬芳", 0) > 0:
        return {"芬芳": f"电梯楼中连续{bread_count(game)}名存活角色（存活人数/4，四舍五入）"}
    return None
