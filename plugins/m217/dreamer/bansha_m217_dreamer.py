"""摄梦人 — 新日暮里 (M217), 强神 ⑥.

> 摄梦 [夜晚][指定] —— 选择范围：除自己外任意一名角色，若不选择将会随机选择。
> 结算效果：结算目标当晚获得[坚韧]状态，若发动者当晚出局，结算目标承受[致死伤害]，连续两夜结算目标都进行
> 了[摄梦]的结算，结算目标也会承受[致死伤害]。
> 多个摄梦的结算效果互相独立结算。

"若不选择将会随机选择" is the handler ``m217.dreamer.auto`` (step 午夜12b, before m217.chain).
"""

from bansha import Action, Role, Skill, hookimpl
from bansha_m217_helpers import give, hit, holders


def auto(res):
    game = res.game
    for p in holders(game, "摄梦"):
        if any(a.actor == p.name and a.skill == "摄梦" for a in res.actions):
            continue
        # > 若不选择将会随机选择。
        t = res.rng.choice([q.name for q in sorted(game.alive(), key=lambda q: q.seat) if q.name != p.name])
        res.trace("摄梦", f"{p.name}未选择目标：随机选中{t}")
        res.actions.append(Action(actor=p.name, skill="摄梦", chosen=[t], targets=[t], seq=10**6 + p.seat))


def dream(res, a):
    me = res.game.player(a.actor)
    last = me.data.get("摄梦.last")
    for t in a.targets:
        # > 结算目标当晚获得[坚韧]状态
        give(res, t, "坚韧", until=res.label, source="摄梦")
        # > 连续两夜结算目标都进行了[摄梦]的结算，结算目标也会承受[致死伤害]。 (each 摄梦人 on its own)
        if last and last[0] == res.game.day - 1 and t in last[1]:
            hit(res, a, t, "致死伤害", rule="摄梦")
    me.data["摄梦.last"] = [res.game.day, list(a.targets)]


DREAMER = Role(
    name="摄梦人", alias="dreamer", camp="村民阵营", rule=__doc__,
    skills=(Skill(name="摄梦", does=("help",), alias="dream", phases=("night",), step="午夜12b", tags=("指定",),
                  effect=dream,
                  rule="摄梦 [夜晚][指定] —— 除自己外任意一名角色（不选则随机）：当晚[坚韧]；发动者当晚出局或连续两夜同一结算目标时，结算目标承受[致死伤害]。"),),
)


@hookimpl
def bansha_roles():
    return [DREAMER]


@hookimpl
def bansha_step_handlers():
    return {"m217.dreamer.auto": auto}


@hookimpl
def bansha_on_death(res, player, kill):
    game = res.game
    last = player.data.get("摄梦.last")
    # > 若发动者当晚出局，结算目标承受[致死伤害]
    if game.phase.name == "night" and last and last[0] == game.day:
        for t in last[1]:
            res.kill(t, kind="致死伤害", by=player.name, rule="摄梦")
