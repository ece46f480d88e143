"""``res.data["extra_votes"]``: votes that no ballot carries, set by a bansha_adjust_ballots hook
(M217's 乌鸦<诽谤>: "结算目标在下一个游戏日投票时被投票数多计一票"), are added to the count for a
player in the game, and ignored for one who has left."""

from pathlib import Path

from bansha import hookimpl
from bansha.engine.engine import Game
from bansha.engine.model import PlayerSetup, ResolveEvent, Setup, VoteEvent
from bansha.engine.registry import find_manifest

TOY = (Path(__file__).parent / "toy.toml").read_text(encoding="utf-8")


class Slander:
    @hookimpl
    def bansha_adjust_ballots(res, ballots):
        res.data.setdefault("extra_votes", {}).update(res.game.data.get("slander", {}))


def game(tmp_path, bansha_plugin):
    bansha_plugin("slander", Slander)
    text = TOY.replace('id = "toy"', 'id = "toy-slander"').replace("threshold = 0.4", "threshold = 0")
    text = text.replace('rewind = true', 'rewind = true\nrules = ["slander"]')
    path = tmp_path / "toy.toml"
    path.write_text(text, encoding="utf-8")
    m = find_manifest(str(path))
    roles = [("甲", "刀手"), ("乙", "刀手"), ("丙", "平民"), ("丁", "医生"), ("戊", "平民")]
    return Game(Setup(ruleset=m.id, manifest=m, players=[PlayerSetup(name=n, role=r) for n, r in roles]))


def test_extra_votes_count_without_a_ballot(tmp_path, bansha_plugin):
    g = game(tmp_path, bansha_plugin)
    g.data["slander"] = {"丙": 2}
    g.apply(VoteEvent(phase="day 1", voter="甲", target="乙"))
    g.apply(ResolveEvent(phase="day 1"))
    # 乙 has one ballot, 丙 none but two extra votes
    assert not g.player("丙").alive and g.player("乙").alive
    assert any("丙 counts 2 extra vote(s)" in t.text for t in g.trace)


def test_extra_votes_for_a_player_out_of_the_game_do_not_count(tmp_path, bansha_plugin):
    g = game(tmp_path, bansha_plugin)
    g.player("丙").alive = False
    g.data["slander"] = {"丙": 5}
    g.apply(VoteEvent(phase="day 1", voter="甲", target="乙"))
    g.apply(ResolveEvent(phase="day 1"))
    assert not g.player("乙").alive
