"""A thread's posts as every forum adapter gives them (``bansha_forum.adapters``): its floor,
author, time, own lines, the quote it opens with, when it was last edited. ``votes import``,
``activity`` and ``signup`` read these, whatever the forum's format."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Quote:
    author: str
    time: str          # minute precision, as Discuz! shows it ("2024-05-06 09:30:00")
    lines: list[str] = field(default_factory=list)
    floor: int | None = None  # the quoted post, when found in the thread
    pid: str = ""             # the forum's id of the quoted post, where a format gives it


@dataclass
class Post:
    floor: int
    label: str
    author: str
    time: str
    lines: list[str] = field(default_factory=list)   # its own text, quotes left out
    quote: Quote | None = None
    reply_to: int | None = None                      # "回复 N# NAME"
    line_no: int = 0                                 # where its header is in the pasted text
    edited: str = ""                                 # when it was last edited ("本帖最后由 … 编辑"), if known
    pid: str = ""                                    # the forum's own id of the post, where a format gives it
    reply_pid: str = ""                              # the id of the post it replies to, not yet a floor
    author_uid: str = ""                             # the author's account (Discuz!'s authorid), where a format gives it

    @property
    def text(self) -> str:
        return "\n".join(self.lines)
