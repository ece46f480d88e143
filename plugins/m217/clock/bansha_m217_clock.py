"""钟 — 新日暮里 (M217), 强神 ⑤.

> 时光倒流[晨曦][黄昏][翻牌]——钟出局或游戏结束时，钟立刻获得[自由]状态并公示[时光回溯]，持续至下一个游戏日
> 白天开始。若发动时处于[晨曦]阶段，则游戏内时间，所有人员技能状态、存活状态均回到上一个夜晚开始；若发动时处于
> [黄昏]阶段，则游戏内时间，所有人员技能状态、存活状态回到投票之前，然后钟可以任意指定一名玩家承受最高票[投票出局]。
> PS：发动者本身不会因为回溯重新盖伏身份牌。
> 无法回溯白天技能造成的影响，例如白狼王和白狼王突击的角色不会复活。
> 如果黄昏阶段同一时间触发多次此技能，则所有发动者都可以指定一名角色，他们都会最高票投票出局，若此时有替罪羊
> 效果存在，则替罪羊承担最高票平票出局。

The skill resolves in the step ``时光倒流`` of dawn and dusk (after step (2)) and turns the game
back with the kernel's ``res.rewind``: at dawn N to the start of night N, at dusk N to just before
noon N-1 was resolved; noon N-1 is then resolved again and the handler ``m217.clock.verdict``
puts out the named players instead of counting the ballots. ``m217.hold-end`` keeps a game that
has ended open until the next dawn/dusk while a 钟 may still turn back (docs/rulings/m217.md).
"""

from bansha import Role, Skill, Status, for_skills, hookimpl
from bansha_m217_helpers import ends, exit_of, flip, phase_zh, window
from bansha_m217_rules import vote_out

NAME = "时光倒流"


def turn_back(res, a):
    game = res.game
    flip(res, a)
    # > 钟立刻获得[自由]状态并公示[时光回溯]，持续至下一个游戏日白天开始。
    res.announce("[时光回溯]")
    until = f"night {game.day}"
    res.feedback(a.actor, f"你获得了[自由]状态，{ends(game, until)}。")
    dusk = game.phase.name == "dusk"
    label, old_data, old_players, old_actions = game.label, game.data, game.players, list(game.actions)

    def keep(g):
        clock = g.player(a.actor)
        # > PS：发动者本身不会因为回溯重新盖伏身份牌。 (and the skill stays spent)
        clock.data["m217.revealed"] = True
        clock.uses[NAME] = 0
        clock.statuses.append(Status(name="自由", until=until, source=NAME))
        # > 无法回溯白天技能造成的影响: who left the game by a skill of this day phase stays out,
        # and a day skill used in it stays used
        for e in old_data.get("m217.exits", []):
            p = g.player(e[1])
            if e[0] == label and e[4] and p.alive:
                p.alive = False
                g.out.setdefault(label, []).append(p.name)
                g.data.setdefault("m217.exits", []).append(list(e))
        for b in old_actions:
            if b.actor != a.actor:
                p, was = g.player(b.actor), old_players[b.actor]
                p.uses, p.acquired = dict(was.uses), dict(was.acquired)
        if dusk:
            # > 然后钟可以任意指定一名玩家承受最高票[投票出局]。
            g.data.setdefault("m217.clock.verdict", []).append(a.targets[0])

    if dusk:
        # > 若发动时处于[黄昏]阶段，则…回到投票之前
        res.rewind(f"noon {game.day - 1}", "resolve", keep)
    else:
        # > 若发动时处于[晨曦]阶段，则…均回到上一个夜晚开始
        res.rewind(f"night {game.day}", "start", keep)


def able(game, p) -> bool:
    """A 钟 that may still turn back: the skill unspent, not lost, the card not yet shown."""
    return (NAME in game.skills_of(p) and p.uses.get(NAME, 0) > 0
            and NAME not in p.data.get("m217.lost", ()) and not p.data.get("m217.revealed"))


def hold_end(game, winners) -> bool:
    """> 钟出局或游戏结束时 — the end waits for the next 晨曦/黄昏 while a 钟 may turn back; it is
    decided when that phase closes without a rewind."""
    if game.phase.name in CLOCK_SKILL.phases and game.resolved and game.resolved[-1] == game.label:
        return False
    if not any(able(game, p) for p in game.players.values()):
        return False
    game.data["m217.clock.end"] = list(winners)
    return True


def verdict(res):
    """Noon, after the count: the players named by 钟 are voted out instead of the top count."""
    game = res.game
    named = game.data.pop("m217.clock.verdict", None)
    if not named:
        return
    res.public = [line for line in res.public if line != game.manifest.texts.nobody_out]
    for name in dict.fromkeys(named):
        # settled as the count's vote-out is (option vote_out: at 黄昏 (1) by default)
        vote_out(res, name, rule=NAME)


CLOCK_SKILL = Skill(
    name=NAME, alias="rewind", phases=("dawn", "dusk"), step=NAME, targets=0, max_targets=1, uses=1,
    may_target_self=True, may_target_dead=True, while_out=True, tags=("翻牌",), effect=turn_back,
    rule="时光倒流[晨曦][黄昏][翻牌]——钟出局或游戏结束时：晨曦回到上一个夜晚开始；黄昏回到投票之前，"
         "然后钟指定一名玩家承受最高票[投票出局]（黄昏时给出1个目标）。",
)
CLOCK = Role(name="钟", alias="clock", camp="村民阵营", rule=__doc__, skills=(CLOCK_SKILL,))


@hookimpl
def bansha_roles():
    return [CLOCK]


@hookimpl
def bansha_step_handlers():
    return {"m217.hold-end": hold_end, "m217.clock.verdict": verdict}


@hookimpl
@for_skills(NAME)
def bansha_validate_action(game, action):
    if action.skill != NAME:
        return None
    p = game.player(action.actor)
    # > 钟出局或游戏结束时
    gone = exit_of(game, p.name) if not p.alive else None
    if not game.data.get("m217.clock.end") and not (gone and window(game, gone[0], CLOCK_SKILL.phases) == game.label):
        return f"{NAME}只能在钟刚出局或游戏结束时发动"
    if game.phase.name == "dusk" and len(action.chosen) != 1:
        return f"{NAME}在黄昏发动时指定获得最高票的角色（1个目标）"
    if game.phase.name == "dusk" and game.day <= game.manifest.first_day:
        return f"{phase_zh(game, game.label)}之前没有可回溯的投票"
    if game.phase.name == "dawn" and action.chosen:
        return f"{NAME}在晨曦发动时不指定目标"
    return None


@hookimpl
def bansha_adjust_ballots(res, ballots):
    # > 回到投票之前，然后钟可以任意指定一名玩家承受最高票[投票出局]: the ballots are not counted
    if res.game.data.get("m217.clock.verdict"):
        for b in ballots:
            b.void = "时光回溯：钟指定承受最高票的角色"
