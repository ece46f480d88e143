"""复仇者 — 新日暮里 (M217), 不定阵营.

> 4、复仇者
> 寻仇<强制> —— 存在第一个对你进行如下操作的角色时触发效果：其将变为你的仇人，你得知仇人是谁，并加入仇人对立的
> 阵营并跟随变动（若为三方或不定，则从狼或好人随机选一），并获得仅针对仇人的[不死]状态，且如果仇人当天放逐票投给了
> 你，这个[不死]状态也能对最高票投票出局有效，但不得知加入了什么阵营。
> 1，第一个对你投出人票且有效的。
> 2，第一个对你使用[非开局]的[指定]技能的。
> 雪恨<强制> —— 仇人出局时触发效果：复仇者获得造成仇人出局的那个角色的身份技能并刷新至初始，若仇人是被公投出局或
> 因为无来源伤害出局，复仇者获得仇人的身份技能并刷新至初始。

Both skills are triggers (no action). 寻仇's second case is the handler ``m217.targeted.复仇者``
(called by the rules' ``settle`` for every [指定] action), its first case the vote count
(``bansha_adjust_ballots``); the [不死] is a status ``only_from`` the enemy's seat (the rules'
``bansha_stop_kill``), and ``bansha_vote_immune`` here answers the top vote. Readings:
docs/rulings/m217.md (group undecided).
"""

from bansha import Role, Skill, for_skills, hookimpl
from bansha_m217_helpers import acquire, follow, forced_on, give, holders, identity, vote_cancelled

NAME = "复仇者"


def avengers(game, skill: str = "寻仇"):
    """Whoever holds ``skill`` (a 影子 of a 复仇者 too: "你" is the skill's holder), in or out of the game."""
    return holders(game, skill, alive=False)


def enemy_of(game, p):
    seat = p.data.get("复仇者.enemy")
    return next((q for q in game.players.values() if q.seat == seat), None) if seat else None


def hunting(game, p) -> bool:
    """> 存在第一个对你进行如下操作的角色时触发效果 — only the first: no enemy yet, 寻仇 working."""
    return not p.data.get("复仇者.enemy") and forced_on(game, p, "寻仇")


def swear(res, p, enemy: str, how: str) -> None:
    game = res.game
    e = game.player(enemy)
    # > 其将变为你的仇人，你得知仇人是谁
    p.data["复仇者.enemy"] = e.seat
    res.trace("寻仇", f"{enemy}成为{p.name}的仇人（{how}）")
    res.feedback(p.name, f"寻仇：{enemy}成为了你的仇人，你获得了仅针对仇人的[不死]状态。")
    # > 并获得仅针对仇人的[不死]状态 (lost with 寻仇, a <强制> skill)
    st = give(res, p.name, "不死", source="寻仇", forced="寻仇", told=False, only_from=e.seat)
    # told by the line above (not by give's own line): his view lists it among his statuses
    st.told = True
    # > 并加入仇人对立的阵营并跟随变动（若为三方或不定，则从狼或好人随机选一）…但不得知加入了什么阵营。
    follow(res, p.name, enemy, skill="寻仇", mode="opposite", told=False)


def targeted(res, action) -> None:
    """Handler ``m217.targeted.复仇者``. > 2，第一个对你使用[非开局]的[指定]技能的。
    Reading: the 选择目标 counts (who chose him used the skill on him), whoever sent it (a 群内
    skill: the member who sent it); not oneself."""
    game = res.game
    skill = game.skills_of(game.player(action.actor)).get(action.skill, (None, False))[0]
    if skill is None or "指定" not in skill.tags or "opening" in skill.phases or game.phase.opening:
        return
    for name in action.chosen:
        p = game.player(name)
        if name != action.actor and hunting(game, p):
            swear(res, p, action.actor, action.skill)


def counted(game, voter: str):
    """The voter's ballot of this noon that counts: the last one, if the voter is in the game."""
    mine = [b for b in game.ballots if b.voter == voter]
    return mine[-1] if mine and game.player(voter).alive else None


