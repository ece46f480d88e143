"""A Discuz! X site's mobile API as bansha's door uses it (source/plugin/mobile/api/<version>/ of
Discuz! X): every answer is JSON ``{"Version", "Charset", "Variables": {…, "member_uid",
"formhash"}}``, a refusal or a success ``"Message": {"messageval", "messagestr"}``.

- who am I: ``module=login`` (no submit): ``member_uid``, ``member_username``, ``formhash``, and
  ``Charset`` (how the site reads what is sent: a GBK site gets GBK bytes);
- a reply: ``module=sendreply`` POST ``tid``, ``message``, ``formhash``, ``replysubmit=yes`` →
  ``Variables.pid`` and ``post_reply_succeed``;
- a PM: ``module=sendpm`` (its module reads ``$_POST = $_GET``: the fields go in the query, by
  POST) ``touid``, ``message``, ``formhash``, ``pmsubmit=yes`` → ``Variables.pmid``, ``do_success``;
- a thread: ``module=viewthread`` ``tid``, ``page``, ``ppp`` → ``postlist`` (``pid``,
  ``authorid``, ``message``, ``dbdateline``);
- PMs: ``module=mypm`` (version 1, which lists ``dateline`` as Unix time) → the conversations
  (``touid``), and with ``subop=view&touid=UID`` one conversation (``pmid``, ``msgfromid``,
  ``message``, ``dateline``), ``page`` by ``perpage``.

Credentials: the cookies file is read here, sent only to the site, and never printed, logged or
stored; an error names the site and the module, never a cookie or the ``formhash``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import urlencode, urljoin

from bansha.engine.model import GameError
from bansha.text.messages import extend, say

API = "api/mobile/index.php"
TIMEOUT = 20.0
MAX_PAGES = 500

extend({
    "dz_connect": ("{site}：无法连接论坛（{module}）", "{site}: cannot reach the forum ({module})"),
    "dz_timeout": ("{site}：论坛 {seconds} 秒没有回应（{module}）", "{site}: no answer in {seconds} s ({module})"),
    "dz_status": ("{site}：论坛回答 HTTP {status}（{module}）", "{site}: the forum answered HTTP {status} ({module})"),
    "dz_not_json": ("{site}：论坛的回答不是 Discuz! X 移动端接口的 JSON（{module}）；地址是否是论坛的根地址？",
                    "{site}: the answer is not Discuz! X mobile API JSON ({module}); is the address the forum's base?"),
    "dz_not_logged_in": ("{site}：cookie 文件没有登录论坛（member_uid 为 0）；请重新导出登录后的 cookie",
                         "{site}: the cookie file is not logged in (member_uid 0); export a logged-in cookie again"),
    "dz_refused": ("论坛拒绝了（{module}）：{text}（{code}）", "the forum refused ({module}): {text} ({code})"),
    "dz_charset": ("消息里有论坛的编码 {charset} 写不出的字符：{chars}", "the message holds characters the forum's {charset} cannot write: {chars}"),
})


class ForumRefused(GameError):
    """The forum answered a write with a Message other than success: ``code`` its
    ``messageval``, ``text`` its ``messagestr``."""

    def __init__(self, module: str, code: str, text: str, lang=None):
        self.module, self.code, self.text = module, code, text
        super().__init__(say("dz_refused", lang, module=module, text=text.strip(), code=code))

    @property
    def flood(self) -> bool:
        """The forum's flood control (a reply or PM too soon after the last): wait and retry."""
        return self.code in ("post_flood_ctrl", "message_can_not_send_2")


@dataclass
class Me:
    uid: str
    username: str
    formhash: str
    charset: str


def charset_codec(charset: str) -> str:
    return "gbk" if charset.upper() in ("GBK", "GB2312") else "utf-8"


def check_encodable(text: str, charset: str, lang=None) -> None:
    """Refuse a message the site's charset cannot write (a GBK site and an emoji), before
    anything is sent, naming the characters."""
    codec = charset_codec(charset)
    bad = []
    for ch in text:
        try:
            ch.encode(codec)
        except UnicodeEncodeError:
            if ch not in bad:
                bad.append(ch)
    if bad:
        raise GameError(say("dz_charset", lang, charset=charset.upper(), chars="".join(bad[:10])))


