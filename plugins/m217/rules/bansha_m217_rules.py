"""新日暮里 (M217) — the board's machinery, quoted from 用语定义 … 游戏流程.

Role plugins of the board import the machinery from ``bansha_m217_helpers`` (``give``,
``has``, ``hit``, ``flip``, ``lose``, ``surface`` …) and the chain's helpers from here
(``settle``, ``land``). Step handlers named by the manifest:

- ``m217.chain``  — on every step where skills resolve: casting blocks gained earlier in the
  night, the targeting chain (踢球) and 隐身;
- ``m217.deaths`` — step (20): orders the night's kills and lands them;
- ``m217.tie``, ``m217.yellow``, ``m217.dusk-lists`` — the vote's tie, the yellow card, the
  dusk announcement.

The director's rulings (答复, 无效票, 红牌, 替补, 加速) are in ``bansha_m217_director`` and the
limits of vote changes and proxy votes in ``bansha_m217_votes`` (entry points ``m217.director``
and ``m217.votes``, both named by the manifest's ``rules``).

Chain stages are handlers too: a role that transforms targets provides
``m217.chain.<stage>(res, action, ball) -> ball`` and the manifest option ``chain`` orders them
(时间逆流: 噬时狼妃, 交换: 魔术师, 反射: 镜; a stage no plugin provides, 阴谋家's 煽动, is skipped).
The other handlers a role plugin may provide, each called where its helper documents it:
``m217.at.<step>.<role>`` and ``m217.cast.<skill>`` (``chain``), ``m217.shield.<role>`` and
``m217.targeted.<role>`` (``settle``), ``m217.camp.<role>`` and ``m217.follow.<role>``
(``change_camp``, ``follow``), ``m217.night-end.<role>`` (after step (20)), ``m217.win.<role>``
(the win check) and ``m217.refresh.<skill>`` (圣水's 刷新至初始).
"""

from __future__ import annotations

from typing import Any

from bansha import Status, hookimpl
from bansha.engine.builtins import resolve_deaths
from bansha_m217_helpers import (
    ANY_STATE,
    CANCELLED,
    DARK_LOVERS,
    FATAL,
    OPENING,
    VILLAGE,
    WOLF,
    active,
    board_tables,
    ends,
    exit_of,
    expiry,
    following,
    has,
    holds,
    judged_camp,
    parts,
    phase_zh,
    shown,
    skill_of,
    standing,
    step_index,
    vote_cancelled,
    window,
)


def deaths(res) -> None:
    """> （20）每次出局效果依次结算：狼人<杀人>、…、女巫毒药、…
    > 若存在多个同名技能，则真身份牌的优先，…结算同名的出局顺序也是如此
    Kills of a rule the order does not name come after, in the order queued. A kill may be
    placed by its skill (幼狼<牺牲>: "可以选择[牺牲]在出局效果结算步骤中的哪个步骤结算"):
    ``res.data["m217.place"][(rule, target)]`` names the rule of the order it lands right after
    ("" : before every listed rule)."""
    order = res.game.option("death_order") or []
    placed = res.data.get("m217.place", {})

    def key(k):
        rank: float = order.index(k.rule) if k.rule in order else len(order)
        after = placed.get((k.rule, k.target))
        if after is not None:
            rank = order.index(after) + 0.5 if after in order else -0.5
        return (rank, bool(k.action and k.action.acquired))

    res.kills.sort(key=key)
    # > [致死伤害]：除了[不死]状态，其他情况下承受[致死伤害]将会立刻出局。
    # > （20）每次出局效果依次结算… / 公示出局名单时按角色出局的顺序排序。
    # A 致死伤害 that an exit triggers (粉丝, 殉情, 摄梦, 九尾 …) lands right after that exit, before
    # the kills queued after it: one exit's effects are settled before the next exit.
    resolve_deaths(res, at_once=lambda k: k.kind == FATAL)
    if res.game.phase.name == "night" and res.step == res.game.phase.steps[-1].name:
        # a role that reports on the whole night (幽灵<附体>: its target's actions and feedback) provides
        # ``m217.night-end.<role>(res)``, run once the night's deaths have landed, in name order
        handlers = res.game.ruleset.handlers
        for name, _ in res.game.ruleset.handlers_under("m217.night-end."):
            handlers[name](res)


land = deaths  # immediate (noon) skills land their kills at once


