"""幻侠 — 七杀·侠 1.3 (docs/rulings/qisha-xia.md R-H1…R-H6).

> 幻侠（1人）幻侠拥有三次幻觉特权，每个幻觉特权只能使用一次，其中幻觉一和幻觉二可以在任意一个夜晚使用（但不能
> 在同一晚使用），幻觉三可以在任意一个白天使用。
> 幻觉一：在任意一晚对除自己以外的2个人使用，使得此2人在接下来的白天的投票强制与幻侠一致（他们的实际投票无效），
> 白天结束计票时公布（只公布被改变的结果，并不公布与谁一致）；
> 幻觉二：在任意一晚对除自己以外的任意1人使用，使得此人在接下来的白天免于高票出局，白天结束计票时，如果产生效果
> （此人被投最高票）则公布，否则不公布。
> 幻觉三：在任意一个白天结束前15分钟……通过站内消息告知导演，当天白天多少楼之后（含此楼）的投票或改票无效……
> 导演在统计投票时公布，并仅统计由此指定的有效票。

The night 幻觉 leave their mark for the next day in ``game.data`` (``qisha-xia.幻觉一``:
day, leader, targets; ``qisha-xia.幻觉二``: day, player); 幻觉三 puts its post number in
``res.data["qisha-xia.幻觉三"]`` for the count. A reflected 幻觉 (1.8) makes the 龙侠 the leader.
"""

from bansha import Ballot, Role, Skill, for_skills, hookimpl
from bansha.engine.model import MAX_POST

FORCED, IMMUNE, CUTOFF = "qisha-xia.幻觉一", "qisha-xia.幻觉二", "qisha-xia.幻觉三"
REFLECTED, BLOCKED_ACTIONS = "qisha-xia.reflected", "qisha-xia.blocked-actions"
TARGETS = "qisha-xia.hallucinated"  # player.data of the 幻侠: players already under a 幻觉
NIGHT = ("幻觉一", "幻觉二")


def one(res, a):
    game = res.game
    # "相当于龙侠对幻侠和玩家A使用了幻觉一": the forced votes follow the 龙侠
    reflected = a.seq in res.data.get(REFLECTED, {})
    leader = next(p.name for p in game.players.values() if p.role == "龙侠") if reflected else a.actor
    game.data[FORCED] = {"day": game.day + 1, "leader": leader, "targets": list(a.targets)}
    game.player(a.actor).data.setdefault(TARGETS, []).extend(a.chosen)


def two(res, a):
    game = res.game
    game.data[IMMUNE] = {"day": game.day + 1, "player": a.targets[0]}
    game.player(a.actor).data.setdefault(TARGETS, []).extend(a.chosen)


def three(res, a):
    # "导演在统计投票时公布，并仅统计由此指定的有效票"
    res.data[CUTOFF] = a.args["post"]
    res.announce(f"第{a.args['post']}楼及之后的投票无效。")


def unspent(res):
    """R-H6: a 幻觉 voided by 银侠's learned block counts as not used (house rule blocked_use_spent)."""
    if res.game.option("blocked_use_spent"):
        return
    for a in res.actions:
        if a.skill in NIGHT and a.seq in res.data.get(BLOCKED_ACTIONS, ()):
            res.game.player(a.actor).uses[a.skill] += 1


ILLUSION = Role(
    name="幻侠", alias="illusion", camp="黑暗",
    rule="幻侠拥有三次幻觉特权，每个幻觉特权只能使用一次，其中幻觉一和幻觉二可以在任意一个夜晚使用（但不能在同一晚使用），幻觉三可以在任意一个白天使用。",
    skills=(
        Skill(name="幻觉一", alias="force", phases=("night",), step="illusion", targets=2, uses=1, may_target_self=True,
              rule="使得此2人在接下来的白天的投票强制与幻侠一致", effect=one),
        Skill(name="幻觉二", does=("help",), alias="immune", phases=("night",), step="illusion", uses=1, may_target_self=True,
              rule="使得此人在接下来的白天免于高票出局", effect=two),
        Skill(name="幻觉三", alias="cutoff", phases=("day", "runoff"), step="hallucination", targets=0, uses=1,
              args={"post": "楼层号：此楼及之后的投票或改票无效"},
              # > 当天白天多少楼之后（含此楼）的投票或改票无效 — a floor of the day's vote thread
              arg_values={"post": "post"}, open_args=("post",),  # any floor number
              rule="当天白天多少楼之后（含此楼）的投票或改票无效", effect=three),
    ),
)


@hookimpl
def bansha_roles():
    return [ILLUSION]


