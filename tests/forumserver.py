"""A local forum for the tests (no network): an HTTP server on 127.0.0.1 that serves pages
written in a forum's format, paged as the forum pages them — and, for the reading loop's
limits, pages that misbehave as real servers do: one dripped a few bytes every few moments
(``Drip``: its body, or its headers too) and one whose connection drops mid-answer (``Cut``)."""

from __future__ import annotations

import http.server
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit


@dataclass
class Drip:
    """A page sent ``chunk`` bytes at a time, ``every`` seconds apart: a slow server that never
    waits long enough for a read's timeout. ``headers``: the status line and headers too."""

    body: bytes
    every: float = 0.2
    chunk: int = 1
    headers: bool = False


@dataclass
class Cut:
    """A page that declares its whole length, sends its first ``at`` bytes and closes the
    connection: a connection dropped mid-answer."""

    body: bytes
    at: int


@contextmanager
def local_forum(routes: dict[str, tuple[list[bytes], str]],
                refuse: Callable[[str, http.server.BaseHTTPRequestHandler], int | None] | None = None,
                ) -> Iterator[tuple[str, list[str]]]:
    """Serve ``GET /NAME/…?page=N`` from ``routes[NAME]`` (its pages and content type; a page
    past the last answers the last, as Discuz! does); any other path is a 404. ``refuse(name,
    request)`` may answer a status instead (a board behind a login). A page may be ``bytes``, a
    ``Drip`` or a ``Cut``. Yields the base URL and the paths asked, in order; a path whose
    answer the client stopped reading before its end is listed again with ``" (left)"``."""
    seen: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server's name)
            seen.append(self.path)
            parts = urlsplit(self.path)
            name = parts.path.strip("/").split("/")[0]
            if name not in routes:
                self.send_error(404)
                return
            status = refuse(name, self) if refuse else None
            if status:
                self.send_error(status)
                return
            pages, content_type = routes[name]
            n = int(parse_qs(parts.query).get("page", ["1"])[0])
            page = pages[max(1, min(n, len(pages))) - 1]
            body = page if isinstance(page, bytes) else page.body
            head = (f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
                    "Connection: close\r\n\r\n").encode()
            try:
                if isinstance(page, Drip):
                    data = head + body if page.headers else body
                    if not page.headers:
                        self.wfile.write(head)
                    for at in range(0, len(data), page.chunk):
                        self.wfile.write(data[at:at + page.chunk])
                        self.wfile.flush()
                        time.sleep(page.every)
                elif isinstance(page, Cut):
                    self.wfile.write(head + body[:page.at])
                    self.wfile.flush()
                    self.close_connection = True
                else:
                    self.wfile.write(head + body)
            except OSError:  # the client hung up before the end
                seen.append(self.path + " (left)")

        def log_message(self, *a):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", seen
    finally:
        server.shutdown()
        server.server_close()


# ---------------------------------------------------------------- a Discuz! X stand-in

