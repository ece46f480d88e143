"""The thread's activity on the game console (``/d/g/{game}/activity``, issue 26 item 3, the web
part): a pasted thread, and the same thread served by a local forum (the Discuz! X mobile API),
counted as ``bansha activity`` counts them — posts and characters per player since the phase
opened, the prod list, posts by non-players — with the BBCode to copy; player names escaped,
the form under CSRF, a refused source said in Chinese on the page."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest
from bansha.store.store import open_store
from forumserver import local_forum
from webhelpers import SEATS, csrf_of, setup_of

# two seats renamed to names that are markup
NAMED = [("<i>阿Q</i>", SEATS[0][1]), ("a&b", SEATS[1][1]), *SEATS[2:]]
POSTS = [  # floor, author, time, text
    (1, "导演", "2024-05-06 09:00:12", "第1日白天，讨论帖。"),
    (2, "<i>阿Q</i>", "2024-05-06 09:12:40", "我是好人，别投我"),
    (3, "黑三", "2024-05-06 09:30:01", "跟"),
    (4, "<i>阿Q</i>", "2024-05-06 10:01:00", "再说一句 话"),
    (5, "路人甲", "2024-05-06 10:05:00", "围观"),
]


def pasted(posts=POSTS) -> str:
    """The thread as a browser's select-all copies a Discuz! page (the discuz-text format)."""
    out = ["[七杀]第1日 讨论帖", "[复制链接]", f"查看: 100|回复: {len(posts) - 1}", "显示全部楼层", ""]
    names = {1: "楼主", 2: "沙发", 3: "板凳", 4: "地板"}
    for floor, author, time, text in posts:
        t = dt.datetime.strptime(time, "%Y-%m-%d %H:%M:%S")
        out += [author, f"发表于 {t.year}-{t.month}-{t.day} {t:%H:%M:%S} | 只看该作者", names.get(floor, f"{floor}#"), text, ""]
    return "\n".join(out)


def api_page(posts=POSTS) -> bytes:
    """The same thread as the Discuz! X mobile API answers it (one page)."""
    cst = dt.timezone(dt.timedelta(hours=8))
    rows = []
    for floor, author, time, text in posts:
        t = dt.datetime.strptime(time, "%Y-%m-%d %H:%M:%S")
        rows.append({"pid": str(90000 + floor), "tid": "4242", "first": "1" if floor == 1 else "0", "author": author,
                     "authorid": str(1000 + floor), "dateline": f"{t.year}-{t.month}-{t.day} {t:%H:%M}",
                     "dbdateline": str(int(t.replace(tzinfo=cst).timestamp())),
                     "message": text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"),
                     "number": str(floor), "anonymous": "0", "status": "0"})
    doc = {"Version": "4", "Charset": "UTF-8", "Variables": {
        "ppp": "20", "thread": {"tid": "4242", "subject": "[七杀]第1日 讨论帖", "replies": str(len(posts) - 1)},
        "postlist": rows}}
    return json.dumps(doc, ensure_ascii=False).encode()


@pytest.fixture
def forum():
    """A local forum serving the thread at /api/mobile/index.php?module=viewthread&tid=4242."""
    with local_forum({"api": ([api_page()], "application/json; charset=utf-8")}) as (base, _):
        yield base


@pytest.fixture
def console(any_store, monkeypatch):
    from bansha_web.app import Throttle, create_app
    from bansha_web.tokens import Tokens
    from litestar.testing import TestClient

    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    monkeypatch.setenv("no_proxy", "127.0.0.1")
    store = open_store(any_store)
    store.create("g1", setup_of(NAMED))
    store.create("g2", setup_of(NAMED))
    tokens = Tokens(store)
    tokens.set_owner("g1", "梦见")
    tokens.set_owner("g2", "青蛙")
    link = tokens.new_director("梦见")
    app = create_app(store, tokens, throttle=Throttle(limit=1000))
    with TestClient(app) as c:
        assert c.get(f"/login/{link}").status_code == 200
        yield c
    store.close()


def rows_of(page: str) -> dict[str, tuple[int, int]]:
    table = page.split('id="activity-table"')[1].split("</table>")[0]
    return {name: (int(n), int(chars)) for name, n, chars in
            re.findall(r"<tr[^>]*><td>\d+</td><td>(.*?)</td><td>(\d+)</td><td>(\d+)</td>", table)}