def from_(game, st: Status, kill) -> bool:
    """A status ``only_from`` one seat (复仇者's [不死] "仅针对仇人") stops only that player's kills:
    those whose source is that player, or that come from an action that player sent."""
    only = st.data.get("only_from")
    if not only:
        return True
    names = {kill.by, kill.action.actor if kill.action is not None else None}
    return any(q.seat == only for n in names if n in game.players for q in (game.players[n],))


@hookimpl
def bansha_stop_kill(res, kill):
    """> [指杀]：通常的出局方式，会被大多数技能抵消  [穿透]：强化的出局方式，无视[守护]
    > [致死伤害]：除了[不死]状态，其他情况下承受[致死伤害]将会立刻出局。
    > [守护：X]：该状态下，将会抵消掉X次[指杀]，会优先消耗掉时限较短的[守护]状态以抵消。
    > [坚韧]：该状态下，除了红牌罚下，[致死伤害]和投票出局，其他情况下都不会出局。
    > [不死]：除了红牌罚下，其他情况下都不会出局。"""
    game = res.game
    # > [不死]：除了红牌罚下，其他情况下都不会出局。 — whatever the kind (暴击 and 特攻 included, whatever
    # option ``kill_stoppers`` lists): only a red card (a ruling, which never asks this hook) passes it
    stoppers = ["不死", *(n for n in (game.option("kill_stoppers") or {}).get(kill.kind) or () if n != "不死")]
    p = game.player(kill.target)
    src = game.players.get(kill.by)
    for name in stoppers:
        if name == "守护":
            continue
        for st in active(p):
            only = st.data.get("only_from_camp")
            if st.name == name and (not only or (src is not None and src.camp == only)) and from_(game, st, kill):
                return f"{name} ({st.source or 'status'})"
    if "守护" in stoppers:
        guards = sorted((s for s in active(p) if s.name == "守护" and (s.count is None or s.count > 0)),
                        key=lambda s: expiry(game, s))
        if guards:
            g = guards[0]
            if g.count is not None:
                g.count -= 1
                if g.count <= 0:
                    p.statuses.remove(g)
                    p.data.setdefault("m217.spent", []).append(g.source)
            return f"守护（{g.source}），剩余{shown('守护', g.count)}"
    return None


@hookimpl
def bansha_on_death(res, player, kill):
    """> 角色出局时将收到通知。
    > 只有首夜出局和白天出局的角色有遗言。可以留下遗言的角色会收到可以留下遗言的通知
    > 红牌罚下出局的角色没有遗言权利"""
    game = res.game
    night = game.phase.name == "night"
    # > 无法回溯白天技能造成的影响 — a death caused by a skill in a day phase is marked so
    by_day_skill = kill.action is not None and not night
    game.data.setdefault("m217.exits", []).append([res.label, player.name, kill.kind, kill.rule, by_day_skill])
    res.feedback(player.name, "你已出局。")
    if player.data.get("m217.red"):
        return  # > 红牌罚下出局的角色没有遗言权利 (a card waiting for the vote too)
    if kill.kind != "ruling" and kill.last_words and (not night or game.day == 1):
        res.feedback(player.name, "你可以留下遗言（遗言中禁止使用Discuz!代码）。")


# ----------------------------------------------------------------- the targeting chain


def kick(res, action) -> None:
    """> 从[选择目标]过度到[结算目标]按照下列顺序过度：[选择目标]——阴谋家[煽动]——蚀时狼妃
    > [时间逆流]——镜[反射]——最终会进行结算效果的所有目标
    > 过度方式类似于踢球制，…然后再检测球当前所在的A有没有魔术技能（不会再次检测狼妃），以此类推。"""
    game = res.game
    final = []
    for ball in action.targets:
        for stage in game.option("chain") or []:
            fn = game.ruleset.handlers.get(f"m217.chain.{stage}")
            if fn is None:
                continue
            new = fn(res, action, ball)
            if new != ball:
                res.trace(stage, f"{action.actor}的{action.skill}：球从{ball}传到{new}")
                ball = new
        final.append(ball)
    if final != action.targets:
        res.redirect(action, final, rule="踢球")


