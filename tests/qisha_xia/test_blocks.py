"""The night's blocks are decided together (docs/rulings/qisha-xia.md R-B4): 1.2 "此人当晚行使的特权无效"
with 1.7 "如果银侠学到阻止，则该阻止特权…对黑暗方和独立的青侠有效". A block on a blocker voids that
blocker's block whatever the submission order; blocks on each other are broken by ``block_order``.

Played over every blocking skill of the ruleset: the 暗侠 group's 阻止 (sent by 暗侠 or by a 青侠
it absorbed) and 银侠's learned 阻止, each as blocker and as blocked, in both submission orders.
The state a night needs (银侠 holding a learned 阻止, 青一 absorbed by 暗侠, no consecutive-target
history) is set directly: under the consecutive-target rule the 暗侠 could not block 银侠 on
the night after teaching it 阻止, so the mutual block cannot be reached by play."""

import msgspec
import pytest
from bansha.authoring.scenario import Scenario, setup_of
from bansha.engine.engine import Game
from bansha.engine.model import ActEvent, ResolveEvent

from .test_cli_input import TABLE


def night(actions, options=None):
    sc = msgspec.convert({"ruleset": "qisha-xia", "title": "t", "options": options or {},
                          "players": [{"name": n, "role": r} for n, r in TABLE]}, Scenario)
    game = Game(setup_of(sc))
    game.apply(ResolveEvent(phase="day 1"))
    silver, qing = game.player("银"), game.player("青一")
    silver.acquired["阻止"] = "暗侠"
    silver.data["qisha-xia.learned"] = ["阻止"]
    qing.role, qing.camp, qing.data["qisha-xia.qing"] = "暗侠", "黑暗", "暗侠"
    qing.groups.append("暗侠")
    for actor, skill, target in actions:
        game.apply(ActEvent(phase=game.label, actor=actor, skill=skill, targets=[target]))
    game.apply(ResolveEvent(phase=game.label))
    return {n: [t for ph, t in lines if ph == "night 1"] for n, lines in game.feedback.items()}, game


DARK_SENDERS = ["暗", "青一"]
DARK_MEMBERS = ["暗", "青一"]


@pytest.mark.parametrize("silver_first", [True, False])
@pytest.mark.parametrize("member", DARK_MEMBERS)
@pytest.mark.parametrize("sender", DARK_SENDERS)
def test_learned_block_on_the_dark_group_voids_its_block(sender, member, silver_first):
    dark, silver = (sender, "阻止", "赤"), ("银", "阻止", member)
    fb, _ = night([silver, dark, ("赤", "验人", "黑一")] if silver_first else [dark, silver, ("赤", "验人", "黑一")])
    assert fb["赤"] == ["黑一是黑侠。"]


@pytest.mark.parametrize("dark_first", [True, False])
@pytest.mark.parametrize("sender", DARK_SENDERS)
def test_dark_block_on_silver_voids_the_learned_block(sender, dark_first):
    dark, silver, kill = (sender, "阻止", "银"), ("银", "阻止", "黑一"), ("黑一", "杀人", "士一")
    fb, game = night([dark, silver, kill] if dark_first else [silver, dark, kill])
    assert not game.player("士一").alive
    assert "你学会了阻止。" in fb["银"]


@pytest.mark.parametrize("order", ["暗侠-first", "submission"])
@pytest.mark.parametrize("dark_first", [True, False])
@pytest.mark.parametrize("member", DARK_MEMBERS)
@pytest.mark.parametrize("sender", DARK_SENDERS)
def test_blocks_on_each_other_follow_block_order(sender, member, dark_first, order):
    dark, silver = (sender, "阻止", "银"), ("银", "阻止", member)
    fb, _ = night([dark, silver] if dark_first else [silver, dark], {"block_order": order})
    dark_stands = order == "暗侠-first" or dark_first
    # the 暗侠's block took effect on 银侠 exactly when it stood
    assert ("你学会了阻止。" in fb["银"]) is dark_stands


@pytest.mark.parametrize("silver_first", [True, False])
def test_received_learned_block_leaves_the_dark_block_standing(silver_first):
    # 光侠 receives 暗侠: 银侠's block lands on 光侠 (光明, its own camp: useless)
    acts = [("光", "接收", "暗"), ("银", "阻止", "暗"), ("暗", "阻止", "赤"), ("赤", "验人", "黑一")]
    if not silver_first:
        acts[1], acts[2] = acts[2], acts[1]
    fb, _ = night(acts)
    assert fb["赤"] == ["验人失败"]


def test_a_block_on_the_blocker_sent_last_still_voids_the_block_on_the_dragon():
    # the voided block on 龙侠 spends no charge, so the kill after it is reflected
    acts = [("暗", "阻止", "龙"), ("白", "救治", "龙"), ("赤", "验人", "龙"), ("黑一", "杀人", "龙"), ("银", "阻止", "暗")]
    fb, game = night(acts)
    assert game.player("龙").alive and not game.player("黑一").alive
    assert fb["龙"] == ["赤是赤侠。"]
