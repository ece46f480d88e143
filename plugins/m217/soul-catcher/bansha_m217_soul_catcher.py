"""摄魂师 — 新日暮里 (M217), 弱神 ④.

> 14、摄魂师④
> 摄魂[早夜][指定]——选择范围：任意一名角色
> 结算效果：结算目标于早夜结束后收到通知，结算目标可以让导演明天公布不超过50字的任意内容（可以模仿技能公示如[熊咆哮了]）

摄魂 resolves at step (14) of 午夜's list (the number decides the order; the tag [早夜] stays on
the skill). The target is told with the night's feedback. What the target wants announced reaches
the director privately; the director enters it as the ruling ``proclaim PLAYER --text TEXT``
(50 characters at most), accepted on the next day only (the 晨曦 and 正午 after the night of the
摄魂), once per 摄魂, while the target is in the game. Given at 晨曦, the text is announced when the
正午 opens (开门), with the other skills' announcements of that day (熊<咆哮>: "熊咆哮了。"), so an
imitation reads the same; given at 正午, it is announced at once. Readings: docs/rulings/m217.md,
group weak-b.
"""

from bansha import Role, Skill, hookimpl


def phase_zh(game, label: str) -> str:
    from bansha_m217_rules import phase_zh as zh
    return zh(game, label)

CATCH = "摄魂"
GRANTS = "摄魂.grants"     # [[target, "noon N", used]]
QUEUE = "m217.tomorrow"    # {"noon N": [line, …]} announced when that noon opens
LIMIT = 50


def catch(res, a):
    game = res.game
    for t in a.targets:
        # > 结算目标于早夜结束后收到通知，结算目标可以让导演明天公布不超过50字的任意内容
        game.data.setdefault(GRANTS, []).append([t, f"noon {game.day}", False])
        res.feedback(t, f"你被摄魂：明天你可以让导演公布不超过{LIMIT}字的任意内容。")


SOUL_CATCHER = Role(
    name="摄魂师", alias="soul-catcher", camp="村民阵营", rule=__doc__,
    skills=(Skill(name=CATCH, alias="soul-catch", phases=("night",), step="午夜14a", may_target_self=True,
                  tags=("早夜", "指定"), effect=catch,
                  rule="摄魂[早夜][指定]——选择范围：任意一名角色。结算目标于早夜结束后收到通知，可以让导演明天公布"
                       "不超过50字的任意内容。"),),
)


@hookimpl
def bansha_roles():
    return [SOUL_CATCHER]


def grant(game, who):
    """The target's unused 摄魂 whose "明天" is today (the 晨曦 or 正午 of day N)."""
    if game.phase.name not in ("dawn", "noon"):
        return None
    return next((g for g in game.data.get(GRANTS, []) if g[0] == who and not g[2] and g[1] == f"noon {game.day}"), None)


@hookimpl
def bansha_ruling_kinds():
    return {"proclaim": ("公示", "玩家 --text 内容：公示摄魂目标要求公示的不超过50字的内容（摄魂之后的晨曦/正午）")}


@hookimpl
def bansha_awaited_rulings(game):
    """The text a living 摄魂 target may have announced today (``proclaim``, a free text)."""
    return [{"kind": "proclaim", "player": g[0], "question": "", "answers": []}
            for g in game.data.get(GRANTS, []) if grant(game, g[0]) is g and game.player(g[0]).alive]


@hookimpl
def bansha_validate_ruling(game, ruling):
    if ruling.kind != "proclaim":
        return None
    who = ruling.player
    p = game.players.get(who)
    if p is None:
        return f"裁定公示须指定本局的一名角色（收到的是“{who}”）"
    if grant(game, who) is None:
        return f"{who}在{phase_zh(game, game.label)}没有可用的{CATCH}（明天：{CATCH}当晚之后的晨曦/正午）"
    if not p.alive:
        return f"{who}已出局"
    if not ruling.text or len(ruling.text) > LIMIT:
        return f"{CATCH}：不超过{LIMIT}字的任意内容（收到{len(ruling.text)}字）"
    return None


@hookimpl
def bansha_apply_ruling(res, ruling):
    if ruling.kind != "proclaim":
        return None
    game = res.game
    g = grant(game, ruling.player)
    g[2] = True
    if game.phase.name == "dawn":
        game.data.setdefault(QUEUE, {}).setdefault(g[1], []).append(ruling.text)
        res.trace(CATCH, f"{ruling.player}的内容在{phase_zh(game, g[1])}开门时公示")
    else:
        res.announce(ruling.text)
    return True


@hookimpl
def bansha_phase_opened(res):
    """> 导演明天公布 — at 开门, the start of the 正午."""
    for line in res.game.data.get(QUEUE, {}).pop(res.label, []):
        res.announce(line)
