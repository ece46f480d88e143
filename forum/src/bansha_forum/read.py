"""Reading a thread: from a file, standard input or a URL, in whichever format an installed
adapter (``bansha.forums``) recognises, every page of it, as posts in floor order.

The network is touched only here, and only when a URL is given: httpx with a timeout on every
read, and a total deadline on each page (``PAGE_SECONDS``) and on the whole thread
(``THREAD_SECONDS``) — a server that sends a byte every few seconds never keeps a command
running; redirects followed, a cookie file for boards that need a login, pages fetched until
the thread's last floor (or a page that adds none), at most ``MAX_PAGES``. Bytes are read as the
page declares (HTTP header, ``<meta charset>``, Discuz!'s ``Charset``), else UTF-8, else GBK.
A page cut short (a saved page without its end, JSON that stops mid-way, a connection dropped
mid-answer) is refused as such, never read as a shorter thread."""

from __future__ import annotations

import json
import re
import sys
import threading
import time

from bansha.door.files import read_bytes, read_text
from bansha.engine.model import GameError
from bansha.entrypoints import entry_points
from bansha.text.messages import extend, say

from .adapters.base import Adapter, Page

GROUP = "bansha.forums"
MAX_PAGES = 200
MAX_BYTES = 20 * 1024 * 1024
TIMEOUT = 15.0          # between two reads of one answer
PAGE_SECONDS = 60.0     # one page, asked to last byte
THREAD_SECONDS = 600.0  # every page of one thread

extend({
    "fm_bad_url": ("{url}：不是有效的网址", "{url}: not a valid URL"),
    "fm_unknown_format": ("没有论坛格式 {name}（已安装：{known}）", "no forum format {name} (installed: {known})"),
    "fm_not_recognised": ("{source}：认不出是哪种论坛的帖子（已安装的格式：{known}；可用 --forum 指定）",
                          "{source}: not a thread of any installed forum format ({known}; name one with --forum)"),
    "fm_no_url": ("{url}：不是已安装的论坛格式能读取的帖子地址（{known}）",
                  "{url}: no installed forum format reads threads at this address ({known})"),
    "fm_fetch": ("{url}：读取失败：{why}", "{url}: could not be read: {why}"),
    "fm_timeout": ("超时（{seconds} 秒没有回应）", "timed out ({seconds} s without an answer)"),
    "fm_status": ("服务器回答 HTTP {status}", "the server answered HTTP {status}"),
    "fm_connect": ("无法连接", "cannot connect"),
    "fm_too_big": ("{source}：超过 {mb} MB，不像是一个帖子", "{source}: over {mb} MB, not a thread"),
    "fm_bad_page": ("{source}：不是有效的 {format} 内容（{why}）", "{source}: not valid {format} ({why})"),
    "fm_page_deadline": ("{seconds} 秒内没有读完这一页（每页的总时限）", "not read whole within {seconds} s (the deadline of a page)"),
    "fm_thread_deadline": ("{seconds} 秒内没有读完整个帖子（每个帖子的总时限；已读 {pages} 页）",
                           "the thread was not read whole within {seconds} s (the deadline of a thread; {pages} pages read)"),
    "fm_dropped": ("连接在传输中断开（已收到 {got} 字节）：页面不完整", "the connection dropped mid-answer ({got} bytes received): the page is incomplete"),
    "fm_no_answer": ("服务器没有回答就断开了连接", "the server closed the connection without an answer"),
    "fm_not_http": ("服务器的回答不是有效的 HTTP", "the server's answer is not valid HTTP"),
    "fm_redirects": ("重定向次数过多", "too many redirects"),
    "fm_cut": ("{source}：页面不完整，在结尾之前中断（{where}）：这不是整个帖子，请重新保存或重新读取",
               "{source}: the page is cut short before its end ({where}): this is not the whole thread; save or fetch it again"),
    "fm_cut_after": ("最后完整的一楼是 {floor}", "the last whole post is {floor}"),
    "fm_cut_chars": ("JSON 在第 {n} 个字符处结束，没有闭合", "the JSON ends at character {n} unclosed"),
    "fm_cut_none": ("没有一楼是完整的", "no post is whole"),
    "fm_json_at": ("JSON 在第{line}行第{col}列有误", "JSON is wrong at line {line}, column {col}"),
    "fm_cookies_line": ("{file}：第{line}行：{why}", "{file}: line {line}: {why}"),
    "fm_cookies_fields": ("cookies.txt 的一行应有 7 个以 Tab 分隔的字段（域名、子域、路径、安全、过期时间、名称、值），这里有 {n} 个",
                          "a cookies.txt line has 7 tab-separated fields (domain, subdomains, path, secure, expiry, name, value); this has {n}"),
    "fm_cookies_flag": ("{what} 应为 TRUE 或 FALSE，这里是 {value}", "{what} is TRUE or FALSE, not {value}"),
    "fm_cookies_expiry": ("过期时间 {value} 不是整数（Unix 时间）", "the expiry {value} is no whole number (Unix time)"),
    "fm_cookies_pair": ("{part} 不是 名称=值", "{part} is not name=value"),
    "fm_cookies_empty": ("{file}：没有 cookie（cookies.txt，或一行 名称=值; 名称2=值2）",
                         "{file}: no cookie (a cookies.txt, or one line name=value; name2=value2)"),
    "fm_cookies_unused": ("--cookies 只用于从网址读取帖子：{source} 不是网址，cookie 文件不会被使用",
                          "--cookies is for reading a thread from its address: {source} is no URL, the cookie file would be ignored"),
    "fm_login": ("{url}：论坛要求登录才能查看（用 --cookies 给出登录后的 cookie 文件）",
                 "{url}: the forum asks for a login (give a logged-in cookie file with --cookies)"),
})


