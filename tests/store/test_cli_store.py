"""The store through the real ``bansha`` command (a subprocess): every bad store ends in one
line ``error: …`` and exit 2 (a JSON object with --json), never a traceback, the stored game
byte for byte as it was; ``bansha db upgrade`` and ``bansha db copy``; and every game command
gives the same output on SQLite and on PostgreSQL."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from .conftest import pg_url_or_skip

BANSHA = str(Path(sys.executable).with_name("bansha"))
ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "rulesets/qisha-xia/bansha_qisha_xia/demos/qisha-xia.toml"
PLAYERS = ",".join(f"P{i:02}" for i in range(1, 13))


def bansha(*args, env=None, user=None, check=None):
    cmd = [BANSHA, *map(str, args)]
    if user is not None:  # root writes a file whatever its mode: run as nobody to see "read-only"
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
    r = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **(env or {})}, timeout=120)
    if check is not None:
        assert r.returncode == check, r.stdout + r.stderr
    return r


def refused(*args, message, files=(), **kw):
    """exit 2, one line on stderr naming ``message``, nothing on stdout, the files unchanged;
    and with --json the same error as a JSON object."""
    before = [_digest(f) for f in files]
    r = bansha(*args, **kw)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stderr and r.stdout == "", r.stdout + r.stderr
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("错误："), r.stderr
    assert message in lines[0], lines[0]
    j = bansha(*args, "--json", **kw)
    assert j.returncode == 2 and "Traceback" not in j.stderr, j.stdout + j.stderr
    assert json.loads(j.stdout) == {"error": lines[0].removeprefix("错误："), "code": 2}
    assert [_digest(f) for f in files] == before
    return lines[0]


def _digest(path) -> str:
    p = Path(path)
    return hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "-"


def new_game(db):
    bansha("new", "g", "--ruleset", "light-shadow", "--players", PLAYERS, "--seed", "7", "--db", db, check=0)
    bansha("act", "g", "P03", "询问", "P01", "--arg", "camp=光之国", "--arg", "role=国王", "--db", db)
    return db


ACT = ["act", "g", "P03", "询问", "P02", "--arg", "camp=光之国", "--arg", "role=国王"]


def test_a_directory_an_empty_string_and_a_non_sqlite_file(tmp_path):
    refused("status", "g", "--db", tmp_path, message="是文件夹，不是游戏数据库")
    refused("games", "--db", "", message="--db 为空")
    text = tmp_path / "notes.txt"
    text.write_text("not a database at all, just some words\n" * 40)
    refused("status", "g", "--db", text, message="不是 bansha 的游戏数据库", files=[text])
    refused(*ACT, "--db", text, message="不是 bansha 的游戏数据库", files=[text])


def test_a_parent_that_cannot_be_created(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    # a write makes the store's folder (a read makes nothing: tests/robustness/test_other_doors.py)
    refused("new", "g", "--ruleset", "mafia-basic", "--players", "甲,乙,丙,丁,戊", "--db", blocker / "sub" / "games.db",
            message="无法建立文件夹")


def test_a_read_only_file(tmp_path):
    import tempfile

    # a folder that nobody may enter (pytest's own are root's, mode 700) but not write to
    folder = Path(tempfile.mkdtemp(prefix="bansha-ro-"))
    db = new_game(str(folder / "games.db"))
    os.chmod(db, 0o444)
    os.chmod(folder, 0o555)  # nor may its folder take a journal
    user = "nobody" if os.geteuid() == 0 else None
    try:
        r = bansha("status", "g", "--db", db, user=user)
        assert r.returncode == 0, r.stderr  # reading a read-only store works
        refused(*ACT, "--db", db, user=user, message="数据库只读", files=[db])
        refused("status", "g", "--db", tmp_path / "games.db", user=user, message="无法打开数据库文件：没有权限")
    finally:
        os.chmod(folder, 0o755)
        shutil.rmtree(folder)


def test_a_read_only_file_system(tmp_path):
    if os.geteuid() != 0 or not shutil.which("unshare"):
        pytest.skip("needs root and unshare to mount a read-only file system")
    db = new_game(str(tmp_path / "games.db"))
    mnt = tmp_path / "ro"
    mnt.mkdir()
    script = (f"mount -t tmpfs none {mnt} && cp {db} {mnt}/games.db && mount -o remount,ro {mnt} && "
              f"{BANSHA} {' '.join(ACT)} --db {mnt}/games.db; echo \"rc=$?\"; sha256sum {mnt}/games.db")
    r = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", script], capture_output=True, text=True, timeout=60)
    if "rc=" not in r.stdout:
        pytest.skip(f"cannot mount here: {r.stderr.strip()}")
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert "rc=2" in r.stdout and len(lines) == 1 and lines[0].startswith("错误："), r.stdout + r.stderr
    assert "只读" in lines[0] or "无法打开" in lines[0], lines[0]
    assert r.stdout.split()[-2] == _digest(db)  # the copy on the read-only mount is as it was


def _raw(db, sql, *args):
    with sqlite3.connect(db) as conn:
        conn.execute(sql, args)
    conn.close()


def test_a_store_made_by_a_newer_bansha(tmp_path):
    db = new_game(str(tmp_path / "games.db"))
    _raw(db, "UPDATE meta SET value='7' WHERE key='schema'")
    msg = refused("status", "g", "--db", db, message="由更新版本的 bansha 建立（数据库版本 7），本版本最多读取版本 3", files=[db])
    assert msg.endswith("本版本最多读取版本 3")
    refused("db", "upgrade", "--db", db, message="由更新版本的 bansha 建立（数据库版本 7）", files=[db])
    other = str(tmp_path / "layout.db")
    _raw(other, "CREATE TABLE games_v9 (id INTEGER PRIMARY KEY)")
    refused("games", "--db", other, message="未知的表结构（games_v9）", files=[other])


def test_an_unknown_event_type_and_a_corrupt_event(tmp_path):
    db = new_game(str(tmp_path / "games.db"))
    bansha(*ACT, "--db", db, check=0)
    _raw(db, "INSERT INTO events VALUES ('g', 3, ?)", b'{"type":"teleport","phase":"day 0"}')
    _raw(db, "UPDATE games SET last_seq=3")
    refused("status", "g", "--db", db, message="游戏 'g'，第3条事件：未知的事件类型 'teleport'：由更新版本的 bansha 写入", files=[db])
    _raw(db, "UPDATE events SET event=? WHERE seq=2", b'{"type":"act","phase":')
    refused("log", "g", "--db", db, message="游戏 'g'，第2条事件已损坏", files=[db])
    refused(*ACT, "--db", db, message="游戏 'g'，第2条事件已损坏", files=[db])


def test_a_write_that_waits_past_its_limit_is_one_line(tmp_path):
    db = new_game(str(tmp_path / "games.db"))
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer holds the lock and does not let go
    try:
        refused(*ACT, "--db", db, env={"BANSHA_DB_TIMEOUT": "0.3"}, message="锁住超过 0.3 秒")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert bansha(*ACT, "--db", db).returncode == 0


def test_postgresql_unreachable_names_the_host_and_no_password():
    msg = refused("games", "--db", "postgresql://director:s3cret-pw@127.0.0.1:1/games", message="无法连接 PostgreSQL 127.0.0.1:1/games：连接被拒绝")
    assert "s3cret" not in msg
    refused("games", "--db", "nosuch://x/y", message="没有处理 nosuch:// 地址的数据库后端")


def test_a_waiting_postgresql_writer_is_one_line(pg_url):
    import psycopg

    new_game(pg_url)
    with psycopg.connect(pg_url) as holder:
        holder.execute("SELECT 1 FROM games WHERE name='g' FOR UPDATE")  # holds the game's row
        refused(*ACT, "--db", pg_url, env={"BANSHA_DB_TIMEOUT": "0.5"}, message="锁住超过 0.5 秒")
        holder.rollback()
    assert bansha(*ACT, "--db", pg_url).returncode == 0


V1 = """
CREATE TABLE games (name TEXT PRIMARY KEY, setup BLOB NOT NULL, created TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP);
CREATE TABLE events (game TEXT NOT NULL REFERENCES games(name), seq INTEGER NOT NULL, event BLOB NOT NULL, PRIMARY KEY (game, seq));
"""


def test_db_upgrade_migrates_a_schema_1_store_in_place(tmp_path):
    """A store of the layout before schema versions (schema 1) is refused with the way out,
    and `bansha db upgrade` keeps every game and event."""
    new_db = new_game(str(tmp_path / "new.db"))
    before = bansha("export", "g", "--format", "json", "--db", new_db, check=0).stdout
    old = str(tmp_path / "old.db")
    with sqlite3.connect(new_db) as src, sqlite3.connect(old) as dst:
        dst.executescript(V1)
        dst.executemany("INSERT INTO games(name, setup) VALUES (?, ?)", src.execute("SELECT name, setup FROM games"))
        dst.executemany("INSERT INTO events VALUES (?, ?, ?)", src.execute("SELECT game, seq, event FROM events"))
    refused("status", "g", "--db", old, message="数据库版本 1；本版本的 bansha 使用版本 3：请运行 `bansha db upgrade", files=[old])
    assert "：数据库版本 1 → 3" in bansha("db", "upgrade", "--db", old, check=0).stdout
    assert "：数据库版本 3，已是最新" in bansha("db", "upgrade", "--db", old, check=0).stdout
    assert bansha("export", "g", "--format", "json", "--db", old, check=0).stdout == before
    bansha(*ACT, "--db", old, check=0)  # and it takes writes: last_seq came from the log
    assert len(json.loads(bansha("log", "g", "--json", "--db", old, check=0).stdout)["events"]) == 2


def test_db_copy_between_sqlite_and_postgresql(tmp_path, pg_url):
    a = new_game(str(tmp_path / "a.db"))
    bansha("new", "h", "--ruleset", "light-shadow", "--players", PLAYERS, "--seed", "3", "--db", a, check=0)
    bansha("resolve", "h", "--yes", "--db", a, check=0)
    assert bansha("db", "copy", a, pg_url, check=0).stdout.splitlines() == ["已复制 g（1条事件）", "已复制 h（1条事件）"]
    b = str(tmp_path / "b.db")
    bansha("db", "copy", pg_url, b, "h", check=0)
    for game, stores in (("g", (a, pg_url)), ("h", (a, pg_url, b))):
        exports = {bansha("export", game, "--format", "json", "--db", s, check=0).stdout for s in stores}
        assert len(exports) == 1, game  # the same events, the same replayed game
        views = {bansha("status", game, "--json", "--db", s, check=0).stdout for s in stores}
        assert len(views) == 1
    refused("db", "copy", a, pg_url, "g", message="已有游戏 'g'：什么也没有复制")
    refused("db", "copy", a, b, "zz", message="没有游戏 'zz'")
    assert bansha("games", "--db", b, check=0).stdout.split() == ["h"]


def _script_commands():
    """The qisha-xia demo's first phases as CLI commands."""
    script = tomllib.loads(DEMO.read_text(encoding="utf-8"))
    cmds = []
    for phase in script["phases"][:3]:
        for a in phase.get("actions", []):
            args = [x for k, v in a.get("args", {}).items() for x in ("--arg", f"{k}={v}")]
            cmds.append(["act", "g", a["actor"], a["skill"], *a.get("targets", []), *args])
        for v in phase.get("votes", []):
            cmds.append(["vote", "g", v["voter"], v["target"]])
        cmds.append(["resolve", "g", "--yes"])
    return script, cmds


