"""刺客 — 光影传说 v1.3.

> 刺客1名：该职业玩家每天可以“窥探”一次对方国家的某职业（国王，皇后除外）。上帝将会在每天的公告中
> 公布被“窥探”职业当天询问的问题。如果正好有猎人伪装成为被窥探对象，那么视为存在复数个该对象，所有
> 对象的问题都将全部公布。 如果存在若干名法师，“窥探”对方法师时要注明法师编号。
> 案例2：刺客A“窥探”对方某职业B。此时若：玩家B被己方法师保护，那么公告将不描述刺客A的行为效果。
> 玩家B被对方法师干扰，那么公告将描述：“某职业B今天什么都没问。” 刺客A被对方法师干扰，那么公告将不
> 描述刺客A的行为效果。玩家B当日确实没有使用任何询问，那么公告将描述：“某职业B今天什么都没问。”
> 玩家B询问了关于玩家C的3个问题，但是玩家C被保护……那么公告还是将描述：“某职业B询问了如下三个问题。”

Reads ``res.data["protected"]``, ``res.data["disrupted"]`` (mage web) and ``res.data["asked"]``
(询问, light-shadow.rules): docs/rulings/light-shadow.md §10.
"""

from bansha import Role, Skill, for_skills, hookimpl

# the quoted rule above, as one line for `bansha role show`
RULE = "".join(line.lstrip("> ") for line in __doc__.split("\n\n")[1].splitlines())


def enemy_of(game, name):
    mine = game.player(name).camp
    return next(c.name for c in game.manifest.camps if c.name != mine)


def spy(res, a):
    g = res.game
    if a.actor in res.data.get("disrupted", ()):
        res.trace("刺客.窥探", f"刺客{a.actor}被对方法师干扰：公告将不描述刺客{a.actor}的行为效果")
        return
    nation, role, number = enemy_of(g, a.actor), a.args["role"], a.args.get("number")
    # every player who counts today as that profession: the real one and any disguised hunter
    holders = [p.name for p in g.players.values()
               if (s := g.surface(p))["camp"] == nation and s["role"] == role
               and (number is None or s.get("number") == int(number))]
    protected, disrupted = res.data.get("protected", set()), res.data.get("disrupted", set())
    if holders and all(h in protected for h in holders):
        res.trace("刺客.窥探", f"{'、'.join(holders)}被己方法师保护：公告将不描述刺客{a.actor}的行为效果")
        return
    live = {h for h in holders if h not in protected | disrupted}
    asked = [q for who, q in res.data.get("asked", []) if who in live]
    label = f"{nation}的{role}{number or ''}"
    if asked:
        res.announce(f"{label}询问的问题是" + "，".join(f"“{q}”" for q in asked) + "。")
    else:
        res.announce(f"{label}今天什么都没问。")


ASSASSIN = Role(
    name="刺客", alias="assassin", rule=RULE,
    skills=(Skill(name="窥探", alias="spy", phases=("day",), step="spy", targets=0, effect=spy,
                  args={"role": "对方国家的职业（国王、皇后除外）", "number": "法师编号（对方有两名法师时必填）"},
                  does=("check",), arg_values={"role": "role", "number": ("", "1", "2")},
                  rule="每天可以“窥探”一次对方国家的某职业（国王，皇后除外）。"),),
)


@hookimpl
def bansha_roles():
    return [ASSASSIN]


@hookimpl
@for_skills("窥探")
def bansha_validate_action(game, action):
    if action.skill != "窥探":
        return None
    nation, role, number = enemy_of(game, action.actor), action.args.get("role"), action.args.get("number")
    mages = sum(1 for p in game.players.values() if p.camp == nation and p.role == "法师")
    if role in ("国王", "皇后") or role not in game.ruleset.roles or role in game.manifest.common:
        return f"{action.actor}的窥探被拒绝：只能窥探对方国家的骑士、刺客、法师或猎人。"
    if role == "法师" and mages > 1 and str(number) not in ("1", "2"):
        return f"{action.actor}的窥探被拒绝：对方有两名法师，窥探法师要注明法师编号（number = 1 或 2）。"
    if number is not None and (role != "法师" or mages < 2):
        return f"{action.actor}的窥探被拒绝：{nation}没有编号为{number}的{role}。"
    return None
