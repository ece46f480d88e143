"""Shipped roles re-expressed as homebrew roles play the shipped roles' scenarios alike.

Each board file here declares some of a shipped board's roles as ``[[homebrew]]`` roles (the
same names, steps and skills, their effects chosen from the board's cards) over the board itself
(``extends``). Every scenario of the board that deals one of them is played twice — on the
shipped board (the Python plugins) and on the homebrew board — and must pass on both with the
same outcome: every announcement, every player's feedback, who is in the game, the winner.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from bansha.authoring import scenario
from bansha.engine.registry import find_manifest, ruleset_for

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
BOARDS = {
    "m217": HERE / "m217-homebrew.toml",
    "qisha-xia": HERE / "qisha-xia-homebrew.toml",
    "light-shadow": HERE / "light-shadow-homebrew.toml",
}


def homebrew_roles(board: Path) -> set[str]:
    m = find_manifest(str(board))
    return {d["name"] for d in m.homebrew} | {d.get("alias", "") for d in m.homebrew} - {""}


def cases():
    for ruleset, board in BOARDS.items():
        roles = homebrew_roles(board)
        for path in sorted((ROOT / "tests" / "scenarios" / ruleset).glob("*.toml")):
            sc = scenario.load(path)
            if sc.ruleset == ruleset and any(p.role in roles for p in sc.players):
                yield pytest.param(path, board, id=f"{ruleset}/{path.stem}")


#: refusals the Python plugin words in its own name where the board's rule for every skill of
#: the kind says "its holder" (猎人's "最后一枪是[亡语]技能：在猎人出局后…", the m217 rules'
#: "…在持有者出局后…" for any [亡语] skill), or names a limit its own way: the same refusal, in
#: the general wording
WORDING = {"在猎人出局后": "在持有者出局后",
           # 魔术师's [绝情] in its words, the homebrew limit once_per_target in the kernel's
           "已被选择过交换（[绝情]）": "已被选择过（每名玩家仅可被选择一次）"}


def reworded(sc):
    phases = []
    for ph in sc.phases:
        actions = []
        for a in ph.actions:
            if a.expect_error:
                for old, new in WORDING.items():
                    a = msgspec.structs.replace(a, expect_error=a.expect_error.replace(old, new))
            actions.append(a)
        phases.append(msgspec.structs.replace(ph, actions=actions))
    return msgspec.structs.replace(sc, phases=phases)


def outcome(game):
    return {
        "announcements": list(game.announcements),
        "feedback": {k: list(v) for k, v in game.feedback.items() if v},
        "alive": sorted(p.name for p in game.players.values() if p.alive),
        "winner": game.winner,
    }


@pytest.mark.parametrize("board", list(BOARDS.values()), ids=list(BOARDS))
def test_homebrew_roles_replace_the_plugins(board):
    """The homebrew declaration of a role the board maps to a plugin takes the plugin's place."""
    rs = ruleset_for(find_manifest(str(board)))
    names = homebrew_roles(board) & set(rs.roles)
    assert names
    for name in names:
        assert rs.role_plugin[name] == "bansha.homebrew"
        assert all(s.cards or not s.effect for s in rs.roles[name].skills)
        assert rs.manifest.roles[name] not in rs.pm.list_name_plugin() or any(
            rs.manifest.roles[r] == rs.manifest.roles[name] for r in rs.roles if rs.role_plugin[r] != "bansha.homebrew")


@pytest.mark.parametrize("path,board", list(cases()))
def test_reexpressed_role_plays_like_the_plugin(path, board):
    sc = scenario.load(path)
    shipped = scenario.run(sc, path.parent)
    brewed = scenario.run(msgspec.structs.replace(reworded(sc), ruleset=str(board)), path.parent)
    assert brewed.ruleset.manifest.homebrew
    assert outcome(brewed) == outcome(shipped)


@pytest.mark.parametrize("ruleset", list(BOARDS))
def test_the_simulator_plays_them_alike(ruleset, tmp_path):
    """``bansha simulate`` (a subprocess) on the shipped board and on the homebrew board, the
    same seeds and the random policy: the same wins, game lengths, causes of exit and role
    records — the simulator offers and plays a homebrew role as it does the plugin."""
    import json
    import os
    import subprocess
    import sys

    bansha = str(Path(sys.executable).parent / "bansha")
    env = {**os.environ, "BANSHA_CACHE_DIR": str(tmp_path / "cache")}

    def simulate(board: str) -> dict:
        r = subprocess.run([bansha, "simulate", board, "--games", "25", "--jobs", "1", "--policy", "random", "--json"],
                           capture_output=True, text=True, env=env, timeout=600)
        assert r.returncode == 0, r.stderr
        out = json.loads(r.stdout)
        return {k: out[k] for k in ("wins", "days", "causes", "roles", "draws", "unfinished")}

    shipped, brewed = simulate(ruleset), simulate(str(BOARDS[ruleset]))
    assert sum(r["n"] for r in shipped["roles"].values()) > 0  # the games were dealt and played
    assert brewed == shipped
