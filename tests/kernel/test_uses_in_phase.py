"""``bansha_uses_in_phase``: a rule may grant a skill more uses in the current phase than its
``per_phase`` (M217's [迅捷1]: the pack's 杀人 twice in one night). A group skill then keeps its
latest that many submissions instead of one; without the hook nothing changes."""

from pathlib import Path

import pytest
from bansha import hookimpl
from bansha.engine.engine import Game
from bansha.engine.model import ActEvent, GameError, PlayerSetup, ResolveEvent, Setup
from bansha.engine.registry import find_manifest

TOY = (Path(__file__).parent / "toy.toml").read_text(encoding="utf-8")
ROLES = [("甲", "刀手"), ("乙", "刀手"), ("丙", "医生"), ("丁", "查验者"), ("戊", "平民"), ("己", "炸弹"), ("庚", "阻挡者")]


class Swift:
    """A toy rule: on night 1 the group 刀 may kill twice, and 查验者 may check twice."""

    @hookimpl
    def bansha_uses_in_phase(game, player, skill):
        if game.label == "night 1" and skill.name in ("刀", "验"):
            return 2
        return None


def make(tmp_path, rules):
    path = tmp_path / "toy.toml"
    path.write_text(TOY.replace('id = "toy"', f'id = "toy-swift"\nrules = [{rules}]'), encoding="utf-8")
    m = find_manifest(str(path))
    return Game(Setup(ruleset=m.id, manifest=m, players=[PlayerSetup(name=n, role=r) for n, r in ROLES]))


def to_night(g):
    g.apply(ResolveEvent(phase="day 1"))
    assert g.label == "night 1"


def test_more_uses_in_a_phase(bansha_plugin, tmp_path):
    bansha_plugin("toy.swift", Swift)
    g = make(tmp_path, '"toy.swift"')
    to_night(g)
    g.apply(ActEvent(phase="night 1", actor="甲", skill="刀", targets=["丙"]))
    g.apply(ActEvent(phase="night 1", actor="乙", skill="刀", targets=["丁"]))
    assert [a.targets for a in g.actions] == [["丙"], ["丁"]]
    # a third submission replaces the oldest: the latest two count
    g.apply(ActEvent(phase="night 1", actor="甲", skill="刀", targets=["戊"]))
    assert [a.targets for a in g.actions] == [["丁"], ["戊"]]
    g.apply(ActEvent(phase="night 1", actor="丁", skill="验", targets=["甲"]))
    g.apply(ActEvent(phase="night 1", actor="丁", skill="验", targets=["乙"]))
    with pytest.raises(GameError, match="already used 验"):
        g.apply(ActEvent(phase="night 1", actor="丁", skill="验", targets=["丙"]))
    g.apply(ResolveEvent(phase="night 1"))
    assert {"丁", "戊"} <= set(g.out["night 1"])
    assert ("night 1", "甲是刀手。") in g.feedback["丁"] and ("night 1", "乙是刀手。") in g.feedback["丁"]


def test_without_the_hook_one_group_action_counts(tmp_path):
    g = make(tmp_path, "")
    to_night(g)
    g.apply(ActEvent(phase="night 1", actor="甲", skill="刀", targets=["丙"]))
    g.apply(ActEvent(phase="night 1", actor="乙", skill="刀", targets=["丁"]))
    assert [a.targets for a in g.actions] == [["丁"]]
    g.apply(ActEvent(phase="night 1", actor="丁", skill="验", targets=["甲"]))
    with pytest.raises(GameError, match="already used 验"):
        g.apply(ActEvent(phase="night 1", actor="丁", skill="验", targets=["乙"]))