def settle(res, action) -> bool:
    """Chosen targets → final targets; False when nothing is left to resolve.

    > [隐身]：该状态下，所有[指定]技能以该角色进行[最终结算目标]的效果，不进行结算。

    Once per action and resolution: the step handler ``m217.chain`` settles every [指定] action of
    its step before the effects run, and an effect that calls ``settle`` again (乌鸦<诽谤>, 潜行者
    <潜行> …) gets the same answer, the ball not kicked a second time (a swap would send it back)."""
    game = res.game
    settled = res.data.setdefault("m217.settled", [])  # the actions themselves: compared by identity
    if any(a is action for a in settled):
        return not action.void and bool(action.targets)
    settled.append(action)
    # a role triggered by being chosen as a target ("对你使用…[指定]技能", 复仇者<寻仇>) provides
    # ``m217.targeted.<role>(res, action)``, called once per action, before the chain moves the ball
    if not action.result.get("m217.targeted"):
        action.result["m217.targeted"] = True
        for name, _ in game.ruleset.handlers_under("m217.targeted."):
            game.ruleset.handlers[name](res, action)
    kick(res, action)
    skill = game.skills_of(game.player(action.actor)).get(action.skill, (None, False))[0]
    if skill is not None and not skill.may_target_dead:
        # a target who left the game after the skill was sent (shot at 黄昏 before the dusk's list
        # announced it: the skill was accepted, "已经公示的出局角色不允许被选为技能…的目标") is not settled
        alive = [t for t in action.targets if game.player(t).alive]
        if alive != action.targets:
            if not alive:
                res.void(action, "其最终目标已出局", rule="出局")
                return False
            res.redirect(action, alive, rule="出局")
    kept = [t for t in action.targets if not has(game.player(t), "隐身")]
    rule = "隐身"
    # a role that makes some skills void on some final targets tonight (撑杆僵尸<跳跃>) provides
    # ``m217.shield.<role>(res, action, target) -> bool``: such a target is dropped as under 隐身
    for name, _ in game.ruleset.handlers_under("m217.shield."):
        shielded = [t for t in kept if not game.ruleset.handlers[name](res, action, t)]
        if shielded != kept:
            kept, rule = shielded, name.removeprefix("m217.shield.")
    if kept != action.targets:
        if not kept:
            res.void(action, f"其最终目标处于{rule}之下", rule=rule)
            return False
        res.redirect(action, kept, rule=rule)
    return True


def gained_before(res, p, effect: str, idx: int) -> Status | None:
    for st in active(p):
        g = st.data.get("gained")
        if effect in parts(st.name) and (not g or g[0] != res.label or g[1] < idx):
            return st
    return None


def chain(res) -> None:
    """Before a step's skills resolve.

    > [沉默]：该状态下不能发动[强制]技能以外的技能（附加之前已经发动的不受影响）。
    > [缴械]：该状态下不能发动[杀人]，若是[群内]，也会影响整个群内不能发动杀人。
    A status landed at an earlier step of the night reaches the later steps' actions (the forum
    casts them in later windows); one landed in the same step does not.

    Role plugins may provide two kinds of handler here: ``m217.at.<step>.<role>(res)``, a trigger
    of a numbered step that needs no action (熊<咆哮> at 黄昏(4)), run first in name order; and
    ``m217.cast.<skill>(res, action)``, what a skill does the moment it is cast ("发动此技能时",
    隐者<脱下隐身衣>), run for an action not blocked above, before its targets are settled."""
    game = res.game
    handlers = game.ruleset.handlers
    for _, handler in game.ruleset.handlers_under(f"m217.at.{res.step}."):
        handler(res)
    actions = res.actions_in(res.step)
    if not actions:
        return  # most steps of a night resolve nothing
    idx = step_index(res)
    for a in actions:
        if a.void:
            continue
        actor = game.player(a.actor)
        skill, _ = game.find_skill(actor, a.skill)
        if "强制" not in skill.tags and ANY_STATE not in skill.tags:
            st = gained_before(res, actor, "沉默", idx)
            if st:
                res.void(a, f"{a.actor}处于{st.name}状态", rule=st.name)
                # > 该状态下不能发动…的技能: the skill was never cast, so a counted use is not spent
                # (the kernel spent it when the night began to resolve)
                if skill.uses is not None and not skill.group:
                    actor.uses[skill.name] = actor.uses.get(skill.name, 0) + 1
                continue
        if skill.name == "杀人":
            members = [p for p in game.alive() if skill.group in p.groups] or [actor]
            st = next((s for m in members if (s := gained_before(res, m, "缴械", idx))), None)
            if st:
                res.void(a, f"群内有成员处于{st.name}状态", rule=st.name)
                continue
        if f"m217.cast.{skill.name}" in handlers:
            handlers[f"m217.cast.{skill.name}"](res, a)
        if "指定" in skill.tags and a.targets:
            settle(res, a)


