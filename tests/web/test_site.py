"""Issue 21, item 6: a forum site. Each game belongs to the director who created it and a
director's link opens only their games; `bansha serve` issues and revokes directors' links;
two `bansha serve` processes on one PostgreSQL database serve the same games (a submission
through either is stored once, none lost), sharing the CSRF secret and the tokens."""

from __future__ import annotations

import re
import subprocess
import sys
import threading

import httpx
from bansha.engine.model import VoteEvent
from webhelpers import SEATS, Serve, csrf_of, setup_of

CSRF = re.compile(r'name="_csrf_token" value="([^"]+)"')


def test_each_game_belongs_to_its_director(web):
    from litestar.testing import TestClient

    jia, yi = web.tokens.new_director("甲"), web.tokens.new_director("乙")
    a, b = TestClient(web.app), TestClient(web.app)
    a.__enter__(), b.__enter__()
    assert a.get(f"/login/{jia}").status_code == 200 and b.get(f"/login/{yi}").status_code == 200
    page = a.get("/d").text
    assert "g1" not in page  # the CLI's / owner's games are not 甲's
    r = a.post("/d/new", data={"_csrf_token": csrf_of(page), "name": "甲局", "ruleset": "qisha-xia",
                               "roster": "\n".join(n for n, _ in SEATS), "seed": "2"})
    assert r.status_code == 200 and "甲局" in r.text
    assert "甲局" in a.get("/d").text and "甲局" not in b.get("/d").text
    # 乙 reaches nothing of 甲's game, and the refusal is the one of a game that does not exist
    assert b.get("/d/g/甲局").status_code == 404 and b.get("/d/g/甲局/table").status_code == 404
    before = web.store.last_seq("甲局")
    r = b.post("/d/g/甲局/resolve", data={"_csrf_token": csrf_of(b.get("/d").text), "phase": "day 1"})
    assert r.status_code == 404 and "黑侠" not in r.text and web.store.last_seq("甲局") == before
    assert b.get("/d/g/g1").status_code == 404
    # 乙 creating a game under 甲's game's name learns only that the name is unavailable: the
    # refusal is the one of a name nobody may take, not "游戏 甲局 已存在"
    page_b = b.get("/d").text
    r = b.post("/d/new", data={"_csrf_token": csrf_of(page_b), "name": "甲局", "ruleset": "qisha-xia",
                               "roster": "\n".join(n for n, _ in SEATS), "seed": "2"})
    assert r.status_code == 422 and "不可用" in r.text and "已存在" not in r.text, r.text
    # 甲, its director, is told plainly
    r = a.post("/d/new", data={"_csrf_token": csrf_of(a.get("/d").text), "name": "甲局", "ruleset": "qisha-xia",
                               "roster": "\n".join(n for n, _ in SEATS), "seed": "2"})
    assert r.status_code == 422 and "已存在" in r.text
    # the store's owner opens every game
    owner = web.client(login=True)
    assert owner.get("/d/g/甲局").status_code == 200 and "甲局" in owner.get("/d").text
    # revoked: 甲's open session is refused at once
    assert web.tokens.revoke_director("甲") == 1
    assert a.get("/d").status_code == 403 and a.get("/d/g/甲局").status_code == 403


