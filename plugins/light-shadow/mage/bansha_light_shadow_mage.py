"""法师 — 光影传说 v1.3.

> 法师1-2名：该职业玩家每天可以对任意一名其他玩家使用一次“巫术”技能。如果对象玩家是自己国家的，
> 那保护他免受一切询问和技能作用。如果对象玩家是敌对国家的，他的一切询问和技能无效。但是，法师当天的
> 询问对象里面不得有其使用技能的对象。法师超过1名时，每个法师都有自己的编号。
> 解释1：被保护优先于受干扰。 解释2：法师受干扰时优先处理。 解释3：两个敌对法师相对作用，则相当于没有作用。
> 解释4：两个同国法师相对作用，则相当于互相保护。 解释5：两个同国法师同时对某玩家作用，则效果同时生效。
> 规则解释终极版：光之国法师1保护光之国法师2，光之国法师2干扰影之国法师1，影之国法师1保护影之国法师2，
> 影之国法师2干扰光之国法师1……上帝直接诅咒4个法师！

The step handler ``light-shadow.mage-web`` resolves every 巫术 of the day at once
(docs/rulings/light-shadow.md §7) and writes, for every other plugin, ``res.data``:
``protected`` (set of names), ``disrupted`` (set of names, cursed mages included), ``cursed``.
"""

from bansha import Role, Skill, hookimpl

# the quoted rule above, as one line for `bansha role show`
RULE = "".join(line.lstrip("> ") for line in __doc__.split("\n\n")[1].splitlines())


def web(res):
    g = res.game
    spells = {a.actor: a for a in res.of("巫术") if a.void is None}
    target = {m: a.targets[0] for m, a in spells.items()}
    # 例10: protect or disrupt by the target's nation as seen today (a disguised hunter's)
    kind = {m: "protect" if g.player(m).camp == g.surface(g.player(t))["camp"] else "disrupt"
            for m, t in target.items()}
    fixed: dict[str, bool] = {}  # mage -> whether his 巫术 works, settled by a cycle
    cursed: set[str] = set()
    for m in spells:
        path, cur = [m], target[m]
        while cur in spells and cur not in path:
            path.append(cur)
            cur = target[cur]
        cycle = path[path.index(cur):] if cur in path else []
        if len(cycle) >= 3:  # 终极版 (and any longer cycle): all cursed
            cursed |= set(cycle)
            fixed.update(dict.fromkeys(cycle, False))
        elif len(cycle) == 2:  # 解释3 enemy mages cancel; 解释4 friendly mages protect each other
            fixed.update(dict.fromkeys(cycle, kind[cycle[0]] == "protect"))
    memo: dict[str, bool] = {}

    def works(m):  # 解释2: a disrupted mage's 巫术 is void; resolved from the mages upstream
        if m in fixed:
            return fixed[m]
        if m not in memo:
            memo[m] = not disrupted(m)
        return memo[m]

    def on(p, k):  # 解释5: every working 巫术 on p applies
        return [m for m in spells if target[m] == p and kind[m] == k and works(m)]

    def disrupted(p):  # 解释1: protection beats disruption
        return p in cursed or (bool(on(p, "disrupt")) and not on(p, "protect"))

    protected = {target[m] for m in spells if kind[m] == "protect" and works(m)}
    hit = {p for p in [*target.values(), *cursed] if disrupted(p)}
    for m, a in spells.items():
        if m in cursed:
            res.void(a, "cursed: the mages' 巫术 form a cycle (规则解释终极版)", rule="法师.curse")
        elif not works(m):
            why = "enemy mages on each other cancel (解释3)" if m in fixed else "the mage is disrupted (解释2)"
            res.void(a, why, rule="法师.web")
    res.data.update(protected=protected, disrupted=hit, cursed=cursed)
    res.trace("法师.web", f"protected {sorted(protected)}, disrupted {sorted(hit)}, cursed {sorted(cursed)}")


def spell(res, a):
    # the mage and the target are never told (§16): the web's result is only traced
    g, t = res.game, a.targets[0]
    friend = g.player(a.actor).camp == g.surface(g.player(t))["camp"]
    res.trace("法师.巫术", f"{a.actor} {'protects' if friend else 'disrupts'} {t}")


MAGE = Role(
    name="法师", alias="mage", rule=RULE, setup_keys=("number",),
    skills=(Skill(name="巫术", alias="spell", phases=("day",), step="web", effect=spell,
                  rule="每天可以对任意一名其他玩家使用一次“巫术”技能。"),),
)


@hookimpl
def bansha_roles():
    return [MAGE]


@hookimpl
def bansha_step_handlers():
    return {"light-shadow.mage-web": web}


@hookimpl
def bansha_validate_action(game, action):
    """> 但是，法师当天的询问对象里面不得有其使用技能的对象。 (either order, §11)"""
    if game.player(action.actor).role != "法师" or action.skill not in ("询问", "巫术"):
        return None
    other = "巫术" if action.skill == "询问" else "询问"
    if any(b.actor == action.actor and b.skill == other and b.targets == action.targets for b in game.actions):
        return f"{action.actor}的{action.skill}被拒绝：法师当天的询问对象里面不得有其使用技能（巫术）的对象。"
    return None
