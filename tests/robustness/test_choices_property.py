"""``choices.py`` against the engine, over random games of every shipped board: an action is
listed iff ``act`` accepts it.

Random games (``random_games.RandomGame``: random, legal-looking input, seeded) are played;
before each action and vote is sent, the seat's listing is read, and

- every action the engine accepts was listed: its skill, each of its targets, its count in
  the listed range, each closed --arg value among the listed values;
- every listed target stands on an action the engine accepts: the listing's example with
  that target is sent (``Game.apply``) on a copy of the game;
- every ballot the engine accepts names a listed vote target, and every listed vote target is
  accepted on a copy.
"""

from __future__ import annotations

from bansha.choices import examples, seat_choices, vote_choices
from bansha.model import ActEvent, GameError, VoteEvent
from bansha.store import _copy_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .random_games import RandomGame

BOARDS = ["light-shadow", "qisha-xia", "m217", "mafia-basic"]


class CheckedGame(RandomGame):
    """A random game that checks the listing before each action and vote it sends."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.checked = {"act": 0, "listed": 0, "vote": 0}
        self.seen: set[tuple] = set()

    def apply(self, ev):
        g = self.game
        if isinstance(ev, ActEvent) and g.winner is None and ev.phase == g.label and ev.actor in g.players:
            listing = {c.skill: c for c in seat_choices(g, ev.actor)}
            try:
                action = g.check(ev)
            except GameError:
                action = None
            if action is not None:
                self.checked["act"] += 1
                c = listing.get(action.skill)
                assert c is not None, f"{self.ref} {self.seed} {g.label}: {ev} accepted, {action.skill} not listed"
                assert set(action.targets) <= set(c.targets), (self.ref, self.seed, ev, c)
                assert c.min_targets <= len(action.targets) <= c.max_targets, (ev, c)
                for k, v in action.args.items():
                    if c.args.get(k) is not None and not k.startswith("<"):
                        assert str(v) in c.args[k], (self.ref, self.seed, ev, c)
            self.check_listed(ev.actor, listing)
        if isinstance(ev, VoteEvent) and g.winner is None and ev.phase == g.label and ev.voter in g.players:
            self.check_vote(ev)
        return super().apply(ev)

    def check_listed(self, actor: str, listing: dict) -> None:
        """Each listed target's example is accepted by ``act`` (once per seat, skill and phase)."""
        g = self.game
        for skill, c in listing.items():
            key = (g.label, g.seq, actor, skill)
            if key in self.seen:
                continue
            self.seen.add(key)
            found = examples(g, actor, skill)
            for t in c.targets or [""]:
                assert t in found, (self.ref, self.seed, g.label, actor, skill, t)
                targets, args = found[t]
                copy = _copy_game(g)
                copy.apply(ActEvent(phase=g.label, actor=actor, skill=skill, targets=targets, args=args))
                self.checked["listed"] += 1

    def check_vote(self, ev: VoteEvent) -> None:
        g = self.game
        if ev.proxy or ev.late:
            return  # the listing is of the seat's own ballot, in time
        has = any(b.voter == ev.voter for b in g.ballots)
        if ev.change != has:
            return
        listed = vote_choices(g, ev.voter) or []
        try:
            g.check_vote(VoteEvent(phase=ev.phase, voter=ev.voter, target=ev.target, change=ev.change, post=ev.post))
            accepted = True
        except GameError:
            accepted = False
        if accepted:
            assert g.find_name(ev.target) in listed or ev.target in listed, (self.ref, self.seed, ev, listed)
        post = ev.post if g.manifest.vote.post == "required" else None
        for t in listed:
            copy = _copy_game(g)
            copy.apply(VoteEvent(phase=g.label, voter=ev.voter, target=t, change=has, post=post or (1 if post else None)))
        self.checked["vote"] += 1


@settings(max_examples=8, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(ref=st.sampled_from(BOARDS), seed=st.integers(0, 10_000))
def test_the_listing_is_what_act_accepts(ref, seed):
    rg = CheckedGame(ref, seed, day_limit=3)
    rg.play()
    assert rg.checked["act"] > 0 and rg.checked["listed"] > 0, (ref, seed, rg.checked)


def test_every_board_is_checked():
    """The property runs on each shipped board (not only the one hypothesis drew first)."""
    for ref in BOARDS:
        rg = CheckedGame(ref, 7, day_limit=2)
        rg.play()
        assert rg.checked["act"] > 0, (ref, rg.checked)
