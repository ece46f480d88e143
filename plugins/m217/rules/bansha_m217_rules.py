"""新日暮里 (M217) — the board's machinery, quoted from 用语定义 … 游戏流程.

Role plugins of the board import the helpers here (``give``, ``has``, ``hit``, ``settle``,
``land``, ``flip``, ``lose``, ``surface``). Step handlers named by the manifest:

- ``m217.chain``  — on every step where skills resolve: casting blocks gained earlier in the
  night, the targeting chain (踢球) and 隐身;
- ``m217.deaths`` — step (20): orders the night's kills and lands them;
- ``m217.tie``, ``m217.yellow``, ``m217.dusk-lists`` — the vote's tie, the yellow card, the
  dusk announcement.

The director's rulings (答复, 无效票, 红牌, 替补, 加速) are in ``bansha_m217_director`` and the
limits of vote changes and proxy votes in ``bansha_m217_votes`` (entry points ``m217.director``
and ``m217.votes``, both named by the manifest's ``rules``).

Chain stages are handlers too: a role that transforms targets provides
``m217.chain.<stage>(res, action, ball) -> ball`` and the manifest option ``chain`` orders them
(时间逆流: 噬时狼妃, 交换: 魔术师, 反射: 镜; a stage no plugin provides, 阴谋家's 煽动, is skipped).
The other handlers a role plugin may provide, each called where its helper documents it:
``m217.at.<step>.<role>`` and ``m217.cast.<skill>`` (``chain``), ``m217.shield.<role>`` and
``m217.targeted.<role>`` (``settle``), ``m217.camp.<role>`` and ``m217.follow.<role>``
(``change_camp``, ``follow``), ``m217.night-end.<role>`` (after step (20)), ``m217.win.<role>``
(the win check) and ``m217.refresh.<skill>`` (圣水's 刷新至初始).
"""

from __future__ import annotations

from typing import Any

from bansha import Action, Status, hookimpl
from bansha.engine.engine import resolve_deaths

WOLF, VILLAGE = "狼人阵营", "村民阵营"
DARK_LOVERS = "黑情侣阵营"
FATAL = "致死伤害"

# ------------------------------------------------------------------------------ statuses

# > [业炎/净化]：[沉默]+[超度]+[遗忘]
# > [冰冻/恐惧]：[沉默]+[缴械]
COMPOUND = {
    "业炎": ("沉默", "超度", "遗忘"), "净化": ("沉默", "超度", "遗忘"),
    "冰冻": ("沉默", "缴械"), "恐惧": ("沉默", "缴械"),
}
NEGATIVE = {"沉默", "缴械", "遗忘", "超度", "迷魂", "寡言", "流血", *COMPOUND}
# A skill tagged so is cast under any status: no status that stops casting (沉默 and its compounds)
# stops it (赌徒's 身份属性: "赌博技能在任何状态下都不会丢失，都可以发动。")
ANY_STATE = "任何状态"


def parts(name: str) -> tuple[str, ...]:
    return COMPOUND.get(name, (name,))


def forgotten(p) -> bool:
    return any("遗忘" in parts(s.name) for s in p.statuses)


def active(p) -> list[Status]:
    """Statuses in effect. > [遗忘]：…该状态下失去所有[强制]技能，持续生效的效果也会一并失去。
    > 若强制技能提供任何[状态]，则该强制技能失效后，这些状态也一同失效。"""
    lost = set(p.data.get("m217.lost", ()))
    return [s for s in p.statuses
            if not (s.data.get("forced") and (forgotten(p) or s.data["forced"] in lost))]


def has(p, effect: str) -> bool:
    return any(effect in parts(s.name) for s in active(p))


def holds(game, p, skill: str) -> bool:
    """Does ``p`` hold ``skill`` now: his card's, acquired (影子, 复仇者<雪恨>, 镜 …) or temporary
    (奇迹商人's gifts), and not lost. The one question every standing, forced or triggered effect asks:

    > 当游戏中通过某种方式获得了其他角色的技能时，那个技能所有涉及到原身份的名词都会改为发动者自己
    (影子: "获得该角色的全部技能") — a sentence that says "隐者" or "九尾狐" speaks of the skill's holder,
    so an effect never tests ``player.role`` unless the sentence really names the role."""
    return skill in game.skills_of(p) and skill not in p.data.get("m217.lost", ())


def origin(game, p, skill: str) -> str | None:
    """The role whose ``skill`` ``p`` holds (his card's, else the role it was acquired from), or None:
    for two roles' skills of one name (狼兄's and 狼弟's 齐心, each naming the other brother)."""
    if not holds(game, p, skill):
        return None
    own = game.ruleset.own_skills.get(p.role, ())
    return p.role if any(s.name == skill for s in own) else p.acquired.get(skill)


def holders(game, skill: str, *, alive: bool = True) -> list:
    """The players who hold ``skill`` (``holds``), in seat order; only those in the game unless
    ``alive=False``."""
    return [p for p in sorted(game.players.values(), key=lambda p: p.seat)
            if (p.alive or not alive) and holds(game, p, skill)]


def forced_on(game, p, skill: str) -> bool:
    """A <强制> skill works while its holder holds it (``holds``), is in the game and not under 遗忘."""
    return p.alive and not forgotten(p) and holds(game, p, skill)


def standing(game, p, skill: str) -> list[Status]:
    """The statuses ``skill`` gives its holder for as long as it works ([常驻]: 隐者<隐身衣>'s 隐身 and
    迷魂, 灵鹿<长寿之命>'s 守护：1, 九尾狐<九尾>'s 不死 …), from the handler ``m217.standing.<skill>(game,
    player) -> [Status]`` its role plugin provides. The rules hand them out when the game starts (to the
    card's holder) and when the skill is acquired (``acquire``); each is marked ``forced`` by the skill:
    > 若强制技能提供任何[状态]，则该强制技能失效后，这些状态也一同失效。"""
    fn = game.ruleset.handlers.get(f"m217.standing.{skill}")
    out = []
    for st in (fn(game, p) if fn is not None else ()):
        st.data = {**st.data, "forced": skill}
        st.source = st.source or skill
        out.append(st)
    return out


