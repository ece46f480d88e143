"""双面人 — 新日暮里 (M217), 三方阵营.

> 4、双面人
> 双面人不会获得身份属性具有的[杀人][接刀][群内]技能或标签。以实际阵营为判定时，双面人判定为三方
> 双面[开局][黄昏][晨曦]<强制> —— 游戏开始前随机获得未出场的一狼一神作为底牌，并选择其中一张置顶。游戏日黄昏和晨曦，双面人自动切换另外一张身份牌置顶，当前置顶神牌，表面身份为当前置顶身份，当前置顶狼牌，表面身份为当前置顶身份。也就是说，一张牌会在白天出现，一张牌会在夜晚出现。双面人可以使用其对应时段可以发动的技能。需要注意的是
> 生死逆转[黄昏][指定]<限定>——游戏日黄昏，双面人可保留当前的身份牌至夜晚，交换自己白天使用的身份和夜晚使用的身份，并指定一名玩家。
> 结算效果：对结算目标造成一次[指杀]。

Readings (docs/rulings/m217.md):
- the two cards are dealt when the game is created, from the seeded draw (or given by the deal:
  ``setup = { cards = "狼巫,女巫" }``): one 狼人 role and one 神 (the pools named by option
  ``two_faced_gods``, 强神 and 弱神 by default; never 验人系: 身份更换 1) that no player holds; a
  role that needs a partner (狼兄/狼弟) is never drawn. ``双面 --arg top=狼|神|<card>`` picks the
  card on top at 开局 (the 神 card when nothing is picked);
- the automatic switch is played where 游戏流程 puts it: 黄昏(4) (before 生死逆转, which then keeps
  the card) and 晨曦(2); a 双面人 out of the game or under 遗忘 does not switch;
- the top card gives its 表面阵营 and 表面身份 (a disguise of the <强制> 双面) and every skill of
  it that is cast in a phase (``player.acquired``, uses kept per card), never 杀人 or a 群内 skill,
  never [接刀]; the card's passive (常驻) effects are not skills "可以发动" and are not given;
- the document gives the 双面人 no win condition: none is modelled (the director's).
"""

from bansha import GameError, Resolution, Role, Skill, Status, for_skills, hookimpl
from bansha_m217_helpers import WOLF, forced_on, hit, standing

ROLE = "双面人"
KEY = "m217.双面"
# > 身份更换 … 1：不会获得验人系身份。 2：不会获得有子身份存在的母身份 — and a role that needs a partner
PAIRED = ("狼兄", "狼弟")


def state(p) -> dict:
    return p.data[KEY]


def pools(game, names) -> list[str]:
    out: list[str] = []
    for t in game.manifest.tables:
        for pool in t.pools:
            if pool.name in names:
                out += [r for r in pool.roles if r not in out]
    return out


def candidates(game, wolf: bool) -> list[str]:
    """> 未出场的一狼一神: roles of the pools that no player holds."""
    dealt = {p.role for p in game.players.values()}
    names = ["狼人"] if wolf else list(game.option("two_faced_gods") or ["强神", "弱神"])
    return [r for r in pools(game, names) if r not in dealt and r not in PAIRED and r in game.ruleset.roles]


def card_skills(game, card: str) -> list[Skill]:
    """> 双面人可以使用其对应时段可以发动的技能。 / > 不会获得…[杀人][接刀][群内]技能或标签。
    (a 开局 skill is not usable once acquired: 获取技能)"""
    return [s for s in game.ruleset.role(card).skills
            if s.phases and s.phases != ("opening",) and not s.group and s.name != "杀人"]


def put_away(p) -> None:
    """The acquired skills of the cards go back, their counted uses kept with their card."""
    st = state(p)
    for name in st.get("skills", ()):
        card = p.acquired.get(name)
        if card in st["cards"].values():
            del p.acquired[name]
            # > 若强制技能提供任何[状态]，则该强制技能失效后，这些状态也一同失效。
            p.statuses = [s for s in p.statuses if s.data.get("forced") != name]
            if name in p.uses:
                st["uses"].setdefault(card, {})[name] = p.uses.pop(name)
    st["skills"] = []


