"""The director's statistics page (``GET /d/stats``, issue 25 item 4, the web part): the
finished games of the director's own, counted as ``bansha stats`` counts them
(bansha_sim.realstats), per camp and role with intervals, lengths, causes, an inline SVG plot,
and the simulated rates beside them on request. SQLite and PostgreSQL (BANSHA_TEST_PG)."""

from __future__ import annotations

import re

import pytest
from bansha.engine.model import RulingEvent
from bansha.store.store import open_store
from bansha_sim.play import play_game
from webhelpers import csrf_of


def _played(store, name, seed, owner_tokens=None, owner=None, finish=True):
    r = play_game("mafia-basic", 10, seed, "random", {"mafia": 1}, keep=True)
    store.create(name, r["setup"])
    events = r["events"] if finish else r["events"][:3]
    for ev in events:
        store.append(name, ev)
    if owner_tokens is not None:
        owner_tokens.set_owner(name, owner)
    return r


@pytest.fixture
def site(any_store):
    """Director 梦见 owns three finished games (one named with markup) and one unfinished one;
    director 青蛙 owns two finished ones, one of which the director declared drawn."""
    from bansha_web.app import Throttle, create_app
    from bansha_web.tokens import Tokens
    from litestar.testing import TestClient

    store = open_store(any_store)
    tokens = Tokens(store)
    mine = [_played(store, n, i, tokens, "梦见") for i, n in enumerate(["m1", "m2", "<b>坏</b>"])]
    _played(store, "m-open", 9, tokens, "梦见", finish=False)
    theirs = [_played(store, "t1", 20, tokens, "青蛙")]
    r = play_game("mafia-basic", 10, 21, "random", {"mafia": 1}, day_limit=0, keep=True)
    store.create("t2", r["setup"])
    tokens.set_owner("t2", "青蛙")
    store.append("t2", RulingEvent(phase=store.load("t2").label, kind="draw"))
    links = {"梦见": tokens.new_director("梦见"), "青蛙": tokens.new_director("青蛙"), "*": tokens.new_director()}
    app = create_app(store, tokens, throttle=Throttle(limit=1000))

    def client(who):
        c = TestClient(app)
        c.__enter__()
        assert c.get(f"/login/{links[who]}").status_code == 200
        return c

    yield {"client": client, "mine": mine, "theirs": theirs, "app": app}
    store.close()


def _numbers(page: str, label: str) -> str:
    row = re.search(rf"<tr><td>{label}</td><td>(\d+)</td><td>([\d.]+)% \[([\d.]+), ([\d.]+)\]", page)
    assert row, f"no row for {label}"
    return row.groups()


def test_a_director_sees_the_stats_of_their_own_finished_games_only(site):
    c = site["client"]("梦见")
    games = c.get("/d").text
    assert 'href="/d/stats"' in games
    page = c.get("/d/stats").text
    assert "已结束 3 局" in page and "未结束 1 局" in page
    assert "t1" not in page and "t2" not in page  # 青蛙's games are neither counted nor named
    mafia = sum("黑手党" in r["winners"] for r in site["mine"])
    wins, p, lo, hi = _numbers(page, "黑手党")
    assert int(wins) == mafia and float(p) == pytest.approx(mafia / 3 * 100, abs=0.05)
    assert float(lo) <= float(p) <= float(hi)
    roles = page.split('class="seats stats-roles"')[1]
    dealt, p, *_ = _numbers(roles, "黑手党")  # the role of the same name: dealt once a game
    assert int(dealt) == 3 and float(p) == pytest.approx(mafia / 3 * 100, abs=0.05)
    assert int(_numbers(roles, "平民")[0]) == 3 * 9
    assert "<svg" in page and page.count('class="chart"') == 2 and "<script>" not in page.split("</head>")[1]
    # the game named with markup is listed as text
    assert "&lt;b&gt;坏&lt;/b&gt;" in page and "<b>坏</b>" not in page
    mean = sum(r["days"] for r in site["mine"]) / 3
    assert f"平均 {mean:.2f} 天" in page
    other = site["client"]("青蛙").get("/d/stats").text
    assert "已结束 2 局" in other and "m1" not in other and "坏" not in other
    assert "平局 1 局" in other
    owner = site["client"]("*").get("/d/stats").text
    assert "已结束 5 局" in owner


