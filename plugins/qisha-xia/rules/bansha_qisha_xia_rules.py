"""七杀·侠 (qisha-xia) — what belongs to the ruleset rather than to one role: the routing of
the night's privileges (the rulings' "night resolution order"), the dawn announcement, the
clock of section 3.2 shown by ``bansha status``, and the win-rule house option.

Readings: docs/rulings/qisha-xia.md (R-… ids below). Shared results of one night live in
``res.data`` under these keys (each written by one plugin, read by the others):

- ``qisha-xia.reflect`` (callable ``(action, slot) -> bool``): written by qisha-xia.dragon's
  ``qisha-xia.reflector`` handler; reflects the privilege if its target in ``slot`` is the
  龙侠 and a charge is left; and ``qisha-xia.reflect-plan`` (callable ``(actions) ->
  {(seq, slot): member}``): which slots would be reflected, spending nothing.
- ``qisha-xia.receive`` (callable ``(action, slot) -> bool``): written by qisha-xia.light's
  ``qisha-xia.receiver`` handler; sends the privilege to 光侠 if it aims at the received player;
  and ``qisha-xia.reception`` (``(光侠, received player)`` or None).
- ``qisha-xia.reflected`` (``{action seq: reflected member}``), ``qisha-xia.received``
  (``{action seq: the player it was aimed at}``).
- ``qisha-xia.blocked`` (names an effective block landed on) and ``qisha-xia.blocked-actions``
  (seqs of the actions a block voided): written by qisha-xia.dark's ``qisha-xia.blocks``, which
  decides the night's blocks together before anything is routed.
- ``qisha-xia.absorbed`` (``{青侠: absorbing group}``): written by qisha-xia.cyan's
  ``qisha-xia.absorb``.
- ``qisha-xia.healed`` (names): written by 救治 (qisha-xia.white).

Night steps (manifest): target (reflector, receiver, blocks, route) → absorb → heal → kill →
check → illusion → deaths → dawn (learn, convert, dawn).
"""

from datetime import datetime, timedelta

from bansha import hookimpl

RECEIVE = "接收"
REFLECT, RECEIVE_FN = "qisha-xia.reflect", "qisha-xia.receive"


def route(res):
    """R-D1, R-D5, R-L1 — "当龙侠被吸收时，反弹优先产生作用，当反弹没有效果时，吸收产生作用。"
    "同一晚的多次反弹会计为多次，按发送行使特权的先后顺序起作用"

    Every privilege left after the blocks (qisha-xia.blocks decided them), blocks included, in
    submission order:
    reflected if it aims at the 龙侠 and a charge is left, otherwise received by 光侠 if it
    aims at the received player. 光侠's own reception is neither reflected nor received.
    Slot by slot: 幻觉一 on (龙侠, A) is reflected on the 龙侠's side only ("则另一个被作用的对象
    不变"), and A is still received if 光侠 receives A (R-L1)."""
    reflect, receive = res.data[REFLECT], res.data[RECEIVE_FN]
    for a in res.actions:
        if a.void or a.skill == RECEIVE or not a.targets:
            continue
        for slot in range(len(a.targets)):
            reflect(a, slot) or receive(a, slot)


@hookimpl
def bansha_validate_action(game, action):
    """R-D3 — "只会反弹一人（可以在行使特权时指定……）": ``--arg reflect=`` names a living member of
    the group that uses the privilege (for a privilege of one player, that player)."""
    named = action.args.get("reflect")
    if named is None:
        return None
    if action.group:
        p = game.players.get(named) if isinstance(named, str) else None
        if p is not None and p.alive and action.group in p.groups:
            return None  # a living member of the group (the list below holds it)
    members = [p.name for p in game.alive() if action.group and action.group in p.groups] or [action.actor]
    if named not in members:
        return f"{action.skill}的reflect={named}不是共同行使{action.skill}的成员（{'、'.join(members)}）。"
    return None


def dawn(res):
    """3.1 "III.天亮公布结果": a night without deaths is announced as such."""
    if not res.out:
        res.announce("昨夜无人出局。")


@hookimpl
def bansha_step_handlers():
    return {"qisha-xia.route": route, "qisha-xia.dawn": dawn}


# ------------------------------------------------------------------ 3.3, R-V8 (house option)


@hookimpl(trylast=True)
def bansha_adjust_ballots(res, ballots):
    """R-V8 — "此时的投票对象只能为高票对决的双方": when one of the two has left the game before
    the run-off is counted (a director's removal), there is no 对决 left and nobody is out
    (option ``runoff_candidate_left = "nobody-out"``); with ``"count"`` the votes for the one
    still in are counted (votes for a player who has left never count)."""
    game = res.game
    pair = game.scheduled.get(game.phase.name) if game.phase.optional else None
    gone = [n for n in pair or () if not game.player(n).alive]
    if not gone or game.option("runoff_candidate_left") != "nobody-out":
        return
    res.trace("3.3 高票对决", f"{'、'.join(gone)}已出局：高票对决的双方只剩一方，无人出局")
    for b in ballots:
        b.void = "高票对决的一方已出局"