def adapters() -> list[tuple[str, Adapter]]:
    """The installed forum formats, most particular first."""
    found = []
    for ep in entry_points(GROUP):
        found.append((ep.name, ep.load()))
    return sorted(found, key=lambda kv: (getattr(kv[1], "order", 50), kv[0]))


def format_label(name: str) -> str:
    """A forum format as a person reads it (its adapter's ``label``: "NGA（JSON）"), the name
    itself when it has none: the one name every surface shows for a format."""
    for n, adapter in adapters():
        if n == name:
            return getattr(adapter, "label", "") or name
    return name


def _known(found) -> str:
    return "、".join(name for name, _ in found) or "—"


def decode(data: bytes, declared: str | None = None, source: str = "?", lang: str | None = None) -> str:
    """Text of a page: the declared charset, else one the page states of itself, else UTF-8,
    else GBK (gb18030, its superset)."""
    tried = []
    if declared:
        tried.append(declared)
    head = data[:4096].decode("ascii", "ignore")
    m = re.search(r"charset\s*=\s*[\"']?([\w-]+)", head, re.I) or re.search(r"\"Charset\"\s*:\s*\"([\w-]+)\"", head)
    if m:  # read from the page's own bytes as ASCII: a page saying UTF-16/32 is not (as browsers read it)
        tried.append("utf-8" if re.fullmatch(r"utf-?(16|32)\w*", m.group(1), re.I) else m.group(1))
    tried += ["utf-8-sig", "gb18030"]
    for enc in tried:
        enc = "gb18030" if enc.lower() in ("gbk", "gb2312") else enc
        try:
            return data.decode(enc)
        except (UnicodeError, LookupError):  # UnicodeError: a codec that decodes nothing ("undefined")
            continue
    raise GameError(say("lp_encoding", lang, file=source))


