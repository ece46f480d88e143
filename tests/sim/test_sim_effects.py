"""Feedback as facts and `bansha simulate --role-effects` (docs/simulate.md "Role effects").

A feedback line that states a fact carries it as data (``bansha.engine.model.Fact``), the ``informed``
policy acts on it, and so an information role is worth something in simulation: on the homebrew
example board the 侦探's effect for 市民 is above zero, with its interval."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bansha.show.views import player_view
from bansha_sim.play import play_game

ROOT = Path(__file__).resolve().parents[2]
HOMEBREW = str(ROOT / "examples" / "homebrew-board" / "board.toml")


def bansha(*args):
    p = subprocess.run([sys.executable, "-m", "bansha.cli.cli", *map(str, args)], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def _replay(rec):
    from bansha.engine.engine import Game

    game = Game(rec["setup"])
    for ev in rec["events"]:
        game.apply(ev)
    return game


def test_a_check_line_carries_its_fact():
    """Every line of the 侦探's 调查 (the homebrew card 查验) carries the fact it states: the
    chosen player's camp, the one the line names; 40 seeded games."""
    checked = 0
    for seed in range(40):
        rec = play_game(HOMEBREW, 7, seed, "informed", keep=True)
        game = _replay(rec)
        (detective,) = [p.name for p in game.players.values() if p.role == "侦探"]
        for fb in player_view(game, detective)["feedback"]:
            if "属于" not in fb["text"]:
                assert "facts" not in fb
                continue
            (fact,) = fb["facts"]
            assert fact["what"] == "camp" and fact["holds"] and fact["by"] == "调查"
            assert fb["text"] == f"{fact['player']}属于{fact['value']}。"
            assert game.player(fact["player"]).camp == fact["value"]
            checked += 1
    assert checked > 20


def test_python_roles_checks_carry_facts():
    """光影传说's 国王 (a Python role): a 辨别 line that answers carries the camp it names (the
    surface of that day: the hunter's disguise)."""
    from bansha_sim.policies import InformedPolicy  # noqa: F401  (the policy that reads them)

    told = 0
    for seed in range(12):
        rec = play_game("light-shadow", 12, seed, "random", keep=True)
        game = _replay(rec)
        for p in game.players.values():
            for fb in player_view(game, p.name)["feedback"]:
                if not fb["text"].endswith("的。") or "facts" not in fb:
                    continue
                (fact,) = fb["facts"]
                assert fact["what"] == "camp" and fb["text"] == f"{fact['player']}是{fact['value']}的。"
                # (the surface of that day: a hunter's disguise may change by the end)
                assert fact["value"] in {c.name for c in game.manifest.camps} and fact["player"] in game.players
                told += 1
    assert told > 0


def test_informed_votes_for_a_known_enemy_and_spares_a_known_friend():
    """A seat whose feedback's facts name an enemy votes for them first, and never for a friend."""
    from bansha_sim.policies import InformedPolicy, Seat

    class View(Seat):
        def __init__(self):
            super().__init__(None, "P01", [], ["P02", "P03", "P04"], "seed", camps=("黑手党", "市民"),
                             roles={"平民": "市民", "黑手党": "黑手党", "侦探": "市民"})
            self.view = {"you": {"name": "P01", "camp": "市民", "role": "侦探"}, "phase": "day 2",
                         "players": [{"name": n} for n in ("P01", "P02", "P03", "P04")],
                         "announcements": [], "feedback": [
                             {"phase": "night 1", "text": "…", "facts": [
                                 {"player": "P03", "what": "camp", "value": "黑手党", "holds": True, "by": "调查"}]},
                             {"phase": "night 1", "text": "…", "facts": [
                                 {"player": "P02", "what": "role", "value": "平民", "holds": True, "by": "通灵"}]}]}

    d = InformedPolicy().decide(View())
    votes = list(d.votes)
    assert votes[0] == "P03" and "P02" not in votes


def test_the_detective_is_worth_something_to_the_town():
    """On the homebrew example board under ``informed``: the 侦探's effect for 市民 is above zero
    with its interval: the board against itself with 平民 in the 侦探's seat, on the same 2,000
    seeds (what ``--role-effects`` computes for the 侦探; the command is run below on fewer)."""
    from bansha_sim.effects import role_effects
    from bansha_sim.run import run

    def play(board):
        return run(board, 7, 2000, 0, "informed", {}, 30, jobs=2)

    base = play(HOMEBREW)
    (det,) = role_effects(HOMEBREW, 7, base, ["黑手党", "市民"], play, only={"侦探"})
    assert det["role"] == "侦探" and det["replaced_by"] == "平民" and det["camp"] == "市民"
    assert det["dealt"] == 2000
    town = det["effects"]["市民"]
    assert 0 < town["low"] <= town["diff"] <= town["high"], town
    # two camps, no draw: what one gains the other loses, seed by seed
    assert det["effects"]["黑手党"]["diff"] == -town["diff"]
    uses = det["skills"]["调查"]
    assert uses["games"] > 1000 and uses["uses"] >= uses["games"] and uses["per_game"] == uses["uses"] / 2000


def test_role_effects_from_the_command_line(tmp_path):
    """``--role-effects``: every role the table deals but 平民 weighed against 平民, in JSON (with
    the skills' uses), the plot, and the text's one table."""
    plot = tmp_path / "effects.svg"
    code, out, err = bansha("simulate", HOMEBREW, "--games", "60", "--policy", "informed", "--role-effects",
                            "--jobs", "1", "--json", "--plot", plot)
    assert code == 0, err
    d = json.loads(out)
    effects = {e["role"]: e for e in d["role_effects"]}
    assert set(effects) == {"医生", "侦探"} and all(e["replaced_by"] == "平民" for e in effects.values())
    for e in effects.values():
        for camp, x in e["effects"].items():
            assert x["low"] <= x["diff"] <= x["high"] and sum(x["discordant"]) <= 60, (camp, x)
    assert set(effects["医生"]["skills"]) == {"守护"} and effects["医生"]["skills"]["守护"]["uses"] > 0
    svg = plot.read_text()
    assert svg.lstrip().startswith("<?xml") and "detective -&gt; citizen" in svg
    code, out, err = bansha("simulate", HOMEBREW, "--games", "20", "--policy", "informed", "--role-effects",
                            "--jobs", "1")
    assert code == 0, err
    assert "角色作用" in out and "侦探" in out and "个百分点" in out and "调查" in out, out


def test_role_effects_refuses_several_boards():
    code, out, err = bansha("simulate", "mafia-basic", "--vary", "mafia=1,2", "--role-effects", "--games", "5")
    assert code == 2 and err.startswith("错误：") and "--role-effects" in err, err
