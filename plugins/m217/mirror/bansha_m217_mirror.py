"""镜 — 新日暮里 (M217), 三方阵营 ②.

> 反射<强制>——游戏日夜晚，若镜成为[指定]技能的结算目标则触发效果：随机选择一个不持有[反射]技能的角色代替其成为结算目标。夜间行动结束后触发效果：镜获知当晚所有反射过的操作和对应玩家。（不知来源，可知哪个技能反射给谁）
> 镜像[晨曦]<限定> —— 可任意选择一种曾对自身操作过的技能复制，下一个游戏日夜晚开始永久生效。
> 折镜[黄昏][指定]——选择范围：反射有效时，选择任意一名角色。
> 结算效果：发动者暂时失去[反射]技能，结算目标获得[反射]技能，持续至下一个黄昏开始。
> PS：不是反射的技能也可以被复制，在持有镜像时，若一直不使用，可以每天得知都有哪些新技能对镜使用过。
> 通过折镜让其他人反射也计入胜利条件数量，其他人持有反射时，反射了什么技能是其他人而非镜知晓。
> 胜利条件：镜反射来源与自己[实际阵营]不相同的技能数量+镜使用[镜像]获得的技能亲手击杀的数量大于存活人数。

反射 is the stage ``m217.chain.反射`` of the targeting chain (option ``chain``): it sees every
[指定] ball after 煽动, 时间逆流 and 交换. 镜像 is answered when submitted (a 晨曦 skill,
``--arg skill=…``); 折镜 resolves at 黄昏 step (4) ("镜<折射>"). The win is the handler
``m217.win.镜``. Readings: docs/rulings/m217.md (group third).
"""

from bansha import Role, Skill, for_skills, hookimpl
from bansha_m217_helpers import acquire, forced_on, holds, unacquire

ROLE = "镜"
REFLECT = "反射"
LENDING = "m217.折镜"           # on the 镜: {"to": name, "until": "dusk N"} while 反射 is lent
LENT_FROM = "m217.折镜.from"    # on the borrower: the 镜 that lent 反射
COUNTED = "m217.镜.reflected"   # on the 镜: [label, seq] of the skills from another camp reflected
KILLS = "m217.镜.kills"         # on the 镜: kills by the skill copied with 镜像
SEEN = "m217.镜像.seen"          # on the 镜: [skill, role it is copied from ("" : not copyable)]
SEEN_VIEW = "曾对你使用过的技能"  # the view's list of them
COPY = "m217.镜像"               # on the 镜: {"skill": name, "from": [day, phase index]}


def holds_reflect(game, p) -> bool:
    """> 反射<强制> — held by the 镜 (unless lent by 折镜) or by whom it is lent to; a <强制> skill
    works while its holder is in the game and not under 遗忘."""
    if p.data.get(LENDING) or REFLECT not in game.skills_of(p):
        return False
    return forced_on(game, p, REFLECT)


def owner(game, p, skill: str) -> str:
    """The role a skill of ``p`` is copied from; "" for a 临时技能 or 二手技能 (acquired).
    > 获得技能除非另有说明，否则不会获得临时技能和二手技能"""
    if skill in p.acquired:
        return ""
    rs = game.ruleset
    if any(s.name == skill for s in rs.own_skills.get(p.role, ())):
        return p.role
    for role in rs.roles.values():
        if any(s.name == skill and s.group and s.group in p.groups for s in role.skills):
            return role.name
    return ""


def seen(res, action, p) -> None:
    """> PS：不是反射的技能也可以被复制，在持有镜像时，若一直不使用，可以每天得知都有哪些新技能对镜使用过。"""
    # > 在持有镜像时 — whoever holds it
    if not holds(res.game, p, "镜像") or p.uses.get("镜像", 0) <= 0 or action.actor == p.name:
        return
    known = p.data.setdefault(SEEN, [])
    if any(s == action.skill for s, _ in known):
        return
    known.append([action.skill, owner(res.game, res.game.player(action.actor), action.skill)])
    res.feedback(p.name, f"镜像：新技能[{action.skill}]对你使用过。")


