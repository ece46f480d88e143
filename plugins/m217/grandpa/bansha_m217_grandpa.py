"""宗教老爷爷 — 新日暮里 (M217), 三方阵营.

> 5、宗教老爷爷
> 身份属性（不是技能）：游戏开局，选择一半的角色（你自己除外，小数上取整）作为异端。
> 异端处决[强制]——每有一个异端出局，你的票权+1，每有4个异端出局，你免疫一次出局。
> PS：出局后复活，然后再次出局，计为出局2次。
> 胜利条件：异端全部出局

Readings (docs/rulings/m217.md): the choice is entered at 开局 as ``异端 PLAYER…`` (exactly
ceil((players − 1) / 2) others); if none is entered, they are drawn at random (seeded) when the first
黄昏 begins. The count is of exits (an exit after a revival counts again), red cards included. The
extra votes are a status of the <强制> 异端处决 (lost under 遗忘). An immunity stops any kill that
nothing else stops (checked after every other stopper) and a vote-out ("今日平安日。"), not a red
card. The win is the 三方阵营's (handler ``m217.win.宗教老爷爷``), whether or not he is still in the game.
"""

from math import ceil

from bansha import Resolution, Role, Skill, Status, for_skills, hookimpl
from bansha_m217_helpers import active, forced_on, holds

ROLE = "宗教老爷爷"
THIRD = "三方阵营"


def quota(game) -> int:
    """> 选择一半的角色（你自己除外，小数上取整）"""
    return ceil((len(game.players) - 1) / 2)


def mark(res, p, names: list[str]) -> None:
    p.data["m217.异端"] = list(names)
    res.feedback(p.name, f"你的异端：{'、'.join(names)}。")


def choose(res, a):
    """> 身份属性（不是技能）：游戏开局，选择一半的角色（你自己除外，小数上取整）作为异端。"""
    mark(res, res.game.player(a.actor), a.targets)


def outs(p) -> int:
    return p.data.get("m217.异端出局", 0)


def immunities(p) -> int:
    """> 每有4个异端出局，你免疫一次出局。"""
    return outs(p) // 4 - p.data.get("m217.免疫已用", 0)


GRANDPA = Role(
    name=ROLE, alias="grandpa", camp=THIRD, rule=__doc__,
    skills=(
        Skill(name="异端", alias="heretics", phases=("opening",), step="开局", targets=1, max_targets=99,
              effect=choose,
              rule="身份属性（不是技能）：游戏开局，选择一半的角色（你自己除外，小数上取整）作为异端。"),
        Skill(name="异端处决", alias="execution", targets=0, tags=("强制",),
              rule="异端处决[强制]——每有一个异端出局，你的票权+1，每有4个异端出局，你免疫一次出局。"),
    ),
)


@hookimpl
def bansha_roles():
    return [GRANDPA]


@hookimpl
@for_skills("异端")
def bansha_validate_action(game, action):
    if action.skill != "异端":
        return None
    want = quota(game)
    if action.seq and (len(action.targets) != want or len(set(action.targets)) != want):  # (not a trial of the view)
        return f"异端：须选择除自己以外恰好{want}名不同角色（一半，小数上取整）"
    return None


@hookimpl
def bansha_phase_started(game):
    """No choice entered at 开局: the 异端 are drawn at random when the first 黄昏 begins."""
    if game.label != f"dusk {game.manifest.first_day}":
        return
    for p in sorted(game.players.values(), key=lambda p: p.seat):
        if holds(game, p, "异端") and "m217.异端" not in p.data:
            res = Resolution(game, step="异端")
            others = [q.name for q in sorted(game.players.values(), key=lambda q: q.seat) if q.name != p.name]
            mark(res, p, sorted(res.rng.sample(others, quota(game)), key=lambda n: game.player(n).seat))
            res.publish_late()


@hookimpl
@for_skills("异端处决")  # called only in a game where a player holds it
def bansha_on_death(res, player, kill):
    """> 每有一个异端出局，你的票权+1 / > PS：出局后复活，然后再次出局，计为出局2次。"""
    for p in sorted(res.game.players.values(), key=lambda p: p.seat):
        if not holds(res.game, p, "异端处决") or player.name not in p.data.get("m217.异端", ()):
            continue
        n = p.data["m217.异端出局"] = outs(p) + 1
        st = next((s for s in p.statuses if s.source == "异端处决"), None)
        if st is None:
            # extra votes (status data ``votes``, read by the rules' vote count) of the <强制> skill
            st = Status(name="票权", told=False, source="异端处决", data={"forced": "异端处决", "votes": 0})
            p.statuses.append(st)
        st.data["votes"] = n
        res.feedback(p.name, f"异端处决：异端{player.name}出局，你的票权+1（异端出局{n}次）。")
        if n % 4 == 0:
            res.feedback(p.name, "异端处决：你获得一次出局免疫。")


def immune(res, p) -> bool:
    if not forced_on(res.game, p, "异端处决") or immunities(p) <= 0:
        return False
    p.data["m217.免疫已用"] = p.data.get("m217.免疫已用", 0) + 1
    res.feedback(p.name, "异端处决：你免疫了一次出局。")
    return True


@hookimpl(trylast=True)
def bansha_stop_kill(res, kill):
    """> 每有4个异端出局，你免疫一次出局。 — after every other stopper (守护 …) has been asked."""
    if immune(res, res.game.player(kill.target)):
        return "异端处决 (免疫一次出局)"
    return None


@hookimpl(trylast=True)
def bansha_vote_immune(res, player):
    if immune(res, player):
        return "今日平安日。"
    return None


@hookimpl
def bansha_player_view(game, player):
    if not (holds(game, player, "异端") or holds(game, player, "异端处决")):
        return None
    if "m217.异端" not in player.data:
        return {"异端": f"须选择{quota(game)}名"}
    st = next((s for s in active(player) if s.source == "异端处决"), None)
    return {"异端": "、".join(player.data["m217.异端"]), "异端出局": outs(player),
            "票权": 1 + (st.data["votes"] if st else 0), "出局免疫": max(immunities(player), 0)}


def win(game):
    """> 胜利条件：异端全部出局 — for the 三方阵营 (the one 三方 role dealt: its camp is its own)."""
    for p in game.players.values():
        if p.role != ROLE:
            continue  # (asked after every resolution)
        heretics = p.data.get("m217.异端")
        if p.camp == THIRD and heretics and not any(game.player(n).alive for n in heretics):
            return [THIRD]
    return None


@hookimpl
def bansha_step_handlers():
    return {f"m217.win.{ROLE}": win}
