"""Issue 21, items 1 and 2: nothing fails silently, and every form value goes through the door
the command line uses (bansha.door.forms). Each input and attack of the issue is a case here: a
refused creation stores nothing, no input answers 500, a refusal quotes a short excerpt at
most, HEAD is answered, the CSRF secret lives in the store (a restarted server accepts the open
pages' forms) and a cookie that no longer verifies is replaced on the next page load."""

from __future__ import annotations

import html
import re
import subprocess
import sys

import pytest
from webhelpers import SEATS, csrf_of, to_night

ROSTER = [n for n, _ in SEATS]


def create(c, page: str, **fields):
    data = {"_csrf_token": csrf_of(page), "name": "新局", "ruleset": "qisha-xia", "roster": "\n".join(ROSTER), "seed": "1"}
    data.update(fields)
    return c.post("/d/new", data=data, follow_redirects=False)


def stored(web) -> list[str]:
    return sorted(web.store.names())


@pytest.mark.parametrize(("roster", "said"), [
    (["弃权", *ROSTER[1:]], "弃权"),                       # the board's abstention word
    (["-x", *ROSTER[1:]], "-x"),                          # reads as an option
    (["甲" * 33, *ROSTER[1:]], "最多32个"),                 # longer than a name may be
    (["a", "ａ", *ROSTER[2:]], "ａ"),                       # full width is the same name
    (["A", "Ａ", *ROSTER[2:]], "Ａ"),
    (["a", "a\u200b", *ROSTER[2:]], "a"),                  # a zero-width space hides nothing
    (["a", "a\x07", *ROSTER[2:]], "a"),                    # nor does a BEL
    (["x" * 5000, *ROSTER[1:]], "最多32个"),                # 5,000 characters: refused, quoted short
])
def test_a_refused_roster_stores_nothing_and_says_why_in_one_short_line(web, roster, said):
    c = web.client(login=True)
    before = stored(web)
    r = create(c, c.get("/d").text, roster="\n".join(roster))
    assert r.status_code == 422, r.text[:300]
    error = html.unescape(re.search(r'<p class="error" role="alert">(.*?)</p>', r.text, re.S).group(1))
    assert said in error and len(error) < 120, error
    assert stored(web) == before  # nothing half-created
    assert "Traceback" not in r.text


def test_a_name_with_spaces_is_one_seat_and_a_creation_redirects_once(web):
    c = web.client(login=True)
    roster = ["张 三", *ROSTER[1:]]
    r = create(c, c.get("/d").text, name="空格局", roster="\n".join(roster))
    assert r.status_code == 303 and r.headers["location"] == "/d/g/%E7%A9%BA%E6%A0%BC%E5%B1%80"
    g = web.store.load("空格局")
    assert len(g.players) == 20 and "张 三" in g.players
    page = c.get(r.headers["location"]).text  # the links are shown on the one page after the redirect
    assert len(set(re.findall(r"http://testserver.local/p/([A-Za-z0-9_-]{40,})", page))) == 20
    assert 'id="links-pm"' in page and "【私信给 张 三】" in html.unescape(page)
    # a reload shows them no more (and posts nothing again)
    assert not re.findall(r"/p/[A-Za-z0-9_-]{40,}", c.get(r.headers["location"]).text)
    assert stored(web).count("空格局") == 1


@pytest.mark.parametrize(("fields", "said"), [
    ({"seed": "²"}, "应为整数"),
    ({"seed": "9" * 5000}, "种子"),
    ({"seed": "-1"}, "2^63"),
    ({"name": "g" * 5000}, "最多32个"),
    ({"name": " \u200b\x07 "}, "名字为空"),
    ({"ruleset": "../../etc/passwd.toml"}, "请从列表中选择"),
    ({"opt_qisha-xia_kill_teammate_allowed": "maybe"}, "kill_teammate_allowed"),
])
def test_bad_create_fields_are_one_line_and_no_500(web, fields, said):
    c = web.client(login=True)
    before = stored(web)
    r = create(c, c.get("/d").text, **fields)
    assert r.status_code == 422, r.text[:300]
    error = html.unescape(re.search(r'<p class="error" role="alert">(.*?)</p>', r.text, re.S).group(1))
    assert said in error and len(error) < 160, error
    assert stored(web) == before


