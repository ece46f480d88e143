"""猎人 — 光影传说 v1.3.

> 猎人1名：该职业玩家每天可以使用“伪装”技能，指定自己的国家和职业属性，并制定自己的一个虚拟技能对象。
> 他的真实国家和职业不变，但是当晚其他人的所有询问和技能作用时都将按他指定的身份和技能对象给予处理。
> 当法师不止1个时，猎人伪装法师需要给出要伪装的法师编号。
> 例10：玩家A（光之国的猎人）指定他今晚是影之国的法师1，并虚拟技能目标玩家B。玩家C询问：“玩家A是影之国
> 的法师么？”上帝回答：“是。” 骑士D追击玩家A，上帝公告：玩家A对玩家B使用了技能。玩家E（真正的影之国的
> 法师1）对玩家A使用“巫术”，玩家A将被保护。玩家F（光之国的刺客）对影之国法师1使用“窥视”，则上帝将公告A和E
> 提出的所有问题。

The disguise is a status whose data has camp/role (and number): ``game.surface(p)`` is what
every other player's question and skill reads. It runs first in the day (step ``disguise``)
and ends with the day; a disguise as one's own nation is void once a mage disrupts the hunter
(``light-shadow.disrupted-disguise``, after the mage web). The virtual target is the action's target (read by 追击).
docs/rulings/light-shadow.md §8.
"""

from bansha import GameError, Role, Skill, Status, for_skills, hookimpl

SOURCE = "猎人.伪装"
# the quoted rule above, as one line for `bansha role show`
RULE = "".join(line.lstrip("> ") for line in __doc__.split("\n\n")[1].splitlines())


def disguise(res, a):
    g = res.game
    data = {"camp": g.ruleset.camp(a.args["camp"]), "role": g.ruleset.role(a.args["role"]).name}
    if a.args.get("number") is not None:
        data["number"] = int(a.args["number"])
    res.add_status(a.actor, Status(name="伪装", until=res.label, source=SOURCE, data=data))


def disrupted_disguise(res):
    """> 如果对象玩家是敌对国家的，他的一切询问和技能无效。 (法师; 伪装 is a skill)

    After the mage web: a disguised player disrupted by a mage has his 伪装 void, and is
    checked, asked and spied as what he is — where that is consistent: only when he is disguised
    as his own nation. Disguised as the enemy, the disguise is what made the 巫术 a disruption;
    undoing it would turn the disruption into a protection, so the disguise stands (§8)."""
    g = res.game
    for name in sorted(res.data.get("disrupted", ())):
        p = g.player(name)
        mine = [st for st in p.statuses if st.source == SOURCE and st.until == res.label]
        if not mine or any(st.data["camp"] != p.camp for st in mine):
            continue
        p.statuses = [st for st in p.statuses if st not in mine]
        for a in res.by(name):
            if a.skill == "伪装":
                res.void(a, "受干扰：他的一切询问和技能无效，伪装无效（§8）", rule="猎人.伪装")


HUNTER = Role(
    name="猎人", alias="hunter", rule=RULE,
    skills=(Skill(name="伪装", alias="disguise", phases=("day",), step="disguise", may_target_self=True,
                  effect=disguise,
                  args={"camp": "伪装的国家", "role": "伪装的职业", "number": "伪装的法师编号（两名法师时必填）"},
                  arg_values={"camp": "camp", "role": "role", "number": ("", "1", "2")},
                  rule="指定自己的国家和职业属性，并制定自己的一个虚拟技能对象。"),),
)


@hookimpl
def bansha_roles():
    return [HUNTER]


@hookimpl
def bansha_step_handlers():
    return {"light-shadow.disrupted-disguise": disrupted_disguise}


@hookimpl
@for_skills("伪装")
def bansha_validate_action(game, action):
    if action.skill != "伪装":
        return None
    try:
        camp = game.ruleset.camp(str(action.args.get("camp", "")))
        role = game.ruleset.role(str(action.args.get("role", ""))).name
    except GameError:
        return f"{action.actor}的伪装被拒绝：需要 camp = 国家、role = 职业。"
    if role in game.manifest.common:
        return f"{action.actor}的伪装被拒绝：没有职业“{role}”。"
    number = action.args.get("number")
    mages = sum(1 for p in game.players.values() if p.camp == camp and p.role == "法师")
    if role == "法师" and mages > 1 and str(number) not in ("1", "2"):
        return f"{action.actor}的伪装被拒绝：当法师不止1个时，猎人伪装法师需要给出要伪装的法师编号（number = 1 或 2）。"
    if number is not None and (role != "法师" or mages < 2):
        return f"{action.actor}的伪装被拒绝：{camp}没有编号为{number}的{role}。"
    return None
