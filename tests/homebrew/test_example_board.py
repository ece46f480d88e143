"""The director's example board (examples/homebrew-board/: mafia-basic with a 医生 and a 侦探
written as homebrew roles) plays from the command line, passes its scenarios and simulates —
each through the ``bansha`` command in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

BANSHA = str(Path(sys.executable).parent / "bansha")
EXAMPLE = Path(__file__).parent.parent.parent / "examples" / "homebrew-board"
BOARD = str(EXAMPLE / "board.toml")


def bansha(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "BANSHA_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("BANSHA_LANG", None)
    return subprocess.run([BANSHA, *args], capture_output=True, text=True, env=env, timeout=300)


def test_its_scenarios_pass(tmp_path):
    r = bansha(tmp_path, "scenario", "run", str(EXAMPLE / "scenarios"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "3个通过，0个失败" in r.stdout


def test_a_game_from_the_command_line(tmp_path):
    db = str(tmp_path / "g.db")
    r = bansha(tmp_path, "new", "g", "--ruleset", BOARD, "--players", "甲,乙,丙,丁,戊,己,庚", "--seed", "3", "--db", db)
    assert r.returncode == 0, r.stderr
    seats = {line.split()[1]: line.split()[2] for line in r.stdout.splitlines()[1:]}
    doctor, detective = (next(n for n, role in seats.items() if role == want) for want in ("医生", "侦探"))
    mafia = [n for n, role in seats.items() if role == "黑手党"]
    r = bansha(tmp_path, "act", "g", doctor, "守护", detective, "--db", db)
    assert r.returncode == 2 and "守护" in r.stderr  # a night skill, refused by day
    for voter in seats:
        target = mafia[0] if voter != mafia[0] else doctor
        assert bansha(tmp_path, "vote", "g", voter, target, "--db", db).returncode == 0
    assert bansha(tmp_path, "resolve", "g", "--db", db).returncode == 0
    # night 1: the doctor guards the detective, whom the remaining mafioso kills
    assert bansha(tmp_path, "act", "g", doctor, "守护", detective, "--db", db).returncode == 0
    assert bansha(tmp_path, "act", "g", mafia[1], "杀人", detective, "--db", db).returncode == 0
    assert bansha(tmp_path, "act", "g", detective, "调查", mafia[1], "--db", db).returncode == 0
    r = bansha(tmp_path, "act", "g", detective, "调查", detective, "--db", db)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert bansha(tmp_path, "resolve", "g", "--db", db).returncode == 0
    r = bansha(tmp_path, "status", "g", "--as", detective, "--json", "--db", db)
    view = json.loads(r.stdout)
    assert f"{mafia[1]}属于黑手党。" in json.dumps(view, ensure_ascii=False)
    r = bansha(tmp_path, "status", "g", "--json", "--db", db)
    players = {p["name"]: p for p in json.loads(r.stdout)["players"]}
    assert players[detective]["alive"] and not players[mafia[0]]["alive"]


def test_it_simulates(tmp_path):
    r = bansha(tmp_path, "simulate", BOARD, "--games", "60", "--jobs", "1", "--policy", "informed", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["ruleset"] == "mafia-homebrew" and sum(out["wins"].values()) + out["draws"] + out["unfinished"] == 60
    assert out["roles"]["医生"]["n"] == 60 and out["roles"]["侦探"]["n"] == 60


def test_the_role_reference_shows_the_jinx(tmp_path):
    r = bansha(tmp_path, "roles", BOARD, "--markdown")
    assert r.returncode == 0, r.stderr
    assert "- jinx with 黑手党（守护）：医生守护黑手党时，该黑手党得知自己被医生守护。" in r.stdout
    assert "plugin `bansha.homebrew`" in r.stdout
