"""新日暮里 (M217) — 投票规则: changes, the last hour, proxy votes, ballots for a player who left.

> 每名存活角色每个讨论日限投一票，投票完成后允许改票。
> 演员可以委托导演代投，代投时需给出明确的投票对象（不可设立投票条件）。
> 改票只允许进行一次。关门前一小时不允许改票或代投，执行加速时不允许改票。
> 如果投票的角色在正午就已出局，即使在禁止改票的时间内也可以进行一次改票。

The manifest's ``[vote] changes`` is left high: the changes are counted here, because one whose
vote target left the game at noon may change once more. A ballot says ``late = true`` when it
is posted in the last hour (the engine has no clock); ``proxy = true`` when the director enters
it (代投). The target of a proxy vote is a player or 弃权, never a condition.
"""

from __future__ import annotations

from bansha import hookimpl


def phase_zh(game, label: str) -> str:
    from bansha_m217_helpers import phase_zh as zh
    return zh(game, label)


def left_at_noon(game, name: str, before: int) -> bool:
    """``name`` left the game in this noon, before the event numbered ``before``."""
    left = game.data.get("m217.left", {}).get(name)
    return bool(left) and left[0] == game.label and left[1] < before


def changes_used(game, voter: str) -> int:
    """The voter's ordinary changes: a change away from a target who had left at noon is free."""
    mine = [b for b in game.ballots if b.voter == voter]
    return sum(1 for prev, b in zip(mine, mine[1:], strict=False)
               if b.change and not left_at_noon(game, prev.target, b.seq))


def accelerated(game) -> bool:
    return game.data.get("m217.accelerated") == game.label


@hookimpl
def bansha_validate_vote(game, ballot):
    name = ballot.voter
    if ballot.proxy and ballot.late:
        return f"{name}: 关门前一小时不允许代投"
    if not ballot.change:
        return None
    mine = [b for b in game.ballots if b.voter == name]
    if mine and left_at_noon(game, mine[-1].target, ballot.seq):
        # > 如果投票的角色在正午就已出局，即使在禁止改票的时间内也可以进行一次改票。
        return None
    if accelerated(game):
        return f"{name}: 执行加速时不允许改票"
    if ballot.late:
        return f"{name}不能在{phase_zh(game, game.label)}关门前一小时改票（关门前一小时不允许改票）"
    if changes_used(game, name) >= 1:
        return f"{name}已改票一次（改票只允许进行一次）"
    return None


@hookimpl
def bansha_on_death(res, player, kill):
    """When a player leaves (for the extra change of whoever voted for them)."""
    res.game.data.setdefault("m217.left", {})[player.name] = [res.label, res.game.seq]


@hookimpl
def bansha_adjust_ballots(res, ballots):
    """> 除非特别说明，否则已经公示的出局角色不允许被选为技能或投票的目标。
    A ballot still naming a player who left the game at noon does not count."""
    for b in ballots:
        target = res.game.players.get(b.target)
        if target is not None and not target.alive:
            b.void = f"{b.target}已离开游戏"
