"""狼弟 — 新日暮里 (M217), 狼人阵营 ⑧.

> 7、狼弟⑧
> 与狼兄互知不共群，有狼弟必有狼兄。
> 潜藏[开局][黄昏]<强制>——[常驻]：游戏开局，狼弟可以设置自己的全部表面伪装。
> [触发]：黄昏结束后，狼兄不是存活状态时，狼弟获得[群内]标签，然后本技能失效。
> 继承[早夜][指定][0：获得群内标签时]——选择范围：[激进]，1人。
> 结算效果：对结算目标造成[暴击]。
> 齐心<强制>——与狼兄投票给同一个角色时，自己投出的票数+1票计算。

Readings (docs/rulings/m217.md, group wolves-a): 潜藏 at 开局 takes ``--arg camp=… role=… armed=是|否``
(any of them; what is not set stays the actual one) and may be left unused ("可以设置"). The disguise
is a status of the <强制> skill: it is lost with it ("若强制技能提供任何[状态]，则该强制技能失效后，这些
状态也一同失效"), so under [遗忘] and once 潜藏 has triggered, checks read the actual card again. The
trigger is checked when each night begins (黄昏结束后): no living 狼兄 → 狼弟 joins the group 狼人 (the
pack is told), 潜藏 is lost and 继承 gets its 1 use. [激进] is not defined by the document: read as
"除自己外任意一名角色". 继承 resolves at (3) after 夜之锋刃 (早夜3); its 暴击 lands after the kills (20)
lists. 齐心 is 狼兄's (shared code, bansha_m217_wolf_elder.unison).
"""

from bansha import GameError, Role, Skill, for_skills, hookimpl
from bansha_m217_helpers import forced_on, give, has, hit
from bansha_m217_rules import settle
from bansha_m217_wolf_elder import know_each_other, partner_view, unison

ME, PARTNER = "狼弟", "狼兄"
HIDE, INHERIT = "潜藏", "继承"
GROUP = "狼人"
WORDS = {"camp": "阵营", "role": "身份", "armed": "带刀"}


def hide(res, a):
    # > [常驻]：游戏开局，狼弟可以设置自己的全部表面伪装。
    seen = {k: a.args[k] for k in ("camp", "role") if a.args.get(k)}
    if a.args.get("armed"):
        seen["armed"] = a.args["armed"] == "是"
    give(res, a.actor, "伪装", source=HIDE, forced=HIDE, told=False, **seen)
    # told in the board's words, not the --arg names
    shown = "，".join(f"{WORDS[k]}：{v}" for k, v in a.args.items() if k in WORDS)
    res.feedback(a.actor, f"潜藏：你的表面伪装为 {shown}。")


def inherit(res, a):
    # > 结算效果：对结算目标造成[暴击]。
    if settle(res, a):
        hit(res, a, a.targets[0], "暴击")


YOUNGER = Role(
    name=ME, alias="wolf-younger", camp="狼人阵营", rule=__doc__,
    skills=(
        Skill(name=HIDE, alias="hide", phases=("opening",), step="开局", targets=0,
              tags=("开局", "黄昏", "强制"), effect=hide,
              args={"camp": "表面阵营（本版的一个阵营）", "role": "表面身份", "armed": "表面带刀：是|否"},
              # > 游戏开局，狼弟可以设置自己的全部表面伪装。 — any of the three ("" : stays the actual one)
              arg_values={"camp": ("", "{camp}"), "role": ("", "{role}"), "armed": ("", "是", "否")},
              rule="潜藏[开局][黄昏]<强制>——[常驻]：游戏开局，狼弟可以设置自己的全部表面伪装。"
                   "[触发]：黄昏结束后，狼兄不是存活状态时，狼弟获得[群内]标签，然后本技能失效。"),
        Skill(name=INHERIT, does=("harm",), alias="inherit", phases=("night",), step="早夜3", priority=20, uses=0,
              tags=("早夜", "指定"), effect=inherit,
              rule="继承[早夜][指定][0：获得群内标签时]——选择范围：[激进]（除自己外），1人。结算效果：对结算目标造成[暴击]。"),
        Skill(name="齐心", alias="unison", targets=0, tags=("强制",),
              rule="齐心<强制>——与狼兄投票给同一个角色时，自己投出的票数+1票计算。"),
    ),
)


@hookimpl
def bansha_roles():
    return [YOUNGER]


@hookimpl
def bansha_setup_game(game):
    # > 与狼兄互知不共群
    know_each_other(game, ME, PARTNER)


@hookimpl
def bansha_player_view(game, player):
    return partner_view(game, player, ME, PARTNER)


@hookimpl
@for_skills(HIDE)
def bansha_validate_action(game, action):
    if action.skill != HIDE:
        return None
    camp = action.args.get("camp")
    if camp:
        try:
            game.ruleset.camp(camp)
        except GameError:
            return f"潜藏：{camp}不是本版的阵营"
    if action.args.get("role") and action.args["role"] not in game.ruleset.roles:
        return f"潜藏：表面身份{action.args['role']}不是本版的身份"
    if action.args.get("armed") not in (None, "是", "否"):
        return "潜藏：armed须为是或否"
    return None


@hookimpl
def bansha_skill_unavailable(game, player, skill):
    if skill.name == INHERIT and HIDE in game.skills_of(player) and HIDE not in player.data.get("m217.lost", ()):
        return "继承为[0：获得群内标签时]：狼弟获得[群内]标签之前没有可用次数"
    return None


@hookimpl
@for_skills(HIDE)  # called only in a game where a player holds it
def bansha_phase_started(game):
    """> [触发]：黄昏结束后，狼兄不是存活状态时，狼弟获得[群内]标签，然后本技能失效。"""
    if game.phase.name != "night":
        return
    if any(p.alive for p in game.players.values() if p.role == PARTNER):
        return
    for p in game.players.values():
        # <强制>: works while he is in the game, not under 遗忘 and has not lost it;
        # > [超度]：…会丢失且无法获得[群内]或[接刀]标签
        # whoever holds 潜藏 ("狼弟" is its holder)
        if not forced_on(game, p, HIDE) or has(p, "超度"):
            continue
        pack = [q.name for q in game.alive() if GROUP in q.groups]
        if GROUP not in p.groups:
            p.groups.append(GROUP)
        p.data.setdefault("m217.lost", []).append(HIDE)
        p.uses[INHERIT] = p.uses.get(INHERIT, 0) + 1
        game.feedback[p.name].append((game.label, "潜藏：狼兄不是存活状态，你获得了[群内]标签，[潜藏]失效，[继承]可以发动（1次）。"))
        for name in pack:
            game.feedback[name].append((game.label, f"狼弟{p.name}获得了[群内]标签。"))


@hookimpl(trylast=True)
def bansha_adjust_ballots(res, ballots):
    # > 齐心<强制>——与狼兄投票给同一个角色时，自己投出的票数+1票计算。
    unison(res, ballots, ME, PARTNER)
