"""``bansha role new`` and ``bansha board new``: an installable distribution to start from,
outside this repository (docs/plugins.md "Outside this repository").

A role distribution: ``pyproject.toml`` (the ``bansha.roles`` entry point, a dependency on the
board's distribution, pytest configuration), one module with the rule text placeholder beside
the code, a variant board that deals the role (``board.toml``, ``extends`` the board), a
scenario folder that plays its one sentence, a pytest test and a README. A board distribution:
the variant manifest behind a ``bansha.rulesets`` entry point, depending on its base's
distribution, with a test. Each passes its own tests as generated, once installed
(``pip install -e .``). Every line written is worded in the board's language (Chinese on the
shipped boards)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bansha.engine.model import GameError
from bansha.text.messages import extend, say

extend({
    "scaffold_role_name": ("角色名 {value}：不能为空或超过 32 个字符，也不能含有 / \\ \" {{ }} 或控制字符，或以 . 开头",
                           "role name {value}: cannot be empty or longer than 32 characters, hold / \\ \" {{ }} or a control character, or start with ."),
    "scaffold_role_taken": ("规则 {board} 已有角色 {name}（别名 {alias}）", "ruleset {board} already has the role {name} (alias {alias})"),
    "scaffold_unwritable": ("{folder}：无法写入：{why}（--dir 须是一个文件夹）", "{folder}: cannot write: {why} (--dir must be a folder)"),
    "scaffold_board_taken": ("{id} 已是已安装的规则（{file}）：变体须有自己的 id", "{id} is an installed ruleset already ({file}): a variant needs an id of its own"),
})

_SLUG = re.compile(r"[a-z](?:[a-z0-9-]*[a-z0-9])?")


#: the longest id or alias a scaffold takes (a distribution's and a folder's name)
MAX_SLUG = 64
#: the longest role name a scaffold takes
MAX_ROLE_NAME = 32


def _slug(text: str, what: str) -> str:
    from bansha.text.messages import excerpt

    if not _SLUG.fullmatch(text) or len(text) > MAX_SLUG:
        raise GameError(say("scaffold_slug", None, what=what, value=excerpt(text)))
    return text


def _fresh(folder: Path) -> Path:
    """The empty folder a scaffold writes into, made; an OS error (``--dir`` a file, no
    permission) is one line naming the folder."""
    from bansha.door.files import os_why

    try:
        if folder.exists() and any(folder.iterdir()):
            raise GameError(say("scaffold_exists", None, folder=folder))
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise GameError(say("scaffold_unwritable", None, folder=folder, why=os_why(exc))) from None
    return folder


def _pyproject(dist: str, description: str, deps: list[str], entry_group: str, entry: str, module: str,
               package: bool, testpaths: list[str]) -> str:
    build = f'packages = ["{module}"]' if package else f'include = ["{module}.py"]'
    return f'''[project]
name = "{dist}"
version = "0.1.0"
description = "{description}"
requires-python = ">=3.11"
dependencies = [{", ".join(f'"{d}"' for d in deps)}]

[project.entry-points."{entry_group}"]
"{entry}" = "{module}"

[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[tool.hatch.build.targets.wheel]
{build}

[tool.pytest.ini_options]
testpaths = [{", ".join(f'"{p}"' for p in testpaths)}]
'''


def _night_phase(manifest) -> Any:
    """The phase a new role's placeholder skill is used in: the board's night, else its first
    phase without a vote, else its first phase."""
    cycle = [p for p in manifest.phases if not p.opening and not p.optional and p.steps]
    return (next((p for p in cycle if p.name == "night"), None)
            or next((p for p in cycle if not p.vote), None) or cycle[0])


def new_role(name: str, board: str, into: str | Path = ".", alias: str | None = None) -> Path:
    """Write the distribution ``bansha-community-<alias>`` of a role ``name`` for the installed
    board ``board`` into ``into``; returns its folder."""
    from bansha.engine.deal import deal
    from bansha.engine.registry import find_manifest, ruleset_for
    from bansha.text.messages import excerpt

    if not name.strip() or name.strip() != name or name.startswith(".") or len(name) > MAX_ROLE_NAME or any(
            c in '/\\"{}' or not c.isprintable() for c in name):
        raise GameError(say("scaffold_role_name", None, value=excerpt(name) or '""'))
    alias = _slug(alias if alias else name, "--alias")
    base = find_manifest(board)
    rs = ruleset_for(base)
    for role in rs.roles.values():  # a role the board has already (by name or by alias)
        if name in (role.name, role.alias) or alias in (role.name, role.alias):
            raise GameError(say("scaffold_role_taken", rs.lang, board=base.id, name=role.name, alias=role.alias or "—"))
    entry, dist = f"community.{alias}", f"bansha-community-{alias}"
    module = "bansha_community_" + alias.replace("-", "_")
    folder = _fresh(Path(into) / dist)
    phase = _night_phase(base)
    step = phase.steps[0].name
    camp = base.camps[0].name
    skill = f"{name}·查看"
    rule = f"{name}：每个{phase.alias or phase.name}可查看一名其他玩家的座位号。"
    (folder / "pyproject.toml").write_text(_pyproject(
        dist, f"{base.name}: {name}", ["bansha", f"bansha-{base.id}"], "bansha.roles", entry, module,
        False, ["scenarios", "tests"]), encoding="utf-8")
    (folder / f"{module}.py").write_text(f'''"""{name} — a role for {base.name} ({base.id}).