# --------------------------------------------------------------------------------- votes


@hookimpl
def bansha_validate_vote(game, ballot):
    if vote_cancelled(game):
        return CANCELLED
    return None


@hookimpl
def bansha_adjust_ballots(res, ballots):
    """> [迷魂]：该状态下投票算作0票（但是依然可以触发投票相关技能）。
    Extra votes are status data ``votes`` (+N)."""
    game = res.game
    for b in ballots:
        voter = game.player(b.voter)
        if vote_cancelled(game):
            b.void = "当天投票取消（决斗）"
        elif has(voter, "迷魂"):
            b.weight = 0
            res.trace("迷魂", f"{b.voter}的投票计0票")
        else:
            b.weight = 1 + sum(s.data.get("votes", 0) for s in active(voter))


@hookimpl
def bansha_vote_immune(res, player):
    """> 讨论日获得投票最多的角色将出局，若该角色持有[霸道]或[不死]状态，则不出局，公示平安日。"""
    # a status restricted to a source (``only_from``/``only_from_camp``) does not stop the vote
    # (复仇者's [不死] gives its own answer: bansha_m217_avenger)
    if any(n in parts(s.name) and not (s.data.get("only_from") or s.data.get("only_from_camp"))
           for s in active(player) for n in ("霸道", "不死")):
        return "今日平安日。"
    return None


VOTED = "m217.voted"  # game.data: the players voted out whose exit 黄昏 (1) settles
VOTED_BALLOTS = "m217.voted.ballots"  # game.data: {voter: target} of the vote 黄昏 (1) settles


def vote_ballots(game) -> dict[str, str]:
    """Each voter's last ballot of the vote being settled: this phase's in a vote phase, else (at
    黄昏 (1)) those of the vote whose exits the dusk settles (a 预言家's 天意 reads his own)."""
    if not game.phase.vote:
        return dict(game.data.get(VOTED_BALLOTS) or {})
    return {b.voter: b.target for b in sorted(game.ballots, key=lambda b: b.seq)}


def vote_out(res, name: str, rule: str = "vote") -> None:
    """``name`` is voted out (the count, a tie under 全部出局, 钟's verdict, 太阳's first round).
    Option ``vote_out``: 黄昏 (default) — settled at 黄昏 step (1) (``settle_vote_outs``), the noon
    announcing who is top-voted; 正午 — at once.

    > （1）结算被[投票出局]的角色或平票时替罪羊<冤死>，并通知对应角色是否出局。
    > 黄昏——投票结束后到正式天黑前。"""
    game = res.game
    if game.option("vote_out") != "正午" and game.phase.vote:
        game.data.setdefault(VOTED, []).append([name, rule])
        game.data[VOTED_BALLOTS] = vote_ballots(game)
        res.announce(f"{name}为最高票。")
        res.trace(rule, f"{name}为最高票，黄昏（1）结算投票出局")
        return
    leave_by_vote(res, name, rule)


def leave_by_vote(res, name: str, rule: str) -> None:
    """``name`` leaves by the vote, unless he is out already or a status keeps him (霸道/不死:
    平安日, 白猫's 猫有九命 …, said in the announcement)."""
    from bansha import Kill

    p = res.game.player(name)
    if not p.alive:
        res.trace(rule, f"{name}已出局")
        return
    immune = res.game.hook.bansha_vote_immune(res=res, player=p)
    if immune:
        res.announce(immune)
    else:
        res.remove(p, Kill(target=name, kind="vote", rule=rule, last_words=True))


@hookimpl
def bansha_defer_vote_out(res, player):
    """The kernel's count made ``player`` the one voted out: under option ``vote_out`` = 黄昏 his
    exit is settled at 黄昏 (1) (``vote_out``)."""
    if res.game.option("vote_out") == "正午":
        return None
    vote_out(res, player.name)
    return True


