"""TEST-ONLY stand-in roles for 新日暮里 (M217): never shipped, never dealt by the real manifest.

The board's machinery (the targeting chain's stages, 隐身, 霸道, 迷魂, 寡言, 流血, disguises, camp
changes, acquired skills) has sources among roles of later issues. Each stand-in below plays the part of
that source just enough for a scenario to drive the machinery; its docstring names the real
role. Registered in-process by tests/m217/conftest.py under the plugin name ``m217.standins``
and used by tests/m217/m217-standins.toml.
"""

from bansha import Action, Role, Skill, hookimpl
from bansha_m217_director import ask
from bansha_m217_rules import (
    WOLF,
    acquire,
    change_camp,
    exit_of,
    flip,
    give,
    hit,
    land,
    lose,
    settle,
)

# ------------------------------------------------------------------ the chain's stages


def incite(res, a):
    """Stands in for 阴谋家<煽动> (a role of another board, TEST-ONLY): tonight a ball that
    reaches the first target is kicked on to the second."""
    res.data.setdefault("煽动", {})[a.targets[0]] = a.targets[1]


def incite_stage(res, action, ball):
    return res.data.get("煽动", {}).get(ball, ball)


def time_flow(res, a):
    """Stands in for 噬时狼妃<时间逆流> (a 狼人 of a later issue, TEST-ONLY).
    > 若结算成功，当晚除了实际阵营为[狼人阵营]以外的所有角色对目标角色发动[指定]技能时，那些技能的结算目标全部
    > 改为发动者自己，且不知晓，若成功反弹技能，噬时狼妃会知道所有被反弹的技能名称，然后失去此技能。"""
    res.data.setdefault("时间逆流", {})[a.targets[0]] = a.actor


def time_flow_stage(res, action, ball):
    consort = res.data.get("时间逆流", {}).get(ball)
    if consort is None or res.game.player(action.actor).camp == WOLF:
        return ball
    res.feedback(consort, f"时间逆流反弹了[{action.skill}]。")
    lose(res, consort, "时间逆流")
    return action.actor


def reflect_stage(res, action, ball):
    """Stands in for 镜<反射> (三方, a later issue, TEST-ONLY).
    > 若镜成为[指定]技能的结算目标则触发效果：随机选择一个不持有[反射]技能的角色代替其成为结算目标。
    > 夜间行动结束后触发效果：镜获知当晚所有反射过的操作和对应玩家。（不知来源，可知哪个技能反射给谁）"""
    game = res.game
    if game.phase.name != "night" or "反射" not in game.skills_of(game.player(ball)):
        return ball
    pool = sorted(p.name for p in game.alive() if "反射" not in game.skills_of(p))
    new = res.rng.choice(pool)
    res.feedback(ball, f"反射：[{action.skill}]→{new}")
    return new


# --------------------------------------------------------------------------- statuses


def cloak(res, a):
    """Stands in for 隐者<脱下隐身衣> (弱神, a later issue, TEST-ONLY).
    > 结算效果：结算目标获得[隐身]状态，持续至下一个[黄昏]阶段结束。"""
    give(res, a.targets[0], "隐身", until=f"dusk {res.game.day + 1}", source="脱下隐身衣")


def overbear(res, a):
    """TEST-ONLY source of [霸道] (no role of this document gives it): until the next noon ends."""
    give(res, a.targets[0], "霸道", until=f"noon {res.game.day}", source="霸道")


def sophistry(res, a):
    """Stands in for 狼学者<诡辩> (狼人, a later issue, TEST-ONLY).
    > 若结算目标的[实际身份]与猜测的身份对应，则结算目标永久获得[迷魂]状态…猜测错误则无效果。"""
    t = a.targets[0]
    if res.game.player(t).role == a.args.get("role"):
        give(res, t, "迷魂", source="诡辩")


def taciturn(res, a):
    """TEST-ONLY source of [寡言] (no role of this document gives it): until the next noon ends."""
    give(res, a.targets[0], "寡言", until=f"noon {res.game.day}", source="寡言")


def bleed(res, a):
    """TEST-ONLY source of [流血] (no role of this document gives it): permanent."""
    give(res, a.targets[0], "流血", source="流血")


def garlic(res, player, kill) -> None:
    """Stands in for 大蒜<熏臭> (弱神, a later issue, TEST-ONLY); called when its holder leaves.
    > 熏臭[强制][翻牌]——[触发]：大蒜于出局时，大蒜电梯楼上下两层四人获得持续到下一晚结束的[沉默][缴械][迷魂]
    > 所有电梯楼相关效果都排除当前已出局成员，并且首尾算作相邻或视为邻居。"""
    game = res.game
    if kill.rule == "红牌":
        return
    flip(res, Action(actor=player.name, skill="熏臭"))
    ring = [p.name for p in sorted(game.players.values(), key=lambda p: p.seat) if p.alive or p is player]
    i = ring.index(player.name)
    four = {ring[(i + d) % len(ring)] for d in (-2, -1, 1, 2)} - {player.name}
    # "下一晚": the night after this one, or the night that follows this day
    night = game.day + (0 if game.phase.name == "dusk" else 1)
    for t in sorted(four, key=lambda n: game.player(n).seat):
        for name in ("沉默", "缴械", "迷魂"):
            give(res, t, name, until=f"night {night}", source="熏臭")


# ------------------------------------------------------------------------- disguises


def disguise(res, a):
    """Stands in for 隐狼<伪装> effect 2 (狼人, a later issue, TEST-ONLY).
    > 2，可以设置自己的表面阵营，表面身份，表面带刀伪装。
    ``--arg camp=… role=… armed=是|否``."""
    give(res, a.actor, "伪装", source="伪装", **_seen(a.args))


