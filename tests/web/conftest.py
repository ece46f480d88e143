"""Fixtures of the web tests: a SQLite store with a 20-seat 七杀·侠 game dealt as the demo
deals it, the token file, the app and logged-in / anonymous clients."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("litestar")

from bansha.model import PlayerSetup, Setup  # noqa: E402
from bansha.registry import find_manifest  # noqa: E402
from bansha.store import open_store  # noqa: E402

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
    from litestar.testing import TestClient

    from bansha_web.app import Throttle, create_app
    from bansha_web.tokens import Tokens

    store = open_store(str(tmp_path / "games.db"))
    tokens = Tokens(tmp_path / "games.db.web-tokens.json")
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
    from bansha.model import ResolveEvent

    store.append(game, lambda g: ResolveEvent(phase=g.label))
    assert store.load(game).label == "night 1"
