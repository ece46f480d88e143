"""隐狼 — 新日暮里 (M217), 狼人阵营 ⑥ (not [群内]).

> 9、隐狼⑥
> 伪装[开局] —— 游戏开始前，隐狼可从下列五项中选择三项进行游戏。
> 1，获得[接刀]标签，接刀顺序为蚀日侍女出局后
> 2，可以设置自己的表面阵营，表面身份，表面带刀伪装。
> 3，知晓所有和自己[实际阵营]相同角色的马甲名单
> 4，受到来自于[村民阵营]的以[实际阵营]判断的技能时，以你为[村民阵营]进行判定（如骑士决斗你会自杀，猎魔人猎杀你会自杀，黑商可以成功给你技能。）
> 5，让所有和自己[实际阵营]相同角色知晓你的马甲
> PS：效果4以隐狼为目标的才会改变，隐狼发动的技能不会改变实际阵营的判定

``伪装 --arg effects=1,2,4`` (three of the five), with ``camp=… role=… armed=是|否`` for effect 2.
Readings (docs/rulings/m217.md): 蚀日侍女 is a role of another board, so effect 1 makes the 隐狼 the
last heir of the knife (after every other 接刀 role); effect 4 is read by every skill that judges the
actual camp through ``judged_camp`` (m217-rules).
"""

from itertools import combinations

from bansha import Role, Skill, for_skills, hookimpl
from bansha_m217_helpers import VILLAGE, give

EFFECTS = ("1", "2", "3", "4", "5")
WITH_DISGUISE = tuple(",".join(c) for c in combinations(EFFECTS, 3) if "2" in c)
# > 接刀顺序为蚀日侍女出局后 — 蚀日侍女 is not on this board: after every other heir (石像鬼 is 1)
KNIFE_ORDER = 50


def mates(game, p) -> list[str]:
    """> 所有和自己[实际阵营]相同角色 (others than oneself), in seat order."""
    return [q.name for q in sorted(game.players.values(), key=lambda q: q.seat)
            if q.camp == p.camp and q.name != p.name]


def chosen(a) -> list[str]:
    return [e.strip() for e in str(a.args.get("effects", "")).replace("，", ",").split(",") if e.strip()]


def disguise(res, a):
    game = res.game
    me = game.player(a.actor)
    effects = chosen(a)
    me.data["m217.伪装"] = effects
    if "1" in effects:
        # > 1，获得[接刀]标签，接刀顺序为蚀日侍女出局后 (the 狼人 pack plugin hands the knife over)
        me.data["m217.接刀"] = KNIFE_ORDER
    if "2" in effects:
        # > 2，可以设置自己的表面阵营，表面身份，表面带刀伪装。
        seen = {k: a.args[k] for k in ("camp", "role") if a.args.get(k)}
        if a.args.get("armed"):
            seen["armed"] = a.args["armed"] == "是"
        give(res, me.name, "伪装", source="伪装", **seen)
    if "3" in effects:
        # > 3，知晓所有和自己[实际阵营]相同角色的马甲名单
        res.feedback(me.name, f"伪装：和你实际阵营相同的马甲：{'、'.join(mates(game, me)) or '无'}。")
    if "4" in effects:
        # > 4，受到来自于[村民阵营]的以[实际阵营]判断的技能时，以你为[村民阵营]进行判定
        # (read by ``judged_camp``: only skills cast by a 村民阵营 player on the 隐狼 — the PS)
        me.data["m217.judged"] = {VILLAGE: VILLAGE}
    if "5" in effects:
        # > 5，让所有和自己[实际阵营]相同角色知晓你的马甲
        for name in mates(game, me):
            res.feedback(name, f"隐狼的马甲是{me.name}。")
    res.feedback(me.name, f"伪装：你选择了效果{'、'.join(effects)}。")


HIDDEN_WOLF = Role(
    name="隐狼", alias="hidden-wolf", camp="狼人阵营", rule=__doc__,
    skills=(Skill(name="伪装", alias="disguise", phases=("opening",), step="开局", targets=0, effect=disguise,
                  args={"effects": "从1,2,3,4,5中选三项（例如 1,2,4）", "camp": "效果2：表面阵营",
                        "role": "效果2：表面身份", "armed": "效果2：表面带刀，是|否"},
                  # > 隐狼可从下列五项中选择三项 / 2，可以设置自己的表面阵营，表面身份，表面带刀伪装。 — a
                  # simulated 隐狼 takes the six choices with effect 2 (the disguise: a role, a camp and
                  # 带刀 or not); the four without it would need the disguise left out as a whole, which
                  # values drawn argument by argument cannot say
                  arg_values={"effects": WITH_DISGUISE, "camp": ("", "{camp}"), "role": "role",
                              "armed": ("", "是", "否")},
                  rule="伪装[开局] —— 游戏开始前，隐狼可从下列五项中选择三项：1 接刀；2 表面阵营/身份/带刀伪装；"
                       "3 知晓同实际阵营的马甲；4 村民阵营以实际阵营判断的技能视你为村民阵营；5 同实际阵营知晓你的马甲。"),),
)


@hookimpl
def bansha_roles():
    return [HIDDEN_WOLF]


@hookimpl
@for_skills("伪装")
def bansha_validate_action(game, action):
    if action.skill != "伪装":  # whoever holds it (an heir who gained it: "隐狼" is its holder)
        return None
    effects = chosen(action)
    # > 隐狼可从下列五项中选择三项进行游戏。
    if len(effects) != 3 or len(set(effects)) != 3 or not set(effects) <= set(EFFECTS):
        return "伪装：须从1-5中选择三项不同效果（--arg effects=1,2,4）"
    seen = [k for k in ("camp", "role", "armed") if action.args.get(k)]
    if "2" not in effects and seen:
        return f"伪装：{'/'.join(seen)}用于设定伪装，属于效果2（未选择效果2）"
    if "2" in effects:
        if not seen:
            return "伪装效果2：须给出伪装（--arg camp=… role=… armed=是|否）"
        camps = [c.name for c in game.manifest.camps]
        if action.args.get("camp") and action.args["camp"] not in camps:
            return f"伪装：表面阵营须为{'、'.join(camps)}之一"
        if action.args.get("role") and action.args["role"] not in game.ruleset.roles:
            return f"伪装：表面身份{action.args['role']}不是本版的身份"
        if action.args.get("armed") and action.args["armed"] not in ("是", "否"):
            return "伪装：表面带刀须为是或否"
    return None


@hookimpl
def bansha_player_view(game, player):
    """> 3，知晓所有和自己[实际阵营]相同角色的马甲名单 — kept up to date in the 隐狼's view."""
    if "3" in player.data.get("m217.伪装", ()):
        return {"同阵营马甲": "、".join(mates(game, player)) or "无"}
    return None
