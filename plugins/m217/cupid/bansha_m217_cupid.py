"""丘比特 — 新日暮里 (M217), 不定阵营 ①, and the [情侣] statuses.

> 丘比特之箭[开局][指定] —— 选择范围：任意两名角色。
> 结算效果：结算目标按照下列条目依次结算，然后丘比特的阵营变更为与真爱情侣相同并跟随情侣变动。
> 这两名角色获得[真爱情侣]状态。其他角色获得该技能时，获得后可以立刻选择连新情侣，并无视下列条目判定，可以连任意角色，并令其获得[虚情情侣]状态。
> [真爱情侣]按照以下条目顺次判定：
> 丘比特自连，丘比特在情侣性质判定中按照村民阵营计算。
> 如果情侣之一是炸弹，上帝使徒，双子星，证婚人，小号（如空想家小号）或持有[隐身][真爱情侣]状态，链接情侣无效，丘比特加入村民阵营。
> 如果情侣之一是不定阵营，丘与情侣加入黑情侣阵营，情侣内部两人选择一人额外获得[杀人]技能，获胜条件为屠城。
> 如果情侣之一是三方阵营，丘与情侣加入该三方阵营，胜利条件为该三方的胜利条件，有多个三方则需要两个三方的胜利条件均满足才能获胜。
> 如果情侣是狼+村民组合，丘与情侣加入黑情侣阵营，该狼人不会获得[群内]标签，取而代之的是会获得[接刀]标签，且接刀顺序为其他的所有持有[接刀]标签的角色出局。
> 如果情侣是双狼组合，丘加入狼人阵营并获得[接刀]标签，且接刀顺序为其他的所有持有[接刀]标签的角色出局。
> 如果情侣是双民组合，丘加入村民阵营。
> 无论如何，除双狼情侣外，情侣中的狼人将不会获得本来的[群内]或[接刀]标签。
> 除了双狼或双民情侣组合，其他组合中，情侣和丘比特被验证均为黑情侣阵营（或预言家的非狼阵营）。
> 若情侣中途发生阵营改变，按照上述顺序重新判定情侣归属，非情侣的丘比特发生阵营改变不影响情侣。
> [情侣]状态：非负面状态，无法消除，获得该状态时，与另外一位情侣共群，并得知是[真爱情侣]还是[虚情情侣]，当情侣中的一人出局，另外一人承受的[致死伤害]，若因此出局，则还会施加[沉默]状态，持续至下一个夜晚开始。若需要判定技能来源则视为殉情者自己。[虚情情侣]没有[真爱情侣]的阵营改变效果，其余与[真爱情侣]一致，[情侣]状态若一方因为种种原因没有成功获得，则另外一方也不会获得。

Modelled here (readings: docs/rulings/m217.md, group cupid):

- 丘比特之箭 resolves at the opening step 开局 after 粉丝<追随> and before 影子<附身> (the manifest's
  priorities), through the targeting chain (it is [指定]).
- The pairs are kept in ``game.data["m217.情侣"]``: lovers, kind (真爱情侣/虚情情侣), the cupid, the
  lovers' own camps (``base``: the camp each would have without the pair's effect), the combination
  judged, the tags each lover had of its own, the 杀人 chosen in the 不定 combination.
- A lover's camp change goes through ``change_camp``, which hands it to the handler ``m217.camp.丘比特``:
  the lover's own camp is replaced and the pair is judged again; cupid and lovers take the pair's camp.
- "其他角色获得该技能时": the role card holds a second skill 连新情侣, the form of 丘比特之箭 one who gained
  it uses (an [开局] skill gained 刷新至初始: "在获取技能的那个时段需要立刻决定"); the real 丘比特 cannot use it.
- The pseudo-role 情侣 (never dealt) holds 情侣选刀: in the 不定 combination the two lovers choose which
  of them gains 杀人 (the wolves' skill, acquired: the lover's own).
- 黑情侣阵营 wins by 屠城: handler ``m217.win.丘比特``.
"""

from __future__ import annotations

from bansha import Role, Skill, Status, for_skills, hookimpl
from bansha_m217_helpers import VILLAGE, WOLF, acquire, change_camp, give, has, unacquire
from bansha_m217_rules import deaths, settle