def unacquire(game, p, skill: str) -> None:
    """``p`` no longer holds the acquired ``skill`` (a 临时技能 that ends, a card put down): the skill
    goes, and the statuses it gave go with it. > 若强制技能提供任何[状态]，则该强制技能失效后，这些状态也一同失效。"""
    p.acquired.pop(skill, None)
    if skill in p.data.get("m217.temporary", ()):
        p.data["m217.temporary"].remove(skill)
    if not holds(game, p, skill):
        p.statuses = [s for s in p.statuses if s.data.get("forced") != skill]


def holds_forced(game, p) -> bool:
    return any("强制" in s.tags for s, _ in game.skills_of(p).values())


def step_index(res) -> int:
    names = [s.name for s in res.game.phase.steps]
    return names.index(res.step) if res.step in names else -1


def ends(game, until: str | None) -> str:
    """How long a status lasts, as every surface says it (``Game.lasting``)."""
    return game.lasting(until)


def phase_zh(game, label: str) -> str:
    """A phase label as the board names it ("night 2" -> "第2天 夜晚"): ``Game.named``, the one
    label every surface prints and every command takes; a phase without its day ("dusk") is
    its word (``Game.phase_word``: "黄昏")."""
    return game.named(label) if " " in label or any(p.name == label for p in game.openings) else game.phase_word(label)


#: how a follower's camp is chosen (``follow``'s ``mode``), as the trace says it
FOLLOW_MODES = {"same": "同一阵营", "opposite": "相反阵营"}


def shown(name: str, count: int | None) -> str:
    if name == "守护":
        return f"守护：{'∞' if count is None else count}"
    return name


def give(res, target: str, name: str, *, until: str | None = None, count: int | None = None,
         source: str = "", forced: str = "", told: bool | None = None, **data: Any) -> Status:
    """Give a status, telling the holder as the document says.

    > 附加这些状态特效时，角色会得知被附加的效果（或得知附带该效果的状态名称）
    > [遗忘]：仅在角色持有[强制]技能时会得知 / [超度]：仅在角色[带刀]时会得知 / [流血]：该状态不予通知
    > 获得[角色会得知]的任何状态时，该角色会得知此状态的结束时间
    """
    game = res.game
    p = game.player(target)
    if name == "流血" and has(p, "流血"):
        # > [流血]：…若已持有[流血]的负面状态的情况下，再次获得[流血]的负面状态时，这次赋予流血状态的
        # > 负面效果改为造成致死伤害。
        res.kill(target, kind="致死伤害", by=source, rule="流血")
        return p.status("流血")
    d = dict(data)
    if "沉默" in parts(name):
        # > [沉默]：该状态下不能发动[强制]技能以外的技能
        d["no_cast"] = True
        d["except_tags"] = ["强制", ANY_STATE]
    if forced:
        d["forced"] = forced
    d["gained"] = [res.label, step_index(res)]
    if told is None:
        told = name in NEGATIVE
        if name == "遗忘":
            told = holds_forced(game, p)
        elif name == "超度":
            told = armed(game, p)
        elif name == "流血":
            told = False
    st = Status(name=name, until=until, count=count, told=told, source=source, data=d)
    res.add_status(target, st)
    if told:
        res.feedback(target, f"你获得了[{shown(name, count)}]状态，{ends(game, until)}。")
    return st


def change_camp(res, target: str, camp: str, *, judged: bool = False, told: bool = True) -> None:
    """> 实际阵营：…若有效果改变实际阵营，则所属阵营以及胜利方式也会一同改变，同时获得通知：你的阵营转变为xx阵营。

    Two kinds of handler (provided by role plugins) take part:
    - ``m217.camp.<role>(res, player, camp, told=…) -> bool``: a role that decides a holder's camp itself
      takes the change over (True) — 丘比特's lovers are judged again ("若情侣中途发生阵营改变，按照上述
      顺序重新判定"); it then sets the camps with ``judged=True``, which skips these handlers;
    - ``m217.follow.<role>(res, player)``: called after every actual change, for the roles that
      follow another's camp (影子, 粉丝 … "跟随该角色阵营变动").
    ``told=False``: the holder is not told (复仇者<寻仇>: "但不得知加入了什么阵营")."""
    game = res.game
    p = game.player(target)
    camp = game.ruleset.camp(camp)
    handlers = game.ruleset.handlers
    if not judged:
        for name, _ in game.ruleset.handlers_under("m217.camp."):
            if handlers[name](res, p, camp, told=told):
                return
    if p.camp != camp:
        res.trace("阵营", f"{target}: {p.camp} -> {camp}")
        p.camp = camp
        if told:
            res.feedback(target, f"你的阵营转变为{camp}。")
            p.data.pop("m217.camp-untold", None)
        else:
            # the player's view no longer shows his camp (bansha_player_view below)
            p.data["m217.camp-untold"] = True
        for name, _ in game.ruleset.handlers_under("m217.follow."):
            handlers[name](res, p)


# > 加入…阵营并跟随变动 / 转入相同阵营，跟随该角色阵营变动 (暗恋者, 复仇者, 粉丝 …)
OPPOSITE = {WOLF: VILLAGE, VILLAGE: WOLF}


def follow(res, follower: str, leader: str, *, skill: str, mode: str = "same", told: bool = True) -> None:
    """``follower`` joins ``leader``'s camp (``mode="same"``) or the camp opposed to it
    (``"opposite"``: 狼人阵营 ↔ 村民阵营; any other camp → one of the two drawn by the seeded rng,
    复仇者: "若为三方或不定，则从狼或好人随机选一") and follows it from then on: every change of the
    leader's camp moves the follower again, while ``skill`` works (a <强制> skill while
    ``forced_on``; any other while the follower holds it). Kept in ``player.data["m217.follows"]``
    (the leader by seat: a 替补 takes the seat over)."""
    p = res.game.player(follower)
    p.data["m217.follows"] = {"seat": res.game.player(leader).seat, "skill": skill, "mode": mode, "told": told}
    res.trace("跟随", f"{follower}跟随{leader}的阵营（{FOLLOW_MODES.get(mode, mode)}）")
    _join(res, p)


def _join(res, p) -> None:
    f = p.data["m217.follows"]
    camp = next(q.camp for q in res.game.players.values() if q.seat == f["seat"])
    if f["mode"] == "opposite":
        camp = OPPOSITE.get(camp) or res.rng.choice([WOLF, VILLAGE])
    change_camp(res, p.name, camp, told=f["told"])


