"""Reading the thread where it lives (bansha-forum): the same vote thread served by a local HTTP
server as the Discuz! X mobile API (UTF-8 and GBK, paged), a Discuz! X page (GBK, paged) and
NGA's JSON, read by ``bansha votes import GAME URL`` in a real ``bansha`` process, records
exactly what the pasted thread records; a saved page and a saved API answer read from a file the
same; a thread that needs a login is read with a cookie file; a refused fetch is one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from bansha.engine.model import ResolveEvent
from bansha.store.store import Store
from bansha_forum.adapters.discuz_text import parse_thread
from forumserver import local_forum

from . import render

THREAD = Path(__file__).parents[1] / "loop" / "threads" / "m217-noon1.txt"
M217 = "子鼠,丑牛,寅虎,卯兔,辰龙,巳蛇,午马,未羊,申猴,酉鸡,戌狗,亥猪,春风,秋月"
TITLE = "[M217]新日暮里 第1日 投票帖"


def bansha(*args, db, stdin=None):
    exe = Path(sys.executable).parent / "bansha"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "bansha.cli.cli"]
    env = {**os.environ, "BANSHA_DB": str(db), "NO_PROXY": "127.0.0.1", "no_proxy": "127.0.0.1"}
    return subprocess.run([*cmd, *args], input=stdin, capture_output=True, text=True, env=env, timeout=120)


@pytest.fixture(scope="module")
def posts():
    return parse_thread(THREAD.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def site(posts):
    """A local forum: /utf8 and /gbk (Discuz! X mobile API), /page (Discuz! X pages, GBK),
    /nga (NGA JSON), /login (the API behind a login cookie). Records every request."""
    types = {"utf8": "application/json; charset=utf-8", "gbk": "application/json; charset=gbk",
             "login": "application/json", "page": "text/html; charset=gbk", "nga": "application/json"}
    pages = {
        "utf8": render.discuz_api_pages(posts, TITLE, ppp=5, charset="UTF-8"),
        "gbk": render.discuz_api_pages(posts, TITLE, ppp=7, charset="GBK"),
        "login": render.discuz_api_pages(posts, TITLE, ppp=10, charset="UTF-8"),
        "page": render.discuz_html_pages(posts, TITLE, per_page=6),
        "nga": render.nga_pages(posts, TITLE, per_page=20),
    }

    def login(name, request):
        if name == "login" and "auth=ok" not in (request.headers.get("Cookie") or ""):
            return 403
        return None

    with local_forum({k: (v, types[k]) for k, v in pages.items()}, refuse=login) as (base, seen):
        yield base, seen


_NOON: dict[str, bytes] = {}


def at_noon(db):
    """A 14-seat m217 game at noon 1 (opening, dusk 1, night 1 and dawn 1 resolved with
    nothing sent: the store's own resolve, not the command's guard), made once and copied."""
    if "db" not in _NOON:
        first = db.with_name("noon-template.db")
        r = bansha("new", "g", "--ruleset", "m217", "--players", M217, "--seed", "3", db=first)
        assert r.returncode == 0, r.stderr
        store = Store(first)
        for _ in range(4):
            store.append("g", lambda g: ResolveEvent(phase=g.label))
        assert store.load("g").label == "noon 1"
        store.close()
        _NOON["db"] = first.read_bytes()
    db.write_bytes(_NOON["db"])


def imported(db, source, *extra):
    r = bansha("votes", "import", "g", source, *extra, "--json", db=db)
    assert r.returncode == 0, r.stdout + r.stderr
    return json.loads(r.stdout)["posts"]


def votes(db):
    from bansha.engine.model import VoteEvent

    return [(e.voter, e.target, e.post, e.change, e.late, e.time)
            for e in Store(db).events("g") if isinstance(e, VoteEvent)]


def test_every_format_by_url_records_what_the_pasted_thread_records(tmp_path, site):
    base, seen = site
    pasted_db = tmp_path / "pasted.db"
    at_noon(pasted_db)
    pasted = imported(pasted_db, str(THREAD))
    want = votes(pasted_db)
    assert len(want) >= 10
    for name, url in [("utf8", f"{base}/utf8/api/mobile/index.php?version=4&module=viewthread&tid=4242"),
                      ("gbk", f"{base}/gbk/forum.php?mod=viewthread&tid=4242&extra=page%3D1"),
                      ("page", f"{base}/page/forum.php?mod=viewthread&tid=4242"),
                      ("nga", f"{base}/nga/read.php?tid=4242")]:
        db = tmp_path / f"{name}.db"
        at_noon(db)
        fmt = ("--forum", "discuz-html") if name == "page" else ()
        got = imported(db, url, *fmt)
        assert got == pasted, name
        assert votes(db) == want, name
    # every page was asked for, and each site's paging stopped at the thread's last floor
    asked = [p for p in seen if p.startswith("/gbk/")]
    assert len(asked) == 4 and all("module=viewthread" in p for p in asked)  # 23 floors at 7 a page
    assert [parse_qs(urlsplit(p).query)["page"] for p in seen if p.startswith("/page/")] == [["1"], ["2"], ["3"], ["4"], ["5"]]


def test_saved_files_and_stdin_read_the_same(tmp_path, posts, site):
    pasted_db = tmp_path / "pasted.db"
    at_noon(pasted_db)
    pasted = imported(pasted_db, str(THREAD), "--dry-run")
    saved_api = tmp_path / "thread.json"
    saved_api.write_bytes(render.discuz_api_pages(posts, TITLE, ppp=100, charset="GBK")[0])
    saved_page = tmp_path / "thread.html"
    saved_page.write_bytes(render.discuz_html_pages(posts, TITLE, per_page=100)[0])
    for source in (saved_api, saved_page):
        assert imported(pasted_db, str(source), "--dry-run") == pasted, source.name
    r = bansha("votes", "import", "g", "-", "--dry-run", "--json", db=pasted_db,
               stdin=render.nga_pages(posts, TITLE, per_page=100)[0].decode())
    assert json.loads(r.stdout)["posts"] == pasted


def test_a_thread_behind_a_login_needs_the_cookie_file(tmp_path, site):
    base, _ = site
    db = tmp_path / "g.db"
    at_noon(db)
    url = f"{base}/login/api/mobile/index.php?module=viewthread&tid=4242"
    r = bansha("votes", "import", "g", url, db=db)
    assert r.returncode == 2 and r.stdout == "" and len(r.stderr.strip().splitlines()) == 1
    assert "要求登录" in r.stderr and "--cookies" in r.stderr
    assert votes(db) == []
    cookies = tmp_path / "cookies.txt"
    cookies.write_text("auth=ok; lang=zh\n", encoding="utf-8")
    got = imported(db, url, "--cookies", str(cookies))
    assert sum(p["status"] == "record" for p in got) == len(votes(db)) > 0


@pytest.mark.parametrize("path, says", [
    ("/nosuch/read.php?tid=1", "HTTP 404"),
    ("/utf8/index.html", "不是已安装的论坛格式能读取的帖子地址"),
])
def test_a_refused_fetch_is_one_line_and_records_nothing(tmp_path, site, path, says):
    base, _ = site
    db = tmp_path / "g.db"
    at_noon(db)
    for json_flag in ((), ("--json",)):
        r = bansha("votes", "import", "g", base + path, *json_flag, db=db)
        assert r.returncode == 2, r.stdout + r.stderr
        out = (r.stdout + r.stderr).strip()
        assert len(out.splitlines()) == 1 and "Traceback" not in out
        if json_flag:
            assert says in json.loads(out)["error"]
        else:
            assert says in out
    assert votes(db) == []


def test_an_unknown_format_and_a_damaged_page_are_one_line(tmp_path):
    db = tmp_path / "g.db"
    at_noon(db)
    broken = tmp_path / "broken.json"
    broken.write_text('{"Variables": {"postlist": [', encoding="utf-8")
    r = bansha("votes", "import", "g", str(broken), "--forum", "discuz-api", db=db)
    assert r.returncode == 2 and "页面不完整" in r.stderr and "Traceback" not in r.stderr  # JSON cut short
    broken.write_text('{"Variables": {"postlist": [}}', encoding="utf-8")
    r = bansha("votes", "import", "g", str(broken), "--forum", "discuz-api", db=db)
    assert r.returncode == 2 and "不是有效的" in r.stderr and "第1行第29列" in r.stderr and "Expecting" not in r.stderr
    r = bansha("votes", "import", "g", str(THREAD), "--forum", "phpbb", db=db)
    assert r.returncode == 2 and "没有论坛格式 phpbb" in r.stderr and "discuz-api" in r.stderr


def test_a_vote_edited_after_the_deadline_is_flagged_until_accepted(tmp_path, posts):
    db = tmp_path / "g.db"
    at_noon(db)
    pasted = {p["floor"]: p for p in imported(db, str(THREAD), "--dry-run")}
    floor = next(f for f, p in pasted.items() if p["status"] == "record")
    page = tmp_path / "edited.json"
    page.write_bytes(render.discuz_api_pages(posts, TITLE, ppp=100, edited={floor: "2024-05-06 23:59:00"})[0])
    got = {p["floor"]: p for p in imported(db, str(page), "--dry-run")}
    assert got[floor]["status"] == "propose" and "截止后编辑过（05-06 23:59）" in got[floor]["reason"]
    assert all(got[f] == pasted[f] for f in pasted if f != floor)
    got = {p["floor"]: p for p in imported(db, str(page), "--accept", str(floor))}
    assert got[floor]["status"] == "record"
    assert floor in [v[2] for v in votes(db)]


SIGNUP = Path(__file__).parent / "threads" / "signup-m217.txt"


def test_signup_reads_the_players_in_floor_order_and_new_takes_the_roster(tmp_path, site):
    roster = tmp_path / "roster.txt"
    r = bansha("signup", str(SIGNUP), "--ruleset", "m217", "--out", str(roster), "--json", db=tmp_path / "x.db")
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    # 寅虎 withdrew, 丑牛's second post and 路人甲's 围观 count for nothing, 弃权 is the board's
    # abstention word; 14 seats, so the 15th player (ａｂｃ) and 冬雪 (替补) wait
    assert got["players"] == ["子鼠", "丑牛", "卯兔", "辰龙", "巳蛇", "午马", "未羊", "申猴", "酉鸡", "戌狗", "亥猪",
                              "春风", "秋月", "夏雨"]
    assert got["substitutes"] == ["ａｂｃ", "冬雪"]
    why = {s["name"]: s["why"] for s in got["not_taken"]}
    assert set(why) == {"丑牛", "弃权", "寅虎"} and why["寅虎"] == "已取消报名" and why["丑牛"] == "重复报名"
    assert "## 替补：ａｂｃ" in roster.read_text(encoding="utf-8")
    r = bansha("new", "g", "--ruleset", "m217", "--players", str(roster), "--seed", "1", db=tmp_path / "g.db")
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""  # the roster's own substitutes' lines are no comment to warn about (issue 31)
    assert [p.name for p in sorted(Store(tmp_path / "g.db").load("g").players.values(), key=lambda p: p.seat)] == got["players"]
    text = bansha("signup", str(SIGNUP), "--ruleset", "m217", "--format", "bbcode", db=tmp_path / "x.db").stdout
    assert "[b]座位表[/b]" in text and "1号 子鼠" in text and "14号 夏雨" in text and "替补：ａｂｃ、冬雪" in text


def test_activity_counts_posts_and_characters_and_lists_who_to_prod(tmp_path, posts):
    db = tmp_path / "g.db"
    at_noon(db)
    r = bansha("activity", "g", str(THREAD), "--json", db=db)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    by = {p["player"]: p for p in got["players"]}
    for name in by:  # every post of a player after the 楼主, its own text without quotes or blanks
        own = [p for p in posts if p.author == name and p.floor > 1]
        assert by[name]["posts"] == len(own)
        assert by[name]["chars"] == sum(len("".join(x.split())) for p in own for x in p.lines)
    assert got["prod"] == [n for n in by if by[n]["posts"] == 0]
    assert got["since"] == "2024-05-06 09:00" and got["phase"] == "第1天 正午"
    text = bansha("activity", "g", str(THREAD), "--format", "bbcode", db=db).stdout
    assert text.startswith("[b]第1天 正午 发帖统计") and "[table]" in text and "催帖" in text
    r = bansha("activity", "g", str(THREAD), "--format", "html", db=db)
    assert r.returncode == 2 and "--format html" in r.stderr