def settle_vote_outs(res) -> None:
    """Handler ``m217.vote-out``, 黄昏 step (1) (a ``start`` step: as the dusk begins, before its
    immediate skills): each player voted out leaves, unless a status keeps him (霸道/不死: 平安日,
    白猫's 猫有九命 …); the step's ``m217.deaths`` then lands what the exits trigger (a 粉丝's
    致死伤害, 殉情 …), at once. Told at once to whom it concerns; the thread hears it with the
    dusk's lists ("在黄昏阶段（包括正常的被投票出局）的角色出局信息，会在黄昏阶段结束后通知")."""
    game = res.game
    for name, rule in game.data.pop(VOTED, []):
        leave_by_vote(res, name, rule)
    game.data.pop(VOTED_BALLOTS, None)


def tie(res) -> None:
    """> “多于一名角色票数最高”称为平票。 The document leaves the tie to the board: option ``tie``
    is 平安日 (nobody out, the default) or 全部出局 (every tied leader is voted out)."""
    game = res.game
    count = res.data.get("vote_count")
    if count is not None and game.option("tie") == "全部出局":
        count.tie = "all"  # the count's rule, as status says it
    tally = res.data.get("tally") or {}
    if game.option("tie") != "全部出局" or not tally:
        return
    top = max(tally.values())
    leaders = [n for n, c in tally.items() if c == top]
    if len(leaders) < 2:
        return
    res.public = [line for line in res.public if line != game.manifest.texts.nobody_out]
    for name in leaders:
        vote_out(res, name)


def yellow(res) -> None:
    """> 讨论结束时，未回复投票帖者将被判罚黄牌；投弃权票时，须在投票对象中填写“弃权”。
    > 执行加速时，所有人不可改票，且发言不足或未投票者将不被判罚。
    A ballot the director voided was a reply to the vote post (no yellow card, no vote); a player
    sent off (红牌) gets no yellow card besides."""
    game = res.game
    if game.data.get("m217.accelerated") == res.label or vote_cancelled(game):
        return  # a cancelled vote (决斗) asks nobody to vote
    voted = {b.voter for b in game.ballots}
    voted |= {v[1] for v in game.data.get("m217.voided", []) if v[0] == res.label}
    for p in game.players.values():
        if p.data.get("m217.red"):
            continue
        if (p.alive or p.name in res.out) and p.name not in voted:
            p.data["m217.yellow"] = p.data.get("m217.yellow", 0) + 1
            res.announce(f"{p.name}未投票，判罚黄牌。")


def dusk_lists(res) -> None:
    """> （3）公示[投票出局]的角色和其他原因出局的角色名单，分开列出。"""
    exits = res.game.data.get("m217.exits", [])
    # the vote phases of the day before this dusk: noon N-1 and any optional vote phase played
    # after it (太阳's extra 正午, ``extra-noon N-1``)
    day = f" {res.game.day - 1}"
    if res.game.pending_rewind is not None:
        return  # the dusk is turned back (钟): its lists are given when it is played again
    # voted out in this dusk's step (1), or (option vote_out = 正午) when the day's vote closed
    voted = [e[1] for e in exits if e[2] == "vote" and (e[0] == res.label or (e[0].endswith(day) and not e[0].startswith("dusk")))]
    other = [e[1] for e in exits if e[0] == res.label and e[2] != "vote"]
    if voted or other:
        game = res.game
        texts = game.manifest.texts
        # announced once, as the split list: each exit's own line of this dusk is not published besides
        one_by_one = {t.format(name=n, identity=game.identity(game.player(n)))
                      for n in (*voted, *other) for t in (texts.out, texts.voted_out)}
        game.held = [line for line in game.held if line not in one_by_one]
        res.public = [line for line in res.public if line not in one_by_one]
        template = texts.exits_split or "投票出局：{voted}；其他原因出局：{other}。"
        res.announce(template.format(voted="、".join(voted) or "无", other="、".join(other) or "无"))


# ---------------------------------------------------------------------------------- wins


