"""Issue 32, item 2: one broken board breaks none of the others, and what a scaffold or an edit
would write wrong is refused.

- an installed variant whose base was removed, or whose plugin is not installed, is marked by
  ``rulesets`` and refused by its name, while ``roles``, ``new`` and ``demo`` of every other board
  work (before: all four failed with the variant's error);
- a role plugin that fails to import is one line naming its distribution (before: a traceback);
- ``scenario run`` reports a file whose plugin raises as invalid and runs the next (before: a
  traceback and exit 1);
- ``board new m217 --extends m217`` (a package depending on itself), ``role new ../x``,
  ``role new ''`` and a role the board has are refused, nothing written;
- an edit adding 狼王 to 弱神 (it is in 狼人) is refused; removing it says where it is.

The installation is the real one with its list of manifest files (``registry.ruleset_files``) or
role entry points (``registry.entry_points``) changed in this process, as installing or removing
a distribution changes them."""

from __future__ import annotations

from pathlib import Path

import pytest
from bansha import Role, Skill, hookimpl
from bansha.engine import registry
from clirun import LIBRARY_ENGLISH, run_main

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "tests" / "kernel" / "toy.toml"
SEVEN = "甲,乙,丙,丁,戊,己,庚"


def one_line(argv, *words: str) -> str:
    code, out, err = run_main(argv)
    lines = [x for x in (out + err).splitlines() if x.strip()]
    assert code == 2 and len(lines) == 1, (argv, code, out, err)
    assert lines[0].startswith("错误：") and not [w for w in LIBRARY_ENGLISH if w in lines[0]], lines[0]
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


def works(argv) -> str:
    code, out, err = run_main(argv)
    assert code == 0, (argv, out, err)
    return out


@pytest.fixture
def installed(monkeypatch):
    """Install manifest files (stem -> path) beside the real ones, or remove some (path None)."""
    real = registry.ruleset_files

    def install(**files):
        def changed():
            out = dict(real())
            for stem, path in files.items():
                if path is None:
                    out.pop(stem.replace("_", "-"), None)
                else:
                    out[stem.replace("_", "-")] = path
            return out

        monkeypatch.setattr(registry, "ruleset_files", changed)
        registry.installed_manifests.cache_clear()

    yield install
    monkeypatch.undo()
    registry.installed_manifests.cache_clear()
    registry._RULESETS.clear()


def test_a_variant_whose_base_was_removed_breaks_no_other_board(installed, tmp_path):
    variant = tmp_path / "m217-tucheng.toml"
    variant.write_text('extends = "m217"\nid = "m217-tucheng"\nname = "屠城"\n[options]\nwin = "屠城"\n', encoding="utf-8")
    installed(m217_tucheng=variant, m217=None)
    listed = works(["rulesets"])
    assert "mafia-basic\t" in listed and "light-shadow\t" in listed
    marked = next(line for line in listed.splitlines() if line.startswith("m217-tucheng"))
    assert "无法读取" in marked and "m217" in marked, marked
    assert "黑手党" in works(["roles", "mafia-basic"])
    works(["roles"])
    works(["new", "g", "--ruleset", "mafia-basic", "--players", SEVEN, "--db", tmp_path / "g.db"])
    works(["demo", "--ruleset", "mafia-basic"])
    one_line(["new", "h", "--ruleset", "m217-tucheng", "--players", SEVEN, "--db", tmp_path / "g.db"], "extends", "m217")


def test_a_board_whose_plugin_is_missing_is_marked_and_refused_by_name(installed, tmp_path):
    variant = tmp_path / "mafia-extra.toml"
    variant.write_text('extends = "mafia-basic"\nid = "mafia-extra"\nname = "额外"\n[roles]\n"龙" = "community.dragon"\n',
                       encoding="utf-8")
    installed(mafia_extra=variant)
    marked = next(line for line in works(["rulesets"]).splitlines() if line.startswith("mafia-extra"))
    assert "缺少插件" in marked and "community.dragon" in marked, marked
    works(["roles"])
    works(["role", "show", "平民"])
    works(["new", "g", "--ruleset", "mafia-basic", "--players", SEVEN, "--db", tmp_path / "g.db"])
    one_line(["new", "h", "--ruleset", "mafia-extra", "--players", SEVEN, "--db", tmp_path / "g.db"],
             "community.dragon", "pip install bansha-community-dragon")
    one_line(["roles", "mafia-extra"], "community.dragon")


class _Broken:
    """A role entry point whose module raises as it is imported."""

    name, value, group, dist = "community.broken", "bansha_community_broken", registry.ROLE_GROUP, "bansha-community-broken"

    def load(self):
        raise ModuleNotFoundError("No module named 'bansha_community_helper'")


def test_a_plugin_that_fails_to_import_is_one_line_naming_its_distribution(installed, tmp_path, monkeypatch):
    real = registry.entry_points
    monkeypatch.setattr(registry, "entry_points", lambda group: (*real(group), *((_Broken(),) if group == registry.ROLE_GROUP else ())))
    variant = tmp_path / "mafia-broken.toml"
    variant.write_text('extends = "mafia-basic"\nid = "mafia-broken"\nname = "坏"\n[roles]\n"龙" = "community.broken"\n',
                       encoding="utf-8")
    one_line(["new", "g", "--ruleset", variant, "--players", SEVEN, "--db", tmp_path / "g.db"],
             "community.broken", "bansha-community-broken", "ModuleNotFoundError")