def test_a_file_in_a_text_field_and_a_huge_body_are_refused_in_words(web):
    c = web.client(login=True)
    page = c.get("/d").text
    r = c.post("/d/new", data={"_csrf_token": csrf_of(page), "ruleset": "qisha-xia", "roster": "\n".join(ROSTER)},
               files={"name": ("name.txt", b"g9", "text/plain")})
    assert r.status_code == 422 and "应为文字" in html.unescape(r.text)
    assert "g9" not in stored(web)
    r = c.post("/d/new", data={"_csrf_token": csrf_of(page), "roster": "x" * 600_000})
    assert r.status_code == 413 and "提交的内容太大" in r.text and "Entity" not in r.text


def test_skill_arguments_and_floor_numbers_go_through_the_door(web):
    to_night(web.store)
    c = web.client()
    base = f"/p/{web.links['g1']['赤']}"
    page = c.get(base).text
    r = c.post(base + "/act", data={"_csrf_token": csrf_of(page), "skill": "验人", "target": "黑二", "arg_x": "9" * 5000})
    assert r.status_code == 422 and "Traceback" not in r.text and "9" * 100 not in r.text
    assert web.store.load("g1").actions == []
    web.store.append("g1", lambda g: __import__("bansha.engine.model").engine.model.ResolveEvent(phase=g.label))
    page = c.get(base).text
    r = c.post(base + "/vote", data={"_csrf_token": csrf_of(page), "target": "黑二", "post": "²"})
    assert r.status_code == 422 and "楼层" in html.unescape(r.text) and web.store.load("g1").ballots == []
    r = c.post(base + "/vote", data={"_csrf_token": csrf_of(page), "target": "黑二", "post": "12"})
    assert r.status_code == 200 and [(b.target, b.post) for b in web.store.load("g1").ballots] == [("黑二", 12)]


def test_static_paths_head_and_unknown_pages(web):
    c = web.client()
    assert c.get("/static/live.js").status_code == 200
    for path in ["/static/%00", "/static/..%2Fapp.py", "/static/nope.js", "/nope"]:
        r = c.get(path)
        assert r.status_code == 404 and "没有这个页面" in r.text, path
    r = c.head("/")
    assert r.status_code == 200 and r.content == b""
    r = c.head(f"/p/{web.links['g1']['赤']}")
    assert r.status_code == 200 and r.content == b"" and r.headers["x-frame-options"] == "DENY"
    r = c.head(f"/p/{web.links['g1']['赤']}/events")  # an event stream: headers, and done
    assert r.status_code == 200 and r.content == b"" and r.headers["content-type"].startswith("text/event-stream")
    assert c.head("/p/nope").status_code == 404


# --------------------------------------------------------------------- never silent


def test_refusals_of_an_open_page_are_retargeted_to_its_notice(web):
    """A form posted by htmx that is refused (403, 404, 413, 429, 500) gets a notice that the
    page shows in #said, in the board's language, saying what to do."""
    c = web.client()
    base = f"/p/{web.links['g1']['赤']}"
    page = c.get(base).text
    assert 'id="said"' in page
    hx = {"HX-Request": "true"}
    r = c.post(base + "/vote", data={"_csrf_token": "forged", "target": "黑二"}, headers=hx)
    assert r.status_code == 403 and r.headers["hx-retarget"] == "#said"
    assert "请刷新本页" in r.text and "CSRF" not in r.text and "<html" not in r.text
    r = c.post("/p/revoked-or-unknown/vote", data={"_csrf_token": csrf_of(page), "target": "黑二"}, headers=hx)
    assert r.status_code == 404 and "请向导演索取新链接" in r.text and r.headers["hx-retarget"] == "#said"
    r = c.post(base + "/vote", data={"_csrf_token": csrf_of(page), "target": "x" * 600_000}, headers=hx)
    assert r.status_code == 413 and "提交的内容太大" in r.text
    # htmx swaps every 4xx and 5xx (responseHandling), so none is dropped
    assert '{"code": "[45]..", "swap": true}' in page


def test_the_csrf_secret_lives_in_the_store_so_a_restarted_server_accepts_open_pages(web):
    from bansha_web.app import Throttle, create_app
    from litestar.testing import TestClient

    c = web.client()
    base = f"/p/{web.links['g1']['士一']}"
    page = c.get(base).text
    cookies = dict(c.cookies)
    # "restart": a new app (a new process would read the same row) on the same store
    with TestClient(create_app(web.store, web.tokens, throttle=Throttle(limit=1000))) as again:
        again.cookies.update(cookies)
        r = again.post(base + "/vote", data={"_csrf_token": csrf_of(page), "target": "黑一"})
        assert r.status_code == 200, r.text[:300]
    assert [b.voter for b in web.store.load("g1").ballots] == ["士一"]
    import sqlite3

    with sqlite3.connect(web.tmp / "games.db") as db:
        (secret,), = db.execute("SELECT value FROM meta WHERE key = 'web.csrf_secret'").fetchall()
    assert len(secret) == 64 and secret not in page


