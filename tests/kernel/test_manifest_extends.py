"""`extends`: a house variant writes only what differs from the ruleset it starts from."""

import pytest
from bansha.engine.model import GameError
from bansha.engine.registry import find_manifest


def test_a_variant_changes_one_option_and_keeps_the_rest(tmp_path):
    (tmp_path / "v.toml").write_text(
        'extends = "m217"\nid = "m217-tucheng"\nname = "屠城"\n[options]\nwin = "屠城"\n',
        encoding="utf-8")
    base, variant = find_manifest("m217"), find_manifest(str(tmp_path / "v.toml"))
    assert variant.id == "m217-tucheng" and variant.options["win"] == "屠城"
    assert {k: v for k, v in variant.options.items() if k != "win"} == {
        k: v for k, v in base.options.items() if k != "win"}
    assert variant.phases == base.phases and variant.roles == base.roles
    assert variant.tables == base.tables


def test_arrays_are_replaced_whole(tmp_path):
    (tmp_path / "v.toml").write_text(
        'extends = "m217"\nid = "v"\nname = "v"\n[[camps]]\nname = "狼人阵营"\n',
        encoding="utf-8")
    assert [c.name for c in find_manifest(str(tmp_path / "v.toml")).camps] == ["狼人阵营"]


def test_a_path_is_read_beside_the_variant(tmp_path):
    (tmp_path / "a.toml").write_text('extends = "m217"\nid = "a"\nname = "a"\n', encoding="utf-8")
    (tmp_path / "b.toml").write_text('extends = "a.toml"\nid = "b"\nname = "b"\n', encoding="utf-8")
    assert find_manifest(str(tmp_path / "b.toml")).phases == find_manifest("m217").phases


@pytest.mark.parametrize(("text", "message"), [
    ('extends = "no-such-board"\nid = "v"\nname = "v"\n', "extends 的规则 no-such-board 不存在"),  # no board known yet: Chinese
    ('extends = "v.toml"\nid = "v"\nname = "v"\n', "形成循环"),
    ('extends = 3\nid = "v"\nname = "v"\n', "键 extends"),
])
def test_a_bad_base_is_one_line(tmp_path, text, message):
    (tmp_path / "v.toml").write_text(text, encoding="utf-8")
    with pytest.raises(GameError, match=message) as err:
        find_manifest(str(tmp_path / "v.toml"))
    assert "\n" not in str(err.value)