DARK = "黑情侣阵营"
UNDECIDED = "不定阵营"
GROUP = "狼人"  # the wolves' 群内 group (m217.wolf-pack)
#: > 且接刀顺序为其他的所有持有[接刀]标签的角色出局: after every other heir
LAST = 1000
TRUE, FALSE = "真爱情侣", "虚情情侣"
#: > 如果情侣之一是炸弹，上帝使徒，双子星，证婚人，小号（如空想家小号）… — roles of other boards, kept for
#: a board that deals them
NO_LINK = ("炸弹", "上帝使徒", "双子星", "证婚人", "小号")
PSEUDO = "情侣"


# ---------------------------------------------------------------------------- the pairs


def pairs(game) -> list[dict]:
    return game.data.setdefault("m217.情侣", [])


def pairs_of(game, name: str, kind: str | None = None) -> list[dict]:
    return [q for q in pairs(game) if name in q["lovers"] and (kind is None or q["kind"] == kind)]


def partner(pair: dict, name: str) -> str:
    a, b = pair["lovers"]
    return b if name == a else a


def nature(pair: dict, name: str) -> str:
    """What a lover counts as in the judgement.
    > 丘比特自连，丘比特在情侣性质判定中按照村民阵营计算。"""
    if name == pair["cupid"]:
        return "民"
    camp = pair["base"][name]
    if camp == WOLF:
        return "狼"
    if camp == VILLAGE:
        return "民"
    # 不定阵营 (a 影子 before its 附身, a 复仇者 before its trigger); a lover of another 黑情侣 pair
    # is read as 不定 too (docs/rulings/m217.md)
    if camp in (UNDECIDED, DARK):
        return "不定"
    return "三方"


def judge(pair: dict) -> tuple[str, str]:
    """The combination of a 真爱 pair and the camp it gives, in the document's order."""
    kinds = [nature(pair, n) for n in pair["lovers"]]
    if "不定" in kinds:
        # > 如果情侣之一是不定阵营，丘与情侣加入黑情侣阵营
        return "不定", DARK
    if "三方" in kinds:
        # > 如果情侣之一是三方阵营，丘与情侣加入该三方阵营 (with two 三方 lovers: the first one's; not modelled)
        return "三方", next(pair["base"][n] for n, k in zip(pair["lovers"], kinds, strict=True) if k == "三方")
    if sorted(kinds) == ["民", "狼"]:
        # > 如果情侣是狼+村民组合，丘与情侣加入黑情侣阵营
        return "狼民", DARK
    if kinds == ["狼", "狼"]:
        # > 如果情侣是双狼组合，丘加入狼人阵营
        return "双狼", WOLF
    # > 如果情侣是双民组合，丘加入村民阵营。
    return "双民", VILLAGE


# ------------------------------------------------------------------------------ the tags


def set_tags(p, group: bool, order: int | None) -> None:
    """[群内] is membership of the group 狼人 (not as an heir); [接刀] is ``data["m217.接刀"]`` (the
    wolf pack hands the knife to the first heir standing)."""
    inner_before = GROUP in p.groups and p.data.get("m217.接刀") is None
    if order is None:
        p.data.pop("m217.接刀", None)
    else:
        p.data["m217.接刀"] = order
    if group and GROUP not in p.groups:
        p.groups.append(GROUP)
    elif not group and GROUP in p.groups and (inner_before or order is None):
        p.groups.remove(GROUP)


def own_tags(pair: dict, p) -> dict:
    """The tags the lover has of its own (kept to give them back when the pair becomes 双狼); a tag
    gained since (影子 inherits its host's) is its own too."""
    own = pair["own"].setdefault(p.name, {"group": False, "接刀": None})
    order = p.data.get("m217.接刀")
    if GROUP in p.groups and order is None:
        own["group"] = True
    if order is not None and order != LAST:
        own["接刀"] = order
    return own


def wanted_tags(pair: dict, p) -> tuple[bool, int | None] | None:
    """The tags a lover (or the cupid) should hold under the pair's combination; None: not ours."""
    combo = pair["combo"]
    if p.name in pair["lovers"] and nature(pair, p.name) == "狼":
        own = own_tags(pair, p)
        if combo == "双狼":
            return own["group"], own["接刀"]
        if combo == "狼民":
            # > 该狼人不会获得[群内]标签，取而代之的是会获得[接刀]标签，且接刀顺序为其他的所有持有[接刀]标签的角色出局。
            return False, LAST
        # > 无论如何，除双狼情侣外，情侣中的狼人将不会获得本来的[群内]或[接刀]标签。
        return False, None
    if p.name == pair["cupid"] and p.name not in pair["lovers"]:
        # > 如果情侣是双狼组合，丘加入狼人阵营并获得[接刀]标签，且接刀顺序为其他的所有持有[接刀]标签的角色出局。
        return False, (LAST if combo == "双狼" else None)
    return None


