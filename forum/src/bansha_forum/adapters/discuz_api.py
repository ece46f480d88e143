"""The Discuz! X mobile API's thread (``api/mobile/index.php?module=viewthread&tid=…&page=…``):
JSON whose ``Variables`` hold ``thread`` (``tid``, ``subject``, ``replies``) and ``postlist``,
each post with ``pid``, ``number`` (its floor), ``author``, ``authorid``, ``dateline`` (as the
page shows it), ``dbdateline`` (Unix time) and an HTML ``message`` whose quote is a
``<div class="quote"><blockquote>``; ``Charset`` says what the site stores (UTF-8 or GBK).

A thread's page URL (``forum.php?mod=viewthread&tid=N`` or ``thread-N-1-1.html``) is read
through the API of the same site."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

from ..thread import unreadable
from .base import (
    Adapter,
    Page,
    discuz_message,
    floor_number,
    from_timestamp,
    link_quotes,
    make_post,
    norm_time,
)

API = "api/mobile/index.php"


class DiscuzApi(Adapter):
    name = "discuz-api"
    label = "Discuz! X 移动端接口（JSON）"
    order = 10

    def sniff(self, text: str) -> bool:
        head = text.lstrip()[:1]
        return head == "{" and '"Variables"' in text and '"postlist"' in text

    def parse(self, text: str) -> Page:
        data = json.loads(text)
        var = data.get("Variables") or {}
        if not isinstance(var, dict):
            raise ValueError("Variables")
        thread = var.get("thread") or {}
        posts = []
        postlist = var.get("postlist") or []
        if not isinstance(postlist, list):
            raise ValueError("postlist")
        for k, item in enumerate(postlist, 1):
            if not isinstance(item, dict):
                posts.append(unreadable(str(k), problem="fm_bad_entry"))
                continue
            time = from_timestamp(item.get("dbdateline")) if item.get("dbdateline") else norm_time(str(item.get("dateline", "")))
            lines, quote, edited, reply_to = discuz_message(str(item.get("message") or ""))
            author = str(item.get("author") or "")
            number = str(item.get("number") or item.get("position") or "").strip()
            floor = floor_number(number)
            if floor is None:  # "-5", "abc": kept, and refused by name where it is read
                posts.append(unreadable(number, author, time, lines=lines))
                continue
            post = make_post(floor, author, time, lines, quote, edited, reply_to, pid=str(item.get("pid") or ""))
            uid = str(item.get("authorid") or "")
            post.author_uid = uid if uid.isdigit() and uid != "0" else ""
            posts.append(post)
        posts.sort(key=lambda p: p.floor)
        link_quotes(posts)
        total = None
        for key in ("allreplies", "replies"):
            if str(thread.get(key, "")).isdigit():
                total = int(thread[key]) + 1
                break
        return Page(posts=posts, total=total, title=str(thread.get("subject") or ""), charset=str(data.get("Charset") or ""))

    def page_url(self, url: str, page: int) -> str | None:
        parts = urlsplit(url)
        query = parse_qs(parts.query)
        tid = None
        if parts.path.endswith(API) and query.get("module") == ["viewthread"]:
            tid = query.get("tid", [None])[0]
        elif parts.path.endswith("forum.php") and query.get("mod") == ["viewthread"]:
            tid = query.get("tid", [None])[0]
        else:
            m = re.search(r"/thread-(\d+)-\d+-\d+\.html$", parts.path)
            tid = m.group(1) if m else None
        if not tid or not tid.isdigit():
            return None
        base = parts.path
        for tail in (API, "forum.php"):
            if base.endswith(tail):
                base = base[: -len(tail)]
                break
        else:
            base = base[: base.rfind("/") + 1]
        q = urlencode({"version": "4", "module": "viewthread", "tid": tid, "page": str(page)})
        return urlunsplit((parts.scheme, parts.netloc, base + API, q, ""))


adapter = DiscuzApi()
