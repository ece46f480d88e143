"""太阳 — 新日暮里 (M217), 弱神 ④.

> 2、太阳④
> 日[强制][翻牌]—— [常驻]：游戏日白天获得[不死]状态。
>
> [触发]：太阳出局时，公示[日不落]，下一个白天额外进行一轮[正午]阶段（此游戏日只有现实一天），在这个游戏日白天中，
> 只有太阳指定的角色可以发言（包括在投票帖发言），最多可选择场上存活人数一半的玩家。
> PS：由于是额外进行一轮[正午]阶段，在第一次[正午]阶段最高票的角色还尚未出局，仍然可以正常发言投票（若被太阳指定）。
> 太阳可以看完第一轮[正午]阶段后再决定让那些角色可以发言。多个太阳效果触发时，按照出局顺序轮流触发并选择谁可以发言
> 投票，互相独立。
> 投票贴不发言默认视作弃票，因此拥有改投票效果的角色，可以将那些不能发言的票也改成投给谁（如吹笛可以混乱，让那些不能
> 发言的也视作成功进行了投票）
> 额外白天并不会让技能重新冷却。

The extra round is the manifest's optional phase ``extra-noon`` (额外正午), played after ``noon N``
when scheduled. The trigger queues it in ``game.data["m217.sun"]``; it is scheduled when the noon
of "下一个白天" begins. In that ``noon N`` the top-voted player is not put out: he leaves as
投票出局 when the extra round closes (handler ``m217.sun.first-round``), after its own count. The
太阳 (out of the game) names the speakers with the skill 日不落 in the extra round; a ballot of
anyone else is refused (no ballot is 弃票, and no yellow card: handler ``m217.sun.yellow``).
Readings: docs/rulings/m217.md (weak-a).
"""

from bansha import Role, Skill, Status, for_skills, hookimpl
from bansha_m217_helpers import flip, forgotten, has, vote_cancelled
from bansha_m217_rules import vote_out

EXTRA = "extra-noon"
DAY = ("dawn", "noon", EXTRA, "dusk")
QUEUE, LEADERS = "m217.sun", "m217.sun.leaders"


def named_now(game) -> list[str] | None:
    """The speakers of this extra round (None before the 太阳 names them)."""
    entry = active_entry(game)
    return entry.get("named") if entry else None


def active_entry(game) -> dict | None:
    if game.phase.name != EXTRA:
        return None
    return next((e for e in game.data.get(QUEUE, []) if e.get("played") == game.day), None)


def name_speakers(res, a):
    entry = active_entry(res.game)
    # > 在这个游戏日白天中，只有太阳指定的角色可以发言（包括在投票帖发言）
    entry["named"] = list(a.chosen)
    res.announce(f"日不落：今日只有{'、'.join(a.chosen)}可以发言投票。")


SUN = Role(
    name="太阳", alias="sun", camp="村民阵营", rule=__doc__,
    skills=(
        Skill(name="日", alias="sun", targets=0, tags=("强制", "翻牌"),
              rule="日[强制][翻牌]—— [常驻]：游戏日白天获得[不死]状态。[触发]：太阳出局时，公示[日不落]，下一个白天额外进行一轮[正午]阶段。"),
        Skill(name="日不落", alias="never-sets", phases=(EXTRA,), immediate=True, while_out=True,
              targets=1, max_targets=99, effect=name_speakers,
              rule="[日]的触发：额外的[正午]中，只有太阳指定的角色可以发言（包括在投票帖发言），最多可选择场上存活人数一半的玩家。"),
    ),
)


@hookimpl
def bansha_roles():
    return [SUN]


def day_end(game) -> str:
    """The dusk that closes this 白天 (晨曦 N, 正午 N → 黄昏 N+1)."""
    return game.label if game.phase.name == "dusk" else f"dusk {game.day + 1}"


def next_noon(game) -> str:
    """> 下一个白天: after a night, the coming day; in a day phase, the day after."""
    if game.phase.opening:
        return f"noon {game.manifest.first_day}"
    if game.phase.name in ("night", "dusk"):
        return f"noon {game.day}"
    return f"noon {game.day + 1}"


@hookimpl
def bansha_phase_started(game):
    for p in game.players.values():
        if not p.alive or "日" not in game.skills_of(p):
            continue
        # > [常驻]：游戏日白天获得[不死]状态。 (晨曦/正午/黄昏属于白天); a status of a 强制 skill
        if game.phase.name in DAY and not any(s.source == "日" for s in p.statuses):
            p.statuses.append(Status(name="不死", until=day_end(game), source="日", told=True,
                                     data={"forced": "日"}))
    if game.phase.name == "noon":
        # > 多个太阳效果触发时，按照出局顺序轮流触发 — one extra round a day, in the order of exits
        here = game.position
        for e in game.data.get(QUEUE, []):
            if e.get("played") is None and game.parse_phase(e["noon"]) <= here:
                e["played"] = game.day
                # the kernel reads an optional vote phase's data as its candidates: everyone
                game.scheduled[EXTRA] = sorted(game.players, key=lambda n: game.players[n].seat)
                break