def reflect_stage(res, action, ball):
    """> 反射<强制>——游戏日夜晚，若镜成为[指定]技能的结算目标则触发效果：随机选择一个不持有[反射]技能的角色
    > 代替其成为结算目标。"""
    game = res.game
    p = game.player(ball)
    seen(res, action, p)
    if game.phase.name != "night" or not holds_reflect(game, p):
        return ball
    pool = sorted(q.name for q in game.alive() if not holds_reflect(game, q))
    if not pool:
        return ball
    new = res.rng.choice(pool)
    # > 夜间行动结束后触发效果：镜获知当晚所有反射过的操作和对应玩家。（不知来源，可知哪个技能反射给谁）
    # > 其他人持有反射时，反射了什么技能是其他人而非镜知晓。 (told with the night's feedback)
    res.feedback(ball, f"反射：[{action.skill}]→{new}")
    # > 通过折镜让其他人反射也计入胜利条件数量
    mirror = game.players.get(p.data.get(LENT_FROM, p.name), p)
    source = game.player(action.actor)
    done = mirror.data.setdefault(COUNTED, [])
    if source.camp != mirror.camp and [res.label, action.seq] not in done:
        done.append([res.label, action.seq])
    return new


def mirror_image(res, a):
    """> 镜像[晨曦]<限定> —— 可任意选择一种曾对自身操作过的技能复制，下一个游戏日夜晚开始永久生效。"""
    game = res.game
    p = game.player(a.actor)
    skill = a.args["skill"]
    role = next(r for s, r in p.data.get(SEEN, ()) if s == skill)
    acquire(res, a.actor, skill, role)
    night = next(i for i, spec in enumerate(game.cycle) if spec.name == "night")
    p.data[COPY] = {"skill": skill, "from": [game.day + 1, night]}
    res.feedback(a.actor, f"镜像：你复制了[{skill}]，下一个游戏日夜晚开始永久生效。")


def fold(res, a):
    """> 结算效果：发动者暂时失去[反射]技能，结算目标获得[反射]技能，持续至下一个黄昏开始。"""
    game = res.game
    t = a.targets[0]
    if t == a.actor:
        res.trace("折镜", f"{a.actor}把反射借给自己：无变化")
        return
    target = game.player(t)
    game.player(a.actor).data[LENDING] = {"to": t, "until": f"dusk {game.day + 1}"}
    if REFLECT not in game.skills_of(target):
        target.acquired[REFLECT] = ROLE
    target.data[LENT_FROM] = a.actor
    res.trace("折镜", f"{a.actor}把反射借给{t}，直至{game.named(f'dusk {game.day + 1}')}开始")


def win(game):
    """> 胜利条件：镜反射来源与自己[实际阵营]不相同的技能数量+镜使用[镜像]获得的技能亲手击杀的数量大于存活人数。"""
    alive = None  # counted for a 镜 only (asked after every resolution)
    for p in game.players.values():
    # > 实际阵营：…若有效果改变实际阵营，则所属阵营以及胜利方式也会一同改变 — his own condition holds while he is
    # of his own camp (丘比特's 不定 item puts a 三方 lover in 黑情侣阵营, whose condition is 屠城)
        if p.role == ROLE and p.alive and p.camp == MIRROR.camp:
            alive = len(game.alive()) if alive is None else alive
            if len(p.data.get(COUNTED, ())) + p.data.get(KILLS, 0) > alive:
                return [p.camp]
    return None


