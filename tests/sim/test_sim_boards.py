"""The shipped boards under the policies: every --arg filled from what the skill declares
(Skill.arg_values), light-shadow won by a right 猜测, the director's rulings a board waits for
(天师's answer, 摄魂's text) answered so the game goes on, and Skill.does declared right."""

from __future__ import annotations

from bansha.engine.engine import Game
from bansha.engine.model import ActEvent, ResolveEvent, RulingEvent, VoteEvent
from bansha.engine.registry import find_manifest, ruleset_for
from bansha_sim.play import arg_kinds, choices_for, new_game, play_game


def _replayed(r) -> Game:
    g = Game(r["setup"])
    for ev in r["events"]:
        g.apply(ev)
    return g


def test_args_take_the_declared_values_of_the_table():
    _, game = new_game("light-shadow", 14, 1, {})
    kinds = arg_kinds(game)
    assert kinds["camp"] == ("光之国", "影之国")
    # the roles the table deals, not the pseudo-role 众人 every player holds
    assert set(kinds["role"]) == {"国王", "皇后", "骑士", "刺客", "法师", "猎人"}
    ask = next(c for c in choices_for(game, game.player("P01"), kinds) if c.skill == "询问")
    assert ask.values == {"camp": kinds["camp"], "role": kinds["role"], "number": ("", "1", "2")}
    assert ask.per_phase == 2 and ask.keyed is None
    # "第零天不允许进行猜测。": not offered on day 0, offered (with its keys' values) on day 1
    assert "猜测" not in {c.skill for c in choices_for(game, game.player("P01"), kinds)}
    while game.day == 0:
        game.apply(ResolveEvent(phase=game.label))
    guess = next(c for c in choices_for(game, game.player("P01"), kinds) if c.skill == "猜测")
    assert guess.keyed == kinds["role"]


def test_light_shadow_questions_are_asked_with_invented_arguments():
    r = play_game("light-shadow", 12, 4, "random", day_limit=2, keep=True)
    asked = [ev for ev in r["events"] if isinstance(ev, ActEvent) and ev.skill == "询问"]
    assert asked, "no 询问 was accepted"
    for ev in asked:
        assert ev.args["camp"] in ("光之国", "影之国") and ev.args["role"] != "众人"
    g = _replayed(r)
    assert any("是不是" in t for fb in g.feedback.values() for _, t in fb)


def _ruled_out(monkeypatch) -> list[tuple[str, dict]]:
    """(skill, args) of every pick the simulator's check rules out before sending, while the
    test runs: ``Game.check``'s refusals, and ``Game.check_args``' where the listing asked the
    skill and the targets already (``play._args_check``)."""
    from bansha.engine.model import GameError
    from bansha_sim import play

    ruled: list[tuple[str, dict]] = []
    check = Game.check

    def counted(game, ev):
        try:
            return check(game, ev)
        except GameError:
            ruled.append((ev.skill, dict(ev.args)))
            raise

    monkeypatch.setattr(Game, "check", counted)
    args_check = play._args_check

    def counted_args(game, c, test, targets, args):
        rest = args_check(game, c, test, targets, args)
        if rest is None:
            return None

        def asked():
            try:
                return rest()
            except GameError:
                ruled.append((c.skill, dict(args)))
                raise
        return asked

    monkeypatch.setattr(play, "_args_check", counted_args)
    return ruled


