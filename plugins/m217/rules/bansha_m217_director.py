"""新日暮里 (M217) — the director's input, through the kernel's ruling hooks.

Kinds (``bansha ruling GAME KIND [PLAYER] --text …``):

- ``answer``     — the director's answer to a question a skill asked (天师<通天>-style); told to
  the asker with the night's feedback, or at once when given after the night;
- ``void``       — a ballot in the wrong form or for a wrong target is void (``--text`` the reason);
- ``remove``     — a red card (红牌罚下): at 晨曦/正午 the exit waits for the vote's count;
- ``substitute`` — a 替补 takes over a seat, once per seat;
- ``accelerate`` / ``delay`` — 执行加速 and its end (no vote changes, no yellow cards).

Role plugins add their own kinds through the same hooks (天师's ``reask``, 摄魂师's ``proclaim``).

Proxy votes (代投) are ballots entered with ``bansha vote --proxy``: their limits are in
``bansha_m217_votes``. Nothing here is kept outside ``game.data`` and ``player.data``.
"""

from __future__ import annotations

from bansha import Kill, hookimpl
from bansha_m217_helpers import board_tables, skill_of


def phase_zh(game, label: str) -> str:
    from bansha_m217_helpers import phase_zh as zh
    return zh(game, label)

#: > 导演会在深夜结束后，根据游戏内内容准确反馈[是/否/无法回答]。
ANSWERS = ("是", "否", "无法回答")


# ---------------------------------------------------------------------------- questions


def asking(game, player: str):
    """This phase's action of ``player`` that carries a question (``--arg question=…``) and has not
    resolved yet (a night resolves window by window: once its window is over, the question is open)."""
    asked = {q.get("seq") for q in game.data.get("m217.questions", []) if q["phase"] == game.label}
    return next((a for a in reversed(game.actions)
                 if a.actor == player and a.args.get("question") and a.void is None and a.seq not in asked), None)


def ask(res, action, answers=ANSWERS) -> None:
    """Called by a question skill's effect when it resolves (天师<通天> at step (14)).

    > 通天[夜晚][限定]——游戏日夜晚，天师可以询问导演任何20字以内，可以用是，否，无法回答三种答案来回复的
    > 问题，导演会在深夜结束后，根据游戏内内容准确反馈[是/否/无法回答]。
    An answer the director gave during the night is told now, with the night's feedback; without
    one the question stays open and the ``answer`` ruling tells it when it comes."""
    game = res.game
    q = {"asker": action.actor, "skill": action.skill, "phase": res.label,
         "question": action.args["question"], "answers": list(answers), "answer": None, "seq": action.seq}
    given = game.data.setdefault("m217.answers", {}).pop(str(action.seq), None)
    game.data.setdefault("m217.questions", []).append(q)
    res.trace("导演", f"{action.actor}提问：{q['question']}")
    if given is not None:
        tell(res, q, given)


def tell(res, q: dict, answer: str) -> None:
    q["answer"] = answer
    res.feedback(q["asker"], f"{q['skill']}：{q['question']}——{answer}")


def open_question(game, player: str) -> dict | None:
    return next((q for q in game.data.get("m217.questions", [])
                 if q["asker"] == player and q["answer"] is None), None)


# --------------------------------------------------------------------------- red cards


def sent_off(p) -> bool:
    return bool(p.data.get("m217.red"))


def red_cards(res) -> None:
    """Noon, after the vote is counted.

    > 白天红牌罚下导致的出局结算在投票结算之后执行。
    The red cards given in 晨曦 or 正午 take their players out here, in the order given."""
    game = res.game
    for name in game.data.pop("m217.red-pending", []):
        p = game.player(name)
        if p.alive:
            res.remove(p, Kill(target=p.name, kind="ruling", rule="红牌", last_words=False))
        else:
            res.trace("红牌", f"{p.name}已出局")


def red_card(res, p, reason: str) -> None:
    """> 红牌罚下出局的角色没有遗言权利，不能发动任何技能（视作被业炎处理）。
    > 白天红牌罚下导致的出局结算在投票结算之后执行。 (晨曦/正午/黄昏属于白天; the vote is settled
    when noon closes, so a card of 晨曦 or 正午 waits for it, one of 黄昏 or the night is at once)"""
    game = res.game
    p.data["m217.red"] = res.label
    res.announce(f"{p.name}被红牌罚下。")
    res.trace("红牌", f"{p.name}被红牌罚下：{reason or '导演裁定'}")
    # > 不能发动任何技能 — what the player sent in this phase has no effect
    # (an immediate skill was answered already; a 群内 skill is the group's)
    for a in game.actions:
        if a.actor == p.name and not a.group and not game.find_skill(p, a.skill)[0].immediate:
            res.void(a, "红牌罚下", rule="红牌")
    if game.phase.name in ("dawn", "noon"):
        game.data.setdefault("m217.red-pending", []).append(p.name)
        res.trace("红牌", f"{p.name}在正午{game.day}的投票之后离开游戏")
    else:
        res.remove(p, Kill(target=p.name, kind="ruling", rule="红牌", last_words=False))
        # what the exit triggers (粉丝's idol, a lover: "连带受到[致死伤害]") lands at once too
        from bansha_m217_rules import deaths

        deaths(res)


# ------------------------------------------------------------------------------ hooks


def substituted(game, name: str) -> bool:
    """> 每名角色仅限更换一次替补。 — the seat's current player came in as a substitute."""
    return any(r.kind == "substitute" and r.text.strip() == name for r in game.rulings)


