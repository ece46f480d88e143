"""The m217 rules' shortcuts on the hot path answer as their plain definitions do (issue 33,
pass 5: m217's hooks). Each plain definition below is the code as it was before the shortcut:

- the win check (``bansha_check_win``, with the 赌徒's and the 暗恋者's win handlers and the board's
  ``category``), asked after every resolution of seeded simulated games, and again on each such
  state with players taken out, camps changed and categories set at random (both answers);
- the checks asked of every action and every choice the listing tries (the rules' lost skills and
  [亡语], ``refuse_unknown_args``, the director's red card and ``question``, 面包师's 芬芳 and
  tonight's bread), in the same games;
- ``active`` / ``has`` / ``forgotten`` on random statuses, ``skill_of`` against
  ``Game.find_skill``, 面包师's ``consecutive`` on random rings.

Each fails if its shortcut answers otherwise (a category read from the wrong pool, a 亡语 or
question skill left out of its name set, a status of a lost 强制 skill kept ...)."""

import random

import bansha_m217_baker as baker
import bansha_m217_director as director
import bansha_m217_helpers as helpers
import bansha_m217_rules as rules
import pytest
from bansha import Status
from bansha.engine.engine import Game, GameError
from bansha.engine.model import Action, Player
from bansha.engine.registry import find_manifest, ruleset_for
from bansha_m217_helpers import (
    DARK_LOVERS,
    VILLAGE,
    WOLF,
    exit_of,
    forced_on,
    parts,
    phase_zh,
    window,
)
from bansha_sim.play import play_game

# ----------------------------------------------------------------------- plain definitions


def plain_forgotten(p) -> bool:
    return any("遗忘" in parts(s.name) for s in p.statuses)


def plain_active(p) -> list:
    lost = set(p.data.get("m217.lost", ()))
    return [s for s in p.statuses
            if not (s.data.get("forced") and (plain_forgotten(p) or s.data["forced"] in lost))]


def plain_has(p, effect: str) -> bool:
    return any(effect in parts(s.name) for s in plain_active(p))


def plain_category(game, p):
    if p.data.get("m217.category"):
        return p.data["m217.category"]
    for t in game.manifest.tables:
        for pool in t.pools:
            if p.role in pool.roles:
                return pool.name
    return None


def plain_gambler_win(game):
    players = list(game.players.values())
    for p in players:
        mine = [q for q in players if q.camp == p.camp]
        if p.role == "赌徒" and p.camp == "三方阵营" and any(q.alive for q in mine) and all(not q.alive for q in players if q.camp != p.camp):
            return [p.camp]
    return None


def plain_admirer_win(game):
    import bansha_m217_secret_admirer as admirer

    camps = []
    for p in admirer.ring(game):
        sides = p.data.get("暗恋者.sides")
        if not sides or p.data.get("暗恋者.letter") or not forced_on(game, p, "跨越千里"):
            continue
        if any(side and not any(admirer.by_seat(game, s).alive for s in side) for side in sides):
            if p.camp not in camps:
                camps.append(p.camp)
    return camps


def plain_grandpa_win(game):
    for p in game.players.values():
        heretics = p.data.get("m217.异端")
        if p.role == "宗教老爷爷" and p.camp == "三方阵营" and heretics and not any(game.player(n).alive for n in heretics):
            return ["三方阵营"]
    return None


def plain_mirror_win(game):
    import bansha_m217_mirror as mirror

    alive = len(game.alive())
    for p in game.players.values():
        if p.role == "镜" and p.alive and p.camp == "三方阵营":
            if len(p.data.get(mirror.COUNTED, ())) + p.data.get(mirror.KILLS, 0) > alive:
                return [p.camp]
    return None


PLAIN_WINS = {"m217.win.赌徒": plain_gambler_win, "m217.win.暗恋者": plain_admirer_win,
              "m217.win.宗教老爷爷": plain_grandpa_win, "m217.win.镜": plain_mirror_win}


def plain_holders(game, skill: str, *, alive: bool = True) -> list:
    return [p for p in sorted(game.players.values(), key=lambda p: p.seat)
            if (p.alive or not alive) and helpers.holds(game, p, skill)]


