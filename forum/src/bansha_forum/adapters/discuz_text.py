"""A Discuz! X thread as a director copies it from the page (``docs/cli.md``, "The vote
thread"): its reader (``parse_thread``), and the adapter that reads with it. It takes any text,
so it is tried last.

A thread as copied from a Discuz! X page:

    AUTHOR
    发表于 2024-5-6 09:12:40 | 只看该作者
    沙发                                   (楼主, 沙发, 板凳, 地板, then N#)
    the post's text …
    NAME 发表于 2024-5-6 09:30             (a quoted post: its header, then its first lines)
    quoted lines …
"""

from __future__ import annotations

import re

from bansha.engine.model import MAX_POST

from ..thread import Post, Quote
from .base import EDITED, Adapter, Page, norm_time


class DiscuzText(Adapter):
    name = "discuz-text"
    label = "Discuz! 帖子（复制的文字）"
    order = 90

    def sniff(self, text: str) -> bool:
        return True  # any text: a file without a post is then said as such ("没有找到帖子")

    def parse(self, text: str) -> Page:
        posts = parse_thread(text)
        # an edited post's "本帖最后由 … 于 … 编辑" line is dropped by the reader as noise; find
        # it again between the post's header and the next one
        lines = text.splitlines()
        for k, post in enumerate(posts):
            end = posts[k + 1].line_no - 1 if k + 1 < len(posts) else len(lines)
            for line in lines[post.line_no:end]:
                m = EDITED.search(line)
                if m:
                    post.edited = norm_time(m.group(2))
        return Page(posts=posts)


adapter = DiscuzText()


# ---------------------------------------------------------------------------- the reader

FLOOR_NAMES = {"楼主": 1, "沙发": 2, "板凳": 3, "地板": 4}
TIME = r"(\d{4})-(\d{1,2})-(\d{1,2})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?"
POST_HEADER = re.compile(rf"^(?:(楼主|沙发|板凳|地板|\d+\s*#)\s*)?发表于\s*{TIME}(.*)$")
QUOTE_HEADER = re.compile(rf"^(.+?)\s+发表于\s*{TIME}\s*(?:\.\.\.|…)?\s*$")
REPLY_HEADER = re.compile(r"^回复\s*(\d+)\s*#\s*(\S+)")
FLOOR_LINE = re.compile(r"^(楼主|沙发|板凳|地板|(\d+)\s*[#楼])$")
NOISE = re.compile(
    r"^(本帖最后由\s.*编辑|回复|举报|回复\s*举报|支持\s*反对|支持|反对|评分|使用道具|收藏|分享|点评|"
    r"显示全部楼层|倒序浏览|阅读模式|电梯直达|只看该作者|打印|上一主题|下一主题|返回列表|\[复制链接\]|"
    r"查看[:：]\s*\d+\s*\|\s*回复[:：]\s*\d+|来自\s*.*客户端|.*来自手机.*|收起理由|发帖|回复\s*\d+#.*举报)$")


def _time(groups) -> str:
    y, mo, d, h, mi, s = groups
    return f"{int(y):04d}-{int(mo):02d}-{int(d):02d} {int(h):02d}:{int(mi):02d}:{int(s or 0):02d}"


def _floor(label: str) -> int:
    label = label.strip()
    if label in FLOOR_NAMES:
        return FLOOR_NAMES[label]
    digits = re.match(r"\d+", label).group().lstrip("0") or "0"
    return int(digits) if len(digits) <= 10 else MAX_POST + 1  # refused by the plan, never parsed whole


def _norm(line: str) -> str:
    return re.sub(r"\s+", "", line.replace("：", ":")).rstrip(".…")


def parse_thread(text: str) -> list[Post]:
    """Every post of a pasted Discuz! thread, in floor order. A line "发表于 TIME" (with
    "| 只看该作者" and the like after it) heads a post; its author is the line before it,
    its floor the line after it (or a floor label on the header line itself)."""
    raw = [line.strip().replace("\u3000", " ") for line in text.splitlines()]
    heads = []
    for i, line in enumerate(raw):
        m = POST_HEADER.match(line)
        if not m:
            continue
        heads.append((i, m))
    posts: list[Post] = []
    for k, (i, m) in enumerate(heads):
        j = i - 1
        while j >= 0 and (not raw[j] or NOISE.match(raw[j])):
            j -= 1
        author = raw[j] if j >= 0 else ""
        end = heads[k + 1][0] if k + 1 < len(heads) else len(raw)
        if k + 1 < len(heads):  # the next post's author line is not this post's text
            e = end - 1
            while e > i and (not raw[e] or NOISE.match(raw[e])):
                e -= 1
            end = e
        body_start = i + 1
        label = m.group(1) or ""
        rest_floor = re.search(r"(楼主|沙发|板凳|地板|\d+\s*#)\s*$", m.group(8) or "")
        if not label and rest_floor:
            label = rest_floor.group(1)
        if not label:
            b = body_start
            while b < end and not raw[b]:
                b += 1
            if b < end and FLOOR_LINE.match(raw[b]):
                label, body_start = raw[b], b + 1
        floor = _floor(label) if label else (posts[-1].floor + 1 if posts else 1)
        post = Post(floor=floor, label=label or f"{floor}#", author=author, time=_time(m.groups()[1:7]), line_no=i + 1)
        body = raw[body_start:end]
        _read_body(post, body, posts)
        posts.append(post)
    return posts


def _read_body(post: Post, body: list[str], earlier: list[Post]) -> None:
    i = 0
    while i < len(body):
        line = body[i]
        if not line or NOISE.match(line):
            i += 1
            continue
        r = REPLY_HEADER.match(line)
        if r and post.reply_to is None and post.quote is None:
            post.reply_to = int(r.group(1))
            i += 1
            continue
        q = QUOTE_HEADER.match(line)
        if q and post.quote is None:
            quote = Quote(author=q.group(1).strip(), time=_time(q.groups()[1:7]))
            minute = quote.time[:16]
            src = next((p for p in reversed(earlier) if p.author == quote.author and p.time[:16] == minute), None)
            i += 1
            if src is not None:
                quote.floor = src.floor
                want = [_norm(x) for x in src.lines if x]
                k = 0
                while i < len(body) and k < len(want):
                    got = _norm(body[i])
                    if not got:
                        i += 1
                        continue
                    if got == want[k] or (got and want[k].startswith(got)):
                        quote.lines.append(body[i])
                        i += 1
                        k += 1
                    else:
                        break
            else:  # a post not in the pasted text: its quoted lines run to the first change line
                while i < len(body) and body[i] and not re.match(r"^改票", _norm(body[i])):
                    quote.lines.append(body[i])
                    i += 1
            post.quote = quote
            continue
        post.lines.append(line)
        i += 1
