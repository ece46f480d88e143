"""The record of a vote's count (``VoteCount``): made by the kernel's vote step
(``builtins.tally_votes``, ``bansha.vote``) and read by ``choices.count_votes``, the live
tally ``status`` shows. A module of its own: the engine's step and the choices both import it."""

from __future__ import annotations

import math

import msgspec


class VoteCount(msgspec.Struct):
    """The count of a vote phase as ``bansha.vote`` makes it (``votes.count``)."""

    #: target -> weighted votes (extra votes included), most first (ties: first counted first)
    tally: dict[str, float]
    #: voter -> target of each ballot counted (after the rules' changes: forced votes)
    ballots: dict[str, str]
    #: voter -> why the ballot does not count
    void: dict[str, str]
    abstained: list[str]
    #: whole votes the top count needs (None: no threshold)
    needed: int | None
    threshold: float
    living: int
    leaders: list[str]
    #: who leaves by this count (None: nobody, a tie or under the threshold)
    out: str | None = None
    #: the tied pair sent to a run-off
    runoff: list[str] | None = None
    #: the reason the leader stays (an immunity)
    immune: str | None = None
    #: the board publishes the counts (False: director-only, only the result is announced)
    public: bool = True
    #: living seats with no ballot yet
    not_voted: list[str] = []
    #: what a tie at the top does under the rule that made this count: "none" (nobody is out),
    #: "draw" (a seeded draw among the tied), "all" (every tied leader is out) or the name of the
    #: run-off phase a tie of two goes to. Set by whoever decides the count (the kernel's
    #: ``bansha.vote`` from ``[vote] tie``; a rule that decides otherwise sets its own), so that
    #: the line ``status`` prints (``choices.vote_rule_line``) is the rule the count uses.
    tie: str = "none"


def whole(threshold: float, living: int) -> int:
    """The votes a threshold asks, as whole votes (40 % of 18 living: 7.2 -> 8)."""
    return math.ceil(threshold * living - 1e-9)