def raises(res, a):
    raise ZeroDivisionError("division by zero")


def refuses(game, action):
    raise RuntimeError("a bug in a check")


class Raising:
    @hookimpl
    def bansha_roles(self):
        return [Role(name="查验者", alias="cop", camp="好人", skills=(
            Skill(name="验", alias="check", phases=("night",), step="info", effect=raises),))]


class RaisingCheck:
    @hookimpl
    def bansha_roles(self):
        return [Role(name="查验者", alias="cop", camp="好人", skills=(
            Skill(name="验", alias="check", phases=("night",), step="info", effect=raises),))]

    @hookimpl
    def bansha_validate_action(self, game, action):
        return refuses(game, action)


@pytest.fixture
def raising():
    registry.register_local("raising", Raising())
    registry.register_local("raising-check", RaisingCheck())
    yield
    registry.LOCAL_PLUGINS.pop("raising", None)
    registry.LOCAL_PLUGINS.pop("raising-check", None)
    registry._RULESETS.clear()


def test_scenario_run_reports_a_file_whose_plugin_raises_and_goes_on(tmp_path, raising):
    scenario = (ROOT / "tests" / "kernel" / "scenarios" / "night-kill-heal.toml").read_text(encoding="utf-8")
    files = []
    for plugin in ("raising", "raising-check", "toy"):
        board = tmp_path / f"{plugin}.toml"
        board.write_text(f'extends = "{TOY.as_posix()}"\nid = "toy-{plugin}"\nname = "x"\n[roles]\n"查验者" = "{plugin}"\n',
                         encoding="utf-8")
        sc = tmp_path / f"sc-{plugin}.toml"
        sc.write_text(scenario.replace('ruleset = "../toy.toml"', f'ruleset = "{board.as_posix()}"'), encoding="utf-8")
        files.append(sc)
    code, out, err = run_main(["scenario", "run", *files])
    assert code == 2, (out, err)
    assert "Traceback" not in out + err
    invalid = [line for line in err.splitlines() if line.startswith("无效")]
    assert len(invalid) == 2, err
    assert "sc-raising.toml" in invalid[0] and "ZeroDivisionError" in invalid[0] and "验" in invalid[0], invalid[0]
    assert "sc-raising-check.toml" in invalid[1] and "RuntimeError" in invalid[1], invalid[1]
    assert "1" in out  # the third file ran and passed


def test_board_new_of_an_installed_id_writes_nothing(tmp_path):
    one_line(["board", "new", "m217", "--extends", "m217", "--dir", tmp_path], "m217")
    one_line(["board", "new", "mafia-basic", "--extends", "m217", "--dir", tmp_path], "mafia-basic")
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("name", ["../x", "", " 龙", "a/b", "{x}", ".hidden"])
def test_role_new_with_a_name_that_is_no_role_name_writes_nothing(tmp_path, name):
    one_line(["role", "new", name, "--board", "mafia-basic", "--alias", "xx", "--dir", tmp_path], "角色名")
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("name, alias", [("平民", "pm"), ("龙", "citizen"), ("citizen", "x")])
def test_role_new_of_a_role_the_board_has_writes_nothing(tmp_path, name, alias):
    one_line(["role", "new", name, "--board", "mafia-basic", "--alias", alias, "--dir", tmp_path], "平民")
    assert not list(tmp_path.iterdir())


def test_an_edit_puts_a_role_in_one_pool_and_removes_it_from_where_it_is(tmp_path):
    add = tmp_path / "add.toml"
    add.write_text('extends = "m217"\nid = "m217-add"\nname = "a"\n[[edits]]\npool = "弱神"\nadd = ["狼王"]\n', encoding="utf-8")
    one_line(["board", "show", add], "狼王", "狼人")
    gone = tmp_path / "gone.toml"
    gone.write_text('extends = "m217"\nid = "m217-gone"\nname = "a"\n[[edits]]\npool = "弱神"\nremove = ["狼王"]\n', encoding="utf-8")
    line = one_line(["board", "show", gone], "弱神", "狼王", "狼人")
    assert "基础规则里没有" not in line


class _BrokenBoard:
    """A board package (``bansha.rulesets``) whose module raises as it is imported."""

    name, value, group, dist = "mafia-lost", "bansha_mafia_lost", registry.RULESET_GROUP, "bansha-mafia-lost"

    def load(self):
        raise SyntaxError("invalid syntax (bansha_mafia_lost/__init__.py, line 3)")


def test_a_board_package_that_fails_to_import_is_marked_not_skipped(monkeypatch, tmp_path):
    real = registry.entry_points
    monkeypatch.setattr(registry, "entry_points",
                        lambda group: (*real(group), *((_BrokenBoard(),) if group == registry.RULESET_GROUP else ())))
    registry.installed_manifests.cache_clear()
    try:
        marked = next(line for line in works(["rulesets"]).splitlines() if line.startswith("mafia-lost"))
        assert "bansha-mafia-lost" in marked and "SyntaxError" in marked, marked
        one_line(["new", "g", "--ruleset", "mafia-lost", "--players", SEVEN, "--db", tmp_path / "g.db"], "bansha-mafia-lost")
        works(["new", "g", "--ruleset", "mafia-basic", "--players", SEVEN, "--db", tmp_path / "g.db"])
    finally:
        monkeypatch.undo()
        registry.UNIMPORTABLE.pop("mafia-lost", None)
        registry.installed_manifests.cache_clear()
