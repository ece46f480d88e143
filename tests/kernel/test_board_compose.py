"""Composing without copying: a variant's ``[[edits]]`` change one pool, one list, one phase or
one constraint of its base (docs/manifests.md), ``bansha board show``/``diff`` print the result,
and ``bansha demo`` plays a variant by path as well as by id."""

import subprocess
import sys
import types

import pytest
from bansha import Role, Skill, hookimpl
from bansha.engine.deal import deal
from bansha.engine.model import GameError
from bansha.engine.registry import find_manifest, register_local, ruleset_for


def _scholar_plugin():
    plugin = types.ModuleType("scholar")

    @hookimpl
    def bansha_roles():
        # > （1）白昼学者、寂夜导师<时波削弱><时波增幅>
        return [Role(name="白昼学者", camp="村民阵营", skills=(
            Skill(name="时波削弱", phases=("night",), step="早夜1", targets=1, effect=lambda res, action: None),))]

    plugin.bansha_roles = bansha_roles
    return plugin


SCHOLAR = """extends = "m217"
id = "m217-scholar"
name = "新日暮里（白昼学者）"
[roles]
"白昼学者" = "test.scholar"

[[edits]]
pool = "弱神"
add = ["白昼学者"]
draw = 5

[[edits]]
pool = "强神"
remove = ["钟"]
draw = 2
"""


def test_a_variant_adds_a_role_to_a_pool_in_a_few_lines(tmp_path):
    register_local("test.scholar", _scholar_plugin())
    (tmp_path / "v.toml").write_text(SCHOLAR, encoding="utf-8")
    base, variant = find_manifest("m217"), find_manifest(str(tmp_path / "v.toml"))
    pools = {p.name: p for p in variant.tables[0].pools}
    base_pools = {p.name: p for p in base.tables[0].pools}
    assert pools["弱神"].roles == [*base_pools["弱神"].roles, "白昼学者"] and pools["弱神"].draw == 5
    assert "钟" not in pools["强神"].roles and pools["强神"].draw == 2
    # everything else is the base's, untouched
    assert variant.tables[0].constraints == base.tables[0].constraints
    assert [pools[n].roles for n in ("狼人", "验人系", "三方", "不定")] == [base_pools[n].roles for n in ("狼人", "验人系", "三方", "不定")]
    # the variant deals: 4 + 1 + 2 + 5 + 1 + 1 seats of 14, the scholar among some seeds' deals
    rs = ruleset_for(variant)
    dealt = [deal(rs, [f"p{i}" for i in range(14)], seed) for seed in range(40)]
    assert all(sum(1 for s in d if s.role == "钟") == 0 for d in dealt)
    assert any(s.role == "白昼学者" for d in dealt for s in d)


def test_lists_and_phases_take_an_insert_at_a_named_place(tmp_path):
    (tmp_path / "v.toml").write_text("""extends = "m217"
id = "v"
name = "v"
[[edits]]
list = "options.death_order"
insert = ["时波混乱2"]
after = "杀人"
[[edits]]
phase = "夜晚"
insert = [{ name = "午夜13b", handlers = ["m217.chain"] }]
before = "午夜14a"
[[edits]]
add_constraint = [{ role = "狼王", requires = "幼狼" }]
remove_constraint = [{ role = "狼弟", requires = "狼兄" }]
""", encoding="utf-8")
    base, v = find_manifest("m217"), find_manifest(str(tmp_path / "v.toml"))
    assert v.options["death_order"][:3] == ["杀人", "时波混乱2", "时波混乱"]
    night = [s.name for s in next(p for p in v.phases if p.name == "night").steps]
    assert night[night.index("午夜13") + 1] == "午夜13b" and night[night.index("午夜13b") + 1] == "午夜14a"
    cons = [c for c in v.tables[0].constraints if c.role]
    assert [(c.role, c.requires) for c in cons if c.requires] == [("狼兄", "狼弟"), ("狼王", "幼狼")]
    assert len(base.tables[0].constraints) == len(v.tables[0].constraints)


@pytest.mark.parametrize(("edit", "message"), [
    ('pool = "弱神"\nadd = ["熊"]', "熊 已经在那里"),
    ('pool = "没有这个"\nadd = ["熊"]', "基础规则里没有 没有这个"),
    ('list = "options.death_order"\ninsert = ["x"]\nafter = "不存在"', "找不到 before/after 所指的 不存在"),
    ('list = "options.win"\ninsert = ["x"]', "options.win 不是列表"),
    ('pool = "弱神"\nphase = "night"', "一条 edits 只改一处"),
    ('pool = "弱神"\nadd = "熊"', "edits\\[0\\]"),
])
def test_an_edit_that_does_not_apply_is_one_line(tmp_path, edit, message):
    (tmp_path / "v.toml").write_text(f'extends = "m217"\nid = "v"\nname = "v"\n[[edits]]\n{edit}\n', encoding="utf-8")
    with pytest.raises(GameError, match=message) as err:
        find_manifest(str(tmp_path / "v.toml"))
    assert "\n" not in str(err.value) and "v.toml" in str(err.value)


def _bansha(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "bansha.cli.cli", *args], capture_output=True, text=True, cwd=cwd)