def plain_check_win(game):
    players = list(game.players.values())
    wolves = [p for p in players if p.camp == WOLF]
    village = [p for p in players if p.camp == VILLAGE]
    hostile = [p for p in players if p.camp in (WOLF, DARK_LOVERS)]
    winners = []
    if wolves and not any(p.alive for p in hostile) and any(p.alive for p in village):
        winners.append(VILLAGE)
    if any(p.alive for p in wolves):
        if game.option("win") == "屠城":
            sides = [village]
        else:
            sides = [[p for p in village if plain_category(game, p) in ("验人系", "强神")],
                     [p for p in village if plain_category(game, p) == "弱神"]]
        if any(side and not any(p.alive for p in side) for side in sides):
            winners.append(WOLF)
    for name, handler in game.ruleset.handlers_under("m217.win."):
        for camp in PLAIN_WINS.get(name, handler)(game) or ():
            if camp not in winners:
                winners.append(camp)
    hold = game.ruleset.handlers.get("m217.hold-end")
    if winners and hold is not None and hold(game, winners):
        return []
    return winners or None


def plain_rules_check(game, action):
    p = game.player(action.actor)
    if action.skill in p.data.get("m217.lost", ()):
        return f"{p.name}已失去{action.skill}"
    skill, _ = game.find_skill(p, action.skill)
    if "亡语" in skill.tags:
        gone = exit_of(game, p.name) if not p.alive else None
        if not gone or window(game, gone[0], skill.phases) != game.label:
            return f"{skill.name}是[亡语]技能：在持有者出局后的第一个{'/'.join(phase_zh(game, ph) for ph in skill.phases)}发动"
    return None


def plain_refuse_unknown_args(game, action):
    skill, _ = game.find_skill(game.player(action.actor), action.skill)
    if any(k.startswith("<") for k in skill.args):
        return None
    unknown = [k for k in action.args if k not in skill.args and k != "by"]
    if unknown:
        takes = "、".join(f"--arg {k}=…" for k in skill.args) or "不带 --arg"
        return f"{skill.name}：没有参数 --arg {unknown[0]}（{skill.name}可用：{takes}）"
    return None


def plain_director_check(game, action):
    p = game.player(action.actor)
    if director.sent_off(p):
        return f"{p.name}已被红牌罚下，不能发动任何技能"
    skill, _ = game.find_skill(p, action.skill)
    if "question" in skill.args and not action.args.get("question"):
        return f"{skill.name}须给出 --arg question=…"
    return None


def plain_baker_check(game, action):
    if action.skill == "芬芳":
        x = baker.bread_count(game)
        if len(action.chosen) != x or not plain_consecutive(game, action.chosen):
            return f"芬芳须选择电梯楼中连续的{x}名存活角色（存活人数/4，四舍五入）"
        return None
    sent = [a for a in game.actions if a.skill == "芬芳" and not a.void] if game.phase.name == "night" else []
    holders = sent[-1].chosen if sent else None
    if holders is None:
        return None
    p = game.player(action.actor)
    skill = game.skills_of(p).get(action.skill, (None,))[0]
    if skill is not None and skill in baker.bound(game, p) and not set(action.chosen) <= set(holders):
        return f"芬芳：今晚{action.skill}只能选择{'、'.join(holders)}"
    return None


def plain_consecutive(game, names) -> bool:
    ring = [p.name for p in sorted(game.alive(), key=lambda p: p.seat)]
    n, want = len(ring), set(names)
    if len(want) != len(names) or not want <= set(ring):
        return False
    return any({ring[(i + k) % n] for k in range(len(names))} == want for i in range(n))


# ------------------------------------------------------------------ in seeded simulated games


#: skills whose holders the role plugins ask (``holders``) at phase starts and exits
HELD = ("九尾", "主宰黑夜", "寻仇", "杀人", "日", "埋伏")


