"""A Discuz! X thread as a director copies it from the page (``docs/cli.md``, "The vote
thread"): the kernel's reader of pasted text, as an adapter. It takes any text, so it is
tried last."""

from __future__ import annotations

from bansha.forum import parse_thread

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
