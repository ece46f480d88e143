"""小女孩 — 新日暮里 (M217), 弱神 ③.

> 11、小女孩③
> 窥视[凌晨]——游戏日夜晚，小女孩可指定一个时间点，并得知当晚(定义为黄昏开始之后)该时间点之前一共选择发动技能的人数。

The engine has no clock. The forum casts each night step's skills in its time window (关门后35/50/
60/70分钟内), so a time point is named by the night step it opens: ``--arg point=`` a step of the
night (早夜1 … 出局20, the manifest's names) or a window (早夜, 午夜, 深夜, 凌晨: its first step).
Counted are the players who chose to use a skill (an action submitted and not withdrawn, whether
or not it resolved; not an action the engine makes: a <强制> 邪恶/反弹 it casts, a 摄梦 it draws) in the dusk before the night ("定义为黄昏开始之后") or in a night step before
the point. The dusk's actors are written down at its step (4) (handler ``m217.at.黄昏4.小女孩``).
Readings: docs/rulings/m217.md, group weak-b.
"""

from bansha import Role, Skill, for_skills, hookimpl

PEEK = "窥视"
WINDOWS = ("早夜", "午夜", "深夜", "凌晨")
DUSK = "小女孩.dusk"


def night_steps(game) -> list[str]:
    return [s.name for s in game.ruleset.phase("night").steps]


def point_index(game, point: str) -> int | None:
    """The step a time point opens: a step's name, or a window's first step."""
    steps = night_steps(game)
    if point in steps:
        return steps.index(point)
    if point in WINDOWS:
        return next(i for i, s in enumerate(steps) if s.startswith(point))
    return None


def step_of(game, a) -> str:
    skill, _ = game.skills_of(game.player(a.actor)).get(a.skill, (None, False))
    return skill.step if skill is not None else ""


def chose(game, a) -> bool:
    """> 选择发动: an action a player submitted (numbered by the game's event sequence). One the engine
    makes itself — a <强制> skill it casts at its only target (恶灵骑士<邪恶>, 黑蝙蝠<反弹>: ``seq`` 0),
    a 摄梦 drawn for one who chose nobody (``seq`` past the game's) — was nobody's choice."""
    return 0 < a.seq <= game.seq


def record_dusk(res) -> None:
    """Dusk step (4): who chose to use a skill since the dusk began (its immediate skills too)."""
    game = res.game
    if any(PEEK in game.skills_of(p) for p in game.players.values()):
        game.data[DUSK] = [res.label, sorted({a.actor for a in res.actions if chose(game, a)})]


def peek(res, a):
    # > 小女孩可指定一个时间点，并得知当晚(定义为黄昏开始之后)该时间点之前一共选择发动技能的人数。
    game = res.game
    k = point_index(game, a.args["point"])
    steps = night_steps(game)
    dusk = game.data.get(DUSK) or ["", []]
    chosen = set(dusk[1]) if dusk[0] == f"dusk {game.day}" else set()
    chosen |= {b.actor for b in res.actions if chose(game, b) and step_of(game, b) in steps[:k]}
    res.feedback(a.actor, f"窥视：{a.args['point']}之前一共有{len(chosen)}人选择发动技能。")


LITTLE_GIRL = Role(
    name="小女孩", alias="little-girl", camp="村民阵营", rule=__doc__,
    skills=(Skill(name=PEEK, alias="peek", phases=("night",), step="凌晨18", targets=0, tags=("凌晨",),
                  effect=peek,
                  args={"point": "时间点：夜晚的一步（早夜1 … 出局20）或一个时段（早夜/午夜/深夜/凌晨）"},
                  arg_values={"point": WINDOWS}, open_args=("point",),  # (a step too: 早夜1 …)
                  rule="窥视[凌晨]——游戏日夜晚，指定一个时间点，得知当晚(黄昏开始之后)该时间点之前一共选择发动技能的人数。"),),
)


@hookimpl
def bansha_roles():
    return [LITTLE_GIRL]


@hookimpl
def bansha_step_handlers():
    return {"m217.at.黄昏4.小女孩": record_dusk}


@hookimpl
@for_skills(PEEK)
def bansha_validate_action(game, action):
    if action.skill == PEEK and point_index(game, str(action.args.get("point", ""))) is None:
        return (f"{PEEK}须给出 --arg point=<夜晚的一步（{'、'.join(night_steps(game))}）"
                f"或一个时段（{'/'.join(WINDOWS)}）>")
    return None
