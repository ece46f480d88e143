"""Issue 32, item 1: one validator per board file, run wherever the file is read.

Each broken board below is refused by ``board show``, ``board diff``, ``new``, ``demo`` and
``simulate`` with the same one line (exit 2, Chinese, naming the file and the key), and ``new``
stores nothing. Before, ``board show`` and ``board diff`` printed every one of them as valid, and
the homebrew ones (a text naming an unknown field or Python's insides, more targets than seats,
``to = "killer"`` on a skill no death triggers, a role declared twice, a variant with a shipped
board's id or a path for an id) were accepted by ``new`` too, failing only mid-game."""

from __future__ import annotations

from pathlib import Path

import pytest
from clirun import LIBRARY_ENGLISH, run_main, settled_bytes

ROOT = Path(__file__).resolve().parents[2]
HOMEBREW = (ROOT / "examples" / "homebrew-board" / "board.toml").read_text(encoding="utf-8")
SEVEN = "甲,乙,丙,丁,戊,己,庚"


def homebrew(old: str, new: str) -> str:
    assert old in HOMEBREW, old
    return HOMEBREW.replace(old, new, 1)


CHECK = '{ card = "查验", what = "阵营", text = "{chosen}属于{value}。" }'
GUARD_SKILL = 'target_self = true\nno_repeat_target = true\n'

#: case -> (board text, words the refusal holds)
BOARDS = {
    "text-misspelt-field": (homebrew("{chosen}属于{value}", "{chossen}属于{value}"),
                            ["homebrew[1].skills[0].effects[0].text", "{chossen}"]),
    "text-python-insides": (homebrew("{chosen}属于{value}", "{chosen.__class__.__mro__}属于{value}"),
                            ["homebrew[1].skills[0].effects[0].text", "__class__"]),
    "text-conversion": (homebrew("{chosen}属于{value}", "{chosen!r}属于{value}"), ["effects[0].text", "{chosen!r}"]),
    "text-lone-brace": (homebrew("{chosen}属于{value}", "{chosen属于{value}"), ["effects[0].text"]),
    "jinx-text": (homebrew('text = "你被医生守护了。"', 'text = "你被{doctor}守护了。"'), ["jinxes[0].effects[1].text", "{doctor}"]),
    "targets-beyond-every-table": (homebrew('step = "check"\n', 'step = "check"\ntargets = 9\n'),
                                   ["侦探", "调查", "9", "7 人桌"]),
    "killer-without-death-trigger": (homebrew(CHECK, '{ card = "告知", to = "killer", text = "x" }'),
                                     ["effects[0].to", "killer"]),
    "role-declared-twice": (homebrew('name = "侦探"', 'name = "医生"'), ["homebrew[1].name", "医生", "homebrew[0]"]),
    "skill-declared-twice": (HOMEBREW + '\n[[homebrew.skills]]\nname = "调查"\nphases = ["night"]\nstep = "check"\n'
                             'effects = [{ card = "保护" }]\n', ["skills[1].name", "调查"]),
    "id-of-a-shipped-board": (homebrew('id = "mafia-homebrew"', 'id = "mafia-basic"'), ["键 id", "mafia-basic"]),
    "id-a-path": (homebrew('id = "mafia-homebrew"', 'id = "../../evil"'), ["键 id", "../../evil"]),
    "id-inherited": (homebrew('id = "mafia-homebrew"\n', ""), ["键 id", "mafia-basic"]),
    "unknown-card": (homebrew('card = "保护" }]\n\n#', 'card = "魔法" }]\n\n#'), ["effects[0].card", "魔法"]),
    "unknown-step": (homebrew('step = "check"', 'step = "nowhere"'), ["step", "nowhere"]),
    "unknown-phase": (homebrew('phases = ["night"]\nstep = "check"', 'phases = ["夜半"]\nstep = "check"'), ["phases", "夜半"]),
    "negative-draw": ('extends = "m217"\nid = "m217-neg"\nname = "n"\n[[edits]]\npool = "弱神"\ndraw = -1\n'
                      '[[edits]]\npool = "强神"\ndraw = 8\n', ["弱神", "-1"]),
    "negative-fixed": (homebrew('"侦探" = 1, "平民" = 3 }', '"侦探" = -1, "平民" = 5 }'), ["tables.fixed.侦探", "-1"]),
    "table-does-not-add-up": (homebrew('"平民" = 3 }', '"平民" = 4 }'), ["7 人桌", "8 张"]),
    "bad-vote-tie": ('extends = "mafia-basic"\nid = "mb-tie"\nname = "t"\n[vote]\ntie = "runoff-x"\n', ["vote.tie", "runoff-x"]),
    "role-in-two-pools": ('extends = "m217"\nid = "m217-two"\nname = "t"\n[[tables]]\nseats = 14\n'
                          'fixed = { "狼王" = 1 }\n[[tables.pools]]\nname = "a"\nroles = ["狼王", "骑士", "女巫"]\ndraw = 13\n',
                          ["14 人桌", "狼王"]),
}