def test_the_simulated_rates_beside_the_real_ones_and_refusals(site):
    c = site["client"]("梦见")
    page = c.get("/d/stats").text
    group = re.search(r'<option value="([0-9a-f]{16})"', page).group(1)
    token = csrf_of(page)
    r = c.post("/d/stats", data={"_csrf_token": token, "group": group, "games": "30", "policy": "random"})
    assert r.status_code == 200, r.text[:500]
    assert "模拟胜率 [95%]（30 局，random）" in r.text and "已模拟" in r.text
    assert r.text.count('fill="#aaa"') >= 2  # the simulated bars in the plot
    for bad, why in (({"games": "100000"}, "模拟局数"), ({"games": "1.5"}, "模拟局数"), ({"policy": "<x>"}, "策略"),
                     ({"group": "0" * 16}, "没有这个桌型")):
        r = c.post("/d/stats", data={"_csrf_token": token, "group": group, "games": "30", "policy": "random", **bad})
        assert r.status_code == 422 and why in r.text and "Traceback" not in r.text
        assert "<x>" not in r.text
    # without the form's CSRF token: refused, nothing simulated
    r = c.post("/d/stats", data={"group": group, "games": "30", "policy": "random"})
    assert r.status_code == 403 and "请刷新本页" in r.text
    # another director at the same table compares their own games only
    other = site["client"]("青蛙")
    page2 = other.get("/d/stats").text
    r = other.post("/d/stats", data={"_csrf_token": csrf_of(page2), "group": group, "games": "30", "policy": "random"})
    assert r.status_code == 200 and "已结束 2 局" in r.text and "已结束 3 局" not in r.text and "m1" not in r.text


def test_the_stats_page_needs_a_director(site):
    from litestar.testing import TestClient

    with TestClient(site["app"]) as anon:
        r = anon.get("/d/stats")
        assert r.status_code == 403 and "导演登录链接" in r.text


def test_one_simulation_at_a_time(site):
    """While one comparison runs (the process's simulation slot taken), another is refused and
    nothing is simulated; once it is free, the comparison runs."""
    c = site["client"]("梦见")
    page = c.get("/d/stats").text
    group = re.search(r'<option value="([0-9a-f]{16})"', page).group(1)
    form = {"_csrf_token": csrf_of(page), "group": group, "games": "10", "policy": "random"}
    slot = site["app"].litestar.state.site.simulating
    assert slot.acquire(blocking=False)  # as a running comparison holds it
    try:
        r = c.post("/d/stats", data=form)
        assert r.status_code == 422 and "已有一个模拟在运行" in r.text and "模拟胜率" not in r.text
    finally:
        slot.release()
    r = c.post("/d/stats", data=form)
    assert r.status_code == 200 and "模拟胜率 [95%]（10 局，random）" in r.text


def test_the_chart_escapes_its_labels_and_draws_each_interval():
    """A label is text in the SVG whatever it holds (a homebrew board's camp named with markup);
    each row is a bar as wide as its rate and a whisker from its low to its high end."""
    from bansha_web.stats import rate_chart

    svg = str(rate_chart([{"label": '<script>alert(1)</script>"', "p": 0.25, "low": 0.1, "high": 0.5},
                          {"label": "市民", "p": 0.75, "low": 0.5, "high": 0.9,
                           "sim": {"p": 0.6, "low": 0.55, "high": 0.65}, "flag": True}], 'a "title" <b>'))
    assert "<script>" not in svg and "&lt;script&gt;alert(1)&lt;/script&gt;&#34;" in svg
    assert 'aria-label="a &#34;title&#34; &lt;b&gt;"' in svg and "<b>" not in svg
    widths = re.findall(r'<rect x="130" y="[\d.]+" width="([\d.]+)"', svg)
    assert widths == ["80.0", "240.0", "192.0"]  # 320 px for 100 %: 25 %, 75 %, the simulated 60 %
    assert 'x1="162.0"' in svg and 'x2="290.0"' in svg  # the first whisker: 10 % to 50 %
    assert "市民  ≠" in svg