# ------------------------------------------------------------------ 2.1, R-W2 (house option)


@hookimpl
def bansha_check_win(game):
    """R-W2: "所有独立的青侠出局" is satisfied before independence (the manifest's rules). With
    ``independent_clause_before_independence = "neutrals-count"`` living neutral 青侠 count as
    future independents, so the clause fails while one lives."""
    if game.option("independent_clause_before_independence") != "neutrals-count":
        return None
    neutral_alive = any(p.alive and p.camp == "中立" for p in game.players.values())
    winners = []
    for camp, rules in game.manifest.win.items():
        for rule in rules:
            if neutral_alive and any("独立" in sel.camp for sel in rule.all_out):
                continue
            if game.rule_holds(camp, rule):
                winners.append(camp)
                break
    return winners


# ----------------------------------------------------------------- 遗言, R-T3 (house option)


@hookimpl
def bansha_last_words(game, player, kill):
    """R-T3 — "夜晚出局玩家有一次遗言的机会" (the manifest's [last_words]); with the house rule
    ``day_out_last_words`` a player voted out gets them too."""
    if kill.kind == "vote" and game.option("day_out_last_words"):
        return True
    return None


# --------------------------------------------------------------------------- 3.2 the clock

# "a. 白天讨论、投票：20:00～次日22:00；b. 白天第二次讨论、投票：22:00～次日22:00；
#  c. 夜晚行使特权：22:00～次日12:50；d. 等待死者遗言：12:50～20:00。"
NORMAL = {"day": (1, "22:00"), "runoff": (1, "22:00"), "night": (1, "12:50")}
# "逢周末相应阶段的时间延长24小时" — a phase that starts on a Friday (R-T2):
# 夜晚 → 周六20:00, 遗言 → 周日20:00; 白天 → 周日22:00; 高票对决 → 周日22:00.
WEEKEND = {"day": (2, "22:00"), "runoff": (2, "22:00"), "night": (1, "20:00")}
NAMES = {"day": "白天讨论、投票", "runoff": "白天第二次讨论、投票（高票对决）", "night": "夜晚行使特权"}
WEEKDAYS = "一二三四五六日"
FRIDAY = 4


def _at(start: datetime, days: int, hhmm: str) -> datetime:
    h, m = map(int, hhmm.split(":"))
    return (start + timedelta(days=days)).replace(hour=h, minute=m, second=0, microsecond=0)


def _show(t: datetime) -> str:
    return f"{t:%Y-%m-%d} 周{WEEKDAYS[t.weekday()]} {t:%H:%M}"


def windows(game, start: datetime):
    """(phase kind, start, end, last-words end or None) of every phase played so far."""
    weekend = game.option("weekend_extension")
    out = []
    for label in [*game.resolved, game.label]:
        kind = label.split(" ")[0]
        fri = weekend and start.weekday() == FRIDAY
        days, hhmm = (WEEKEND if fri else NORMAL)[kind]
        end = _at(start, days, hhmm)
        words = None
        if kind == "night":
            words = _at(end, 1, "20:00") if fri else _at(end, 0, "20:00")
        out.append((kind, start, end, words))
        start = words or end
    return out


@hookimpl
def bansha_game_view(game):
    """3.2 — the current phase's deadline; the director may still open the next phase early."""
    if game.winner is not None:
        return None
    kind = game.phase.name
    raw = game.option("start_time")
    if not raw:
        days, hhmm = NORMAL[kind]
        wd, wh = WEEKEND[kind]
        return {"时间安排": f"{NAMES[kind]}：截止{'次日' if days == 1 else ''}{hhmm}"
                + (f"（逢周五开始则延至{'周六' if wd == 1 else '周日'}{wh}）" if game.option("weekend_extension") else "")
                + ("；等待死者遗言至20:00" if kind == "night" else "")
                + ("；等待死者遗言：12:50～20:00" if kind == "day" and game.last_words else "")}
    start = datetime.strptime(str(raw), "%Y-%m-%d %H:%M")
    played = windows(game, start)
    _, begin, end, words = played[-1]
    facts = {"阶段": NAMES[kind], "开始": _show(begin), "截止": _show(end)}
    if words is None and len(played) > 1 and game.last_words:
        words = played[-2][3]  # the day after a night: the last words owed for that night
    if words is not None:
        facts["遗言截止"] = _show(words)
    extended = game.option("weekend_extension") and begin.weekday() == FRIDAY
    facts["周末延长"] = "是（延长24小时）" if extended else "否"
    return facts


@hookimpl
def bansha_cards():
    """The board's cards for homebrew roles (救治, 杀人, 验人)."""
    from bansha_qisha_xia_cards import CARDS  # here: only a board with homebrew roles reads them

    return CARDS
