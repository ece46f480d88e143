"""新日暮里 (M217) — the board's machinery that roles, rules and cards all call, quoted from
用语定义 … 游戏流程: statuses (``give``, ``has``, ``active``), camps (``change_camp``, ``follow``,
``judged_camp``, ``surface``), skills gained and lost (``acquire``, ``lose``, ``spend``), kills
(``hit``, ``flip``) and the duel's cancelled vote (``vote_cancelled``).

Role plugins import these from here; the step handlers and hooks that use them are
``bansha_m217_rules``, the board's cards ``bansha_m217_cards``. Both import this module and
neither imports the other back (the rules load the cards only when a board with homebrew roles
asks, through ``bansha_cards``): tests/kernel/test_imports.py checks it.
"""

from __future__ import annotations

from typing import Any

from bansha import Action, Status

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


#: the statuses whose effects (``parts``) include [遗忘]: asked of every player at every phase start
FORGETTING = frozenset(n for n in (*COMPOUND, "遗忘") if "遗忘" in parts(n))


def forgotten(p) -> bool:
    return any(s.name in FORGETTING for s in p.statuses) if p.statuses else False


def active(p) -> list[Status]:
    """Statuses in effect. > [遗忘]：…该状态下失去所有[强制]技能，持续生效的效果也会一并失去。
    > 若强制技能提供任何[状态]，则该强制技能失效后，这些状态也一同失效。"""
    statuses = p.statuses
    if not any(s.data.get("forced") for s in statuses):
        return list(statuses)  # no status of a <强制> skill (most players, most of the time)
    lost = p.data.get("m217.lost", ())
    gone = forgotten(p)
    return [s for s in statuses if not (s.data.get("forced") and (gone or s.data["forced"] in lost))]


def has(p, effect: str) -> bool:
    return any(effect in parts(s.name) for s in active(p)) if p.statuses else False


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
    # (the few holders sorted, not every player: a stable sort of the chosen keeps the same order)
    return sorted((p for p in game.players.values() if (p.alive or not alive) and holds(game, p, skill)),
                  key=lambda p: p.seat)


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
    """The board's category (狼人/验人系/强神/弱神/三方/不定): the deal pool that lists the role (the
    first that does, table by table: ``board_tables``, read once per ruleset, for the win check
    asks it of every village player after every resolution)."""
    if p.data.get("m217.category"):
        return p.data["m217.category"]
    return dealt_category(game, p.role)


def dealt_category(game, role: str) -> str | None:
    """The category the board deals ``role`` in (the first deal pool that lists it), whatever a
    蛊惑 made a player of that role count as."""
    return board_tables(game)["category"].get(role)


#: per loaded ruleset (shared by its games; nothing of a game's state): ``board_tables``. By the
#: ruleset's id, the ruleset kept beside its tables (so the id is never another's while it is
#: here); a ruleset is loaded once per manifest (``registry.ruleset_for``)
_TABLES: dict[int, tuple[Any, dict[str, Any]]] = {}
_LAST: list[Any] = [None, None]  # the last ruleset asked and its tables


def board_tables(game) -> dict[str, Any]:
    """Lookups read from the ruleset alone, made once per ruleset for the hot paths:

    - ``category``: role -> the name of the first deal pool that lists it (``category``);
    - ``亡语`` and ``question``: the names and aliases of the board's skills tagged [亡语], and of
      those taking ``--arg question``. Every skill a player holds is one of the ruleset's roles'
      (his card's, his group's, or acquired from a role by name), so the rules' and the
      director's checks ask a skill's tags and args only for a name in the set;
    - ``plain_names``: no skill's alias is another skill's name, so a player's table of skills
      (``Game.skills_of``, by name) answers ``Game.find_skill`` of a name in it (``skill_of``)."""
    ruleset = game.ruleset
    if _LAST[0] is ruleset:
        return _LAST[1]  # the ruleset of the last call (one board at a time, most of the time)
    kept = _TABLES.get(id(ruleset))
    if kept is not None and kept[0] is ruleset:
        _LAST[:] = kept
        return kept[1]
    cat: dict[str, str] = {}
    for t in game.manifest.tables:
        for pool in t.pools:
            for role in pool.roles:
                cat.setdefault(role, pool.name)
    skills = [s for role in ruleset.roles.values() for s in role.skills]
    names = {s.name for s in skills}

    def named(test) -> frozenset[str]:
        return frozenset(k for s in skills if test(s) for k in (s.name, s.alias) if k)

    found = {
        "category": cat,
        "亡语": named(lambda s: "亡语" in s.tags),
        "question": named(lambda s: "question" in s.args),
        "plain_names": not any(s.alias and s.alias != s.name and s.alias in names for s in skills),
    }
    _TABLES[id(ruleset)] = (ruleset, found)
    _LAST[:] = ruleset, found
    return found


def skill_of(game, p, name: str):
    """``Game.find_skill(p, name)[0]``: the skill ``p`` holds by that name or alias, read from his
    table by name where no alias of the board is another skill's name (``board_tables``)."""
    if board_tables(game)["plain_names"]:
        found = game.skills_of(p).get(name)
        if found is not None:
            return found[0]
    return game.find_skill(p, name)[0]


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


CANCELLED = "决斗：当天投票取消。"


def vote_cancelled(game) -> bool:
    """> 1此玩家为[狼人阵营]，目标将受到[穿透]，可留遗言，且当天投票取消。 (骑士<决斗>) — from the duel on,
    every vote of that game day (its 正午, and 太阳's extra 正午 of the same day) is void: the ballots
    already cast do not count, no more are taken, nobody is voted out and nobody gets a yellow card."""
    label = game.data.get("m217.vote_cancelled")
    return bool(label) and game.phase.vote and game.parse_phase(label)[0] == game.day
