"""A night closed window by window (``bansha resolve --window``) is corrected as one closed
whole is: ``amend`` finds one play of the phase, not one per window, and puts a corrected
action just before its own window's resolution (found by the conformance walk: every ``amend``
of such a night was refused — "跳跃的时段已结算，不能撤回" — and the preview counted each
window as a play of the phase)."""

from __future__ import annotations

from bansha.engine.model import AmendEvent, GameError, ResolveEvent, UnactEvent
from bansha_sim.states import play, whole


def standing(p, label):
    """The actions kept for the resolution of ``label``'s first window, and the game."""
    end = next(i for i, e in enumerate(p.events) if isinstance(e, ResolveEvent) and e.phase == label)
    g = p.final(p.events[:end])
    return [a for a in g.actions if not g.answered_at_once(g.find_skill(g.players[a.actor], a.skill)[0])]


def test_a_windowed_night_is_one_play_and_each_window_can_be_corrected():
    p = play("m217", 2, day_limit=1, windows=True)
    g = p.final()
    label = "night 1"
    assert sum(1 for e in g.applied if isinstance(e, ResolveEvent) and e.phase == label) > 1
    assert len(g.plays(label)) == 1
    acts = standing(p, label)
    night = g.ruleset.phase("night")
    windows = {next(i for i, steps in enumerate(night.windows) if g.find_skill(g.players[a.actor], a.skill)[0].step in steps)
               for a in acts}
    assert len(windows) > 1, windows  # the night's input spans several windows
    for a in acts:
        # (an ``amend act`` that replaces a standing action is issue 31's item 4, apart)
        for ev in (UnactEvent(phase=label, actor=a.actor, skill=a.skill),):
            fixed = p.final()
            try:
                fixed.apply(AmendEvent(phase=label, event=ev))
            except GameError as exc:
                # a later input the correction undoes (a vote a 决斗 cancels) may refuse it; the
                # correction itself is taken (refused before: "its window was resolved")
                assert not str(exc).startswith(f"对{g.named(label)}的更正被拒绝"), (ev, exc)


def test_a_correction_of_a_windowed_night_is_the_correction_of_the_night_closed_whole():
    p = play("m217", 2, day_limit=1, windows=True)
    label = "night 1"
    compared = 0
    for a in standing(p, label):
        fix = AmendEvent(phase=label, event=UnactEvent(phase=label, actor=a.actor, skill=a.skill))
        by_window, at_once = p.final(), p.final(whole(p.events))
        try:
            at_once.apply(fix)
        except GameError:
            continue  # a later input the correction undoes refuses it
        by_window.apply(fix)
        compared += 1
        assert (by_window.label, by_window.announcements, by_window.feedback, by_window.out) == \
        (at_once.label, at_once.announcements, at_once.feedback, at_once.out)
    assert compared
