"""A seeded command fuzzer over every installed ruleset (and the kernel's toy ruleset).

Each ruleset gets games created with the store, then a few hundred random commands through the
CLI: valid ones (skills the actor has, in their phase, on random targets; votes; rulings;
resolves) mixed with invalid ones (unknown names, wrong phase, dead actor, target counts,
malformed ``--arg``, a second vote, acting after the end …). For every command:

- the exit code is 0 or 2, never a traceback;
- on exit 2 the output is exactly one line ``error: …`` and the database is byte-identical;
- on exit 0 a write adds exactly one event (``undo`` drops one, a read adds none) and the
  stored game still replays.

Everything is drawn from ``random.Random`` with fixed seeds: a failure names the ruleset, the
seed and the last commands, and reproduces. ``BANSHA_FUZZ_SEEDS=N`` adds seeds 1..N (a
longer hunt; the default run keeps to one seed a ruleset, ~15 s).
"""

from __future__ import annotations

import os
import random
import sqlite3
from pathlib import Path

import pytest
import typer.main
import typer.testing
from bansha.authoring.scenario import load, setup_of
from bansha.cli.cli import app
from bansha.engine.deal import deal
from bansha.engine.model import Setup
from bansha.engine.registry import find_manifest, installed_manifests, ruleset_for
from bansha.store.store import Store
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]
TOY = str(ROOT / "tests" / "kernel" / "toy.toml")
#: the commands one ruleset gets, over as many games as it takes
BUDGET = 260
#: commands tried on a finished game before the next game starts
AFTER_END = 8
#: a game this long is left for a new one (every command replays the whole log)
MAX_EVENTS = 45
UNKNOWN = "无名氏"
RULINGS = ["remove", "announce", "answer", "substitute", "draw", "void", "accelerate", "delay", "bogus"]
WRITES = {"act", "unact", "vote", "resolve", "ruling"}
READS = {"status", "log", "export", "games"}


def names_for(n: int) -> list[str]:
    return [f"玩家{i:02d}" for i in range(1, n + 1)]


def first_setup(ref: str, seed: int) -> Setup:
    """A seeded deal from one of the manifest's tables, or (no table) a scenario's seats."""
    manifest = find_manifest(ref)
    rs = ruleset_for(manifest)
    if manifest.tables:
        table = manifest.tables[seed % len(manifest.tables)]
        players = deal(rs, names_for(table.seats), seed)
        return Setup(ruleset=manifest.id, manifest=manifest, players=players, seed=seed, dealt_by=f"seed {seed}")
    scenario = next(iter(sorted((ROOT / "tests" / "scenarios" / manifest.id).glob("*.toml"))))
    setup = setup_of(load(scenario), scenario.parent)
    return Setup(ruleset=setup.ruleset, manifest=setup.manifest, players=setup.players, seed=seed, dealt_by=str(scenario))


def db_bytes(db: Path) -> tuple:
    con = sqlite3.connect(db)
    try:
        return (con.execute("SELECT name, setup, created FROM games ORDER BY name").fetchall(),
                con.execute("SELECT game, seq, event FROM events ORDER BY game, seq").fetchall())
    finally:
        con.close()


