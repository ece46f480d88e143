"""白猫 — 新日暮里 (M217), 弱神 ③.

> 10、白猫③
> 猫有九命[强制][翻牌]——若白猫出局，白猫立刻翻牌并免于此次出局，触发后的下一个黄昏结束后，白猫受到[致死伤害]。

Every exit is caught, a kill of any kind (``bansha_stop_kill``) and a vote-out
(``bansha_vote_immune``, also a 钟's verdict or a tie under 全部出局), but only when nothing else
stops it: both hooks are wrappers, which answer after every other plugin has (守护, 坚韧, 不死, 霸道,
侍从<替死>, any 免疫 come first: a cat they keep in the game has not left it). A red card is not caught ("红牌罚下出局的角色…不能发动任何技能": the
director's ruling takes the player out directly). The delayed 致死伤害 lands at the end of the
next dusk's step (4) (handler ``m217.at.黄昏4.白猫``). Readings: docs/rulings/m217.md, group weak-b.
"""

from bansha import Action, Role, Skill, hookimpl
from bansha_m217_helpers import flip, forced_on, phase_zh, window

NINE = "猫有九命"
DUE = "白猫.due"


def able(game, p) -> bool:
    """<强制> (not under 遗忘), [翻牌] (the identity not yet public), and only the first exit."""
    return (NINE in game.skills_of(p) and forced_on(game, p, NINE)
            and not p.data.get("m217.revealed") and not p.data.get(DUE))


def next_dusk(game) -> str:
    """> 触发后的下一个黄昏 — the first dusk after the phase of the trigger."""
    if game.phase.name == "dusk":
        return f"dusk {game.day + 1}"
    return window(game, game.label, ("dusk",))


def spare(res, p) -> None:
    # > 若白猫出局，白猫立刻翻牌并免于此次出局
    p.data[DUE] = next_dusk(res.game)
    # > 触发后的下一个黄昏结束后，白猫受到[致死伤害] — that dusk by the board's name, said once
    # (not "持续至黄昏N结束后": a duration's words around a moment)
    res.feedback(p.name, f"猫有九命：你翻牌并免于此次出局，{res.game.named(p.data[DUE])}结束后受到[致死伤害]。")
    res.trace(NINE, f"{p.name}暂免一死；{phase_zh(res.game, p.data[DUE])}之后受到致死伤害")


@hookimpl(wrapper=True)
def bansha_stop_kill(res, kill):
    """Asked after every other stopper (a wrapper sees their answer): only an exit that would
    happen is caught."""
    stopped = yield
    p = res.game.player(kill.target)
    if stopped or not able(res.game, p):
        return stopped
    flip(res, Action(actor=p.name, skill=NINE))
    spare(res, p)
    return NINE


@hookimpl(wrapper=True)
def bansha_vote_immune(res, player):
    immune = yield
    if immune or not able(res.game, player):
        return immune
    # the kernel announces the line returned: the [翻牌] line ("X翻牌，实际身份为白猫。")
    player.data["m217.revealed"] = True
    spare(res, player)
    return f"{player.name}翻牌，实际身份为{player.role}。"


def due(res) -> None:
    """> 触发后的下一个黄昏结束后，白猫受到[致死伤害]。 — queued at dusk step (4); the step's
    ``m217.deaths`` lands it, after the step's skills."""
    game = res.game
    if game.pending_rewind is not None:
        return
    # (the cats due found first, then sorted: every dusk of every game asks)
    for p in sorted((p for p in game.players.values() if p.alive and p.data.get(DUE) == res.label), key=lambda p: p.seat):
        res.kill(p.name, kind="致死伤害", by=p.name, rule=NINE)


WHITE_CAT = Role(
    name="白猫", alias="white-cat", camp="村民阵营", rule=__doc__,
    skills=(Skill(name=NINE, alias="nine-lives", targets=0, tags=("强制", "翻牌"),
                  rule="猫有九命[强制][翻牌]——若白猫出局，白猫立刻翻牌并免于此次出局，触发后的下一个黄昏结束后，"
                       "白猫受到[致死伤害]。"),),
)


@hookimpl
def bansha_roles():
    return [WHITE_CAT]


@hookimpl
def bansha_step_handlers():
    return {"m217.at.黄昏4.白猫": due}
