"""docs/security.md, point by point: tokens, seats, CSRF, GETs that change nothing, rate limits,
headers and cookies, escaping of what players wrote, and what each player page may hold."""

from __future__ import annotations

import html
import json
import re

import pytest
from webhelpers import ALL_ROLES, NIGHT1, SEATS, allowed_text, csrf_of, setup_of, to_night

PLAYER_POSTS = ["act", "unact", "vote"]
DIRECTOR_POSTS = ["act", "unact", "vote", "preview", "resolve", "undo", "link"]
EVIL = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "'onmouseover='alert(1)"]


def count(web, game="g1"):
    return web.store.last_seq(game)


# ------------------------------------------------------------------------------ tokens


def test_tokens_are_long_random_and_only_hashes_are_stored(web):
    tok = web.links["g1"]["赤"]
    assert len(tok) >= 43  # 32 bytes of secrets.token_urlsafe: 256 bits
    import sqlite3

    # the tokens live in the store's meta table (every server process on the store shares it)
    with sqlite3.connect(web.tmp / "games.db") as db:
        rows = db.execute("SELECT key, value FROM meta WHERE key LIKE 'web.%'").fetchall()
    raw = json.dumps(rows, ensure_ascii=False)
    for t in [web.director, *web.links["g1"].values(), *web.links["g2"].values()]:
        assert t not in raw
    hashes = [k.rsplit(".", 1)[1] for k, _ in rows if k.startswith(("web.director.", "web.token."))]
    assert len(hashes) == 1 + 2 * 20
    assert all(re.fullmatch(r"[0-9a-f]{64}", h) for h in hashes)


def test_a_players_token_reaches_that_seat_only(web):
    to_night(web.store)
    c = web.client()
    base = f"/p/{web.links['g1']['赤']}"
    page = c.get(base).text
    # a forged seat or game in the form is not read: 赤 stays 赤 in g1
    r = c.post(base + "/act", data={"_csrf_token": csrf_of(page), "player": "黑二", "actor": "黑二", "game": "g2",
                                    "skill": "杀人", "target": "士一"})
    assert r.status_code == 422
    assert "赤" in html.unescape(r.text) and "杀人" in html.unescape(r.text)
    assert web.store.load("g1").actions == [] and web.store.load("g2").actions == []
    r = c.post(base + "/act", data={"_csrf_token": csrf_of(page), "player": "黑二", "skill": "验人", "target": "黑一"})
    assert r.status_code == 200
    assert [(a.actor, a.skill) for a in web.store.load("g1").actions] == [("赤", "验人")]
    assert web.store.load("g2").actions == []


def test_another_games_token_touches_only_its_own_game(web):
    c = web.client()
    base = f"/p/{web.links['g2']['士一']}"
    before = count(web, "g1")
    r = c.post(base + "/vote", data={"_csrf_token": csrf_of(c.get(base).text), "target": "黑一", "game": "g1"})
    assert r.status_code == 200
    assert count(web, "g1") == before and [b.voter for b in web.store.load("g2").ballots] == ["士一"]


def test_a_players_token_is_not_the_directors(web):
    c = web.client()
    tok = web.links["g1"]["赤"]
    assert c.get(f"/login/{tok}").status_code == 403
    c.cookies.set("bansha_director", tok)
    for path in ["/d", "/d/g/g1", "/d/g/g1/table", "/d/g/g1/events"]:
        r = c.get(path)
        assert r.status_code == 403, path
        assert "黑侠" not in r.text


def test_no_director_cookie_no_console(web):
    c = web.client()
    page = c.get(f"/p/{web.links['g1']['赤']}").text
    before = count(web)
    for action in DIRECTOR_POSTS:
        r = c.post(f"/d/g/g1/{action}", data={"_csrf_token": csrf_of(page), "player": "赤", "skill": "验人", "target": "黑二"})
        assert r.status_code == 403, action
    r = c.post("/d/new", data={"_csrf_token": csrf_of(page), "name": "x", "ruleset": "qisha-xia", "roster": "a b"})
    assert r.status_code == 403 and count(web) == before and "x" not in web.store.names()


@pytest.mark.parametrize("action", PLAYER_POSTS + ["", "view"])
def test_a_revoked_or_unknown_link_reaches_nothing(web, action):
    old = web.links["g1"]["龙"]
    web.tokens.new_player("g1", "龙")
    c = web.client()
    page = c.get(f"/p/{web.links['g1']['赤']}").text
    for tok in [old, "A" * 43, "", "../d"]:
        path = f"/p/{tok}" + (f"/{action}" if action else "")
        r = c.post(path, data={"_csrf_token": csrf_of(page), "skill": "验人", "target": "黑一"}) if action in PLAYER_POSTS else c.get(path)
        assert r.status_code in (403, 404, 405), (tok, action, r.status_code)
        assert "龙侠" not in r.text
    assert count(web) == 0


