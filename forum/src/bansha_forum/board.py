"""The forum layer's tables of the board file (docs/manifests.md): ``[forum]`` (the vote formats
the thread's posts are read by), ``[post]`` (the thread post's layout) and ``[pm]`` (the PMs'),
each declared to the kernel in the ``bansha.board_sections`` entry-point group: its schema, its
default table and the fields each of its templates may name. ``load_board`` gives them merged
over these defaults, and ``check_board`` checks a board file's against these schemas."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from bansha.engine.board import BoardSection

#: the thread post's sections, in the order a board may list them
SECTIONS = ("corrections", "last_words", "deaths", "votes", "announcements", "seats", "deadline")
Section = Literal["corrections", "last_words", "deaths", "votes", "announcements", "seats", "deadline"]


class Forum(msgspec.Struct, forbid_unknown_fields=True):
    vote: list[str] = []
    vote_reason: list[str] = []
    change: list[str] = []
    change_reason: list[str] = []
    abstain: list[str] = []
    change_must_quote: bool = True
    typos: Annotated[int, msgspec.Meta(ge=0, le=1)] = 0
    #: bansha-forum's ``activity``: fewer posts than this in a phase is a player to prod (docs/forums.md)
    prod_posts: Annotated[int, msgspec.Meta(ge=0, le=100000)] = 1
    #: the director's 代投 line's words (docs/manifests.md)
    proxy: list[str] = []


class Post(msgspec.Struct, forbid_unknown_fields=True):
    title: str = ""
    sections: list[Section] = []
    vote_record: Literal["final", "none"] = "final"
    vote_counts: Literal["all", "top", "none"] = "all"
    #: where last words go: "" (the post of the phase they were published in) or "with_exit"
    last_words: Literal["", "with_exit"] = ""
    #: <phase> = [<phases>]: the phases whose telling this phase's post carries
    carry: dict[str, list[str]] = {}
    headings: dict[Section, str] = {}
    #: the phases (by id) whose post opens a thread of its own instead of a reply in the game's
    #: thread (``["night"]``: the night's post opens the day's vote thread); ``thread_title``
    #: is that thread's subject
    new_thread: list[str] = []
    thread_title: str = ""


class PM(msgspec.Struct, forbid_unknown_fields=True):
    title: str = ""
    greeting: str = ""
    empty: str = ""


#: a board file without a ``[forum]`` table reads no votes from the thread (``votes import``
#: refuses, loop.py): its ``forum`` is empty, not the defaults (a board without a file has them)
FORUM_TABLE = BoardSection(
    Forum,
    {"vote": ["投票对象"], "vote_reason": ["投票理由"], "change": ["改票对象"], "change_reason": ["改票理由"],
     "abstain": ["弃权"], "change_must_quote": True, "typos": 0, "proxy": ["代投"]},
    absent={})
POST_TABLE = BoardSection(
    Post,
    {"title": "【{board}】{phase}公告", "sections": ["last_words", "deaths", "votes", "announcements", "seats", "deadline"],
     "vote_record": "final", "vote_counts": "all",
     "headings": {"last_words": "遗言", "deaths": "出局", "votes": "投票记录", "announcements": "公告",
                  "seats": "座位表", "deadline": "下一阶段"},
     "new_thread": [], "thread_title": "【{board}】{next}投票帖"},
    {"title": ("board", "phase", "day"), "thread_title": ("board", "phase", "day", "next")})
PM_TABLE = BoardSection(
    PM,
    {"title": "【{board}】{phase} 私信", "greeting": "致 {name}（{seat}号）：", "empty": "本阶段没有给你的消息。"},
    {"title": ("board", "phase", "name", "seat"), "greeting": ("board", "phase", "name", "seat")})