def test_light_shadow_random_draws_args_the_listing_lists_and_never_lists_a_seat_whole(monkeypatch):
    """光影传说 under ``random`` (issue 33): a 窥探's arguments are drawn from the values the one
    listing lists for it (at 12 seats: no 国王 or 皇后, no mage number), so none is ruled out,
    where the declared values (``number``: "", 1, 2 on every table; every role) had the engine
    rule out 7 draws in 9 (and the day passed without a 窥探 when 8 draws in a row were); the
    guess reads the seat's card, not its view, so no seat's whole listing is made for it (each
    view had listed every target of every skill: two thirds of a game's time). Counted, on
    seeded games: the picks the engine's check ruled out, by skill, and the listings made."""
    from collections import Counter

    from bansha.engine import choices

    picks = _ruled_out(monkeypatch)
    listed: list[str] = []
    choice = choices.SkillTest.choice
    monkeypatch.setattr(choices.SkillTest, "choice", lambda self: listed.append(self.skill.name) or choice(self))
    rs = [play_game("light-shadow", 12, seed, "random", day_limit=6) for seed in (0, 1)]
    ruled = Counter(skill for skill, _ in picks)
    spied = sum(r["skills"].get("刺客", {}).get("窥探", 0) for r in rs)
    # two assassins a game, one 窥探 each a day, days 0-6: every one sent
    assert spied == 2 * 2 * 7, spied
    assert "窥探" not in ruled, ruled
    # 询问 and 伪装 (one target) are asked target by target, never listed whole; only 窥探 is
    # (its listing lists the values of its args)
    assert set(listed) == {"窥探"}, set(listed)
    # what is ruled out is the 询问 and 伪装 args drawn from the declared values, checked before sending
    assert set(ruled) <= {"询问", "伪装"} and sum(r["ruled_out"] for r in rs) == sum(ruled.values()) > 0
    assert all(r["refused"] == 0 for r in rs)


def test_informed_light_shadow_games_end_by_a_right_guess():
    won = []
    for seed in range(20):
        r = play_game("light-shadow", 12, seed, "informed", keep=True)
        if r["winners"]:
            won.append(r)
    assert len(won) >= 2, "informed never settled the other nation within 30 days"
    for r in won:
        g = _replayed(r)
        assert g.winner == r["winners"]
        guess = [ev for ev in r["events"] if isinstance(ev, ActEvent) and ev.skill == "猜测"][-1]
        me = g.player(guess.actor)
        assert r["winners"] == [me.camp]
        # the guess names every player of the other nation with the real profession
        enemy = {p.name: p.role for p in g.players.values() if p.camp != me.camp}
        assert guess.args == enemy


def test_m217_rulings_are_answered_and_the_game_goes_on():
    seen = set()
    for seed in range(40):
        r = play_game("m217", 14, seed, "random", keep=True)
        assert not r["stuck"]
        rulings = [ev for ev in r["events"] if isinstance(ev, RulingEvent)]
        if not rulings:
            continue
        g = _replayed(r)
        for ev in rulings:
            seen.add(ev.kind)
            if ev.kind == "answer":
                assert ev.text in ("是", "否", "无法回答")
                assert any(t.startswith("通天：") and t.endswith("——" + ev.text) for _, t in g.feedback[ev.player])
            if ev.kind == "proclaim":
                assert any(t == "我是好人。" for _, t in g.announcements)
        # nothing is left waiting at the end of a day
        assert r["days"] > int(rulings[-1].phase.split()[-1]) or r["winners"]
    assert seen == {"answer", "proclaim"}


def test_does_is_declared_on_the_shipped_boards():
    tags = {}
    for rs in ("qisha-xia", "m217", "light-shadow"):
        for role in ruleset_for(find_manifest(rs)).roles.values():
            for s in role.skills:
                assert set(s.does) <= {"harm", "help", "check"}, (rs, role.name, s.name, s.does)
                tags[(rs, role.name, s.name)] = s.does
    assert tags[("m217", "狼人", "杀人")] == ("harm",)
    assert tags[("m217", "女巫", "救药")] == ("help",) and tags[("m217", "女巫", "毒药")] == ("harm",)
    assert tags[("m217", "预言家", "预言")] == ("check",)
    assert tags[("qisha-xia", "白侠", "救治")] == ("help",) and tags[("qisha-xia", "赤侠", "验人")] == ("check",)
    assert tags[("light-shadow", "皇后", "真视")] == ("check",)
    # 幻觉一 (two players' votes follow the 幻侠's) neither harms, helps nor checks
    untagged = {k for k, v in tags.items() if not v}
    assert ("qisha-xia", "幻侠", "幻觉一") in untagged