def remodel(res, a):
    """Stands in for 雪狼's modification of a disguise (a role of another board, named by the
    document's example, TEST-ONLY): the final target's 表面身份 (and 表面阵营) become the given ones.
    > （如：隐狼获取了一个表面身份，又被雪狼修改，因为雪狼的修改发动靠后的缘故，被查验显示的是雪狼修改的身份）"""
    if settle(res, a):
        for t in a.targets:
            give(res, t, "伪装", source="雪狼", **_seen(a.args))


def _seen(args):
    seen = {k: args[k] for k in ("camp", "role") if args.get(k)}
    if args.get("armed"):
        seen["armed"] = args["armed"] == "是"
    return seen


# ------------------------------------------------------------- camps and acquired skills


def follow(res, a):
    """Stands in for 粉丝<追随> (不定, a later issue, TEST-ONLY).
    > 追随[开局]—— 游戏开始前，粉丝需选择一个角色支持，该角色称为偶像，并转入相同阵营"""
    change_camp(res, a.actor, res.game.player(a.targets[0]).camp)


def avenge(res, a):
    """Stands in for 复仇者<雪恨> (不定, a later issue, TEST-ONLY): takes a role's skill, 刷新至初始.
    > 复仇者获得造成仇人出局的那个角色的身份技能并刷新至初始"""
    acquire(res, a.actor, a.args["skill"], res.game.player(a.targets[0]).role)


# ------------------------------------------------------------- the director and 亡语


def heavens(res, a):
    """Stands in for 天师<通天> (弱神, a later issue, TEST-ONLY).
    > 通天[夜晚][限定]——游戏日夜晚，天师可以询问导演任何20字以内，可以用是，否，无法回答三种答案来回复的
    > 问题，导演会在深夜结束后，根据游戏内内容准确反馈[是/否/无法回答]。"""
    ask(res, a)


def revenge(res, a):
    """Stands in for 狼王<报复> (狼人, a later issue, TEST-ONLY).
    > 报复[晨曦][黄昏][指定][亡语][1][迅捷]—— 选择范围：不是因为[特攻]或[暴击]出局时，1人。
    > 结算效果：结算目标承受[暴击]。"""
    if settle(res, a):
        hit(res, a, a.targets[0], "暴击")
    land(res)


def night(name, step, effect, tags=("指定",), **kw):
    return Skill(name=name, phases=("night",), step=step, tags=tags, effect=effect,
                 rule=effect.__doc__ or "", **kw)


ROLES = [
    Role(name="煽动者", camp="三方阵营", skills=(night("煽动", "早夜1", incite, tags=(), targets=2),)),
    Role(name="时妃", camp="狼人阵营", skills=(night("时间逆流", "早夜4", time_flow),)),
    Role(name="镜子", camp="三方阵营", skills=(Skill(name="反射", targets=0, tags=("强制",)),)),
    Role(name="隐者替身", camp="村民阵营", skills=(night("脱下隐身衣", "早夜5", cloak, may_target_self=True),)),
    Role(name="霸主", camp="村民阵营", skills=(night("霸道", "早夜8", overbear, may_target_self=True),)),
    Role(name="学者替身", camp="狼人阵营", skills=(night("诡辩", "深夜14b", sophistry, args={"role": "guess"}),)),
    Role(name="寡言者", camp="村民阵营", skills=(night("寡言", "早夜8", taciturn),)),
    Role(name="放血者", camp="狼人阵营", skills=(night("放血", "早夜8", bleed),)),
    Role(name="大蒜替身", camp="村民阵营", skills=(
        Skill(name="熏臭", targets=0, tags=("强制", "翻牌"), rule=garlic.__doc__),)),
    Role(name="隐狼替身", camp="狼人阵营", skills=(
        Skill(name="伪装", phases=("opening",), step="开局", targets=0, effect=disguise, rule=disguise.__doc__,
              args={"camp": "表面阵营", "role": "表面身份", "armed": "表面带刀: 是|否"}),)),
    Role(name="雪狼替身", camp="狼人阵营", skills=(
        night("修改", "早夜8", remodel, args={"camp": "表面阵营", "role": "表面身份"}),)),
    Role(name="追随者", camp="不定阵营", skills=(
        Skill(name="追随", phases=("opening",), step="开局", effect=follow, rule=follow.__doc__),)),
    Role(name="天师替身", camp="村民阵营", skills=(
        night("通天", "深夜14b", heavens, tags=("限定",), targets=0, uses=1,
              args={"question": "a yes/no question, 20 characters at most"}),)),
    Role(name="狼王替身", camp="狼人阵营", group="狼人", skills=(
        Skill(name="报复", phases=("dawn", "dusk"), immediate=True, while_out=True, uses=1,
              tags=("指定", "亡语", "迅捷"), effect=revenge, rule=revenge.__doc__),)),
    Role(name="复仇替身", camp="不定阵营", skills=(
        night("雪恨", "早夜1", avenge, may_target_dead=True, args={"skill": "the skill taken"}),)),
]


@hookimpl
def bansha_roles():
    return ROLES


@hookimpl
def bansha_step_handlers():
    return {"m217.chain.煽动": incite_stage, "m217.chain.时间逆流": time_flow_stage,
            "m217.chain.反射": reflect_stage}


@hookimpl
def bansha_on_death(res, player, kill):
    if player.role == "大蒜替身":
        garlic(res, player, kill)


@hookimpl
def bansha_validate_action(game, action):
    if action.skill == "通天" and len(action.args.get("question", "")) > 20:
        return "通天: 询问导演任何20字以内的问题"
    if action.skill == "报复":
        gone = exit_of(game, action.actor)
        if gone and gone[2] in ("特攻", "暴击"):
            return "报复: 不是因为[特攻]或[暴击]出局时"
    return None