def enforce(res, pair: dict, p, tell: bool) -> None:
    want = wanted_tags(pair, p)
    if want is None:
        return
    # > 无论如何，除双狼情侣外，情侣中的狼人将不会获得本来的[群内]或[接刀]标签。 — a skill copier (影子) reads
    # ``data["m217.tags-barred"]`` and gains no [群内]/[接刀] tag while it is set
    p.data["m217.tags-barred"] = pair["combo"] != "双狼" and p.name in pair["lovers"]
    before = (GROUP in p.groups and p.data.get("m217.接刀") is None, p.data.get("m217.接刀"))
    set_tags(p, *want)
    if not tell or res is None:
        return
    if before[0] and not want[0]:
        res.feedback(p.name, "你失去了[群内]标签。")
    if want[1] is not None and before[1] != want[1]:
        res.feedback(p.name, "你获得了[接刀]标签，接刀顺序在其他所有持有[接刀]标签的角色之后。")
    elif want[1] is None and before[1] is not None:
        res.feedback(p.name, "你失去了[接刀]标签。")


# --------------------------------------------------------------------- judging a pair


def settle_pair(res, pair: dict, untold: tuple[str, ...] = ()) -> None:
    """Judge a 真爱 pair (again) and apply it: camps, tags, the 黑情侣 surface, the 不定 杀人.
    ``untold``: a lover whose own change was not told (复仇者<寻仇>: "但不得知加入了什么阵营") is not told
    the pair's camp either (it would tell him the camp 寻仇 gave him)."""
    game = res.game
    combo, camp = judge(pair)
    pair["combo"] = combo
    res.trace("丘比特", f"{'+'.join(pair['lovers'])}: {combo} -> {camp}")
    members = [*pair["lovers"], *([pair["cupid"]] if pair["cupid"] not in pair["lovers"] else [])]
    for name in members:
        # > 结算目标按照下列条目依次结算，然后丘比特的阵营变更为与真爱情侣相同并跟随情侣变动。
        change_camp(res, name, camp, judged=True, told=name not in untold)
        p = game.player(name)
        enforce(res, pair, p, tell=True)
        # > 除了双狼或双民情侣组合，其他组合中，情侣和丘比特被验证均为黑情侣阵营（或预言家的非狼阵营）。
        p.statuses = [s for s in p.statuses if not (s.name == "黑情侣" and s.source == "丘比特")]
        if combo not in ("双狼", "双民"):
            res.add_status(name, Status(name="黑情侣", told=False, source="丘比特", data={"camp": DARK}))
    # > 情侣内部两人选择一人额外获得[杀人]技能
    # (情侣选刀 is offered while the pair is 不定 and has not chosen: bansha_skill_unavailable)
    for name in pair["lovers"]:
        p = game.player(name)
        if combo == "不定" and "情侣选刀" not in p.acquired:
            acquire(res, name, "情侣选刀", PSEUDO)
        if pair.get("killer") == name:
            if combo == "不定":
                acquire(res, name, "杀人", "狼人")
            elif p.acquired.get("杀人") == "狼人":
                unacquire(res.game, p, "杀人")
                res.feedback(name, "你失去了[杀人]技能。")


def link(res, actor: str, lovers: list[str], kind: str) -> dict:
    """> 获得该状态时，与另外一位情侣共群，并得知是[真爱情侣]还是[虚情情侣]"""
    game = res.game
    pair = {"id": len(pairs(game)) + 1, "lovers": list(lovers), "kind": kind, "cupid": actor,
            "base": {n: game.player(n).camp for n in lovers}, "own": {}, "combo": None}
    pairs(game).append(pair)
    group = f"情侣{pair['id']}"
    for name in lovers:
        p = game.player(name)
        p.groups.append(group)
        own_tags(pair, p)
        # > [情侣]状态：非负面状态，无法消除 — permanent, told to the holder
        give(res, name, kind, source=actor, told=True, pair=pair["id"], partner=partner(pair, name))
        res.feedback(name, f"你与{partner(pair, name)}成为[{kind}]，你们共群。")
    return pair