# -------------------------------------------------------------------------------- CSRF


@pytest.mark.parametrize("action", PLAYER_POSTS)
def test_player_posts_need_the_csrf_token_of_their_own_session(web, action):
    to_night(web.store)
    base = f"/p/{web.links['g1']['赤']}"
    a, b = web.client(), web.client()
    token_a = csrf_of(a.get(base).text)
    b.get(base)
    before = count(web)
    data = {"skill": "验人", "target": "黑二"}
    assert b.post(f"{base}/{action}", data=data).status_code == 403  # none
    assert b.post(f"{base}/{action}", data={**data, "_csrf_token": token_a}).status_code == 403  # replayed from A
    assert b.post(f"{base}/{action}", data={**data, "_csrf_token": "x" * 64}).status_code == 403  # forged
    fresh = web.client()  # a token without its cookie (a cross-site form)
    fresh.cookies.clear()
    assert fresh.post(f"{base}/{action}", data={**data, "_csrf_token": token_a}).status_code == 403
    assert count(web) == before


@pytest.mark.parametrize("action", DIRECTOR_POSTS)
def test_director_posts_need_the_csrf_token(web, action):
    a, b = web.client(login=True), web.client(login=True)
    token_a = csrf_of(a.get("/d/g/g1").text)
    b.get("/d/g/g1")
    before = count(web)
    data = {"player": "士一", "target": "黑一", "skill": "验人"}
    assert b.post(f"/d/g/g1/{action}", data=data).status_code == 403
    assert b.post(f"/d/g/g1/{action}", data={**data, "_csrf_token": token_a}).status_code == 403
    assert count(web) == before


# ------------------------------------------------------------------ GETs change nothing


def test_a_get_never_changes_state(web):
    to_night(web.store)
    c = web.client(login=True)
    tok = web.links["g1"]["赤"]
    before = count(web)
    for action in PLAYER_POSTS:
        r = c.get(f"/p/{tok}/{action}", params={"skill": "验人", "target": "黑二"})
        assert r.status_code == 405, action
    for action in DIRECTOR_POSTS:
        r = c.get(f"/d/g/g1/{action}", params={"player": "赤", "skill": "验人", "target": "黑二"})
        assert r.status_code == 405, action
    assert c.get("/d/new", params={"name": "x", "ruleset": "qisha-xia", "roster": "a"}).status_code == 405
    assert count(web) == before and "x" not in web.store.names()


# ------------------------------------------------------------------------ rate limits


def test_repeated_bad_tokens_from_one_address_are_rate_limited(tmp_path):
    from bansha.store.store import open_store
    from bansha_web.app import Throttle, create_app
    from bansha_web.tokens import Tokens
    from litestar.testing import TestClient

    store = open_store(str(tmp_path / "g.db"))
    tokens = Tokens(store)
    store.create("g1", setup_of())
    good = tokens.new_player("g1", "赤")
    director = tokens.new_director()
    with TestClient(create_app(store, tokens, throttle=Throttle(limit=5, window=60))) as c:
        assert c.get(f"/p/{good}").status_code == 200
        for i in range(5):
            assert c.get(f"/p/bad{i}").status_code == 404
        assert c.get("/p/bad-again").status_code == 429
        r = c.get("/p/bad-more")
        assert r.status_code == 429 and "秒后再试" in r.text and int(r.headers["retry-after"]) > 0
        # anonymous guesses cannot be turned against a valid token: the player and the director
        # on the same address still get in (a token is 256 bits: the throttle slows guessing,
        # the length makes it hopeless)
        assert c.get(f"/p/{good}").status_code == 200
        assert c.get(f"/login/{director}").status_code == 200 and c.get("/d").status_code == 200
    with TestClient(create_app(store, tokens, throttle=Throttle(limit=5, window=60))) as c:
        # a request presenting no token at all (a bare GET /d) is no guess and counts for nothing
        for _ in range(12):
            assert c.get("/d").status_code == 403
        assert c.get(f"/login/{director}").status_code == 200 and c.get("/d").status_code == 200


# ------------------------------------------------------------------ headers and cookies


def test_security_headers_on_every_page(web):
    c = web.client(login=True)
    pages = ["/", "/d", "/d/g/g1", "/d/g/g1/table", f"/p/{web.links['g1']['赤']}", f"/p/{web.links['g1']['赤']}/view",
             "/p/nope", "/d/g/nope", "/static/live.js"]
    for path in pages:
        r = c.get(path)
        csp = r.headers.get("content-security-policy", "")
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp, path
        assert r.headers.get("x-frame-options") == "DENY", path
        assert r.headers.get("x-content-type-options") == "nosniff", path
        assert r.headers.get("referrer-policy") == "no-referrer", path


