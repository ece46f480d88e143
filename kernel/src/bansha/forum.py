"""The forum: a Discuz! vote thread read back from the text of its page, and the votes it
holds checked by the engine (``bansha votes import``). The board file is board.py.

A thread as copied from a Discuz! X page (docs/cli.md, "The vote thread"):

    AUTHOR
    发表于 2024-5-6 09:12:40 | 只看该作者
    沙发                                   (楼主, 沙发, 板凳, 地板, then N#)
    the post's text …
    NAME 发表于 2024-5-6 09:30             (a quoted post: its header, then its first lines)
    quoted lines …

Nothing here writes: ``plan`` replays the votes on a live game to learn what the engine
refuses, and the command stores what it accepts.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

# the board file lives in board.py; its names stay importable from here
from .board import (  # noqa: E402,F401
    DEFAULT_BOARD,
    WEEKDAYS,
    board_file,
    deadline,
    load_board,
    parse_phase_arg,
    phase_namer,
)
from .messages import say
from .model import GameError, VoteEvent

# ---------------------------------------------------------------------------- the thread

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
    return int(re.match(r"\d+", label).group())


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

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


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


# ------------------------------------------------------------------------------ the votes

@dataclass
class Row:
    floor: int
    author: str
    time: str
    kind: str = ""          # "vote" | "change" | ""
    target: str = ""        # as written
    status: str = ""        # record | reject | propose | ignore | done
    reason: str = ""
    event: VoteEvent | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"floor": self.floor, "author": self.author, "time": self.time, "kind": self.kind, "target": self.target,
                "status": self.status, "reason": self.reason,
                "recorded": None if self.event is None else {"voter": self.event.voter, "target": self.event.target,
                                                              "change": self.event.change, "late": self.event.late}}


def read_vote(post: Post, forum: dict[str, Any]) -> tuple[str, str | None, str]:
    """(kind, target, problem) of a post's own text: kind "" when it holds no vote."""
    text = post.text.replace("：", ":").replace("\u3000", " ")
    keys = {k: "vote" for k in forum.get("vote", [])} | {k: "change" for k in forum.get("change", [])}
    keys |= {k: "reason" for k in [*forum.get("vote_reason", []), *forum.get("change_reason", [])]}
    if not keys:
        return "", None, ""
    pattern = re.compile("(" + "|".join(map(re.escape, sorted(keys, key=len, reverse=True))) + r")\s*:?\s*")
    found: dict[str, list[str]] = {"vote": [], "change": []}
    marks = list(pattern.finditer(text))
    for n, m in enumerate(marks):
        end = marks[n + 1].start() if n + 1 < len(marks) else len(text)
        value = text[m.end():end].split("\n", 1)[0].strip().strip("。，,.!！?？;；、 ")
        kind = keys[m.group(1)]
        if kind in found:
            found[kind].append(value.lstrip("@＠").strip())
    kind = "change" if found["change"] else "vote" if found["vote"] else ""
    if not kind:
        return "", None, ""
    values = found[kind]
    if any(not v for v in values):
        return kind, None, f"格式有误：{forum[kind][0]}为空"
    if len(set(values)) > 1:
        return kind, None, f"格式有误：{len(values)}个不同的{forum[kind][0]}（{'、'.join(values)}）"
    return kind, values[0], ""


