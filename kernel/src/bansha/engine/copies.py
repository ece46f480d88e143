"""A private copy of a live game to apply a new event to, or to resolve for a preview: what a
store's write applies its event to (``bansha.store``) and what ``choices.count_votes`` resolves
to show the count a ``resolve`` would make now. In the engine, so that both read one copy.
"""

from __future__ import annotations

import msgspec

from bansha.engine.engine import Game


def copy_game(game: Game) -> Game:
    """A private copy of a cached game to apply a new event to: the declarations (ruleset,
    plugin manager, set-up) are shared, read-only; only the live state is copied."""
    memo = {id(x): x for x in (game.setup, game.ruleset, game.manifest, game.pm, game.hook, game.log, game.phase)}
    # records no rule changes once made (only appended): the events applied (the log), the
    # trace lines, the phase declarations, what was told (tuples of text). Their lists are new
    # lists of the same records: what deepcopy would make of each, without a call per record
    for records in (game.applied, game.trace, game.cycle, game.openings, game.announcements):
        memo[id(records)] = list(records)
    memo[id(game.feedback)] = {k: list(v) for k, v in game.feedback.items()}
    # the live records (players and their statuses, this phase's actions and ballots) field by
    # field: deepcopy's generic path for a Struct (__reduce_ex__, a state dict) was ~2/3 of a copy
    for p in game.players.values():
        for st in p.statuses:
            _copy_struct(st, memo)
        _copy_struct(p, memo)
    for rec in (*game.actions, *game.ballots):
        _copy_struct(rec, memo)
    # the game itself as deepcopy would rebuild it (a new instance, its attributes copied), each
    # attribute by the short way where it has one
    new = Game.__new__(type(game))
    memo[id(game)] = new
    new.__dict__.update({k: _copy_value(v, memo) for k, v in vars(game).items()})
    return new


_ATOMIC = (str, int, float, bool, type(None))


def _copy_value(v, memo: dict):
    """deepcopy(v, memo), with a short way for the usual value of the live state: a list or a
    dict of plain values (a player's groups, uses, data) or of records copied already (the
    players, the actions), copied at once rather than value by value (deepcopy's per-value
    calls were most of a write's copy)."""
    import copy

    t = type(v)
    if t in _ATOMIC:
        return v
    hit = memo.get(id(v))
    if hit is not None:
        return hit
    if t is list:
        if all(type(x) in _ATOMIC for x in v):
            new = v.copy()
        elif all(id(x) in memo or type(x) in _ATOMIC for x in v):
            new = [memo.get(id(x), x) for x in v]
        else:
            return copy.deepcopy(v, memo)
    elif t is dict:
        if all(type(x) in _ATOMIC for x in v.values()):
            new = v.copy()
        elif all(id(x) in memo or type(x) in _ATOMIC for x in v.values()):
            new = {k: memo.get(id(x), x) for k, x in v.items()}
        else:
            return copy.deepcopy(v, memo)
    else:
        return copy.deepcopy(v, memo)
    memo[id(v)] = new
    return new


def _copy_struct(obj, memo: dict):
    """A msgspec Struct copied field by field (what deepcopy would give), recorded in ``memo``
    so that every reference to it in the copy is to the new one."""
    new = msgspec.structs.replace(obj, **{f: _copy_value(v, memo) for f in obj.__struct_fields__
                                          if not isinstance(v := getattr(obj, f), _ATOMIC)})
    memo[id(obj)] = new
    return new
