"""赌徒 — 新日暮里 (M217), 三方阵营 ③, and the one-night skills its dice give.

> 身份属性（不是技能）：赌博技能在任何状态下都不会丢失，都可以发动。
> 赌博[早夜] —— 游戏日夜晚，赌徒可以随机获得一个技能，获得的技能均为一次性，仅限当晚有效
> 骰子1，获得出人票加1票（此条可叠加，导演暗记）
> 骰子2，获得<杀人>
> 骰子3，获得<通灵>
> 骰子4，获得 免疫一次出局（永久，可叠加，强制）
> 骰子5，获得<沉默>。
> 骰子6，获得一次[大奖]点数
> 大奖[夜晚][1] —— 游戏日夜晚，赌徒可指定奖池里一个技能，消耗一个点数发动或者获得一次。本技能不限使用次数，有点数可以发动多次，初始有一个点数
> 多个能力可同时使用，获得的技能行动轮次在真身份牌之后。
> 胜利条件：屠城

赌博 rolls at night step (2) with the game's seeded die (``res.rng``, in the ruling trace). The
night is resolved at once, so the targets of what the die may give are sent with 赌博:
``--arg 杀人=X --arg 通灵=Y --arg 沉默=Z``; the skill rolled is given for the night (pseudo-role
骰子, never dealt, through ``player.acquired``) and used on its target at its own step, after the
real role's skill of the same name. 大奖 (step (15), "赌徒<大奖>") spends a point (the kernel's
counted uses) and casts or gains one prize at once: ``--arg prize=…`` (and a target for 杀人,
通灵, 沉默). 赌博 and 大奖 carry the tag 任何状态 of the rules plugin (cast under 沉默 and its
compounds). The win is the handler ``m217.win.赌徒``. Readings: docs/rulings/m217.md (group third).
"""

import bansha_m217_rules as board
import msgspec
from bansha import Action, Role, Skill, for_skills, hookimpl
from bansha_m217_helpers import ANY_STATE, acquire, give, hit, unacquire
from bansha_m217_rules import settle

ROLE, PSEUDO = "赌徒", "骰子"
PRIZES = {1: "出人票", 2: "杀人", 3: "通灵", 4: "免疫", 5: "沉默", 6: "大奖"}
SHOWN = {1: "出人票加1票", 2: "<杀人>", 3: "<通灵>", 4: "免疫一次出局", 5: "<沉默>", 6: "一次[大奖]点数"}
TARGETED = ("杀人", "通灵", "沉默")
TONIGHT = "m217.赌博"  # on the 赌徒: the one-night skills the die gave tonight


def gain(res, a, face: int, *, now: bool) -> None:
    """One prize of the pool. ``now``: cast at once by 大奖; else given for the night by 赌博."""
    game = res.game
    p = game.player(a.actor)
    prize = PRIZES[face]
    if prize == "出人票":
        # > 骰子1，获得出人票加1票（此条可叠加，导演暗记） — option gamble_vote: 永久 | 次日
        until = f"noon {game.day}" if game.option("gamble_vote") == "次日" else None
        give(res, p.name, "出人票", until=until, told=False, source=a.skill, votes=1)
    elif prize == "免疫":
        # > 骰子4，获得 免疫一次出局（永久，可叠加，强制）
        st = p.status("免疫")
        if st is None:
            give(res, p.name, "免疫", count=1, told=False, source=a.skill)
        else:
            st.count = (st.count or 0) + 1
    elif prize == "大奖":
        # > 骰子6，获得一次[大奖]点数
        p.uses["大奖"] = p.uses.get("大奖", 0) + 1
    elif now:
        # > 大奖…消耗一个点数发动 — the prize is cast at once, as a gained skill (after the real card's)
        cast = msgspec.structs.replace(a, acquired=True, skill=prize)
        if prize == "杀人":
            a.result["m217.指杀"] = True  # a [指杀] skill: 女巫<灵通> lists its 选择目标
        if settle(res, cast):
            for t in cast.targets:
                PRIZE_EFFECTS[prize](res, cast, t)
        a.targets = cast.targets
    else:
        # > 获得的技能均为一次性，仅限当晚有效 / 获得的技能行动轮次在真身份牌之后。
        acquire(res, p.name, prize, PSEUDO, temporary=True)
        p.data.setdefault(TONIGHT, []).append(prize)
        target = a.args.get(prize)
        if prize == "杀人" and game.day == 1:
            # > 杀人[夜晚][指定]——选择目标：任意一名角色，第一晚不可使用。
            res.feedback(p.name, "<杀人>第一晚不可使用。")
        elif target:
            game.actions.append(Action(actor=p.name, skill=prize, chosen=[target], targets=[target],
                                       seq=a.seq, acquired=True))
        else:
            res.trace("赌博", f"{p.name}未给出{prize}的目标：该效果不发动")