# ------------------------------------------------------------------------------ skills


def arrow(res, a):
    game = res.game
    lovers = list(a.targets)  # the final targets (the chain ran at the step)
    # > 如果情侣之一是炸弹，上帝使徒，双子星，证婚人，小号（如空想家小号）或持有[隐身][真爱情侣]状态，
    # > 链接情侣无效，丘比特加入村民阵营。
    bad = [n for n in lovers if game.player(n).role in NO_LINK
           or has(game.player(n), "隐身") or has(game.player(n), TRUE)]
    if len(set(lovers)) != 2 or bad:
        res.trace("丘比特", f"链接情侣无效：{'、'.join(bad or lovers)}")
        change_camp(res, a.actor, VILLAGE, judged=True)
        return
    # > 这两名角色获得[真爱情侣]状态。
    pair = link(res, a.actor, lovers, TRUE)
    settle_pair(res, pair)


def relink(res, a):
    """> 其他角色获得该技能时，获得后可以立刻选择连新情侣，并无视下列条目判定，可以连任意角色，并令其获得[虚情情侣]状态。"""
    if not settle(res, a) or len(set(a.targets)) != 2:
        # > [情侣]状态若一方因为种种原因没有成功获得，则另外一方也不会获得。
        res.trace("丘比特", f"{a.actor}的连新情侣：未能连成情侣（{'、'.join(a.targets) or '无目标'}）")
        return
    link(res, a.actor, list(a.targets), FALSE)


def choose_knife(res, a):
    """> 情侣内部两人选择一人额外获得[杀人]技能"""
    game = res.game
    pair = next(q for q in pairs_of(game, a.actor, TRUE) if q["combo"] == "不定")
    pair["killer"] = a.targets[0]
    for name in pair["lovers"]:
        res.feedback(name, f"情侣选刀：{a.targets[0]}额外获得[杀人]技能。")
    acquire(res, a.targets[0], "杀人", "狼人")


CUPID = Role(
    name="丘比特", alias="cupid", camp=UNDECIDED, rule=__doc__,
    skills=(
        Skill(name="丘比特之箭", alias="arrow", phases=("opening",), step="开局", priority=30, targets=2,
              may_target_self=True, tags=("开局", "指定"), effect=arrow,
              rule="丘比特之箭[开局][指定] —— 选择范围：任意两名角色。结算效果：这两名角色获得[真爱情侣]状态，"
                   "按条目判定情侣性质，然后丘比特的阵营变更为与真爱情侣相同并跟随情侣变动。"),
        Skill(name="连新情侣", alias="relink", phases=("dusk", "night", "dawn", "noon"), targets=2,
              may_target_self=True, immediate=True, uses=1, tags=("开局", "指定"), effect=relink,
              rule="其他角色获得[丘比特之箭]时，获得后可以立刻选择连新情侣，并无视下列条目判定，可以连任意角色，"
                   "并令其获得[虚情情侣]状态。（获得后开始的第一个阶段内发动）"),
    ),
)
LOVERS = Role(
    name=PSEUDO, alias="lovers", camp=DARK, rule="情侣内部两人选择一人额外获得[杀人]技能（不定阵营情侣作选择用的虚拟身份，不会发出）",
    skills=(
        Skill(name="情侣选刀", alias="choose-knife", phases=("dusk", "night", "dawn", "noon"), immediate=True,
              uses=1, may_target_self=True, effect=choose_knife,
              rule="如果情侣之一是不定阵营…情侣内部两人选择一人额外获得[杀人]技能：目标为自己或自己的情侣。"),
    ),
)


# ------------------------------------------------------------------------------- hooks


@hookimpl
def bansha_roles():
    return [CUPID, LOVERS]


def camp_changed(res, player, camp, told: bool = True) -> bool:
    """``m217.camp.丘比特``: > 若情侣中途发生阵营改变，按照上述顺序重新判定情侣归属，非情侣的丘比特发生阵营改变不影响情侣。
    ([虚情情侣]没有[真爱情侣]的阵营改变效果: a 虚情 lover changes camp as anyone does.)"""
    mine = pairs_of(res.game, player.name, TRUE)
    if not mine:
        return False
    for pair in mine:
        pair["base"][player.name] = camp
        settle_pair(res, pair, untold=() if told else (player.name,))
    return True


