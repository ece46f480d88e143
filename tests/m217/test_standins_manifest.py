"""The stand-ins' manifest is m217.toml plus TEST-ONLY roles: the same phases, order and options.

A stand-in stays only while no real role of the board plays its part: its role names and its step
handlers (a chain stage) must not shadow a real plugin's."""

from pathlib import Path

import standins
from bansha.engine.registry import find_manifest, ruleset_for

HERE = Path(__file__).parent


def test_the_standins_manifest_copies_m217():
    real, test = find_manifest("m217"), find_manifest(str(HERE / "m217-standins.toml"))
    assert test.phases == real.phases
    assert test.skills == real.skills and test.options == real.options and test.vote == real.vote
    assert test.texts == real.texts and test.rules == real.rules and test.rewind == real.rewind
    extra = {r: p for r, p in test.roles.items() if r not in real.roles}
    assert set(extra.values()) == {"m217.standins"}
    assert {r: p for r, p in test.roles.items() if r in real.roles} == real.roles


def test_no_standin_shadows_a_real_role_or_handler():
    """The real 时间逆流/交换/反射 stages are their roles' handlers; a stand-in registers only a stage
    no real plugin provides (煽动), and no stand-in role is named like a real one."""
    real = ruleset_for(find_manifest("m217"))
    assert not set(standins.bansha_step_handlers()) & set(real.handlers)
    assert not {r.name for r in standins.ROLES} & set(find_manifest("m217").roles)
    test = ruleset_for(find_manifest(str(HERE / "m217-standins.toml")))
    for stage in ("时间逆流", "交换", "反射"):
        assert test.handlers[f"m217.chain.{stage}"] is real.handlers[f"m217.chain.{stage}"]
