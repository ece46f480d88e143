"""The votes a thread holds, checked by the engine (``bansha votes import``): what a post's
own text votes for (``read_vote``, by the board file's ``[forum]`` words) and what each post
comes to (``plan``). Nothing here writes: ``plan`` replays the votes on a live game to learn
what the engine refuses, and the command stores what it accepts.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from bansha.engine.model import MAX_POST, GameError, VoteEvent
from bansha.text.messages import say

from .thread import Post, why_unreadable


@dataclass
class Row:
    floor: int              # 0: a post whose floor cannot be read (its reason says it as written)
    author: str
    time: str
    kind: str = ""          # "vote" | "change" | ""
    target: str = ""        # as written
    status: str = ""        # record | reject | propose | ignore | done
    reason: str = ""
    event: VoteEvent | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"floor": self.floor or None, "author": self.author, "time": self.time, "kind": self.kind, "target": self.target,
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
    from bansha.door.names import clean, fold

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
        if post.problem:  # a post that cannot be read (its floor is "-5"): refused by name, never dropped
            row.status, row.reason = "reject", why_unreadable(post, game.lang)
            continue
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
        try:
            posted = dt.datetime.strptime(post.time, "%Y-%m-%d %H:%M:%S")
        except ValueError:  # 2024-13-45 27:61:00: the thread was edited by hand
            row.status, row.reason = "reject", say("fm_time", game.lang, time=post.time)
            continue
        if not 1 <= post.floor <= MAX_POST:
            row.status, row.reason = "reject", say("fm_floor", game.lang, floor=post.label)
            continue
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