def following(res, leader) -> None:
    """Handler ``m217.follow.跟随``: the followers of ``leader`` move with its camp."""
    game = res.game
    for q in sorted(game.players.values(), key=lambda q: q.seat):
        f = q.data.get("m217.follows")
        if not f or f["seat"] != leader.seat or f["skill"] in q.data.get("m217.lost", ()):
            continue
        skill = game.skills_of(q).get(f["skill"], (None, False))[0]
        if skill is None or ("强制" in skill.tags and not forced_on(game, q, skill.name)):
            continue
        _join(res, q)


OPENING = "m217.opening"  # player.data: {skill: [label, "gained" | "open"]} — an acquired [开局] skill's window


def acquire(res, target: str, skill: str, role: str, *, temporary: bool = False, refreshed: bool = False) -> None:
    """Give ``target`` the skill ``skill`` of ``role`` (player.acquired).

    > 当游戏中通过某种方式获得了其他角色的技能时，那个技能所有涉及到原身份的名词都会改为发动者自己
    (every effect names ``action.actor``, never the role's holder). A counted skill comes with its
    uses "刷新至初始". ``temporary`` marks a 临时技能 (奇迹商人's gifts):
    > 获得技能除非另有说明，否则不会获得临时技能和二手技能
    ``refreshed``: the gaining rule says "刷新至初始" (复仇者<雪恨>); an [开局] skill so gained may be used
    once, answered at once, in the phase it is gained — the phase being answered, or the next one when
    it comes from a phase's resolution (``bansha_skill_window``); without it, an [开局] skill is never usable:
    > 获得的技能若没有“刷新至初始”条目，则类别[开局]的技能不可用，若有，则在获取技能的那个时段需要立刻决定是否发动[开局]类技能。"""
    game = res.game
    p = game.player(target)
    s = game.ruleset.role(role).skill(skill)
    p.acquired[s.name] = role
    if s.uses is not None:
        p.uses[s.name] = s.uses
    if temporary:
        p.data.setdefault("m217.temporary", []).append(s.name)
    res.trace("获取技能", f"{target}获得{role}的{s.name}" + (" (临时技能)" if temporary else ""))
    # when: an exit that gives the skill (影子, 雪恨) was over before it was held (``gained_by``)
    p.data.setdefault("m217.gained", {})[s.name] = [res.label, len(res.out)]
    # the skill's standing statuses go with whoever holds it (九尾's 不死, 隐身衣's 隐身/迷魂 …): the
    # acquirer is told of them as the card's holder is ("你获得了[不死]状态，永久。")
    held = {(st.name, st.data.get("forced")) for st in p.statuses}
    for st in standing(game, p, s.name):
        if (st.name, s.name) not in held:
            res.add_status(target, st)
            if st.told:
                res.feedback(target, f"你获得了[{shown(st.name, st.count)}]状态，{ends(game, st.until)}。")
    if refreshed and "opening" in s.phases and "强制" in s.tags:
        # a <强制> [开局] skill is not decided: it triggers now, as its role's opening trigger
        # (``m217.at.开局.<role>``: 暗恋者<跨越千里>; a choice it leaves is drawn, as at the opening)
        trigger = game.ruleset.handlers.get(f"m217.at.开局.{role}")
        if trigger is not None:
            trigger(res)
    elif refreshed and "opening" in s.phases:
        # answered now, or in a step resolved as the phase begins (黄昏 (1): the vote-out), the gain is
        # in the phase the player acts in now: it opens at once ("在获取技能的那个时段需要立刻决定");
        # in a phase's resolution, in the phase that follows
        begun = res.step == "immediate" or any(st.start and st.name == res.step for st in game.phase.steps)
        p.data.setdefault(OPENING, {})[s.name] = [res.label, "open" if begun else "gained"]
        res.feedback(target, f"你获得了[开局]技能[{s.name}]，须在获取技能的时段立刻决定是否发动。")
    # > 刷新至初始 / 继承得到的技能为初始状态: a skill with a state of its own (九尾's tails) starts it again
    refresh = game.ruleset.handlers.get(f"m217.refresh.{s.name}")
    if refresh is not None:
        refresh(res, p)


def gained_by(res, p, skill: str) -> bool:
    """``p`` acquired ``skill`` in this resolution, since the last exit (the exit that gave it to him,
    影子's host or 复仇者's 仇人): a trigger "每有…出局时" does not count the exit that came before it."""
    return p.data.get("m217.gained", {}).get(skill) == [res.label, len(res.out)]


def window(game, label: str, phases: tuple[str, ...]) -> str:
    """The first phase at or after ``label`` whose kind is in ``phases`` (the time a skill "出局后下一个
    可发动技能的时点" may be used)."""
    day, idx = game.parse_phase(label)
    if day == -1:
        day, idx = game.manifest.first_day, -1
    else:
        idx -= 1
    while True:
        idx += 1
        if idx == len(game.cycle):
            day, idx = day + 1, 0
        spec = game.cycle[idx]
        if spec.name in phases and not spec.optional:
            return f"{spec.name} {day}"


def exit_of(game, name: str) -> list | None:
    """The last recorded exit of ``name``: [label, name, kind, rule, by a day skill]."""
    return next((e for e in reversed(game.data.get("m217.exits", [])) if e[1] == name), None)


def expiry(game, st: Status) -> tuple[int, int]:
    return (10**9, 0) if st.until is None else game.parse_phase(st.until)


# ------------------------------------------------------------------- identity and skills


def armed(game, p) -> bool:
    """> 实际带刀：参考占卜师，若能使用[杀人]技能，则视为带刀。"""
    return "杀人" in game.skills_of(p) and not has(p, "超度")


def surface(game, name: str) -> dict[str, Any]:
    """> 表面阵营/表面身份/表面带刀：…最后发动的技能所造成的表面身份更换生效。…若无任何伪装，
    则查验结果与实际身份相同。"""
    p = game.player(name)
    # > 若强制技能提供任何[状态]，则该强制技能失效后，这些状态也一同失效。 — a disguise given by a
    # <强制> skill (狼弟<潜藏>) is read only while that skill works (``active``)
    seen = {"camp": p.camp, "role": p.role, **p.setup}
    for st in active(p):
        if "camp" in st.data or "role" in st.data:
            seen.update(st.data)
    seen.setdefault("armed", armed(game, p))
    return seen