def gamble(res, a):
    """> 赌博[早夜] —— 游戏日夜晚，赌徒可以随机获得一个技能"""
    face = res.rng.randint(1, 6)
    res.feedback(a.actor, f"赌博：骰子{face}，获得{SHOWN[face]}。")
    gain(res, a, face, now=False)


def jackpot(res, a):
    """> 大奖[夜晚][1] —— 游戏日夜晚，赌徒可指定奖池里一个技能，消耗一个点数发动或者获得一次。"""
    face = prize_face(a.args.get("prize"))
    res.feedback(a.actor, f"大奖：获得{SHOWN[face]}。")
    gain(res, a, face, now=True)


def prize_face(text) -> int | None:
    text = str(text or "")
    if text.isdigit() and int(text) in PRIZES:
        return int(text)
    return next((f for f, name in PRIZES.items() if name == text), None)


def kill(res, a, t):
    # > 骰子2，获得<杀人> — 杀人：对结算目标造成一次[指杀]。
    hit(res, a, t, "指杀", rule="杀人")


def commune(res, a, t):
    # > 骰子3，获得<通灵> — 通灵：反馈结算目标的[表面身份]，反馈格式为[选择目标是XX身份]
    res.game.ruleset.role("通灵师").skill("通灵").effect(res, msgspec.structs.replace(a, targets=[t]))


def silence(res, a, t):
    # > 骰子5，获得<沉默>。 (the skill is not defined: [沉默] until the next 正午 starts, like 冰冻)
    give(res, t, "沉默", until=f"dawn {res.game.day}", source="沉默")


PRIZE_EFFECTS = {"杀人": kill, "通灵": commune, "沉默": silence}


def each(fn):
    def effect(res, a):
        for t in a.targets:
            fn(res, a, t)
    return effect


def win(game):
    """> 胜利条件：屠城 — one of the 赌徒's camp is in the game and every player of another camp is out.
    Those who join his camp share the condition (丘比特: "丘与情侣加入该三方阵营，胜利条件为该三方的胜利条件";
    影子: "拥有和附身对象相同的获胜条件"): alone in his camp, the 赌徒 must be the last one standing."""
    players = list(game.players.values())
    for p in players:
    # > 实际阵营：…若有效果改变实际阵营，则所属阵营以及胜利方式也会一同改变 — his own condition holds while he is
    # of his own camp (丘比特's 不定 item puts a 三方 lover in 黑情侣阵营, whose condition is 屠城)
        if p.role != ROLE or p.camp != GAMBLER.camp:
            continue  # (asked after every resolution: the others' camps are read only for a 赌徒)
        mine = [q for q in players if q.camp == p.camp]
        if any(q.alive for q in mine) and all(not q.alive for q in players if q.camp != p.camp):
            return [p.camp]
    return None


