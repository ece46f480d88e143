"""幽灵 — 新日暮里 (M217), 狼人阵营 ⑥ (not [群内]).

> 12、幽灵⑥
> 附体[黄昏][指定]—— 选择范围：1人。
> 结算效果：获知结算目标当晚所有操作和所有反馈（实时反馈），并且若结算目标在此期间出局，幽灵会连带受到[致死伤害]。若附体到实际阵营为[狼人阵营]的玩家，则立刻互知身份
> 夺舍[黄昏]——若连续两个游戏日[附体]的结算目标皆为同一个角色，则获得通知可以发动该技能。
> 发动后，发动者当夜[操纵夺舍]当前附体目标。

Readings (docs/rulings/m217.md): 附体 resolves at 黄昏(4); "当晚" is the night after that dusk, and
"此期间" runs from the 附体 to the end of that night. The engine resolves a night at once, so the
target's actions and feedback of the night are told to the 幽灵 with the night's feedback, once its
deaths have landed (handler ``m217.night-end.幽灵``). [操纵夺舍] is not defined by the document: the
幽灵 sends the target's actions of that night — the director enters them as the target's, with
``--arg by=<幽灵>``; the target's own are refused.
"""

from bansha import Fact, Role, Skill, hookimpl
from bansha_m217_helpers import WOLF, hit, judged_camp

ROLE = "幽灵"


def possess(res, a):
    game = res.game
    me = game.player(a.actor)
    # (the chain handler of 黄昏4 has settled the final target; 隐身 voids the action)
    t = game.player(a.targets[0])
    day = game.day
    # > 获知结算目标当晚所有操作和所有反馈（实时反馈），并且若结算目标在此期间出局，幽灵会连带受到[致死伤害]。
    me.data["m217.附体"] = {"target": t.name, "dusk": res.label, "night": f"night {day}"}
    history = me.data.setdefault("m217.附体.history", [])
    history.append([day, t.name])
    res.feedback(me.name, f"附体：你附体于{t.name}，当晚获知其所有操作和反馈。")
    if judged_camp(game, t, me.name) == WOLF:
        # > 若附体到实际阵营为[狼人阵营]的玩家，则立刻互知身份
        res.feedback(me.name, f"附体：{t.name}是{t.role}。", Fact(player=t.name, what="role", value=t.role, by=a.skill))
        res.feedback(t.name, f"{me.name}是{me.role}，附体于你。", Fact(player=me.name, what="role", value=me.role, by=a.skill))
    # > 夺舍[黄昏]——若连续两个游戏日[附体]的结算目标皆为同一个角色，则获得通知可以发动该技能。
    if [day - 1, t.name] in history[:-1]:
        me.data["m217.夺舍"] = {"dusk": f"dusk {day + 1}", "target": t.name}
        res.feedback(me.name, f"你可以发动[夺舍]（{t.name}），于下一个黄昏。")


def seize(res, a):
    """> 发动后，发动者当夜[操纵夺舍]当前附体目标。"""
    game = res.game
    me = game.player(a.actor)
    target = me.data["m217.夺舍"]["target"]
    if not game.player(target).alive:
        res.void(a, f"{target}已离开游戏", rule="夺舍")
        return
    me.data["m217.操纵"] = {"target": target, "night": f"night {game.day}"}
    res.feedback(me.name, f"夺舍：今晚由你操纵{target}的行动。")
    res.trace("夺舍", f"{me.name}代{target}提交夜晚{game.day}的行动")


GHOST = Role(
    name=ROLE, alias="ghost", camp="狼人阵营", rule=__doc__,
    skills=(
        Skill(name="附体", does=("check",), alias="possess", phases=("dusk",), step="黄昏4", may_target_self=True, tags=("指定",),
              effect=possess,
              rule="附体[黄昏][指定]——1人：获知结算目标当晚所有操作和所有反馈；结算目标在此期间出局，幽灵连带受到[致死伤害]；"
                   "实际阵营为狼人阵营则立刻互知身份。"),
        Skill(name="夺舍", alias="seize", phases=("dusk",), step="黄昏4", targets=0, effect=seize,
              rule="夺舍[黄昏]——连续两个游戏日[附体]同一个角色后获得通知可以发动：发动者当夜[操纵夺舍]当前附体目标。"),
    ),
)


def controller(game, name: str):
    """The 幽灵 who sends ``name``'s actions tonight ([操纵夺舍]), if any."""
    for p in game.players.values():
        c = p.data.get("m217.操纵")
        if c and c["target"] == name and p.alive and c["night"] == game.label:
            return p
    return None


def night_end(res):
    """> 获知结算目标当晚所有操作和所有反馈（实时反馈） — told with the night's feedback."""
    game = res.game
    for p in sorted(game.players.values(), key=lambda p: p.seat):
        now = p.data.get("m217.附体")  # (whoever holds 附体: an acquired one too)
        if not now or now["night"] != res.label:
            continue
        t = now["target"]
        for a in sorted(res.actions, key=lambda a: a.seq):
            if a.actor == t:
                on = f"→{'、'.join(a.chosen)}" if a.chosen else ""
                res.feedback(p.name, f"附体（{t}）：操作[{a.skill}]{on}",
                             Fact(player=t, what="used", value=a.skill, by="附体"))
        told = [line for label, line in game.feedback.get(t, ()) if label == res.label]
        for line in [*told, *res.lines.get(t, ())]:
            res.feedback(p.name, f"附体（{t}）：{line}")


@hookimpl
def bansha_roles():
    return [GHOST]


@hookimpl
def bansha_step_handlers():
    return {"m217.night-end.幽灵": night_end}


@hookimpl
def bansha_skill_unavailable(game, player, skill):
    if skill.name == "夺舍" and skill.effect is seize:
        ready = player.data.get("m217.夺舍")
        if not ready or ready["dusk"] != game.label:
            return "夺舍：连续两个游戏日[附体]的结算目标皆为同一个角色后，于下一个黄昏才可发动"
    return None


@hookimpl
def bansha_validate_action(game, action):
    if not action.seq:
        return None  # a trial of the player view
    ghost = controller(game, action.actor) if game.phase.name == "night" else None
    if ghost is not None and action.args.get("by") != ghost.name:
        # [操纵夺舍]: the 幽灵 sends the target's actions tonight
        return f"{action.actor}今晚的行动由{ghost.name}提交（[操纵夺舍]：--arg by={ghost.name}）"
    if ghost is None and action.args.get("by"):
        return f"{action.actor}今晚不在[操纵夺舍]之下（不能使用 --arg by）"
    return None


@hookimpl
def bansha_on_death(res, player, kill):
    """> 若结算目标在此期间出局，幽灵会连带受到[致死伤害]。 (from the 附体 to the end of that night)"""
    for p in res.game.players.values():
        now = p.data.get("m217.附体")
        if p.alive and now and now["target"] == player.name and res.label in (now["dusk"], now["night"]):
            hit(res, None, p.name, "致死伤害", rule="附体", by=player.name)
