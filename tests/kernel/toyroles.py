"""Small test-only roles that exercise the kernel's mechanisms (not a real ruleset).

- 刀手 (group 刀): a shared night kill, one per group and night.
- 医生: heals one player a night, not the same player two nights running; stops a kill.
- 阻挡者: blocks one player's night action (step "block" runs before "kill").
- 查验者: learns a player's identity as the rules show it (surface identity).
- 伪装者: a day-long disguise status read by checks.
- 炸弹: 限定 once, an immediate answer, and a death trigger that kills a neighbour.
"""

from bansha import Role, Skill, Status, hookimpl


def kill(res, a):
    res.kill(a.targets[0], kind="刀", by=a.actor, action=a, rule="刀手.kill")


def heal(res, a):
    res.data.setdefault("healed", set()).add(a.targets[0])
    res.trace("医生.heal", f"{a.targets[0]} is healed")


def block(res, a):
    for other in res.actions:
        if other.actor == a.targets[0] or (other.group and other.group in res.game.player(a.targets[0]).groups):
            res.void(other, f"blocked by {a.actor}", rule="阻挡者.block")


def check(res, a):
    t = res.game.player(a.targets[0])
    res.feedback(a.actor, f"{t.name}是{res.game.surface(t)['role']}。")


def disguise(res, a):
    res.add_status(a.actor, Status(name="伪装", until=res.label, told=False, data={"role": a.args.get("role", "平民")}))


def boom(res, a):
    res.feedback(a.actor, f"炸弹已就绪：{a.targets[0]}")
    res.game.player(a.actor).data["armed"] = a.targets[0]


def silence(res, a):
    # 沉默 until the end of the next night: the kernel refuses every skill but a 强制 one
    res.add_status(a.targets[0], Status(name="沉默", until=f"night {res.game.day + 1}", data={"no_cast": True}, source="禁言者"))


def turn_back(res, a):
    """时钟: by day, turn the game back to the start of the previous night; the clock stays
    spent and revealed (what the rewind keeps)."""

    def keep(game):
        clock = game.player(a.actor)
        clock.uses["倒流"] = 0
        clock.data["revealed"] = True

    res.announce(f"{a.actor}发动时光回溯。")
    res.rewind(f"night {res.game.day - 1}", "start", keep)


ROLES = [
    Role(name="刀手", alias="killer", camp="坏人", group="刀", skills=(
        Skill(name="刀", alias="kill", phases=("night",), step="kill", group="刀", effect=kill),)),
    Role(name="医生", alias="doctor", camp="好人", skills=(
        Skill(name="救", alias="heal", phases=("night",), step="protect", no_repeat_target=True, may_target_self=True, effect=heal),)),
    Role(name="阻挡者", alias="blocker", camp="坏人", skills=(
        Skill(name="挡", alias="block", phases=("night",), step="block", effect=block),)),
    Role(name="查验者", alias="cop", camp="好人", skills=(
        Skill(name="验", alias="check", phases=("night",), step="info", effect=check),)),
    Role(name="伪装者", alias="disguiser", camp="坏人", skills=(
        Skill(name="装", alias="disguise", phases=("night",), step="block", priority=1, targets=0, args={"role": "shown role"}, effect=disguise),)),
    Role(name="炸弹", alias="bomber", camp="好人", skills=(
        Skill(name="引爆", alias="arm", phases=("day",), immediate=True, uses=1, tags=("限定",), effect=boom),)),
    Role(name="时钟", alias="clock", camp="好人", skills=(
        Skill(name="倒流", alias="rewind", phases=("day",), targets=0, immediate=True, uses=1, effect=turn_back),)),
    Role(name="禁言者", alias="silencer", camp="坏人", skills=(
        Skill(name="禁言", alias="silence", phases=("night",), step="block", effect=silence),)),
    Role(name="平民", alias="villager", camp="好人"),
]


@hookimpl
def bansha_roles():
    return ROLES


@hookimpl
def bansha_stop_kill(res, kill):
    if kill.target in res.data.get("healed", ()):
        return "healed by 医生"
    return None


@hookimpl
def bansha_on_death(res, player, kill):
    armed = player.data.get("armed")
    if armed and kill.kind != "炸":
        res.kill(armed, kind="炸", by=player.name, rule="炸弹.trigger")