def test_board_show_prints_the_resolved_board_and_diff_what_differs(tmp_path):
    import tomllib

    (tmp_path / "v.toml").write_text('extends = "m217"\nid = "v"\nname = "变体"\n[[edits]]\npool = "弱神"\nremove = ["熊"]\n'
                                     '[options]\nwin = "屠城"\n', encoding="utf-8")
    shown = _bansha("board", "show", str(tmp_path / "v.toml"))
    assert shown.returncode == 0, shown.stderr
    (tmp_path / "shown.toml").write_text(shown.stdout, encoding="utf-8")
    # what it prints is a complete board of its own, the same as the variant
    assert find_manifest(str(tmp_path / "shown.toml")) == find_manifest(str(tmp_path / "v.toml"))
    assert "extends" not in tomllib.loads(shown.stdout)
    diff = _bansha("board", "diff", "m217", str(tmp_path / "v.toml"))
    assert diff.returncode == 0, diff.stderr
    assert diff.stdout.splitlines() == [
        'id: "m217" → "v"', 'name: "新日暮里" → "变体"', 'tables[14].pools[弱神].roles: -"熊"',
        'options.win: "屠边" → "屠城"']
    bad = _bansha("board", "show", "no-such-board")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "no-such-board" in bad.stderr


def test_demo_plays_a_variant_by_path(tmp_path):
    (tmp_path / "v.toml").write_text('extends = "m217"\nid = "m217-tucheng"\nname = "新日暮里（屠城）"\n[options]\nwin = "屠城"\n',
                                     encoding="utf-8")
    out = _bansha("demo", "--ruleset", str(tmp_path / "v.toml"), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("新日暮里（屠城） — ") and "游戏结束" in out.stdout and "Traceback" not in out.stderr


@pytest.mark.parametrize("board", ["m217", "qisha-xia", "light-shadow", "mafia-basic"])
def test_demo_plays_every_shipped_board(board):
    out = _bansha("demo", "--ruleset", board, "--json")
    assert out.returncode == 0, out.stderr
    import json

    assert json.loads(out.stdout)["winner"], f"{board}'s demo is played to its end"


def test_a_step_takes_and_loses_handlers_by_name(tmp_path):
    (tmp_path / "v.toml").write_text("""extends = "m217"
id = "v"
name = "v"
[[edits]]
phase = "noon"
step = "投票"
remove = ["m217.tie"]
add_handlers = ["m217.yellow"]
after = "bansha.vote"
add_after = ["m217.deaths"]
""", encoding="utf-8")
    step = next(s for p in find_manifest(str(tmp_path / "v.toml")).phases if p.name == "noon" for s in p.steps if s.name == "投票")
    assert step.handlers == ["bansha.vote", "m217.yellow", "m217.clock.verdict"] and step.after == ["m217.deaths"]
    (tmp_path / "w.toml").write_text('extends = "m217"\nid = "w"\nname = "w"\n[[edits]]\nphase = "noon"\nstep = "投票"\nremove = ["nope"]\n',
                                     encoding="utf-8")
    with pytest.raises(GameError, match="基础规则里没有 nope"):
        find_manifest(str(tmp_path / "w.toml"))


def test_missing_plugins_are_one_line_with_the_command_that_installs_them(tmp_path):
    (tmp_path / "v.toml").write_text('extends = "m217"\nid = "m217-x"\nname = "x"\n[roles]\n'
                                     '"白昼学者" = "community.day-scholar"\n"送葬人" = "community.undertaker"\n', encoding="utf-8")
    with pytest.raises(GameError) as err:
        ruleset_for(find_manifest(str(tmp_path / "v.toml")))
    assert str(err.value) == ("规则 m217-x 缺少 2 个插件（community.day-scholar、community.undertaker）；"
                              "安装它们：pip install bansha-community-day-scholar bansha-community-undertaker")


def test_the_documented_scholar_variant_loads_and_deals(tmp_path, bansha_plugin):
    """docs/manifests.md's example, as written there, with two stand-in plugins for its roles."""
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "manifests.md").read_text(encoding="utf-8")
    section = doc[doc.index("### Composing without copying"):]
    text = re.search(r"```toml\n(.*?)```", section, re.S).group(1)
    for entry, role, skill, step in (("community.day-scholar", "白昼学者", "时波削弱", "早夜1"),
                                     ("community.undertaker", "送葬人", "送葬", "出局20")):
        plugin = types.ModuleType(entry)

        def roles(role=role, skill=skill, step=step):
            return [Role(name=role, camp="村民阵营", skills=(Skill(name=skill, phases=("night",), step=step, effect=None),))]

        plugin.bansha_roles = hookimpl(roles)
        bansha_plugin(entry, plugin)
    (tmp_path / "m217-scholar.toml").write_text(text, encoding="utf-8")
    m = find_manifest(str(tmp_path / "m217-scholar.toml"))
    weak = next(p for p in m.tables[0].pools if p.name == "弱神")
    assert weak.draw == 5 and weak.roles[-2:] == ["白昼学者", "送葬人"] and "熊" not in weak.roles
    order = m.options["death_order"]
    assert order[order.index("毒药") + 1] == "送葬"
    rs = ruleset_for(m)
    assert rs.role("白昼学者").skill("时波削弱").step == "早夜1"
    assert sum(1 for _ in deal(rs, [f"p{i}" for i in range(14)], 3)) == 14


def test_a_pool_grown_without_shrinking_another_is_refused_when_it_loads(tmp_path):
    (tmp_path / "v.toml").write_text('extends = "m217"\nid = "v"\nname = "v"\n[[edits]]\npool = "弱神"\ndraw = 5\n', encoding="utf-8")
    with pytest.raises(GameError, match="14 人桌发出 15 张身份牌"):
        ruleset_for(find_manifest(str(tmp_path / "v.toml")))
