"""Issue 32, items 2 and 3: a board's fault stays in its box, and a game moves to a corrected board.

A role plugin that raises while a night resolves refuses that resolve in one line naming the role,
its plugin, the skill and the step (exit 2, the store byte-identical; before: a KeyError traceback).
The director fixes the board and ``bansha board reload GAME --from FILE`` moves the stored game to
it, because the whole log replays the same; the game then plays on. A board under which the log
would play differently, or another board's id, is refused naming why, and the game is unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest
from bansha import Role, Skill, hookimpl
from bansha.engine import registry
from clirun import LIBRARY_ENGLISH, run_main, settled_bytes

TOY = Path(__file__).resolve().parents[1] / "kernel" / "toy.toml"
SEVEN = "甲,乙,丙,丁,戊,己,庚"


def fails(res, a):
    raise KeyError("chossen")  # what a misspelt template field raised mid-game


class Faulty:
    """查验者 whose check raises (a plugin with a bug)."""

    @hookimpl
    def bansha_roles(self):
        return [Role(name="查验者", alias="cop", camp="好人", skills=(
            Skill(name="验", alias="check", phases=("night",), step="info", effect=fails),))]


@pytest.fixture(autouse=True)
def faulty_plugin():
    registry.register_local("faulty", Faulty())
    yield
    registry.LOCAL_PLUGINS.pop("faulty", None)
    registry._RULESETS.clear()


def board(tmp_path: Path, name: str, plugin: str, extra: str = "", board_id: str = "toy-faulty") -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(f'extends = "{TOY.as_posix()}"\nid = "{board_id}"\nname = "{name}"\n'
                    f'[roles]\n"查验者" = "{plugin}"\n{extra}', encoding="utf-8")
    return path


def refused(db: Path, *argv: str | Path) -> str:
    before = settled_bytes(db)
    code, out, err = run_main([*argv, "--db", db])
    lines = [x for x in (out + err).splitlines() if x.strip()]
    assert code == 2 and len(lines) == 1, (argv, code, out, err)
    assert "Traceback" not in lines[0] and not [w for w in LIBRARY_ENGLISH if w in lines[0] and w != "error:"], lines[0]
    assert settled_bytes(db) == before, argv
    return lines[0]


def ok(db: Path, *argv: str | Path) -> str:
    code, out, err = run_main([*argv, "--db", db])
    assert code == 0, (argv, out, err)
    return out


@pytest.fixture
def night(tmp_path) -> tuple[Path, str]:
    """A game of the faulty board at night 1 with the 查验者's check sent: (db, the 查验者)."""
    db = tmp_path / "g.db"
    ok(db, "new", "g", "--ruleset", board(tmp_path, "faulty", "faulty"), "--players", SEVEN, "--seed", "1")
    ok(db, "resolve", "g", "--yes")
    from bansha.store.store import Store

    g = Store(db).load("g")
    assert g.phase.name == "night"
    cop = next(p.name for p in g.players.values() if p.role == "查验者")
    target = next(p.name for p in g.players.values() if p.name != cop)
    ok(db, "act", "g", cop, "验", target)
    return db, cop


def test_a_plugin_that_raises_refuses_the_resolve_in_one_line(night):
    db, _ = night
    line = refused(db, "resolve", "g", "--yes")
    for words in ("查验者", "faulty", "验", "info", "KeyError"):
        assert words in line, (words, line)


def test_the_game_plays_on_once_the_board_is_reloaded(night, tmp_path):
    db, cop = night
    refused(db, "resolve", "g", "--yes")
    fixed = board(tmp_path, "fixed", "toy")
    said = ok(db, "board", "reload", "g", "--from", fixed)
    assert "toy-faulty" in said and "2" in said, said
    out = ok(db, "resolve", "g", "--yes")
    assert f"[{cop}]" in out, out  # the check is told
    from bansha.store.store import Store

    assert Store(db).load("g").manifest.roles["查验者"] == "toy"


def test_a_board_under_which_the_log_plays_differently_is_refused(night, tmp_path):
    db, _ = night
    differs = board(tmp_path, "differs", "toy", extra='[texts]\nnobody_out = "Nobody leaves today, says the new board."\n')
    line = refused(db, "board", "reload", "g", "--from", differs)
    assert "event 1" in line and "resolve" in line, line


