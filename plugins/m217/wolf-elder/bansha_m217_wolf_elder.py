"""狼兄 — 新日暮里 (M217), 狼人阵营 ⑥.

> 3、狼兄[群内]⑥
> 与狼弟互知不共群，有狼兄必有狼弟。
> 暴怒[深夜][指定][0：狼弟出局时]—— 选择范围：1人。
> 结算效果：对结算目标造成[穿透]。
> 齐心[强制]——与狼弟投票给同一个角色时触发此效果：自己本次投出的票数+1票计算。

"有狼兄必有狼弟" is the deal's ``requires`` constraint (m217.toml). "互知": each is told the other's
name when the game is created and sees it in ``bansha status --as``; "不共群": 狼弟 is not [群内]
(his own plugin). 暴怒 starts with 0 uses and gets 1 when 狼弟 leaves the game; it resolves last
in step (15) (深夜15b) and its kill lands after the kills (20) lists. 齐心 adds 1 to the 狼兄's own
ballot when 狼弟's counted ballot names the same player (not 弃权); under 迷魂 his ballot stays 0.
"""

from bansha import Role, Skill, hookimpl
from bansha_m217_helpers import forced_on, has, hit, holders, origin
from bansha_m217_rules import settle

ME, PARTNER = "狼兄", "狼弟"
RAGE = "暴怒"


def rage(res, a):
    # > 结算效果：对结算目标造成[穿透]。
    if settle(res, a):
        hit(res, a, a.targets[0], "穿透")


ELDER = Role(
    name=ME, alias="wolf-elder", camp="狼人阵营", group="狼人", rule=__doc__,
    skills=(
        Skill(name=RAGE, does=("harm",), alias="rage", phases=("night",), step="深夜15b", priority=70, uses=0,
              may_target_self=True, tags=("深夜", "指定"), effect=rage,
              rule="暴怒[深夜][指定][0：狼弟出局时]—— 选择范围：1人。结算效果：对结算目标造成[穿透]。"),
        Skill(name="齐心", alias="unison", targets=0, tags=("强制",),
              rule="齐心[强制]——与狼弟投票给同一个角色时触发此效果：自己本次投出的票数+1票计算。"),
    ),
)


def unison(res, ballots, me: str, partner: str) -> None:
    """> 齐心——与X投票给同一个角色时…自己本次投出的票数+1票计算。 (shared by 狼兄 and 狼弟)"""
    game = res.game
    abstain = game.manifest.vote.abstain
    for b in ballots:
        p = game.player(b.voter)
        # whoever holds this brother's 齐心 (an heir's too); the partner is the role the sentence names
        if origin(game, p, "齐心") != me or b.void or b.target == abstain or not forced_on(game, p, "齐心"):
            continue
        if has(p, "迷魂"):
            continue  # > [迷魂]：该状态下投票算作0票
        if any(o.target == b.target and not o.void and game.player(o.voter).role == partner for o in ballots):
            b.weight += 1
            res.trace("齐心", f"{b.voter}与{partner}都投票给{b.target}：{b.voter}的投票计{b.weight:g}票")


@hookimpl
def bansha_roles():
    return [ELDER]


def know_each_other(game, me: str, partner: str) -> None:
    """> 与狼弟互知不共群 / 与狼兄互知不共群 — each brother is told the other at the deal (not in
    one group: 狼弟 is outside the pack until 潜藏 ends)."""
    partners = [p.name for p in game.players.values() if p.role == partner]
    for p in game.players.values():
        if p.role == me and partners:
            game.feedback[p.name].append((game.label, f"{partner}是{'、'.join(partners)}。"))


def partner_view(game, player, me: str, partner: str):
    if player.role == me:
        return {partner: "、".join(p.name for p in game.players.values() if p.role == partner)}
    return None


@hookimpl
def bansha_setup_game(game):
    know_each_other(game, ME, PARTNER)


@hookimpl
def bansha_player_view(game, player):
    return partner_view(game, player, ME, PARTNER)


@hookimpl
def bansha_on_death(res, player, kill):
    # > 暴怒[深夜][指定][0：狼弟出局时]
    if player.role != PARTNER:
        return
    for p in holders(res.game, RAGE, alive=False):
        p.uses[RAGE] = p.uses.get(RAGE, 0) + 1
        p.data["m217.暴怒"] = True
        if p.alive:
            res.feedback(p.name, "狼弟出局，你获得了[暴怒]（1次）。")


@hookimpl
def bansha_skill_unavailable(game, player, skill):
    if skill.name == RAGE and not player.data.get("m217.暴怒"):
        return "暴怒为[0：狼弟出局时]：狼弟出局之前没有可用次数"
    return None


@hookimpl(trylast=True)
def bansha_adjust_ballots(res, ballots):
    # after the rules have weighed every ballot (迷魂, extra votes)
    unison(res, ballots, ME, PARTNER)