@hookimpl
def bansha_on_death(res, player, kill):
    game = res.game
    if "日" not in game.skills_of(player):
        return
    # a red card is handled as 业炎 (its 遗忘 takes the 强制 skills); 遗忘 or a lost 日: no trigger
    if player.data.get("m217.red") or forgotten(player) or "日" in player.data.get("m217.lost", ()):
        res.trace("日", f"{player.name}出局，未发动日")
        return
    if player.data.get("m217.revealed"):
        # > 若[实际身份]已经公开则无法发动。
        res.trace("日", f"{player.name}的身份已公开：日（[翻牌]）无法发动")
        return
    # > [触发]：太阳出局时，公示[日不落] ([翻牌]: the card is shown too)
    from bansha import Action

    flip(res, Action(actor=player.name, skill="日"))
    res.announce("日不落。")
    # > 下一个白天额外进行一轮[正午]阶段
    game.data.setdefault(QUEUE, []).append({"sun": player.name, "noon": next_noon(game), "named": None})


@hookimpl
def bansha_vote_immune(res, player):
    """> 在第一次[正午]阶段最高票的角色还尚未出局，仍然可以正常发言投票（若被太阳指定）。"""
    game = res.game
    if game.phase.name != "noon" or EXTRA not in game.scheduled:
        return None
    if has(player, "霸道") or has(player, "不死"):
        return None  # the rules' 平安日
    game.data.setdefault(LEADERS, []).append(player.name)
    return f"{player.name}为最高票，额外的正午阶段结束后出局。"


def first_round(res) -> None:
    """The top-voted player of the first 正午 leaves when the extra round closes (投票出局)."""
    for name in res.game.data.pop(LEADERS, []):
        vote_out(res, name)


def extra_yellow(res) -> None:
    """> 讨论结束时，未回复投票帖者将被判罚黄牌 — only the named may post:
    > 投票贴不发言默认视作弃票 (the others get no yellow card)."""
    game = res.game
    if game.data.get("m217.accelerated") == res.label or vote_cancelled(game):
        return  # a cancelled vote (决斗) asks nobody to vote
    voted = {b.voter for b in game.ballots} | {v[1] for v in game.data.get("m217.voided", []) if v[0] == res.label}
    for name in named_now(game) or []:
        p = game.player(name)
        if p.alive and not p.data.get("m217.red") and name not in voted:
            p.data["m217.yellow"] = p.data.get("m217.yellow", 0) + 1
            res.announce(f"{name}未投票，判罚黄牌。")


@hookimpl
def bansha_step_handlers():
    return {"m217.sun.first-round": first_round, "m217.sun.yellow": extra_yellow}


@hookimpl
@for_skills("日不落")
def bansha_validate_action(game, action):
    if action.skill != "日不落":
        return None
    entry = active_entry(game)
    if entry is None or entry["sun"] != action.actor:
        return "日不落只能由带来这个额外正午的太阳发动"
    # > 最多可选择场上存活人数一半的玩家。
    most = len(game.alive()) // 2
    if len(action.chosen) > most:
        return f"日不落：至多{most}名角色（存活的{len(game.alive())}人的一半）"
    twice = [t for i, t in enumerate(action.chosen) if t in action.chosen[:i]]
    if twice:
        return f"日不落：{twice[0]}被指定了两次（选择范围：不同的角色）"
    return None


@hookimpl
def bansha_validate_vote(game, ballot):
    if game.phase.name != EXTRA:
        return None
    named = named_now(game) or []
    if ballot.voter not in named:
        # > 只有太阳指定的角色可以发言（包括在投票帖发言）
        return (f"{ballot.voter}未被太阳指定：今天只有{'、'.join(named)}可以发言和投票（日不落）" if named
                    else f"{ballot.voter}未被太阳指定：太阳尚未指定今天可以发言和投票的角色（日不落）")
    return None


@hookimpl
def bansha_player_view(game, player):
    """The 太阳 whose extra 正午 this is: how many he may name; everyone: who may vote."""
    entry = active_entry(game)
    if entry is None:
        return None
    view = {"日不落": f"只有{'、'.join(entry['named'])}可以发言投票" if entry.get("named") is not None
            else "太阳尚未指定发言的角色"}
    if entry["sun"] == player.name and entry.get("named") is None:
        view["日不落"] = f"最多可选择{len(game.alive()) // 2}名存活角色"
    return view
