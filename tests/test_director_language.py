"""Every line a director reads on a shipped board is in the board's language (issue 20, item 8):
`log` and `log --explain` (the kernel's ruling trace), `rulings`, `post` and `pm` of every
phase, `amend` and `undo --to` and the refusals of the engine, each played in a real process on
each board's demo game (m217, qisha-xia, light-shadow), and the simulator's report.

Stricter than tests/test_cli_language.py: no phase label (``night 2``: the board says 第2天 夜晚),
no event field (``phase=``), no kernel word (``vote``, ``voided``, ``is out``) and no Python repr
(``['阿Q']``) may appear. Allowed: the players' names, what the director typed, the option
words a hint quotes (``--phase``), and the rule document's own words (YES, Discuz!)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from bansha.authoring.scenario import load, run
from bansha.engine import history
from bansha.store.store import open_store

#: each board's demo script, beside its manifest (rulesets/<board>/bansha_<board>/demos)
DEMOS = {f.name: f for f in (Path(__file__).resolve().parents[1] / "rulesets").glob("*/*/demos/*.toml")}
#: an ASCII word; a letter after a digit is a numbered sub-step of a document (M217's 深夜14b)
WORD = re.compile(r"(?<![0-9])[A-Za-z][A-Za-z0-9_]*")
REPR = re.compile(r"""[\[{(]['"]|['"][\]})]|\[\]|\{\}|\(\)|\bset\(|(?<![\d.])\d+\.0(?![\d.])""")
#: the option words a refusal's hint quotes, and the rule documents' own ASCII words
QUOTED = {"phase", "play", "undo", "to", "act", "unact", "vote", "text", "yes", "YES", "Discuz", "PLAYER", "M217"}


def bansha(db: Path, *args: str) -> subprocess.CompletedProcess:
    exe = Path(sys.executable).parent / "bansha"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "bansha.cli.cli"]
    env = {k: v for k, v in os.environ.items() if k != "BANSHA_LANG"} | {"BANSHA_DB": str(db)}
    return subprocess.run([*cmd, *args], capture_output=True, text=True, env=env)


def english(text: str, allowed: set[str]) -> list[str]:
    bad = [f"English {w!r}" for w in WORD.findall(text) if w not in allowed]
    return bad + [f"repr {m.group()!r}" for m in REPR.finditer(text)]


@pytest.mark.parametrize("demo", ["m217-demo.toml", "qisha-xia.toml", "light-shadow.toml"])
def test_every_director_command_speaks_the_board_language(tmp_path, demo):
    game = run(load(DEMOS[demo]), DEMOS[demo].parent)
    db = tmp_path / "g.db"
    store = open_store(str(db))
    store.create("g", game.setup)
    for ev in game.applied:
        store.append("g", ev)
    allowed = QUOTED | {w for n in game.players for w in WORD.findall(n)}
    allowed |= {w for s in game.manifest.alias for w in WORD.findall(s)} | set(WORD.findall(game.manifest.id))
    allowed |= set(game.ruleset.ruling_kinds)  # the kinds the director types: `bansha ruling g remove 甲`
    # the argument keys a skill takes, typed as `--arg reflect=黑二`
    allowed |= {k for role in game.ruleset.roles.values() for sk in role.skills for k in sk.args}
    outputs: dict[str, str] = {}

    def say(*args: str, code: int | None = 0) -> str:
        r = bansha(db, *args)
        if code is not None:
            assert r.returncode == code, (args, r.stdout, r.stderr)
        outputs[" ".join(args)] = r.stdout + r.stderr
        return r.stdout + r.stderr

    say("log", "g")
    explain = say("log", "g", "--explain")
    assert "is out" not in explain and "count:" not in explain and "phase=" not in explain
    say("rulings", game.manifest.id)
    g, _ = history.replay(game.setup, list(game.applied))
    for label in history.played(g):
        name = g.named(label)
        say("post", "g", "--phase", name, "--format", "text", code=None)
        say("pm", "g", "--phase", name, "--all", code=None)
    # refusals of the engine and of the loop, with the phase as the board names it
    last = g.resolved[-1]
    say("act", "g", next(iter(g.players)), "不存在的技能", "--phase", "第1天", code=2)
    say("amend", "g", "--phase", g.named(g.label) if g.label not in g.resolved else "第99天", "vote",
        *list(g.players)[:2], code=2)
    say("undo", "g", "--to", "第99天", code=2)
    say("undo", "g", "--to", g.named(last))
    problems = {cmd: english(out, allowed) for cmd, out in outputs.items()}
    problems = {cmd: sorted(set(p)) for cmd, p in problems.items() if p}
    assert not problems, problems


def test_the_simulators_report_names_causes_in_the_board_language(tmp_path):
    r = bansha(tmp_path / "g.db", "simulate", "mafia-basic", "--games", "20", "--seed", "1", "--jobs", "1")
    assert r.returncode == 0, r.stderr
    causes = next(line for line in r.stdout.splitlines() if line.startswith("死因："))
    assert "投票出局" in causes and not WORD.findall(causes), causes