@hookimpl
def bansha_check_win(game):
    """The document gives no win condition for 狼人阵营 and 村民阵营; option ``win``:
    屠边 (default): the village wins when every 狼人阵营 player is out; the wolves win when every
    village 神 (验人系 and 强神) is out, or every village 弱神 is out (a category never dealt does
    not count). 屠城: the wolves win when every 村民阵营 player is out."""
    # one pass over the players (asked after every resolution and every immediate answer): for
    # each camp and side, whether it has a player and whether one of them is in the game
    wolves = wolves_in = hostile_in = village = village_in = False
    gods = gods_in = weak = weak_in = False  # the village's 神 (验人系 and 强神) and its 弱神
    categories = board_tables(game)["category"]  # (``category``, read once here)
    for p in game.players.values():
        camp = p.camp
        if camp == WOLF:
            wolves = True
            if p.alive:
                wolves_in = hostile_in = True
        elif camp == DARK_LOVERS:
            # 黑情侣阵营 holds a 杀人 and wins by 屠城: the village has not won while one of it stands
            # (docs/rulings/m217.md, Wins)
            hostile_in = hostile_in or p.alive
        elif camp == VILLAGE:
            village = True
            village_in = village_in or p.alive
            kind = p.data.get("m217.category") or categories.get(p.role)
            if kind in ("验人系", "强神"):
                gods, gods_in = True, gods_in or p.alive
            elif kind == "弱神":
                weak, weak_in = True, weak_in or p.alive
    winners = []
    if wolves and not hostile_in and village_in:
        winners.append(VILLAGE)
    if wolves_in:
        if game.option("win") == "屠城":
            sides = [(village, village_in)]
        else:
            sides = [(gods, gods_in), (weak, weak_in)]
        if any(dealt and not standing for dealt, standing in sides):
            winners.append(WOLF)
    # > 其中不同的三方阵营各自为独立阵营拥有单独的胜利条件。 A role with a win condition of its own
    # (三方, 不定, a 阵营 that a role creates) provides a handler ``m217.win.<role>(game)``
    # returning the camps that win now, or None; they are asked in name order.
    handlers = game.ruleset.handlers
    for name, _ in game.ruleset.handlers_under("m217.win."):
        for camp in handlers[name](game) or ():
            if camp not in winners:
                winners.append(camp)
    # a role that acts "游戏结束时" (钟) may hold the end: handler m217.hold-end(game, winners)
    hold = game.ruleset.handlers.get("m217.hold-end")
    if winners and hold is not None and hold(game, winners):
        return []
    return winners or None


# ---------------------------------------------------------------------- checks and views


@hookimpl
def bansha_validate_action(game, action):
    p = game.player(action.actor)
    if action.skill in p.data.get("m217.lost", ()):
        return f"{p.name}已失去{action.skill}"
    if action.skill not in board_tables(game)["亡语"]:
        return None  # no [亡语] skill of the board is called so
    skill = skill_of(game, p, action.skill)
    if "亡语" in skill.tags:
        # [亡语] (not defined by the document; read from 最后一枪's "出局后下一个可发动技能的时点"):
        # used only after its holder has left the game, in the first phase of its kinds at or
        # after the exit; > 红牌罚下出局的角色…不能发动任何技能
        gone = exit_of(game, p.name) if not p.alive else None
        if not gone or window(game, gone[0], skill.phases) != game.label:
            return f"{skill.name}是[亡语]技能：在持有者出局后的第一个{'/'.join(phase_zh(game, ph) for ph in skill.phases)}发动"
    return None


@hookimpl(specname="bansha_skill_unavailable")
def revealed(game, player, skill):
    """> 若[实际身份]已经公开则无法发动。 — asked before a counted skill's uses: the reason given is
    the public one ([翻牌], the identity is known to all), never "no uses left"."""
    if "翻牌" in skill.tags and player.data.get("m217.revealed"):
        return f"{player.name}的实际身份已公开：{skill.name}（[翻牌]）无法发动"
    return None


@hookimpl(specname="bansha_validate_action", trylast=True)
def refuse_unknown_args(game, action):
    """Bad input: an --arg the skill does not take (``by``: 幽灵's [操纵夺舍], any skill; a
    ``<…>`` key: a skill taking keys of its own, 命运洪流). Asked last: a role's own message on
    its arguments comes first."""
    if not action.args:
        return None  # no --arg at all
    skill = skill_of(game, game.player(action.actor), action.skill)
    unknown = [k for k in action.args if k not in skill.args and k != "by"]
    if unknown and not any(k.startswith("<") for k in skill.args):
        takes = "、".join(f"--arg {k}=…" for k in skill.args) or "不带 --arg"
        return f"{skill.name}：没有参数 --arg {unknown[0]}（{skill.name}可用：{takes}）"
    return None