def test_cookies_are_httponly_and_samesite(web):
    c = web.client()
    r = c.get(f"/login/{web.director}", follow_redirects=False)
    sc = r.headers.get_list("set-cookie") if hasattr(r.headers, "get_list") else r.headers.get_all("set-cookie")
    director = [h for h in sc if h.startswith("bansha_director=")]
    assert director and "httponly" in director[0].lower() and "samesite=strict" in director[0].lower()
    r2 = web.client().get(f"/p/{web.links['g1']['赤']}")
    csrf = [h for h in [*sc, *(r2.headers.get_list("set-cookie") if hasattr(r2.headers, "get_list") else r2.headers.get_all("set-cookie"))]
            if h.startswith("bansha_csrf=")]
    assert csrf and "httponly" in csrf[0].lower() and "samesite=strict" in csrf[0].lower()


def test_pages_carry_no_inline_script(web):
    c = web.client(login=True)
    for path in ["/d", "/d/g/g1", f"/p/{web.links['g1']['赤']}"]:
        page = c.get(path).text
        for tag in re.findall(r"<script[^>]*>", page):
            assert 'src="/static/' in tag, tag
        assert not re.search(r"<script[^>]*>[^<]+</script>", page)
        assert not re.search(r"\son\w+\s*=", page)  # no event-handler attributes


# --------------------------------------------------------------------------- escaping


def test_what_players_wrote_is_escaped_everywhere(tmp_path):
    from bansha.engine.model import RulingEvent
    from bansha.store.store import open_store
    from bansha_web.app import Throttle, create_app
    from bansha_web.tokens import Tokens
    from litestar.testing import TestClient

    seats = [(EVIL[0], SEATS[0][1]), (EVIL[1], SEATS[1][1]), (EVIL[2], SEATS[2][1]), *SEATS[3:]]
    store = open_store(str(tmp_path / "g.db"))
    tokens = Tokens(store)
    store.create("evil", setup_of(seats))
    links = tokens.new_players("evil", [n for n, _ in seats])
    director = tokens.new_director()
    with TestClient(create_app(store, tokens, throttle=Throttle(limit=1000))) as c:
        c.get(f"/login/{director}")
        page = c.get("/d/g/evil").text
        r = c.post("/d/g/evil/vote", data={"_csrf_token": csrf_of(page), "player": EVIL[1], "target": EVIL[0]})
        assert r.status_code == 200
        store.append("evil", lambda g: RulingEvent(phase=g.label, kind="announce", text=EVIL[1] + " 说：" + EVIL[0]))
        pages = [c.get("/d").text, c.get("/d/g/evil").text, r.text,
                 *(c.get(f"/p/{t}").text for t in links.values())]
        for p in pages:
            for evil in EVIL:
                assert evil not in p
            assert "<script>alert" not in p and "<img" not in p and "onerror=alert" not in p.replace("onerror=alert(1)&gt;", "")
        assert html.escape(EVIL[0]) in pages[1]
        assert "onmouseover='" not in "".join(pages)


# -------------------------------------------------- nothing a player may not know


ROLES = sorted({r for _, r in SEATS} | set(ALL_ROLES))


def check_no_secret(web, game="g1"):
    g = web.store.load(game)
    c = web.client()
    for name, _ in SEATS:
        page = html.unescape(c.get(f"/p/{web.links[game][name]}").text)
        allowed = allowed_text(g, name)
        for role in ROLES:
            if role in page:
                assert role in allowed, (name, role)
        for q in g.players.values():  # no other player's action, status or uses
            if q.name == name:
                continue
            for a in g.actions:
                if a.actor == q.name and not (set(g.player(name).groups) & set(q.groups)):
                    assert f"{a.skill} {' '.join(a.chosen)}" not in page.replace(f"提交{a.skill}", ""), (name, a)
        for other, lines in g.feedback.items():
            if other != name:
                for _, line in lines:
                    if line not in allowed:
                        assert line not in page, (name, other, line)


def test_no_player_page_holds_a_fact_the_player_may_not_know(web):
    from bansha.engine.model import ActEvent, ResolveEvent

    check_no_secret(web)
    to_night(web.store)
    for actor, skill, targets in NIGHT1:
        web.store.append("g1", ActEvent(phase="night 1", actor=actor, skill=skill, targets=targets))
    check_no_secret(web)
    web.store.append("g1", ResolveEvent(phase="night 1"))
    check_no_secret(web)
