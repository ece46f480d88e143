"""奇迹商人 — 新日暮里 (M217), 强神 ⑦, and the temporary skills it gives.

> 馈赠[深夜][指定]<限定> —— 选择范围：[无私]，1人，并决定赠送验人，毒药，猎枪，守护，控制其中之一。
> 结算效果：若结算目标的[实际阵营]为狼人阵营，发动者收到通知送礼失败，并受到[穿透]。若结算目标的[实际阵营]为
> 非狼人阵营，则结算目标在夜晚结束时会得到通知，获得对应的临时技能，额外单独计算，这些技能使用一次后就丢失。
> 验人：获得技能[通灵]  毒药：获得技能[毒药]  猎枪：获得技能[最后一枪]  守护：获得技能[守护]  控制：获得技能[冰冻]
> PS：允许憋礼物技能，等到合适的时机再使用。

The gifts are the skills of the pseudo-role 礼物 (never dealt), given through ``player.acquired``
with one use: each is used under its own name and resolves where the original does (the manifest's
``[skills]`` order is by name), after a real role's skill of the same name. 通灵, 毒药 and 冰冻 run
the effect of the built role that owns them (通灵师, 女巫, 企鹅); 最后一枪 (猎人, a 弱神 not built
yet) and 守护 (a skill the document names but never defines) are declared here. Readings:
docs/rulings/m217.md.
"""

from bansha import Role, Skill, hookimpl
from bansha_m217_helpers import WOLF, acquire, exit_of, give, hit, judged_camp, unacquire, window
from bansha_m217_rules import land, settle

GIFTS = {"验人": "通灵", "毒药": "毒药", "猎枪": "最后一枪", "守护": "守护", "控制": "冰冻"}
OWNERS = {"通灵": "通灵师", "毒药": "女巫", "冰冻": "企鹅"}
PSEUDO = "礼物"


def present(res, a):
    game = res.game
    for t in a.targets:
        if judged_camp(game, t, a.actor) == WOLF:  # 隐狼<伪装> 4 is judged 村民阵营
            # > 若结算目标的[实际阵营]为狼人阵营，发动者收到通知送礼失败，并受到[穿透]。
            res.feedback(a.actor, "送礼失败。")
            hit(res, a, a.actor, "穿透")
            continue
        skill = GIFTS[a.args["gift"]]
        # > 则结算目标在夜晚结束时会得到通知，获得对应的临时技能，额外单独计算
        own = game.ruleset.role(game.player(t).role).skill(skill)
        if own is None:
            acquire(res, t, skill, PSEUDO, temporary=True)
        elif own.uses is not None:
            # reading: a holder of the same counted skill (女巫 given 毒药) gets one extra use of it
            game.player(t).uses[skill] = game.player(t).uses.get(skill, 0) + 1
        else:
            res.trace("馈赠", f"{t}已拥有不限次数的{skill}：馈赠不增加次数")
        res.feedback(t, f"你获得了临时技能[{skill}]，使用一次后丢失。")


def borrowed(name):
    """A gift that is a built role's skill runs that role's effect; "涉及到原身份的名词都会改为发动者
    自己" holds because every effect names ``action.actor``."""
    def effect(res, a):
        res.game.ruleset.role(OWNERS[name]).skill(name).effect(res, a)
    return effect


def guard(res, a):
    # reading: 守护 gives [守护：1] until the night ends (the document never defines the skill)
    for t in a.targets:
        give(res, t, "守护", count=1, until=res.label, source="守护", told=True)


def last_shot(res, a):
    # > 最后一枪[晨曦][黄昏][指定] —— 选择范围：出局后下一个可发动技能的时点，选择任意一名角色。
    # > 结算效果：结算目标承受[致死伤害]。
    if settle(res, a):
        for t in a.targets:
            hit(res, a, t, "致死伤害")
    land(res)


