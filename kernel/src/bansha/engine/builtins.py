"""The kernel's own step handlers, registered with every ruleset as the plugin
``bansha.builtins``: a manifest step names them like any rule plugin's handler.

- ``bansha.deaths`` lands the pending kills, asking ``bansha_stop_kill`` about each one;
- ``bansha.vote`` counts the phase's ballots by the manifest's ``[vote]`` rule.

It also holds the manifest's declarative win rules, compiled (``compile_selectors``,
``win_holds``): the engine asks them after every resolution.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec

from bansha.engine.hookspecs import hookimpl
from bansha.engine.model import Ballot, Kill
from bansha.engine.votes import VoteCount, whole

if TYPE_CHECKING:
    from bansha.engine.protocols import Resolution


@hookimpl
def bansha_step_handlers():
    return {"bansha.deaths": resolve_deaths, "bansha.vote": count_votes}


def resolve_deaths(res: Resolution, at_once: Callable[[Kill], bool] | None = None) -> None:
    """``bansha.deaths``: land every pending kill in the order queued, asking the hooks what
    stops each one; kills queued by death triggers are resolved in the same pass, after the
    kills already queued, unless ``at_once(kill)`` says the kill takes its target out at once
    (M217's [致死伤害]): such a kill, queued while another one lands (a 粉丝's damage when his
    idol leaves), lands right after it, before the kills queued earlier."""
    while res.kills:
        kill = res.kills.pop(0)
        queued = len(res.kills)
        _land(res, kill)
        if at_once is not None and len(res.kills) > queued:
            new = res.kills[queued:]
            first = [k for k in new if at_once(k)]
            if first:
                res.kills[:] = [*first, *res.kills[:queued], *(k for k in new if not at_once(k))]


def _land(res: Resolution, kill: Kill) -> None:
    game = res.game
    p = game.player(kill.target)
    if not p.alive:
        res.trace(kill.rule or kill.kind, f"{kill.target} is already out")
        return
    stopped = game.hook.bansha_stop_kill(res=res, kill=kill)
    if stopped:
        res.trace(kill.rule or kill.kind, f"{kill.kind} on {kill.target} stopped: {stopped}")
        return
    res.remove(p, kill)


def tally_votes(res: Resolution):
    """The count of the phase's ballots by the manifest's ``[vote]`` rule, the rules' changes
    (``bansha_adjust_ballots``: weights, forced and void ballots, extra votes) applied: a
    ``choices.VoteCount`` without its result (``count_votes`` decides it)."""
    game = res.game
    v = game.manifest.vote
    final: dict[str, Ballot] = {}
    for b in sorted(game.ballots, key=lambda b: b.seq):
        final[b.voter] = b
    ballots = [msgspec.structs.replace(b) for b in final.values() if game.players[b.voter].alive]
    cast = {b.voter: b.target for b in ballots}
    game.hook.bansha_adjust_ballots(res=res, ballots=ballots)
    for b in ballots:  # a ballot a rule made count for another (幻觉一): what the post's record marks
        if not b.void and b.voter in cast and cast[b.voter] != b.target:
            res.trace("vote", f"{b.voter}'s vote counts for {b.target}")
    tally: Counter[str] = Counter()
    void: dict[str, str] = {}
    for b in ballots:
        if not b.void and b.target in game.players and not game.players[b.target].alive:
            b.void = "the player voted for has left the game"  # cast before they left
        if b.void:
            void[b.voter] = b.void
            res.trace("vote", f"{b.voter}'s vote for {b.target} does not count: {b.void}")
        elif b.target != v.abstain:
            tally[b.target] += b.weight
    # votes counted against a player with no ballot behind them (M217's 诽谤), set by a
    # bansha_adjust_ballots hook in res.data["extra_votes"]: {player: votes}
    for name, n in sorted(res.data.get("extra_votes", {}).items()):
        if n and name in game.players and game.players[name].alive:
            tally[name] += n
            res.trace("vote", f"{name} counts {n:g} extra vote(s)")
    living = len(game.alive())
    ordered = dict(tally.most_common())  # (ties in the order their first vote was counted)
    top = max(tally.values(), default=0)
    return VoteCount(tally=ordered, ballots={b.voter: b.target for b in ballots if not b.void}, void=void,
                     abstained=[b.voter for b in ballots if not b.void and b.target == v.abstain],
                     needed=whole(v.threshold, living) if v.threshold else None, threshold=v.threshold, living=living,
                     leaders=[n for n, c in ordered.items() if c == top], public=v.show_counts,
                     tie=v.tie if v.tie != "none" and not game.phase.optional else "none")


def count_votes(res: Resolution) -> None:
    """``bansha.vote``: count the phase's ballots (``tally_votes``) and decide: who leaves, a
    run-off, or nobody. The count is kept in ``res.data["vote_count"]`` (``choices.count_votes``
    reads it from a resolution on a copy: the live tally is this count)."""
    game = res.game
    v = game.manifest.vote
    count = res.data["vote_count"] = tally_votes(res)
    tally = count.tally
    living = count.living
    res.data["tally"] = dict(tally)
    res.trace("vote", "count: " + (", ".join(f"{k} {n:g}" for k, n in tally.items()) or "no votes"))
    if v.show_counts:
        for name, n in tally.items():
            res.announce(game.manifest.texts.counts.format(name=name, count=f"{n:g}"))
    if not tally:
        res.announce(game.manifest.texts.nobody_out)
        return
    top = max(tally.values())
    leaders = count.leaders
    need = v.threshold * living
    if v.threshold and (v.runoff_threshold or not game.phase.optional) and top < need - 1e-9:
        res.trace("vote", f"top count {top:g} is below {v.threshold:.0%} of {living} living ({need:g})")
        res.announce(game.manifest.texts.nobody_out)
        return
    if len(leaders) > 1:
        in_runoff = game.phase.optional
        if v.tie != "none" and not in_runoff and len(leaders) == 2:
            count.runoff = list(leaders)
            res.schedule(v.tie, leaders)
            res.announce(game.manifest.texts.runoff.format(names="、".join(leaders), first=leaders[0], second=leaders[1]))
        else:
            res.trace("vote", f"tie between {leaders}: nobody is out")
            res.announce(game.manifest.texts.nobody_out)
        return
    target = game.player(leaders[0])
    if game.hook.bansha_defer_vote_out(res=res, player=target):
        count.out = target.name  # (his exit is settled later: M217's 黄昏 (1))
        res.trace("vote", f"{target.name} is voted out; the rules settle it later")
        return
    immune = game.hook.bansha_vote_immune(res=res, player=target)
    if immune:
        count.immune = immune
        res.trace("vote", f"{target.name} is not voted out: {immune}")
        res.announce(immune)
        return
    count.out = target.name
    res.remove(target, Kill(target=target.name, kind="vote", rule="vote", last_words=True))


def compile_selectors(selectors) -> tuple:
    """A win rule's ``all_out`` as (roles, camps, groups, min_out), each set None when the
    selector does not ask it: ``win_holds`` reads these instead of calling ``matches`` for every
    player and selector after every resolution (5 % of a simulated qisha-xia game)."""
    return tuple((frozenset(sel.role) or None, frozenset(sel.camp) or None, frozenset(sel.group) or None, sel.min_out)
                 for sel in selectors)


def win_holds(players, camp: str, require_alive: bool, selectors: tuple) -> bool:
    """``Game.rule_holds`` on a compiled rule: ``camp`` has a player alive (if required) and
    every selector has its players out (at least ``min_out`` of them, when given)."""
    if require_alive:
        for p in players:
            if p.alive and p.camp == camp:
                break
        else:
            return False
    for roles, camps, groups, min_out in selectors:
        if min_out is None:
            # "all of them out": broken by the first chosen player still in the game, so the
            # living are read and the count is not kept (asked after every resolution)
            for p in players:
                if (p.alive and (roles is None or p.role in roles) and (camps is None or p.camp in camps)
                        and (groups is None or not groups.isdisjoint(p.groups))):
                    return False
            continue
        out = 0
        for p in players:
            if ((roles is None or p.role in roles) and (camps is None or p.camp in camps)
                    and (groups is None or not groups.isdisjoint(p.groups))):
                if not p.alive:
                    out += 1
        if out < min_out:
            return False
    return True
