"""光影传说 v1.3 — what belongs to the ruleset, not to one profession: 询问, 猜测, the daily
YES count, lapsed actions and the director's disqualification.

Readings: docs/rulings/light-shadow.md (§ numbers below). Shared results of one day's
resolution live in ``res.data``:

- ``protected``, ``disrupted``, ``cursed`` (sets of names): written by ``light-shadow.mage-web``
  (plugin light-shadow.mage), read here and by every profession;
- ``asked`` (list of ``(asker, question)`` in submission order, the question without its
  answer, e.g. ``梦见是不是光之国的国王？``): written by 询问, read by 窥探;
- ``yes`` (int): the number of questions answered 是.
"""

from bansha import Fact, GameError, Role, Skill, for_skills, hookimpl

EVERYONE = "众人"  # the pseudo-role listed in the manifest's ``common``: never dealt
NO_QUESTION = ("国王", "皇后")


def numbered(game, camp):
    """法师1/法师2 exist in ``camp`` only when it has two mages (the 14-seat table)."""
    return sum(1 for p in game.players.values() if p.camp == camp and p.role == "法师") > 1


def question_args(game, args):
    """(camp, role, number) of a 询问, checked; raises ValueError with the reason."""
    try:
        camp = game.ruleset.camp(str(args.get("camp", "")))
        role = game.ruleset.role(str(args.get("role", ""))).name
    except GameError:
        raise ValueError("需要 camp = 国家、role = 职业（如 camp=光之国 role=国王）") from None
    if role in game.manifest.common:  # a role of the ruleset, not a profession (众人)
        raise ValueError(f"没有职业“{role}”")
    number = args.get("number")
    if number is not None:
        if role != "法师" or not numbered(game, camp) or str(number) not in ("1", "2"):
            raise ValueError(f"{camp}没有编号为{number}的{role}")
        number = int(number)
    return camp, role, number


def questions_today(game):
    """> 每位玩家（国王和皇后例外）每天都拥有1次“询问”上帝（第一天有2次） (§1: 第一天 = day 0)"""
    return 2 if game.day == game.option("double_questions_day") else 1


# ------------------------------------------------------------------------------ 询问


def ask(res, a):
    """> 只有国家和职业全猜对的时候，上帝才会回答“是”，否则会回答“不是”。
    > 另外由于某些技能的作用，上帝还有可能回答“不告诉你”。"""
    g, target = res.game, res.game.player(a.targets[0])
    camp, role, number = question_args(g, a.args)
    question = f"{target.name}是不是{camp}的{role}{number or ''}？"
    res.data.setdefault("asked", []).append((a.actor, question))
    # the hunter's disguise fools other players' questions, not his own (§8)
    seen = g.surface(target) if target.name != a.actor else {"camp": target.camp, "role": target.role, **target.setup}
    if a.actor in res.data.get("disrupted", ()):
        answer, why = "不告诉你", "§6：询问者受干扰，他的一切询问无效"
    elif target.name != a.actor and target.name in res.data.get("protected", ()):
        answer, why = "不告诉你", "§5：询问对象被保护，免受一切询问"
    elif g.option("guess_voids_earlier_questions") and any(b.skill == "猜测" for b in res.by(a.actor)):
        answer, why = "不告诉你", "§13：询问者当天进行了猜测，房规 guess_voids_earlier_questions"
    else:
        right = seen["camp"] == camp and seen["role"] == role and number in (None, seen.get("number"))
        answer, why = ("是" if right else "不是"), "按当天的身份回答"
    if answer == "是":
        res.data["yes"] = res.data.get("yes", 0) + 1
    res.trace("询问", f"{a.actor}：{question}{answer}（{why}）")
    # the facts of a 是 (a 不是 denies the pair, not either part: no fact of one kind)
    facts = (Fact(player=target.name, what="camp", value=camp, by=a.skill),
             Fact(player=target.name, what="role", value=role, by=a.skill)) if answer == "是" else ()
    res.feedback(a.actor, question + answer, *facts)


# ------------------------------------------------------------------------------ 猜测


def guess(res, a):
    """> 如果该猜测全对，上帝将宣布该玩家所在国家胜利。 (§13: judged on real identities)"""
    g, me = res.game, res.game.player(a.actor)
    named = {name: g.ruleset.role(str(prof)).name for name, prof in a.args.items()}
    if all(g.player(n).camp != me.camp and g.player(n).role == r for n, r in named.items()):
        enemy = g.player(next(iter(named))).camp
        res.feedback(a.actor, "猜测正确。")
        res.announce(f"{a.actor}猜对了{enemy}全体的身份，{me.camp}胜利。")
        g.data["light-shadow.winner"] = [me.camp]
    else:
        res.feedback(a.actor, "猜测错误。")
    said = "，".join(f"{name}是{role}" for name, role in named.items())
    res.trace("猜测", f"{a.actor}猜测对面国家里面{said}：{'正确' if g.data.get('light-shadow.winner') else '错误'}")


