"""A group privilege sent by a second member (issue 10 items 10, 11): the director is told
what a submission replaces, every member's view shows the group's standing action, withdrawing
names and removes exactly the standing action, and members who have left are marked 出局."""

import json
from pathlib import Path

import pytest

TOY = str(Path(__file__).parent / "toy.toml")


@pytest.fixture
def cli(bansha_cli):
    bansha_cli.ok("new", "g", "--ruleset", TOY, "--players", "甲,乙,丙,丁,戊,己,庚", "--seed", "5")
    bansha_cli.ok("resolve", "g", "--yes")  # day 1
    return bansha_cli


def killers(cli):
    g = cli.load()
    return [p.name for p in g.players.values() if p.role == "刀手"], [p.name for p in g.players.values() if p.role == "平民" or p.role == "查验者"]


def test_second_member_replaces_and_says_so(cli):
    (first, second), (x, y) = killers(cli)
    r = cli.ok("act", "g", first, "刀", x)
    assert "replaces" not in r.output
    r = cli.ok("act", "g", second, "刀", y)
    assert f"replaces: {first} 刀 {x}" in r.output
    assert [a.describe() for a in cli.load().actions] == [f"{second} 刀 {y}"]


def test_each_member_sees_the_standing_action(cli):
    (first, second), (x, _) = killers(cli)
    cli.ok("act", "g", second, "刀", x)
    mine = json.loads(cli.ok("status", "g", "--as", first, "--json").output)["you"]
    theirs = json.loads(cli.ok("status", "g", "--as", second, "--json").output)["you"]
    assert mine["group_acted"] == [f"{second} 刀 {x}"] and mine["acted"] == []
    assert theirs["acted"] == ["刀"] and "group_acted" not in theirs
    assert f"{second} 刀 {x}" in cli.ok("status", "g", "--as", first).output


def test_withdrawing_names_the_standing_action_it_removes(cli):
    (first, second), (x, y) = killers(cli)
    cli.ok("act", "g", first, "刀", x)
    cli.ok("act", "g", second, "刀", y)
    r = cli.ok("unact", "g", first, "刀")
    assert f"withdrawn: {second} 刀 {y}" in r.output
    assert cli.load().actions == []  # the replaced one does not come back
    cli.refused("unact", "g", first, "刀", message="no 刀 to withdraw")


def test_withdrawing_json_names_the_sender(cli):
    (first, second), (x, _) = killers(cli)
    cli.ok("act", "g", second, "刀", x)
    out = json.loads(cli.ok("unact", "g", first, "刀", "--json").output)["withdrawn"]
    assert (out["player"], out["skill"], out["targets"]) == (second, "刀", [x])


def test_members_who_left_are_marked_out(cli):
    (first, second), (x, _) = killers(cli)
    cli.ok("resolve", "g", "--yes")  # night 1
    for voter in [p for p in cli.load().players if p != first]:
        cli.ok("vote", "g", voter, first, "--post", "1")
    cli.ok("resolve", "g", "--yes")  # day 2: first is voted out
    assert not cli.load().players[first].alive
    you = json.loads(cli.ok("status", "g", "--as", second, "--json").output)["you"]
    assert you["group"] == [f"{first}（出局）"]