GAMBLER = Role(
    name=ROLE, alias="gambler", camp="三方阵营", rule=__doc__,
    skills=(
        Skill(name="赌博", alias="gamble", phases=("night",), step="早夜2", targets=0, tags=("早夜", ANY_STATE),
              effect=gamble,
              args={"杀人": "骰出<杀人>时的目标", "通灵": "骰出<通灵>时的目标",
                    "沉默": "骰出<沉默>时的目标"},
              # > 骰子2，获得<杀人> / 骰子3，获得<通灵> / 骰子5，获得<沉默>。 — each aimed at a player in the game
              arg_values={"杀人": "alive", "通灵": "alive", "沉默": "alive"},
              rule="赌博[早夜]——随机获得一个一次性、仅限当晚有效的技能：1出人票+1（可叠加）2<杀人> 3<通灵> "
                   "4免疫一次出局（永久，可叠加） 5<沉默> 6一次[大奖]点数。在任何状态下都可以发动。"),
        Skill(name="大奖", alias="jackpot", phases=("night",), step="深夜15b", targets=0, max_targets=1,
              may_target_self=True, uses=1, per_phase=99, tags=(ANY_STATE,), effect=jackpot,
              args={"prize": "出人票 | 杀人 | 通灵 | 免疫 | 沉默 | 大奖（或骰子点数1-6）；杀人/通灵/沉默须指定目标"},
              arg_values={"prize": tuple(PRIZES.values())}, open_args=("prize",),  # (a die's 1-6 too)
              rule="大奖[夜晚][1]——消耗一个点数，指定奖池里一个技能发动或者获得一次；有点数可以发动多次，初始有一个点数。"),
    ),
)
DICE = Role(
    name=PSEUDO, alias="dice", camp=None, rule="赌徒<赌博>的一次性技能，仅限当晚有效。",
    skills=(
        Skill(name="杀人", does=("harm",), alias="gamble-kill", phases=("night",), step="深夜15b", may_target_self=True,
              tags=("指定", "指杀"), effect=each(kill), rule="[赌博] 杀人：对结算目标造成一次[指杀]。"),
        Skill(name="通灵", does=("check",), alias="gamble-commune", phases=("night",), step="深夜14b", may_target_self=True,
              tags=("指定",), effect=each(commune), rule="[赌博] 通灵：反馈结算目标的[表面身份]。"),
        Skill(name="沉默", does=("harm",), alias="gamble-silence", phases=("night",), step="午夜10", priority=110,
              may_target_self=True, tags=("指定",), effect=each(silence),
              rule="[赌博] 沉默：结算目标获得[沉默]，持续至下一个[正午]阶段开始。"),
    ),
)


@hookimpl
def bansha_roles():
    return [GAMBLER, DICE]


@hookimpl
def bansha_step_handlers():
    return {"m217.win.赌徒": win}


@hookimpl
@for_skills("赌博", "大奖")
def bansha_validate_action(game, action):
    if action.skill == "赌博":
        for key, name in action.args.items():
            if key not in TARGETED:
                return f"赌博：--arg {key}=… 不是需要目标的奖项（杀人、通灵、沉默）"
            t = game.players.get(str(name))
            if t is None or not t.alive:
                return f"赌博：{key}的目标须为场上角色，而不是“{name}”"
    if action.skill == "大奖":
        face = prize_face(action.args.get("prize"))
        if face is None:
            return "大奖须给出 --arg prize=出人票|杀人|通灵|免疫|沉默|大奖"
        if (PRIZES[face] in TARGETED) != bool(action.chosen):
            return f"大奖：{PRIZES[face]}{'须指定1个目标' if PRIZES[face] in TARGETED else '不指定目标'}"
    return None


@hookimpl
def bansha_stop_kill(res, kill):
    """> 骰子4，获得 免疫一次出局（永久，可叠加，强制） — spent on the first exit nothing else stops
    (the board's stoppers are asked first, so a 守护 is spent before it)."""
    p = res.game.player(kill.target)
    st = p.status("免疫")
    if st is None or not st.count:
        return None
    first = board.bansha_stop_kill(res=res, kill=kill)
    if first:
        return first
    st.count -= 1
    if st.count <= 0:
        p.statuses.remove(st)
    return f"免疫（{st.source}），剩余{st.count}次"


@hookimpl
def bansha_vote_immune(res, player):
    """> 免疫一次出局 — the vote is an exit too: 平安日, as under 霸道/不死."""
    st = player.status("免疫")
    if st is None or not st.count:
        return None
    if board.bansha_vote_immune(res=res, player=player):
        return board.bansha_vote_immune(res=res, player=player)  # 霸道/不死 first: 免疫 is not spent
    st.count -= 1
    if st.count <= 0:
        player.statuses.remove(st)
    res.trace("免疫", f"{player.name}未被票出：免疫，剩余{st.count}次")
    return "今日平安日。"


@hookimpl
def bansha_phase_started(game):
    """> 获得的技能均为一次性，仅限当晚有效 — the night's gains are gone when the night is over."""
    for p in game.players.values():
        for name in p.data.pop(TONIGHT, ()):
            if p.acquired.get(name) == PSEUDO:
                unacquire(game, p, name)