def guess_shape(game, me, args):
    """> 格式为：“对面国家里面，A玩家是国王，……E和F玩家是法师，G玩家是猎人。” — every enemy
    player named once, with exactly the enemy's professions (§13). Returns a reason or None."""
    enemy = [p for p in game.players.values() if p.camp != me.camp]
    names = list(args)
    if any(n not in game.players for n in names) or me.name in names or len(names) != len(enemy):
        return f"需要对面国家的全部{len(enemy)}名玩家，各写一次，不含自己"
    try:
        profs = sorted(game.ruleset.role(str(v)).name for v in args.values())
    except GameError:
        return "职业名不对"
    if profs != sorted(p.role for p in enemy):  # the same professions as often (sorted: a multiset)
        return "职业必须恰好是对面国家的各职业（法师不写编号）"
    return None


EVERYONE_ROLE = Role(
    name=EVERYONE, alias="everyone",
    rule="每位玩家（国王和皇后例外）每天都拥有1次“询问”上帝（第一天有2次）……每天每个玩家都有1次猜测对方全体身份的机会",
    skills=(
        Skill(name="询问", alias="ask", phases=("day",), step="questions", per_phase=2, may_target_self=True,
              args={"camp": "国家（光之国/影之国）", "role": "职业", "number": "法师编号（两名法师时可选）"},
              does=("check",), arg_values={"camp": "camp", "role": "role", "number": ("", "1", "2")},
              rule="询问的格式是：“A玩家是不是B国家的C职业？”只有国家和职业全猜对的时候，上帝才会回答“是”，否则会回答“不是”。",
              effect=ask),
        Skill(name="猜测", alias="guess", phases=("day",), targets=0, immediate=True,
              args={"<玩家名>": "职业（对面国家的每一名玩家；法师不写编号）"},
              arg_values={"<玩家名>": "role"},
              rule="每天每个玩家都有1次猜测对方全体身份的机会……这个猜测可以在每天的任何时候进行，但是如果进行了猜测，那么当天就不能进行询问。第零天不允许进行猜测。",
              effect=guess),
    ),
)


@hookimpl
def bansha_roles():
    return [EVERYONE_ROLE]


@hookimpl
def bansha_skill_unavailable(game, player, skill):
    """What stops a 询问 or a 猜测 whatever it names: asked once per skill, before any target
    (so a seat's listing drops the skill at once)."""
    me = player
    if skill.name == "询问":
        if me.role in NO_QUESTION:
            return f"{me.name}不能询问：{me.role}没有任何询问的机会。"
        mine = [b for b in game.actions if b.actor == me.name]
        if any(b.skill == "猜测" for b in mine):
            return f"{me.name}不能询问：今天已经进行了猜测。"
        if sum(b.skill == "询问" for b in mine) >= questions_today(game):
            return f"{me.name}不能再询问：今天只有{questions_today(game)}次询问。"
    if skill.name == "猜测" and game.day == 0:
        return f"{me.name}不能猜测：第零天不允许进行猜测。"
    return None


@hookimpl
@for_skills("询问", "猜测")
def bansha_validate_action(game, action):
    me = game.player(action.actor)
    if action.skill == "询问":
        try:
            question_args(game, action.args)
        except ValueError as exc:
            return f"{me.name}的询问不成立：{exc}"
    if action.skill == "猜测":
        reason = guess_shape(game, me, action.args)
        if reason:
            return f"{me.name}的猜测不成立：{reason}。"
    return None


@hookimpl
def bansha_check_win(game):
    return game.data.get("light-shadow.winner")


# ------------------------------------------------------------------- day's handlers


def lapse(res):
    """§14/§15: an action of a player who has left the game (犯规), or aimed at one, lapses."""
    for a in res.actions:
        gone = [n for n in dict.fromkeys([a.actor, *a.targets]) if not res.game.player(n).alive]
        if gone:
            res.void(a, f"{'、'.join(gone)}已出局（犯规），此行动无效", rule="§15 犯规")


def yes_count(res):
    """> 每日公告：……今日对一共XX个询问回答了YES。 (always printed, §12)"""
    res.announce(f"今日对一共{res.data.get('yes', 0)}个询问回答了YES。")


@hookimpl
def bansha_step_handlers():
    return {"light-shadow.lapse": lapse, "light-shadow.yes": yes_count}


# ------------------------------------------------------------------- disqualification


@hookimpl
def bansha_on_death(res, player, kill):
    """> 否则该玩家视为犯规，取消当轮参赛资格。 (§15, option ``disqualification``)"""
    player.data["light-shadow.disqualified"] = res.label


@hookimpl
def bansha_phase_started(game):
    if game.option("disqualification") == "day":
        for p in game.players.values():
            if p.data.pop("light-shadow.disqualified", None):
                p.alive = True


@hookimpl
def bansha_cards():
    """The board's cards for homebrew roles (辨别)."""
    from bansha_light_shadow_cards import CARDS  # here: only a board with homebrew roles reads them

    return CARDS