def test_another_boards_file_is_refused(night, tmp_path):
    db, _ = night
    other = board(tmp_path, "other", "toy", board_id="toy-other")
    line = refused(db, "board", "reload", "g", "--from", other)
    assert "toy-other" in line and "toy-faulty" in line, line


def test_a_board_that_does_not_check_is_refused(night, tmp_path):
    db, _ = night
    broken = board(tmp_path, "broken", "toy", extra='[vote]\ntie = "nowhere"\n')
    line = refused(db, "board", "reload", "g", "--from", broken)
    assert "vote.tie" in line, line


def test_reload_of_an_unknown_game(tmp_path):
    db = tmp_path / "g.db"
    ok(db, "new", "g", "--ruleset", board(tmp_path, "fixed", "toy"), "--players", SEVEN)
    refused(db, "board", "reload", "nosuch", "--from", board(tmp_path, "fixed", "toy"))


def test_a_game_stored_with_a_broken_homebrew_text_moves_to_the_fixed_file(tmp_path):
    """A game created before texts were checked keeps ``{chossen}`` in its stored board: every
    command now refuses it in one line, and a reload from the fixed file brings it back."""
    import sqlite3

    fixed = Path(__file__).resolve().parents[2] / "examples" / "homebrew-board" / "board.toml"
    db = tmp_path / "g.db"
    ok(db, "new", "g", "--ruleset", fixed, "--players", SEVEN, "--seed", "2")
    ok(db, "resolve", "g", "--yes")
    con = sqlite3.connect(db)
    (setup,) = con.execute("SELECT setup FROM games WHERE name='g'").fetchone()
    assert "{chosen}属于{value}".encode() in setup
    con.execute("UPDATE games SET setup=? WHERE name='g'", (setup.replace("{chosen}属于".encode(), "{chossen}属于".encode()),))
    con.commit()
    con.close()
    assert "{chossen}" in refused(db, "status", "g")
    said = ok(db, "board", "reload", "g", "--from", fixed)
    assert "mafia-homebrew" in said
    ok(db, "status", "g")
    ok(db, "resolve", "g", "--yes")


MAFIA = Path(__file__).resolve().parents[2] / "rulesets" / "mafia-basic" / "bansha_mafia_basic" / "mafia-basic.toml"


@pytest.fixture
def upgraded(monkeypatch, tmp_path):
    """The installed mafia-basic replaced by another version of its file (an upgraded
    distribution): ``upgraded(old, new)`` edits the shipped text."""
    real = registry.ruleset_files

    def upgrade(old: str, new: str) -> None:
        text = MAFIA.read_text(encoding="utf-8")
        assert old in text, old
        path = tmp_path / "v2" / "mafia-basic.toml"
        path.parent.mkdir(exist_ok=True)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        monkeypatch.setattr(registry, "ruleset_files", lambda: {**real(), "mafia-basic": path})
        registry.installed_manifests.cache_clear()

    yield upgrade
    monkeypatch.undo()
    registry.installed_manifests.cache_clear()
    registry._RULESETS.clear()


@pytest.fixture
def mafia(tmp_path) -> Path:
    db = tmp_path / "m.db"
    ok(db, "new", "m", "--ruleset", "mafia-basic", "--players", SEVEN, "--seed", "4")
    ok(db, "resolve", "m", "--yes")
    ok(db, "resolve", "m", "--yes")
    return db


def test_reload_without_from_reads_the_upgraded_distribution(mafia, upgraded):
    upgraded("description = \"5–20人", "description = \"（第二版）5–20人")
    said = ok(mafia, "board", "reload", "m")
    assert "mafia-basic" in said and "2" in said, said
    from bansha.store.store import Store

    assert Store(mafia).setup("m").manifest.description.startswith("（第二版）")
    ok(mafia, "resolve", "m", "--yes")


def test_an_upgrade_that_would_change_what_was_told_is_refused(mafia, upgraded):
    upgraded('[texts]\nwin = "游戏结束，{camps}胜利。"', '[texts]\nwin = "游戏结束，{camps}胜利。"\nnobody_out = "今日无人出局（第二版）。"')
    from bansha.store.store import Store

    before = Store(mafia).setup("m")
    line = refused(mafia, "board", "reload", "m")
    assert "第 1 个事件" in line and "结算" in line, line
    assert Store(mafia).setup("m") == before


def test_reload_of_a_board_read_from_a_file_needs_the_file(night):
    db, _ = night
    line = refused(db, "board", "reload", "g")
    assert "--from" in line and "toy-faulty" in line, line
