"""暗恋者 — 新日暮里 (M217), 不定阵营.

> 3、暗恋者
> 跨越千里[强制]——游戏开局触发此效果：距离你电梯楼最远的角色为你的暗恋对象[若有2人，则暗恋者在最远的两人中
> 二选一]，你加入暗恋对象所在的阵营并跟随变动。
> 开局电梯楼中，以你和暗恋对象为两端，其中任何一边的角色全部出局或离开游戏时触发此效果：你所在的阵营直接获胜。
> 情书[正午]——在前2个正午阶段，可以发动此技能，发动后，[跨越千里]的直接获胜效果失效，然后你和主人在当天正午
> 任何时候互相发送一条不超过50字的信息，并可以在之后的每个正午阶段都互相发送一次。

跨越千里 is triggered in the opening's step 开局 (handler ``m217.at.开局.暗恋者``); the 暗恋者 sends
the skill only to choose between two players at equal distance. The win is the handler
``m217.win.暗恋者``. 情书 is an immediate noon skill (``--arg text=…``); its first use gives the
暗恋对象 (主人) the skill 回信 of the pseudo-role 情书对象 (never dealt). Readings:
docs/rulings/m217.md (group undecided).
"""

from bansha import Role, Skill, for_skills, hookimpl
from bansha_m217_helpers import acquire, follow, forced_on, holds

NAME = "暗恋者"
PSEUDO = "情书对象"
LIMIT = 50


def ring(game):
    """> 电梯楼 — the seats in order; at the opening every player is in the game."""
    return sorted(game.players.values(), key=lambda p: p.seat)


def farthest(game, p) -> list[str]:
    """> 距离你电梯楼最远的角色为你的暗恋对象[若有2人，则暗恋者在最远的两人中二选一]"""
    seats = [q for q in ring(game) if q.alive]
    n, i = len(seats), seats.index(p)
    far = n // 2
    return [q.name for k, q in enumerate(seats) if min(abs(k - i), n - abs(k - i)) == far and q is not p]


def by_seat(game, seat):
    return next((q for q in game.players.values() if q.seat == seat), None)


def beloved_of(game, p):
    return by_seat(game, p.data.get("暗恋者.beloved"))


def fall(res) -> None:
    """Handler ``m217.at.开局.暗恋者``: 跨越千里 at the opening, before the step's skills."""
    game = res.game
    for p in ring(game):
        # whoever holds 跨越千里 ("你" is its holder)
        if not forced_on(game, p, "跨越千里") or p.data.get("暗恋者.beloved"):
            continue
        far = farthest(game, p)
        chosen = [a.targets[0] for a in res.of("跨越千里") if a.actor == p.name and a.void is None]
        if chosen:
            name = chosen[-1]
        elif len(far) == 1:
            name = far[0]
        else:
            # reading: the 暗恋者 who did not choose between the two gets one drawn by the seeded rng
            name = res.rng.choice(far)
            res.feedback(p.name, f"跨越千里：最远的两人为{'、'.join(far)}，你没有选择，随机选定。")
        b = game.player(name)
        # > 开局电梯楼中，以你和暗恋对象为两端 — the two sides of the opening ring, by seat
        seats = [q.seat for q in ring(game)]
        i, j = sorted((seats.index(p.seat), seats.index(b.seat)))
        p.data["暗恋者.beloved"] = b.seat
        p.data["暗恋者.sides"] = [seats[i + 1:j], seats[j + 1:] + seats[:i]]
        res.feedback(p.name, f"跨越千里：你的暗恋对象是{name}。")
        # > 你加入暗恋对象所在的阵营并跟随变动。
        follow(res, p.name, name, skill="跨越千里")


def win(game) -> list[str]:
    """Handler ``m217.win.暗恋者``.

    > 开局电梯楼中，以你和暗恋对象为两端，其中任何一边的角色全部出局或离开游戏时触发此效果：你所在的阵营直接获胜。
    A side with nobody on it never triggers (reading); the effect works while 跨越千里 does (a
    <强制> skill: the 暗恋者 in the game and not under 遗忘) and 情书 was not sent."""
    camps: list[str] = []
    if not any(p.data.get("暗恋者.sides") for p in game.players.values()):
        return camps  # no 暗恋者 has chosen (asked after every resolution)
    for p in ring(game):
        sides = p.data.get("暗恋者.sides")
        if not sides or p.data.get("暗恋者.letter") or not forced_on(game, p, "跨越千里"):
            continue
        if any(side and not any(by_seat(game, s).alive for s in side) for side in sides):
            if p.camp not in camps:
                camps.append(p.camp)
    return camps


