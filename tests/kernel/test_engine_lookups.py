"""The engine's shortcuts on its hot path answer as the plain definitions do (issue 33, pass 4):
a compiled win rule (``builtins.win_holds``) as the rule read with ``matches``, ``Ruleset.role``
by its index as the first role of that name or alias, ``Game.skills_of`` of a player with no
group and nothing acquired as ``Ruleset.skills_for``."""

import random

import pytest
from bansha.engine.builtins import compile_selectors, win_holds
from bansha.engine.engine import GameError, matches
from bansha.engine.model import Player, Selector
from bansha.engine.registry import find_manifest, ruleset_for

CAMPS, ROLES, GROUPS = ["村民", "狼人", "三方"], ["平民", "狼人", "预言家", "情侣"], ["狼队", "情侣"]


def by_definition(players, camp, require_alive, selectors) -> bool:
    """The WinRule as its docstring says it: ``camp`` alive (if required) and every selector's
    players out (at least ``min_out`` of them, when given)."""
    if require_alive and not any(p.alive and p.camp == camp for p in players):
        return False
    for sel in selectors:
        chosen = [p for p in players if matches(p, sel)]
        out = sum(1 for p in chosen if not p.alive)
        if out < (sel.min_out if sel.min_out is not None else len(chosen)):
            return False
    return True


def test_a_compiled_win_rule_holds_where_the_rule_does():
    rng = random.Random(33)
    held = {True: 0, False: 0}
    for _ in range(3000):
        players = [Player(name=f"P{i}", seat=i, role=rng.choice(ROLES), camp=rng.choice(CAMPS),
                          alive=rng.random() < 0.5, groups=rng.sample(GROUPS, rng.randint(0, 2)))
                   for i in range(rng.randint(0, 8))]
        selectors = [Selector(role=rng.sample(ROLES, rng.randint(0, 2)), camp=rng.sample(CAMPS, rng.randint(0, 2)),
                              group=rng.sample(GROUPS, rng.randint(0, 1)),
                              min_out=rng.choice([None, None, 0, 1, 2, 3]))
                     for _ in range(rng.randint(0, 3))]
        camp, alive = rng.choice(CAMPS), rng.random() < 0.7
        want = by_definition(players, camp, alive, selectors)
        assert win_holds(players, camp, alive, compile_selectors(selectors)) is want, (players, selectors, camp, alive)
        held[want] += 1
    assert min(held.values()) > 300  # both answers were tried often


@pytest.mark.parametrize("board", ["m217", "qisha-xia", "light-shadow"])
def test_a_role_is_found_by_its_name_or_alias_as_the_roles_are_listed(board):
    rs = ruleset_for(find_manifest(board))
    for role in rs.roles.values():
        for name in {role.name, role.alias} - {""}:
            first = next(r for r in rs.roles.values() if name in (r.name, r.alias))
            assert rs.role(name) is first
    with pytest.raises(GameError):
        rs.role("不是任何角色")


def test_a_plain_players_skills_are_the_rulesets_table():
    from bansha.engine.engine import Game

    rs = ruleset_for(find_manifest("m217"))
    game = Game.__new__(Game)  # (skills_of reads the ruleset alone: no deal needed)
    game.ruleset = rs
    for name in rs.roles:
        plain = Player(name="P1", seat=1, role=name, camp="村民")
        assert game.skills_of(plain) is rs.skills_for(name, (), ())
        grouped = Player(name="P2", seat=2, role=name, camp="狼人", groups=["狼人"])
        assert game.skills_of(grouped) is rs.skills_for(name, ("狼人",), ())


# ---------------------------------------------------------------- issue 33, pass 5: per event


def scanned(table, name):
    """``find_skill``'s plain definition: the first skill of the table whose name or alias is ``name``."""
    return next(((s, acquired) for s, acquired in table.values() if name in (s.name, s.alias)), None)


def test_a_skill_is_found_by_its_name_or_alias_as_a_scan_of_the_table_finds_it():
    """``skill_names`` against the scan on tables whose names and aliases collide (an alias that is
    an earlier or a later skill's name, a skill without alias): the first in the table's order wins."""
    from bansha.engine.engine import skill_names
    from bansha.engine.model import Skill

    rs = ruleset_for(find_manifest("qisha-xia"))
    rng = random.Random(5)
    pool = ["甲", "乙", "丙", "丁", ""]
    collided = 0
    for _ in range(2000):
        table = {}
        for _skill in range(rng.randint(0, 4)):
            s = Skill(name=rng.choice(pool[:-1]) + str(rng.randint(0, 1)), alias=rng.choice(pool))
            table.setdefault(s.name, (s, rng.random() < 0.3))
        names = skill_names(rs, table)
        for name in {*pool, *(k + str(d) for k in pool for d in (0, 1)), "不是技能"}:
            want = scanned(table, name)
            assert names.get(name) == want, (table, name)
            collided += want is not None and want[0].name != name
    assert collided > 100  # an alias found before a name of the same spelling was tried often