MERCHANT = Role(
    name="奇迹商人", alias="merchant", camp="村民阵营", rule=__doc__,
    skills=(Skill(name="馈赠", does=("help",), alias="gift", phases=("night",), step="早夜7", uses=1, tags=("指定", "限定", "深夜"),
                  args={"gift": "验人 | 毒药 | 猎枪 | 守护 | 控制"}, arg_values={"gift": tuple(GIFTS)}, effect=present,
                  rule="馈赠[深夜][指定]<限定> —— [无私]，1人，赠送验人/毒药/猎枪/守护/控制之一；狼人阵营：送礼失败并受到[穿透]。"),),
)
GIFT_SKILLS = Role(
    name=PSEUDO, alias="gifts", camp=None, rule="奇迹商人<馈赠>的临时技能，使用一次后丢失。",
    skills=(
        Skill(name="通灵", does=("check",), alias="commune", phases=("night",), step="深夜14b", uses=1, may_target_self=True,
              tags=("指定",), effect=borrowed("通灵"), rule="[临时技能] 通灵：反馈结算目标的[表面身份]。"),
        Skill(name="毒药", does=("harm",), alias="poison", phases=("night",), step="凌晨16", uses=1, may_target_self=True,
              tags=("指定",), effect=borrowed("毒药"), rule="[临时技能] 毒药：对结算目标造成[穿透]。"),
        Skill(name="冰冻", does=("harm",), alias="freeze", phases=("night",), step="午夜10", uses=1, may_target_self=True,
              tags=("指定",), effect=borrowed("冰冻"), rule="[临时技能] 冰冻：结算目标获得[冰冻]，持续至下一个[正午]阶段开始。"),
        Skill(name="守护", does=("help",), alias="guard", phases=("night",), step="凌晨16", priority=15, uses=1, may_target_self=True,
              tags=("指定",), effect=guard, rule="[临时技能] 守护：结算目标获得[守护：1]，持续至夜晚结束。"),
        Skill(name="最后一枪", does=("harm",), alias="last-shot", phases=("dawn", "dusk"), immediate=True, while_out=True, uses=1,
              may_target_self=True, tags=("指定",), effect=last_shot,
              rule="[临时技能] 最后一枪[晨曦][黄昏][指定] —— 出局后下一个可发动技能的时点：结算目标承受[致死伤害]。"),
    ),
)


@hookimpl
def bansha_roles():
    return [MERCHANT, GIFT_SKILLS]


@hookimpl
def bansha_validate_action(game, action):
    p = game.player(action.actor)
    if action.skill == "馈赠":
        if action.args.get("gift") not in GIFTS:
            return f"馈赠须给出 --arg gift=…（{'、'.join(GIFTS)}之一）"
        # > 选择范围：[无私] — read as "除自己外"
        if action.actor in action.chosen:
            return "馈赠是[无私]技能：不能对自己发动"
    if p.acquired.get(action.skill) == PSEUDO and (p.data.get("m217.gained") or {}).get(action.skill, [None])[0] == game.label:
        # > 则结算目标在夜晚结束时会得到通知，获得对应的临时技能: not his in the night it is given,
        # even once its window is resolved (a night resolved window by window)
        return f"{p.name}（{p.role}）没有技能{action.skill}"
    if action.skill == "最后一枪" and p.acquired.get("最后一枪") == PSEUDO:
        gone = exit_of(game, p.name) if not p.alive else None
        # > 选择范围：出局后下一个可发动技能的时点
        if not gone or window(game, gone[0], ("dawn", "dusk")) != game.label:
            return "最后一枪在持有者出局后的第一个晨曦/黄昏发动"
    return None


@hookimpl
def bansha_phase_started(game):
    """> 这些技能使用一次后就丢失。 / PS：允许憋礼物技能 — kept until used, lost once used."""
    for p in game.players.values():
        if not p.data.get("m217.temporary"):
            continue  # no gift held (most players)
        for name in list(p.data["m217.temporary"]):
            if p.acquired.get(name) == PSEUDO and p.uses.get(name, 0) <= 0:
                unacquire(game, p, name)
                p.uses.pop(name, None)
