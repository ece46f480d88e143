"""幼狼 — 新日暮里 (M217), 狼人阵营 ⑦.

> 11、幼狼[群内]⑦
> 激励<强制>——[触发]：当幼狼并非因红牌罚下而出局时，下一个[深夜]阶段，狼人的[杀人]获得[迅捷1]。
> 牺牲[深夜]—— 游戏日夜晚，若幼狼不是最后一只群内狼，幼狼可以对自己造成[暴击]，这个技能发动后，幼狼可以选择[牺牲]在出局效果结算步骤中的哪个步骤结算（如幼狼选择让[牺牲]在大野狼野性和白狼撕咬中间结算）。

Readings (docs/rulings/m217.md, group wolves-a):

- [迅捷] is not defined by the document. Option ``swift``: "额外次数" (default) reads [迅捷N] as N
  more uses of the skill in that phase: the pack may send 杀人 twice in that night (two 指杀, the
  latest two submissions count; kernel hook ``bansha_uses_in_phase``); "立即结算" reads it as
  "resolved at once": that night's 杀人 lands as soon as step (15) is over (handler
  ``m217.at.凌晨16.幼狼``), before 女巫 (16) and 灵鹿 (17) act, and what its victims sent for the
  later steps has no effect; "无" gives it no effect.
- "下一个[深夜]阶段" is the 深夜 of the first night that begins after the exit (a 幼狼 out at a
  night's (20) gives it to the next night). Several 幼狼: one use more each. The pack is told
  when that night begins. Lost under [遗忘] (<强制>); nothing on a red card.
- 牺牲 resolves at (15) before the pack's 杀人 (深夜15b); ``--arg after=<a rule of (20)>`` places its
  暴击 right after that rule's kills (option ``death_order``), ``after=最先`` before them all; without
  it, after them all. "不是最后一只群内狼": another player of the group 狼人 is in the game (checked
  when it is sent and when it resolves).
"""

from bansha import Role, Skill, for_skills, hookimpl
from bansha_m217_helpers import forgotten, phase_zh, window
from bansha_m217_rules import deaths

ME = "幼狼"
GROUP = "狼人"
KILL = "杀人"
FIRST = "最先"


def others_in_group(game, name: str) -> list[str]:
    return [p.name for p in game.alive() if GROUP in p.groups and p.name != name]


def sacrifice(res, a):
    game = res.game
    # > 若幼狼不是最后一只群内狼
    if not others_in_group(game, a.actor):
        res.void(a, "幼狼是最后一只群内狼", rule="牺牲")
        return
    # > 幼狼可以对自己造成[暴击]
    res.kill(a.actor, kind="暴击", by=a.actor, action=a, rule="牺牲")
    # > 幼狼可以选择[牺牲]在出局效果结算步骤中的哪个步骤结算
    after = a.args.get("after")
    if after:
        res.data.setdefault("m217.place", {})[("牺牲", a.actor)] = "" if after == FIRST else after
        res.trace("牺牲", f"{a.actor}的暴击" + ("最先结算" if after == FIRST else f"紧接{after}之后结算"))


CUB = Role(
    name=ME, alias="wolf-cub", camp="狼人阵营", group=GROUP, rule=__doc__,
    skills=(
        Skill(name="激励", alias="inspire", targets=0, tags=("强制",),
              rule="激励<强制>——[触发]：当幼狼并非因红牌罚下而出局时，下一个[深夜]阶段，狼人的[杀人]获得[迅捷1]。"),
        Skill(name="牺牲", alias="sacrifice", phases=("night",), step="深夜15b", priority=15, targets=0,
              tags=("深夜",), effect=sacrifice,
              args={"after": "暴击紧接第(20)步哪条规则的击杀之后结算（杀人、夜之锋刃、毒药 …），"
                             "或 最先；默认：在所有击杀之后"},
              # > 幼狼可以选择[牺牲]在出局效果结算步骤中的哪个步骤结算 — a rule of (20) (option death_order),
              # first, or left to the default (after them all)
              arg_values={"after": ("", FIRST, "{option:death_order}")},
              rule="牺牲[深夜]—— 游戏日夜晚，若幼狼不是最后一只群内狼，幼狼可以对自己造成[暴击]，"
                   "这个技能发动后，幼狼可以选择[牺牲]在出局效果结算步骤中的哪个步骤结算。"),
    ),
)


