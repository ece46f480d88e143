"""What a forum adapter is, and the pieces adapters share (HTML to text, quotes to floors).

An adapter turns one page of a thread, as text, into posts (``bansha_forum.thread.Post``: floor,
author, time, its own lines, the quote it opens with, when it was last edited). It may also say
which URLs are its own and how to ask for page N of a thread; the reading loop (``read.py``)
fetches, decodes and pages, so an adapter never touches the network.
"""

from __future__ import annotations

import datetime as dt
import html
import re
from dataclasses import dataclass, field

from bansha.engine.model import MAX_POST

from ..thread import Post, Quote


@dataclass
class Page:
    """One page of a thread as an adapter read it."""

    posts: list[Post] = field(default_factory=list)
    total: int | None = None      # floors in the whole thread, where the page says so
    title: str = ""
    charset: str = ""             # what the page declares of itself (Discuz!'s "Charset")
    cut: bool = False             # the page ends before its end (a saved page without </html>)


class Adapter:
    """A forum format. Subclasses set ``name`` (the entry point's), ``label`` (said to a person)
    and ``order`` (sniffing order: the most particular first; pasted text, which takes
    anything, last), and implement ``sniff`` and ``parse``; a format that can be fetched also
    implements ``page_url``."""

    name = ""
    label = ""
    order = 50

    def sniff(self, text: str) -> bool:
        """Whether ``text`` (a whole file) is in this format."""
        raise NotImplementedError

    def parse(self, text: str) -> Page:
        """The posts of one page (or of a whole pasted thread)."""
        raise NotImplementedError

    def page_url(self, url: str, page: int) -> str | None:
        """The address of page ``page`` (from 1) of the thread ``url`` names, or None when the
        URL is not this format's."""
        return None


# ------------------------------------------------------------------------- shared pieces

TIME = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?")
EDITED = re.compile(r"本帖最后由\s*(.+?)\s*于\s*(\d{4}-\d{1,2}-\d{1,2}\s+\d{1,2}:\d{2}(?::\d{2})?)\s*编辑")


def norm_time(text: str) -> str:
    """``2024-5-6 09:12`` as bansha stores a post's time, ``2024-05-06 09:12:00``; "" when
    ``text`` is no date and time (or no real one: ``2024-13-45 27:61``)."""
    m = TIME.search(text or "")
    if not m:
        return ""
    y, mo, d, h, mi, s = (int(x or 0) for x in m.groups())
    try:
        return dt.datetime(y, mo, d, h, mi, s).strftime("%Y-%m-%d %H:%M:%S")
    except ValueError:
        return ""


def from_timestamp(stamp, utc_offset_hours: float = 8) -> str:
    """A forum's Unix time as the forum's own clock shows it (Discuz! and NGA: UTC+8)."""
    try:
        t = dt.datetime.fromtimestamp(int(stamp), dt.timezone(dt.timedelta(hours=utc_offset_hours)))
    except (TypeError, ValueError, OverflowError, OSError):
        return ""
    return t.strftime("%Y-%m-%d %H:%M:%S")


_BR = re.compile(r"<br\s*/?>|</p>|</div>|</li>|</tr>", re.I)
_TAG = re.compile(r"<[^>]*>")


def html_lines(fragment: str) -> list[str]:
    """The lines a reader sees of an HTML fragment: line breaks kept, tags dropped, entities
    read, blank lines left out."""
    text = _BR.sub("\n", fragment)
    text = _TAG.sub("", text)
    text = html.unescape(text).replace("\u00a0", " ").replace("\u3000", " ")
    return [line.strip() for line in text.splitlines() if line.strip()]


QUOTE_BLOCK = re.compile(r"<div class=\"?quote\"?>\s*<blockquote>(.*?)</blockquote>\s*</div>", re.I | re.S)
PSTATUS = re.compile(r"<i class=\"?pstatus\"?>(.*?)</i>", re.I | re.S)
QUOTE_HEAD = re.compile(r"^(.+?)\s+发表于\s*(\d{4}-\d{1,2}-\d{1,2}\s+\d{1,2}:\d{2}(?::\d{2})?)")


REPLY = re.compile(r"^回复\s*(\d+)\s*#")
FINDPOST = re.compile(r"goto=findpost&(?:amp;)?pid=(\d+)")


def discuz_message(message: str) -> tuple[list[str], Quote | None, str, int | None]:
    """A Discuz! post's HTML message (the page's or the mobile API's): its own lines, the
    quote it opens with (``<div class="quote"><blockquote>NAME 发表于 TIME …``), the time
    of its last edit (``<i class="pstatus"> 本帖最后由 NAME 于 TIME 编辑 </i>``) and the floor
    its reply button names (``<strong>回复 <a …>14#</a> <i>NAME</i></strong>``)."""
    edited = ""
    m = PSTATUS.search(message)
    if m:
        e = EDITED.search(html.unescape(_TAG.sub("", m.group(1))))
        if e:
            edited = norm_time(e.group(2))
        message = message[:m.start()] + message[m.end():]
    quote = None
    q = QUOTE_BLOCK.search(message)
    if q:
        lines = html_lines(q.group(1))
        head = QUOTE_HEAD.match(lines[0]) if lines else None
        if head:
            quote = Quote(author=head.group(1).strip(), time=norm_time(head.group(2)), lines=lines[1:])
            link = FINDPOST.search(q.group(1))
            quote.pid = link.group(1) if link else ""
        message = message[:q.start()] + "\n" + message[q.end():]
    lines = html_lines(message)
    reply_to = None
    if lines and quote is None and (r := REPLY.match(lines[0])):
        reply_to, lines = int(r.group(1)), lines[1:]
    return lines, quote, edited, reply_to


def link_quotes(posts: list[Post]) -> None:
    """Each quote's and reply's floor: the post of the forum's id it names, else the earlier post
    of the quoted author at the quoted minute (a forum shows a quote's time to the minute), as
    the pasted thread's reader does. Called on each page and again on the whole thread."""
    by_pid = {p.pid: p.floor for p in posts if p.pid}
    for k, post in enumerate(posts):
        if post.reply_to is None and post.reply_pid in by_pid:
            post.reply_to = by_pid[post.reply_pid]
        q = post.quote
        if q is not None and q.floor is None and q.pid in by_pid:
            q.floor = by_pid[q.pid]
        if q is None or q.floor is not None:
            continue
        minute = q.time[:16]
        src = next((p for p in reversed(posts[:k]) if p.author == q.author and p.time[:16] == minute), None)
        if src is not None:
            q.floor = src.floor


def floor_number(text: str) -> int | None:
    """A floor as a format writes it (``"12"``, ``12``), or None when it is none (``"-5"``,
    ``"abc"``, ``"0"``, ``""``). A number past any thread is kept as read: the vote plan refuses
    it by its range (``fm_floor``)."""
    text = str(text).strip()
    if not text.isascii() or not text.isdigit():
        return None
    digits = text.lstrip("0")
    if not digits:
        return None
    return int(digits) if len(digits) <= 10 else MAX_POST + 1  # refused by the plan, never parsed whole


def floor_label(floor: int) -> str:
    return {1: "楼主", 2: "沙发", 3: "板凳", 4: "地板"}.get(floor, f"{floor}#")


def make_post(floor: int, author: str, time: str, lines: list[str], quote: Quote | None = None,
              edited: str = "", reply_to: int | None = None, pid: str = "", reply_pid: str = "") -> Post:
    return Post(floor=floor, label=floor_label(floor), author=html.unescape(author).strip(), time=time,
                lines=lines, quote=quote, edited=edited, reply_to=reply_to, pid=pid, reply_pid=reply_pid)