@pytest.mark.parametrize("board", ["m217", "qisha-xia", "light-shadow"])
def test_find_skill_answers_as_the_scan_on_every_table_of_a_board(board):
    """Every role's table, with each group of the board and each skill of another role acquired
    (under its name and its alias): ``Game.find_skill`` returns what the scan returns, and refuses
    a name no skill has."""
    from bansha.engine.engine import Game

    rs = ruleset_for(find_manifest(board))
    game = Game.__new__(Game)
    game.ruleset, game.manifest, game.hook, game.lang = rs, rs.manifest, rs.hooks, rs.lang
    keys = [(s.name, r.name) for r in rs.roles.values() for s in r.skills]
    keys += [(s.alias, r.name) for r in rs.roles.values() for s in r.skills if s.alias]
    rng = random.Random(board)
    for role in rs.roles.values():
        for groups in [[], *([g] for g in rs.group_skills)]:
            for acquired in [{}, *(dict([k]) for k in rng.sample(keys, min(8, len(keys))))]:
                p = Player(name="P1", seat=1, role=role.name, camp="c", groups=list(groups), acquired=acquired)
                table = game.skills_of(p)
                for name in {n for s, _ in table.values() for n in (s.name, s.alias)} | {k for k, _ in keys[:20]}:
                    want = scanned(table, name)
                    if want is None:
                        with pytest.raises(GameError):
                            game.find_skill(p, name)
                    else:
                        assert game.find_skill(p, name) == want


@pytest.mark.parametrize("board", ["m217", "qisha-xia", "light-shadow", "mafia-basic"])
def test_every_key_of_a_counted_skill_is_listed_as_counted(board):
    """``resolve`` takes a use off only for actions whose skill name is in ``counted_skills``: every
    key of every table that holds a skill with counted uses (its own, a group's, one acquired under
    its name or its alias) is in it."""
    from bansha.engine.engine import counted_skills

    rs = ruleset_for(find_manifest(board))
    counted = counted_skills(rs)
    keys = [(k, r.name) for r in rs.roles.values() for s in r.skills for k in {s.name, s.alias} - {""}]
    seen = 0
    for role in rs.roles.values():
        tables = [rs.skills_for(role.name, (), ()), *(rs.skills_for(role.name, (g,), ()) for g in rs.group_skills)]
        tables += [rs.skills_for(role.name, (), (k,)) for k in keys]
        for table in tables:
            for key, (s, _) in table.items():
                if s.uses is not None:
                    assert key in counted, (role.name, key)
                    seen += 1
    assert seen or board in ("light-shadow", "mafia-basic")


def test_a_resolutions_draws_are_seeded_from_where_it_began():
    """The random source is made when first used, from the step and the count of inputs the
    resolution began with (not those of the moment of the first draw)."""
    from bansha.engine.engine import Game, Resolution, SeededDraws
    from bansha.engine.newgame import new_setup

    _, setup, _, _ = new_setup("qisha-xia", "g", names=[f"玩家{i}" for i in range(20)], seed=7)
    game = Game(setup)
    res = Resolution(game, step="夜晚")
    began = f"{setup.seed}/{game.label}/夜晚/{game.seq}"
    game.seq += 3
    res.step = "结算"
    want = SeededDraws(began, res)
    assert [res.rng.random() for _ in range(5)] == [want.random() for _ in range(5)]