class Discuz:
    """One director's session on one Discuz! X site: ``site`` the forum's base address
    (``https://bbs.example.com/``), ``cookies`` a cookies file (cookies.txt or one
    ``name=value; …`` line, read by the forum layer's one reader)."""

    def __init__(self, site: str, cookies: str | None, lang=None, client=None):
        import httpx

        from ..read import _cookie_jar

        self.site = site if site.endswith("/") else site + "/"
        self.lang = lang
        self.api = urljoin(self.site, API)
        jar = _cookie_jar(cookies, lang)
        self.http = client or httpx.Client(timeout=TIMEOUT, follow_redirects=True, cookies=jar,
                                           headers={"User-Agent": "bansha-forum/0.1 (+forum push/pull)"})
        self.me: Me | None = None

    def close(self) -> None:
        self.http.close()

    # ------------------------------------------------------------------ one request

    def _call(self, module: str, query: dict, form: dict | None = None, version: str = "4") -> dict:
        import httpx

        codec = charset_codec(self.me.charset) if self.me else "utf-8"
        q = urlencode({"version": version, "module": module, **query}, encoding=codec)
        url = f"{self.api}?{q}"
        try:
            if form is None:
                r = self.http.get(url)
            else:
                r = self.http.post(url, content=urlencode(form, encoding=codec).encode("ascii"),
                                   headers={"Content-Type": "application/x-www-form-urlencoded"})
        except httpx.TimeoutException:
            raise GameError(say("dz_timeout", self.lang, site=self.site, seconds=int(TIMEOUT), module=module)) from None
        except httpx.HTTPError:
            raise GameError(say("dz_connect", self.lang, site=self.site, module=module)) from None
        if r.status_code != 200:
            raise GameError(say("dz_status", self.lang, site=self.site, status=r.status_code, module=module))
        from ..read import decode

        try:
            data = json.loads(decode(r.content, r.charset_encoding, self.site, self.lang))
        except (ValueError, GameError):
            raise GameError(say("dz_not_json", self.lang, site=self.site, module=module)) from None
        if not isinstance(data, dict) or not isinstance(data.get("Variables"), dict):
            raise GameError(say("dz_not_json", self.lang, site=self.site, module=module))
        return data

    @staticmethod
    def _message(data: dict) -> tuple[str, str]:
        m = data.get("Message") or {}
        if not isinstance(m, dict):
            return "", ""
        return str(m.get("messageval") or ""), str(m.get("messagestr") or "")

    # ------------------------------------------------------------------ who

    def login(self) -> Me:
        """Who the cookies are: the member's uid, name, the ``formhash`` and the site's charset;
        refused when the cookies are no login."""
        data = self._call("login", {})
        var = data["Variables"]
        uid = str(var.get("member_uid") or "0")
        if uid in ("", "0"):
            raise GameError(say("dz_not_logged_in", self.lang, site=self.site))
        self.me = Me(uid=uid, username=str(var.get("member_username") or ""), formhash=str(var.get("formhash") or ""),
                     charset=str(data.get("Charset") or "UTF-8"))
        return self.me

    def _ensure(self) -> Me:
        return self.me or self.login()

    def _write(self, module: str, data: dict, ok: tuple[str, ...], key: str) -> str:
        code, text = self._message(data)
        var = data["Variables"]
        if code.startswith("to_login"):
            raise GameError(say("dz_not_logged_in", self.lang, site=self.site))
        if code not in ok or not str(var.get(key) or "").strip("0"):
            raise ForumRefused(module, code or "?", text or "—", self.lang)
        if var.get("formhash"):
            self.me.formhash = str(var["formhash"])
        return str(var[key])

    def password_login(self, username: str, password: str) -> tuple[Me, dict[str, str]]:
        """The API's own login (``module=login``, ``loginsubmit=yes``, ``username``,
        ``password``, the page's ``formhash``): who it logged in and the session's cookies, for
        the director to keep in a cookies file. The password goes to the site in this one
        request and nowhere else."""
        first = self._call("login", {})
        form = {"username": username, "password": password, "formhash": str(first["Variables"].get("formhash") or ""),
                "loginfield": "username", "questionid": "0", "answer": ""}
        charset = str(first.get("Charset") or "UTF-8")
        self.me = Me(uid="0", username="", formhash=form["formhash"], charset=charset)
        data = self._call("login", {"loginsubmit": "yes"}, form=form)
        code, text = self._message(data)
        if code != "login_succeed":
            self.me = None
            raise ForumRefused("login", code or "?", text or "—", self.lang)
        self.me = None
        me = self.login()
        return me, {c.name: c.value for c in self.http.cookies.jar}

    # ------------------------------------------------------------------ writes

    def send_reply(self, tid: str, message: str) -> str:
        """Post ``message`` as a reply in thread ``tid``: the new post's pid."""
        me = self._ensure()
        check_encodable(message, me.charset, self.lang)
        data = self._call("sendreply", {"tid": tid, "replysubmit": "yes"},
                          form={"tid": tid, "message": message, "formhash": me.formhash, "replysubmit": "yes"})
        return self._write("sendreply", data, ("post_reply_succeed",), "pid")

    def send_thread(self, fid: str, subject: str, message: str) -> str:
        """Open a thread in forum ``fid`` (``newthread``: ``subject``, ``message``, ``formhash``,
        ``topicsubmit``): the new thread's tid."""
        me = self._ensure()
        check_encodable(subject + message, me.charset, self.lang)
        data = self._call("newthread", {"fid": fid, "topicsubmit": "yes"},
                          form={"subject": subject, "message": message, "formhash": me.formhash, "topicsubmit": "yes"})
        return self._write("newthread", data, ("post_newthread_succeed",), "tid")

    def send_pm(self, touid: str, message: str) -> str:
        """Send ``message`` to member ``touid``: the PM's pmid."""
        me = self._ensure()
        check_encodable(message, me.charset, self.lang)
        fields = {"touid": touid, "message": message, "formhash": me.formhash, "pmsubmit": "yes"}
        data = self._call("sendpm", fields, form=fields)
        return self._write("sendpm", data, ("do_success",), "pmid")

    # ------------------------------------------------------------------ reads

    def thread(self, tid: str, ppp: int = 50) -> list[dict]:
        """Every post of thread ``tid``, in floor order: pid, authorid, author, message (HTML),
        dbdateline."""
        self._ensure()
        out: dict[str, dict] = {}
        for page in range(1, MAX_PAGES + 1):
            data = self._call("viewthread", {"tid": tid, "page": str(page), "ppp": str(ppp)})
            code, text = self._message(data)
            if code:  # viewthread answers a Message only to refuse (no such thread, no access)
                raise ForumRefused("viewthread", code, text, self.lang)
            rows = data["Variables"].get("postlist") or []
            new = [r for r in rows if isinstance(r, dict) and str(r.get("pid")) not in out]
            for r in new:
                out[str(r.get("pid"))] = r
            total = str((data["Variables"].get("thread") or {}).get("replies") or "")
            if not new or (total.isdigit() and len(out) >= int(total) + 1):
                break
        return list(out.values())

    def first_post(self, tid: str) -> dict | None:
        """Thread ``tid``'s 1楼 (pid, authorid, author, message), in one request: where a new
        thread's token is, and what says the thread is there and readable."""
        self._ensure()
        data = self._call("viewthread", {"tid": tid, "page": "1", "ppp": "1"})
        code, text = self._message(data)
        if code:
            raise ForumRefused("viewthread", code, text, self.lang)
        rows = [r for r in data["Variables"].get("postlist") or [] if isinstance(r, dict)]
        return rows[0] if rows else None

    def forum_of(self, tid: str) -> str:
        """The fid of the forum thread ``tid`` is in (``viewthread``'s ``thread.fid``)."""
        self._ensure()
        data = self._call("viewthread", {"tid": tid, "page": "1", "ppp": "1"})
        code, text = self._message(data)
        if code:
            raise ForumRefused("viewthread", code, text, self.lang)
        return str((data["Variables"].get("thread") or {}).get("fid") or "")

    def threads(self, fid: str, pages: int = 3) -> list[dict]:
        """The newest threads of forum ``fid`` (``forumdisplay``'s ``forum_threadlist``: tid,
        authorid, subject), its first ``pages`` pages."""
        return self.thread_list(fid, pages)[0]

    def thread_list(self, fid: str, pages: int) -> tuple[list[dict], bool]:
        """``threads`` and whether the list ended within those pages (a page past the last
        is empty, or Discuz! X's last page again: nothing new on it)."""
        self._ensure()
        out: dict[str, dict] = {}
        for page in range(1, pages + 1):
            data = self._call("forumdisplay", {"fid": fid, "page": str(page)})
            code, text = self._message(data)
            if code:
                raise ForumRefused("forumdisplay", code, text, self.lang)
            rows = data["Variables"].get("forum_threadlist") or []
            new = [r for r in rows if isinstance(r, dict) and str(r.get("tid")) not in out]
            for r in new:
                out[str(r.get("tid"))] = r
            if not new:
                return list(out.values()), True
        return list(out.values()), False

    def _pages(self, query: dict) -> list[dict]:
        rows: list[dict] = []
        seen = set()
        for page in range(1, MAX_PAGES + 1):
            data = self._call("mypm", {**query, "page": str(page)}, version="1")
            code, text = self._message(data)
            if code.startswith("to_login"):
                raise GameError(say("dz_not_logged_in", self.lang, site=self.site))
            if code:
                raise ForumRefused("mypm", code, text, self.lang)
            var = data["Variables"]
            items = var.get("list") or {}
            items = list(items.values()) if isinstance(items, dict) else list(items)
            new = [r for r in items if isinstance(r, dict) and (str(r.get("pmid")), str(r.get("touid"))) not in seen]
            for r in new:
                seen.add((str(r.get("pmid")), str(r.get("touid"))))
            rows += new
            count, perpage = str(var.get("count") or "0"), str(var.get("perpage") or "0")
            if not new or not count.isdigit() or not perpage.isdigit() or page * max(int(perpage), 1) >= int(count):
                break
        return rows

    def conversations(self) -> list[dict]:
        """The member's PM conversations (``touid``: the other member)."""
        self._ensure()
        return self._pages({})

    def conversation(self, touid: str) -> list[dict]:
        """Every PM between the member and ``touid``, oldest first: pmid, msgfromid, message
        (HTML), dateline (Unix time)."""
        self._ensure()
        rows = self._pages({"subop": "view", "touid": touid})
        return sorted(rows, key=lambda r: int(str(r.get("pmid") or 0)) if str(r.get("pmid") or "").isdigit() else 0)