def take(game, p, card: str, only=lambda s: True) -> None:
    st = state(p)
    kept = st["uses"].setdefault(card, {})
    for s in card_skills(game, card):
        if not only(s) or s.name in p.acquired or any(o.name == s.name for o in game.ruleset.role(p.role).skills):
            continue
        p.acquired[s.name] = card
        st["skills"].append(s.name)
        # the card's standing statuses go with whoever holds its skill (九尾's 不死 …)
        p.statuses.extend(standing(game, p, s.name))
        if s.uses is not None:
            p.uses[s.name] = kept.get(s.name, s.uses)


def show(game, p, side: str, trace) -> None:
    """Put ``side`` (狼/神) on top: its 表面身份 and its skills; the other card's are put away."""
    st = state(p)
    put_away(p)
    card = st["cards"][side]
    st["top"] = side
    # > 身份更换 … 4：获取技能的角色获取到该角色身份时，获取的是最后更换出来的身份技能 — a copier (影子,
    # 复仇者<雪恨>) takes the card on top's skills (rules' ``identity``)
    p.data["m217.identity"] = card
    take(game, p, card)
    # > 当前置顶神牌，表面身份为当前置顶身份，当前置顶狼牌，表面身份为当前置顶身份。
    p.statuses = [s for s in p.statuses if s.source != "双面"]
    camp = game.ruleset.role(card).camp
    p.statuses.append(Status(name="双面", told=False, source="双面",
                             data={"role": card, "camp": camp, "forced": "双面"}))
    trace("双面", f"{p.name}：{card}在上")


def after_switch(s) -> bool:
    """A skill of the coming card cast in 黄昏 after the switch of (4) (幽灵<附体> comes after 双面)."""
    return "dusk" in s.phases and s.step == "黄昏4" and not s.immediate


def deal(game, p) -> None:
    """> 游戏开始前随机获得未出场的一狼一神作为底牌"""
    res = Resolution(game, step="双面")
    given = p.setup.get("cards")
    if given:
        names = given if isinstance(given, list) else [c.strip() for c in str(given).replace("，", ",").split(",")]
        cards = {}
        for name in names:
            role = game.ruleset.role(name)
            side = "狼" if role.camp == WOLF else "神"
            # > 未出场的一狼一神 — a given card obeys the draw's rule (not dealt, of the pools)
            if role.name not in candidates(game, side == "狼"):
                raise GameError(f"{p.name}（{ROLE}）：设置的身份牌{role.name}不是未出场的"
                                f"{'狼人' if side == '狼' else '/'.join(game.option('two_faced_gods') or ['强神', '弱神'])}身份")
            cards[side] = role.name
        if set(cards) != {"狼", "神"}:
            raise GameError(f"{p.name}（{ROLE}）：设置的身份牌须为一张狼人阵营身份和一张神（收到：{given}）")
    else:
        wolves, gods = candidates(game, True), candidates(game, False)
        if not wolves or not gods:
            raise GameError(f"{p.name}（{ROLE}）：没有未出场的{'狼' if not wolves else '神'}身份可以发作身份牌")
        cards = {"狼": res.rng.choice(wolves), "神": res.rng.choice(gods)}
    p.data[KEY] = {"cards": cards, "top": None, "uses": {}, "skills": []}
    show(game, p, "神", res.trace)
    res.feedback(p.name, f"双面：你的底牌是{cards['狼']}（狼）和{cards['神']}（神），置顶：{cards['神']}。")
    res.publish_late()


def pick(res, a):
    """> 并选择其中一张置顶。"""
    p = res.game.player(a.actor)
    st = state(p)
    top = a.args.get("top", "神")
    side = top if top in ("狼", "神") else next(k for k, v in st["cards"].items() if v == top)
    told = st["top"] == side  # the deal's notice said it already ("置顶：…"): not said twice
    show(res.game, p, side, res.trace)
    if not told:
        res.feedback(p.name, f"双面：置顶{st['cards'][side]}。")


def switch(res) -> None:
    """> 游戏日黄昏和晨曦，双面人自动切换另外一张身份牌置顶 (at 黄昏(4) and 晨曦(2))"""
    game = res.game
    # (the 双面人 found first, then sorted: every dusk and dawn of every game asks)
    holders = (p for p in game.players.values() if p.role == ROLE and KEY in p.data and forced_on(game, p, "双面"))
    for p in sorted(holders, key=lambda p: p.seat):
        st = state(p)
        show(game, p, "狼" if st["top"] == "神" else "神", res.trace)
        st["switched"] = res.label
        res.feedback(p.name, f"双面：置顶身份牌切换为{st['cards'][st['top']]}。")


