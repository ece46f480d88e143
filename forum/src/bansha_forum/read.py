"""Reading a thread: from a file, standard input or a URL, in whichever format an installed
adapter (``bansha.forums``) recognises, every page of it, as posts in floor order.

The network is touched only here, and only when a URL is given: httpx with a timeout on every
request, redirects followed, a cookie file for boards that need a login, pages fetched until
the thread's last floor (or a page that adds none), at most ``MAX_PAGES``. Bytes are read as the
page declares (HTTP header, ``<meta charset>``, Discuz!'s ``Charset``), else UTF-8, else GBK."""

from __future__ import annotations

import re
import sys

from bansha.entrypoints import entry_points
from bansha.files import os_why, read_bytes
from bansha.messages import extend, say
from bansha.model import GameError

from .adapters.base import Adapter, Page

GROUP = "bansha.forums"
MAX_PAGES = 200
MAX_BYTES = 20 * 1024 * 1024
TIMEOUT = 15.0

extend({
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
    "fm_cookies": ("{file}：无法读取 cookie 文件：{why}", "{file}: cannot read the cookie file: {why}"),
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
    if m:
        tried.append(m.group(1))
    tried += ["utf-8-sig", "gb18030"]
    for enc in tried:
        enc = "gb18030" if enc.lower() in ("gbk", "gb2312") else enc
        try:
            return data.decode(enc)
        except (UnicodeDecodeError, LookupError):
            continue
    raise GameError(say("lp_encoding", lang, file=source))


def read_posts(source: str, *, fmt: str | None = None, cookies: str | None = None, lang: str | None = None):
    """The posts of the thread ``source`` names (a path, ``-`` or an http(s) URL), with the
    adapter that read it: ``(posts, adapter_name, title)``."""
    found = adapters()
    if fmt is not None:
        chosen = [(n, a) for n, a in found if n == fmt]
        if not chosen:
            raise GameError(say("fm_unknown_format", lang, name=fmt, known=_known(found)))
        found = chosen
    if source.startswith(("http://", "https://")):
        return _read_url(source, found, cookies, lang)
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
    try:
        return adapter.parse(text)
    except GameError:
        raise
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
        why = type(exc).__name__ if not isinstance(exc, ValueError) else str(exc).split("\n")[0][:80]
        raise GameError(say("fm_bad_page", lang, source=source, format=adapter.label, why=why)) from None


def _cookie_jar(path: str | None, lang):
    if not path:
        return None
    from http.cookiejar import LoadError, MozillaCookieJar

    import httpx

    jar = MozillaCookieJar()
    try:
        jar.load(path, ignore_discard=True, ignore_expires=True)
        return httpx.Cookies(jar)
    except LoadError:  # not cookies.txt: one "name=value; name2=value2" line, as a browser shows it
        pass
    except OSError as exc:
        raise GameError(say("fm_cookies", lang, file=path, why=os_why(exc, lang))) from None
    try:
        with open(path, encoding="utf-8-sig") as f:
            line = f.read().strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise GameError(say("fm_cookies", lang, file=path, why=type(exc).__name__)) from None
    cookies = httpx.Cookies()
    for part in line.split(";"):
        k, sep, v = part.strip().partition("=")
        if sep and k:
            cookies.set(k.strip(), v.strip())
    return cookies


def _read_url(url: str, found, cookie_file, lang):
    import httpx

    chosen = next(((n, a) for n, a in found if a.page_url(url, 1) is not None), None)
    if chosen is None:
        raise GameError(say("fm_no_url", lang, url=url, known=_known(found)))
    name, adapter = chosen
    cookies = _cookie_jar(cookie_file, lang)
    posts: dict[int, object] = {}
    title = ""
    with httpx.Client(timeout=TIMEOUT, follow_redirects=True, cookies=cookies,
                      headers={"User-Agent": "bansha-forum/0.1 (+votes import)"}) as client:
        for n in range(1, MAX_PAGES + 1):
            page_url = adapter.page_url(url, n)
            try:
                r = client.get(page_url)
            except httpx.TimeoutException:
                raise GameError(say("fm_fetch", lang, url=page_url, why=say("fm_timeout", lang, seconds=int(TIMEOUT)))) from None
            except httpx.HTTPError:
                raise GameError(say("fm_fetch", lang, url=page_url, why=say("fm_connect", lang))) from None
            if r.status_code in (401, 403):
                raise GameError(say("fm_login", lang, url=page_url))
            if r.status_code != 200:
                raise GameError(say("fm_fetch", lang, url=page_url, why=say("fm_status", lang, status=r.status_code)))
            if len(r.content) > MAX_BYTES:
                raise GameError(say("fm_too_big", lang, source=page_url, mb=MAX_BYTES // 1024 // 1024))
            page = _parse(adapter, decode(r.content, r.charset_encoding, page_url, lang), page_url, lang)
            title = title or page.title
            new = [p for p in page.posts if p.floor not in posts]
            for p in new:
                posts[p.floor] = p
            if not new or (page.total is not None and max(posts) >= page.total):
                break
    ordered = [posts[k] for k in sorted(posts)]
    from .adapters.base import link_quotes

    link_quotes(ordered)  # a quote of a post on an earlier page
    return ordered, name, title