def test_every_argument_of_the_shipped_boards_declares_its_values():
    """A skill without targets whose --arg declares no values is never offered (docs/simulate.md);
    on the shipped boards there is none left, and every kind they declare is one the simulator
    fills in (a misspelt kind would leave the skill unplayed without a word)."""
    from bansha_sim.play import expand_kind

    unplayed, kinds_used = set(), set()
    for rs in ("qisha-xia", "m217", "light-shadow"):
        for role in ruleset_for(find_manifest(rs)).roles.values():
            for s in role.skills:
                if not s.targets and any(k not in s.arg_values for k in s.args):
                    unplayed.add((rs, role.name, s.name))
                for v in s.arg_values.values():
                    kinds_used |= {v} if isinstance(v, str) else {x[1:-1] for x in v if str(x).startswith("{")}
    assert unplayed == set()
    _, game = new_game("m217", 14, 1, {})
    static = arg_kinds(game)
    p = game.player("P01")
    # view:KEY and group:NAME move with the game and the board (test_reflect_names_a_member_of_the_group)
    known = {k for k in kinds_used if k.startswith(("view:", "group:")) or expand_kind(k, static, game, p)}
    assert known == kinds_used
    assert kinds_used >= {"alive", "post", "option:death_order", "view:曾对你使用过的技能", "camp", "role"}


def test_reflect_names_a_member_of_the_group():
    """> 龙侠反弹杀人时被反弹的黑侠（未明确指定则反弹发送者）: the 黑侠's 杀人 offers as ``reflect`` the
    group's living members (left blank: the sender), in the simulator as in status and the web
    (``bansha.engine.choices``: one reading of ``arg_values``)."""
    from bansha.engine.choices import seat_choices
    from bansha.engine.model import ResolveEvent

    _, game = new_game("qisha-xia", 20, 3, {})
    game.apply(ResolveEvent(phase=game.label))  # day 1 -> night 1
    blacks = [p.name for p in game.players.values() if "黑侠" in p.groups]
    assert len(blacks) == 3
    kill = next(c for c in seat_choices(game, blacks[0]) if c.skill == "杀人")
    assert [v for v in kill.args["reflect"] if v] == blacks  # (the blank, where listed, is the sender)


def test_kinds_that_move_with_the_game():
    """alive: the players in the game now; post: floors 1 … the living count, whole numbers as the
    CLI reads them; option:NAME: the house rule's list; view:KEY: the player's own view; "{kind}"
    inside a tuple: that kind among literal values; a declaration with no values now: not offered."""
    from bansha_sim.play import expand, expand_kind

    setup, game = new_game("m217", 14, 3, {"death_order": ["毒药", "杀人"]})
    static = arg_kinds(game)
    p = game.player("P01")
    game.player("P05").alive = False
    alive = expand_kind("alive", static, game, p)
    assert "P05" not in alive and len(alive) == 13 and alive[0] == "P01"
    assert expand_kind("post", static, game, p) == tuple(range(1, 14))
    assert expand(("", "最先", "{option:death_order}"), static, game, p) == ("", "最先", "毒药", "杀人")
    assert expand(("", "{camp}"), static, game, p) == ("", *static["camp"])
    assert expand_kind("no-such-kind", static, game, p) == ()
    # 镜像 lists what was used on the 镜: nothing yet, so it is not offered (the one listing,
    # bansha.engine.choices, which the policies choose from)
    p.acquired["镜像"] = "镜"
    p.uses["镜像"] = 1
    while game.phase.name != "dawn":
        game.apply(ResolveEvent(phase=game.label))

    def mirror():
        return [c.values for c in choices_for(game, p, static) if c.skill == "镜像"]

    assert mirror() == []
    p.data["m217.镜像.seen"] = [["预言", "预言家"]]
    assert mirror() == [{"skill": ("预言",)}]


NEW = {"赌博", "命运洪流", "伪装", "镜像", "情书", "回信", "双面", "牺牲", "潜藏"}
# what the effect of each says to its holder, the beloved or the thread once it is accepted
SAID = {"赌博": "赌博：骰子", "伪装": "伪装：你选择了效果", "镜像": "镜像：你复制了", "双面": "双面：置顶",
        "潜藏": "潜藏：你的表面伪装为"}


