"""范海辛 — 新日暮里 (M217), 强神 ⑧.

> 寻踪[夜晚]——若没有寻踪目标或寻踪反馈为[存活]的身份已出局，范海辛会得知可以发动此技能，可以询问一个[狼人阵营]
> 的身份是否存活，并反馈[该身份存活情况]，如果这个反馈为[没有存活]，范海辛可以立刻再次发动此技能。
> PS:不存在的身份也会反馈[没有存活]
> 追猎[夜晚][指定]——选择范围：任意一名角色。
> 结算效果：若结算目标的[实际身份]是[寻踪]得知的身份，则范海辛对其造成[穿透]，同时范海辛获得反馈[追猎成功]，否则无反馈。

寻踪 takes ``--arg role=<identity>``; several 寻踪 may be sent in one night, answered in order until
one is 存活 (the rest are void): "如果这个反馈为[没有存活]，范海辛可以立刻再次发动此技能".
"""

from bansha import Role, Skill, for_skills, hookimpl
from bansha_m217_helpers import hit

WOLF_ROLES = ("狼王", "恐怖分子", "狼兄", "噬时狼妃", "蛊医", "恶灵骑士", "狼弟", "狼巫", "隐狼", "撑杆僵尸",
              "幼狼", "幽灵", "狼学者", "黑蝙蝠", "狼鸦之爪", "石像鬼")


def trace_role(res, a):
    me = res.game.player(a.actor)
    if _hunting(res.game, me):
        res.void(a, "今晚寻踪已找到一个存活的身份", rule="寻踪")
        return
    role = a.args["role"]
    alive = any(p.alive and p.role == role for p in res.game.players.values())
    # > 并反馈[该身份存活情况] / PS:不存在的身份也会反馈[没有存活]
    res.feedback(a.actor, f"寻踪：{role}{'存活' if alive else '没有存活'}")
    if alive:
        me.data["寻踪.role"] = role


def _hunting(game, me) -> bool:
    role = me.data.get("寻踪.role")
    return bool(role) and any(p.alive and p.role == role for p in game.players.values())


def chase(res, a):
    role = res.game.player(a.actor).data.get("寻踪.role")
    for t in a.targets:
        # > 若结算目标的[实际身份]是[寻踪]得知的身份，则范海辛对其造成[穿透]，同时范海辛获得反馈[追猎成功]，否则无反馈。
        if role and res.game.player(t).role == role:
            hit(res, a, t, "穿透")
            res.feedback(a.actor, "追猎成功")


VAN_HELSING = Role(
    name="范海辛", alias="van-helsing", camp="村民阵营", rule=__doc__,
    skills=(
        Skill(name="寻踪", alias="trace", phases=("night",), step="早夜2", targets=0, per_phase=16,
              args={"role": "一个狼人阵营身份"}, effect=trace_role,
              arg_values={"role": WOLF_ROLES},
              rule="寻踪[夜晚]——询问一个[狼人阵营]的身份是否存活；[没有存活]时可以立刻再次发动。"),
        Skill(name="追猎", does=("harm",), alias="chase", phases=("night",), step="深夜15b", may_target_self=True,
              tags=("指定",), effect=chase,
              rule="追猎[夜晚][指定]——结算目标的[实际身份]是[寻踪]得知的身份时，对其造成[穿透]并反馈[追猎成功]。"),
    ),
)


@hookimpl
def bansha_roles():
    return [VAN_HELSING]


@hookimpl
@for_skills("寻踪")
def bansha_validate_action(game, action):
    if action.skill != "寻踪":
        return None
    role = action.args.get("role")
    if role not in WOLF_ROLES:
        return f"寻踪须询问一个狼人阵营身份（--arg role=…），而不是“{role}”"
    return None


@hookimpl
def bansha_skill_unavailable(game, player, skill):
    # > 若没有寻踪目标或寻踪反馈为[存活]的身份已出局，范海辛会得知可以发动此技能
    if skill.name == "寻踪" and _hunting(game, player):
        return f"{player.name}寻踪的身份仍然存活：寻踪无法发动"
    return None
