"""天师 — 新日暮里 (M217), 弱神 ④.

> 12、天师④
> 通天[夜晚][限定]——游戏日夜晚，天师可以询问导演任何20字以内，可以用是，否，无法回答三种答案来回复的问题，
> 导演会在深夜结束后，根据游戏内内容准确反馈[是/否/无法回答]。
> （问题需要直观合理，若导演判断问题不够直观合理，需重新提问。）

The question is ``--arg question=…`` and resolves at step (14) (深夜); the director answers with
the ruling ``answer`` (``bansha_m217_director.ask``: told with the night's feedback, or at once
when given after it). The ruling ``reask PLAYER --text REASON`` is the director's "需重新提问":
while the night is open the question is withdrawn (the 天师 asks again that night); once the
night has resolved, the question is closed unanswered and the [限定] use is given back (he asks
again on a later night). Readings: docs/rulings/m217.md, group weak-b.
"""

from bansha import Role, Skill, for_skills, hookimpl
from bansha_m217_director import ask, asking, open_question

HEAVENS = "通天"


def heavens(res, a):
    # > 导演会在深夜结束后，根据游戏内内容准确反馈[是/否/无法回答]。
    ask(res, a)


TIANSHI = Role(
    name="天师", alias="tianshi", camp="村民阵营", rule=__doc__,
    skills=(Skill(name=HEAVENS, alias="heavens", phases=("night",), step="深夜14b", targets=0, uses=1,
                  tags=("限定",), effect=heavens,
                  args={"question": "由导演回答是/否/无法回答的问题，不超过20字"},
                  # what a simulated 天师 asks (bansha simulate): questions the rules let him ask
                  arg_values={"question": ("狼人阵营还有三人以上存活吗？", "我的上家是狼人阵营吗？", "今晚有人出局吗？")},
                  open_args=("question",),  # (examples: any question of 20 characters)
                  rule="通天[夜晚][限定]——询问导演任何20字以内、可以用是/否/无法回答回复的问题，导演在深夜结束后反馈。"),),
)


@hookimpl
def bansha_roles():
    return [TIANSHI]


@hookimpl
@for_skills(HEAVENS)
def bansha_validate_action(game, action):
    if action.skill == HEAVENS and len(action.args.get("question", "")) > 20:
        # > 天师可以询问导演任何20字以内…的问题
        return f"{HEAVENS}: 询问导演任何20字以内的问题"
    return None


@hookimpl
def bansha_ruling_kinds():
    return {"reask": ("重新提问", "玩家 [--text 理由]：天师的问题并非直观合理，须重新提问（需重新提问）")}


@hookimpl
def bansha_validate_ruling(game, ruling):
    if ruling.kind != "reask":
        return None
    who = ruling.player
    if who not in game.players:
        return f"裁定reask须指定本局的一名角色（收到的是“{who}”）"
    if asking(game, who) is None and open_question(game, who) is None:
        return f"{who}没有可退回的提问"
    return None


@hookimpl
def bansha_apply_ruling(res, ruling):
    """> （问题需要直观合理，若导演判断问题不够直观合理，需重新提问。）"""
    if ruling.kind != "reask":
        return None
    game, who = res.game, ruling.player
    why = f"（{ruling.text}）" if ruling.text else ""
    a = asking(game, who)
    if a is not None:
        # the night is open: the question is withdrawn, a new one may be sent this night
        game.actions.remove(a)
        game.data.get("m217.answers", {}).pop(str(a.seq), None)
        res.feedback(who, f"{a.skill}：{a.args['question']}——问题不够直观合理{why}，需重新提问。")
    else:
        q = open_question(game, who)
        q["answer"] = "需重新提问"
        p = game.player(who)
        p.uses[q["skill"]] = p.uses.get(q["skill"], 0) + 1
        res.feedback(who, f"{q['skill']}：{q['question']}——问题不够直观合理{why}，需重新提问。")
    res.trace("导演", f"{who}的提问被退回：需重新提问")
    return True