def judged_camp(game, target, by: str | None = None) -> str:
    """The [实际阵营] a skill cast by ``by`` judges ``target`` by (knight's 决斗, 猎魔人's 猎杀, 奇迹商人's
    馈赠, 圣女's 圣水, 子狐's 咒缚 …): the actual camp, unless ``target.data["m217.judged"]`` maps the
    caster's actual camp to another one (隐狼<伪装> effect 4).

    > 4，受到来自于[村民阵营]的以[实际阵营]判断的技能时，以你为[村民阵营]进行判定
    > PS：效果4以隐狼为目标的才会改变，隐狼发动的技能不会改变实际阵营的判定"""
    p = game.player(target) if isinstance(target, str) else target
    caster = game.players.get(by) if by else None
    seen = p.data.get("m217.judged") or {}
    if caster is not None and caster.name != p.name and caster.camp in seen:
        return seen[caster.camp]
    return p.camp


def identity(game, p) -> str | None:
    """The identity whose skills a copier takes from ``p`` (影子's inheritance, 复仇者's 雪恨): the
    实际身份, unless ``p`` changes identity (双面人's cards: ``p.data["m217.identity"]``, None while
    no identity is taken).

    > 身份更换 … 4：获取技能的角色获取到该角色身份时，获取的是最后更换出来的身份技能，若该角色尚未更换身份则获取技能为无技能。"""
    return p.data["m217.identity"] if "m217.identity" in p.data else p.role


def category(game, p) -> str | None:
    """The board's category (狼人/验人系/强神/弱神/三方/不定): the deal pool that lists the role."""
    if p.data.get("m217.category"):
        return p.data["m217.category"]
    for t in game.manifest.tables:
        for pool in t.pools:
            if p.role in pool.roles:
                return pool.name
    return None


def send_forced(res, actor: str, skill: str, target: str, why: str) -> None:
    """A <强制> skill whose target its rule decides (恶灵骑士<邪恶>, 黑蝙蝠<反弹>) is sent by the rules:
    the holder learns the 选择范围 ("由于会得知选择范围的原因…"), and the action joins this step's
    actions, so it passes the chain and 面包师's binding like one sent by hand. Its effect spends
    the use (``spend``): the kernel spends uses only for what was sent before the phase resolved."""
    res.feedback(actor, f"{skill} 选择范围：{target}。")
    res.actions.append(Action(actor=actor, skill=skill, chosen=[target], targets=[target]))
    res.trace(skill, f"{actor}的{skill}对{target}发动（{why}）")


def spend(res, action) -> None:
    """The use of a skill the rules sent (``send_forced``), spent when it takes effect."""
    res.game.player(action.actor).uses[action.skill] -= 1


def lose(res, player: str, skill: str) -> None:
    p = res.game.player(player)
    lost = p.data.setdefault("m217.lost", [])
    if skill not in lost:
        lost.append(skill)
        res.trace("失去技能", f"{player}失去{skill}")


def flip(res, action) -> None:
    """> 标明[翻牌]的技能，发动该技能需要公开自己的[实际身份]发动
    > 特别的，[翻牌]技能都会公示以下内容：1，是否有角色翻牌 2，是否有角色出局 3，技能上说明的其他应
    > 公示内容。…翻牌技能也不公示发动的什么技能以及发动目标。"""
    p = res.game.player(action.actor)
    p.data["m217.revealed"] = True
    res.announce(f"{p.name}翻牌，实际身份为{p.role}。")


# ------------------------------------------------------------------------------ kills


def hit(res, action, target: str, kind: str, rule: str = "", by: str = "") -> None:
    """Queue a kill of ``kind`` (指杀, 穿透, 致死伤害, 暴击, 特攻); step (20) lands it."""
    res.kill(target, kind=kind, by=by or action.actor, action=action, rule=rule or action.skill)


def deaths(res) -> None:
    """> （20）每次出局效果依次结算：狼人<杀人>、…、女巫毒药、…
    > 若存在多个同名技能，则真身份牌的优先，…结算同名的出局顺序也是如此
    Kills of a rule the order does not name come after, in the order queued. A kill may be
    placed by its skill (幼狼<牺牲>: "可以选择[牺牲]在出局效果结算步骤中的哪个步骤结算"):
    ``res.data["m217.place"][(rule, target)]`` names the rule of the order it lands right after
    ("" : before every listed rule)."""
    order = res.game.option("death_order") or []
    placed = res.data.get("m217.place", {})

    def key(k):
        rank: float = order.index(k.rule) if k.rule in order else len(order)
        after = placed.get((k.rule, k.target))
        if after is not None:
            rank = order.index(after) + 0.5 if after in order else -0.5
        return (rank, bool(k.action and k.action.acquired))

    res.kills.sort(key=key)
    # > [致死伤害]：除了[不死]状态，其他情况下承受[致死伤害]将会立刻出局。
    # > （20）每次出局效果依次结算… / 公示出局名单时按角色出局的顺序排序。
    # A 致死伤害 that an exit triggers (粉丝, 殉情, 摄梦, 九尾 …) lands right after that exit, before
    # the kills queued after it: one exit's effects are settled before the next exit.
    resolve_deaths(res, at_once=lambda k: k.kind == FATAL)
    if res.game.phase.name == "night" and res.step == res.game.phase.steps[-1].name:
        # a role that reports on the whole night (幽灵<附体>: its target's actions and feedback) provides
        # ``m217.night-end.<role>(res)``, run once the night's deaths have landed, in name order
        handlers = res.game.ruleset.handlers
        for name, _ in res.game.ruleset.handlers_under("m217.night-end."):
            handlers[name](res)


land = deaths  # immediate (noon) skills land their kills at once


def from_(game, st: Status, kill) -> bool:
    """A status ``only_from`` one seat (复仇者's [不死] "仅针对仇人") stops only that player's kills:
    those whose source is that player, or that come from an action that player sent."""
    only = st.data.get("only_from")
    if not only:
        return True
    names = {kill.by, kill.action.actor if kill.action is not None else None}
    return any(q.seat == only for n in names if n in game.players for q in (game.players[n],))