def test_light_shadows_checks_of_a_question_and_a_guess_answer_as_their_plain_definitions():
    """光影传说's 询问 names a profession (a role of the ruleset outside ``common``) and its 猜测
    names every enemy once with exactly the enemy's professions (compared as multisets): the
    rules' checks against those definitions written with a list of professions and Counters,
    on seeded games and seeded arguments."""
    from collections import Counter

    from bansha.engine.engine import Game
    from bansha.engine.newgame import new_setup
    from bansha_light_shadow_rules import guess_shape, numbered, question_args

    def shape_by_definition(game, me, args):
        enemy = [p for p in game.players.values() if p.camp != me.camp]
        names = list(args)
        if any(n not in game.players for n in names) or me.name in names or len(names) != len(enemy):
            return f"需要对面国家的全部{len(enemy)}名玩家，各写一次，不含自己"
        try:
            profs = Counter(game.ruleset.role(str(v)).name for v in args.values())
        except GameError:
            return "职业名不对"
        if profs != Counter(p.role for p in enemy):
            return "职业必须恰好是对面国家的各职业（法师不写编号）"
        return None

    def question_by_definition(game, args):
        try:
            camp = game.ruleset.camp(str(args.get("camp", "")))
            role = game.ruleset.role(str(args.get("role", ""))).name
        except GameError:
            raise ValueError("需要 camp = 国家、role = 职业（如 camp=光之国 role=国王）") from None
        if role not in [r for r in game.ruleset.roles if r not in game.manifest.common]:
            raise ValueError(f"没有职业“{role}”")
        number = args.get("number")
        if number is not None:
            if role != "法师" or not numbered(game, camp) or str(number) not in ("1", "2"):
                raise ValueError(f"{camp}没有编号为{number}的{role}")
            number = int(number)
        return camp, role, number

    def outcome(check, game, args):
        try:
            return check(game, args)
        except ValueError as exc:
            return str(exc)

    rng = random.Random(13)
    answers = Counter()
    for seed in range(6):
        _, setup, _, rs = new_setup("light-shadow", "g", names=[f"玩家{i}" for i in range(12)], seed=seed)
        game = Game(setup)
        players = list(game.players.values())
        words = [n for r in rs.roles.values() for n in (r.name, r.alias) if n] + ["不是职业", ""]
        for _ in range(300):
            me = rng.choice(players)
            enemy = [p for p in players if p.camp != me.camp]
            args = {p.name: p.role for p in enemy}  # the right guess, then spoilt at random
            if rng.random() < 0.5:
                args[rng.choice(list(args))] = rng.choice(words)
            if rng.random() < 0.2:
                args.pop(rng.choice(list(args)))
            if rng.random() < 0.1:
                args[me.name] = me.role
            want = shape_by_definition(game, me, args)
            assert guess_shape(game, me, args) == want
            answers[want] += 1
            q = {"camp": rng.choice([*(c.name for c in rs.manifest.camps), "无"]), "role": rng.choice(words)}
            if rng.random() < 0.3:
                q["number"] = rng.choice(["1", "2", "3"])
            assert outcome(question_args, game, q) == outcome(question_by_definition, game, q), q
    assert len(answers) == 4 and min(answers.values()) > 50  # every answer was tried often


def seeded_game(board: str, seats: int, seed: int):
    from bansha.engine.engine import Game
    from bansha.engine.newgame import new_setup

    _, setup, _, _ = new_setup(board, "g", names=[f"玩家{i}" for i in range(seats)], seed=seed)
    return Game(setup)


@pytest.mark.parametrize("board,seats", [("qisha-xia", 20), ("m217", 14)])
def test_a_steps_actions_come_in_the_order_of_a_stable_sort_on_their_four_keys(board, seats):
    """``Resolution.actions_in`` against its plain definition (a stable sort by priority, acquired,
    the caster's identity rank and submission number) on seeded lists of actions with ties of
    every key, skills acquired, answered and unknown."""
    from bansha.engine.engine import Resolution
    from bansha.engine.model import Action

    def by_definition(game, actions, step):
        chosen = []
        for a in actions:
            actor = game.players[a.actor]
            skill, _ = game.skills_of(actor).get(a.skill, (None, False))
            if skill is not None and skill.step == step and not skill.immediate and not a.answered:
                rank = game.ruleset.identity_rank.get(actor.role, len(game.ruleset.identity_rank)) if a.acquired else -1
                chosen.append((skill.priority, a.acquired, rank, a.seq, a))
        return [a for *_, a in sorted(chosen, key=lambda t: t[:4])]

    rng = random.Random(board)
    ordered = 0
    for seed in range(6):
        game = seeded_game(board, seats, seed)
        players = list(game.players.values())
        for p in rng.sample(players, 3):  # skills acquired from other roles
            r = rng.choice(list(game.ruleset.roles.values()))
            if r.skills:
                p.acquired = {rng.choice(r.skills).name: r.name}
        for _ in range(40):
            actions = []
            for _ in range(rng.randint(0, 25)):
                p = rng.choice(players)
                table = list(game.skills_of(p)) + ["没有的技能"]
                actions.append(Action(actor=p.name, skill=rng.choice(table), seq=rng.randint(0, 6),
                                      acquired=rng.random() < 0.3, answered=rng.random() < 0.1))
            game.actions = actions
            res = Resolution(game)
            for step in {s.name for ph in game.manifest.phases for s in ph.steps}:
                got = res.actions_in(step)
                assert [id(a) for a in got] == [id(a) for a in by_definition(game, actions, step)]
                ordered += len(got) > 2
    assert ordered > 100