@hookimpl
def bansha_ruling_kinds():
    return {
        "answer": ("回答", "玩家 --text 是|否|无法回答：回答技能提出的问题（天师<通天>）"),
        "void": ("无效票", "玩家 [--text 理由]：该玩家的投票无效（无效票须通过重新发帖来更正）"),
        "remove": ("红牌", "玩家 [--text 理由]：红牌罚下；在晨曦/正午时，待计票后生效"),
        "substitute": ("替补", "玩家 --text 新名字：替补接手该座位，每个座位限一次"),
        "accelerate": ("执行加速", "执行加速：不允许改票，不发黄牌（仅限正午）"),
        "delay": ("准许延迟", "准许延迟：当天不再执行加速（仅限正午）"),
    }


@hookimpl
def bansha_awaited_rulings(game):
    """Every question still without its answer (``answer``), for a stand-in director."""
    return [{"kind": "answer", "player": q["asker"], "question": q["question"], "answers": list(q["answers"])}
            for q in game.data.get("m217.questions", []) if q["answer"] is None]


@hookimpl
def bansha_validate_ruling(game, ruling):
    kind, who = ruling.kind, ruling.player
    p = game.players.get(who) if who else None
    if kind in ("answer", "void", "remove", "substitute") and p is None:
        return f"裁定{kind}须指定本局的一名角色（收到的是“{who}”）"
    if kind == "answer":
        a, q = asking(game, who), open_question(game, who)
        wanted = q["answers"] if q and not a else list(ANSWERS)
        if a is None and q is None:
            return f"{who}没有待回答的提问"
        if ruling.text not in wanted:
            return f"回答须为{'/'.join(wanted)}之一"
    elif kind == "void":
        if not game.phase.vote or not any(b.voter == who for b in game.ballots):
            return f"{who}在{phase_zh(game, game.label)}没有可判为无效的投票"
    elif kind == "remove":
        if not p.alive:
            return f"{who}已出局"
        if sent_off(p):
            return f"{who}已被红牌罚下"
    elif kind == "substitute" and sent_off(p):
        return f"{who}已被红牌罚下：不能替补"
    elif kind == "substitute" and substituted(game, who):
        return f"{who}已是替补：每名角色仅限更换一次替补（无法继续进行游戏时红牌罚下）"
    elif kind in ("accelerate", "delay") and not game.phase.vote:
        return f"{kind}是讨论日（正午）的裁定，当前为{phase_zh(game, game.label)}"
    return None


@hookimpl
def bansha_apply_ruling(res, ruling):
    game, who = res.game, ruling.player
    if ruling.kind == "answer":
        a = asking(game, who)
        if a is not None:
            # the question resolves with the night: the answer waits for it
            game.data.setdefault("m217.answers", {})[str(a.seq)] = ruling.text
            res.trace("导演", f"对{who}的{a.skill}的回答保留至其结算")
        else:
            tell(res, open_question(game, who), ruling.text)
        return True
    if ruling.kind == "void":
        # > 投票格式或投票对象有误的票无效。无效票须通过重新发帖来更正。
        b = [b for b in game.ballots if b.voter == who][-1]
        game.ballots.remove(b)
        game.data.setdefault("m217.voided", []).append([res.label, who, b.target, ruling.text])
        res.announce(f"{who}的投票无效{f'（{ruling.text}）' if ruling.text else ''}，须重新发帖更正。")
        return True
    if ruling.kind == "remove":
        red_card(res, game.player(who), ruling.text)
        return True
    if ruling.kind == "accelerate":
        # > 执行加速时，所有人不可改票，且发言不足或未投票者将不被判罚。
        game.data["m217.accelerated"] = res.label
        res.announce("执行加速。")
        return True
    if ruling.kind == "delay":
        # > 延迟成功时，不再视为“执行加速”状态。
        game.data.pop("m217.accelerated", None)
        res.announce("延迟成功。")
        return True
    return None


@hookimpl
def bansha_validate_action(game, action):
    p = game.player(action.actor)
    if sent_off(p):
        return f"{p.name}已被红牌罚下，不能发动任何技能"
    if action.args.get("question") or action.skill not in board_tables(game)["question"]:
        return None  # a question given, or no skill of the board that asks one is called so
    skill = skill_of(game, p, action.skill)
    if "question" in skill.args and not action.args.get("question"):
        return f"{skill.name}须给出 --arg question=…"
    return None


@hookimpl
def bansha_validate_vote(game, ballot):
    if sent_off(game.player(ballot.voter)):
        return f"{ballot.voter}已被红牌罚下，不能投票"
    return None


@hookimpl
def bansha_step_handlers():
    return {"m217.red-cards": red_cards}


# ------------------------------------------------------------------- 遗言 (the kernel's [last_words])


@hookimpl
def bansha_last_words(game, player, kill):
    """> 红牌罚下出局的角色没有遗言权利 — a carded player owes none, even when voted out while
    the card waits for the vote. Other exits: the manifest's [last_words] (首夜 and 白天)."""
    return False if sent_off(player) else None


@hookimpl
def bansha_check_last_words(game, player, text):
    """> [寡言]：……若需要发遗言，也只能最多发送5个字。"""
    if any(s.name == "寡言" for s in player.statuses) and len(text) > 5:
        return f"{player.name}持有[寡言]状态：遗言最多只能发送5个字（现有{len(text)}个字）。"
    return None