def read_posts(source: str, *, fmt: str | None = None, cookies: str | None = None, lang: str | None = None):
    """The posts of the thread ``source`` names (a path, ``-`` or an http(s) URL), with the
    adapter that read it: ``(posts, adapter_name, title)``. A post an adapter cannot read is
    among them (``Post.problem``), to be refused by name; a page cut short is refused."""
    found = adapters()
    if fmt is not None:
        chosen = [(n, a) for n, a in found if n == fmt]
        if not chosen:
            raise GameError(say("fm_unknown_format", lang, name=fmt, known=_known(found)))
        found = chosen
    if source.startswith(("http://", "https://")):
        _check_url(source, lang)
        return _read_url(source, found, cookies, lang)
    if cookies is not None:  # an ignored option is refused (docs/cli.md, "Values")
        raise GameError(say("fm_cookies_unused", lang, source=source))
    data = _read_bytes(source, lang)
    text = decode(data, None, source, lang)
    for name, adapter in found:
        if fmt is not None or adapter.sniff(text):
            page = _parse(adapter, text, source, lang)
            return page.posts, name, page.title
    raise GameError(say("fm_not_recognised", lang, source=source, known=_known(found)))


def _read_bytes(source: str, lang) -> bytes:
    """A file's bytes through the kernel's one reader of what a person gives (files.py: size,
    the OS's refusal in words), or standard input's, bounded alike."""
    if source != "-":
        return read_bytes(source, lang)
    data = sys.stdin.buffer.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise GameError(say("fm_too_big", lang, source=source, mb=MAX_BYTES // 1024 // 1024))
    return data


def _parse(adapter: Adapter, text: str, source: str, lang) -> Page:
    """One page read by ``adapter``; a page that ends before its end is refused as cut short."""
    try:
        page = adapter.parse(text)
    except GameError:
        raise
    except json.JSONDecodeError as exc:
        if _unclosed(text):  # the JSON stops before its outer object closes: a page cut short
            raise GameError(say("fm_cut", lang, source=source, where=say("fm_cut_chars", lang, n=len(text)))) from None
        why = say("fm_json_at", lang, line=exc.lineno, col=exc.colno)
        raise GameError(say("fm_bad_page", lang, source=source, format=adapter.label, why=why)) from None
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
        why = type(exc).__name__ if not isinstance(exc, ValueError) else str(exc).split("\n")[0][:80]
        raise GameError(say("fm_bad_page", lang, source=source, format=adapter.label, why=why)) from None
    if page.cut:
        whole = [p for p in page.posts if not p.problem]
        where = say("fm_cut_after", lang, floor=max(whole, key=lambda p: p.floor).label) if whole else say("fm_cut_none", lang)
        raise GameError(say("fm_cut", lang, source=source, where=where))
    return page


def _unclosed(text: str) -> bool:
    """Whether JSON text ends inside a string or before every ``{`` and ``[`` it opened is
    closed: a page cut short, as against one written wrong."""
    open_: list[str] = []
    in_string, escaped = False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            open_.append("}" if ch == "{" else "]")
        elif ch in "}]":
            if not open_ or open_.pop() != ch:
                return False  # written wrong, not cut
    return in_string or bool(open_)


def read_cookies(path: str, lang=None) -> list[tuple[str, str, str, str]]:
    """The cookies of a cookie file, ``(name, value, domain, path)`` each, read through the
    kernel's door (files.py: size, the OS's refusal, UTF-8 with a BOM) and checked line by
    line: a ``cookies.txt`` (Netscape format: seven tab-separated fields a line; ``#`` comments;
    curl's ``#HttpOnly_`` prefix) or one line ``name=value; name2=value2`` as a browser shows it.
    Anything else is refused naming the line, never half-read."""
    lines = read_text(path, lang).splitlines()
    netscape = any("\t" in line for line in lines) or any(
        line.lstrip().startswith(("# Netscape HTTP Cookie File", "# HTTP Cookie File")) for line in lines)
    found: list[tuple[str, str, str, str]] = []
    for n, raw in enumerate(lines, 1):
        line = raw.strip("\r\n")
        if line.startswith("#HttpOnly_"):
            line = line[len("#HttpOnly_"):]
        elif not line.strip() or line.lstrip().startswith("#"):
            continue
        if netscape:
            fields = line.split("\t")
            if len(fields) != 7:
                why = say("fm_cookies_fields", lang, n=len(fields))
                raise GameError(say("fm_cookies_line", lang, file=path, line=n, why=why))
            domain, sub, cpath, secure, expires, name, value = fields
            for what, flag in (("子域", sub), ("安全", secure)):
                if flag.upper() not in ("TRUE", "FALSE"):
                    why = say("fm_cookies_flag", lang, what=what, value=flag)
                    raise GameError(say("fm_cookies_line", lang, file=path, line=n, why=why))
            if expires.strip() and not expires.strip().isdigit():
                why = say("fm_cookies_expiry", lang, value=expires)
                raise GameError(say("fm_cookies_line", lang, file=path, line=n, why=why))
            if not name.strip():
                why = say("fm_cookies_pair", lang, part=line.replace("\t", " "))
                raise GameError(say("fm_cookies_line", lang, file=path, line=n, why=why))
            found.append((name.strip(), value, domain.strip(), cpath.strip() or "/"))
            continue
        for part in line.split(";"):
            if not part.strip():
                continue
            k, sep, v = part.strip().partition("=")
            if not sep or not k.strip() or any(c.isspace() for c in k.strip()):
                why = say("fm_cookies_pair", lang, part=part.strip())
                raise GameError(say("fm_cookies_line", lang, file=path, line=n, why=why))
            found.append((k.strip(), v.strip(), "", "/"))
    if not found:
        raise GameError(say("fm_cookies_empty", lang, file=path))
    return found


def _cookie_jar(path: str | None, lang):
    if path is None:
        return None
    import httpx

    cookies = httpx.Cookies()
    for name, value, domain, cpath in read_cookies(path, lang):
        cookies.set(name, value, domain=domain, path=cpath)
    return cookies


def _check_url(url: str, lang) -> None:
    """An address that is no URL (``http://[::1``, a port past 65535) is one line, never
    urllib's ValueError."""
    from urllib.parse import urlsplit

    from bansha.text.messages import excerpt

    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - reading it checks it
    except ValueError:
        raise GameError(say("fm_bad_url", lang, url=excerpt(url, 60))) from None
    if not parts.hostname:
        raise GameError(say("fm_bad_url", lang, url=excerpt(url, 60)))


class _Late(Exception):
    """A page's or the thread's deadline passed before the page was read whole."""


def _fetch(client, url: str, deadline: float) -> tuple[int, bytes, str | None]:
    """``(status, body, charset)`` of one GET, read to its last byte before ``deadline``
    (``time.monotonic()``) or not at all (``_Late``). The body is read chunk by chunk, so a
    server that drips a byte every few seconds is cut off at the deadline; the request runs in
    a thread the caller stops waiting for at the deadline, so one that drips its headers (or
    hangs anywhere httpx has no total timeout) is cut off too. Errors are httpx's."""
    box: dict = {}

    def work():
        try:
            with client.stream("GET", url) as r:
                box["status"], box["charset"], body = r.status_code, r.charset_encoding, bytearray()
                if r.status_code == 200:
                    for chunk in r.iter_bytes():
                        body += chunk
                        box["got"] = len(body)
                        if len(body) > MAX_BYTES:
                            break
                        if time.monotonic() > deadline:
                            box["late"] = True
                            return
                box["body"] = bytes(body)
        except BaseException as exc:  # noqa: BLE001 (handed to the caller's thread)
            box["exc"] = exc

    worker = threading.Thread(target=work, name=f"bansha-fetch {url}", daemon=True)
    worker.start()
    worker.join(max(0.0, deadline - time.monotonic()) + 0.5)
    if worker.is_alive() or box.get("late"):
        raise _Late(box.get("got", 0))
    if "exc" in box:
        exc = box["exc"]
        exc.got = box.get("got", 0)
        exc.answered = "status" in box
        raise exc
    return box["status"], box.get("body", b""), box.get("charset")


def _why_failed(exc, lang) -> str:
    """An httpx error as the reason a page could not be read, in the board's language."""
    import httpx

    if isinstance(exc, httpx.TimeoutException):
        return say("fm_timeout", lang, seconds=int(TIMEOUT))
    if isinstance(exc, httpx.ConnectError):
        return say("fm_connect", lang)
    if isinstance(exc, httpx.TooManyRedirects):
        return say("fm_redirects", lang)
    if isinstance(exc, (httpx.ReadError, httpx.WriteError, httpx.CloseError, httpx.RemoteProtocolError)):
        # h11's words for an answer broken off ("peer closed connection without sending
        # complete message body", "Server disconnected without sending a response")
        broken = not isinstance(exc, httpx.RemoteProtocolError) or re.search(r"closed|disconnected", str(exc))
        if broken and (getattr(exc, "answered", False) or getattr(exc, "got", 0)):
            return say("fm_dropped", lang, got=getattr(exc, "got", 0))
        return say("fm_no_answer", lang) if broken else say("fm_not_http", lang)
    return say("fm_connect", lang)


def _read_url(url: str, found, cookie_file, lang):
    import httpx

    chosen = next(((n, a) for n, a in found if a.page_url(url, 1) is not None), None)
    if chosen is None:
        raise GameError(say("fm_no_url", lang, url=url, known=_known(found)))
    name, adapter = chosen
    cookies = _cookie_jar(cookie_file, lang)
    posts: dict[int, object] = {}
    unread: dict[tuple, object] = {}  # posts that cannot be read, once each (a page may be asked twice)
    title = ""
    thread_end = time.monotonic() + THREAD_SECONDS
    with httpx.Client(timeout=TIMEOUT, follow_redirects=True, cookies=cookies,
                      headers={"User-Agent": "bansha-forum/0.1 (+votes import)"}) as client:
        for n in range(1, MAX_PAGES + 1):
            page_url = adapter.page_url(url, n)
            page_end = time.monotonic() + PAGE_SECONDS
            try:
                status, content, charset = _fetch(client, page_url, min(page_end, thread_end))
            except _Late:
                why = say("fm_page_deadline", lang, seconds=int(PAGE_SECONDS)) if page_end <= thread_end \
                    else say("fm_thread_deadline", lang, seconds=int(THREAD_SECONDS), pages=n - 1)
                raise GameError(say("fm_fetch", lang, url=page_url, why=why)) from None
            except httpx.HTTPError as exc:
                raise GameError(say("fm_fetch", lang, url=page_url, why=_why_failed(exc, lang))) from None
            if status in (401, 403):
                raise GameError(say("fm_login", lang, url=page_url))
            if status != 200:
                raise GameError(say("fm_fetch", lang, url=page_url, why=say("fm_status", lang, status=status)))
            if len(content) > MAX_BYTES:
                raise GameError(say("fm_too_big", lang, source=page_url, mb=MAX_BYTES // 1024 // 1024))
            page = _parse(adapter, decode(content, charset, page_url, lang), page_url, lang)
            title = title or page.title
            new = [p for p in page.posts if not p.problem and p.floor not in posts]
            for p in new:
                posts[p.floor] = p
            for p in page.posts:
                if p.problem:
                    unread.setdefault((p.label, p.author, p.time, p.text, p.problem), p)
            if not new or (page.total is not None and max(posts) >= page.total):
                break
    ordered = [*(posts[k] for k in sorted(posts)), *unread.values()]
    from .adapters.base import link_quotes

    link_quotes(ordered)  # a quote of a post on an earlier page
    return ordered, name, title