def near(a: str, b: str) -> int:
    """Edit distance of two short names (substitution, insertion, deletion)."""
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def plan(game, posts: list[Post], board: dict[str, Any], done: set[int], accept: set[int],
         close: dt.datetime | None, late_minutes: int) -> list[Row]:
    """What the thread's posts come to, in floor order, each vote checked by the engine on
    ``game`` (applied to it when accepted: pass a game loaded for this purpose)."""
    forum = board.get("forum") or {}
    abstain_words = set(forum.get("abstain", [])) | {game.manifest.vote.abstain}
    typos = int(forum.get("typos", 0))
    rows: list[Row] = []
    mine: dict[str, list[int]] = {}  # author -> floors of their votes (recorded now or before)
    floors = {p.floor: p for p in posts}
    late_from = close - dt.timedelta(minutes=late_minutes) if close is not None and late_minutes else None
    from .names import clean, fold

    # the 楼主 is the director: their post naming a player after a `proxy` word is that player's
    # vote, entered for them (代投; > 允许玩家以其他方式联系导演请求代投 … 导演…发出代投信息)
    opening = floors.get(1)
    director = fold(opening.author) if opening is not None else None
    proxy_words = [w for w in forum.get("proxy", []) if w]
    proxy_line = re.compile("(?:" + "|".join(map(re.escape, proxy_words)) + r")\s*[:：]?\s*(?:玩家)?\s*[@＠]?([^\s:：,，。]+)") \
        if proxy_words else None
    for post in sorted(posts, key=lambda p: p.floor):
        row = Row(floor=post.floor, author=post.author, time=post.time)
        rows.append(row)
        kind, target, problem = read_vote(post, forum)
        row.kind, row.target = kind, target or ""
        # names as on the command line: cleaned (zero-width, BOM) and folded (full width)
        proxy = False
        author = game.find_name(clean(post.author))
        if author not in game.players and director is not None and fold(post.author) == director \
                and post.floor != 1 and proxy_line is not None and kind:
            m = proxy_line.search(post.text.replace("\u3000", " "))
            if m:
                author, proxy = game.find_name(clean(m.group(1))), True
                row.reason = f"导演代投：{author}"
        if target:
            target = game.find_name(clean(target))
        post_author = author
        if post.floor in done:
            row.status, row.reason = "done", "此楼已记录"
            mine.setdefault(post_author, []).append(post.floor)
            continue
        if post.floor == 1:
            row.status, row.reason = "ignore", "楼主（导演的开帖）"
            row.kind, row.target = "", ""  # its format example is no vote
            continue
        if not kind:
            row.status, row.reason = "ignore", "帖中没有投票"
            continue
        if problem:
            row.status, row.reason = "reject", problem
            continue
        if post_author not in game.players:
            row.status, row.reason = "reject", f"{post_author}不是玩家"
            continue
        if not game.players[post_author].alive:
            row.status, row.reason = "reject", f"{post_author}已出局，不是存活玩家"
            continue
        posted = dt.datetime.strptime(post.time, "%Y-%m-%d %H:%M:%S")
        if close is not None and posted > close:
            row.status, row.reason = "reject", f"发帖于 {post.time[5:16]}，晚于截止时间 {close:%m-%d %H:%M}"
            continue
        if close is not None and post.edited and post.edited > f"{close:%Y-%m-%d %H:%M:%S}" and post.floor not in accept:
            # what the page shows now may not be what stood at the deadline: the director decides
            row.status = "propose"
            row.reason = f"截止后编辑过（{post.edited[5:16]}），现在的内容未必是截止时的：确认请加 --accept {post.floor}"
            continue
        if kind == "change" and forum.get("change_must_quote", True):
            quoted = post.quote.floor if post.quote is not None else post.reply_to
            if quoted is None and post.quote is None:
                row.status, row.reason = "reject", "改票未引用原投票楼层"
                continue
            src = floors.get(quoted) if quoted is not None else None
            if src is None:
                who = post.quote.author if post.quote is not None else "?"
                row.status, row.reason = "reject", f"引用的帖子（{who} {post.quote.time[5:16] if post.quote else ''}）不在帖中"
                continue
            if game.find_name(clean(src.author)) != post_author:
                row.status, row.reason = "reject", f"引用的是{src.author}的{src.floor}楼，不是{post_author}自己的投票"
                continue
            if src.floor not in mine.get(post_author, []):
                row.status, row.reason = "reject", f"引用的{src.floor}楼没有{post_author}已记录的投票"
                continue
        name = target
        if name in abstain_words:
            name = game.manifest.vote.abstain
        elif name not in game.players and len(parts := [x for x in re.split(r"[、,，/／和\s]+", name) if x]) > 1 \
                and all(x in game.players for x in parts):
            row.status, row.reason = "reject", f"格式有误：一票投了{len(parts)}人（{'、'.join(parts)}）"
            continue
        elif name not in game.players:
            close_names = sorted(n for n in game.players if near(n, name) == 1)
            typo = [n for n in close_names if len(n) == len(name)] if typos else []
            if len(typo) == 1 and post.floor in accept:
                name = typo[0]
                row.reason = f"错别字 {target} 按 {name} 记录（--accept）"
            elif len(typo) == 1:
                row.status = "propose"
                row.reason = f"没有玩家{target}：是{typo[0]}的错别字？确认请加 --accept {post.floor}"
                continue
            else:
                row.status = "reject"
                hint = f"（本版不接受错别字：{'、'.join(close_names)}？）" if close_names else ""
                row.reason = f"没有玩家{target}{hint}"
                continue
        late = late_from is not None and posted >= late_from
        ev = VoteEvent(phase=game.label, voter=post_author, target=name, post=post.floor, change=kind == "change",
                       late=late, time=post.time, proxy=proxy)
        if kind == "vote" and mine.get(post_author):
            # a second vote post: the thread's change format, not the command line's --change
            row.status, row.reason = "reject", say("lp_voted_already", game.lang, name=post_author,
                                                   change=(forum.get("change") or ["改票对象"])[0])
            continue
        try:
            game.apply(ev)
        except GameError as exc:
            row.status, row.reason = "reject", str(exc)
            continue
        row.status, row.event = "record", ev
        if late and not row.reason:
            row.reason = "关门前一小时内"
        mine.setdefault(post_author, []).append(post.floor)
    return rows


STATUS_ZH = {"record": "记录", "reject": "拒绝", "propose": "待确认", "ignore": "忽略", "done": "已记录"}
KIND_ZH = {"vote": "投票", "change": "改票", "": "—"}