def letter(res, a):
    game = res.game
    p = game.player(a.actor)
    b = beloved_of(game, p)
    if not p.data.get("暗恋者.letter"):
        # > 发动后，[跨越千里]的直接获胜效果失效
        p.data["暗恋者.letter"] = True
        res.feedback(p.name, "情书：[跨越千里]的直接获胜效果失效。")
        # > 然后你和主人在当天正午任何时候互相发送一条…信息 — 主人 (the 暗恋对象) may answer with 回信
        acquire(res, b.name, "回信", PSEUDO)
        b.data.setdefault("暗恋者.admirers", []).append(p.seat)
        res.feedback(b.name, "你收到了情书，可以在每个正午回信一次（回信，不超过50字）。")
    # > 互相发送一条不超过50字的信息，并可以在之后的每个正午阶段都互相发送一次。
    res.feedback(b.name, f"情书：{a.args['text']}")


def reply(res, a):
    game = res.game
    for seat in game.player(a.actor).data.get("暗恋者.admirers", ()):
        res.feedback(by_seat(game, seat).name, f"回信：{a.args['text']}")


TEXT = {"text": f"内容，不超过{LIMIT}字"}
# > 你和主人在当天正午任何时候互相发送一条不超过50字的信息 — what a simulated player writes (it does not
# talk: a line naming nobody, so no reader takes it for a claim about a player)
LETTERS = {"text": ("我是好人。", "我会站在你这边。", "今天请和我投同一个人。")}

ADMIRER = Role(
    name=NAME, alias="secret-admirer", camp="不定阵营", rule=__doc__,
    skills=(
        Skill(name="跨越千里", alias="across", phases=("opening",), step="开局", tags=("强制",),
              rule="跨越千里[强制]——游戏开局触发此效果：距离你电梯楼最远的角色为你的暗恋对象[若有2人，则暗恋者在最远的两人中"
                   "二选一]，你加入暗恋对象所在的阵营并跟随变动。开局电梯楼中，以你和暗恋对象为两端，其中任何一边的角色全部"
                   "出局或离开游戏时触发此效果：你所在的阵营直接获胜。（仅在两人距离相同、须二选一时发动）"),
        Skill(name="情书", alias="love-letter", phases=("noon",), immediate=True, targets=0, args=TEXT, effect=letter,
              arg_values=LETTERS, open_args=("text",),
              rule="情书[正午]——在前2个正午阶段，可以发动此技能，发动后，[跨越千里]的直接获胜效果失效，然后你和主人在当天"
                   "正午任何时候互相发送一条不超过50字的信息，并可以在之后的每个正午阶段都互相发送一次。"),
    ),
)
REPLY = Role(
    name=PSEUDO, alias="letter-reply", camp=None, rule="暗恋者<情书>的对象：每个正午回信一次。",
    skills=(Skill(name="回信", alias="reply", phases=("noon",), immediate=True, targets=0, args=TEXT, effect=reply,
                  arg_values=LETTERS, open_args=("text",),
                  rule="暗恋者<情书>：你和主人…互相发送一条不超过50字的信息，并可以在之后的每个正午阶段都互相发送一次。"),),
)


@hookimpl
def bansha_roles():
    return [ADMIRER, REPLY]


@hookimpl
def bansha_step_handlers():
    return {"m217.at.开局.暗恋者": fall, "m217.win.暗恋者": win}


@hookimpl
def bansha_skill_unavailable(game, player, skill):
    if skill.name == "跨越千里":
        far = farthest(game, player)
        if len(far) < 2:
            return f"跨越千里：距离最远的角色只有{'、'.join(far)}，无需选择（若有2人…二选一）"
    if skill.name == "情书" and not player.data.get("暗恋者.letter") and game.day > 2:
        return "情书须在前2个正午首次发动（在前2个正午阶段，可以发动此技能）"
    return None


@hookimpl
@for_skills("跨越千里", "情书", "回信")
def bansha_validate_action(game, action):
    p = game.player(action.actor)
    if action.skill == "跨越千里":
        far = farthest(game, p)
        if action.chosen and action.chosen[0] not in far:
            return f"跨越千里：须在距离最远的两人{'、'.join(far)}中选择一人"
    if action.skill in ("情书", "回信"):
        text = action.args.get("text", "")
        if not text or len(text) > LIMIT:
            return f"{action.skill}：须给出1至{LIMIT}字的 --arg text=…（不超过50字）"
    if action.skill == "情书":
        b = beloved_of(game, p)
        if b is None or not b.alive:
            return "情书：暗恋对象已离开游戏"
    if action.skill == "回信" and not any(by_seat(game, s).alive for s in p.data.get("暗恋者.admirers", ())):
        return "回信：暗恋者已离开游戏"
    return None


@hookimpl
def bansha_player_view(game, player):
    if not holds(game, player, "跨越千里"):
        return None
    b = beloved_of(game, player)
    if b is not None:
        return {"暗恋对象": b.name}
    if game.phase.opening:
        return {"最远的角色": "、".join(farthest(game, player))}
    return None