def test_serve_issues_and_revokes_directors_links(tmp_path):
    db = str(tmp_path / "g.db")
    out = subprocess.run([sys.executable, "-m", "bansha.cli.cli", "serve", "--db", db, "--new-director", "甲"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    token = re.search(r"/login/(\S+)", out.stdout).group(1)
    from bansha.store.store import open_store
    from bansha_web.tokens import Tokens

    with open_store(db) as store:
        assert Tokens(store).director(token) == "甲"
        assert token not in str(store.get_meta(["web.directors.甲"]))  # hashes only
    out = subprocess.run([sys.executable, "-m", "bansha.cli.cli", "serve", "--db", db, "--revoke-director", "甲"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "已收回导演 甲 的 1 个登录链接" in out.stdout
    with open_store(db) as store:
        assert Tokens(store).director(token) is None
    out = subprocess.run([sys.executable, "-m", "bansha.cli.cli", "serve", "--db", db, "--new-director", "-x"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stderr.startswith("错误：") and "Traceback" not in out.stderr


def test_a_directors_link_names_the_address_the_server_listens_on(tmp_path):
    """`serve` records the address it listens on in the store; `--new-director`, run beside
    it without an address, gives a link to it (not to the default 127.0.0.1:8000); an address
    typed is the one the link names."""
    from bansha.store.store import open_store
    from bansha_web.cli import ADDRESS

    db = str(tmp_path / "g.db")
    with open_store(db) as store:
        store.set_meta({ADDRESS: "http://192.0.2.7:8123"})
    out = subprocess.run([sys.executable, "-m", "bansha.cli.cli", "serve", "--db", db, "--new-director", "甲"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert re.search(r"^    http://192\.0\.2\.7:8123/login/\S+$", out.stdout, re.M), out.stdout
    out = subprocess.run([sys.executable, "-m", "bansha.cli.cli", "serve", "--db", db, "--new-director", "乙", "--port", "9001"],
                         capture_output=True, text=True, timeout=60)
    assert re.search(r"^    http://127\.0\.0\.1:9001/login/\S+$", out.stdout, re.M), out.stdout


def test_two_servers_on_one_store_serve_the_same_games(any_store):
    """Two `bansha serve` processes on one store: every player's page is read from one and its
    form posted to the other, all at once; each vote is stored exactly once, none lost."""
    from bansha.store.store import open_store
    from bansha_web.tokens import Tokens

    names = [n for n, _ in SEATS]
    with open_store(any_store) as store:
        store.create("two", setup_of())
        links = Tokens(store).new_players("two", names)
    one, two = Serve(any_store).start(), Serve(any_store).start()
    errors: list[str] = []
    try:
        def play(i: int, name: str) -> None:
            read, write = (one, two) if i % 2 else (two, one)
            with httpx.Client(timeout=30) as c:
                page = c.get(f"{read.base}/p/{links[name]}")
                csrf = CSRF.search(page.text).group(1)
                target = names[(i + 1) % len(names)]
                r = c.post(f"{write.base}/p/{links[name]}/vote", data={"_csrf_token": csrf, "target": target})
                if r.status_code != 200:
                    errors.append(f"{name}: {r.status_code} {r.text[:200]}")

        threads = [threading.Thread(target=play, args=(i, n)) for i, n in enumerate(names)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert not errors, errors
        with open_store(any_store) as store:
            events = store.events("two")
        votes = [(e.voter, e.target) for e in events if isinstance(e, VoteEvent)]
        assert sorted(votes) == sorted((n, names[(i + 1) % len(names)]) for i, n in enumerate(names))
        # and each server shows the other's writes
        for s in (one, two):
            assert "已投" in httpx.get(f"{s.base}/p/{links[names[3]]}").text
    finally:
        one.stop()
        two.stop()


def test_a_link_revoked_elsewhere_closes_its_open_event_stream(tmp_path):
    """A revocation by another process (here the store written directly, as a second server or
    the CLI would) reaches an open page's event stream at its next keep-alive: it is told
    `gone` and closed, instead of receiving change pings for ever."""
    import time

    from bansha.store.store import open_store
    from bansha_web.tokens import Tokens

    db = str(tmp_path / "g.db")
    with open_store(db) as store:
        store.create("g1", setup_of())
        old = Tokens(store).new_player("g1", "赤")
    serve = Serve(db).start()
    try:
        with httpx.Client(timeout=30) as c, c.stream("GET", f"{serve.base}/p/{old}/events") as r:
            assert r.status_code == 200
            events = r.iter_lines()
            assert next(events).startswith("event: hello")
            start = time.monotonic()
            with open_store(db) as store:
                Tokens(store).new_player("g1", "赤")  # another process's "新链接"
            seen = []
            for line in events:
                seen.append(line)
                if line.startswith("data:") and "event: gone" in seen:
                    break
            assert "event: gone" in seen and "请向导演索取新链接" in seen[-1]
            assert time.monotonic() - start < 15
    finally:
        serve.stop()
