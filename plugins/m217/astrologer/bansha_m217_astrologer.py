"""占星师 — 新日暮里 (M217), 三方阵营 ①.

> 占星[早夜][指定] ——选择范围：一个任意角色和一个已出局任意角色。
> 结算效果：反馈结算目标的[实际身份]，反馈格式为[选择目标1/2是XX身份]，有多次结算效果，则按顺序多次反馈。
> 命运洪流[正午] —— 除竞选日外的游戏日白天，可以提交一份任意数量的马甲和实际身份的对应名单（可以包括已出局角色），若全部正确，则立刻公示[命运洪流不可阻挡]，所有被猜对的角色立刻获得[沉默]状态并收到通知，持续至下一个[正午]阶段开始，以此法获得的[沉默]状态整局游戏只生效一次，不同的命运洪流单独计算获得的[沉默]状态。
> 胜利条件：使用[命运洪流]猜对过场上全部马甲（包括已出局）对应身份。

占星 resolves at night step (2) (游戏流程 "占星师<查验>", after 范海辛<寻踪>). 命运洪流 is a noon
skill, answered when submitted; the list is one ``--arg 马甲=身份`` per player. The win is the
handler ``m217.win.占星师`` (asked by the rules' win check). Readings: docs/rulings/m217.md (group
third).
"""

from bansha import Fact, GameError, Role, Skill, for_skills, hookimpl
from bansha_m217_helpers import give, has

ROLE = "占星师"
RIGHT = "m217.命运洪流"            # names guessed right by this holder's 命运洪流, in order
SILENCED = "m217.命运洪流.沉默"     # names this holder's 命运洪流 has silenced (once a game each)


def star(res, a):
    """> 结算效果：反馈结算目标的[实际身份]，反馈格式为[选择目标1/2是XX身份]"""
    game = res.game
    if len(a.targets) == len(a.chosen):
        pairs = list(zip(a.chosen, a.targets, strict=True))
    else:
        # 隐身 dropped one final target: the one left answers for the chosen target not under 隐身
        pairs = [(next((c for c in a.chosen if not has(game.player(c), "隐身")), a.chosen[0]), a.targets[0])]
    for chosen, final in pairs:
        # "选择目标1/2" is named as the chosen player, like 通灵师's "[选择目标是XX身份]"
        role = game.player(final).role
        res.feedback(a.actor, f"{chosen}是{role}身份", Fact(player=chosen, what="role", value=role, by=a.skill))


def guesses(game, action) -> dict[str, str]:
    """The list ``--arg 马甲=身份`` with the identities spelled as the ruleset names them."""
    return {name: game.ruleset.role(role).name for name, role in action.args.items()}


def torrent(res, a):
    game = res.game
    listed = guesses(game, a)
    holder = game.player(a.actor)
    right = [n for n, r in listed.items() if game.player(n).role == r]
    seated = sorted(listed, key=lambda n: game.player(n).seat)
    if len(right) < len(listed):
        # > 若全部正确，则立刻公示… — a list with a wrong line is answered by nothing
        res.trace("命运洪流", f"{a.actor}的名单并非全部正确（{len(right)}/{len(listed)}）")
        if game.option("fate_partial"):
            # option fate_partial: the right lines of a wrong list still count for the win
            _count(holder, right)
        return
    # > 若全部正确，则立刻公示[命运洪流不可阻挡]
    res.announce("[命运洪流不可阻挡]")
    _count(holder, seated)
    silenced = holder.data.setdefault(SILENCED, [])
    for name in seated:
        if not game.player(name).alive:
            continue  # an out player casts nothing: no 沉默 and no notice
        if name in silenced:
            # > 以此法获得的[沉默]状态整局游戏只生效一次，不同的命运洪流单独计算获得的[沉默]状态。
            res.trace("命运洪流", f"{name}已因该占星师的命运洪流沉默过")
            continue
        silenced.append(name)
        # > 所有被猜对的角色立刻获得[沉默]状态并收到通知，持续至下一个[正午]阶段开始
        give(res, name, "沉默", until=f"dawn {game.day + 1}", source="命运洪流")


def _count(holder, names) -> None:
    right = holder.data.setdefault(RIGHT, [])
    right.extend(n for n in names if n not in right)


def win(game):
    """> 胜利条件：使用[命运洪流]猜对过场上全部马甲（包括已出局）对应身份。
    Every other player of the table (the 占星师 knows himself), guessed right by his 命运洪流."""
    for p in game.players.values():
    # > 实际阵营：…若有效果改变实际阵营，则所属阵营以及胜利方式也会一同改变 — his own condition holds while he is
    # of his own camp (丘比特's 不定 item puts a 三方 lover in 黑情侣阵营, whose condition is 屠城)
        if p.role == ROLE and p.camp == ASTROLOGER.camp:
            others = {n for n in game.players if n != p.name}
            if others and others <= set(p.data.get(RIGHT, ())):
                return [p.camp]
    return None


STAR = Skill(
    name="占星", does=("check",), alias="astrology", phases=("night",), step="早夜2", targets=1, max_targets=2,
    may_target_self=True, may_target_dead=True, tags=("指定", "早夜"), effect=star,
    rule="占星[早夜][指定]——选择范围：一个任意角色（目标1，在场）和一个已出局任意角色（目标2）。"
         "结算效果：反馈结算目标的[实际身份]，格式[选择目标1/2是XX身份]。",
)
TORRENT = Skill(
    name="命运洪流", alias="torrent", phases=("noon",), immediate=True, targets=0, tags=("正午",),
    effect=torrent,
    args={"<马甲>": "<实际身份>：名单中每名角色一个 --arg（可列入已出局角色）"},
    # > 可以提交一份任意数量的马甲和实际身份的对应名单（可以包括已出局角色）
    arg_values={"<马甲>": "role"},
    rule="命运洪流[正午]——提交马甲和实际身份的对应名单，若全部正确，公示[命运洪流不可阻挡]，"
         "被猜对的角色获得[沉默]至下一个[正午]开始（每人每个占星师一次）。",
)
ASTROLOGER = Role(name=ROLE, alias="astrologer", camp="三方阵营", rule=__doc__, skills=(STAR, TORRENT))


@hookimpl
def bansha_roles():
    return [ASTROLOGER]


@hookimpl
def bansha_step_handlers():
    return {"m217.win.占星师": win}


@hookimpl
@for_skills(STAR.name, TORRENT.name)
def bansha_validate_action(game, action):
    if action.skill == STAR.name:
        # > 选择范围：一个任意角色和一个已出局任意角色。
        first, *second = action.chosen
        if not game.player(first).alive:
            return "占星：第一个目标须为场上角色（一个任意角色），第二个须已出局（一个已出局任意角色）"
        if second and game.player(second[0]).alive:
            return f"占星：第二个目标须已出局（一个已出局任意角色），{second[0]}仍在场上"
    if action.skill == TORRENT.name:
        if not action.args:
            return "命运洪流须给出名单：每名角色一个 --arg 马甲=身份"
        for name, role in action.args.items():
            if name not in game.players:
                return f"命运洪流：名单中没有名为“{name}”的角色"
            try:
                game.ruleset.role(str(role))
            except GameError:
                return f"命运洪流：{name}的身份“{role}”不是本版的身份"
    return None
