"""The stand-ins' manifest is m217.toml plus TEST-ONLY roles: the same phases, order and options."""

from pathlib import Path

from bansha.registry import find_manifest

HERE = Path(__file__).parent


def test_the_standins_manifest_copies_m217():
    real, test = find_manifest("m217"), find_manifest(str(HERE / "m217-standins.toml"))
    assert test.phases == real.phases
    assert test.skills == real.skills and test.options == real.options and test.vote == real.vote
    assert test.texts == real.texts and test.rules == real.rules and test.rewind == real.rewind
    extra = {r: p for r, p in test.roles.items() if r not in real.roles}
    assert set(extra.values()) == {"m217.standins"}
    assert {r: p for r, p in test.roles.items() if r in real.roles} == real.roles
