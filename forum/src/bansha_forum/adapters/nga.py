"""NGA's thread as JSON (``read.php?tid=…&page=…&__output=11``): ``data.__R`` the posts of the
page, each with ``lou`` (0 for the opening post), ``authorid``, ``postdate`` /
``postdatetimestamp``, ``content`` in NGA's BBCode (a quote is ``[quote][pid=…]Reply[/pid]
[b]Post by [uid=…]NAME[/uid] (TIME):[/b] … [/quote]``) and ``alterinfo`` (``[E<time> …]`` when
edited); ``data.__U`` the authors by uid; ``data.__ROWS`` the thread's posts."""

from __future__ import annotations

import html
import json
import re
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

from ..thread import Quote, unreadable
from .base import Adapter, Page, floor_number, from_timestamp, link_quotes, make_post, norm_time

QUOTE = re.compile(r"\[quote\](.*?)\[/quote\]", re.S | re.I)
REPLY = re.compile(r"\[b\]\s*Reply to\s*\[pid=(\d+)[^\]]*\].*?\[/pid\].*?\[/b\]", re.S | re.I)
QUOTE_PID = re.compile(r"\[pid=(\d+)")
QUOTE_HEAD = re.compile(r"\[b\]\s*Post by\s*(?:\[uid=?\d*\])?(.+?)(?:\[/uid\])?\s*\((\d{4}-\d{1,2}-\d{1,2}\s+\d{1,2}:\d{2}(?::\d{2})?)\)\s*:?\s*\[/b\]", re.S | re.I)
TAGS = re.compile(r"\[/?(?:b|i|u|del|color|size|font|align|url|img|collapse|pid|tid|uid)[^\]]*\]", re.I)
EDITED = re.compile(r"\[E(\d+)")


def _lines(bbcode: str) -> list[str]:
    text = re.sub(r"<br\s*/?>", "\n", bbcode, flags=re.I)
    text = re.sub(r"\[pid=[^\]]*\].*?\[/pid\]", "", text, flags=re.S | re.I)
    text = TAGS.sub("", text)
    text = html.unescape(text).replace("\u3000", " ")
    return [line.strip() for line in text.splitlines() if line.strip()]


class Nga(Adapter):
    name = "nga"
    label = "NGA（JSON）"
    order = 20

    def sniff(self, text: str) -> bool:
        return text.lstrip()[:1] == "{" and '"__R"' in text

    def parse(self, text: str) -> Page:
        data = json.loads(text).get("data") or {}
        users = data.get("__U") or {}
        rows = data.get("__R") or []
        if isinstance(rows, dict):  # NGA numbers the rows as an object's keys
            rows = [rows[k] for k in sorted(rows, key=lambda k: int(k) if str(k).isdigit() else 0)]
        posts = []
        if not isinstance(rows, list):
            raise ValueError("__R")
        for k, item in enumerate(rows, 1):
            if not isinstance(item, dict):
                posts.append(unreadable(str(k), problem="fm_bad_entry"))
                continue
            user = users.get(str(item.get("authorid"))) or {}
            author = str(user.get("username") or item.get("author") or item.get("authorid") or "")
            stamp = item.get("postdatetimestamp")
            time = from_timestamp(stamp) if stamp else norm_time(str(item.get("postdate") or ""))
            content = str(item.get("content") or "")
            quote = None
            q = QUOTE.search(content)
            if q:
                head = QUOTE_HEAD.search(q.group(1))
                if head:
                    body = q.group(1)[head.end():]
                    quote = Quote(author=head.group(1).strip(), time=norm_time(head.group(2)), lines=_lines(body))
                    pid = QUOTE_PID.search(q.group(1))
                    quote.pid = pid.group(1) if pid else ""
                content = content[:q.start()] + "\n" + content[q.end():]
            reply_pid = ""
            r = REPLY.search(content)
            if r and quote is None:
                reply_pid = r.group(1)
                content = content[:r.start()] + content[r.end():]
            e = EDITED.search(str(item.get("alterinfo") or ""))
            edited = from_timestamp(e.group(1)) if e else ""
            lou = str(item.get("lou", "")).strip()
            # lou 0 is the opening post (floor 1); "-5", "abc" are no floor: kept and refused by name
            floor = 0 if lou.isascii() and lou.isdigit() and not lou.strip("0") else floor_number(lou)
            floor = None if floor is None else floor + 1
            if floor is None:
                posts.append(unreadable(lou, author, time, lines=_lines(content)))
                continue
            posts.append(make_post(floor, author, time, _lines(content), quote, edited,
                                   pid=str(item.get("pid") or ""), reply_pid=reply_pid))
        posts.sort(key=lambda p: p.floor)
        link_quotes(posts)
        total = data.get("__ROWS")
        subject = (data.get("__T") or {}).get("subject", "") if isinstance(data.get("__T"), dict) else ""
        return Page(posts=posts, total=int(total) if str(total).isdigit() else None, title=str(subject))

    def page_url(self, url: str, page: int) -> str | None:
        parts = urlsplit(url)
        if not parts.path.endswith("read.php"):
            return None
        query = parse_qs(parts.query)
        tid = query.get("tid", [None])[0]
        if not tid or not tid.isdigit():
            return None
        q = urlencode({"tid": tid, "page": str(page), "__output": "11"})
        return urlunsplit((parts.scheme, parts.netloc, parts.path, q, ""))


adapter = Nga()
