"""Every post and PM of played games of every board, checked against what that board hides:
a count where the rules hide counts, a role that was not announced, an exit that was not yet
announced, another player's feedback in a PM (issue 20, item 3).

The games: each board's demo (scripted), and games the simulator plays at random (every skill
used as a random director's players would), replayed as ``bansha post`` / ``bansha pm`` do."""

import re
from pathlib import Path

import pytest
from bansha.authoring.scenario import load, run
from bansha.engine import history
from bansha.engine.board import load_board
from bansha.engine.model import GameError
from bansha_forum import posts
from bansha_sim.play import play_game

#: each board's demo script, beside its manifest (rulesets/<board>/bansha_<board>/demos)
DEMOS = {f.name: f for f in (Path(__file__).resolve().parents[2] / "rulesets").glob("*/*/demos/*.toml")}


def demo(file: str):
    game = run(load(DEMOS[file]), DEMOS[file].parent)
    return game.setup, list(game.applied)


def simulated(ruleset: str, seats: int, seed: int):
    out = play_game(ruleset, seats, seed, keep=True, day_limit=8)
    return out["setup"], out["events"]


GAMES = {
    "light-shadow demo": lambda: demo("light-shadow.toml"),
    "qisha-xia demo": lambda: demo("qisha-xia.toml"),
    "m217 demo": lambda: demo("m217-demo.toml"),
    "light-shadow sim": lambda: simulated("light-shadow", 12, 5),
    "qisha-xia sim": lambda: simulated("qisha-xia", 20, 7),
    "m217 sim": lambda: simulated("m217", 14, 3),
    "m217 sim 2": lambda: simulated("m217", 14, 11),
    "mafia-basic sim": lambda: simulated("mafia-basic", 9, 2),
}


def announced_by(game, told, label: str) -> list[str]:
    """The public lines told up to and including ``label`` (in the order played)."""
    seq = history.played(game)
    return [t for x in seq[:seq.index(label) + 1] for t in told.get(x, {}).get("announcement", [])]


@pytest.mark.parametrize("which", list(GAMES))
def test_every_post_and_pm_holds_only_what_the_board_publishes(which):
    setup, events = GAMES[which]()
    g, told = history.replay(setup, events)
    board = load_board(g.manifest.id)
    hides_counts = not g.manifest.vote.show_counts or board["post"].get("vote_counts") != "all"
    roles = {p.role for p in g.players.values()} | {p.role for p in setup.players}
    names = sorted(g.players, key=len, reverse=True)
    exit_of = {n: label for label, gone in g.out.items() for n in gone}
    checked = 0
    for label in history.played(g):
        into = posts.carried_into(g, board, label)
        if into is not None:
            # a phase another post publishes has no post of its own: refused, naming that post
            with pytest.raises(GameError, match="不单独发帖"):
                posts.build(g, events, board, label, told)
            continue
        data = posts.build(g, events, board, label, told)
        checked += 1
        text = posts.render_post(data, "text")
        assert check_ok(posts.render_post(data, "bbcode"))
        # counts where the rules hide them: no "N票", no count line
        if hides_counts:
            assert not re.search(r"\d+(\.\d+)?\s*票", text), (label, text)
        # roles: only those the public lines named by now (player names taken out first: a
        # player may be called 镜 and the role 镜 too)
        public = " ".join(announced_by(g, told, label))
        # the board's own words (the deadline's note: "80分钟" is no 钟) are not the game's
        bare = posts.render_post({**data, "sections": [s for s in data["sections"] if s["key"] != "deadline"]}, "text")
        for n in names:
            bare = bare.replace(n, "")
            public = public.replace(n, "")
        for role in roles:
            if role in bare:
                assert role in public, (label, role, text)
        # exits: a seat shown out left in this post's phase or before it, and every exit the
        # post lists is one its phases (its own and those it carries) told
        pos = g.parse_phase(label)
        for row in next((s["rows"] for s in data["sections"] if s["key"] == "seats"), []):
            if row[2] != "存活":
                assert g.parse_phase(exit_of[row[1]]) <= pos, (label, row)
        shown = " ".join(line for s in data["sections"] if s["key"] == "deaths" for line in s["lines"])
        for n, left in exit_of.items():
            if n in shown:
                assert left in posts.carried(g, board, label) or g.parse_phase(left) <= pos, (label, n)
        # the PMs: each holds that player's own lines and nothing else
        for b in posts.pms(g, board, label, told):
            own = told.get(label, {}).get("feedback", {}).get(b["player"], [])
            assert b["lines"][:len(own)] == own
            assert all(line.startswith(("你的同伴", "你的同伴")) or "成为你的同伴" in line for line in b["lines"][len(own):])
            for other, lines in told.get(label, {}).get("feedback", {}).items():
                for line in lines:
                    if other != b["player"] and line not in own:
                        assert line not in posts.render_pms([b], "text"), (label, other, line)
            if hides_counts:
                assert not re.search(r"\d+(\.\d+)?\s*票", posts.render_pms([b], "text")), (label, b)
    assert checked >= 2


def check_ok(bb: str) -> bool:
    return posts.check_bbcode(bb) == []