@hookimpl
def bansha_stop_kill(res, kill):
    """> [指杀]：通常的出局方式，会被大多数技能抵消  [穿透]：强化的出局方式，无视[守护]
    > [致死伤害]：除了[不死]状态，其他情况下承受[致死伤害]将会立刻出局。
    > [守护：X]：该状态下，将会抵消掉X次[指杀]，会优先消耗掉时限较短的[守护]状态以抵消。
    > [坚韧]：该状态下，除了红牌罚下，[致死伤害]和投票出局，其他情况下都不会出局。
    > [不死]：除了红牌罚下，其他情况下都不会出局。"""
    game = res.game
    # > [不死]：除了红牌罚下，其他情况下都不会出局。 — whatever the kind (暴击 and 特攻 included, whatever
    # option ``kill_stoppers`` lists): only a red card (a ruling, which never asks this hook) passes it
    stoppers = ["不死", *(n for n in (game.option("kill_stoppers") or {}).get(kill.kind) or () if n != "不死")]
    p = game.player(kill.target)
    src = game.players.get(kill.by)
    for name in stoppers:
        if name == "守护":
            continue
        for st in active(p):
            only = st.data.get("only_from_camp")
            if st.name == name and (not only or (src is not None and src.camp == only)) and from_(game, st, kill):
                return f"{name} ({st.source or 'status'})"
    if "守护" in stoppers:
        guards = sorted((s for s in active(p) if s.name == "守护" and (s.count is None or s.count > 0)),
                        key=lambda s: expiry(game, s))
        if guards:
            g = guards[0]
            if g.count is not None:
                g.count -= 1
                if g.count <= 0:
                    p.statuses.remove(g)
                    p.data.setdefault("m217.spent", []).append(g.source)
            return f"守护（{g.source}），剩余{shown('守护', g.count)}"
    return None


@hookimpl
def bansha_on_death(res, player, kill):
    """> 角色出局时将收到通知。
    > 只有首夜出局和白天出局的角色有遗言。可以留下遗言的角色会收到可以留下遗言的通知
    > 红牌罚下出局的角色没有遗言权利"""
    game = res.game
    night = game.phase.name == "night"
    # > 无法回溯白天技能造成的影响 — a death caused by a skill in a day phase is marked so
    by_day_skill = kill.action is not None and not night
    game.data.setdefault("m217.exits", []).append([res.label, player.name, kill.kind, kill.rule, by_day_skill])
    res.feedback(player.name, "你已出局。")
    if player.data.get("m217.red"):
        return  # > 红牌罚下出局的角色没有遗言权利 (a card waiting for the vote too)
    if kill.kind != "ruling" and kill.last_words and (not night or game.day == 1):
        res.feedback(player.name, "你可以留下遗言（遗言中禁止使用Discuz!代码）。")


# ----------------------------------------------------------------- the targeting chain


def kick(res, action) -> None:
    """> 从[选择目标]过度到[结算目标]按照下列顺序过度：[选择目标]——阴谋家[煽动]——蚀时狼妃
    > [时间逆流]——镜[反射]——最终会进行结算效果的所有目标
    > 过度方式类似于踢球制，…然后再检测球当前所在的A有没有魔术技能（不会再次检测狼妃），以此类推。"""
    game = res.game
    final = []
    for ball in action.targets:
        for stage in game.option("chain") or []:
            fn = game.ruleset.handlers.get(f"m217.chain.{stage}")
            if fn is None:
                continue
            new = fn(res, action, ball)
            if new != ball:
                res.trace(stage, f"{action.actor}的{action.skill}：球从{ball}传到{new}")
                ball = new
        final.append(ball)
    if final != action.targets:
        res.redirect(action, final, rule="踢球")


def settle(res, action) -> bool:
    """Chosen targets → final targets; False when nothing is left to resolve.

    > [隐身]：该状态下，所有[指定]技能以该角色进行[最终结算目标]的效果，不进行结算。

    Once per action and resolution: the step handler ``m217.chain`` settles every [指定] action of
    its step before the effects run, and an effect that calls ``settle`` again (乌鸦<诽谤>, 潜行者
    <潜行> …) gets the same answer, the ball not kicked a second time (a swap would send it back)."""
    game = res.game
    settled = res.data.setdefault("m217.settled", [])  # the actions themselves: compared by identity
    if any(a is action for a in settled):
        return not action.void and bool(action.targets)
    settled.append(action)
    # a role triggered by being chosen as a target ("对你使用…[指定]技能", 复仇者<寻仇>) provides
    # ``m217.targeted.<role>(res, action)``, called once per action, before the chain moves the ball
    if not action.result.get("m217.targeted"):
        action.result["m217.targeted"] = True
        for name, _ in game.ruleset.handlers_under("m217.targeted."):
            game.ruleset.handlers[name](res, action)
    kick(res, action)
    skill = game.skills_of(game.player(action.actor)).get(action.skill, (None, False))[0]
    if skill is not None and not skill.may_target_dead:
        # a target who left the game after the skill was sent (shot at 黄昏 before the dusk's list
        # announced it: the skill was accepted, "已经公示的出局角色不允许被选为技能…的目标") is not settled
        alive = [t for t in action.targets if game.player(t).alive]
        if alive != action.targets:
            if not alive:
                res.void(action, "其最终目标已出局", rule="出局")
                return False
            res.redirect(action, alive, rule="出局")
    kept = [t for t in action.targets if not has(game.player(t), "隐身")]
    rule = "隐身"
    # a role that makes some skills void on some final targets tonight (撑杆僵尸<跳跃>) provides
    # ``m217.shield.<role>(res, action, target) -> bool``: such a target is dropped as under 隐身
    for name, _ in game.ruleset.handlers_under("m217.shield."):
        shielded = [t for t in kept if not game.ruleset.handlers[name](res, action, t)]
        if shielded != kept:
            kept, rule = shielded, name.removeprefix("m217.shield.")
    if kept != action.targets:
        if not kept:
            res.void(action, f"其最终目标处于{rule}之下", rule=rule)
            return False
        res.redirect(action, kept, rule=rule)
    return True


def gained_before(res, p, effect: str, idx: int) -> Status | None:
    for st in active(p):
        g = st.data.get("gained")
        if effect in parts(st.name) and (not g or g[0] != res.label or g[1] < idx):
            return st
    return None


