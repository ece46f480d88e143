"""``bansha role new NAME --board ID``: the distribution it writes plays its own scenario and
passes its own tests on every shipped board, and its tests still pass once the placeholder is
replaced by another rule and another skill (they test what survives writing the real role) (here with the module registered in-process; the
installed path, from wheels, is tests/kernel/test_outsider_path.py). Bad input is one line."""

import importlib.util
import subprocess
import sys

import pytest
from bansha.authoring.scenario import run_file

BOARDS = ["m217", "qisha-xia", "light-shadow", "mafia-basic"]


def _bansha(*args):
    return subprocess.run([sys.executable, "-m", "bansha.cli.cli", *args], capture_output=True, text=True)


def _import(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("board", BOARDS)
def test_a_new_role_plays_its_scenario_and_passes_its_test(tmp_path, bansha_plugin, board):
    out = _bansha("role", "new", "白昼学者", "--board", board, "--alias", "day-scholar", "--dir", str(tmp_path))
    assert out.returncode == 0, out.stderr
    folder = tmp_path / "bansha-community-day-scholar"
    assert out.stdout.strip() == str(folder)
    assert {p.name for p in folder.iterdir()} >= {"pyproject.toml", "bansha_community_day_scholar.py", "board.toml",
                                                  "scenarios", "tests", "README.md"}
    assert '"community.day-scholar" = "bansha_community_day_scholar"' in (folder / "pyproject.toml").read_text(encoding="utf-8")
    bansha_plugin("community.day-scholar", _import(folder / "bansha_community_day_scholar.py"))
    game = run_file(folder / "scenarios" / "day-scholar.toml")
    assert ("玩家1" in game.feedback) and any(t == "玩家2的座位号是2。" for _, t in game.feedback["玩家1"])
    tests = _import(folder / "tests" / "test_day_scholar.py")
    tests.test_the_variant_deals_the_role()
    tests.test_the_role_plays_what_it_is_offered()
    # the author writes the real role: another rule, another skill of another shape. The
    # scaffold's tests test what survives that (issue 32): they still pass
    module = folder / "bansha_community_day_scholar.py"
    text = module.read_text(encoding="utf-8")
    rule = text.split("\n\n")[1]
    text = (text.replace(rule, "> 白昼学者【凝视】每晚可令两名其他玩家互相得知对方的名字。")
            .replace('name="白昼学者·查看", alias="look"', 'name="凝视", alias="gaze"')
            .replace("targets=1,", "targets=2,")
            .replace("    target = res.game.player(action.targets[0])\n", "")
            .replace("# > 可查看一名其他玩家的座位号。", "# > 每晚可令两名其他玩家互相得知对方的名字。")
            .replace('res.feedback(action.actor, f"{target.name}的座位号是{target.seat}。")',
                     'a, b = action.targets\n    res.feedback(a, f"{b}看着你。")\n    res.feedback(b, f"{a}看着你。")'))
    assert "凝视" in text and "查看" not in text and "座位号" not in text
    module.write_text(text, encoding="utf-8")
    from bansha.engine import registry

    bansha_plugin("community.day-scholar", _import(module))
    assert registry.ruleset_for(registry.find_manifest(str(folder / "board.toml"))).role("白昼学者").skills[0].name == "凝视"
    tests = _import(folder / "tests" / "test_day_scholar.py")
    tests.test_the_variant_deals_the_role()
    tests.test_the_role_plays_what_it_is_offered()


def test_bad_names_and_a_used_folder_are_one_line(tmp_path):
    out = _bansha("role", "new", "白昼学者", "--board", "m217", "--dir", str(tmp_path))
    assert out.returncode == 2 and "--alias" in out.stderr and "Traceback" not in out.stderr
    out = _bansha("role", "new", "x", "--board", "no-such-board", "--dir", str(tmp_path))
    assert out.returncode == 2 and "no-such-board" in out.stderr and "Traceback" not in out.stderr
    assert _bansha("board", "new", "m217-v", "--extends", "m217", "--dir", str(tmp_path)).returncode == 0
    out = _bansha("board", "new", "m217-v", "--extends", "m217", "--dir", str(tmp_path))
    assert out.returncode == 2 and "已存在" in out.stderr and len(out.stderr.strip().splitlines()) == 1
