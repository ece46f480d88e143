"""Random whole games: a seeded player that plays a game of a ruleset from its deal to a win
(or a day limit) with random, legal-looking input, checking the engine's contract as it goes.

In every phase each player (the living and the dead) tries each skill they hold, their own,
their groups' and the acquired ones (``Game.skills_of``), now and then one of another phase,
with random targets (living, dead, themselves; the skill's count, now and then one off) and
random ``args`` drawn from the skill's documented keys with values of their kind (a role of
the ruleset for ``role``, a gift for ``gift``, a night step for ``point`` …); accepted
actions are sometimes withdrawn; in a vote phase every living player votes (for a living
player or to abstain) and some change their vote; now and then the director rules (an
answer, a void ballot, a red card, a substitute …). Then the phase is resolved.

The contract checked:

- an event the engine refuses raises ``GameError`` and leaves the game exactly as it was
  (its players, actions, ballots, data, what was told and announced, the clock);
- any other exception, and any exception while resolving a phase, is a bug;
- in every phase the director's view, each player's view (as JSON) and the exports can be
  built, and building them changes nothing;
- each game is played with the manifest's house rules or, in half the games, other values
  the manifest documents (``HOUSE_RULES``);
- at the end the recorded log, JSON-encoded as the store keeps it, replays from scratch to
  the same game (players, feedback, announcements, trace, winner and scores).

A failure names the ruleset and the seed (the game is fully determined by them) and carries
the event log, as the lines of a scenario file (docs/scenarios.md) that replays it:
``uv run python tests/robustness/random_games.py m217 SEED`` prints that file.
"""

from __future__ import annotations

import copy
import json
import random
import sys
import traceback
from typing import Any

import msgspec
from bansha.engine.deal import deal
from bansha.engine.engine import Game
from bansha.engine.model import (
    ActEvent,
    Event,
    GameError,
    ResolveEvent,
    RulingEvent,
    Setup,
    Skill,
    UnactEvent,
    VoteEvent,
)
from bansha.engine.registry import find_manifest, ruleset_for
from bansha.show.views import director_view, export_text, player_view

#: how many days a game may last before the player stops it (a game of random input seldom
#: gets that far: the ruleset's kills and votes end it first)
DAY_LIMIT = 9

#: values of the documented ``--arg`` keys, by key: (sensible values, or a callable of the
#: player taking (rng, game) and giving one)
ANSWERS = ["是", "否", "无法回答"]
GIFTS = ["验人", "毒药", "猎枪", "守护", "控制"]
PRIZES = ["出人票", "杀人", "通灵", "免疫", "沉默", "大奖", "1", "2", "3", "4", "5", "6"]
NOISE = ["", "x", "0", "-1", "17", "1.5", "甲乙", "a=b", "  ", "是", "否"]
#: house rules a game may be played with (each is changed from the manifest's default in half
#: the games): ruleset -> option -> the values its manifest documents
HOUSE_RULES: dict[str, dict[str, list[Any]]] = {
    "m217": {
        "win": ["屠边", "屠城"], "tie": ["平安日", "全部出局"], "fate_partial": [False, True],
        "gamble_vote": ["永久", "次日"], "swift": ["额外次数", "立即结算", "无"], "endure": ["无", "首日不可"],
        "two_faced_gods": [["强神", "弱神"], ["强神"], ["弱神"]],
    },
    "light-shadow": {
        "double_questions_day": [0, 1, 2], "guess_voids_earlier_questions": [False, True],
        "disqualification": ["game", "day"],
    },
    "qisha-xia": {
        "kill_teammate_allowed": [False, True], "reflected_kill_healable": [True, False],
        "block_order": ["暗侠-first", "submission"], "hallucination_same_target": [True, False],
        "hallucination_one_lapses_on_death": [True, False],
        "hallucination_two_announce_on_top_vote": [False, True], "blocked_use_spent": [False, True],
        "independent_clause_before_independence": ["satisfied", "neutrals-count"],
        "runoff_candidate_left": ["nobody-out", "count"], "weekend_extension": [True, False],
        "start_time": ["", "2024-05-03 20:00", "2024-05-06 20:00"],
    },
}