def chain(res) -> None:
    """Before a step's skills resolve.

    > [沉默]：该状态下不能发动[强制]技能以外的技能（附加之前已经发动的不受影响）。
    > [缴械]：该状态下不能发动[杀人]，若是[群内]，也会影响整个群内不能发动杀人。
    A status landed at an earlier step of the night reaches the later steps' actions (the forum
    casts them in later windows); one landed in the same step does not.

    Role plugins may provide two kinds of handler here: ``m217.at.<step>.<role>(res)``, a trigger
    of a numbered step that needs no action (熊<咆哮> at 黄昏(4)), run first in name order; and
    ``m217.cast.<skill>(res, action)``, what a skill does the moment it is cast ("发动此技能时",
    隐者<脱下隐身衣>), run for an action not blocked above, before its targets are settled."""
    game = res.game
    idx = step_index(res)
    handlers = game.ruleset.handlers
    for _, handler in game.ruleset.handlers_under(f"m217.at.{res.step}."):
        handler(res)
    for a in res.actions_in(res.step):
        if a.void:
            continue
        actor = game.player(a.actor)
        skill, _ = game.find_skill(actor, a.skill)
        if not {"强制", ANY_STATE} & set(skill.tags):
            st = gained_before(res, actor, "沉默", idx)
            if st:
                res.void(a, f"{a.actor}处于{st.name}状态", rule=st.name)
                # > 该状态下不能发动…的技能: the skill was never cast, so a counted use is not spent
                # (the kernel spent it when the night began to resolve)
                if skill.uses is not None and not skill.group:
                    actor.uses[skill.name] = actor.uses.get(skill.name, 0) + 1
                continue
        if skill.name == "杀人":
            members = [p for p in game.alive() if skill.group in p.groups] or [actor]
            st = next((s for m in members if (s := gained_before(res, m, "缴械", idx))), None)
            if st:
                res.void(a, f"群内有成员处于{st.name}状态", rule=st.name)
                continue
        if f"m217.cast.{skill.name}" in handlers:
            handlers[f"m217.cast.{skill.name}"](res, a)
        if "指定" in skill.tags and a.targets:
            settle(res, a)


# --------------------------------------------------------------------------------- votes


CANCELLED = "决斗：当天投票取消。"


def vote_cancelled(game) -> bool:
    """> 1此玩家为[狼人阵营]，目标将受到[穿透]，可留遗言，且当天投票取消。 (骑士<决斗>) — from the duel on,
    every vote of that game day (its 正午, and 太阳's extra 正午 of the same day) is void: the ballots
    already cast do not count, no more are taken, nobody is voted out and nobody gets a yellow card."""
    label = game.data.get("m217.vote_cancelled")
    return bool(label) and game.phase.vote and game.parse_phase(label)[0] == game.day


@hookimpl
def bansha_validate_vote(game, ballot):
    if vote_cancelled(game):
        return CANCELLED
    return None


@hookimpl
def bansha_adjust_ballots(res, ballots):
    """> [迷魂]：该状态下投票算作0票（但是依然可以触发投票相关技能）。
    Extra votes are status data ``votes`` (+N)."""
    game = res.game
    for b in ballots:
        voter = game.player(b.voter)
        if vote_cancelled(game):
            b.void = "当天投票取消（决斗）"
        elif has(voter, "迷魂"):
            b.weight = 0
            res.trace("迷魂", f"{b.voter}的投票计0票")
        else:
            b.weight = 1 + sum(s.data.get("votes", 0) for s in active(voter))


@hookimpl
def bansha_vote_immune(res, player):
    """> 讨论日获得投票最多的角色将出局，若该角色持有[霸道]或[不死]状态，则不出局，公示平安日。"""
    # a status restricted to a source (``only_from``/``only_from_camp``) does not stop the vote
    # (复仇者's [不死] gives its own answer: bansha_m217_avenger)
    if any(n in parts(s.name) and not (s.data.get("only_from") or s.data.get("only_from_camp"))
           for s in active(player) for n in ("霸道", "不死")):
        return "今日平安日。"
    return None


VOTED = "m217.voted"  # game.data: the players voted out whose exit 黄昏 (1) settles
VOTED_BALLOTS = "m217.voted.ballots"  # game.data: {voter: target} of the vote 黄昏 (1) settles


def vote_ballots(game) -> dict[str, str]:
    """Each voter's last ballot of the vote being settled: this phase's in a vote phase, else (at
    黄昏 (1)) those of the vote whose exits the dusk settles (a 预言家's 天意 reads his own)."""
    if not game.phase.vote:
        return dict(game.data.get(VOTED_BALLOTS) or {})
    return {b.voter: b.target for b in sorted(game.ballots, key=lambda b: b.seq)}


def vote_out(res, name: str, rule: str = "vote") -> None:
    """``name`` is voted out (the count, a tie under 全部出局, 钟's verdict, 太阳's first round).
    Option ``vote_out``: 黄昏 (default) — settled at 黄昏 step (1) (``settle_vote_outs``), the noon
    announcing who is top-voted; 正午 — at once.

    > （1）结算被[投票出局]的角色或平票时替罪羊<冤死>，并通知对应角色是否出局。
    > 黄昏——投票结束后到正式天黑前。"""
    game = res.game
    if game.option("vote_out") != "正午" and game.phase.vote:
        game.data.setdefault(VOTED, []).append([name, rule])
        game.data[VOTED_BALLOTS] = vote_ballots(game)
        res.announce(f"{name}为最高票。")
        res.trace(rule, f"{name}为最高票，黄昏（1）结算投票出局")
        return
    leave_by_vote(res, name, rule)


def leave_by_vote(res, name: str, rule: str) -> None:
    """``name`` leaves by the vote, unless he is out already or a status keeps him (霸道/不死:
    平安日, 白猫's 猫有九命 …, said in the announcement)."""
    from bansha.engine.engine import Kill

    p = res.game.player(name)
    if not p.alive:
        res.trace(rule, f"{name}已出局")
        return
    immune = res.game.hook.bansha_vote_immune(res=res, player=p)
    if immune:
        res.announce(immune)
    else:
        res.remove(p, Kill(target=name, kind="vote", rule=rule, last_words=True))


@hookimpl
def bansha_defer_vote_out(res, player):
    """The kernel's count made ``player`` the one voted out: under option ``vote_out`` = 黄昏 his
    exit is settled at 黄昏 (1) (``vote_out``)."""
    if res.game.option("vote_out") == "正午":
        return None
    vote_out(res, player.name)
    return True