def _played(ruleset, seats, policy, seeds, names):
    """Each accepted use of ``names`` in these games, checked on a replay: the skill was offered
    to its actor at that moment with the args it was sent with among the values then declared,
    and the engine accepted it again. Returns {skill: [(game after it, event)]}."""
    seen: dict = {}
    for seed in seeds:
        r = play_game(ruleset, seats, seed, policy, keep=True)
        assert not r["stuck"]
        if not any(isinstance(ev, ActEvent) and ev.skill in names for ev in r["events"]):
            continue
        g = Game(r["setup"])
        for ev in r["events"]:
            if isinstance(ev, ActEvent) and ev.skill in names:
                c = next(c for c in choices_for(g, g.player(ev.actor)) if c.skill == ev.skill)
                for k, v in ev.args.items():
                    if c.keyed is not None:
                        assert k in g.players and v in c.keyed, (ev.skill, k, v)
                    else:
                        assert v in c.values[k], (ev.skill, k, v)
                g.apply(ev)
                seen.setdefault(ev.skill, []).append((seed, g, ev))
            else:
                g.apply(ev)
    return seen


def test_the_nine_m217_skills_are_played_with_their_declared_values():
    """赌博, 命运洪流, 伪装, 镜像, 情书, 回信, 双面, 牺牲, 潜藏: sent by random players, accepted, and
    what their rules do happened (told to the holder, the letter to the beloved, the 暴击)."""
    seen = _played("m217", 14, "random", range(40), NEW)
    assert set(seen) == NEW
    for skill, uses in seen.items():
        for _, g, ev in uses:
            told = [t for _, t in g.feedback[ev.actor]]
            if skill in SAID:
                assert any(t.startswith(SAID[skill]) for t in told), (skill, told)
            if skill == "情书":
                b = next(q for q in g.players.values() if q.seat == g.player(ev.actor).data["暗恋者.beloved"])
                assert ("情书：" + ev.args["text"]) in [t for _, t in g.feedback[b.name]]
            if skill == "回信":
                assert any(("回信：" + ev.args["text"]) in [t for _, t in fb] for fb in g.feedback.values())
            if skill == "牺牲":
                assert any(t.rule == "牺牲" and ev.actor in t.text for t in g.trace)
            if skill == "命运洪流":
                assert any(t.rule == "命运洪流" for t in g.trace) or "[命运洪流不可阻挡]" in [a for _, a in g.announcements]
    # the effects were drawn across their values, not stuck on one
    assert len({ev.args["effects"] for _, _, ev in seen["伪装"]}) >= 3
    assert {ev.args["top"] for _, _, ev in seen["双面"]} == {"狼", "神"}


def test_informed_plays_them_too_but_a_guessed_list():
    """informed sends the eight that are not a list of guesses; 命运洪流's list is a
    players-as-keys argument, which it sends only where the table deals by camp (docs/simulate.md)."""
    seen = _played("m217", 14, "informed", range(30), NEW)
    assert set(seen) == NEW - {"命运洪流"}


def test_qisha_xia_hallucination_three_voids_the_ballots_from_its_post():
    """幻觉三 --arg post=N (a floor of the day's thread): the ballots cast at floor N and after do not
    count, announced; the simulator numbers a phase's ballots 1, 2, … as they are cast."""
    seen = _played("qisha-xia", 20, "random", range(6), {"幻觉三"})
    assert len(seen["幻觉三"]) == 6  # a random 幻侠 sends it on its first day
    cuts = 0
    for seed, _, ev in seen["幻觉三"]:
        r = play_game("qisha-xia", 20, seed, "random", keep=True)
        g = _replayed(r)
        post = ev.args["post"]
        assert isinstance(post, int)
        assert (ev.phase, f"第{post}楼及之后的投票无效。") in g.announcements
        votes = [e for e in r["events"] if getattr(e, "voter", None) and e.phase == ev.phase]
        assert [e.post for e in votes] == list(range(1, len(votes) + 1))
        cut = {e.voter for e in votes if e.post >= post}
        voided = {t.text.split("在第")[0] for t in g.trace if t.phase == ev.phase and t.rule == "1.3 幻觉三"}
        assert voided == cut
        cuts += bool(cut)
    assert cuts >= 3


