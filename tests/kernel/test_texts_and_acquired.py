"""Generic mechanisms added for rulesets that word everything in their own language and have
mimics: the kernel's refusals and win lines come from the manifest's ``[texts]``, a run-off may
skip the threshold, an acquired skill is never a group skill, and ``bansha_unknown_skill`` lets
a rule explain why a skill is missing."""

from pathlib import Path

import pytest
from bansha import hookimpl
from bansha.engine.engine import Game
from bansha.engine.model import (
    ActEvent,
    GameError,
    PlayerSetup,
    ResolveEvent,
    RulingEvent,
    Setup,
    VoteEvent,
)
from bansha.engine.registry import find_manifest

TOY = (Path(__file__).parent / "toy.toml").read_text(encoding="utf-8")
TEXTS = '''
[texts]
win = "{camps}获胜。"
joint_win = "{camps}共同获胜。"
draw = "平局。"
runoff = "{first}与{second}票数相同。"
refuse_no_uses = "{skill}只能使用一次"
refuse_repeat_target = "不得连续{skill}{target}"
refuse_voter_out = "{name}已出局"
refuse_target_out = "{name}已出局"
refuse_runoff_target = "只能投{names}"
refuse_runoff_abstain = "不允许弃权"
refuse_changes = "{name}只有一次改票机会"
refuse_late_change = "{name}最后一小时不得改票"
'''
ROLES = [("甲", "刀手"), ("乙", "刀手"), ("丙", "医生"), ("丁", "查验者"), ("戊", "平民"), ("己", "炸弹"), ("庚", "阻挡者")]


def game(tmp_path, extra="", rules=""):
    text = TOY.replace('id = "toy"', f'id = "toy-texts"\n{rules}').replace("tie = \"runoff\"", "tie = \"runoff\"\nlate_changes = false" + extra)
    path = tmp_path / "toy.toml"
    path.write_text(text + TEXTS, encoding="utf-8")
    m = find_manifest(str(path))
    return Game(Setup(ruleset=m.id, manifest=m, players=[PlayerSetup(name=n, role=r) for n, r in ROLES]))


def refused(g, ev, text):
    with pytest.raises(GameError, match=text):
        g.apply(ev)


def test_refusals_use_the_manifest_wording(tmp_path):
    g = game(tmp_path)
    g.apply(ActEvent(phase="day 1", actor="己", skill="引爆", targets=["甲"]))
    refused(g, ActEvent(phase="day 1", actor="己", skill="引爆", targets=["乙"]), "引爆只能使用一次")
    g.apply(VoteEvent(phase="day 1", voter="甲", target="丙"))
    g.apply(VoteEvent(phase="day 1", voter="甲", target="丁", change=True))
    refused(g, VoteEvent(phase="day 1", voter="甲", target="戊", change=True), "甲只有一次改票机会")
    g.apply(VoteEvent(phase="day 1", voter="乙", target="丙"))
    refused(g, VoteEvent(phase="day 1", voter="乙", target="丁", change=True, late=True), "乙最后一小时不得改票")
    g.apply(ResolveEvent(phase="day 1"))
    g.apply(ActEvent(phase="night 1", actor="丙", skill="救", targets=["戊"]))
    g.apply(ActEvent(phase="night 1", actor="甲", skill="刀", targets=["丁"]))
    g.apply(ResolveEvent(phase="night 1"))
    refused(g, VoteEvent(phase="day 2", voter="丁", target="甲"), "丁已出局")
    refused(g, VoteEvent(phase="day 2", voter="甲", target="丁"), "丁已出局")
    g.apply(ResolveEvent(phase="day 2"))
    refused(g, ActEvent(phase="night 2", actor="丙", skill="救", targets=["戊"]), "不得连续救戊")


def test_runoff_wording_and_no_threshold_in_the_runoff(tmp_path):
    g = game(tmp_path, extra="\nrunoff_threshold = false")
    for voter, target in [("甲", "丙"), ("乙", "丙"), ("庚", "丙"), ("丙", "甲"), ("丁", "甲"), ("戊", "甲")]:
        g.apply(VoteEvent(phase="day 1", voter=voter, target=target))
    g.apply(ResolveEvent(phase="day 1"))
    assert ("day 1", "丙与甲票数相同。") in g.announcements
    refused(g, VoteEvent(phase="runoff 1", voter="戊", target="乙"), "只能投")
    refused(g, VoteEvent(phase="runoff 1", voter="戊", target="弃权"), "不允许弃权")
    g.apply(VoteEvent(phase="runoff 1", voter="己", target="甲"))  # 1 vote of 7 living: below 40%
    g.apply(ResolveEvent(phase="runoff 1"))
    assert g.out["runoff 1"] == ["甲"]


def test_draw_and_joint_win_lines(tmp_path):
    g = game(tmp_path)
    g.apply(RulingEvent(phase="day 1", kind="draw"))
    assert g.announcements[-1] == ("day 1", "平局。")
    g = game(tmp_path)
    g.end(["好人", "坏人"])
    assert g.announcements[-1] == ("day 1", "好人、坏人共同获胜。")


def test_an_acquired_skill_is_the_players_own(tmp_path):
    g = game(tmp_path)
    g.apply(ResolveEvent(phase="day 1"))
    g.player("戊").acquired["刀"] = "刀手"
    g.apply(ActEvent(phase="night 1", actor="甲", skill="刀", targets=["丙"]))
    g.apply(ActEvent(phase="night 1", actor="戊", skill="刀", targets=["丁"]))
    # the group's kill is not replaced by the acquired one: two kills
    assert [(a.actor, a.group, a.acquired) for a in g.actions] == [("甲", "刀", False), ("戊", None, True)]
    g.apply(ResolveEvent(phase="night 1"))
    assert sorted(g.out["night 1"]) == ["丁", "丙"]


class Mimic:
    @hookimpl
    def bansha_unknown_skill(game, player, skill):
        return f"{player.name}还没有学会{skill}" if player.role == "平民" else None


def test_a_rule_explains_a_missing_skill(tmp_path, bansha_plugin):
    bansha_plugin("mimic", Mimic)
    g = game(tmp_path, rules='rules = ["mimic"]')
    g.apply(ResolveEvent(phase="day 1"))
    refused(g, ActEvent(phase="night 1", actor="戊", skill="刀", targets=["丁"]), "戊还没有学会刀")
    refused(g, ActEvent(phase="night 1", actor="丙", skill="刀", targets=["丁"]), "has no skill")
