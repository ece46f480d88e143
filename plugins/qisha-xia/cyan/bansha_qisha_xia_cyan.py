"""青侠 — 七杀·侠 1.10 (docs/rulings/qisha-xia.md R-Q1…R-Q5).

> 青侠（5人）初始不互知，无任何特权，处于中立状态，可以被黑侠、暗侠、白侠、赤侠吸收，被吸收后不再处于中立
> 状态，转变为与吸收者相同的阵营和身份，并互知，可私下讨论，共同行使特权。每个身份的吸收能力为：黑侠与白侠吸收
> 能力相同；赤侠与暗侠的吸收能力相同；黑侠、白侠的吸收能力强于赤侠与暗侠的吸收能力。当多个身份同时吸收中立的
> 青侠时，则有吸收能力强的身份优先吸收到青侠；吸收能力相同则相互抵消，都不会吸收到青侠。当吸收成功时，该特权
> 不再产生原本的效果；当吸收失败时，该特权仍然产生效果。
> 注意：只有处于中立状态的青侠可以被吸收；已经被吸收或独立的青侠不会再被吸收；被吸收的青侠……可以再吸收其他
> 中立的青侠；银侠学到的特权不会对青侠产生吸收效果……青侠被吸收的同时被验……反馈为“青侠（中立）”；青侠出局时
> 如果处于独立状态，视为独立阵营。
> 第三夜结束后（也即从第四天天亮开始），仍处于中立状态的青侠，转变为独立状态，所有独立状态的青侠成为独立阵营，
> 并互知，可私下讨论，每晚共同杀人，同黑侠的杀人。
> 青侠被验反馈的身份或出局时公布的身份，包括青侠当前的状态……

State: ``player.data["qisha-xia.qing"]`` is 中立, 独立 or the absorbing identity. An absorbed
青侠 takes the absorber's role, camp and group (so it shares the group's privilege, counts as
that role for the win rules and scores as it); an independent one joins camp 独立 and group
独立青侠, whose 杀人 is declared here.
"""

from bansha import Role, Skill, hookimpl

STATE, NEUTRAL, INDEPENDENT = "qisha-xia.qing", "中立", "独立"
INDEPENDENTS = "独立青侠"  # the group of the independent 青侠
ABSORBED = "qisha-xia.absorbed"
#: "黑侠与白侠吸收能力相同；赤侠与暗侠的吸收能力相同；黑侠、白侠的吸收能力强于赤侠与暗侠" (by acting group)
STRENGTH = {"黑侠": 2, "白侠": 2, "赤侠": 1, "暗侠": 1}
#: "第三夜结束后……仍处于中立状态的青侠，转变为独立状态" (R-Q4)
LAST_NEUTRAL_NIGHT = 3


def kill(res, a):
    # "每晚共同杀人，同黑侠的杀人" (R-Q5): healable, blockable, reflected; it never absorbs
    res.kill(a.targets[0], kind="杀人", by=a.actor, action=a, rule="1.10 独立的杀人")


CYAN = Role(
    name="青侠", alias="cyan", camp="中立",
    rule="青侠（5人）初始不互知，无任何特权，处于中立状态，可以被黑侠、暗侠、白侠、赤侠吸收……第三夜结束后……转变为独立状态。",
    skills=(Skill(
        name="杀人", does=("harm",), alias="kill", phases=("night",), step="kill", group=INDEPENDENTS, may_target_self=True,
        args={"reflect": "龙侠反弹杀人时被反弹的青侠（未明确指定则反弹发送者）"},
        arg_values={"reflect": ("", "{group:" + INDEPENDENTS + "}")},
        rule="所有独立状态的青侠……每晚共同杀人，同黑侠的杀人。", effect=kill,
    ),),
)


def absorb(res):
    """R-Q1/R-Q2: the strongest privilege on a neutral 青侠 absorbs it, unless it is tied; an
    absorbing privilege has no other effect ("当吸收成功时，该特权不再产生原本的效果")."""
    absorbed = res.data.setdefault(ABSORBED, {})
    for q in res.game.alive():
        if q.data.get(STATE) != NEUTRAL:
            continue
        hits = [a for a in res.actions if a.void is None and not a.acquired and a.group in STRENGTH and q.name in a.targets]
        if not hits:
            continue
        top = max(STRENGTH[a.group] for a in hits)
        strongest = [a for a in hits if STRENGTH[a.group] == top]
        if len(strongest) > 1:
            res.trace("1.10 吸收", f"{'、'.join(a.group for a in strongest)}同时吸收{q.name}：吸收能力相同则相互抵消，都不会吸收到青侠")
            continue
        absorbed[q.name] = strongest[0].group
        res.void(strongest[0], f"吸收{q.name}成功，该特权不再产生原本的效果", rule="1.10 吸收")


def convert(res):
    """At dawn: "转变为与吸收者相同的阵营和身份，并互知" — after the checks, which saw 青侠（中立）."""
    game = res.game
    for name, group in res.data.get(ABSORBED, {}).items():
        q = game.player(name)
        if not q.alive:
            continue
        mates = [p.name for p in game.alive() if group in p.groups]
        q.role, q.camp, q.data[STATE] = group, game.ruleset.role(group).camp, group
        q.groups.append(group)
        res.feedback(name, f"你被{group}吸收，成为{group}。")
        for m in mates:
            res.feedback(m, f"{name}被吸收，成为{group}。")
    if game.phase.name == "night" and game.day == LAST_NEUTRAL_NIGHT:
        free = [p for p in game.alive() if p.data.get(STATE) == NEUTRAL]
        for q in free:
            q.camp, q.data[STATE] = INDEPENDENT, INDEPENDENT
            q.groups.append(INDEPENDENTS)
        for q in free:
            res.feedback(q.name, "你已成为独立的青侠。")
            res.feedback(q.name, f"独立的青侠：{'、'.join(p.name for p in free)}。")


@hookimpl
def bansha_roles():
    return [CYAN]


@hookimpl
def bansha_step_handlers():
    return {"qisha-xia.absorb": absorb, "qisha-xia.convert": convert}


@hookimpl
def bansha_setup_game(game):
    for p in game.players.values():
        if p.role == CYAN.name:
            p.data[STATE] = NEUTRAL


@hookimpl
def bansha_identity(game, player):
    # "中立的青侠公布为“青侠（中立）”，独立的青侠公布为“青侠（独立）”，被赤侠吸收的青侠会公布为“青侠（赤侠）”"
    state = player.data.get(STATE)
    return f"青侠（{state}）" if state else None


@hookimpl
def bansha_skill_unavailable(game, player, skill):
    # a condition of the seat, whoever the target: asked once per skill, before any target
    if skill.group == INDEPENDENTS and player.data.get(STATE) != INDEPENDENT:
        return "中立的青侠没有任何特权。"
    return None


@hookimpl
def bansha_validate_targets(game, player, skill, acquired, targets):
    if skill.group != INDEPENDENTS:
        return None
    if targets[0] == player.name:
        return "不得自杀。"
    if not game.option("kill_teammate_allowed") and INDEPENDENTS in game.player(targets[0]).groups:
        return f"不得自杀：{targets[0]}与你同为独立的青侠。"
    return None


@hookimpl
def bansha_player_view(game, player):
    state = player.data.get(STATE)
    return {"identity": f"青侠（{state}）"} if state else None