MIRROR = Role(
    name=ROLE, alias="mirror", camp="三方阵营", rule=__doc__,
    skills=(
        Skill(name=REFLECT, alias="reflect", targets=0, tags=("强制",),
              rule="反射<强制>——游戏日夜晚，若镜成为[指定]技能的结算目标：随机一个不持有[反射]技能的角色代替其成为结算目标；"
                   "夜间行动结束后镜获知当晚所有反射过的操作和对应玩家。"),
        Skill(name="镜像", alias="mirror-image", phases=("dawn",), immediate=True, targets=0, uses=1,
              tags=("限定", "晨曦"), effect=mirror_image,
              args={"skill": "曾对镜发动过的技能（镜像会告知每个新技能）"},
              # > 可任意选择一种曾对自身操作过的技能复制 — what the holder's view lists (bansha_player_view)
              arg_values={"skill": "view:" + SEEN_VIEW},
              rule="镜像[晨曦]<限定>——选择一种曾对自身操作过的技能复制，下一个游戏日夜晚开始永久生效。"),
        Skill(name="折镜", does=("help",), alias="fold", phases=("dusk",), step="黄昏4", may_target_self=True,
              tags=("指定", "黄昏"), effect=fold,
              rule="折镜[黄昏][指定]——反射有效时，任意一名角色：发动者暂时失去[反射]，结算目标获得[反射]，"
                   "持续至下一个黄昏开始。"),
    ),
)


@hookimpl
def bansha_roles():
    return [MIRROR]


@hookimpl
def bansha_step_handlers():
    return {"m217.chain.反射": reflect_stage, "m217.win.镜": win}


@hookimpl
@for_skills("镜像")
def bansha_validate_action(game, action):
    if action.skill == "镜像":
        p = game.player(action.actor)
        skill = action.args.get("skill")
        known = dict(map(tuple, p.data.get(SEEN, ())))
        told = "、".join(known) or "暂无"
        if not skill:
            return f"镜像须给出 --arg skill=…（对{p.name}发动过的技能：{told}）"
        if skill not in known:
            return f"镜像：未曾有人对{p.name}发动“{skill}”（对其发动过的技能：{told}）"
        if not known[skill]:
            return f"镜像：[{skill}]是其发动者的临时技能或二手技能，不能复制"
    return None


@hookimpl
def bansha_skill_unavailable(game, player, skill):
    # > 折镜[黄昏][指定]——选择范围：反射有效时
    if skill.name == "折镜" and not holds_reflect(game, player):
        return f"折镜：{player.name}的反射未生效"
    # > 下一个游戏日夜晚开始永久生效。
    copy = player.data.get(COPY)
    if copy and skill.name == copy["skill"] and list(game.position) < copy["from"]:
        night = f"night {copy['from'][0]}"
        return f"镜像：[{skill.name}]从{game.named(night)}起生效"
    return None


@hookimpl
def bansha_player_view(game, player):
    """> 在持有镜像时，若一直不使用，可以每天得知都有哪些新技能对镜使用过。 — the list so far."""
    if not holds(game, player, "镜像") or player.uses.get("镜像", 0) <= 0:
        return None
    return {SEEN_VIEW: [s for s, _ in player.data.get(SEEN, ())]}


@hookimpl
def bansha_on_death(res, player, kill):
    """> 镜使用[镜像]获得的技能亲手击杀的数量"""
    a = kill.action
    if a is None or not a.acquired:
        return
    mirror = res.game.player(a.actor)
    copy = mirror.data.get(COPY)
    if copy and a.skill == copy["skill"] and kill.by == mirror.name:
        mirror.data[KILLS] = mirror.data.get(KILLS, 0) + 1
        res.trace("镜像", f"{mirror.name}复制的{a.skill}令{player.name}出局")


@hookimpl
def bansha_phase_started(game):
    """> 持续至下一个黄昏开始。 — 折镜's loan ends when the next dusk starts."""
    if game.phase.name != "dusk":
        return
    for p in game.players.values():
        lent = p.data.get(LENDING)
        if lent and lent["until"] == game.label:
            del p.data[LENDING]
            t = game.player(lent["to"])
            if t.data.pop(LENT_FROM, None) is not None and t.acquired.get(REFLECT) == ROLE:
                unacquire(game, t, REFLECT)