class DiscuzStandIn:
    """A Discuz! X site's mobile API (``api/mobile/index.php?version=…&module=…``) on 127.0.0.1,
    as source/plugin/mobile/api/<version>/ answers it: every answer ``{"Version", "Charset",
    "Variables": {cookiepre, auth, saltkey, member_uid, member_username, formhash, …}}``, an
    error or a success as ``"Message": {"messageval", "messagestr"}``.

    Modules: ``login`` (``loginsubmit``, ``username``, ``password``: sets ``<pre>auth`` and
    ``<pre>saltkey``); ``viewthread`` (``tid``, ``page``, ``ppp``: ``thread`` with its ``fid``, and ``postlist``);
    ``sendreply`` (POST ``tid``, ``message``, ``formhash``, ``replysubmit``: ``Variables.pid``,
    ``post_reply_succeed``); ``newthread`` (``fid`` in the query, POST ``subject``, ``message``,
    ``formhash``, ``topicsubmit``: ``Variables.tid``, ``post_newthread_succeed``; the reply's
    flood control); ``forumdisplay`` (``fid``, ``page``: ``forum_threadlist``, newest first,
    ``tpp`` = ``ppp``); ``sendpm`` (its parameters read from the query, as the module's
    ``$_POST = $_GET``, by POST: ``touid``, ``message``, ``formhash``, ``pmsubmit``:
    ``Variables.pmid``, ``do_success``); ``mypm`` (the member's conversations; ``subop=view&touid``
    one conversation, ``page`` by ``perpage``; version 1 lists ``dateline``, version 4
    ``vdateline``). A write needs a logged-in cookie and the session's ``formhash``
    (``submit_invalid``), and waits ``flood`` seconds after the member's last of its kind
    (``post_flood_ctrl``, ``message_can_not_send_2``). ``charset`` ``UTF-8`` or ``GBK``: what
    the site sends and how it reads a request's bytes.

    ``hook(n, module, when)`` is called with each request's number (1, 2, …) and module as it
    arrives (``"before"``: a write not yet taken), and for a write again after it is stored,
    before the answer (``"after"``): a test kills its client there. A hook that returns True
    drops the request unanswered."""

    PRE = "cdb_"

    def __init__(self, charset: str = "UTF-8", flood: float = 0.0, ppp: int = 10, perpage: int = 10):
        import time

        self.charset = charset
        self.flood = flood
        self.ppp = ppp
        self.perpage = perpage
        self.users: dict[int, tuple[str, str]] = {}      # uid -> (username, password)
        self.sessions: dict[str, int] = {}               # auth cookie -> uid
        self.threads: dict[int, dict] = {}               # tid -> {subject, authorid, posts: [...]}
        self.pms: list[dict] = []                        # every PM: pmid, msgfromid, msgtoid, message, dateline
        self.last_write: dict[tuple[int, str], float] = {}
        self.writes = 0
        self.count = 0                                   # requests so far
        self.hook: Callable[[int, str, str], bool | None] | None = None
        self.requests: list[tuple[str, str]] = []        # (method, module)
        self.clock = time.time
        self._lock = threading.RLock()
        self._next_pid = 1000
        self._next_pmid = 5000

    # the site's content, as a test sets it up
    def add_user(self, uid: int, name: str, password: str = "pw") -> None:
        self.users[uid] = (name, password)

    def login_cookie(self, uid: int) -> str:
        """A browser's cookie line for ``uid`` (what a director saves as the cookies file)."""
        auth = f"auth{uid}x{len(self.sessions)}"
        self.sessions[auth] = uid
        return f"{self.PRE}saltkey=salt{uid}; {self.PRE}auth={auth}"

    def new_thread(self, tid: int, uid: int, subject: str, message: str, when: float | None = None, fid: int = 2) -> None:
        self.threads[tid] = {"subject": subject, "authorid": uid, "fid": fid, "posts": []}
        self.reply(tid, uid, message, when)

    def reply(self, tid: int, uid: int, message: str, when: float | None = None) -> int:
        with self._lock:
            self._next_pid += 1
            self.threads[tid]["posts"].append({"pid": self._next_pid, "authorid": uid, "message": message,
                                               "dbdateline": int(when if when is not None else self.clock())})
            return self._next_pid

    def pm(self, from_uid: int, to_uid: int, message: str, when: float | None = None) -> int:
        with self._lock:
            self._next_pmid += 1
            self.pms.append({"pmid": self._next_pmid, "msgfromid": from_uid, "msgtoid": to_uid, "message": message,
                             "dateline": int(when if when is not None else self.clock())})
            return self._next_pmid

    def formhash(self, uid: int) -> str:
        import hashlib

        return hashlib.sha1(f"fh{uid}".encode()).hexdigest()[:8]

    # ------------------------------------------------------------------ the HTTP side

    def _uid(self, handler) -> int:
        from http.cookies import SimpleCookie

        jar = SimpleCookie()
        try:
            jar.load(handler.headers.get("Cookie", ""))
        except Exception:
            return 0
        m = jar.get(self.PRE + "auth")
        return self.sessions.get(m.value, 0) if m else 0

    def _answer(self, handler, version: str, uid: int, variables: dict, message: tuple[str, str] | None = None,
                cookies: list[str] = ()) -> None:
        import json

        name = self.users.get(uid, ("", ""))[0]
        body = {"Version": version, "Charset": self.charset.upper(),
                "Variables": {"cookiepre": self.PRE, "auth": None, "saltkey": f"salt{uid}", "member_uid": str(uid),
                              "member_username": name, "member_avatar": "", "groupid": "10" if uid else "7",
                              "formhash": self.formhash(uid), "ismoderator": None, "readaccess": "10" if uid else "1",
                              "notice": {"newpush": "0", "newpm": "0", "newprompt": "0", "newmypost": "0"}, **variables}}
        if message:
            body["Message"] = {"messageval": message[0], "messagestr": message[1]}
        data = json.dumps(body, ensure_ascii=False).encode("gbk" if self.charset.upper() == "GBK" else "utf-8")
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        for c in cookies:
            handler.send_header("Set-Cookie", c)
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)

    def _params(self, raw: bytes | str) -> dict[str, str]:
        from urllib.parse import parse_qsl

        enc = "gbk" if self.charset.upper() == "GBK" else "utf-8"
        if isinstance(raw, str):
            raw = raw.encode("latin-1", "ignore")
        # PHP reads the bytes as they come; the site then takes them as its own charset
        return {k.encode("latin-1").decode(enc, "replace"): v.encode("latin-1").decode(enc, "replace")
                for k, v in parse_qsl(raw.decode("latin-1"), keep_blank_values=True, encoding="latin-1")}

    def handle(self, handler, method: str) -> None:
        parts = urlsplit(handler.path)
        if not parts.path.endswith("/api/mobile/index.php"):
            handler.send_error(404)
            return
        query = self._params(parts.query)
        body = {}
        if method == "POST":
            n = int(handler.headers.get("Content-Length") or 0)
            body = self._params(handler.rfile.read(n))
        version = query.get("version", "4")
        module = query.get("module", "")
        self.requests.append((method, module))
        with self._lock:
            self.count += 1
            self._module = module
            if self.hook is not None and self.hook(self.count, module, "before"):
                handler.close_connection = True
                return
            uid = self._uid(handler)
            try:
                getattr(self, "m_" + module, self.m_unknown)(handler, version, uid, query, body, method)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client was killed while the forum answered: the forum keeps what it took

    def snapshot(self) -> dict:
        import copy

        return copy.deepcopy({k: getattr(self, k) for k in ("users", "sessions", "threads", "pms", "last_write", "writes",
                                                             "count", "_next_pid", "_next_pmid")})

    def restore(self, snap: dict) -> None:
        import copy

        for k, v in copy.deepcopy(snap).items():
            setattr(self, k, v)
        self.requests = []

    def m_unknown(self, handler, version, uid, query, body, method):
        self._answer(handler, version, uid, {}, ("undefined_action", "未定义操作"))

    def m_login(self, handler, version, uid, query, body, method):
        if method == "POST" and query.get("loginsubmit") == "yes":
            for u, (name, pw) in self.users.items():
                if name == body.get("username") and pw == body.get("password"):
                    cookie = self.login_cookie(u)
                    auth = cookie.split(f"{self.PRE}auth=")[1]
                    self._answer(handler, version, u, {"auth": auth},
                                 ("login_succeed", f"欢迎您回来，{name}，现在将转入登录前页面"),
                                 cookies=[f"{self.PRE}auth={auth}; path=/", f"{self.PRE}saltkey=salt{u}; path=/"])
                    return
            self._answer(handler, version, 0, {}, ("login_invalid", "登录失败，您还可以尝试 4 次"))
            return
        self._answer(handler, version, uid, {})

    def m_viewthread(self, handler, version, uid, query, body, method):
        t = self.threads.get(int(query.get("tid", "0") or 0))
        if t is None:
            self._answer(handler, version, uid, {}, ("thread_nonexistence", "抱歉，指定的主题不存在或已被删除或正在被审核"))
            return
        ppp = int(query.get("ppp") or self.ppp)
        page = max(1, int(query.get("page") or 1))
        posts = t["posts"]
        last = max(1, -(-len(posts) // ppp))
        page = min(page, last)
        rows = []
        for i, p in enumerate(posts[(page - 1) * ppp: page * ppp], start=(page - 1) * ppp + 1):
            rows.append({"pid": str(p["pid"]), "tid": query.get("tid"), "first": "1" if i == 1 else "0", "author": self.users[p["authorid"]][0],
                         "authorid": str(p["authorid"]), "dateline": self._shown(p["dbdateline"]), "message": self._html(p["message"]),
                         "number": str(i), "position": str(i), "dbdateline": str(p["dbdateline"])})
        self._answer(handler, version, uid, {"thread": {"tid": query.get("tid"), "fid": str(t.get("fid", 2)), "subject": t["subject"], "authorid": str(t["authorid"]),
                                                        "replies": str(len(posts) - 1), "ppp": str(ppp)}, "postlist": rows})

    @staticmethod
    def _html(message: str) -> str:
        """A message as Discuz! shows it: escaped, line breaks as <br />, a [quote] as its
        quote block."""
        import html as h
        import re

        out = h.escape(message, quote=False)
        out = re.sub(r"\[quote\](.*?)\[/quote\]\n?", lambda m: '<div class="quote"><blockquote>' + m.group(1) + "</blockquote></div>",
                     out, flags=re.S)
        return out.replace("\n", "<br />\r\n")

    @staticmethod
    def _shown(stamp: int) -> str:
        import datetime as dt

        t = dt.datetime.fromtimestamp(stamp, dt.timezone(dt.timedelta(hours=8)))
        return f"{t.year}-{t.month}-{t.day} {t:%H:%M}"

    def _write_check(self, handler, version, uid, form, kind: str) -> bool:
        if not uid:
            self._answer(handler, version, 0, {}, ("to_login//1", "您需要先登录才能继续本操作"))
            return False
        if form.get("formhash") != self.formhash(uid):
            self._answer(handler, version, uid, {}, ("submit_invalid", "抱歉，您的请求来路不正确或表单验证串不符，无法提交"))
            return False
        last = self.last_write.get((uid, kind))
        if self.flood and last is not None and self.clock() - last < self.flood:
            if kind == "reply":
                self._answer(handler, version, uid, {}, ("post_flood_ctrl", f"抱歉，您两次发表间隔少于 {self.flood:g} 秒，请稍候再发表"))
            else:
                self._answer(handler, version, uid, {}, ("message_can_not_send_2", "两次发送短消息太快，请稍候再发送"))
            return False
        return True

    def _hook(self, when: str) -> None:
        if self.hook is not None and when == "after":
            self.hook(self.count, self._module, when)

    def m_sendreply(self, handler, version, uid, query, body, method):
        form = {**query, **body}
        if method != "POST" or "replysubmit" not in form:
            self._answer(handler, version, uid, {})
            return
        if not self._write_check(handler, version, uid, form, "reply"):
            return
        tid = int(form.get("tid") or 0)
        if tid not in self.threads:
            self._answer(handler, version, uid, {}, ("thread_nonexistence", "抱歉，指定的主题不存在或已被删除或正在被审核"))
            return
        if not form.get("message", "").strip():
            self._answer(handler, version, uid, {}, ("post_sm_isnull", "抱歉，您尚未输入标题或内容"))
            return
        self.writes += 1
        pid = self.reply(tid, uid, form["message"])
        self.last_write[(uid, "reply")] = self.clock()
        self._hook("after")
        self._answer(handler, version, uid, {"tid": str(tid), "pid": str(pid)},
                     ("post_reply_succeed", "非常感谢，回复发布成功，现在将转入主题页，请稍候……"))

    def m_newthread(self, handler, version, uid, query, body, method):
        form = {**query, **body}
        if method != "POST" or "topicsubmit" not in form:
            self._answer(handler, version, uid, {})
            return
        if not self._write_check(handler, version, uid, form, "reply"):
            return
        fid = int(form.get("fid") or 0)
        if fid not in {t.get("fid", 2) for t in self.threads.values()}:
            self._answer(handler, version, uid, {}, ("forum_nonexistence", "抱歉，指定的版块不存在"))
            return
        if not form.get("subject", "").strip() or not form.get("message", "").strip():
            self._answer(handler, version, uid, {}, ("post_sm_isnull", "抱歉，您尚未输入标题或内容"))
            return
        self.writes += 1
        with self._lock:
            tid = max(self.threads, default=0) + 1
            self.new_thread(tid, uid, form["subject"], form["message"], fid=fid)
        self.last_write[(uid, "reply")] = self.clock()
        self._hook("after")
        self._answer(handler, version, uid, {"tid": str(tid), "pid": str(self.threads[tid]["posts"][0]["pid"])},
                     ("post_newthread_succeed", "非常感谢，您的主题已发布，现在将转入主题页，请稍候……"))

    def m_forumdisplay(self, handler, version, uid, query, body, method):
        fid = int(query.get("fid") or 0)
        mine = sorted((tid for tid, t in self.threads.items() if t.get("fid", 2) == fid), reverse=True)
        if not mine:
            self._answer(handler, version, uid, {}, ("forum_nonexistence", "抱歉，指定的版块不存在"))
            return
        tpp = self.ppp
        page = max(1, int(query.get("page") or 1))
        rows = [{"tid": str(tid), "author": self.users[self.threads[tid]["authorid"]][0],
                 "authorid": str(self.threads[tid]["authorid"]), "subject": self.threads[tid]["subject"],
                 "replies": str(len(self.threads[tid]["posts"]) - 1)} for tid in mine[(page - 1) * tpp: page * tpp]]
        self._answer(handler, version, uid, {"forum": {"fid": str(fid), "threads": str(len(mine))}, "tpp": str(tpp),
                                             "forum_threadlist": rows})

    def m_sendpm(self, handler, version, uid, query, body, method):
        form = query  # the module's $_POST = $_GET: what counts is the query
        if method != "POST" or "pmsubmit" not in form:
            self._answer(handler, version, uid, {"pmid": None})
            return
        if not self._write_check(handler, version, uid, form, "pm"):
            return
        to = int(form.get("touid") or 0)
        if to not in self.users:
            self._answer(handler, version, uid, {}, ("message_bad_touid", "抱歉，用户不存在或被冻结，请检查用户名是否正确"))
            return
        if to == uid:
            self._answer(handler, version, uid, {}, ("message_can_not_send_to_self", "不能给自己发送短消息"))
            return
        if not form.get("message", "").strip():
            self._answer(handler, version, uid, {}, ("unable_to_send_air_news", "抱歉，不能发送空消息"))
            return
        self.writes += 1
        pmid = self.pm(uid, to, form["message"])
        self.last_write[(uid, "pm")] = self.clock()
        self._hook("after")
        self._answer(handler, version, uid, {"pmid": str(pmid)}, ("do_success", "操作成功 "))

    def m_mypm(self, handler, version, uid, query, body, method):
        if not uid:
            self._answer(handler, version, 0, {}, ("to_login//1", "您需要先登录才能继续本操作"))
            return
        mine = [p for p in self.pms if uid in (p["msgfromid"], p["msgtoid"])]
        page = max(1, int(query.get("page") or 1))
        if query.get("subop") == "view":
            other = int(query.get("touid") or 0)
            talk = [p for p in mine if other in (p["msgfromid"], p["msgtoid"]) and p["msgfromid"] != p["msgtoid"]]
            rows = talk[(page - 1) * self.perpage: page * self.perpage]
            items = [self._pm_row(version, p, uid) for p in rows]
            self._answer(handler, version, uid, {"list": {str(i): r for i, r in enumerate(items)}, "count": str(len(talk)),
                                                 "perpage": str(self.perpage), "page": str(page),
                                                 "pmid": str(rows[-1]["pmid"]) if rows else "0"})
            return
        last: dict[int, dict] = {}
        for p in mine:
            other = p["msgtoid"] if p["msgfromid"] == uid else p["msgfromid"]
            last[other] = p
        convs = sorted(last.items(), key=lambda kv: -kv[1]["dateline"])
        rows = convs[(page - 1) * self.perpage: page * self.perpage]
        items = {}
        for i, (other, p) in enumerate(rows):
            r = self._pm_row(version, p, uid)
            r.update({"plid": str(other + 90000), "touid": str(other), "tousername": self.users[other][0],
                      "isnew": "1" if p["msgfromid"] != uid else "0", "subject": ""})
            items[str(i)] = r
        self._answer(handler, version, uid, {"list": items, "count": str(len(convs)), "perpage": str(self.perpage), "page": str(page)})

    def _pm_row(self, version, p, uid):
        r = {"pmid": str(p["pmid"]), "msgfromid": str(p["msgfromid"]), "msgfrom": self.users[p["msgfromid"]][0],
             "msgtoid": str(p["msgtoid"]), "message": self._html(p["message"])}
        if version == "1":
            r["dateline"] = str(p["dateline"])
        else:
            r["vdateline"] = self._shown(p["dateline"])
        return r


@contextmanager
def discuz_site(site: DiscuzStandIn) -> Iterator[str]:
    """Serve ``site`` on 127.0.0.1; yields the forum's base address (``http://127.0.0.1:N/bbs/``)."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            site.handle(self, "GET")

        def do_POST(self):  # noqa: N802
            site.handle(self, "POST")

        def log_message(self, *a):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/bbs/"
    finally:
        server.shutdown()
        server.server_close()
