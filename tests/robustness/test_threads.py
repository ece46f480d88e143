"""Issue 32 item 4: threads. A post whose floor cannot be read (``"-5"``, ``abc``) is a refused
row with its reason in every format (the Discuz! X API, NGA, a saved Discuz! page), never a
vote that vanishes; a server that drips its answer cannot keep ``votes import``, ``activity`` or
``signup`` running (a total deadline per page and per thread, docs/forums.md "Fetching"); a
cookie file is checked line by line before anything is fetched; a saved page cut mid-post and a
connection dropped mid-answer are said as such; ``--cookies`` with a file source is refused.

Every case runs the real entry point in this process (``clirun.run_main``: the deadlines are
shortened by setting ``bansha_forum.read``'s constants) against tests/forumserver.py's local
forum on 127.0.0.1, on a real SQLite store that a refusal leaves byte-identical."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from bansha_forum import read
from bansha_forum.adapters.discuz_text import parse_thread
from clirun import LIBRARY_ENGLISH, run_main, settled_bytes
from forumserver import Cut, Drip, local_forum

from forum import render

M14 = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛", "壬", "癸", "子", "丑", "寅", "卯"]
TITLE = "[M217]新日暮里 第1日 投票帖"
API_TYPE = "application/json; charset=utf-8"


def post(floor: str, time: str, author: str, text: str) -> str:
    return f"{author}\n发表于 {time}\n{floor}\n{text}\n"


#: four posts: the opening, and three votes of which the middle one's floor is made unreadable
THREAD = (post("楼主", "2024-05-06 09:00:00", "导演", "第1日正午投票帖。")
          + post("沙发", "2024-05-06 09:10:00", "甲", "投票对象：乙\n投票理由：看着像")
          + post("板凳", "2024-05-06 09:20:00", "丙", "投票对象：乙\n投票理由：跟")
          + post("地板", "2024-05-06 09:30:00", "丁", "投票对象：甲\n投票理由：随便"))
POSTS = parse_thread(THREAD)


def run(argv: list) -> tuple[int, str]:
    code, out, err = run_main(argv)
    return code, out + err


_NOON: dict[str, bytes] = {}


@pytest.fixture
def noon(tmp_path) -> Path:
    """An M217 game at its first vote (noon 1), made once and copied for each test."""
    db = tmp_path / "g.db"
    if "db" not in _NOON:
        first = tmp_path / "first.db"
        assert run(["new", "g", "--ruleset", "m217", "--players", ",".join(M14), "--db", first])[0] == 0
        for _ in range(4):
            assert run(["resolve", "g", "--yes", "--db", first])[0] == 0
        _NOON["db"] = settled_bytes(first)
    db.write_bytes(_NOON["db"])
    return db


def refused(db: Path, *argv, says: str) -> str:
    """Exit 2, one line holding ``says``, in Chinese without a library's English, the store
    byte-identical."""
    before = settled_bytes(db)
    code, out = run([*argv, "--db", db])
    lines = [line for line in out.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1, (argv, code, out)
    assert says in lines[0] and lines[0].startswith("错误："), (says, lines[0])
    assert not [w for w in LIBRARY_ENGLISH if w in lines[0]], lines[0]
    assert settled_bytes(db) == before, argv
    return lines[0]


def imported(db: Path, source, *extra) -> list[dict]:
    code, out = run(["votes", "import", "g", source, *extra, "--db", db, "--json"])
    assert code == 0, out
    return json.loads(out)["posts"]


def recorded(db: Path) -> list[tuple[str, str, int]]:
    from bansha.engine.model import VoteEvent
    from bansha.store.store import Store

    return [(e.voter, e.target, e.post) for e in Store(db).events("g") if isinstance(e, VoteEvent)]


# ----------------------------------------------------------- a floor that cannot be read


def api_page(bad: str) -> bytes:
    doc = json.loads(render.discuz_api_pages(POSTS, TITLE, ppp=10)[0])
    doc["Variables"]["postlist"][2]["number"] = bad
    return json.dumps(doc, ensure_ascii=False).encode()


def nga_page(bad: str) -> bytes:
    doc = json.loads(render.nga_pages(POSTS, TITLE, per_page=10)[0])
    doc["data"]["__R"][2]["lou"] = bad
    return json.dumps(doc, ensure_ascii=False).encode()


def html_page(bad: str) -> bytes:
    page = render.discuz_html_pages(POSTS, TITLE, per_page=10, charset="utf-8")[0].decode()
    page = page.replace('id="postnum90003">板凳</a>', f'id="postnum90003"><em>{bad}</em><sup>#</sup></a>')
    assert bad in page
    return page.encode()


@pytest.mark.parametrize("bad", ["-5", "abc"])
@pytest.mark.parametrize("fmt,page", [("api", api_page), ("nga", nga_page), ("html", html_page)])
def test_a_vote_whose_floor_cannot_be_read_is_a_refused_row_never_dropped(tmp_path, noon, fmt, page, bad):
    saved = tmp_path / f"thread.{'html' if fmt == 'html' else 'json'}"
    saved.write_bytes(page(bad))
    rows = imported(noon, saved)
    assert len(rows) == 4, rows  # every post of the thread has its row
    row = next(r for r in rows if r["author"] == "丙")
    assert row["status"] == "reject" and row["floor"] is None, row
    assert f"楼层号 {bad}" in row["reason"] and "无法读取" in row["reason"], row
    assert recorded(noon) == [("甲", "乙", 2), ("丁", "甲", 4)]  # the readable votes, and no other
    code, out = run(["votes", "import", "g", saved, "--db", noon, "--dry-run"])  # the table says it too
    assert code == 0 and re.search(rf"\?\s+丙.*拒绝\s+楼层号 {bad}", out), out


@pytest.mark.parametrize("bad", ["-5", "abc"])
def test_a_floor_that_cannot_be_read_is_refused_by_url_by_activity_and_by_signup(tmp_path, noon, bad):
    with local_forum({"api": ([api_page(bad)], API_TYPE)}) as (base, _):
        url = f"{base}/api/api/mobile/index.php?module=viewthread&tid=4242"
        rows = imported(noon, url, "--dry-run")
        assert [r["floor"] for r in rows] == [None, 1, 2, 4]
        assert "无法读取" in rows[0]["reason"] and rows[0]["author"] == "丙"
        code, out = run(["activity", "g", url, "--db", noon])
        assert code == 0 and "无法读取的帖子（不计）：丙：楼层号" in out, out
    signup = (post("楼主", "2024-05-06 09:00:00", "导演", "报名帖") + post("沙发", "2024-05-06 09:10:00", "甲", "报名")
              + post("板凳", "2024-05-06 09:20:00", "丙", "报名"))
    doc = json.loads(render.discuz_api_pages(parse_thread(signup), TITLE, ppp=10)[0])
    doc["Variables"]["postlist"][2]["number"] = bad
    saved = tmp_path / "signup.json"
    saved.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    code, out = run(["signup", saved, "--ruleset", "m217", "--json"])
    got = json.loads(out)
    assert code == 0 and got["players"] == ["甲"], out
    assert [s["name"] for s in got["not_taken"]] == ["丙"] and "无法读取" in got["not_taken"][0]["why"], got


# ------------------------------------------------------------------ pages cut short


def test_a_saved_page_cut_mid_post_is_said_as_such(tmp_path, noon):
    page = render.discuz_html_pages(POSTS, TITLE, per_page=10, charset="utf-8")[0].decode()
    cut = tmp_path / "cut.html"
    cut.write_text(page[: page.index('id="postmessage_90004"') + 40], encoding="utf-8")  # inside 地板's text
    refused(noon, "votes", "import", "g", cut, says="cut.html：页面不完整，在结尾之前中断（最后完整的一楼是 地板）")
    refused(noon, "activity", "g", cut, says="页面不完整")
    api = render.discuz_api_pages(POSTS, TITLE, ppp=10)[0]
    cut.write_bytes(api[: len(api) * 2 // 3])
    refused(noon, "votes", "import", "g", cut, says="cut.html：页面不完整")


def test_a_connection_dropped_mid_answer_is_said_as_such(noon):
    body = api_page("5")
    with local_forum({"api": ([Cut(body, at=len(body) // 2)], API_TYPE)}) as (base, _):
        url = f"{base}/api/api/mobile/index.php?module=viewthread&tid=4242"
        line = refused(noon, "votes", "import", "g", url, says=f"连接在传输中断开（已收到 {len(body) // 2} 字节）")
        assert "无法连接" not in line


# ------------------------------------------------------------------------ deadlines


@pytest.fixture
def short_deadlines(monkeypatch):
    monkeypatch.setattr(read, "PAGE_SECONDS", 1.5, raising=False)
    monkeypatch.setattr(read, "THREAD_SECONDS", 60.0, raising=False)


@pytest.mark.parametrize("headers", [False, True], ids=["body", "headers"])
def test_a_server_that_drips_is_cut_off_at_the_page_deadline(tmp_path, noon, short_deadlines, headers):
    """A byte every 0.1 s never trips the 15 s read timeout; the page's deadline (1.5 s here)
    stops ``votes import``, ``activity`` and ``signup`` alike. Unbounded, the drip would take
    over a minute (and the command would then succeed)."""
    body = api_page("5")
    drip = Drip(body, every=0.1, chunk=max(1, len(body) // 600), headers=headers)
    with local_forum({"api": ([drip], API_TYPE)}) as (base, seen):
        url = f"{base}/api/api/mobile/index.php?module=viewthread&tid=4242"
        says = "1 秒内没有读完这一页（每页的总时限）"
        refused(noon, "votes", "import", "g", url, says=says)
        refused(noon, "activity", "g", url, says=says)
        code, out = run(["signup", url, "--ruleset", "m217"])
        assert code == 2 and says in out, out
    assert recorded(noon) == []


def test_a_thread_of_slow_pages_is_cut_off_at_the_thread_deadline(noon, monkeypatch):
    """Each page within its own deadline, the thread past its own: refused naming the pages read."""
    monkeypatch.setattr(read, "PAGE_SECONDS", 30.0, raising=False)
    monkeypatch.setattr(read, "THREAD_SECONDS", 3.0, raising=False)
    pages = render.discuz_api_pages(POSTS, TITLE, ppp=1)
    # the first page at once, every later one ~6 s (each within the page's 30 s): the thread's
    # 3 s pass during the second
    slow = [pages[0], *(Drip(p, every=0.1, chunk=max(1, len(p) // 60)) for p in pages[1:])]
    with local_forum({"api": (slow, API_TYPE)}) as (base, seen):
        url = f"{base}/api/api/mobile/index.php?module=viewthread&tid=4242"
        refused(noon, "votes", "import", "g", url, says="3 秒内没有读完整个帖子（每个帖子的总时限；已读 1 页）")
    assert len([p for p in seen if not p.endswith("(left)")]) == 2


# --------------------------------------------------------------------------- cookies


@pytest.mark.parametrize("text,says", [
    ("# Netscape HTTP Cookie File\n.127.0.0.1\tTRUE\t/\tFALSE\t0\tauth\n", "cookies.txt：第2行：cookies.txt 的一行应有 7 个"),
    ("# Netscape HTTP Cookie File\n127.0.0.1\tMAYBE\t/\tFALSE\t0\tauth\tok\n", "cookies.txt：第2行：子域 应为 TRUE 或 FALSE"),
    ("127.0.0.1\tFALSE\t/\tFALSE\tsoon\tauth\tok\n", "cookies.txt：第1行：过期时间 soon 不是整数"),
    ("auth=ok; 乱码\n", "cookies.txt：第1行：乱码 不是 名称=值"),
    ("\n# nothing\n", "cookies.txt：没有 cookie"),
    (b"auth=\xff\xfe\n", "cookies.txt"),
], ids=["fields", "flag", "expiry", "pair", "empty", "encoding"])
def test_a_malformed_cookie_file_is_refused_before_anything_is_fetched(tmp_path, noon, text, says):
    cookies = tmp_path / "cookies.txt"
    cookies.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    with local_forum({"api": ([api_page("5")], API_TYPE)}) as (base, seen):
        url = f"{base}/api/api/mobile/index.php?module=viewthread&tid=4242"
        refused(noon, "votes", "import", "g", url, "--cookies", cookies, says=says)
        refused(noon, "activity", "g", url, "--cookies", cookies, says=says)
    assert seen == []  # never an import without the cookies


def test_a_cookies_txt_is_sent_to_its_site(tmp_path, noon):
    cookies = tmp_path / "cookies.txt"
    cookies.write_text("# Netscape HTTP Cookie File\n#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t0\tauth\tok\n", encoding="utf-8")
    sent = []

    def login(name, request):
        sent.append(request.headers.get("Cookie") or "")
        return None if "auth=ok" in sent[-1] else 403

    with local_forum({"api": ([api_page("5")], API_TYPE)}, refuse=login) as (base, _):
        rows = imported(noon, f"{base}/api/api/mobile/index.php?module=viewthread&tid=4242", "--cookies", cookies)
    assert len(rows) == 4 and sent and all("auth=ok" in c for c in sent)


def test_cookies_with_a_file_source_is_refused_as_ignored(tmp_path, noon):
    saved = tmp_path / "thread.json"
    saved.write_bytes(api_page("5"))
    cookies = tmp_path / "cookies.txt"
    cookies.write_text("auth=ok\n", encoding="utf-8")
    says = "--cookies 只用于从网址读取帖子"
    refused(noon, "votes", "import", "g", saved, "--cookies", cookies, says=says)
    refused(noon, "activity", "g", saved, "--cookies", cookies, says=says)
    code, out = run(["signup", saved, "--ruleset", "m217", "--cookies", cookies])
    assert code == 2 and says in out, out


# ------------------------------------------------------------------ a page's stated charset


@pytest.mark.parametrize("charset", ["undefined", "utf-16", "UTF-32LE"])
def test_a_page_stating_a_charset_python_cannot_read_it_by_is_read_as_its_bytes_are(tmp_path, noon, charset):
    """``<meta charset="undefined">`` was Python's codec error in English (a traceback: its
    ``UnicodeError`` is not a ``UnicodeDecodeError``); a UTF-8 page saying UTF-16 read as
    UTF-16 found no post. A page whose ``charset=`` is legible as ASCII is ASCII-compatible,
    as browsers read it: both read as the UTF-8 page they are."""
    page = render.discuz_html_pages(POSTS, TITLE, per_page=10, charset="utf-8")[0].decode()
    said = re.sub(r"charset=([\"']?)utf-8", rf"charset=\g<1>{charset}", page, flags=re.I)
    assert said != page
    saved = tmp_path / "page.html"
    saved.write_text(said, encoding="utf-8")
    code, out = run(["votes", "import", "g", saved, "--dry-run", "--db", noon])
    assert code == 0, out
    assert not [w for w in LIBRARY_ENGLISH if w in out], out
    assert [ln.split()[1] for ln in out.splitlines() if re.match(r"\d+\s", ln)] == ["导演", "甲", "丙", "丁"], out
