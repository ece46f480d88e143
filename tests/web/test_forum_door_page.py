"""The forum door on the game console (``/d/g/{game}/forum``, issue 34 item 7), on both stores,
against the Discuz! X stand-in: the page previews the phase's outbox as ``bansha forum push``
does (every message with its recipient and uid) and sends nothing; its button sends each
message once; reading the PMs proposes and records only on the second button; a PM's text is
escaped; every form is under CSRF; an unlinked game says how to link it."""

from __future__ import annotations

import re

import pytest
from bansha.store.store import open_store
from door.game import DIRECTOR, TID, bansha, cookies_file, new_game, play, site_with_players, uid_of
from forumserver import discuz_site
from webhelpers import csrf_of


@pytest.fixture
def door(any_store, tmp_path, monkeypatch):
    from bansha_web.app import Throttle, create_app
    from bansha_web.tokens import Tokens
    from litestar.testing import TestClient

    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    monkeypatch.setenv("no_proxy", "127.0.0.1")
    new_game(tmp_path, db=any_store)
    play(any_store, 2)  # day 1 and its run-off: night 1 now
    bansha("new", "bare", "--ruleset", "qisha-xia", "--players", ",".join(f"P{i}" for i in range(20)), db=any_store)
    site = site_with_players()
    with discuz_site(site) as base:
        bansha("forum", "link", "g", "--site", base, "--cookies", str(cookies_file(tmp_path, site)), "--thread", str(TID),
               "--interval", "0", db=any_store)
        store = open_store(any_store)
        tokens = Tokens(store)
        tokens.set_owner("g", "梦见")
        tokens.set_owner("bare", "梦见")
        link = tokens.new_director("梦见")
        app = create_app(store, tokens, throttle=Throttle(limit=1000))
        with TestClient(app) as c:
            assert c.get(f"/login/{link}").status_code == 200
            yield c, site, any_store
        store.close()


def test_the_console_pulls_the_night_then_previews_and_pushes_each_message_once(door):
    c, site, db = door
    assert 'href="/d/g/g/forum"' in c.get("/d/g/g").text
    page = c.get("/d/g/g/forum").text
    token = csrf_of(page)
    # the night's PMs: two actions, one markup
    site.pm(uid_of(7), DIRECTOR, "技能：验人 目标：黑二")
    site.pm(uid_of(2), DIRECTOR, "技能：杀人 目标：士一")
    site.pm(uid_of(12), DIRECTOR, "<script>alert(1)</script>")
    assert c.post("/d/g/g/forum/pull").status_code == 403  # no CSRF token: refused
    r = c.post("/d/g/g/forum/pull", data={"_csrf_token": token})
    assert "赤 验人 黑二" in r.text and "黑二 杀人 士一" in r.text and "记录可记录的 2 条" in r.text
    assert "<script>alert(1)</script>" not in r.text and "&lt;script&gt;" in r.text
    n = len(open_store(db).events("g"))  # a proposal records nothing: the confirmation records what it listed
    listed = re.findall(r'name="pm" value="(\d+)"', r.text)
    assert len(listed) == 2
    site.pm(uid_of(9), DIRECTOR, "技能：阻止 目标：士二")  # arrived after the proposal: not confirmed, not recorded
    r = c.post("/d/g/g/forum/pull", data={"_csrf_token": token, "record": "1", "pm": listed})
    assert "已记录 2 条行动" in r.text and len(open_store(db).events("g")) == n + 2
    r = c.post("/d/g/g/forum/pull", data={"_csrf_token": token})
    assert "不接受" in r.text or "银" in r.text  # the late arrival is proposed now, alone
    r = c.post("/d/g/g/forum/pull", data={"_csrf_token": token, "record": "1"})
    assert r.status_code == 422 and "没有要记录的短消息" in r.text
    bansha("resolve", "g", "--yes", db=db)
    # night 1's outbox, previewed: nothing sent
    before_pms = list(site.pms)
    page = c.get("/d/g/g/forum").text
    assert "主帖 tid 77" in page and "7号 赤" in page and str(uid_of(7)) in page and "待发送" in page
    assert site.pms == before_pms
    assert c.post("/d/g/g/forum/push").status_code == 403 and site.pms == before_pms
    r = c.post("/d/g/g/forum/push", data={"_csrf_token": token})
    assert r.status_code == 200 and "发送完毕" in r.text and "没有要发送的消息" in r.text, r.text[:800]
    sent = [p for p in site.pms if p["msgfromid"] == DIRECTOR]
    assert sent and len({p["msgtoid"] for p in sent}) == len(sent)
    assert any(p["msgtoid"] == uid_of(7) and "黑二" in p["message"] for p in sent)
    c.post("/d/g/g/forum/push", data={"_csrf_token": token})  # again: nothing more
    assert [p for p in site.pms if p["msgfromid"] == DIRECTOR] == sent


def test_an_unlinked_game_says_how_to_link_it(door):
    c, _site, _db = door
    page = c.get("/d/g/bare/forum").text
    assert "还没有连接论坛" in page and "bansha forum link bare" in page and "push-form" not in page
    assert re.search(r'id="forum-unlinked"', page)