@hookimpl
def bansha_player_view(game, player):
    """> 每次技能可发动时，技能持有者会得到可发动技能的所有发动状态（剩余次数，可选目标等等）
    > 标明[X]的技能…该技能的持有者在可发动技能时会得知剩余次数。
    The usable skills, their ranges and the uses left are the kernel's part of every view
    (``views.player_view``: ``choices`` and ``uses``, from ``choices.seat_choices``); this adds
    what only this board shows."""
    view: dict[str, Any] = {}
    # > 若强制技能提供任何[状态]，则该强制技能失效后，这些状态也一同失效。 — a status of a <强制> skill that
    # does not work now (遗忘, lost) is not shown among his statuses (``active``); the kernel lists every told one
    view["statuses"] = [s.name + (f":{s.count}" if s.count is not None else "") + (f"（{ends(game, s.until)}）" if s.until else "")
                        for s in active(player) if s.told]
    if player.data.get("m217.camp-untold"):
        # > 复仇者<寻仇>：…但不得知加入了什么阵营。 — a change of camp not told is not shown either
        view["camp"] = "不得知（阵营变动未告知）"
    if player.data.get("m217.yellow"):
        view["黄牌"] = player.data["m217.yellow"]
    return view


@hookimpl
def bansha_setup_game(game):
    """The standing statuses of every card's skills (``standing``), before any phase is played."""
    for p in game.players.values():
        for skill in list(game.skills_of(p)):
            # an acquired skill's were handed when it was acquired (a 双面人's card at the deal)
            if skill not in p.acquired and not any(st.data.get("forced") == skill for st in p.statuses):
                p.statuses.extend(standing(game, p, skill))


@hookimpl(specname="bansha_phase_started")
def opening_windows(game):
    """An acquired [开局] skill gained in a phase's resolution opens in the phase that follows; the
    window closes with that phase (``acquire``'s ``refreshed``)."""
    for p in game.players.values():
        windows = p.data.get(OPENING)
        if not windows:
            continue
        for name, (label, state) in list(windows.items()):
            if label == game.label:
                continue
            if state == "gained":
                windows[name] = [game.label, "open"]
            else:
                del windows[name]


@hookimpl
def bansha_skill_window(game, player, skill):
    """> 若有，则在获取技能的那个时段需要立刻决定是否发动[开局]类技能。 (``acquire``'s ``refreshed``)"""
    entry = (player.data.get(OPENING) or {}).get(skill.name)
    if entry and entry == [game.label, "open"] and holds(game, player, skill.name):
        return True
    return None


@hookimpl
def bansha_phase_opened(res):
    """> [寡言]：每天开门都会公示该状态的持有情况 — at the start of every noon (开门)."""
    game = res.game
    if game.phase.name != "noon":
        return
    holders = [p.name for p in sorted(game.players.values(), key=lambda p: p.seat)
               if p.alive and any(s.name == "寡言" for s in active(p))]
    if holders:
        res.announce(f"{'、'.join(holders)}持有[寡言]状态。")


@hookimpl
def bansha_game_view(game):
    """[翻牌] made an identity public: everyone may see it."""
    shown_ = [f"{p.name}：{p.role}" for p in game.players.values() if p.data.get("m217.revealed")]
    return {"已公开身份": shown_} if shown_ else None


@hookimpl
def bansha_step_handlers():
    return {
        "m217.chain": chain,
        "m217.follow.跟随": following,
        "m217.deaths": deaths,
        "m217.tie": tie,
        "m217.yellow": yellow,
        "m217.dusk-lists": dusk_lists,
        "m217.vote-out": settle_vote_outs,
    }


@hookimpl
def bansha_roles():
    return []


# ------------------------------------------------------------------- homebrew roles' cards


@hookimpl
def bansha_cards():
    from bansha_m217_cards import CARDS  # here: only a board with homebrew roles reads them

    return CARDS


@hookimpl
def bansha_card_targets(res, action):
    """A homebrew [指定] skill passes the targeting chain and 隐身 (``settle``; once per action:
    in a step of ``m217.chain`` it answers what the chain already settled)."""
    skill, _ = res.game.skills_of(res.game.player(action.actor)).get(action.skill, (None, False))
    if skill is None or "指定" not in skill.tags:
        return None
    return list(action.targets) if settle(res, action) else []


@hookimpl
def bansha_card_done(res, action):
    # an action answered at once (noon, dusk, dawn) lands its kills now
    if action.answered:
        land(res)


@hookimpl
def bansha_card_camp(game, target, by):
    return judged_camp(game, target, by)
