"""mafia-basic — the textbook mafia game, the board ``bansha simulate`` checks against theory
(docs/simulate.md).

> Day first. At each day every living player votes for another living player and the one with
> most votes is out, a tie broken by a seeded draw among the tied. At night the mafia's group
> kill removes one non-mafia player. The mafia win as soon as they are at least as many as the
> others (checked after every death), the town when no mafia is left.

The option ``mafia`` (0: the table's count, ⌊√n⌋) says how many of the n players are mafia: a
non-zero value re-deals the cards when the game is set up, with a generator seeded from the
game's seed (so a replay deals the same), drawing which seats are mafia.
"""

from __future__ import annotations

import random

from bansha import Kill, hookimpl

MAFIA, TOWN = "黑手党", "市民"


@hookimpl
def bansha_setup_game(game):
    k = int(game.option("mafia") or 0)
    if not k:
        return
    n = len(game.players)
    if not 1 <= k < n:
        from bansha import GameError
        raise GameError(f"房规 黑手党人数：{n}人桌应为 1 到 {n - 1}（0：按桌型），收到 {k}")
    chosen = set(random.Random(f"mafia-basic/{game.setup.seed}").sample(sorted(game.players), k))
    for p in game.players.values():
        if p.name in chosen:
            p.role, p.camp, p.groups = "黑手党", MAFIA, [MAFIA]
        else:
            p.role, p.camp, p.groups = "平民", TOWN, []


@hookimpl
def bansha_validate_vote(game, ballot):
    # "every living player votes for another living player"
    if ballot.target == game.manifest.vote.abstain:
        return f"{ballot.voter}不能弃权：每名存活玩家都须投给另一名玩家"
    if ballot.target == ballot.voter:
        return f"{ballot.voter}不能投给自己：须投给另一名玩家"
    return None


@hookimpl
def bansha_validate_targets(game, player, skill, acquired, targets):
    # "the mafia's group kill removes one non-mafia player"
    if skill.name == "杀人" and any(game.player(t).camp == MAFIA for t in targets):
        return "黑手党只能杀死不属于黑手党的玩家"
    return None


def vote(res):
    """``mafia-basic.vote``: plurality of the living players' last ballots; a tie at the top is
    broken by a seeded draw among the tied (traced)."""
    from bansha.engine.builtins import tally_votes

    game = res.game
    # the kernel's count (the live tally `status` shows is this count: choices.count_votes)
    count = res.data["vote_count"] = tally_votes(res)
    count.tie = "draw"  # "a tie broken by a seeded draw among the tied": what status says of it
    tally = count.tally
    res.trace("vote", "count: " + (", ".join(f"{k} {n:g}" for k, n in tally.items()) or "no votes"))
    if not tally:
        res.announce(game.manifest.texts.nobody_out)
        return
    leaders = sorted(count.leaders)
    out = count.out = leaders[0] if len(leaders) == 1 else res.rng.choice(leaders)
    res.remove(game.player(out), Kill(target=out, kind="vote", rule="vote"))


@hookimpl
def bansha_step_handlers():
    return {"mafia-basic.vote": vote}


@hookimpl
def bansha_check_win(game):
    mafia = sum(1 for p in game.players.values() if p.alive and p.camp == MAFIA)
    others = sum(1 for p in game.players.values() if p.alive and p.camp != MAFIA)
    if mafia == 0:
        return [TOWN]
    if mafia >= others:
        return [MAFIA]
    return None