class SoakFailure(AssertionError):
    """A broken contract, with what it takes to replay the game."""


class RandomGame:
    def __init__(self, ref: str, seed: int, day_limit: int = DAY_LIMIT):
        self.ref, self.seed, self.day_limit = ref, seed, day_limit
        manifest = find_manifest(ref)
        self.ruleset = ruleset_for(manifest)
        table = manifest.tables[seed % len(manifest.tables)]
        names = [f"玩家{i:02d}" for i in range(1, table.seats + 1)]
        players = deal(self.ruleset, names, seed)
        self.rng = random.Random(f"soak/{manifest.id}/{seed}")
        options = {k: self.rng.choice(vs) for k, vs in HOUSE_RULES.get(manifest.id, {}).items()
                   if k in manifest.options and self.rng.random() < 0.5}
        self.setup = Setup(ruleset=manifest.id, manifest=manifest, players=players, seed=seed,
                           options=options, dealt_by=f"seed {seed}")
        self.game = Game(self.setup, self.ruleset)
        #: the accepted events, in order, and the label they were applied in
        self.log: list[Event] = []
        self.refused = 0
        self.subs = 0
        rs = self.ruleset
        self.roles = sorted(rs.roles)
        self.camps = [c.name for c in manifest.camps]
        self.skill_names = sorted({s.name for r in rs.roles.values() for s in r.skills})
        night = next((p for p in manifest.phases if p.name == "night"), None)
        self.points = [*(s.name for s in night.steps), "早夜", "午夜", "深夜", "凌晨"] if night else ["1"]
        self.death_rules = [*map(str, self.game.options.get("death_order", ()) or ()), "最先"]

    # ------------------------------------------------------------------ random input

    def pick(self, seq):
        seq = list(seq)
        return self.rng.choice(seq) if seq else None

    def player_names(self) -> list[str]:
        return list(self.game.players)

    def arg_value(self, key: str, desc: str, targets: list[str]) -> str:
        rng, g = self.rng, self.game
        if rng.random() < 0.08:
            return rng.choice([*NOISE, *self.roles[:3], *self.player_names()[:2]])
        if key == "role" and rng.random() < 0.4:
            # a guess that may be right: the role of the target, or of anyone at the table
            who = targets[0] if targets and rng.random() < 0.6 else self.pick(g.players)
            return g.players[who].role
        choices: dict[str, Any] = {
            "role": self.roles,
            "camp": self.camps,
            "armed": ["是", "否"],
            "number": ["1", "2"],
            "gift": GIFTS,
            "category": ["狼人", "强神", "弱神"],
            "prize": PRIZES,
            "after": self.death_rules,
            "point": self.points,
            "skill": self.skill_names,
            "top": ["狼", "神", *self.roles],
            "杀人": self.player_names(),
            "通灵": self.player_names(),
            "沉默": self.player_names(),
            "reflect": self.player_names(),
        }
        if key in choices:
            return str(rng.choice(choices[key]))
        if key == "effects":
            n = rng.choice([3, 3, 3, 2, 4])
            return ",".join(sorted(rng.sample("12345", n)))
        if key in ("question", "text"):
            long = 60 if key == "text" else 25
            return rng.choice(["他是狼吗", "我是好人", "？", "请问" * rng.randint(1, long // 2), "x" * long])
        if key == "post":
            return str(rng.randint(1, 300))
        return str(rng.choice([*self.roles, *self.player_names(), "1", "2"]))

    def args_for(self, actor: str, skill: Skill, targets: list[str]) -> dict[str, str]:
        rng, g = self.rng, self.game
        out: dict[str, str] = {}
        for key, desc in skill.args.items():
            if key.startswith("<"):
                # keys that are players' names (占星师<命运洪流>, 光影传说's 猜测): name -> a role;
                # a list that is all right now and then, else each line right by chance or half
                right = 1.0 if rng.random() < 0.1 else rng.choice([0.0, 0.5, 0.8])
                names = rng.sample(self.player_names(), rng.randint(1, min(5, len(g.players))))
                if rng.random() < 0.06:
                    # every player of another camp (光影传说's 猜测 of the whole enemy country)
                    mine = g.players[actor].camp
                    names = [n for n, q in g.players.items() if q.camp != mine] or names
                for name in names:
                    out[name] = g.players[name].role if rng.random() < right else self.pick(self.roles)
            elif rng.random() < 0.85:
                out[key] = self.arg_value(key, desc, targets)
        if rng.random() < 0.03:
            out[rng.choice(["x", "target", "role2"])] = self.pick(self.roles)  # a key the skill does not take
        return out

    def targets_for(self, actor: str, skill: Skill) -> list[str]:
        rng, g = self.rng, self.game
        hi = skill.max_targets if skill.max_targets is not None else skill.targets
        n = rng.randint(skill.targets, hi)
        if rng.random() < 0.07:
            n = max(0, n + rng.choice([-1, 1]))
        if hi >= 3 and rng.random() < 0.5:
            # a run of neighbours in the seat ring (面包师<芬芳>'s 电梯楼中连续X名角色)
            ring = [p.name for p in sorted(g.alive(), key=lambda p: p.seat)]
            if ring:
                start, n = rng.randrange(len(ring)), min(len(ring), rng.randint(max(1, skill.targets), min(hi, 5)))
                return [ring[(start + k) % len(ring)] for k in range(n)]
        living = [p.name for p in g.players.values() if p.alive and p.name != actor]
        dead = [p.name for p in g.players.values() if not p.alive]
        out: list[str] = []
        for _ in range(n):
            r = rng.random()
            if r < 0.08 or (not living and not dead):
                out.append(actor)
            elif r < 0.18 and dead:
                out.append(rng.choice(dead))
            elif living:
                out.append(rng.choice(living))
            else:
                out.append(rng.choice(dead))
        return out

    # ------------------------------------------------------------------ applying

    def state(self) -> Any:
        g = self.game
        return copy.deepcopy({
            "players": g.players, "actions": g.actions, "ballots": g.ballots, "seq": g.seq,
            "data": g.data, "feedback": g.feedback, "announcements": g.announcements,
            "trace": len(g.trace), "out": g.out, "winner": g.winner, "draw": g.draw,
            "scores": g.scores, "scheduled": g.scheduled, "last_use": g.last_use,
            "held": g.held, "rulings": g.rulings, "resolved": g.resolved, "label": g.label,
            "snapshots": sorted(g.snapshots), "pending_rewind": g.pending_rewind is not None,
        })

    def apply(self, ev: Event) -> bool:
        """Apply ``ev``: True if accepted, False if refused; a broken contract fails."""
        before = self.state()
        try:
            self.game.apply(ev)
        except GameError as exc:
            after = self.state()
            if after != before:
                changed = [k for k in before if before[k] != after[k]]
                self.fail(f"a refused event changed the game ({', '.join(changed)}): {describe(ev)}\n"
                          f"refusal: {exc}", ev)
            if isinstance(ev, ResolveEvent):
                self.fail(f"resolving {ev.phase} was refused: {exc}", ev)
            self.refused += 1
            return False
        except Exception:
            self.fail(f"{describe(ev)} raised\n{traceback.format_exc()}", ev)
        self.log.append(ev)
        return True

    def fail(self, what: str, ev: Event | None = None) -> None:
        log = [*self.log, *([ev] if ev is not None else [])]
        raise SoakFailure(
            f"{self.ref} seed {self.seed}, at {self.game.label}: {what}\n"
            f"replay: uv run python tests/robustness/random_games.py {self.ref} {self.seed}\n"
            f"the game as a scenario (the last event is the one that failed):\n{scenario_text(self, log)}"
        )

    # ------------------------------------------------------------------ playing

    def play(self) -> Game:
        g = self.game
        while g.winner is None and (g.day <= self.day_limit or g.phase.opening):
            self.play_phase()
        self.check_views()
        self.check_replay()
        return g

    def play_phase(self) -> None:
        g, rng = self.game, self.rng
        label = g.label
        tries: list[tuple[str, Skill]] = []
        for p in g.players.values():
            for skill, _ in g.skills_of(p).values():
                # the dead try mostly what they may still use (亡语, a last shot, a clock)
                usable = g.phase.name in skill.phases and (p.alive or skill.while_out)
                if usable or rng.random() < 0.08:
                    tries.append((p.name, skill))
        rng.shuffle(tries)
        for name, skill in tries:
            if g.winner is not None or g.label != label:
                return  # an immediate answer ended the game (or turned the clock back)
            if name not in g.players:
                continue  # the seat was taken by a substitute
            if rng.random() < 0.15:
                continue  # not everyone uses every skill every phase
            self.try_skill(name, skill, label)
            if rng.random() < 0.05:
                self.ruling(label)
        if g.phase.vote:
            self.votes(label)
        if rng.random() < 0.25:
            self.ruling(label)
        self.check_views()
        if g.winner is None and g.label == label:
            self.apply(ResolveEvent(phase=label))

    def try_skill(self, name: str, skill: Skill, label: str) -> None:
        rng = self.rng
        sent = skill.alias if skill.alias and rng.random() < 0.1 else skill.name
        for _ in range(rng.choice([1, 1, 1, 2])):
            targets = self.targets_for(name, skill)
            ev = ActEvent(phase=label, actor=name, skill=sent, targets=targets, args=self.args_for(name, skill, targets))
            if self.apply(ev):
                if not skill.immediate and rng.random() < 0.1:
                    self.apply(UnactEvent(phase=label, actor=name, skill=sent))
                else:
                    return

    def votes(self, label: str) -> None:
        g, rng = self.game, self.rng
        abstain = g.manifest.vote.abstain
        voters = list(g.players.values())
        rng.shuffle(voters)
        post = 0
        for p in voters:
            if g.winner is not None or g.label != label:
                return
            if not p.alive and rng.random() < 0.8:
                continue
            if rng.random() < 0.1:
                continue  # does not vote
            for change in (False, *([True] * rng.choice([0, 0, 0, 1, 2]))):
                living = [q.name for q in g.alive()]
                target = abstain if rng.random() < 0.12 or not living else rng.choice(living)
                post += rng.randint(1, 5)
                self.apply(VoteEvent(phase=label, voter=p.name, target=target, post=post, change=change,
                                     proxy=rng.random() < 0.05, late=rng.random() < 0.05))

    def ruling(self, label: str) -> None:
        g, rng = self.game, self.rng
        kinds = [k for k in g.ruleset.ruling_kinds if k != "draw"]
        kind = rng.choice(kinds)
        if kind in ("remove", "substitute") and rng.random() < 0.4:
            return  # rarer than the others: they take a player out or rename a seat
        who = self.pick(g.players) or ""
        asked = [ev.actor for ev in self.log[-60:] if isinstance(ev, ActEvent) and ev.actor in g.players]
        if kind in ("answer", "reask", "proclaim") and asked and rng.random() < 0.7:
            who = rng.choice(asked)  # someone who may have asked the director something
        text = ""
        if kind == "answer":
            text = rng.choice([*ANSWERS, "也许"])
        elif kind == "substitute":
            self.subs += 1
            text = f"替补{self.subs}"
        elif kind in ("announce", "proclaim", "remove", "void", "reask"):
            text = rng.choice(["公告", "格式有误", "我是预言家", ""])
        self.apply(RulingEvent(phase=label, kind=kind, player=who, text=text))

    def check_views(self) -> None:
        """What ``bansha status`` (the director's, each player's, as JSON) and ``bansha
        export`` print can be built, and building it changes nothing."""
        g = self.game
        before = self.state()
        try:
            views = [director_view(g), *(player_view(g, name) for name in g.players)]
            json.dumps(msgspec.to_builtins(views), ensure_ascii=False)
            export_text(g, "md"), export_text(g, "bbcode")
        except Exception:
            self.fail(f"a view of {g.label} raised\n{traceback.format_exc()}")
        if self.state() != before:
            self.fail(f"building the views of {g.label} changed the game")

    # ------------------------------------------------------------------ the replay

    def check_replay(self) -> None:
        """The log as the store keeps it (JSON) replays to the very same game."""
        setup = msgspec.json.decode(msgspec.json.encode(self.setup), type=Setup)
        events = [msgspec.json.decode(msgspec.json.encode(ev), type=Event) for ev in self.log]
        replayed = Game(setup)
        for i, ev in enumerate(events):
            try:
                replayed.apply(ev)
            except Exception as exc:  # noqa: BLE001 - any failure of a replay is the finding
                self.fail(f"the replay refused event {i + 1} ({describe(ev)}): {exc!r}")
        a, b = outcome(self.game), outcome(replayed)
        if a != b:
            diff = [k for k in a if a[k] != b[k]]
            self.fail(f"the replay differs in {', '.join(diff)}")


def outcome(g: Game) -> dict:
    return {
        "label": g.label,
        "players": msgspec.to_builtins(list(g.players.values())),
        "feedback": g.feedback,
        "announcements": g.announcements,
        "winner": g.winner,
        "draw": g.draw,
        "scores": g.scores,
        "out": g.out,
        "trace": [msgspec.to_builtins(t) for t in g.trace],
    }


def describe(ev: Event) -> str:
    return msgspec.json.encode(ev).decode()


# ---------------------------------------------------------------------- scenario text


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return msgspec.json.encode(value).decode()
    if isinstance(value, list):
        return "[" + ", ".join(map(_toml, value)) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_toml(str(k))} = {_toml(v)}" for k, v in value.items()) + " }"
    raise TypeError(value)


def scenario_text(rg: RandomGame, log: list[Event]) -> str:
    """The log as a scenario file: each run of one kind of input in a phase is one
    ``[[phases]]`` entry (``resolve = false`` but the last), so the order is kept."""
    lines = [f'ruleset = "{rg.setup.ruleset}"', f'title = "random game {rg.ref} seed {rg.seed}"',
             f"seed = {rg.seed}"]
    if rg.setup.options:
        lines += ["", "[options]", *(f"{_toml(k)} = {_toml(v)}" for k, v in rg.setup.options.items())]
    lines.append("")
    for p in rg.setup.players:
        lines += ["[[players]]", f"name = {_toml(p.name)}", f"role = {_toml(p.role)}"]
        if p.camp:
            lines.append(f"camp = {_toml(p.camp)}")
        if p.setup:
            lines.append(f"setup = {_toml(p.setup)}")
    segments: list[tuple[str, str, list[str]]] = []  # (phase, key, items)
    for ev in log:
        if isinstance(ev, ResolveEvent):
            segments.append((ev.phase, "resolve", []))
            continue
        if isinstance(ev, ActEvent):
            key, item = "actions", {"actor": ev.actor, "skill": ev.skill, "targets": ev.targets, "args": ev.args}
        elif isinstance(ev, UnactEvent):
            key, item = "actions", {"actor": ev.actor, "skill": ev.skill, "withdraw": True}
        elif isinstance(ev, VoteEvent):
            key, item = "votes", {"voter": ev.voter, "target": ev.target, "post": ev.post,
                                  "change": ev.change, "proxy": ev.proxy, "late": ev.late}
        else:
            key, item = "rulings", {"kind": ev.kind, "player": ev.player, "text": ev.text}
        item = {k: v for k, v in item.items() if v not in (None, False, [], {}, "")}
        if segments and segments[-1][0] == ev.phase and segments[-1][1] == key:
            segments[-1][2].append(_toml(item))
        else:
            segments.append((ev.phase, key, [_toml(item)]))
    for i, (phase, key, items) in enumerate(segments):
        if key == "resolve":
            if i and segments[i - 1][0] == phase and segments[i - 1][1] != "resolve":
                lines[-1:] = []  # the phase's last input entry resolves it
            else:
                lines += ["", "[[phases]]", f'phase = "{phase}"']
            continue
        lines += ["", "[[phases]]", f'phase = "{phase}"', f"{key} = [", *(f"  {x}," for x in items), "]",
                  "resolve = false"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    ref, seed = sys.argv[1], int(sys.argv[2])
    rg = RandomGame(ref, seed)
    try:
        rg.play()
    except SoakFailure as exc:
        print(exc)
        raise SystemExit(1) from None
    print(scenario_text(rg, rg.log))
    print(f"# {len(rg.log)} events, {rg.refused} refused, ended at {rg.game.label}, winner {rg.game.winner}",
          file=sys.stderr)