def win(game) -> list[str] | None:
    """``m217.win.丘比特``: > 获胜条件为屠城 — 黑情侣阵营 wins when one of it is in the game and every
    player of another camp is out."""
    dark = [p for p in game.players.values() if p.camp == DARK]
    if not dark or not any(p.alive for p in dark):
        return None
    if all(not p.alive for p in game.players.values() if p.camp != DARK):
        return [DARK]
    return None


@hookimpl
def bansha_step_handlers():
    return {"m217.camp.丘比特": camp_changed, "m217.win.丘比特": win}


@hookimpl
def bansha_on_death(res, player, kill):
    """> 当情侣中的一人出局，另外一人承受的[致死伤害]，若因此出局，则还会施加[沉默]状态，持续至下一个夜晚开始。
    > 若需要判定技能来源则视为殉情者自己。"""
    game = res.game
    if kill.rule == "殉情":
        night = game.day if game.phase.name == "dusk" else game.day + 1
        # "持续至下一个夜晚开始": until the dusk before that night ends
        give(res, player.name, "沉默", until=f"dusk {night}", source="殉情")
    queued = False
    for pair in pairs_of(game, player.name):
        other = game.player(partner(pair, player.name))
        if other.alive:
            res.kill(other.name, kind="致死伤害", by=other.name, rule="殉情")
            queued = True
    if queued and res.step == "ruling":
        deaths(res)  # a red card takes the lover out at once: the partner's 致死伤害 lands with it


@hookimpl
@for_skills("丘比特之箭", "连新情侣", "情侣选刀")
def bansha_validate_action(game, action):
    p = game.player(action.actor)
    if action.skill == "丘比特之箭" and len(set(action.targets)) != 2:
        return "丘比特之箭：选择范围：任意两名角色（须为两名不同角色）"
    if action.skill == "连新情侣":
        if p.acquired.get("连新情侣") is None:
            return "连新情侣是其他角色获得丘比特之箭时使用的技能（其他角色获得该技能时）：丘比特本人在开局发动丘比特之箭"
        if p.data.get("m217.丘比特.window") != game.label:
            return "连新情侣：获得后可以立刻选择连新情侣——仅限获得后的第一个阶段"
        if len(set(action.targets)) != 2:
            return "连新情侣：须选择两名不同角色"
    if action.skill == "情侣选刀":
        mine = [q for q in pairs_of(game, p.name, TRUE) if q["combo"] == "不定"]
        if not mine:
            return "情侣选刀：只有含不定阵营的情侣才能选择由谁获得杀人"
        if mine[0].get("killer") is not None:
            return f"情侣选刀：这对情侣已作出选择（{mine[0]['killer']}获得了杀人）"
        if action.targets and action.targets[0] not in mine[0]["lovers"]:
            return "情侣选刀：情侣内部两人选择一人——目标为自己或自己的情侣"
    return None


@hookimpl
def bansha_skill_unavailable(game, player, skill):
    if skill.name == "连新情侣" and player.data.get("m217.丘比特.window") != game.label:
        return "连新情侣：获得后可以立刻选择连新情侣——仅限获得后的第一个阶段"
    if skill.name == "情侣选刀" and not any(q["combo"] == "不定" and q.get("killer") is None
                                         for q in pairs_of(game, player.name, TRUE)):
        return "情侣选刀：只有尚未作出选择、含不定阵营的情侣才能发动"
    return None


@hookimpl
def bansha_phase_started(game):
    """An [开局] skill gained 刷新至初始 is decided at once: 连新情侣 is offered in the first phase that
    begins after it was gained. The lovers' tags are kept as the combination says (a tag gained later,
    影子's inheritance, is corrected here)."""
    for p in game.players.values():
        if p.acquired.get("连新情侣") and "m217.丘比特.window" not in p.data:
            p.data["m217.丘比特.window"] = game.label
    for pair in pairs(game):
        if pair["kind"] != TRUE:
            continue
        for name in {*pair["lovers"], pair["cupid"]}:
            enforce(None, pair, game.player(name), tell=False)


@hookimpl
def bansha_player_view(game, player):
    lines = [f"{q['kind']}：{partner(q, player.name)}" for q in pairs_of(game, player.name)]
    return {"情侣": lines} if lines else None
