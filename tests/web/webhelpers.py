"""Helpers and fixtures of the web tests (a module of its own name: several folders of tests/ have a conftest.py): a SQLite store with a 20-seat 七杀·侠 game dealt as the demo
deals it, the token file, the app and logged-in / anonymous clients."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time

import pytest
from bansha.engine.model import PlayerSetup, Setup  # noqa: E402
from bansha.engine.registry import find_manifest  # noqa: E402
from bansha.show.views import player_view  # noqa: E402
from bansha.store.store import open_store  # noqa: E402

SEATS = [("黑一", "黑侠"), ("黑二", "黑侠"), ("黑三", "黑侠"), ("暗", "暗侠"), ("幻", "幻侠"), ("白", "白侠"),
         ("赤", "赤侠"), ("光", "光侠"), ("银", "银侠"), ("龙", "龙侠"), ("士一", "侠士"), ("士二", "侠士"),
         ("士三", "侠士"), ("士四", "侠士"), ("士五", "侠士"), ("青一", "青侠"), ("青二", "青侠"), ("青三", "青侠"),
         ("青四", "青侠"), ("青五", "青侠")]
NIGHT1 = [("黑二", "杀人", ["士一"]), ("白", "救治", ["青一"]), ("赤", "验人", ["黑二"]), ("暗", "阻止", ["银"]),
          ("幻", "幻觉二", ["黑二"]), ("光", "接收", ["士二"])]
CSRF = re.compile(r'name="_csrf_token" value="([^"]+)"')


def setup_of(seats=SEATS) -> Setup:
    m = find_manifest("qisha-xia")
    return Setup(ruleset=m.id, manifest=m, players=[PlayerSetup(name=n, role=r) for n, r in seats], seed=1, dealt_by="test")


@pytest.fixture
def web(tmp_path):
    from bansha_web.app import Throttle, create_app
    from bansha_web.tokens import Tokens
    from litestar.testing import TestClient

    store = open_store(str(tmp_path / "games.db"))
    tokens = Tokens(store)
    store.create("g1", setup_of())
    store.create("g2", setup_of())
    links = {"g1": tokens.new_players("g1", [n for n, _ in SEATS]), "g2": tokens.new_players("g2", [n for n, _ in SEATS])}
    director = tokens.new_director()
    app = create_app(store, tokens, throttle=Throttle(limit=1000))

    class Web:
        pass

    w = Web()
    w.store, w.tokens, w.links, w.director, w.app, w.tmp = store, tokens, links, director, app, tmp_path

    def client(login: bool = False):
        c = TestClient(app)
        c.__enter__()
        if login:
            r = c.get(f"/login/{director}")
            assert r.status_code == 200, r.text
        return c

    w.client = client
    yield w
    store.close()


def csrf_of(html: str) -> str:
    m = CSRF.search(html)
    assert m, "no CSRF field on the page"
    return m.group(1)


def to_night(store, game="g1"):
    """Day 1 with nobody voting, then night 1."""
    from bansha.engine.model import ResolveEvent

    store.append(game, lambda g: ResolveEvent(phase=g.label))
    assert store.load(game).label == "night 1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(tmp_path):
    import httpx

    db = str(tmp_path / "games.db")
    store = open_store(db)
    store.create("g1", setup_of())
    store.close()
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "bansha.cli.cli", "serve", "--db", db, "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    lines: list[str] = []
    threading.Thread(target=lambda: [lines.append(x) for x in proc.stdout], daemon=True).start()
    url = None
    for _ in range(300):
        m = re.search(r"(http://\S+/login/\S+)", "".join(lines))
        if m:
            url = m.group(1)
            try:
                httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
                break
            except httpx.HTTPError:
                pass
        time.sleep(0.1)
    assert url, "".join(lines)
    yield {"db": db, "port": port, "login": url, "lines": lines, "proc": proc}
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)




ALL_ROLES = ["黑侠", "暗侠", "幻侠", "白侠", "赤侠", "光侠", "银侠", "龙侠", "侠士", "青侠"]


def allowed_text(game, name) -> str:
    """Everything a player may read: their view and their own card's and skills' texts."""
    import json

    view = player_view(game, name)
    p = game.player(name)
    role = game.ruleset.role(p.role)
    rules = [role.rule] + [s.rule for s, _ in game.skills_of(p).values()] + [
        m for s, _ in game.skills_of(p).values() for m in s.args.values()]
    return json.dumps(view, ensure_ascii=False) + " ".join(rules)


def allowed_roles_ok(game, name, page: str) -> None:
    """No role name on the page that the player's view and card do not name."""
    allowed = allowed_text(game, name)
    for role in ALL_ROLES:
        if role in page:
            assert role in allowed, (name, role)


class Serve:
    """`bansha serve` as a process on ``db`` (a SQLite file or a postgresql:// URL), on
    ``port``: start, stop and start again (the same port, the same store)."""

    def __init__(self, db: str, port: int | None = None):
        self.db, self.port = db, port or free_port()
        self.proc = None
        self.lines: list[str] = []
        self.login = ""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Serve:
        import httpx

        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.lines = []
        self.proc = subprocess.Popen([sys.executable, "-m", "bansha.cli.cli", "serve", "--db", self.db, "--port", str(self.port)],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        lines = self.lines
        threading.Thread(target=lambda: [lines.append(x) for x in self.proc.stdout], daemon=True).start()
        for _ in range(300):
            m = re.search(r"(http://\S+/login/\S+)", "".join(lines))
            if m:
                self.login = m.group(1)
                try:
                    httpx.get(self.base + "/", timeout=1)
                    return self
                except httpx.HTTPError:
                    pass
            assert self.proc.poll() is None, "".join(lines)
            time.sleep(0.1)
        raise AssertionError("".join(lines))

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None


@pytest.fixture(params=["sqlite", "postgresql"])
def any_store(request, tmp_path):
    """A store URL of each kind: a SQLite file, and a fresh schema of BANSHA_TEST_PG's database
    (a missing server skips locally and fails under CI)."""
    if request.param == "sqlite":
        yield str(tmp_path / "games.db")
        return
    from pgschema import pg_schema

    with pg_schema("w") as url:
        yield url
