"""A thread's posts as every forum adapter gives them (``bansha_forum.adapters``): its floor,
author, time, own lines, the quote it opens with, when it was last edited. ``votes import``,
``activity`` and ``signup`` read these, whatever the forum's format.

A post an adapter finds but cannot read (its floor is ``-5`` or ``abc``, its entry is no post)
is never dropped: it is a ``Post`` with ``problem`` saying why (``unreadable``), floor 0 and its
floor as written in ``label``, and every reader refuses it by name (a refused row, a line in the
report)."""

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
    problem: str = ""                                # why it cannot be read: a word of words.py
                                                     # (``fm_bad_floor``…); floor 0, label as written

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def unreadable(label: str, author: str = "", time: str = "", problem: str = "fm_bad_floor",
               lines: list[str] | None = None) -> Post:
    """A post an adapter found and could not read, kept to be refused by name."""
    return Post(floor=0, label=label, author=author, time=time, lines=lines or [], problem=problem)


def why_unreadable(post: Post, lang: str | None = None) -> str:
    """Why ``post`` cannot be read, in the board's language ("" when it can)."""
    if not post.problem:
        return ""
    from bansha.text.messages import say

    return say(post.problem, lang, floor=post.label or "—")
