"""Issue 32, item 5: the report's "other doors" and "language and tracebacks", each refused in
one line in the board's language, exit 2, the store byte-identical (or, for a read, not made).

Each case ran on main as the report says: the director's whole view for ``status --as ""``, a
server on every interface or on port 4464, a floor of 10¹⁰ announced, a phase without windows
resolved by ``--window``, ``undo`` dropping the last good event of a damaged game, a missing
event unnoticed, a store made by ``games``, a second game ``ｌｓ１`` beside ``ls1``, clashing
options accepted, and English or a traceback for the rest."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import LIBRARY_ENGLISH, run_main, settled_bytes

ROOT = Path(__file__).resolve().parents[2]
SEVEN = "甲,乙,丙,丁,戊,己,庚"
M14 = ",".join(["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛", "壬", "癸", "子", "丑", "寅", "卯"])
ENGLISH = [w for w in LIBRARY_ENGLISH if w != "error:"] + [
    "Expecting value", "invalid literal", "is not in the range", "None", "MemoryError", "Invalid IPv6"]


def refused(db: Path | None, *argv, says: str = "") -> str:
    """Exit 2, one line 错误：… holding ``says``, no English, the store byte-identical."""
    before = settled_bytes(db) if db is not None else None
    code, out, err = run_main([*argv, *(["--db", db] if db is not None else [])])
    lines = [x for x in (out + err).splitlines() if x.strip()]
    assert code == 2 and len(lines) == 1, (argv, code, out, err)
    assert lines[0].startswith("错误："), lines[0]
    assert not [w for w in ENGLISH if w in lines[0]], lines[0]
    assert says in lines[0], (says, lines[0])
    if db is not None:
        assert settled_bytes(db) == before, argv
    return lines[0]


def ok(db: Path, *argv) -> str:
    code, out, err = run_main([*argv, "--db", db])
    assert code == 0, (argv, out, err)
    return out


@pytest.fixture
def game(tmp_path) -> Path:
    db = tmp_path / "g.db"
    ok(db, "new", "g", "--ruleset", "mafia-basic", "--players", SEVEN)
    return db


def test_status_as_an_empty_name_is_no_view(game):
    refused(game, "status", "g", "--as", "", says="--as")
    refused(game, "status", "g", "--as", "  ", says="--as")


@pytest.mark.parametrize("argv, says", [(["--host", ""], "--host"), (["--port", "70000"], "--port 70000"),
                                        (["--port", "0"], "--port 0"), (["--workers", "0"], "1 到 64")])
def test_serve_refuses_an_address_it_would_not_listen_on_as_asked(tmp_path, argv, says):
    # a real subprocess: accepted, it would listen until the timeout ends it
    r = subprocess.run([sys.executable, "-m", "bansha.cli.cli", "serve", "--db", str(tmp_path / "s.db"), *argv],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("错误：") and says in lines[0], r.stderr
    assert not [w for w in ENGLISH if w in lines[0]], lines[0]


QISHA = ["黑一:黑侠", "黑二:黑侠", "黑三:黑侠", "暗:暗侠", "幻:幻侠", "白:白侠", "赤:赤侠", "光:光侠", "银:银侠", "龙:龙侠",
         "士一:侠士", "士二:侠士", "士三:侠士", "士四:侠士", "士五:侠士", "青一:青侠", "青二:青侠", "青三:青侠", "青四:青侠", "青五:青侠"]


@pytest.fixture
def qisha_day(tmp_path) -> Path:
    """A 七杀·侠 game of the standard table at its first day (幻 holds 幻觉三)."""
    deal = tmp_path / "deal.toml"
    deal.write_text("".join(f'[[players]]\nname = "{n}"\nrole = "{r}"\n' for n, r in (x.split(":") for x in QISHA)),
                    encoding="utf-8")
    db = tmp_path / "q.db"
    ok(db, "new", "q", "--ruleset", "qisha-xia", "--deal", deal)
    from bansha.store.store import Store

    for _ in range(6):
        if Store(db).load("q").phase.name == "day":
            break
        ok(db, "resolve", "q", "--yes")
    assert Store(db).load("q").phase.name == "day"
    return db


@pytest.mark.parametrize("floor", ["1000000001", "99999999999"])
def test_a_floor_beyond_every_thread_is_refused_for_幻觉三(qisha_day, tmp_path, floor):
    refused(qisha_day, "act", "q", "幻", "幻觉三", "--arg", f"post={floor}", says="幻觉三")
    csv = tmp_path / "a.csv"
    csv.write_text(f"actor,skill,targets,args\n幻,幻觉三,,post={floor}\n", encoding="utf-8")
    refused(qisha_day, "act", "q", "--file", csv, says="幻觉三")
    toml = tmp_path / "a.toml"
    toml.write_text(f'actions = [{{ actor = "幻", skill = "幻觉三", args = {{ post = {floor} }} }}]\n', encoding="utf-8")
    refused(qisha_day, "act", "q", "--file", toml, says="幻觉三")
    ok(qisha_day, "act", "q", "幻", "幻觉三", "--arg", "post=1000000000")  # the largest floor is a floor


def test_resolve_window_on_a_phase_without_windows(game):
    refused(game, "resolve", "g", "--window", "--yes", says="--window")


def _damage(db: Path, how: str) -> None:
    con = sqlite3.connect(db)
    if how == "gap":
        con.execute("DELETE FROM events WHERE game='g' AND seq=2")
    else:
        con.execute("UPDATE events SET event=? WHERE game='g' AND seq=2", (b'{"type": "resolve", "phase": 7}',))
    con.commit()
    con.close()


@pytest.mark.parametrize("how", ["gap", "garbled"])
def test_nothing_writes_to_a_damaged_game(game, how):
    for _ in range(3):
        ok(game, "resolve", "g", "--yes")
    _damage(game, how)
    says = "缺少第2条事件" if how == "gap" else "第2条事件已损坏"
    refused(game, "undo", "g", says=says)
    refused(game, "status", "g", says=says)
    refused(game, "log", "g", says=says)
    refused(game, "resolve", "g", "--yes", says=says)
    refused(game, "undo", "g", "--to", "1", says=says)


def test_a_read_never_creates_a_store(tmp_path):
    where = tmp_path / "new" / "path" / "x.db"
    code, out, err = run_main(["games", "--db", where])
    assert code == 0 and not out.strip(), (out, err)
    refused(None, "status", "g", "--db", where, says="g")
    refused(None, "log", "g", "--db", where, says="g")
    refused(None, "export", "g", "--db", where, says="g")
    assert not (tmp_path / "new").exists()


def test_game_names_fold_width_as_player_names_do(tmp_path):
    db = tmp_path / "g.db"
    ok(db, "new", "ls1", "--ruleset", "mafia-basic", "--players", SEVEN)
    refused(db, "new", "ｌｓ１", "--ruleset", "mafia-basic", "--players", SEVEN, says="ls1")
    from bansha.store.store import Store

    assert Store(db).names() == ["ls1"]


def test_clashing_or_ignored_options_are_refused(game):
    for fmt in ("md", "bbcode"):  # with --json the refusal is one JSON object
        before = settled_bytes(game)
        code, out, err = run_main(["export", "g", "--format", fmt, "--json", "--db", game])
        assert code == 2 and not err and json.loads(out) == {"error": json.loads(out)["error"], "code": 2}, (out, err)
        assert "--json" in json.loads(out)["error"] and f"--format {fmt}" in json.loads(out)["error"]
        assert settled_bytes(game) == before
    json.loads(ok(game, "export", "g", "--json"))  # one format is fine
    json.loads(ok(game, "export", "g", "--format", "json", "--json"))
    from bansha.store.store import Store

    g = Store(game).load("g")
    while g.phase.name != "night":
        ok(game, "resolve", "g", "--yes")
        g = Store(game).load("g")
    mafioso = next(p.name for p in g.players.values() if p.role == "黑手党")
    other = next(p.name for p in g.players.values() if p.camp != g.players[mafioso].camp)
    refused(game, "act", "g", mafioso, "杀人", other, "--arg", "post=12", "--arg", "post=13", says="post")


def test_scaffolds_refuse_a_file_for_a_folder_and_names_too_long(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x", encoding="utf-8")
    refused(None, "board", "new", "myvar", "--extends", "m217", "--dir", afile, says="afile")
    refused(None, "role", "new", "龙", "--board", "mafia-basic", "--alias", "dragon", "--dir", afile, says="afile")
    refused(None, "board", "new", "a" * 300, "--extends", "m217", "--dir", tmp_path, says="ID")
    refused(None, "role", "new", "龙" * 300, "--board", "mafia-basic", "--alias", "x", "--dir", tmp_path, says="角色名")
    assert [p.name for p in tmp_path.iterdir()] == ["afile"]


def test_simulate_and_balance_refuse_what_they_cannot_hold(tmp_path):
    refused(None, "simulate", "mafia-basic", "--games", "99999999999", says="--games")
    refused(None, "balance", "mafia-basic", "--games", "99999999999", says="--games")
    refused(None, "balance", "mafia-basic", "--knob", "seats=abc", says="seats")
    refused(None, "balance", "mafia-basic", "--knob", "seats=1..99999999999", says="1..99999999999")
    folder = tmp_path / "state"
    folder.mkdir()
    refused(None, "balance", "mafia-basic", "--state", folder, says="--state")
    bad = tmp_path / "state.json"
    bad.write_text("{", encoding="utf-8")
    refused(None, "balance", "mafia-basic", "--state", bad, "--games", "1", "--batch", "1", says="--state")


def test_a_thread_address_or_page_that_does_not_parse(game, tmp_path):
    refused(game, "votes", "import", "g", "http://[::1", says="http://[::1")
    refused(game, "votes", "import", "g", "http://x:99999/t", says="99999")
    page = tmp_path / "t.json"
    page.write_text('{"x": }', encoding="utf-8")
    refused(game, "votes", "import", "g", page, "--forum", "nga", says="第1行第7列")


def test_libpq_saying_the_server_shuts_down_is_said_in_chinese():
    """libpq's ``FATAL:  the database system is shutting down`` (a server stopping with its
    connections still open refuses new ones so) as the store says it: its own reason, in
    the catalogue's words, never the server's English."""
    psycopg = pytest.importorskip("psycopg")
    from bansha_store_postgres.backend import _reason

    for state in ("shutting down", "starting up", "in recovery mode"):
        why = _reason(psycopg.OperationalError(f'connection failed: FATAL:  the database system is {state}'),
                      "postgresql://bansha:secret@127.0.0.1:5432/x")
        assert why == "服务器正在关闭或启动，暂不接受连接；稍后再试", why


def test_a_scenario_phase_resolving_neither_true_false_nor_window_is_said_in_chinese(tmp_path):
    """``resolve = "yes"`` in a scenario's phase was ``resolve = 'yes': true, false or "window"``
    in English: now the key and its allowed values, as every other key of a file."""
    src = ROOT / "examples" / "homebrew-board" / "scenarios" / "003-town-wins.toml"
    text = src.read_text(encoding="utf-8").replace("../board.toml", str(ROOT / "examples" / "homebrew-board" / "board.toml"))
    at = text.index("[[phases]]\n") + len("[[phases]]\n")
    bad = tmp_path / "bad.toml"
    bad.write_text(text[:at] + 'resolve = "yes"\n' + text[at:], encoding="utf-8")
    code, out, err = run_main(["scenario", "run", bad])
    lines = [x for x in (out + err).splitlines() if x.strip()]
    assert code == 2 and lines[0] == "0个通过，0个失败，1个无效", (out, err)
    assert lines[1] == f"无效  {bad}：键 phases[0].resolve：yes 不是可选值（可选：true、false、\"window\"）", lines
    assert not [w for w in ENGLISH if w in lines[1]] and "true, false or" not in lines[1], lines


@pytest.mark.parametrize("argv, says", [
    (["scenario", "run", ""], "PATHS"), (["scenario", "run", " "], "PATHS"),
    (["act", "g", "甲", "杀人", "--file", ""], "--file"), (["new", "h", "--ruleset", "mafia-basic", "--deal", ""], "--deal"),
    (["simulate", "mafia-basic", "--games", "2", "--plot", ""], "--plot"),
    (["balance", "mafia-basic", "--knob", "seats=10", "--state", ""], "--state"),
])
def test_an_empty_path_is_refused_not_read_as_the_current_folder(game, tmp_path, monkeypatch, argv, says):
    """A path typed empty was read as ``Path("")``, the current folder: ``scenario run ""`` ran
    every scenario file where the command stood (issue 32's report). Every command's paths are
    read by the one parser (``cli.table.path_of``), the quick way and typer's alike."""
    (tmp_path / "here.toml").write_text('ruleset = "mafia-basic"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    line = refused(game if argv[0] in ("act", "new") else None, *argv, says=says)
    assert "路径为空" in line and "here.toml" not in line