def settle_vote_outs(res) -> None:
    """Handler ``m217.vote-out``, 黄昏 step (1) (a ``start`` step: as the dusk begins, before its
    immediate skills): each player voted out leaves, unless a status keeps him (霸道/不死: 平安日,
    白猫's 猫有九命 …); the step's ``m217.deaths`` then lands what the exits trigger (a 粉丝's
    致死伤害, 殉情 …), at once. Told at once to whom it concerns; the thread hears it with the
    dusk's lists ("在黄昏阶段（包括正常的被投票出局）的角色出局信息，会在黄昏阶段结束后通知")."""
    game = res.game
    for name, rule in game.data.pop(VOTED, []):
        leave_by_vote(res, name, rule)
    game.data.pop(VOTED_BALLOTS, None)


def tie(res) -> None:
    """> “多于一名角色票数最高”称为平票。 The document leaves the tie to the board: option ``tie``
    is 平安日 (nobody out, the default) or 全部出局 (every tied leader is voted out)."""
    game = res.game
    count = res.data.get("vote_count")
    if count is not None and game.option("tie") == "全部出局":
        count.tie = "all"  # the count's rule, as status says it
    tally = res.data.get("tally") or {}
    if game.option("tie") != "全部出局" or not tally:
        return
    top = max(tally.values())
    leaders = [n for n, c in tally.items() if c == top]
    if len(leaders) < 2:
        return
    res.public = [line for line in res.public if line != game.manifest.texts.nobody_out]
    for name in leaders:
        vote_out(res, name)


def yellow(res) -> None:
    """> 讨论结束时，未回复投票帖者将被判罚黄牌；投弃权票时，须在投票对象中填写“弃权”。
    > 执行加速时，所有人不可改票，且发言不足或未投票者将不被判罚。
    A ballot the director voided was a reply to the vote post (no yellow card, no vote); a player
    sent off (红牌) gets no yellow card besides."""
    game = res.game
    if game.data.get("m217.accelerated") == res.label or vote_cancelled(game):
        return  # a cancelled vote (决斗) asks nobody to vote
    voted = {b.voter for b in game.ballots}
    voted |= {v[1] for v in game.data.get("m217.voided", []) if v[0] == res.label}
    for p in game.players.values():
        if p.data.get("m217.red"):
            continue
        if (p.alive or p.name in res.out) and p.name not in voted:
            p.data["m217.yellow"] = p.data.get("m217.yellow", 0) + 1
            res.announce(f"{p.name}未投票，判罚黄牌。")


def dusk_lists(res) -> None:
    """> （3）公示[投票出局]的角色和其他原因出局的角色名单，分开列出。"""
    exits = res.game.data.get("m217.exits", [])
    # the vote phases of the day before this dusk: noon N-1 and any optional vote phase played
    # after it (太阳's extra 正午, ``extra-noon N-1``)
    day = f" {res.game.day - 1}"
    if res.game.pending_rewind is not None:
        return  # the dusk is turned back (钟): its lists are given when it is played again
    # voted out in this dusk's step (1), or (option vote_out = 正午) when the day's vote closed
    voted = [e[1] for e in exits if e[2] == "vote" and (e[0] == res.label or (e[0].endswith(day) and not e[0].startswith("dusk")))]
    other = [e[1] for e in exits if e[0] == res.label and e[2] != "vote"]
    if voted or other:
        game = res.game
        texts = game.manifest.texts
        # announced once, as the split list: each exit's own line of this dusk is not published besides
        one_by_one = {t.format(name=n, identity=game.identity(game.player(n)))
                      for n in (*voted, *other) for t in (texts.out, texts.voted_out)}
        game.held = [line for line in game.held if line not in one_by_one]
        res.public = [line for line in res.public if line not in one_by_one]
        template = texts.exits_split or "投票出局：{voted}；其他原因出局：{other}。"
        res.announce(template.format(voted="、".join(voted) or "无", other="、".join(other) or "无"))


# ---------------------------------------------------------------------------------- wins


@hookimpl
def bansha_check_win(game):
    """The document gives no win condition for 狼人阵营 and 村民阵营; option ``win``:
    屠边 (default): the village wins when every 狼人阵营 player is out; the wolves win when every
    village 神 (验人系 and 强神) is out, or every village 弱神 is out (a category never dealt does
    not count). 屠城: the wolves win when every 村民阵营 player is out."""
    players = list(game.players.values())
    wolves = [p for p in players if p.camp == WOLF]
    village = [p for p in players if p.camp == VILLAGE]
    # 黑情侣阵营 holds a 杀人 and wins by 屠城: the village has not won while one of it stands
    # (docs/rulings/m217.md, Wins)
    hostile = [p for p in players if p.camp in (WOLF, DARK_LOVERS)]
    winners = []
    if wolves and not any(p.alive for p in hostile) and any(p.alive for p in village):
        winners.append(VILLAGE)
    if any(p.alive for p in wolves):
        if game.option("win") == "屠城":
            sides = [village]
        else:
            sides = [[p for p in village if category(game, p) in ("验人系", "强神")],
                     [p for p in village if category(game, p) == "弱神"]]
        if any(side and not any(p.alive for p in side) for side in sides):
            winners.append(WOLF)
    # > 其中不同的三方阵营各自为独立阵营拥有单独的胜利条件。 A role with a win condition of its own
    # (三方, 不定, a 阵营 that a role creates) provides a handler ``m217.win.<role>(game)``
    # returning the camps that win now, or None; they are asked in name order.
    handlers = game.ruleset.handlers
    for name, _ in game.ruleset.handlers_under("m217.win."):
        for camp in handlers[name](game) or ():
            if camp not in winners:
                winners.append(camp)
    # a role that acts "游戏结束时" (钟) may hold the end: handler m217.hold-end(game, winners)
    hold = game.ruleset.handlers.get("m217.hold-end")
    if winners and hold is not None and hold(game, winners):
        return []
    return winners or None


# ---------------------------------------------------------------------- checks and views


