"""The listing asks the engine's checks in their parts (``check_targets`` once for a choice of
targets, then ``check_args`` for each set of args; the voter once, then each target; a skill's
``skill_refused`` once): it must answer what the whole checks answer, asked the plain way (every
target with every set of args through ``check_use``; every ballot through ``check_vote``).

Held at every seat, before each phase is resolved, in simulated games of the four shipped boards
(random and informed players); and held on the refusals the rules moved to the hooks asked once per
skill or per choice of targets (qisha-xia's 黑侠, light-shadow's 询问)."""

from __future__ import annotations

from bansha.engine.choices import _arg_trials, arg_kinds, expand, seat_choices, vote_choices
from bansha.engine.engine import Game
from bansha.engine.model import ActEvent, GameError, ResolveEvent, VoteEvent
from bansha_sim.play import new_game, play_game


def _plain_targets(game: Game, name: str) -> dict[str, list[str]]:
    """For each one-target skill the seat may send, the targets ``check_use`` accepts with one of
    the listing's argument sets (the whole check for each target and each set)."""
    p = game.player(name)
    kinds = arg_kinds(game)
    out = {}
    for skill, acquired in game.skills_of(p).values():
        if not skill.phases or skill.targets != 1 or (skill.max_targets or 1) != 1:
            continue
        try:
            game.check_skill(p, skill)
        except GameError:
            continue
        declared = {k: expand(d, kinds, game, p) for k, d in skill.arg_values.items() if k in skill.args}
        trials = _arg_trials(skill, declared, [n for n in game.players if n != p.name])
        pool = [q.name for q in game.players.values()
                if (q.alive or skill.may_target_dead) and (q.name != p.name or skill.may_target_self)]
        accepted = []
        for t in pool:
            for args in trials:
                try:
                    game.check_use(p, skill, acquired, [t], args)
                except GameError:
                    continue
                accepted.append(t)
                break
        if accepted:
            out[skill.name] = accepted
    return out


def _plain_votes(game: Game, name: str) -> list[str] | None:
    p = game.player(name)
    if not game.phase.vote or game.winner is not None or not p.alive:
        return None
    change = any(b.voter == name for b in game.ballots)
    post = 1 if game.manifest.vote.post == "required" else None
    out = []
    for t in [*game.players, game.manifest.vote.abstain]:
        try:
            game.check_vote(VoteEvent(phase=game.label, voter=name, target=t, change=change, post=post))
        except GameError:
            continue
        out.append(t)
    return out or None


def test_the_listing_in_parts_answers_what_the_whole_checks_answer():
    seats = {"qisha-xia": 20, "m217": 14, "light-shadow": 12, "mafia-basic": 12}
    compared = {"skills": 0, "votes": 0}
    for board, n in seats.items():
        for seed, policy in ((1, "random"), (2, "informed")):
            r = play_game(board, n, seed, policy, day_limit=6, keep=True)
            g = Game(r["setup"])
            for ev in [*r["events"], None]:
                if ev is None or isinstance(ev, ResolveEvent):
                    if g.winner is not None:
                        break
                    for name in g.players:
                        listed = {c.skill: c.targets for c in seat_choices(g, name)
                                  if c.min_targets == c.max_targets == 1}
                        plain = _plain_targets(g, name)
                        assert listed == plain, (board, seed, g.label, name)
                        compared["skills"] += len(plain)
                        assert vote_choices(g, name) == _plain_votes(g, name), (board, seed, g.label, name)
                        compared["votes"] += g.phase.vote
                if ev is not None:
                    g.apply(ev)
    assert compared["skills"] > 100 and compared["votes"] > 300, compared


def test_a_teammate_refused_by_the_targets_hook_is_neither_listed_nor_accepted():
    """qisha-xia R-K2 (docs/rulings/qisha-xia.md): the kill is the group's, so "不得自杀" is the
    group — refused by ``bansha_validate_targets``, whatever the ``reflect`` arg."""
    _, g = new_game("qisha-xia", 20, 3, {})
    while g.phase.name != "night":
        g.apply(ResolveEvent(phase=g.label))
    black = [p for p in g.players.values() if "黑侠" in p.groups and p.alive]
    assert len(black) >= 2
    me, mate = black[0], black[1]
    kill = next(c for c in seat_choices(g, me.name) if c.skill == "杀人")
    assert not {p.name for p in black} & set(kill.targets)
    assert set(kill.targets) == {p.name for p in g.players.values() if p.alive and "黑侠" not in p.groups}
    for args in ({}, {"reflect": me.name}):
        try:
            g.apply(ActEvent(phase=g.label, actor=me.name, skill="杀人", targets=[mate.name], args=args))
        except GameError as e:
            assert str(e) == f"不得自杀：{mate.name}与你同为黑侠。"
        else:
            raise AssertionError("a teammate's kill was accepted")


def test_a_question_without_questions_left_is_dropped_whole():
    """light-shadow: "每位玩家（国王和皇后例外）每天都拥有1次“询问”上帝（第一天有2次）" — a king is
    never offered 询问, and once a seat's questions of the day are asked the skill leaves its
    listing (``bansha_skill_unavailable``, asked once), while ``act`` refuses with the rule's line."""
    _, g = new_game("light-shadow", 12, 1, {})
    g.apply(ResolveEvent(phase=g.label))  # day 1: one question
    assert g.day == 1
    king = next(p for p in g.players.values() if p.role == "国王")
    assert "询问" not in {c.skill for c in seat_choices(g, king.name)}
    asker = next(p for p in g.players.values() if p.role not in ("国王", "皇后"))
    ask = next(c for c in seat_choices(g, asker.name) if c.skill == "询问")
    other = next(t for t in ask.targets if t != asker.name)
    g.apply(ActEvent(phase=g.label, actor=asker.name, skill="询问", targets=[other],
                     args={"camp": "光之国", "role": "骑士"}))
    assert "询问" not in {c.skill for c in seat_choices(g, asker.name)}
    try:
        g.apply(ActEvent(phase=g.label, actor=asker.name, skill="询问", targets=[other],
                         args={"camp": "影之国", "role": "骑士"}))
    except GameError as e:
        assert str(e) == f"{asker.name}不能再询问：今天只有1次询问。"
    else:
        raise AssertionError("a second question on day 1 was accepted")