def test_an_unknown_argument_is_refused_as_its_plain_definition_says():
    """``Game._unknown_arg`` against its definition (no line without arguments or the board's
    wording, or for a skill with a free-form argument; else the first argument it does not
    declare), on seeded arguments of every skill of light-shadow (free-form 猜测) and qisha-xia."""
    from bansha.engine.model import Action

    def by_definition(game, skill, action):
        text = game.manifest.texts.refuse_unknown_arg
        if not action.args or not text or any(k.startswith("<") for k in skill.args):
            return None
        unknown = [k for k in action.args if k not in skill.args]
        if not unknown:
            return None
        takes = "、".join(f"--arg {k}=…" for k in skill.args) or "—"
        return text.format(actor=action.actor, skill=skill.name, arg=unknown[0], takes=takes)

    rng = random.Random(3)
    said = 0
    for board, seats in [("light-shadow", 12), ("qisha-xia", 20)]:
        game = seeded_game(board, seats, 1)
        skills = [s for r in game.ruleset.roles.values() for s in r.skills]
        for _ in range(2000):
            skill = rng.choice(skills)
            words = [*skill.args, "reflect", "不是参数", "<玩家名>"]
            action = Action(actor="玩家1", skill=skill.name,
                            args={rng.choice(words): "x" for _ in range(rng.randint(0, 3))})
            want = by_definition(game, skill, action)
            assert game._unknown_arg(skill, action) == want
            said += want is not None
    assert said > 300


def test_qisha_xias_reflect_argument_is_checked_as_its_plain_definition_says():
    """The qisha-xia rules' ``--arg reflect=`` check against its definition (a living member of the
    acting group, or the actor for a privilege of one) on seeded games with players out."""
    from bansha.engine.model import Action
    from bansha_qisha_xia_rules import bansha_validate_action

    def by_definition(game, action):
        named = action.args.get("reflect")
        if named is None:
            return None
        members = [p.name for p in game.alive() if action.group and action.group in p.groups] or [action.actor]
        if named not in members:
            return f"{action.skill}的reflect={named}不是共同行使{action.skill}的成员（{'、'.join(members)}）。"
        return None

    rng = random.Random(8)
    answers = {True: 0, False: 0}
    for seed in range(5):
        game = seeded_game("qisha-xia", 20, seed)
        players = list(game.players.values())
        groups = sorted({g for p in players for g in p.groups}) + [None, "没有的组"]
        for _ in range(400):
            for p in players:
                p.alive = rng.random() < 0.7
            actor, group = rng.choice(players), rng.choice(groups)
            members = [p.name for p in players if group in p.groups]
            named = rng.choice([*(p.name for p in players), "不是玩家", None, actor.name, *members * 3])
            action = Action(actor=actor.name, skill="杀人", group=group,
                            args={} if named is None else {"reflect": named})
            want = by_definition(game, action)
            assert bansha_validate_action(game=game, action=action) == want
            answers[want is None] += 1
    assert min(answers.values()) > 300


@pytest.mark.parametrize("board,seats", [("m217", 14), ("qisha-xia", 20), ("light-shadow", 12), ("mafia-basic", 9)])
def test_a_label_is_named_as_the_boards_names_say_however_often_asked(board, seats):
    """``Game.named`` (kept once a label, on the ruleset) against the board's ``[names]`` applied
    afresh (``phase_namer``), for every phase of days 0-6, openings and labels that name no phase,
    asked in a seeded order, from two games of the board."""
    from bansha.engine.board import load_board, phase_namer

    games = [seeded_game(board, seats, 0), seeded_game(board, seats, 1)]
    names = load_board(games[0].manifest.id, lang=games[0].lang)["names"]
    fresh = phase_namer(games[0], {"names": names})
    labels = [p.name if p.opening else f"{p.name} {d}" for p in games[0].manifest.phases for d in range(7)]
    labels += ["不是阶段 3", "night", ""]
    rng = random.Random(board)
    for _ in range(3):
        rng.shuffle(labels)
        for label in labels:
            assert rng.choice(games).named(label) == fresh(label), label
    assert len({fresh(lb) for lb in labels}) > len(games[0].manifest.phases)


def test_an_events_kind_is_the_first_kind_it_is_an_instance_of():
    """``event_kind`` (what ``apply`` dispatches on, read from the type) against the ``isinstance``
    chain in ``apply``'s order, for every kind of event, a subclass of one, and what is none."""
    from bansha.engine import model
    from bansha.engine.engine import _EVENT_KINDS, event_kind

    class LateVote(model.VoteEvent, tag="late-vote", kw_only=True):
        note: str = ""

    events = [model.ActEvent(phase="day 1", actor="A", skill="s"), model.UnactEvent(phase="day 1", actor="A", skill="s"),
              model.VoteEvent(phase="day 1", voter="A", target="B"), model.ResolveEvent(phase="day 1"),
              LateVote(phase="day 1", voter="A", target="B"), "not an event", None]
    events.append(model.AmendEvent(phase="day 1", event=events[0]))
    events.append(model.RulingEvent(phase="day 1", kind="announce", text="x"))
    kinds = set()
    for ev in events:
        want = next((k for k in _EVENT_KINDS if isinstance(ev, k)), None)
        assert event_kind(ev) is want, ev
        kinds.add(want)
    assert kinds == {*_EVENT_KINDS, None}