> {rule}

(The rule text above is a placeholder: paste the document's whole rule of the role here, and
quote each sentence beside the code that plays it.)
"""

from bansha import Role, Skill, hookimpl

# the quoted rule above, as one line for `bansha role show`
RULE = __doc__.split("\\n\\n")[1].removeprefix("> ")


def look(res, action):
    # > 可查看一名其他玩家的座位号。
    target = res.game.player(action.targets[0])
    res.feedback(action.actor, f"{{target.name}}的座位号是{{target.seat}}。")


ROLE = Role(
    name="{name}", alias="{alias}", camp="{camp}", rule=RULE,
    skills=(Skill(name="{skill}", alias="look", phases=("{phase.name}",), step="{step}", targets=1,
                  effect=look, does=("check",), rule=RULE),),
)


@hookimpl
def bansha_roles():
    return [ROLE]
''', encoding="utf-8")
    # a variant that deals the role: in the first pool of every table, or for a fixed deal in
    # place of one card of the most numerous role
    edit = ""
    table = base.tables[0]
    if table.pools:
        edit = f'\n[[edits]]\npool = "{table.pools[0].name}"\nadd = ["{name}"]\n'
    elif table.fixed:
        most = max(table.fixed, key=lambda r: table.fixed[r])
        edit = (f'\n[[edits]]\nseats = {table.seats}\nfixed = {{ "{name}" = 1, "{most}" = {table.fixed[most] - 1} }}\n')
    (folder / "board.toml").write_text(f'''# {base.name} with {name}: the board's variant that deals the role (docs/manifests.md).
extends = "{base.id}"
id = "{base.id}-{alias}"
name = "{base.name}（{name}）"

[roles]
"{name}" = "{entry}"
{edit}''', encoding="utf-8")
    # the scenario: the board's own deal for its first table, the first seat given the role
    names = [f"玩家{i}" for i in range(1, table.seats + 1)]
    seats = deal(rs, names, 1)
    players = [f'  {{ name = "{p.name}", role = "{name if i == 0 else p.role}"'
               + (f', camp = "{p.camp}"' if p.camp and i else "") + " },"
               for i, p in enumerate(seats)]
    label = f"{phase.name} {base.first_day}"
    (folder / "scenarios").mkdir()
    (folder / "scenarios" / f"{alias}.toml").write_text(f'''ruleset = "../board.toml"
title = "{name}查看{names[1]}的座位号"
description = """
> {rule}
"""
players = [
{chr(10).join(players)}
]

[[phases]]
phase = "{label}"
actions = [{{ actor = "{names[0]}", skill = "{skill}", targets = ["{names[1]}"] }}]
[phases.expect]
feedback = {{ "{names[0]}" = ["{names[1]}的座位号是2。"] }}
''', encoding="utf-8")
    if edit:
        dealt_check = (f'    dealt = any("{name}" in (t.fixed or {{}}) or any("{name}" in p.roles for p in t.pools) '
                       f'for t in rs.manifest.tables)\n    assert dealt')
    else:  # a deal by camps (光影传说): the director deals the role by hand (bansha new --deal)
        dealt_check = f'    assert rs.manifest.roles["{name}"] == "{entry}"'
    (folder / "tests").mkdir()
    # what survives writing the real role: it is installed and found by the variant, it has a
    # rule, the variant deals it, and a game plays with it using what it is offered (never the
    # placeholder's own words or skill: scenarios/ plays the rule's sentences)
    (folder / "tests" / f"test_{alias.replace('-', '_')}.py").write_text(f'''"""{name}: installed, the board's variant deals it, and a game of the variant plays with it
