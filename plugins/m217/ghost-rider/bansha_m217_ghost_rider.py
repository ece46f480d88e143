"""恶灵骑士 — 新日暮里 (M217), 狼人阵营 ⑦.

> 6、恶灵骑士[群内]⑦
> 主宰黑夜<强制> —— 游戏日夜晚，恶灵骑士获得[不死]状态，游戏日夜晚，恶灵骑士会获得反馈：今晚村民阵营对你进行
> 操作过的技能名（包括非指定）。
> 邪恶[夜晚][指定]<限定><强制> —— 选择目标：[主宰黑夜]有反馈时，按照反击顺序，选择优先级第一的目标。
> 结算效果：对结算目标造成[致死伤害]。
> 邪恶的反击顺序：能造成伤害的技能＞验人系技能＞其他，同类则以发动顺序进行反击。
> PS：由于会得知选择范围的原因，恶灵骑士会得知谁第一个对自己使用了技能，但是不会知道之后的技能来源，因为发动顺序
> 的原因，恶灵骑士无法反制炼金魔女的魔女秘法和法老之蛇。

Both skills are <强制>: nobody sends them. At night step (18) (``m217.at.凌晨18.恶灵骑士``, run by
the rules plugin's chain handler before the step's actions) the engine reads tonight's actions,
gives the 主宰黑夜 feedback and, the first night it has any, sends 邪恶 for the knight: an
action of the step that passes the targeting chain like any [指定] skill. Readings:
docs/rulings/m217.md (group wolves-b).
"""

from bansha import Role, Skill, Status, for_skills, hookimpl
from bansha_m217_helpers import VILLAGE, forced_on, hit, holders, send_forced, spend

DOMINATE, EVIL = "主宰黑夜", "邪恶"


def verifier_skills(game) -> set[str]:
    """> 验人系技能 — the skills of the roles the deal's 验人系 pool lists."""
    return {s.name for t in game.manifest.tables for pool in t.pools if pool.name == "验人系"
            for r in pool.roles for s in game.ruleset.role(r).skills}


def counter_order(res, a, verifiers) -> int:
    """> 邪恶的反击顺序：能造成伤害的技能＞验人系技能＞其他 — a skill "能造成伤害" when the document's
    list of exits (20) names it (option ``death_order``) or it queued a kill tonight."""
    if a.skill in (res.game.option("death_order") or []) or any(k.action is a for k in res.kills):
        return 0
    return 1 if a.skill in verifiers else 2


def dominate(res):
    game = res.game
    for knight in holders(game, DOMINATE):
        if not forced_on(game, knight, DOMINATE):
            continue
        # > 游戏日夜晚，恶灵骑士会获得反馈：今晚村民阵营对你进行操作过的技能名（包括非指定）。
        used = [a for a in sorted(res.actions, key=lambda a: a.seq)
                if a.void is None and knight.name in a.targets and a.actor != knight.name
                and game.player(a.actor).camp == VILLAGE]
        if not used:
            continue
        res.feedback(knight.name, f"{DOMINATE}：今晚村民阵营对你使用了{'、'.join(f'[{a.skill}]' for a in used)}。")
        # > 邪恶[夜晚][指定]<限定><强制> —— 选择目标：[主宰黑夜]有反馈时，按照反击顺序，选择优先级第一的目标。
        if knight.uses.get(EVIL, 0) <= 0 or not forced_on(game, knight, EVIL):
            continue
        # > 同类则以发动顺序进行反击。
        verifiers = verifier_skills(game)  # (read here: every night asks dominate, few games deal him)
        first = min(used, key=lambda a: (counter_order(res, a, verifiers), a.seq))
        # > 由于会得知选择范围的原因，恶灵骑士会得知谁第一个对自己使用了技能
        send_forced(res, knight.name, EVIL, first.actor, first.skill)


def evil(res, a):
    spend(res, a)  # <限定>
    for t in a.targets:
        # > 结算效果：对结算目标造成[致死伤害]。
        hit(res, a, t, "致死伤害", rule=EVIL)


RIDER = Role(
    name="恶灵骑士", alias="ghost-rider", camp="狼人阵营", group="狼人", rule=__doc__,
    skills=(
        Skill(name=DOMINATE, alias="dominate", phases=("night",), step="凌晨18", priority=10, targets=0,
              tags=("强制",),
              rule="主宰黑夜<强制> —— 游戏日夜晚，恶灵骑士获得[不死]状态，游戏日夜晚，恶灵骑士会获得反馈：今晚村民"
                   "阵营对你进行操作过的技能名（包括非指定）。"),
        Skill(name=EVIL, does=("harm",), alias="evil", phases=("night",), step="凌晨18", priority=11, uses=1,
              tags=("夜晚", "指定", "限定", "强制"), effect=evil,
              rule="邪恶[夜晚][指定]<限定><强制> —— 选择目标：[主宰黑夜]有反馈时，按照反击顺序（能造成伤害的技能＞"
                   "验人系技能＞其他，同类则以发动顺序），选择优先级第一的目标。结算效果：对结算目标造成[致死伤害]。"),
    ),
)


@hookimpl
def bansha_roles():
    return [RIDER]


@hookimpl
def bansha_step_handlers():
    return {"m217.at.凌晨18.恶灵骑士": dominate}


@hookimpl
@for_skills(DOMINATE)  # called only in a game where a player holds it
def bansha_phase_started(game):
    """> 主宰黑夜<强制> —— 游戏日夜晚，恶灵骑士获得[不死]状态 (lost with the skill under 遗忘)."""
    if game.phase.name != "night":
        return
    for p in holders(game, DOMINATE):
        p.statuses.append(Status(name="不死", until=game.label, source=DOMINATE, data={"forced": DOMINATE}))


@hookimpl
def bansha_skill_unavailable(game, player, skill):
    if skill.name in (DOMINATE, EVIL):
        return f"{skill.name}是<强制>技能：无需发动，夜晚第(18)步自动结算"
    return None