def check(page: str) -> None:
    rows = rows_of(page)
    assert rows["&lt;i&gt;阿Q&lt;/i&gt;"] == (2, len("我是好人，别投我") + len("再说一句话"))
    assert rows["黑三"] == (1, 1) and rows["a&amp;b"] == (0, 0)
    assert "<i>阿Q</i>" not in page  # escaped everywhere, the BBCode's textarea too
    prod = re.search(r'id="activity-prod">(.*?)</p>', page).group(1)
    assert "a&amp;b" in prod and "黑三" not in prod and "阿Q" not in prod
    assert "非玩家发帖：路人甲" in page
    assert "第1天 白天 发帖统计（自 2024-05-06 09:00）" in page
    bbcode = re.search(r'id="activity-bbcode">(.*?)</textarea>', page, re.S).group(1)
    assert bbcode.startswith("[b]第1天 白天 发帖统计") and "[table]" in bbcode and "[td]&lt;i&gt;阿Q&lt;/i&gt;[/td]" in bbcode


def test_a_pasted_thread_gives_the_table_the_prod_list_and_the_bbcode(console):
    assert 'href="/d/g/g1/activity"' in console.get("/d/g/g1").text
    form = console.get("/d/g/g1/activity").text
    r = console.post("/d/g/g1/activity", data={"_csrf_token": csrf_of(form), "thread": pasted()})
    assert r.status_code == 200, r.text[:500]
    check(r.text)
    # counted from a later time: the first post is before it
    r = console.post("/d/g/g1/activity", data={"_csrf_token": csrf_of(form), "thread": pasted(), "since": "2024-05-06 09:20"})
    assert rows_of(r.text)["&lt;i&gt;阿Q&lt;/i&gt;"] == (1, len("再说一句话"))


def test_the_thread_by_its_address_is_read_off_the_loop_and_counted_alike(console, forum):
    form = console.get("/d/g/g1/activity").text
    url = f"{forum}/api/mobile/index.php?version=4&module=viewthread&tid=4242"
    r = console.post("/d/g/g1/activity", data={"_csrf_token": csrf_of(form), "url": url})
    assert r.status_code == 200, r.text[:500]
    check(r.text)
    # an address no forum format reads, a forum that is not there: one line in Chinese, on the page
    for bad, says in ((f"{forum}/index.html", "不是已安装的论坛格式能读取的帖子地址"),
                      ("http://127.0.0.1:9/forum.php?mod=viewthread&tid=1", "无法连接"),
                      ("file:///etc/passwd", "应以 http:// 或 https:// 开头")):
        r = console.post("/d/g/g1/activity", data={"_csrf_token": csrf_of(form), "url": bad})
        assert r.status_code == 422 and says in r.text and "Traceback" not in r.text, r.text[:400]


def test_refusals_csrf_size_and_another_director_game(console):
    form = console.get("/d/g/g1/activity").text
    token = csrf_of(form)
    r = console.post("/d/g/g1/activity", data={"thread": pasted()})
    assert r.status_code == 403 and "请刷新本页" in r.text and "activity-table" not in r.text
    for data, says in (({"thread": ""}, "请粘贴帖子的内容"), ({"thread": "随便写的几行字\n没有楼层"}, "没有读到任何楼层"),
                       ({"thread": pasted(), "since": "昨天"}, "起算时间"), ({"thread": pasted(), "forum": "<x>"}, "论坛格式"),
                       ({"thread": "x" * 400_001}, "帖子内容")):
        r = console.post("/d/g/g1/activity", data={"_csrf_token": token, **data})
        assert r.status_code == 422 and says in r.text and "<x>" not in r.text, (data.keys(), r.text[:300])
    r = console.post("/d/g/g1/activity", data={"_csrf_token": token, "thread": "字" * 200_000})  # the body's limit
    assert r.status_code == 413 and "提交的内容太大" in r.text
    # another director's game is "no game" to this one, its activity too
    assert console.get("/d/g/g2/activity").status_code == 404
    r = console.post("/d/g/g2/activity", data={"_csrf_token": token, "thread": pasted()})
    assert r.status_code == 404 and "activity-table" not in r.text