using every skill it is offered — whatever its rule says once written (the rule's sentences
are played by the scenarios in scenarios/)."""

from pathlib import Path

from bansha.engine.choices import seat_choices
from bansha.engine.deal import deal
from bansha.engine.engine import Game
from bansha.engine.model import ActEvent, PlayerSetup, ResolveEvent, Setup
from bansha.engine.registry import find_manifest, ruleset_for

BOARD = Path(__file__).resolve().parents[1] / "board.toml"


def test_the_variant_deals_the_role():
    rs = ruleset_for(find_manifest(str(BOARD)))
    role = rs.role("{name}")
    assert role.rule.strip()  # the rule text `bansha role show` prints
{dealt_check}


def test_the_role_plays_what_it_is_offered():
    """{name} in seat 1 of the board's own deal; for {len(base.phases) + 1} phases it sends the first
    choice it is offered (the first targets and args ``bansha status --as`` lists), which the
    engine accepts, and every phase resolves."""
    rs = ruleset_for(find_manifest(str(BOARD)))
    names = [f"玩家{{i}}" for i in range(1, {table.seats + 1})]
    seats = deal(rs, names, 1)
    players = [PlayerSetup(name=p.name, role="{name}" if i == 0 else p.role, camp=p.camp if i else "", setup=p.setup)
               for i, p in enumerate(seats)]
    game = Game(Setup(ruleset=rs.manifest.id, manifest=rs.manifest, players=players, seed=1, dealt_by="test"))
    played = []
    for _ in range({len(base.phases) + 1}):
        if game.winner is not None:
            break
        for choice in seat_choices(game, names[0]):
            if choice.submitted or len(choice.targets) < choice.min_targets:
                continue
            args = {{k: v[0] for k, v in choice.args.items() if v and v[0]}}
            game.apply(ActEvent(phase=game.label, actor=names[0], skill=choice.skill,
                                targets=choice.targets[:choice.min_targets], args=args))
            break
        played.append(game.label)
        game.apply(ResolveEvent(phase=game.label))
    assert played and game.resolved[-len(played):] == played  # each phase it reached was resolved
''', encoding="utf-8")
    (folder / "README.md").write_text(f'''# {dist}

{name}, a role for {base.name} (`{base.id}`), as an installable bansha plugin (entry point
`{entry}` in the group `bansha.roles`).

```sh
pip install -e .                       # with bansha and {base.name}: pip install bansha-{base.id}
pytest                                 # the scenarios in scenarios/ and the tests in tests/
bansha scenario run scenarios
bansha role show {name} --ruleset board.toml
bansha new g --ruleset board.toml --players 甲,乙,…
bansha simulate board.toml --games 20  # with bansha-sim installed
python -m build                        # or `uv build`: the wheel to publish
```

`board.toml` is {base.name} with {name} dealt (`extends = "{base.id}"` and one `[[edits]]`);
replace the placeholder rule in `{module}.py` with the document's text and its code, and
`scenarios/{alias}.toml` (which plays the placeholder's one sentence) with a scenario for each
sentence of the real rule. `tests/` checks what holds for any rule: the role is installed, the
variant deals it, and a game plays with it using what it is offered.
''', encoding="utf-8")
    return folder


def new_board(board_id: str, extends: str, into: str | Path = ".") -> Path:
    """Write the distribution ``bansha-<board_id>`` of a variant of the installed board
    ``extends`` into ``into``; returns its folder."""
    from bansha.engine.registry import find_manifest, ruleset_files

    board_id = _slug(board_id, "ID")
    if board_id in ruleset_files():  # `board new m217 --extends m217`: a package depending on itself
        raise GameError(say("scaffold_board_taken", None, id=board_id, file=ruleset_files()[board_id]))
    base = find_manifest(extends)
    dist, module = f"bansha-{board_id}", "bansha_" + board_id.replace("-", "_")
    folder = _fresh(Path(into) / dist)
    (folder / "pyproject.toml").write_text(_pyproject(
        dist, f"{base.name}的变体 {board_id}", ["bansha", f"bansha-{base.id}"], "bansha.rulesets", board_id, module,
        True, ["tests"]), encoding="utf-8")
    pkg = folder / module
    pkg.mkdir()
    (pkg / "__init__.py").write_text(f'"""{base.name}的变体 {board_id}: the manifest beside this module."""\n', encoding="utf-8")
    pool = base.tables[0].pools[0] if base.tables and base.tables[0].pools else None
    example = (f'# [[edits]]\n# pool = "{pool.name}"\n# add = ["…"]\n# draw = {pool.draw}\n' if pool else
               '# [[edits]]\n# list = "rules"\n# insert = ["…"]\n')
    (pkg / f"{board_id}.toml").write_text(f'''# {base.name}的变体：只写与 {base.id} 不同之处 (docs/manifests.md "extends", "[[edits]]").
extends = "{base.id}"
id = "{board_id}"
name = "{base.name}（{board_id}）"

# 例：
{example}''', encoding="utf-8")
    (folder / "tests").mkdir()
    (folder / "tests" / f"test_{module}.py").write_text(f'''"""{board_id}: installed, the variant is found by id, differs from {base.id} only where it says,