@hookimpl
def bansha_step_handlers():
    return {"qisha-xia.illusion-unspent": unspent, "qisha-xia.immunity-top": announce_top}


@hookimpl
@for_skills("幻觉三", *NIGHT)
def bansha_validate_action(game, action):
    if action.skill == "幻觉三":
        post = action.args.get("post")
        if not isinstance(post, int) or isinstance(post, bool):
            return "幻觉三需要楼层号：--arg post=楼层号。"
        # "当天白天多少楼之后（含此楼）": a post number of the thread, from 1
        if post < 1:
            return f"幻觉三的楼层号必须是正整数（post={post}）。"
        # a floor the thread can have, as every post number bansha reads (docs/cli.md "Values")
        if post > MAX_POST:
            return f"幻觉三的楼层号至多为 {MAX_POST}（post={post}）。"
        return None
    if action.skill not in NIGHT:
        return None
    if action.actor in action.targets:
        return "幻觉只能对除自己以外的人使用。"
    if len(set(action.targets)) != len(action.targets):
        return "幻觉一需要两个不同的人。"
    if any(a.actor == action.actor and a.skill in NIGHT for a in game.actions):
        return "幻觉一和幻觉二不能在同一晚使用。"
    if not game.option("hallucination_same_target"):
        before = game.player(action.actor).data.get(TARGETS, [])
        if set(before) & set(action.targets):
            return "幻觉不能再对同一人使用（房规）。"
    return None


@hookimpl
def bansha_adjust_ballots(res, ballots):
    game = res.game
    abstain = game.manifest.vote.abstain
    cutoff = res.data.get(CUTOFF)
    if cutoff is not None:
        # R-H5: a void change leaves the earlier vote standing; a void only vote is an abstention
        history = sorted(game.ballots, key=lambda b: b.seq)
        for b in ballots:
            if b.post is not None and b.post >= cutoff:
                earlier = [h for h in history if h.voter == b.voter and (h.post is None or h.post < cutoff)]
                if earlier:
                    b.target, b.post = earlier[-1].target, earlier[-1].post
                else:
                    b.void = f"幻觉三：第{cutoff}楼及之后的投票无效"
                kept = f"，保留此前的投票（{b.target}）" if earlier else ""
                res.trace("1.3 幻觉三", f"{b.voter}在第{cutoff}楼及之后的投票或改票无效{kept}")
    forced = game.data.get(FORCED)
    if not forced or forced["day"] != game.day:
        return
    leader = game.player(forced["leader"])
    if not leader.alive and game.option("hallucination_one_lapses_on_death"):
        return  # R-H2
    led = next((b for b in ballots if b.voter == leader.name and not b.void), None)
    target = led.target if led else abstain
    # a vote that takes no abstention (高票对决: "不允许弃权"): the 幻侠's missing vote is no vote
    # for them either, not an abstention the vote forbids
    no_abstain = game.phase.optional and not game.manifest.vote.runoff_abstain
    for name in forced["targets"]:
        if not game.player(name).alive:
            continue
        own = next((b for b in ballots if b.voter == name), None)
        cast = own.target if own and not own.void else abstain
        if led is None and no_abstain:
            if own is not None and not own.void:
                own.void = f"幻觉一：投票与{leader.name}一致，而{leader.name}尚未投票"
                res.trace("1.3 幻觉一", f"{name}的投票强制与{leader.name}一致：{leader.name}尚未投票，此票无效")
                res.announce(f"{name}的投票被改变。")
            continue
        if own is None:
            own = Ballot(voter=name, target=target)
            ballots.append(own)
        own.target, own.void = target, None
        res.trace("1.3 幻觉一", f"{name}的投票强制与{leader.name}一致：{target}")
        # "只公布被改变的结果，并不公布与谁一致"
        if cast != target:
            res.announce(f"{name}的投票被改变。")


@hookimpl
def bansha_vote_immune(res, player):
    immune = res.game.data.get(IMMUNE)
    if immune and immune["day"] == res.game.day and immune["player"] == player.name:
        return f"{player.name}免于出局。"
    return None


def announce_top(res):
    """House rule hallucination_two_announce_on_top_vote: being top is enough to announce it."""
    immune = res.game.data.get(IMMUNE)
    tally = res.data.get("tally") or {}
    if not (res.game.option("hallucination_two_announce_on_top_vote") and immune and tally):
        return
    line = f"{immune['player']}免于出局。"
    if immune["day"] == res.game.day and tally.get(immune["player"]) == max(tally.values()) and line not in res.public:
        res.announce(line)