def perturbed(game, rng):
    """The players' life, camp, role and category changed at random (restored by the returned
    undo): a side of the village nobody is in, a 赌徒 of another camp ..."""
    saved = [(p, p.alive, p.camp, p.role, dict(p.data)) for p in game.players.values()]
    table = game.players
    if rng.random() < 0.3:  # the table in another order than the seats'
        game.players = dict(rng.sample(list(table.items()), len(table)))
    camps = [WOLF, VILLAGE, DARK_LOVERS, "三方阵营"]
    kinds = ["验人系", "强神", "弱神", "狼人", ""]
    every = rng.choice(kinds) if rng.random() < 0.3 else None  # one category for all
    for p in game.players.values():
        if rng.random() < 0.4:
            p.alive = not p.alive
        if rng.random() < 0.3:
            p.camp = rng.choice(camps)
        if every is not None or rng.random() < 0.2:
            p.data["m217.category"] = every if every is not None else rng.choice(kinds)
        if rng.random() < 0.05:
            p.role = "赌徒"
    players = sorted(game.players.values(), key=lambda p: p.seat)
    if rng.random() < 0.3:  # one camp left in the game
        camp = rng.choice(camps)
        for p in players:
            p.alive = p.alive and p.camp == camp
    if rng.random() < 0.2:  # a 镜 of many kills, a 宗教老爷爷 and his heretics
        p, q = rng.sample(players, 2)
        p.role, p.camp, p.data = "镜", "三方阵营", {**p.data, "m217.镜.kills": rng.randint(0, len(players))}
        q.role, q.camp = "宗教老爷爷", rng.choice(["三方阵营", "三方阵营", *camps])
        q.data = {**q.data, "m217.异端": [r.name for r in rng.sample(players, rng.randint(0, 3))]}
    if rng.random() < 0.3:  # a 暗恋者 and the two sides of the ring his choice made
        p = rng.choice(players)
        p.role, p.alive = "暗恋者", True
        p.data = {k: v for k, v in p.data.items() if k not in ("m217.lost", "暗恋者.letter")}
        seats = [q.seat for q in players]
        i, j = sorted(rng.sample(range(len(seats)), 2))
        p.data["暗恋者.sides"] = [seats[i + 1:j], seats[j + 1:] + seats[:i]]

    def undo():
        game.players = table
        for p, alive, camp, role, data in saved:
            p.alive, p.camp, p.role, p.data = alive, camp, role, data

    return undo


@pytest.fixture
def compared():
    """The rules' win check and the three undeclared checks replaced, while the test runs, by
    wrappers that ask the plain definition too and require the same answer; counts by answer."""
    rs = ruleset_for(find_manifest("m217"))
    rng = random.Random(217)
    seen: dict = {}
    plain = {rules.bansha_check_win: plain_check_win, rules.bansha_validate_action: plain_rules_check,
             rules.refuse_unknown_args: plain_refuse_unknown_args, director.bansha_validate_action: plain_director_check,
             baker.bansha_validate_action: plain_baker_check}
    wrapped = []
    for hook in ("bansha_check_win", "bansha_validate_action"):
        for impl in getattr(rs.pm.hook, hook).get_hookimpls():
            fn = impl.function
            if fn not in plain:
                continue

            def call(*args, fn=fn, want=plain[fn], **kw):
                got = fn(*args, **kw)
                assert got == want(*args, **kw), (fn.__name__, args, kw)
                seen[fn.__name__, got is None] = seen.get((fn.__name__, got is None), 0) + 1
                if fn is rules.bansha_check_win:
                    game = (args or (kw["game"],))[0]
                    for _ in range(3):  # the same state with other players out, other camps
                        undo = perturbed(game, rng)
                        try:
                            other = fn(game)
                            assert other == plain_check_win(game)
                            for name, plain_win in PLAIN_WINS.items():  # each handler, not only the union
                                assert rs.handlers[name](game) == plain_win(game), name
                            for skill in HELD:
                                for alive in (True, False):
                                    assert (helpers.holders(game, skill, alive=alive)
                                            == plain_holders(game, skill, alive=alive)), skill
                            seen["perturbed", other is None] = seen.get(("perturbed", other is None), 0) + 1
                        finally:
                            undo()
                return got

            wrapped.append((impl, fn))
            impl.function = call
    rs.hooks.reset()  # the hooks' plans hold the functions they found: made again with the wrappers
    yield seen
    for impl, fn in wrapped:
        impl.function = fn
    rs.hooks.reset()


@pytest.mark.parametrize("policy", ["random", "informed"])
def test_the_win_check_and_the_undeclared_checks_answer_as_their_plain_definitions(compared, policy):
    for seed in range(8):
        play_game("m217", 14, seed, policy)
    for name in ("bansha_check_win", "bansha_validate_action", "refuse_unknown_args", "perturbed"):
        assert compared.get((name, True), 0) > 0, (name, compared)  # each asked
    for name in ("bansha_check_win", "perturbed"):
        # a winner, and none (the checks' refusals: the test below, every skill of the board)
        assert compared.get((name, False), 0) > 0, (name, compared)