and plays {base.id}'s demo under its own rules."""

import subprocess
import sys

from bansha.engine.registry import find_manifest, ruleset_for


def test_the_variant_loads_by_id():
    m = find_manifest("{board_id}")
    assert m.id == "{board_id}"
    ruleset_for(m)  # every plugin it names is installed, every edit applies


def _bansha(*args):
    return subprocess.run([sys.executable, "-m", "bansha.cli.cli", *args], capture_output=True, text=True)


def test_it_differs_from_its_base_where_it_says():
    out = _bansha("board", "diff", "{base.id}", "{board_id}")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0] == 'id: "{base.id}" → "{board_id}"'


def test_the_demo_plays():
    out = _bansha("demo", "--ruleset", "{board_id}")
    assert out.returncode == 0 and out.stdout.strip(), out.stderr  # a demo that is refused is a failure
''', encoding="utf-8")
    (folder / "README.md").write_text(f'''# {dist}

{base.name}的变体 `{board_id}`: `{module}/{board_id}.toml` (`extends = "{base.id}"`), found
through the `bansha.rulesets` entry point once installed.

```sh
pip install -e .                       # with bansha-{base.id}
pytest
bansha board show {board_id}           # the resolved board
bansha board diff {base.id} {board_id}
bansha demo --ruleset {board_id}
python -m build                        # or `uv build`: the wheel to publish
```
''', encoding="utf-8")
    return folder
