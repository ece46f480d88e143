"""法师 — 光影传说 v1.3.

> 法师1-2名：该职业玩家每天可以对任意一名其他玩家使用一次“巫术”技能。如果对象玩家是自己国家的，
> 那保护他免受一切询问和技能作用。如果对象玩家是敌对国家的，他的一切询问和技能无效。但是，法师当天的
> 询问对象里面不得有其使用技能的对象。法师超过1名时，每个法师都有自己的编号。
> 解释1：被保护优先于受干扰。 解释2：法师受干扰时优先处理。 解释3：两个敌对法师相对作用，则相当于没有作用。
> 解释4：两个同国法师相对作用，则相当于互相保护。 解释5：两个同国法师同时对某玩家作用，则效果同时生效。
> 规则解释终极版：光之国法师1保护光之国法师2，光之国法师2干扰影之国法师1，影之国法师1保护影之国法师2，
> 影之国法师2干扰光之国法师1……上帝直接诅咒4个法师！

The step handler ``light-shadow.mage-web`` resolves every 巫术 of the day at once
(docs/rulings/light-shadow.md §7): the curse for the documented four-mage pattern (house rule
``mage_curse = "any-cycle"``: every cycle of three or more), then 解释3/4 for two mages on each
other, then 解释2 from the mages nobody disrupts. It writes, for every other plugin, ``res.data``:
``protected`` (set of names), ``disrupted`` (set of names, cursed mages included), ``cursed``.
"""

from bansha import Role, Skill, for_skills, hookimpl

# the quoted rule above, as one line for `bansha role show`
RULE = "".join(line.lstrip("> ") for line in __doc__.split("\n\n")[1].splitlines())


def cycles(spells, target):
    """Every cycle of mages whose 巫术 aim at each other, each once (as a list in spell order)."""
    found, seen = [], set()
    for m in spells:
        path, cur = [m], target[m]
        while cur in spells and cur not in path:
            path.append(cur)
            cur = target[cur]
        cycle = path[path.index(cur):] if cur in path else []
        if cycle and frozenset(cycle) not in seen:
            seen.add(frozenset(cycle))
            found.append(cycle)
    return found


def documented_curse(cycle, kind):
    """规则解释终极版's pattern: four mages, each 巫术 protecting then disrupting in turn
    (光1 protects 光2, 光2 disrupts 影1, 影1 protects 影2, 影2 disrupts 光1; the numbers do not
    matter)."""
    kinds = [kind[m] for m in cycle]
    return len(cycle) == 4 and all(kinds[i] != kinds[i - 1] for i in range(4))


def web(res):
    g = res.game
    spells = {a.actor: a for a in res.of("巫术") if a.void is None}
    target = {m: a.targets[0] for m, a in spells.items()}
    # 例10: protect or disrupt by the target's nation as seen today (a disguised hunter's)
    kind = {m: "protect" if g.player(m).camp == g.surface(g.player(t))["camp"] else "disrupt"
            for m, t in target.items()}
    works: dict[str, bool] = {}  # mage -> whether his 巫术 takes effect
    cursed: set[str] = set()
    any_cycle = g.option("mage_curse") == "any-cycle"
    for cycle in cycles(spells, target):
        if documented_curse(cycle, kind) or (any_cycle and len(cycle) >= 3):
            cursed |= set(cycle)
            works.update(dict.fromkeys(cycle, False))
        elif len(cycle) == 2:  # 解释3 enemy mages cancel; 解释4 friendly mages protect each other
            works.update(dict.fromkeys(cycle, kind[cycle[0]] == "protect"))

    def on(p, k):
        return [m for m in spells if target[m] == p and kind[m] == k]

    # 解释2 "法师受干扰时优先处理": start from the mages no working enemy 巫术 can disrupt and
    # follow the 巫术 down; 解释1: a working protection beats every disruption
    while True:
        settled = {}
        for m in spells:
            if m in works:
                continue
            if any(works.get(q) for q in on(m, "protect")):
                settled[m] = True
            elif all(works.get(d) is False for d in on(m, "disrupt")):
                settled[m] = True
            elif any(works.get(d) for d in on(m, "disrupt")) and all(works.get(q) is False for q in on(m, "protect")):
                settled[m] = False
        if not settled:
            break
        works.update(settled)
    stuck = [m for m in spells if m not in works]
    if stuck:
        # every mage left is disrupted by another left (an all-disrupting ring): no mage to
        # start from, read as 解释3 around the ring, "相当于没有作用"
        res.trace("法师.巫术结算", f"{'、'.join(stuck)}的巫术依次干扰成环：相当于没有作用（解释3）")
        works.update(dict.fromkeys(stuck, False))

    def disrupted(p):  # 解释1: protection beats disruption
        return p in cursed or (any(works[d] for d in on(p, "disrupt")) and not any(works[q] for q in on(p, "protect")))

    protected = {target[m] for m in spells if kind[m] == "protect" and works[m]}
    hit = {p for p in [*target.values(), *cursed] if disrupted(p)}
    for m, a in spells.items():
        if m in cursed:
            res.void(a, "法师们的巫术构成规则解释终极版的循环：上帝直接诅咒", rule="法师.诅咒")
        elif not works[m]:
            why = "法师受干扰，巫术无效（解释2）" if m in hit else "两个敌对法师相对作用，相当于没有作用（解释3）"
            res.void(a, why, rule="法师.巫术结算")
    res.data.update(protected=protected, disrupted=hit, cursed=cursed)
    res.trace("法师.巫术结算", f"保护：{names(protected)}；干扰：{names(hit)}；诅咒：{names(cursed)}")


def names(players) -> str:
    """Names for the trace, in a fixed order, joined by 、 (无 for none)."""
    return "、".join(sorted(players)) or "无"


def spell(res, a):
    # the mage and the target are never told (§16): the web's result is only traced
    g, t = res.game, a.targets[0]
    friend = g.player(a.actor).camp == g.surface(g.player(t))["camp"]
    res.trace("法师.巫术", f"{a.actor}对{t}使用巫术：{'保护' if friend else '干扰'}")


MAGE = Role(
    name="法师", alias="mage", rule=RULE, setup_keys=("number",),
    skills=(Skill(name="巫术", alias="spell", phases=("day",), step="web", effect=spell, does=("harm", "help"),
                  rule="每天可以对任意一名其他玩家使用一次“巫术”技能。"),),
)


@hookimpl
def bansha_roles():
    return [MAGE]


@hookimpl
def bansha_step_handlers():
    return {"light-shadow.mage-web": web}


@hookimpl
@for_skills("询问", "巫术")
def bansha_validate_action(game, action):
    """> 但是，法师当天的询问对象里面不得有其使用技能的对象。 (either order, §11)"""
    if game.player(action.actor).role != "法师" or action.skill not in ("询问", "巫术"):
        return None
    other = "巫术" if action.skill == "询问" else "询问"
    if any(b.actor == action.actor and b.skill == other and b.targets == action.targets for b in game.actions):
        return f"{action.actor}的{action.skill}被拒绝：法师当天的询问对象里面不得有其使用技能（巫术）的对象。"
    return None