@hookimpl
def bansha_adjust_ballots(res, ballots):
    """> 1，第一个对你投出人票且有效的。 Reading: among the ballots that count when noon closes (each
    voter's last, not voided, the day's vote not cancelled), the earliest posted that names him;
    a ballot under 迷魂 counts 0 but is valid ("依然可以触发投票相关技能")."""
    game = res.game
    if vote_cancelled(game):
        return
    for p in avengers(game):
        if not hunting(game, p):
            continue
        mine = sorted((b for b in ballots if b.target == p.name and b.voter != p.name and not b.void),
                      key=lambda b: b.seq)
        if mine:
            swear(res, p, mine[0].voter, "投票")


@hookimpl
def bansha_vote_immune(res, player):
    """> 且如果仇人当天放逐票投给了你，这个[不死]状态也能对最高票投票出局有效"""
    game = res.game
    if not forced_on(game, player, "寻仇"):
        return None
    e = enemy_of(game, player)
    b = counted(game, e.name) if e is not None else None
    if b is not None and b.target == player.name:
        res.trace("寻仇", f"{e.name}投票给{player.name}：[不死]对最高票生效")
        return "今日平安日。"
    return None


@hookimpl
@for_skills("雪恨")  # called only in a game where a player holds it
def bansha_on_death(res, player, kill):
    """> 雪恨<强制> —— 仇人出局时触发效果：复仇者获得造成仇人出局的那个角色的身份技能并刷新至初始，若仇人是被公投
    > 出局或因为无来源伤害出局，复仇者获得仇人的身份技能并刷新至初始。
    Reading: "身份技能" are the skills of the 实际身份's card (never acquired or 群内 ones); the one
    who caused the exit is the kill's source; a red card has no source."""
    game = res.game
    for p in avengers(game, "雪恨"):
        if enemy_of(game, p) is not player or not forced_on(game, p, "雪恨"):
            continue
        source = player if kill.kind == "vote" or kill.by not in game.players else game.player(kill.by)
        # > 身份更换 … 4：获取技能的角色获取到该角色身份时，获取的是最后更换出来的身份技能 (a 双面人: the card on top)
        card = identity(game, source)
        role = game.ruleset.role(card) if card else None
        own = set(game.skills_of(p))  # what he holds already (his card's, or acquired before)
        gained = [s.name for s in role.skills if s.name not in own] if role else []
        for s in gained:
            # > 并刷新至初始: an [开局] skill among them may be used in the phase it is gained
            acquire(res, p.name, s, role.name, refreshed=True)
        res.feedback(p.name, f"雪恨：仇人{player.name}出局，你获得了技能"
                     + ("".join(f"[{s}]" for s in gained) or "（无）") + "，刷新至初始。")


AVENGER = Role(
    name=NAME, alias="avenger", camp="不定阵营", rule=__doc__,
    skills=(
        Skill(name="寻仇", alias="feud", targets=0, tags=("强制",),
              rule="寻仇<强制> —— 第一个对你投出有效人票或对你使用[非开局]的[指定]技能的角色变为你的仇人：你得知仇人是谁，"
                   "加入仇人对立的阵营并跟随变动（三方或不定：从狼或好人随机选一），获得仅针对仇人的[不死]状态（仇人当天放逐票"
                   "投给了你时也对最高票投票出局有效），但不得知加入了什么阵营。"),
        Skill(name="雪恨", alias="vengeance", targets=0, tags=("强制",),
              rule="雪恨<强制> —— 仇人出局时：获得造成仇人出局的那个角色的身份技能并刷新至初始；仇人被公投出局或因为无来源伤害"
                   "出局时，获得仇人的身份技能并刷新至初始。"),
    ),
)


@hookimpl
def bansha_roles():
    return [AVENGER]


@hookimpl
def bansha_step_handlers():
    return {"m217.targeted.复仇者": targeted}


@hookimpl
def bansha_player_view(game, player):
    if enemy_of(game, player) is not None:
        return {"仇人": enemy_of(game, player).name}
    return None