def test_the_checks_answer_their_plain_definitions_for_every_skill_and_args():
    """Every skill of the board, held by a player of its role, with no args, a question, none,
    an unknown arg and ``by``; the skill lost, the player sent off or out (亡语)."""
    record = play_game("m217", 14, 3, "random", keep=True)
    game = Game(record["setup"])
    for ev in record["events"][: len(record["events"]) // 2]:
        game.apply(ev)
    p = next(iter(game.players.values()))
    rs = game.ruleset
    answered = set()
    for role in rs.roles.values():
        for skill in role.skills:
            saved = (p.role, dict(p.data), p.alive)
            p.role = role.name
            for args in ({}, {"question": "是否"}, {"question": ""}, {"nosuch": "1"}, {"by": "x"}):
                for lost, red, alive in ((False, False, True), (True, False, True), (False, True, False)):
                    p.data = dict(saved[1], **({"m217.lost": [skill.name]} if lost else {}),
                                  **({"m217.red": True} if red else {}))
                    p.alive = alive
                    a = Action(actor=p.name, skill=skill.name, args=args, seq=1)
                    for fn, want in ((rules.bansha_validate_action, plain_rules_check),
                                     (rules.refuse_unknown_args, plain_refuse_unknown_args),
                                     (director.bansha_validate_action, plain_director_check)):
                        got = fn(game, a)
                        assert got == want(game, a), (role.name, skill.name, args, lost, red)
                        answered.add((fn.__name__, got is None))
            p.role, p.data, p.alive = saved
    assert len(answered) == 4  # two checks, each answering both ways


def test_statuses_in_effect_as_defined():
    rng = random.Random(5)
    names = [*helpers.COMPOUND, *helpers.NEGATIVE, "守护", "不死", "隐身", "霸道"]
    forced = ["", "", "埋伏", "九尾", "日"]
    seen = set()
    for _ in range(3000):
        p = Player(name="P", seat=1, role="平民", camp=VILLAGE)
        p.statuses = [Status(name=rng.choice(names), data={"forced": f} if (f := rng.choice(forced)) else {})
                      for _ in range(rng.randint(0, 4))]
        if rng.random() < 0.5:
            p.data["m217.lost"] = rng.sample(forced[2:], rng.randint(0, 2))
        assert helpers.forgotten(p) == plain_forgotten(p)
        assert helpers.active(p) == plain_active(p)
        for effect in names:
            assert helpers.has(p, effect) == plain_has(p, effect)
        seen.add((plain_forgotten(p), len(plain_active(p)) < len(p.statuses)))
    assert len(seen) == 4


def test_a_skill_by_name_is_the_one_find_skill_finds():
    game = Game(play_game("m217", 14, 1, "random", keep=True)["setup"])
    rs = game.ruleset
    rng = random.Random(8)
    roles = list(rs.roles.values())
    names = {k for r in roles for s in r.skills for k in (s.name, s.alias) if k} | {"不是技能"}
    found = 0
    for role in roles:
        p = Player(name="P", seat=1, role=role.name, camp=VILLAGE, groups=rng.sample(["狼人", "狼人"], rng.randint(0, 1)))
        for other in rng.sample(roles, 3):
            for s in other.skills[:1]:
                p.acquired[s.name] = other.name
        for name in names:
            try:
                want = game.find_skill(p, name)[0]
            except GameError:
                continue  # (the checks are asked only of a skill the player holds)
            assert helpers.skill_of(game, p, name) is want
            found += 1
    assert found > 100


def test_a_run_of_seats_as_defined():
    rng = random.Random(14)
    seen = set()
    for _ in range(2000):
        n = rng.randint(1, 14)
        game = Game.__new__(Game)
        game.players = {f"P{i}": Player(name=f"P{i}", seat=i, role="平民", camp=VILLAGE, alive=rng.random() < 0.8)
                        for i in range(n)}
        alive = [p.name for p in game.alive()]
        names = rng.sample(alive, rng.randint(0, len(alive))) if rng.random() < 0.9 else ["P0", "P0"][: rng.randint(0, 2)]
        if alive and rng.random() < 0.5:  # a run, most of the time
            start, x = rng.randrange(len(alive)), rng.randint(0, len(alive))
            names = [alive[(start + k) % len(alive)] for k in range(x)]
        got = baker.consecutive(game, names)
        assert got == plain_consecutive(game, names), (alive, names)
        seen.add(got)
    assert seen == {True, False}