@hookimpl
def bansha_roles():
    return [CUB]


@hookimpl
def bansha_on_death(res, player, kill):
    """> 激励<强制>——[触发]：当幼狼并非因红牌罚下而出局时，下一个[深夜]阶段，狼人的[杀人]获得[迅捷1]。"""
    game = res.game
    if "激励" not in game.skills_of(player) or kill.rule == "红牌" or player.data.get("m217.red"):
        return
    if forgotten(player) or "激励" in player.data.get("m217.lost", ()):
        res.trace("激励", f"{player.name}已失去激励：不获得[迅捷1]")
        return
    # the first night that begins after the exit
    start = f"dawn {game.day}" if game.phase.name == "night" else game.label
    night = window(game, start, ("night",))
    swift = game.data.setdefault("m217.swift", {})
    swift[night] = swift.get(night, 0) + 1
    res.trace("激励", f"{KILL}在{phase_zh(game, night)}的深夜获得[迅捷1]")


@hookimpl
def bansha_uses_in_phase(game, player, skill):
    # > 狼人的[杀人]获得[迅捷1] — option swift = 额外次数: one more 杀人 that night
    extra = game.data.get("m217.swift", {}).get(game.label, 0)
    if skill.name == KILL and extra and game.option("swift") == "额外次数":
        return skill.per_phase + extra
    return None


@hookimpl
def bansha_phase_started(game):
    extra = game.data.get("m217.swift", {}).get(game.label, 0)
    swift = game.option("swift")
    if game.phase.name != "night" or not extra or swift not in ("额外次数", "立即结算"):
        return
    told = f"可以发动{1 + extra}次" if swift == "额外次数" else "立即结算"
    for p in game.alive():
        if GROUP in p.groups:
            game.feedback[p.name].append((game.label, f"激励：今晚[深夜]狼人的[杀人]获得[迅捷{extra}]，{told}。"))


def land_at_once(res):
    """Option swift = 立即结算: the [迅捷] 杀人 of this night lands as soon as (15) is over."""
    game = res.game
    if game.option("swift") != "立即结算" or not game.data.get("m217.swift", {}).get(res.label):
        return
    early = [k for k in res.kills if k.rule == KILL]
    if not early:
        return
    rest = [k for k in res.kills if k.rule != KILL]
    res.trace("迅捷", f"{KILL}立即结算：其击杀在{res.step}之前落地")
    res.kills = early
    deaths(res)  # with the death triggers they set off
    res.kills = rest + res.kills
    # > 角色出局后，不能继续参与讨论、投票、行使特权 — what they sent for this step and later is void
    steps = [st.name for st in game.phase.steps]
    here = steps.index(res.step)
    for a in res.actions:
        p = game.player(a.actor)
        skill, _ = game.find_skill(p, a.skill)
        if not p.alive and not a.void and not skill.while_out and skill.step in steps[here:]:
            res.void(a, f"{a.actor}已离开游戏", rule="迅捷")


@hookimpl
def bansha_step_handlers():
    return {"m217.at.凌晨16.幼狼": land_at_once}


@hookimpl
@for_skills("牺牲")
def bansha_validate_action(game, action):
    if action.skill != "牺牲":
        return None
    if not others_in_group(game, action.actor):
        return "牺牲：幼狼是最后一只群内狼（若幼狼不是最后一只群内狼）"
    after = action.args.get("after")
    order = game.option("death_order") or []
    if after and after != FIRST and after not in order:
        return f"牺牲：after须为{FIRST}或第(20)步的规则之一：{'、'.join(order)}"
    return None