def reverse(res, a):
    """> 游戏日黄昏，双面人可保留当前的身份牌至夜晚，交换自己白天使用的身份和夜晚使用的身份，并指定一名玩家。
    The switch of this 黄昏(4) is undone: the card of the day stays on top for the night, and from
    now on the two cards show at the other times."""
    game = res.game
    p = game.player(a.actor)
    # one who copied 生死逆转 (镜<镜像>) holds no cards: nothing to keep or exchange, the [指杀] lands
    st = p.data.get(KEY, {})
    if st.get("switched") == res.label:
        show(game, p, "狼" if st["top"] == "神" else "神", res.trace)
        st["switched"] = None
        res.feedback(p.name, f"生死逆转：{st['cards'][st['top']]}保留至夜晚，白天与夜晚的身份交换。")
    # > 结算效果：对结算目标造成一次[指杀]。 (the chain of 黄昏4 has settled the target)
    for t in a.targets:
        hit(res, a, t, "指杀")


TWO_FACED = Role(
    name=ROLE, alias="two-faced", camp="三方阵营", rule=__doc__, setup_keys=("cards",),
    skills=(
        Skill(name="双面", alias="two-faces", phases=("opening",), step="开局", targets=0, tags=("强制",),
              effect=pick, args={"top": "开局时在上的身份牌：狼 | 神 | 身份牌的名字（默认为神）"},
              # > 并选择其中一张置顶。 — a card by its side (its name says the same)
              arg_values={"top": ("狼", "神")},
              rule="双面[开局][黄昏][晨曦]<强制> —— 开局随机获得未出场的一狼一神作为底牌并选择其中一张置顶；"
                   "黄昏和晨曦自动切换置顶；表面身份为当前置顶身份；可以使用其对应时段可以发动的技能。"),
        Skill(name="生死逆转", does=("harm",), alias="reversal", phases=("dusk",), step="黄昏4", uses=1, may_target_self=True,
              tags=("指定", "限定"), effect=reverse,
              rule="生死逆转[黄昏][指定]<限定>——保留当前的身份牌至夜晚，交换白天与夜晚使用的身份，并对结算目标造成一次[指杀]。"),
    ),
)


@hookimpl
def bansha_roles():
    return [TWO_FACED]


@hookimpl
def bansha_setup_game(game):
    for p in sorted(game.players.values(), key=lambda p: p.seat):
        if p.role == ROLE:
            deal(game, p)


@hookimpl
def bansha_step_handlers():
    # > 3 (4) 双面人<生死逆转>,双面人<双面>… / 5 (2) …双面人<双面>发动 — run before the step's skills
    return {"m217.at.黄昏4.双面人": switch, "m217.at.晨曦2.双面人": switch}


@hookimpl
def bansha_phase_started(game):
    """> 3 (4) 双面人<生死逆转>,双面人<双面>，…幽灵<附体>…依次发动: the card that comes on top at 黄昏(4)
    lends the skills it casts later in that step while the 黄昏 is open (the forum sends them after the switch)."""
    if game.phase.name != "dusk":
        return
    for p in game.players.values():
        if p.role == ROLE and KEY in p.data and forced_on(game, p, "双面"):
            st = state(p)
            take(game, p, st["cards"]["狼" if st["top"] == "神" else "神"], only=after_switch)


@hookimpl
@for_skills("双面")
def bansha_validate_action(game, action):
    p = game.player(action.actor)
    if action.skill == "双面" and p.role == ROLE:
        top = action.args.get("top", "神")
        if top not in ("狼", "神", *state(p)["cards"].values()):
            return f"双面：须给出 --arg top=狼|神|{'|'.join(state(p)['cards'].values())}"
    return None


@hookimpl
def bansha_player_view(game, player):
    if player.role != ROLE or KEY not in player.data:
        return None
    st = state(player)
    return {"底牌": f"{st['cards']['狼']}（狼）、{st['cards']['神']}（神）", "置顶": st["cards"][st["top"]]}