def test_every_game_command_is_the_same_on_postgresql(tmp_path, pg_url):
    """In process (typer's runner) for speed: the same commands against both backends."""
    from bansha.cli.cli import app
    from typer.testing import CliRunner

    runner = CliRunner()
    script, cmds = _script_commands()
    deal = tmp_path / "deal.toml"
    deal.write_text("".join(f'[[players]]\nname = "{p["name"]}"\nrole = "{p["role"]}"\n' for p in script["players"]), encoding="utf-8")
    first = script["players"][0]["name"]
    cmds = [["new", "g", "--ruleset", "qisha-xia", "--deal", str(deal)], *cmds,
            ["ruling", "g", "announce", "--text", "版主公告"], ["status", "g"], ["status", "g", "--as", first],
            ["log", "g", "--explain"], ["export", "g", "--format", "bbcode"], ["export", "g", "--format", "json"],
            ["undo", "g"], ["games"], ["status", "g", "--json"], ["act", "g", first, "nosuchskill"]]
    outputs = {}
    for db in (str(tmp_path / "games.db"), pg_url):
        outputs[db] = [(r.exit_code, r.output) for r in (runner.invoke(app, [*c, "--db", db]) for c in cmds)]
    sqlite_out, pg_out = outputs.values()
    assert [c for c, _ in sqlite_out][:-1] == [0] * (len(cmds) - 1) and sqlite_out[-1][0] == 2
    assert pg_out == sqlite_out


def test_the_ci_run_gives_the_postgresql_url():
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        assert pg_url_or_skip().startswith("postgresql://")
    else:
        pytest.skip("not CI")


def test_the_stores_words_are_the_catalogues(tmp_path):
    """A store's refusal comes before any board is known: in BANSHA_LANG, else Chinese."""
    db = tmp_path / "games.db"
    bansha("new", "g", "--ruleset", "qisha-xia", "--players", PLAYERS.replace("P12", "P12,P13,P14,P15,P16,P17,P18,P19,P20"),
           "--db", db)
    refused("status", "nope", "--db", db, message="没有游戏 'nope'", files=[db])
    r = bansha("status", "nope", "--db", db, env={"BANSHA_LANG": "en"})
    assert r.returncode == 2 and r.stderr.strip() == "error: unknown game 'nope'", r.stderr
    r = bansha("games", "--db", tmp_path, env={"BANSHA_LANG": "en"})
    assert r.returncode == 2 and r.stderr.strip() == f"error: {tmp_path} is a directory, not a game database", r.stderr