def test_m217_argument_skills_are_played_with_their_declared_values():
    """诡辩, 寻踪, 大奖, 蛊惑, 窥视, 馈赠 (arg_values declared): accepted in random games, each --arg
    one of the declared values."""
    names = {"诡辩", "寻踪", "大奖", "蛊惑", "窥视", "馈赠"}
    used = set()
    for seed in range(1, 61):
        r = play_game("m217", 14, seed, "random", keep=True)
        g = Game(r["setup"])
        kinds = arg_kinds(g)
        for ev in r["events"]:
            if isinstance(ev, ActEvent) and ev.skill in names:
                used.add(ev.skill)
                skill = next(s for role in g.ruleset.roles.values() for s in role.skills if s.name == ev.skill)
                for k, v in ev.args.items():
                    allowed = skill.arg_values[k]
                    assert v in (kinds[allowed] if isinstance(allowed, str) else allowed), (ev.skill, k, v)
    assert used == names


def test_informed_knowledge_carried_between_phases_equals_a_fresh_reading(monkeypatch):
    """``identities`` reads each feedback line once a game and keeps what it knows in the game's
    ``Seat.memo``; at every decision of played games (both tables, the hunter's disguise and
    the mages' 不告诉你 among the lines) that must equal reading the whole feedback afresh."""
    from bansha_sim import policies

    carried = policies.identities
    checked = []

    def both(seat):
        dom = carried(seat)
        fresh = policies.Seat(seat._game, seat.name, [], None, None, seat.camps, seat.table, memo={})
        assert dom == carried(fresh), (seat.name, seat.view["phase"])
        checked.append(len(seat.view["feedback"]))
        return dom

    monkeypatch.setattr(policies, "identities", both)
    won = 0
    for seats, seed in ((12, 0), (12, 7), (14, 1), (14, 8)):
        won += bool(play_game("light-shadow", seats, seed, "informed", day_limit=40)["winners"])
    # the comparison ran on long feedback, and the knowledge settled a winning guess
    # (2 of the 4 since the listing offers only the --arg values act accepts: the draws differ)
    assert len(checked) > 1000 and max(checked) >= 30 and won >= 2


def test_the_policies_choose_from_the_one_listing_and_nothing_sent_is_refused():
    """The policies pick from ``bansha.engine.choices`` (what ``status`` and the web show): on a replay
    of played games of the shipped boards, every action sent names a skill the listing offered
    its actor at that moment, on targets it listed, and every ballot a listed vote target; the
    engine refused nothing the simulator sent (``refused``), and what it ruled out before
    sending is counted (``ruled_out``: a policy's pick of several targets or of args)."""
    from bansha.engine.choices import seat_choices, vote_choices

    sent = 0
    for ruleset, seats, seed in (("m217", 14, 0), ("m217", 14, 5), ("qisha-xia", 20, 1), ("light-shadow", 14, 2),
                                 ("mafia-basic", 12, 3)):
        for policy in ("random", "informed"):
            r = play_game(ruleset, seats, seed, policy, day_limit=12, keep=True)
            assert r["refused"] == 0, (ruleset, seed, policy)
            assert r["ruled_out"] >= 0 and r["n_events"] == len(r["events"])
            g = Game(r["setup"])
            for ev in r["events"]:
                if isinstance(ev, ActEvent) and ev.skill != "猜测":
                    listed = {c.skill: c for c in seat_choices(g, ev.actor)}
                    assert ev.skill in listed, (ruleset, seed, ev)
                    assert set(ev.targets) <= set(listed[ev.skill].targets), (ruleset, seed, ev)
                    sent += 1
                elif isinstance(ev, VoteEvent):
                    assert ev.target in (vote_choices(g, ev.voter) or []), (ruleset, seed, ev)
                    sent += 1
                g.apply(ev)
    assert sent > 1000


