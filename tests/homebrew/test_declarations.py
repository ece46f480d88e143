"""A homebrew declaration is checked like code would be: each malformed one is refused by the
``bansha`` command (a real subprocess) with one line naming the key, in the board's language
(Chinese on the shipped boards), exit code 2, nothing stored; ``bansha role show`` prints a
homebrew role with its cards."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BANSHA = str(Path(sys.executable).parent / "bansha")
HERE = Path(__file__).parent

GOOD_SKILL = '''
[[homebrew]]
name = "药师"
camp = "村民阵营"
rule = "每晚令一人获得[守护：1]。"
[[homebrew.skills]]
name = "调药"
phases = ["night"]
step = "深夜14b"
tags = ["指定"]
effects = [{ card = "守护", count = 1 }]
'''


def board(tmp_path: Path, body: str, base: str = "m217") -> Path:
    path = tmp_path / "board.toml"
    path.write_text(f'extends = "{base}"\nid = "brew"\nname = "自制"\n' + body, encoding="utf-8")
    return path


def bansha(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "BANSHA_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("BANSHA_LANG", None)
    return subprocess.run([BANSHA, *args], capture_output=True, text=True, env=env, timeout=120)


# (what is wrong, the TOML, the key named, a fragment of the Chinese reason)
MALFORMED = [
    ("unknown card", GOOD_SKILL.replace('card = "守护", count = 1', 'card = "毒杀"'),
     "homebrew[0].skills[0].effects[0].card", "本规则没有卡牌 毒杀"),
    ("a card the board lacks", GOOD_SKILL.replace('card = "守护", count = 1', 'card = "救治"'),
     "homebrew[0].skills[0].effects[0].card", "本规则没有卡牌 救治"),
    ("a step the board does not have", GOOD_SKILL.replace('step = "深夜14b"', 'step = "深夜99"'),
     "homebrew[0].skills[0].step", "深夜99 不是阶段 night 的步骤"),
    ("a phase the board does not have", GOOD_SKILL.replace('phases = ["night"]', 'phases = ["evening"]'),
     "homebrew[0].skills[0].phases", "没有阶段 evening"),
    ("an impossible target count", GOOD_SKILL.replace('tags = ["指定"]', 'targets = 2\nmax_targets = 1'),
     "homebrew[0].skills[0].targets", "目标数不可能"),
    ("an unknown target range", GOOD_SKILL.replace('tags = ["指定"]', 'target_range = "邻座"'),
     "homebrew[0].skills[0].target_range", "邻座 不是可选值"),
    ("the dead and oneself", GOOD_SKILL.replace('tags = ["指定"]', 'target_range = "dead"\ntarget_self = true'),
     "homebrew[0].skills[0].target_self", "已出局角色时不能选择自己"),
    ("a key no skill has", GOOD_SKILL.replace('tags = ["指定"]', 'tagz = ["指定"]'),
     "homebrew[0].skills[0].tagz", "没有这个键"),
    ("a wrong type", GOOD_SKILL.replace('tags = ["指定"]', 'targets = "一"'),
     "homebrew[0].skills[0].targets", "应为 int，实际为 str"),
    ("a missing name", GOOD_SKILL.replace('name = "调药"\n', ''),
     "homebrew[0].skills[0].name", "缺少此键"),
    ("a card's unknown parameter", GOOD_SKILL.replace('count = 1', 'power = 2'),
     "homebrew[0].skills[0].effects[0].power", "没有这个键"),
    ("a card's wrong value", GOOD_SKILL.replace('card = "守护", count = 1', 'card = "冰冻", until = "明天"'),
     "homebrew[0].skills[0].effects[0]", "明天 不是可选值"),
    ("an unknown camp", GOOD_SKILL.replace('camp = "村民阵营"', 'camp = "月亮阵营"'),
     "homebrew[0].camp", "没有阵营 月亮阵营"),
    ("a condition on an unknown camp", GOOD_SKILL.replace('count = 1', 'count = 1, if_camp = "月亮阵营"'),
     "homebrew[0].skills[0].effects[0].if_camp", "没有阵营 月亮阵营"),
    ("a jinx with an unknown role", GOOD_SKILL + '[[homebrew.jinxes]]\nrole = "路人"\nrule = "…"\n',
     "homebrew[0].jinxes[0].role", "本规则没有角色 路人"),
    ("a targeted trigger no step plays", GOOD_SKILL.replace('phases = ["night"]\n', 'trigger = "targeted"\n'),
     "homebrew[0].skills[0].trigger", "被指定触发需要某个步骤的 after 包含 bansha.homebrew.targeted"),
    ("an unknown trigger", GOOD_SKILL.replace('phases = ["night"]\n', 'trigger = "dawn"\n'),
     "homebrew[0].skills[0].trigger", "dawn 不是可选值"),
    ("a skill with no phase", GOOD_SKILL.replace('phases = ["night"]\n', ''),
     "homebrew[0].skills[0].phases", "技能需要 phases"),
]


@pytest.mark.parametrize("body,key,why", [pytest.param(b, k, w, id=i) for i, b, k, w in MALFORMED])
def test_a_malformed_declaration_is_one_line(tmp_path, body, key, why):
    path = board(tmp_path, body)
    db = tmp_path / "games.db"
    r = bansha(tmp_path, "new", "g", "--ruleset", str(path), "--players", "甲,乙,丙,丁,戊,己,庚,辛,壬", "--db", str(db))
    assert r.returncode == 2, r.stdout + r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert f"键 {key}" in lines[0] and why in lines[0], lines[0]
    assert "Traceback" not in r.stderr and not r.stdout
    r = bansha(tmp_path, "role", "show", "药师", "--ruleset", str(path), "--json")
    assert r.returncode == 2
    err = json.loads(r.stdout)
    assert err["code"] == 2 and key in err["error"] and why in err["error"]


def test_the_same_declaration_is_good_and_shown_with_its_cards(tmp_path):
    path = board(tmp_path, GOOD_SKILL)
    r = bansha(tmp_path, "role", "show", "药师", "--ruleset", str(path))
    assert r.returncode == 0, r.stderr
    assert "技能 调药" in r.stdout and "卡牌：[守护] 获得[守护：1]" in r.stdout
    r = bansha(tmp_path, "roles", str(path), "--json")
    row = next(x for x in json.loads(r.stdout) if x["role"] == "药师")
    assert row["plugin"] == "bansha.homebrew" and row["skills"] == ["调药"]


def test_a_card_of_another_board_is_refused(tmp_path):
    """M217's 穿透 is no card of 七杀·侠's."""
    path = board(tmp_path, GOOD_SKILL.replace('camp = "村民阵营"', 'camp = "光明"')
                 .replace('step = "深夜14b"', 'step = "kill"').replace('card = "守护", count = 1', 'card = "穿透"'),
                 base="qisha-xia")
    r = bansha(tmp_path, "roles", str(path))
    assert r.returncode == 2
    assert r.stderr.strip() == ("错误：规则 brew：键 homebrew[0].skills[0].effects[0].card：本规则没有卡牌 穿透"
                                "（可用：保护、击杀、告知、宣布、救治、杀人、查验、状态、移除状态、转移、阻止、验人）")


def test_roles_in_a_file_the_board_includes(tmp_path):
    """``homebrew_files``: the roles of a file beside the board join its own, and a new game
    stores them inline (editing the file later changes no running game)."""
    (tmp_path / "roles.toml").write_text(GOOD_SKILL, encoding="utf-8")
    path = board(tmp_path, 'homebrew_files = ["roles.toml"]\n')
    r = bansha(tmp_path, "role", "show", "药师", "--ruleset", str(path))
    assert r.returncode == 0, r.stderr
    assert "卡牌：[守护] 获得[守护：1]" in r.stdout
    db = str(tmp_path / "g.db")
    r = bansha(tmp_path, "new", "g", "--ruleset", str(path), "--deal", str(_deal(tmp_path)), "--db", db)
    assert r.returncode == 0, r.stderr
    (tmp_path / "roles.toml").write_text("", encoding="utf-8")
    r = bansha(tmp_path, "status", "g", "--db", db)
    assert r.returncode == 0 and "药师" in r.stdout, r.stderr


def _deal(tmp_path: Path) -> Path:
    roles = ["药师", "狼王", "恐怖分子", "狼巫", "隐狼", "预言家", "女巫", "骑士", "猎人", "乌鸦", "占星师", "丘比特", "面包师", "花匠"]
    names = "甲,乙,丙,丁,戊,己,庚,辛,壬,癸,子,丑,寅,卯".split(",")
    path = tmp_path / "deal.toml"
    path.write_text("".join(f'[[players]]\nname = "{n}"\nrole = "{r}"\n' for n, r in zip(names, roles, strict=True)), encoding="utf-8")
    return path


def test_an_included_file_holds_only_roles(tmp_path):
    (tmp_path / "roles.toml").write_text('id = "x"\n' + GOOD_SKILL, encoding="utf-8")
    path = board(tmp_path, 'homebrew_files = ["roles.toml"]\n')
    r = bansha(tmp_path, "roles", str(path))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert "只能包含 [[homebrew]]（多余的键：id）" in r.stderr
    path = board(tmp_path, 'homebrew_files = ["missing.toml"]\n')
    r = bansha(tmp_path, "roles", str(path))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "missing.toml" in r.stderr