@hookimpl
def bansha_validate_action(game, action):
    p = game.player(action.actor)
    if action.skill in p.data.get("m217.lost", ()):
        return f"{p.name}已失去{action.skill}"
    skill, _ = game.find_skill(p, action.skill)
    if "亡语" in skill.tags:
        # [亡语] (not defined by the document; read from 最后一枪's "出局后下一个可发动技能的时点"):
        # used only after its holder has left the game, in the first phase of its kinds at or
        # after the exit; > 红牌罚下出局的角色…不能发动任何技能
        gone = exit_of(game, p.name) if not p.alive else None
        if not gone or window(game, gone[0], skill.phases) != game.label:
            return f"{skill.name}是[亡语]技能：在持有者出局后的第一个{'/'.join(phase_zh(game, ph) for ph in skill.phases)}发动"
    return None


@hookimpl(specname="bansha_skill_unavailable")
def revealed(game, player, skill):
    """> 若[实际身份]已经公开则无法发动。 — asked before a counted skill's uses: the reason given is
    the public one ([翻牌], the identity is known to all), never "no uses left"."""
    if "翻牌" in skill.tags and player.data.get("m217.revealed"):
        return f"{player.name}的实际身份已公开：{skill.name}（[翻牌]）无法发动"
    return None


@hookimpl(specname="bansha_validate_action", trylast=True)
def refuse_unknown_args(game, action):
    """Bad input: an --arg the skill does not take (``by``: 幽灵's [操纵夺舍], any skill; a
    ``<…>`` key: a skill taking keys of its own, 命运洪流). Asked last: a role's own message on
    its arguments comes first."""
    skill, _ = game.find_skill(game.player(action.actor), action.skill)
    if any(k.startswith("<") for k in skill.args):
        return None
    unknown = [k for k in action.args if k not in skill.args and k != "by"]
    if unknown:
        takes = "、".join(f"--arg {k}=…" for k in skill.args) or "不带 --arg"
        return f"{skill.name}：没有参数 --arg {unknown[0]}（{skill.name}可用：{takes}）"
    return None


@hookimpl
def bansha_player_view(game, player):
    """> 每次技能可发动时，技能持有者会得到可发动技能的所有发动状态（剩余次数，可选目标等等）
    > 标明[X]的技能…该技能的持有者在可发动技能时会得知剩余次数。
    The usable skills, their ranges and the uses left are the kernel's part of every view
    (``views.player_view``: ``choices`` and ``uses``, from ``choices.seat_choices``); this adds
    what only this board shows."""
    view: dict[str, Any] = {}
    # > 若强制技能提供任何[状态]，则该强制技能失效后，这些状态也一同失效。 — a status of a <强制> skill that
    # does not work now (遗忘, lost) is not shown among his statuses (``active``); the kernel lists every told one
    view["statuses"] = [s.name + (f":{s.count}" if s.count is not None else "") + (f"（{ends(game, s.until)}）" if s.until else "")
                        for s in active(player) if s.told]
    if player.data.get("m217.camp-untold"):
        # > 复仇者<寻仇>：…但不得知加入了什么阵营。 — a change of camp not told is not shown either
        view["camp"] = "不得知（阵营变动未告知）"
    if player.data.get("m217.yellow"):
        view["黄牌"] = player.data["m217.yellow"]
    return view


@hookimpl
def bansha_setup_game(game):
    """The standing statuses of every card's skills (``standing``), before any phase is played."""
    for p in game.players.values():
        for skill in list(game.skills_of(p)):
            # an acquired skill's were handed when it was acquired (a 双面人's card at the deal)
            if skill not in p.acquired and not any(st.data.get("forced") == skill for st in p.statuses):
                p.statuses.extend(standing(game, p, skill))


@hookimpl(specname="bansha_phase_started")
def opening_windows(game):
    """An acquired [开局] skill gained in a phase's resolution opens in the phase that follows; the
    window closes with that phase (``acquire``'s ``refreshed``)."""
    for p in game.players.values():
        windows = p.data.get(OPENING)
        for name, (label, state) in list((windows or {}).items()):
            if label == game.label:
                continue
            if state == "gained":
                windows[name] = [game.label, "open"]
            else:
                del windows[name]


@hookimpl
def bansha_skill_window(game, player, skill):
    """> 若有，则在获取技能的那个时段需要立刻决定是否发动[开局]类技能。 (``acquire``'s ``refreshed``)"""
    entry = (player.data.get(OPENING) or {}).get(skill.name)
    if entry and entry == [game.label, "open"] and holds(game, player, skill.name):
        return True
    return None


@hookimpl
def bansha_phase_opened(res):
    """> [寡言]：每天开门都会公示该状态的持有情况 — at the start of every noon (开门)."""
    game = res.game
    if game.phase.name != "noon":
        return
    holders = [p.name for p in sorted(game.players.values(), key=lambda p: p.seat)
               if p.alive and any(s.name == "寡言" for s in active(p))]
    if holders:
        res.announce(f"{'、'.join(holders)}持有[寡言]状态。")


@hookimpl
def bansha_game_view(game):
    """[翻牌] made an identity public: everyone may see it."""
    shown_ = [f"{p.name}：{p.role}" for p in game.players.values() if p.data.get("m217.revealed")]
    return {"已公开身份": shown_} if shown_ else None


@hookimpl
def bansha_step_handlers():
    return {
        "m217.chain": chain,
        "m217.follow.跟随": following,
        "m217.deaths": deaths,
        "m217.tie": tie,
        "m217.yellow": yellow,
        "m217.dusk-lists": dusk_lists,
        "m217.vote-out": settle_vote_outs,
    }


@hookimpl
def bansha_roles():
    return []


# ------------------------------------------------------------------- homebrew roles' cards


@hookimpl
def bansha_cards():
    from bansha_m217_cards import CARDS  # here: only a board with homebrew roles reads them

    return CARDS


@hookimpl
def bansha_card_targets(res, action):
    """A homebrew [指定] skill passes the targeting chain and 隐身 (``settle``; once per action:
    in a step of ``m217.chain`` it answers what the chain already settled)."""
    skill, _ = res.game.skills_of(res.game.player(action.actor)).get(action.skill, (None, False))
    if skill is None or "指定" not in skill.tags:
        return None
    return list(action.targets) if settle(res, action) else []


@hookimpl
def bansha_card_done(res, action):
    # an action answered at once (noon, dusk, dawn) lands its kills now
    if action.answered:
        land(res)


@hookimpl
def bansha_card_camp(game, target, by):
    return judged_camp(game, target, by)