def test_a_seats_view_shows_the_listing_it_was_given(monkeypatch):
    """The simulator gives a seat's view the listing its choices and votes were made from (the
    view would list them again): at every view an informed or a random player reads, that view
    equals the one made from scratch."""
    import bansha.show.views

    made = bansha.show.views.player_view
    compared = []

    plain = []

    def both(game, name, choices=None, votes=bansha.show.views.ASK):
        view = made(game, name, choices, votes)
        if choices == [] and votes is None:
            # a seat's card and players (``Seat.card``): the view without its listing
            whole = made(game, name)
            whole["you"].pop("choices", None)
            whole["you"].pop("vote", None)
            assert view == whole, (game.label, name)
            plain.append(name)
        elif choices is not None:
            assert view == made(game, name), (game.label, name)
            compared.append(name)
        return view

    monkeypatch.setattr(bansha.show.views, "player_view", both)
    for ruleset, seats in (("light-shadow", 12), ("m217", 14), ("qisha-xia", 20)):
        play_game(ruleset, seats, 1, "informed", day_limit=6)
    assert len(compared) > 200
    # a random player's guess (light-shadow) reads the seat's card and players: the view
    # without the listing, which it does not make
    n = len(compared)
    for seed in (1, 2, 3):
        play_game("light-shadow", 12, seed, "random", day_limit=6)
    assert len(plain) > 20 and len(compared) == n, (len(plain), len(compared) - n)


def test_light_shadow_random_draws_a_mage_number_only_with_the_mage_at_14_seats(monkeypatch):
    """光影传说 at 14 seats under ``random`` (issue 33, pass 5): the listing lists 窥探's ``number``
    (1, 2) beside its roles and says the number is taken only with 法师 (``SkillChoice.arg_with``);
    the draw keeps that pairing (``Choice.pairs``), so no 窥探 naming a number and another role is
    drawn (before: 87 of them ruled out in 3 games of 7 days), and every assassin's day has its
    窥探."""
    picks = _ruled_out(monkeypatch)
    rs = [play_game("light-shadow", 14, seed, "random", day_limit=6, keep=True) for seed in (0, 1)]
    sent = [dict(ev.args) for r in rs for ev in r["events"] if isinstance(ev, ActEvent) and ev.skill == "窥探"]
    ruled = [args for skill, args in picks if skill == "窥探"]
    drawn = sent + ruled
    assert sent and all(r["refused"] == 0 for r in rs)
    assert not [a for a in drawn if "number" in a and a.get("role") != "法师"], drawn
    assert any("number" in a for a in drawn)
    # what is still ruled out: 法师 without a number (two mages: the number is required)
    assert all(a.get("role") == "法师" and "number" not in a for a in ruled), ruled
    spied = sum(r["skills"].get("刺客", {}).get("窥探", 0) for r in rs)
    assert spied == 2 * 2 * 7, spied


def test_paired_args_are_drawn_uniformly_over_the_combinations_that_keep_the_pairing():
    """``draw_args`` with a pairing (``Choice.pairs``): a number only beside 法师, so of the 4 × 3
    combinations the 6 that keep it (four roles without a number, 法师 with 1 or 2), each about
    equally often over 6,000 draws (a chi-square far in its tail only if not); without a pairing
    the 12 combinations."""
    from collections import Counter

    from bansha_sim.draws import Draws
    from bansha_sim.policies import choice, draw_args

    values = {"role": ("骑士", "刺客", "法师", "猎人"), "number": ("", "1", "2")}
    for pairs, cells in (({"number": {"role": ["法师"]}}, 6), (None, 12)):
        c = choice(skill="窥探", lo=0, hi=0, candidates=(), args=("role", "number"), values=values, pairs=pairs)
        rng = Draws("pairs")
        got = Counter(tuple(sorted(draw_args(rng, c).items())) for _ in range(6000))
        assert len(got) == cells, got
        if pairs:
            assert all(dict(a).get("role") == "法师" for a in got if "number" in dict(a))
        expected = 6000 / cells
        chi2 = sum((n - expected) ** 2 / expected for n in got.values())
        assert chi2 < (cells - 1) + 4.5 * (2 * (cells - 1)) ** 0.5, (chi2, got)
