"""A Discuz! X thread page as the browser saves it (``forum.php?mod=viewthread&tid=…``, or a
rewritten ``thread-…-1-1.html``): each post a ``<div id="post_PID">`` with its author's
``<a … class="xw1">NAME</a>``, the floor in ``<a id="postnumPID">`` (楼主, 沙发, 板凳, 地板 or
``<em>N</em><sup>#</sup>``), the time in ``<em id="authorpostonPID">发表于 …</em>`` (a recent one
as ``<span title="TIME">``) and the message in ``<td class="t_f" id="postmessage_PID">``."""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

from ..thread import unreadable
from .base import Adapter, Page, discuz_message, floor_number, link_quotes, make_post, norm_time

POST = re.compile(r"<div id=\"post_(\d+)\"")
AUTHOR = re.compile(r"<a [^>]*class=\"xw1\"[^>]*>(.*?)</a>", re.S)
FLOOR = re.compile(r"id=\"postnum\d+\"[^>]*>(.*?)</a>", re.S)
POSTED = re.compile(r"<em id=\"authorposton\d+\">(.*?)</em>", re.S)
TITLE = re.compile(r"<span id=\"thread_subject\"[^>]*>(.*?)</span>", re.S)
MESSAGE = re.compile(r"<td class=\"t_f\" id=\"postmessage_\d+\">")
TD = re.compile(r"<(/?)td\b", re.I)
HTML_OPEN = re.compile(r"<html[\s>]", re.I)
HTML_CLOSE = re.compile(r"</html\s*>", re.I)
FLOOR_NAMES = {"楼主": 1, "沙发": 2, "板凳": 3, "地板": 4}


def _inner_td(page: str, start: int) -> str:
    """The inside of the ``<td>`` opened just before ``start`` (tables in a post nest)."""
    depth = 1
    for m in TD.finditer(page, start):
        depth += -1 if m.group(1) else 1
        if depth == 0:
            return page[start:m.start()]
    return page[start:]


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]*>", "", fragment)).replace("\u00a0", " ").strip()


class DiscuzHtml(Adapter):
    name = "discuz-html"
    label = "Discuz! X 帖子页面（HTML）"
    order = 30

    def sniff(self, text: str) -> bool:
        return "postmessage_" in text and "<" in text

    def parse(self, text: str) -> Page:
        starts = [m.start() for m in POST.finditer(text)]
        posts = []
        for k, at in enumerate(starts):
            chunk = text[at: starts[k + 1] if k + 1 < len(starts) else len(text)]
            a, f, t, msg = AUTHOR.search(chunk), FLOOR.search(chunk), POSTED.search(chunk), MESSAGE.search(chunk)
            if not (a and f and t and msg):  # a post_PID block without its parts: said, not dropped
                posts.append(unreadable(str(k + 1), _text(a.group(1)) if a else "", problem="fm_bad_entry"))
                continue
            label = _text(f.group(1)).replace(" ", "")
            title = re.search(r"title=\"([^\"]+)\"", t.group(1))
            time = norm_time(title.group(1) if title else _text(t.group(1)))
            lines, quote, edited, reply_to = discuz_message(_inner_td(chunk, msg.end()))
            num = re.fullmatch(r"(\d+)[#楼]?", label)
            floor = FLOOR_NAMES.get(label) or (floor_number(num.group(1)) if num else None)
            if floor is None:  # "-5#", "abc": kept, and refused by name where it is read
                posts.append(unreadable(label, _text(a.group(1)), time, lines=lines))
                continue
            posts.append(make_post(floor, _text(a.group(1)), time, lines, quote, edited, reply_to))
        posts.sort(key=lambda p: p.floor)
        link_quotes(posts)
        m = TITLE.search(text)
        # a saved page ends with </html>: one without it was cut short (a save or copy broken off)
        cut = bool(HTML_OPEN.search(text[:4096])) and not HTML_CLOSE.search(text[-4096:])
        return Page(posts=posts, title=_text(m.group(1)) if m else "", cut=cut)

    def page_url(self, url: str, page: int) -> str | None:
        parts = urlsplit(url)
        query = parse_qs(parts.query)
        if parts.path.endswith("forum.php") and query.get("mod") == ["viewthread"] and query.get("tid"):
            q = urlencode({"mod": "viewthread", "tid": query["tid"][0], "page": str(page)})
            return urlunsplit((parts.scheme, parts.netloc, parts.path, q, ""))
        m = re.search(r"^(.*/thread-\d+-)\d+(-\d+\.html)$", parts.path)
        if m:
            return urlunsplit((parts.scheme, parts.netloc, f"{m.group(1)}{page}{m.group(2)}", "", ""))
        return None


adapter = DiscuzHtml()
