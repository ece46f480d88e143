"""`bansha status` for the director's loop: skills not yet used (forced marked, range, --args),
who has not voted, the live tally with the board's threshold, and the deadline."""

import json

from test_votes_import import M217, THREADS, XIA, m217_at_noon


def test_qisha_xia_day_tally_threshold_and_deadline(bansha_cli):
    cli = bansha_cli
    cli.ok("new", "g", "--ruleset", "qisha-xia", "--players", XIA, "--seed", "11")
    cli.ok("vote", "g", "水饺", "包子")
    cli.ok("vote", "g", "馄饨", "包子")
    cli.ok("vote", "g", "烧卖", "弃权")
    out = cli.ok("status", "g").output
    assert "第1天 白天 — 截止：投票截止 次日22:00" in out
    assert "票数：包子 2；弃权 1" in out
    assert "出局门槛：最高票须达存活人数的 40%（8 票）" in out
    assert "未投票：包子、油条" in out
    assert "烧卖 幻觉三  --arg post=…" in out                 # 幻侠's day skill, not yet used
    view = json.loads(cli.ok("status", "g", "--json").output)["loop"]
    assert view["vote"]["needed"] == 8 and view["vote"]["tally"] == [{"player": "包子", "votes": 2}]
    assert "水饺" not in view["vote"]["not_voted"] and len(view["vote"]["not_voted"]) == 17
    cli.ok("resolve", "g", "--yes")
    night = json.loads(cli.ok("status", "g", "--json").output)["loop"]
    kills = [s for s in night["pending"] if s["skill"] == "杀人" and s["group"]]
    assert kills and all("包子" not in s["targets"] and "凉皮" not in s["targets"] for s in kills)  # 不得自杀: the group
    cli.ok("act", "g", "包子", "杀人", "馄饨")
    night = json.loads(cli.ok("status", "g", "--json").output)["loop"]
    # the group's kill is sent: no member of the group is listed for it any more
    assert not [s for s in night["pending"] if s["skill"] == "杀人" and s["group"] == kills[0]["group"]]
    assert night["vote"] is None


def test_m217_hidden_count_for_the_director_only(bansha_cli):
    cli = bansha_cli
    m217_at_noon(cli)
    cli.ok("votes", "import", "g", str(THREADS / "m217-noon1.txt"))
    out = cli.ok("status", "g").output
    assert "票数（仅导演可见，公告只公布结果）：" in out
    assert "关门 21:00，20:00后不允许改票或代投" in out
    assert "出局门槛：最高票出局" in out
    # a player's own view holds none of it
    mine = cli.ok("status", "g", "--as", "子鼠").output
    assert "票数" not in mine and "未投票" not in mine


def test_forced_skills_are_marked(bansha_cli):
    cli = bansha_cli
    cli.ok("new", "g", "--ruleset", "m217", "--players", M217, "--seed", "3")
    view = json.loads(cli.ok("status", "g", "--json").output)["loop"]
    g = cli.load()
    for s in view["pending"]:
        skill = g.skills_of(g.players[s["player"]])[s["skill"]][0]
        assert s["forced"] == ("强制" in skill.tags)
        assert list(s["args"]) == list(skill.args)