class Fuzzer:
    def __init__(self, ref: str, seed: int, db: Path, name: str | None = None):
        """Drive games of ``ref`` in ``db``: the stored game ``name``, or new ones."""
        self.ref = ref
        self.rng = random.Random(seed)
        self.seed = seed
        self.db = db
        self.store = Store(db)
        self.runner = CliRunner()
        self.history: list[str] = []
        self.games = 0
        self.subs = 0
        self.length = 0
        if name is None:
            self.new_game()
        else:
            self.name, self.ended_for = name, 0
            self.g = self.store.load(name)
            self._names_of(self.g)

    # ------------------------------------------------------------------ helpers

    def new_game(self) -> None:
        self.games += 1
        self.name = f"g{self.games}"
        setup = first_setup(self.ref, self.seed * 100 + self.games)
        self.g = self.store.create(self.name, setup)
        self.ended_for = self.length = 0
        self._names_of(self.g)

    def _names_of(self, g) -> None:
        rs = g.ruleset
        self.roles = sorted({*rs.roles, *(r.alias for r in rs.roles.values() if r.alias)})
        self.camps = [c.name for c in g.manifest.camps]

    def pick(self, seq):
        seq = list(seq)
        return self.rng.choice(seq) if seq else None

    def value(self, g, key: str = "") -> str:
        r = self.rng.random()
        if r < 0.6 and key in ("role", "camp", "number"):
            # the usual keys get a value of their kind more often than not
            return {"role": self.pick(self.roles), "camp": self.pick(self.camps),
                    "number": str(self.rng.randint(1, 2))}[key] or "x"
        if r < 0.3:
            return self.pick(self.roles) or "x"
        if r < 0.5:
            return self.pick(self.camps) or "x"
        if r < 0.7:
            return self.pick(g.players)
        if r < 0.9:
            return str(self.rng.choice([0, 1, 2, 3, -1, 17]))
        return self.rng.choice(["", "甲乙", "--5", "²", "1.5", "true", "a=b", "  "])

    def args_for(self, g, skill) -> list[str]:
        out: list[str] = []
        for key in skill.args:
            if self.rng.random() < 0.7:
                out += ["--arg", f"{key}={self.value(g, key)}"]
        if self.rng.random() < 0.15:
            # keys a skill reads by player name (光影传说's 猜测), or any other key
            for _ in range(self.rng.randint(1, 3)):
                out += ["--arg", f"{self.pick(g.players)}={self.value(g)}"]
        return out

    def usable(self, g, alive_only: bool = True):
        """(player, skill) pairs of skills usable in the current phase."""
        pairs = []
        for p in g.players.values():
            for s, _ in g.skills_of(p).values():
                if g.phase.name in s.phases and (p.alive or (s.while_out and not alive_only)):
                    pairs.append((p, s))
        return pairs

    def targets(self, g, actor, skill, n: int, alive: float = 0.85) -> list[str]:
        pool = [q.name for q in g.players.values()
                if (q.alive or self.rng.random() > alive) and (q.name != actor.name or skill.may_target_self)]
        if self.rng.random() < 0.1:
            pool = list(g.players)  # self and the dead too
        if not pool:
            return []
        return [self.rng.choice(pool) for _ in range(n)] if len(pool) < n else self.rng.sample(pool, n)

    def skill_name(self, skill) -> str:
        return skill.alias if skill.alias and self.rng.random() < 0.2 else skill.name

    # ---------------------------------------------------------------- commands

    def valid(self, g) -> tuple[list[str], int | None]:
        over = g.winner is not None
        kind = self.rng.choices(["act", "vote", "resolve", "unact", "ruling", "read", "undo"],
                                [40, 18 if g.phase.vote else 2, 11, 4, 6, 4, 1])[0]
        if kind == "act":
            pair = self.pick(self.usable(g, alive_only=self.rng.random() < 0.9))
            if pair is None:
                kind = "resolve"
            else:
                p, s = pair
                hi = s.max_targets if s.max_targets is not None else s.targets
                n = self.rng.randint(s.targets, hi)
                cmd = ["act", self.name, p.name, self.skill_name(s), *self.targets(g, p, s, n), *self.args_for(g, s)]
                return cmd, 2 if over else None
        if kind == "vote":
            living = [p.name for p in g.alive()]
            voter = self.pick(living) or self.pick(g.players)
            target = self.pick([*living, g.manifest.vote.abstain])
            mine = any(b.voter == voter for b in g.ballots)
            cmd = ["vote", self.name, voter, target, "--post", str(self.rng.randint(1, 999))]
            if mine:
                cmd.append("--change")
            if self.rng.random() < 0.1:
                cmd.append(self.rng.choice(["--late", "--proxy"]))
            return cmd, 2 if over or not g.phase.vote else None
        if kind == "unact":
            a = self.pick(g.actions)
            if a is None:
                p, s = self.pick(self.usable(g)) or (self.pick(g.players.values()), None)
                return ["unact", self.name, p.name, s.name if s else "无技能"], 2
            return ["unact", self.name, a.actor, a.skill], 2 if over else None
        if kind == "ruling":
            k = self.rng.choice(RULINGS)
            who = self.pick(g.players) if self.rng.random() < 0.9 else ""
            cmd = ["ruling", self.name, k, who]
            if k == "substitute":
                self.subs += 1
                cmd += ["--text", self.rng.choice([f"替补{self.subs}", self.pick(g.players), ""])]
            elif k in ("announce", "answer", "void", "remove"):
                cmd += ["--text", self.rng.choice(["是", "否", "不知道", "格式有误", "公告", ""])]
            if self.rng.random() < 0.2:
                cmd += ["--arg", f"k={self.value(g)}"]
            if k == "draw" and self.rng.random() < 0.7:
                return self.valid(g)  # keep games going: a draw ends one
            return cmd, 2 if k == "bogus" else None
        if kind == "read":
            return self.rng.choice([
                ["status", self.name],
                ["status", self.name, "--as", self.pick(g.players), "--json"],
                ["log", self.name, "--explain"],
                ["log", self.name, "--json", "--explain"],
                ["export", self.name, "--format", self.rng.choice(["md", "bbcode", "json"])],
                ["games"],
            ]), 0
        if kind == "undo":
            return ["undo", self.name, "--yes"], None
        return ["resolve", self.name], 2 if over else None

    def invalid(self, g) -> tuple[list[str], int | None]:
        """A command that must be refused (expected exit 2), or one that may be (None)."""
        kind = self.rng.choice([
            "unknown actor", "unknown skill", "unknown game", "dead actor", "wrong phase",
            "too many targets", "too few targets", "unknown target", "malformed arg",
            "vote twice", "change twice", "dead voter", "vote unknown", "vote no phase",
            "unknown ruling", "remove dead", "substitute taken", "bad format", "new taken",
            "new unknown ruleset", "new bad count", "read unknown", "unact nothing", "same target twice",
            "substitute",
        ])
        living = [p.name for p in g.alive()]
        dead = [p.name for p in g.players.values() if not p.alive]
        pair = self.pick(self.usable(g))
        anyone = self.pick(g.players)
        skill_any = self.pick({s.name for p in g.players.values() for s, _ in g.skills_of(p).values()}) or "无技能"
        if kind == "unknown actor":
            return ["act", self.name, UNKNOWN, skill_any, anyone], 2
        if kind == "unknown skill":
            return ["act", self.name, anyone, "不存在的技能", anyone], 2
        if kind == "unknown game":
            verb = self.rng.choice(["act", "vote", "unact", "resolve", "status", "undo", "log", "export"])
            return [verb, "nogame", *([anyone, anyone] if verb in ("act", "vote", "unact") else [])], 2
        if kind == "dead actor" and dead:
            p = g.players[self.pick(dead)]
            skills = [s for s, _ in g.skills_of(p).values() if not s.while_out]
            if skills:
                s = self.pick(skills)
                return ["act", self.name, p.name, s.name, *self.targets(g, p, s, s.targets)], 2
        if kind == "wrong phase":
            pairs = [(p, s) for p in g.alive() for s, _ in g.skills_of(p).values() if g.phase.name not in s.phases]
            if pairs:
                p, s = self.pick(pairs)
                return ["act", self.name, p.name, s.name, *self.targets(g, p, s, s.targets)], 2
        if kind == "too many targets" and pair:
            p, s = pair
            hi = s.max_targets if s.max_targets is not None else s.targets
            n = hi + self.rng.randint(1, 2)
            return ["act", self.name, p.name, s.name, *self.rng.choices(living, k=n)], 2
        if kind == "too few targets" and pair and pair[1].targets > 0:
            p, s = pair
            return ["act", self.name, p.name, s.name, *self.targets(g, p, s, s.targets - 1)], 2
        if kind == "unknown target" and pair:
            p, s = pair
            return ["act", self.name, p.name, s.name, UNKNOWN, *self.targets(g, p, s, max(s.targets - 1, 0))], 2
        if kind == "malformed arg" and pair:
            p, s = pair
            bad = self.rng.choice(["oops", "=v", "", "=", "无等号"])
            return ["act", self.name, p.name, s.name, *self.targets(g, p, s, s.targets), "--arg", bad], 2
        if kind == "vote twice" and g.ballots:
            b = self.pick(g.ballots)
            return ["vote", self.name, b.voter, self.pick([*living, g.manifest.vote.abstain])], 2
        if kind == "change twice" and g.ballots:
            b = self.pick(g.ballots)
            return ["vote", self.name, b.voter, self.pick([*living, g.manifest.vote.abstain]), "--change"], None
        if kind == "dead voter" and dead and living:
            return ["vote", self.name, self.pick(dead), self.pick(living)], 2
        if kind == "vote unknown" and living:
            return ["vote", self.name, self.pick(living), UNKNOWN], 2
        if kind == "vote no phase" and not g.phase.vote and living:
            return ["vote", self.name, self.pick(living), self.pick(living)], 2
        if kind == "same target twice" and pair and living:
            p, s = pair
            hi = s.max_targets if s.max_targets is not None else s.targets
            return ["act", self.name, p.name, s.name, *[self.pick(living)] * max(hi, 2)], None
        if kind == "substitute" and (g.actions or g.ballots):
            # a seat with a pending action or vote changes hands (the phase must still resolve)
            self.subs += 1
            who = self.pick([a.actor for a in g.actions] + [b.voter for b in g.ballots])
            return ["ruling", self.name, "substitute", who, "--text", f"替补{self.subs}"], None
        if kind == "unknown ruling":
            return ["ruling", self.name, "不存在的裁决", anyone], 2
        if kind == "remove dead" and dead:
            return ["ruling", self.name, "remove", self.pick(dead)], 2
        if kind == "substitute taken":
            return ["ruling", self.name, "substitute", anyone, "--text", self.pick(g.players)], 2
        if kind == "bad format":
            return ["export", self.name, "--format", "pdf"], 2
        if kind == "new taken":
            return ["new", self.name, "--ruleset", self.ref, "--players", ",".join(g.players)], 2
        if kind == "new unknown ruleset":
            return ["new", "h", "--ruleset", "没有这个规则", "--players", "甲,乙"], 2
        if kind == "new bad count":
            return ["new", "h", "--ruleset", self.ref, "--players", ",".join(names_for(self.rng.randint(1, 3)))], 2
        if kind == "read unknown":
            return ["status", self.name, "--as", UNKNOWN], 2
        if kind == "unact nothing" and pair:
            p, s = pair
            if not any(a.actor == p.name and a.skill == s.name for a in g.actions) and not s.group:
                return ["unact", self.name, p.name, s.name], 2
        return ["act", self.name, UNKNOWN, "不存在的技能"], 2

    # -------------------------------------------------------------------- run

    def step(self) -> None:
        g = self.g
        if g.winner is not None:
            self.ended_for += 1
        if self.ended_for > AFTER_END or self.length > MAX_EVENTS:
            self.new_game()
            g = self.g
        cmd, expect = self.valid(g) if self.rng.random() < 0.7 else self.invalid(g)
        self.history.append(" ".join(cmd))
        before = db_bytes(self.db)
        r = self.runner.invoke(app, [*cmd, "--db", str(self.db)])
        where = f"{self.ref} (fuzz seed {self.seed}), command {len(self.history)}: bansha {' '.join(cmd)}\n" \
                f"last commands:\n  " + "\n  ".join(self.history[-12:]) + f"\noutput:\n{r.output}"
        if r.exception is not None and not isinstance(r.exception, SystemExit):
            import traceback

            tb = "".join(traceback.format_exception(r.exception))
            pytest.fail(f"traceback on {where}\n{tb}")
        assert r.exit_code in (0, 2), where
        if expect is not None:
            assert r.exit_code == expect, f"expected exit {expect}: {where}"
        after = db_bytes(self.db)
        if r.exit_code == 2:
            lines = r.output.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith(("error: ", "错误：")), f"not one error line: {where}"
            assert after == before, f"a refused command changed the database: {where}"
            return
        verb = cmd[0]
        if verb in READS:
            assert after == before, f"a read changed the database: {where}"
        elif verb in WRITES:
            assert len(after[1]) == len(before[1]) + 1, f"a write did not add one event: {where}"
        elif verb == "undo":
            assert len(after[1]) == len(before[1]) - 1, where
        self.g = self.store.load(self.name)  # the stored game still replays
        self.length = sum(1 for row in after[1] if row[0] == self.name)


RULESETS = [*sorted(installed_manifests()), TOY]
#: ``BANSHA_FUZZ_SEEDS=20 uv run pytest tests/robustness`` also runs seeds 1..20 of each ruleset
SEEDS = [None, *range(1, int(os.environ.get("BANSHA_FUZZ_SEEDS", "0")) + 1)]


@pytest.mark.parametrize("seed", SEEDS, ids=lambda s: "default" if s is None else f"seed{s}")
@pytest.mark.parametrize("ref", RULESETS, ids=lambda r: Path(r).stem)
def test_fuzzed_commands_never_corrupt_a_game(ref, seed, tmp_path, monkeypatch):
    # build the click command once, not on every invoke (a fifth of the fuzzer's time)
    command = typer.main.get_command(app)
    monkeypatch.setattr(typer.testing, "_get_command", lambda _app: command)
    fz = Fuzzer(ref, seed=sum(map(ord, Path(ref).stem)) if seed is None else seed, db=tmp_path / "games.db")
    for _ in range(BUDGET):
        fz.step()
    # the fuzzer must have got past the first phase
    assert fz.games > 1 or fz.g.resolved, fz.history