def test_a_cookie_that_no_longer_verifies_is_replaced_on_the_next_page_load(web):
    c = web.client()
    base = f"/p/{web.links['g1']['士一']}"
    c.cookies.set("bansha_csrf", "made-by-another-secret" * 3, domain="testserver.local")
    page = c.get(base).text
    assert c.cookies.get("bansha_csrf") != "made-by-another-secret" * 3  # replaced
    r = c.post(base + "/vote", data={"_csrf_token": csrf_of(page), "target": "黑一"})
    assert r.status_code == 200, r.text[:300]


def test_the_cli_takes_the_same_door(tmp_path):
    """`bansha new` and the console's form share newgame.new_setup: the same refusal, as short."""
    db = str(tmp_path / "g.db")
    names = ",".join(["x" * 5000, *ROSTER[1:]])
    out = subprocess.run([sys.executable, "-m", "bansha.cli.cli", "new", "g", "--ruleset", "qisha-xia", "--players", names,
                          "--db", db], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "最多32个" in out.stderr and len(out.stderr) < 200, out.stderr
    out = subprocess.run([sys.executable, "-m", "bansha.cli.cli", "act", "g", "a", "b", "--arg", "k=" + "9" * 5000, "--db", db],
                         capture_output=True, text=True, timeout=60)
    assert "Traceback" not in out.stderr and out.returncode == 2


def test_a_throttled_or_failed_htmx_request_is_a_notice_too(tmp_path, monkeypatch):
    """429 and 500 reach an open page as its notice (what to do, in Chinese), not a dropped
    response; the 500's exception is logged for the operator, never shown."""
    from bansha.store.store import open_store
    from bansha_web.app import Throttle, create_app
    from bansha_web.tokens import Tokens
    from litestar.testing import TestClient

    store = open_store(str(tmp_path / "g.db"))
    store.create("g1", __import__("webhelpers").setup_of())
    good = Tokens(store).new_player("g1", "赤")
    app = create_app(store, Tokens(store), throttle=Throttle(limit=2, window=60))
    hx = {"HX-Request": "true"}
    with TestClient(app) as c:
        for i in range(2):
            assert c.get(f"/p/bad{i}/view", headers=hx).status_code == 404
        r = c.get("/p/bad-again/view", headers=hx)
        assert r.status_code == 429 and r.headers["hx-retarget"] == "#said" and "秒后再试" in r.text
        site = app.litestar.state.site

        def broken(game):
            raise RuntimeError("a secret detail")

        monkeypatch.setattr(site, "load", broken)
        r = c.get(f"/p/{good}/view", headers=hx)
        assert r.status_code == 500 and r.headers["hx-retarget"] == "#said"
        assert "服务器内部错误：请稍后再试" in r.text and "secret" not in r.text and "Traceback" not in r.text
    store.close()


def test_two_servers_starting_at_once_on_an_empty_store_keep_one_csrf_secret(any_store):
    """Both saw no secret, then both made one: the second must not replace the first's (the
    first server's open pages would be refused), nor keep its own (forms would work on one
    server only). Played with the two reads before either write, then with threads at once."""
    import threading

    from bansha.store.store import open_store
    from bansha_web.app import CSRF_KEY, csrf_secret

    first, second = open_store(any_store), open_store(any_store)
    try:
        assert first.get_meta([CSRF_KEY]) == second.get_meta([CSRF_KEY]) == {}  # both: none yet
        mine = first.add_meta({CSRF_KEY: "a" * 64})[CSRF_KEY]
        theirs = second.add_meta({CSRF_KEY: "b" * 64})[CSRF_KEY]
        assert mine == theirs == "a" * 64
        assert csrf_secret(second) == csrf_secret(first) == "a" * 64
        first.set_meta({CSRF_KEY: None})
        stores = [open_store(any_store) for _ in range(6)]
        got: list[str] = []
        gate = threading.Barrier(len(stores))

        def start(store):
            gate.wait()
            got.append(csrf_secret(store))

        threads = [threading.Thread(target=start, args=(s,)) for s in stores]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert len(got) == 6 and len(set(got)) == 1 and got[0] == first.get_meta([CSRF_KEY])[CSRF_KEY]
        for s in stores:
            s.close()
    finally:
        first.close()
        second.close()