def one_line(code: int, out: str, err: str, argv) -> str:
    lines = [x for x in (out + err).splitlines() if x.strip()]
    assert code == 2 and len(lines) == 1, (argv, code, out, err)
    assert lines[0].startswith("错误："), lines[0]
    assert not [w for w in LIBRARY_ENGLISH if w in lines[0]], lines[0]
    return lines[0]


@pytest.mark.parametrize("case", sorted(BOARDS))
def test_every_door_refuses_the_board_with_the_line_new_gives(tmp_path, case):
    text, words = BOARDS[case]
    board = tmp_path / f"{case}.toml"
    board.write_text(text, encoding="utf-8")
    db = tmp_path / "g.db"
    seats = "1,2,3,4,5,6,7,8,9,10,11,12,13,14" if "m217" in text.split("\n", 1)[0] else SEVEN
    new = one_line(*run_main(argv := ["new", "g", "--ruleset", board, "--players", seats, "--db", db]), argv)
    assert settled_bytes(db) is None or not __import__("bansha.store.store", fromlist=["Store"]).Store(db).names()
    assert str(board) in new, new
    for w in words:
        assert w in new, (w, new)
    for argv in (["board", "show", board], ["board", "diff", "mafia-basic", board], ["demo", "--ruleset", board],
                 ["simulate", board, "--games", "1"]):
        assert one_line(*run_main(argv), argv) == new, argv


def test_the_shipped_and_example_boards_still_show(tmp_path):
    for ref in ["m217", "light-shadow", "qisha-xia", "mafia-basic", str(ROOT / "examples/homebrew-board/board.toml"),
                str(ROOT / "tests/homebrew/m217-homebrew.toml"), str(ROOT / "tests/homebrew/cards-board.toml")]:
        code, out, err = run_main(["board", "show", ref])
        assert code == 0 and out.strip() and not err, (ref, err)


def test_a_homebrew_text_with_its_fields_plays(tmp_path):
    """The check refuses only what the card cannot fill: a text naming its fields still plays."""
    board = tmp_path / "b.toml"
    board.write_text(homebrew(CHECK, '{ card = "查验", what = "阵营", text = "{actor}查{chosen}（{target}）：{value}；{{原文}}" }'),
                     encoding="utf-8")
    db = tmp_path / "g.db"
    assert run_main(["new", "g", "--ruleset", board, "--players", SEVEN, "--db", db, "--seed", "3"])[0] == 0
    from bansha.store.store import Store

    g = Store(db).load("g")
    detective = next(p.name for p in g.players.values() if p.role == "侦探")
    other = next(p.name for p in g.players.values() if p.name != detective)
    while g.phase.name != "night":
        assert run_main(["resolve", "g", "--yes", "--db", db])[0] == 0
        g = Store(db).load("g")
    assert run_main(["act", "g", detective, "调查", other, "--db", db])[0] == 0
    code, out, err = run_main(["resolve", "g", "--yes", "--db", db])
    assert code == 0, err
    assert f"{detective}查{other}（{other}）：" in out and "{原文}" in out
