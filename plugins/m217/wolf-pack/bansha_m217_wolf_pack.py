"""狼人阵营 通用 — the 群内 wolves' shared 杀人 and 接刀 (新日暮里 M217).

> 通用：该阵营的角色若标明[群内]，则入狼群，并与所有群内共享一个杀人技能，若[杀人]需要判定技能来源，
> 则随机一群内成为该技能的来源。
> 该阵营的角色若标明[接刀]，则所有[群内]狼出局，或所有[群内]狼皆承受永久的[业炎/净化]状态时，[接刀]的
> 角色获得[杀人]技能并可使用，之后若[群内]狼复活，或状态已清除，则不再接刀，由[群内]进行出刀。
> [群内]可用技能
> 杀人[夜晚][指定]——选择目标：任意一名角色，第一晚不可使用。
> 结算效果：对结算目标造成一次[指杀]。

The pseudo-role 狼人 is never dealt: it holds 杀人 for every player in the group 狼人 (a role
declaring ``group="狼人"`` is 群内; a role setting ``player.data["m217.接刀"] = order`` is 接刀).
"""

from bansha import Role, Skill, for_skills, hookimpl
from bansha_m217_helpers import has, hit

GROUP = "狼人"


def kill(res, a):
    # > 若[杀人]需要判定技能来源，则随机一群内成为该技能的来源。
    # (an acquired 杀人 — 丘比特's 黑情侣 lover — is its holder's own: its source is the holder)
    members = [p.name for p in sorted(res.game.alive(), key=lambda p: p.seat) if GROUP in p.groups] if a.group else []
    source = res.rng.choice(members) if members else a.actor
    for t in a.targets:
        # > 结算效果：对结算目标造成一次[指杀]。
        hit(res, a, t, "指杀", by=source)


KILL = Skill(
    name="杀人", does=("harm",), alias="kill", phases=("night",), step="深夜15b", group=GROUP,
    may_target_self=True, tags=("指定", "群内", "指杀"),
    rule="杀人[夜晚][指定]——选择目标：任意一名角色，第一晚不可使用。结算效果：对结算目标造成一次[指杀]。",
    effect=kill,
)
PACK = Role(name="狼人", alias="wolf-pack", camp="狼人阵营", skills=(KILL,), rule=__doc__)


def inner(game, p) -> bool:
    """A holder of the [群内] tag: in the group 狼人 and not an heir by [接刀]. The tag can be lost
    (丘比特's lover wolf leaves the group) or gained (影子 inherits it), so the group decides, not
    the role card."""
    return GROUP in p.groups and p.data.get("m217.接刀") is None


def standing(game, p) -> bool:
    """A 群内 wolf still holds the knife: in the game and not under a permanent 业炎/净化."""
    return p.alive and not any(s.name in ("业炎", "净化") and s.until is None for s in p.statuses)


@hookimpl
def bansha_roles():
    return [PACK]


@hookimpl
def bansha_phase_started(game):
    """接刀: at the turn of every phase, the first 接刀 heir in order holds 杀人 while no 群内
    wolf stands, and gives it back when one stands again."""
    if not any(p.data.get("m217.接刀") is not None for p in game.players.values()):
        return  # nobody holds [接刀] (asked at every phase start)
    heirs = sorted((p for p in game.players.values() if p.data.get("m217.接刀") is not None
                    and "接刀" not in p.data.get("m217.lost", ())), key=lambda p: p.data["m217.接刀"])
    # > 所有[群内]狼出局，或所有[群内]狼皆承受永久的[业炎/净化]状态时，[接刀]的角色获得[杀人]技能并可使用，
    # > 之后若[群内]狼复活，或状态已清除，则不再接刀，由[群内]进行出刀。
    pack_stands = any(standing(game, p) for p in game.players.values() if inner(game, p))
    # > [超度]：…会丢失且无法获得[群内]或[接刀]标签，直到状态消除才还原。
    heir = None if pack_stands else next((p for p in heirs if p.alive and not has(p, "超度")), None)
    for p in game.players.values():
        if p.data.get("m217.接刀") is None:
            continue
        holding = GROUP in p.groups
        if p is heir and not holding:
            p.groups.append(GROUP)
            game.feedback[p.name].append((game.label, "接刀：你获得了[杀人]技能。"))
        elif p is not heir and holding:
            p.groups.remove(GROUP)
            game.feedback[p.name].append((game.label, "[群内]狼仍在，你不再接刀。"))


@hookimpl
@for_skills(KILL.name)
def bansha_validate_action(game, action):
    if action.skill != KILL.name:
        return None
    # > 杀人[夜晚][指定]——选择目标：任意一名角色，第一晚不可使用。
    if game.day == 1:
        return "杀人在第一晚不能发动（第一晚不可使用）"
    actor = game.player(action.actor)
    if has(actor, "超度"):
        return f"{actor.name}处于超度状态，不能发动杀人"
    for p in game.alive():
        # > [缴械]：该状态下不能发动[杀人]，若是[群内]，也会影响整个群内不能发动杀人。
        if GROUP in p.groups and has(p, "缴械"):
            return f"{p.name}处于缴械状态：整个群内不能发动杀人"
    return None
