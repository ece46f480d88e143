"""粉丝 — 新日暮里 (M217), 不定阵营.

> 5、粉丝
> 追随[开局]—— 游戏开始前，粉丝需选择一个角色支持，该角色称为偶像，并转入相同阵营，跟随该角色阵营变动，粉丝永久
> 获得[不死]状态，偶像出局时，该[不死]状态失效，且粉丝还会连带受到[致死伤害]。

游戏流程 1: "游戏开始阶段，双面人<双面>，粉丝<追随> 丘比特<丘比特之箭> 影子<附身>…依次发动进行。" — 追随
resolves in the opening's step 开局 (priority in the manifest). Following uses the rules' ``follow``
(handler ``m217.follow.跟随``). Readings: docs/rulings/m217.md (group undecided).
"""

from bansha import Role, Skill, hookimpl
from bansha_m217_helpers import follow, give, holds

NAME = "粉丝"


def idol_of(game, p):
    seat = p.data.get("粉丝.idol")
    return next((q for q in game.players.values() if q.seat == seat), None) if seat else None


def idolize(res, fan: str, idol: str) -> None:
    p = res.game.player(fan)
    # > 粉丝需选择一个角色支持，该角色称为偶像
    p.data["粉丝.idol"] = res.game.player(idol).seat
    res.feedback(fan, f"追随：你的偶像是{idol}。")
    # > 并转入相同阵营，跟随该角色阵营变动
    follow(res, fan, idol, skill="追随")
    # > 粉丝永久获得[不死]状态 (told: the fan's own role gives it)
    give(res, fan, "不死", source="追随", told=True)


def choose(res, a):
    idolize(res, a.actor, a.targets[0])


def unchosen(res) -> None:
    """Handler ``m217.at.开局.粉丝`` (before the step's skills): reading — "粉丝需选择": a 粉丝 who
    sent no 追随 by the end of the opening is given an idol drawn by the seeded rng."""
    game = res.game
    sent = {a.actor for a in res.of("追随") if a.void is None}
    for p in sorted(game.players.values(), key=lambda p: p.seat):
        # whoever holds 追随 (an heir who gained it in this opening too)
        if not holds(game, p, "追随") or not p.alive or p.name in sent or p.data.get("粉丝.idol"):
            continue
        others = [q.name for q in sorted(game.alive(), key=lambda q: q.seat) if q is not p]
        idol = res.rng.choice(others)
        res.feedback(p.name, "追随：你没有选择偶像，随机选定。")
        idolize(res, p.name, idol)


FAN = Role(
    name=NAME, alias="fan", camp="不定阵营", rule=__doc__,
    skills=(Skill(name="追随", alias="follow", phases=("opening",), step="开局", priority=20, tags=("开局",),
                  effect=choose,
                  rule="追随[开局]—— 游戏开始前，粉丝需选择一个角色支持，该角色称为偶像，并转入相同阵营，跟随该角色阵营变动，"
                       "粉丝永久获得[不死]状态，偶像出局时，该[不死]状态失效，且粉丝还会连带受到[致死伤害]。"),),
)


@hookimpl
def bansha_roles():
    return [FAN]


@hookimpl
def bansha_step_handlers():
    return {"m217.at.开局.粉丝": unchosen}


@hookimpl
def bansha_on_death(res, player, kill):
    game = res.game
    for fan in sorted(game.players.values(), key=lambda p: p.seat):
        if not fan.alive or idol_of(game, fan) is not player:
            continue
        # > 偶像出局时，该[不死]状态失效
        fan.statuses = [s for s in fan.statuses if not (s.name == "不死" and s.source == "追随")]
        res.feedback(fan.name, f"你的偶像{player.name}出局，你的[不死]状态失效。")
        # > 且粉丝还会连带受到[致死伤害] — reading: a damage with no source (by "")
        res.kill(fan.name, kind="致死伤害", by="", rule="追随")


@hookimpl
def bansha_player_view(game, player):
    if idol_of(game, player) is not None:
        return {"偶像": idol_of(game, player).name}
    return None
