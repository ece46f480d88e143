"""The web forms offer a homebrew role's skill like any other (``bansha serve``'s app, Litestar's
test client on a SQLite store): the 医生 of the example board submits 守护 from the player's page,
and a refusal of the declaration's own limit is the engine's one line, nothing stored."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from bansha.engine.model import PlayerSetup, ResolveEvent, Setup
from bansha.engine.registry import find_manifest
from bansha.store.store import open_store

BOARD = Path(__file__).parent.parent.parent / "examples" / "homebrew-board" / "board.toml"
SEATS = [("甲", "黑手党"), ("乙", "黑手党"), ("丙", "医生"), ("丁", "侦探"), ("戊", "平民"), ("己", "平民"), ("庚", "平民")]
CSRF = re.compile(r'name="_csrf_token" value="([^"]+)"')


@pytest.fixture
def site(tmp_path):
    from bansha_web.app import Throttle, create_app
    from bansha_web.tokens import Tokens
    from litestar.testing import TestClient

    store = open_store(str(tmp_path / "games.db"))
    m = find_manifest(str(BOARD))
    store.create("g", Setup(ruleset=m.id, manifest=m, players=[PlayerSetup(name=n, role=r) for n, r in SEATS], seed=1))
    links = Tokens(store).new_players("g", [n for n, _ in SEATS])
    client = TestClient(create_app(store, Tokens(store), throttle=Throttle(limit=1000)))
    client.__enter__()
    yield store, links, client
    store.close()


def test_the_doctor_guards_from_the_web(site):
    store, links, c = site
    base = f"/p/{links['丙']}"
    assert "提交守护" not in c.get(base).text  # a night skill: not offered by day
    store.append("g", lambda g: ResolveEvent(phase=g.label))
    page = c.get(base).text
    assert "提交守护" in page
    token = CSRF.search(page).group(1)
    r = c.post(base + "/act", data={"_csrf_token": token, "skill": "守护", "target": "戊"})
    assert r.status_code == 200, r.text
    assert "已提交：守护 戊" in r.text
    assert [(a.actor, a.skill, a.targets) for a in store.load("g").actions] == [("丙", "守护", ["戊"])]
    # night 2: "不得连续两晚守护同一人" — the engine's refusal, one line, nothing stored
    store.append("g", lambda g: ResolveEvent(phase=g.label))
    store.append("g", lambda g: ResolveEvent(phase=g.label))
    assert store.load("g").label == "night 2"
    page = c.get(base).text
    before = store.last_seq("g")
    r = c.post(base + "/act", data={"_csrf_token": CSRF.search(page).group(1), "skill": "守护", "target": "戊"})
    assert r.status_code == 422
    assert "守护" in html.unescape(r.text) and "Traceback" not in r.text
    assert store.last_seq("g") == before
