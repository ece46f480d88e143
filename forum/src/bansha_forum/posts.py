"""The phase's thread post and each player's private message (``bansha post``, ``bansha pm``),
laid out by the board file's ``[post]`` and ``[pm]`` tables (docs/manifests.md, "Board
templates"), as Discuz! BBCode, Markdown or plain text.

What a post holds is what the rules announced in the phase (its announcement lines, sorted
into last words, deaths, the vote and the rest), the phase's public vote record (the votes were
posted in the thread) and the seats; a PM holds only that player's own feedback. Every text a
player wrote or a director typed (names, last words) is escaped, so that it cannot open or
close a tag of the post.
"""

from __future__ import annotations

import re
from typing import Any

from bansha.engine.history import (
    final_votes,
    next_label,
    not_counted_as_cast,
    out_since,
    phase_line,
    played,
    tally,
)
from bansha.engine.model import GameError

# one escaping for every post: the forum export's (the kernel's views.py)
from bansha.show.views import escape_bbcode, escape_md
from bansha.text.messages import join, say

#: the BBCode tags a post uses: every one is a tag Discuz! supports
DISCUZ_TAGS = ("b", "i", "u", "color", "size", "align", "table", "tr", "td", "quote", "list", "hr", "*")


def _pattern(template: str, fields: dict[str, str]) -> re.Pattern:
    """A regular expression matching what ``template`` gives with each field as its pattern."""
    parts = re.split(r"(\{\w+\})", template)
    out = []
    for part in parts:
        m = re.fullmatch(r"\{(\w+)\}", part)
        out.append(fields.get(m.group(1), ".*?") if m else re.escape(part))
    return re.compile("^" + "".join(out) + "$")


def carried_into(game, board: dict[str, Any], label: str) -> str | None:
    """The phase whose post publishes what ``label`` told, when the board's ``[post.carry]``
    says so (M217: > 夜晚期间需要公示的内容全部在下一个白天开始时公布 — ``dawn = ["night"]``)."""
    base, _, num = label.partition(" ")
    for into, froms in board["post"].get("carry", {}).items():
        if base in froms and num:
            return f"{into} {num}"
    return None


def carried(game, board: dict[str, Any], label: str) -> list[str]:
    """The phases whose lines the post of ``label`` publishes: those it carries (played, in
    the order played), then its own."""
    base, _, num = label.partition(" ")
    froms = board["post"].get("carry", {}).get(base, [])
    seq = played(game)
    before = seq[:seq.index(label)] if label in seq else seq
    return [x for x in before if num and x.partition(" ")[2] == num and x.partition(" ")[0] in froms] + [label]


def last_words_lines(game, board: dict[str, Any], label: str, told: dict[str, dict[str, Any]], lw: re.Pattern) -> list[str] | None:
    """With ``last_words = "with_exit"`` (七杀·侠: > 夜晚出局玩家有一次遗言的机会 … 遗言 12:50～20:00, before
    the day's discussion): the last words of those who left in ``label``, recorded since
    (published with a later phase, or recorded and not yet published). None: the board
    publishes last words with the phase they were recorded in."""
    if board["post"].get("last_words") != "with_exit":
        return None
    left = set(game.out.get(label, []))
    lines = [line for t in told.values() for line in t.get("announcement", [])] + list(game.held)
    out = []
    for line in dict.fromkeys(lines):
        m = lw.match(line)
        if m and m.group("who") in left:
            out.append(line)
    return out


def build(game, events, board: dict[str, Any], label: str, told: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The post's parts: title, sections (heading, lines or rows), in the board's order."""
    from bansha.engine.board import board_day, phase_namer

    name = phase_namer(game, board)
    post = board["post"]
    into = carried_into(game, board, label)
    if into is not None:
        raise GameError(say("ps_carried", game.lang, phase=name(label), into=name(into)))
    texts = game.manifest.texts
    names = "|".join(sorted(map(re.escape, game.players), key=len, reverse=True)) or "(?!)"
    person = f"(?:{names})"
    lw = _pattern(game.manifest.last_words.text, {"name": f"(?P<who>{names})", "text": ".*"})
    labels = carried(game, board, label)
    gone = [n for x in labels for n in game.out.get(x, [])]
    died = "|".join(map(re.escape, gone)) or "(?!)"
    deaths = [_pattern(t, {"name": f"(?:{died})", "identity": ".*?"}) for t in (texts.out, texts.voted_out)]
    if texts.exits_split:  # a phase's exits in one line, by cause (M217's 黄昏)
        deaths.append(_pattern(texts.exits_split, {"voted": ".*?", "other": ".*?"}))
    counts = _pattern(texts.counts, {"name": person, "count": r"[\d.]+"})
    # the count is printed only where the rules make it public ([vote] show_counts): a board
    # asking for every count on a board that hides them names the top only
    mode = post.get("vote_counts", "all")
    if mode == "all" and not game.manifest.vote.show_counts:
        mode = "top"
    with_exit = last_words_lines(game, board, label, told, lw)
    sections: dict[str, list[str]] = {k: [] for k in ("last_words", "deaths", "votes", "announcements")}
    for line in [x for lab in labels for x in told.get(lab, {}).get("announcement", [])]:
        if lw.match(line):
            if with_exit is None:
                sections["last_words"].append(line)
        elif any(p.match(line) for p in deaths):
            sections["deaths"].append(line)
        elif counts.match(line):
            if mode == "all":
                sections["votes"].append(line)
        else:
            sections["announcements"].append(line)
    if with_exit is not None:
        sections["last_words"] = with_exit
    # the public vote record: the votes were posted in the thread
    record = post.get("vote_record", "final")
    votes: list[str] = []
    if record != "none":
        # a vote the count did not take as posted is marked (the count beside it is the engine's)
        marks = {"void": "（不计）", "changed": "（被改变）"}
        counted_as = not_counted_as_cast(game, label)
        for e in final_votes(game, events, label):
            where = f"（{e.post}#）" if e.post else ("（代投）" if e.proxy else "")
            votes.append(f"{e.voter} → {e.target}{where}{marks.get(counted_as.get(e.voter), '')}")
    counted = tally(game, label)
    if mode == "top" and counted:
        # > 每天的投票内容公开，但投票计数隐藏，将只宣布当天谁是最高票 (M217): the top, never its count
        top = counted[0][1]
        votes.append(say("ps_top", game.lang, names="、".join(n for n, c in counted if c == top)))
    elif mode == "all" and counted and not sections["votes"]:
        votes += [texts.counts.format(name=n, count=c) for n, c in counted]
    sections["votes"] = votes + sections["votes"]
    since = out_since(game, label)
    seats = [[str(p.seat), p.name, "存活" if p.name not in since else f"出局（{name(since[p.name])}）"]
             for p in sorted(game.players.values(), key=lambda p: p.seat)]
    nxt = next_label(game, label)
    deadline: list[str] = []
    if game.winner is not None and (nxt is None or label in (game.label, game.resolved[-1])):
        deadline.append("游戏结束。")
    elif nxt is not None:
        spec = game.ruleset.phase(nxt.partition(" ")[0])
        note = board.get("clock", {}).get(spec.name, {}).get("note", "")
        deadline.append(name(nxt) + (f"：{note}" if note else ""))
    # an amendment written since this phase closed: the thread is told what it changes
    fixes = dict(told.get(label, {}).get("thread_corrections") or {"removed": [], "added": []})
    if label == (game.resolved[-1] if game.resolved else None) and game.label != label:
        later = told.get(game.label, {}).get("thread_corrections") or {}
        fixes = {"removed": fixes["removed"] + later.get("removed", []), "added": fixes["added"] + later.get("added", [])}
    correction = [f"撤回：{phase_line(name, x)}" for x in fixes["removed"]] + [f"更正为：{phase_line(name, x)}" for x in fixes["added"]]
    parts = []
    headings = post.get("headings", {})
    if correction and "corrections" not in post.get("sections", []):
        parts.append({"key": "corrections", "heading": headings.get("corrections", "更正"), "lines": correction})
    for key in post.get("sections", []):
        if key == "seats":
            parts.append({"key": key, "heading": headings.get(key, key), "rows": seats})
        elif key == "deadline":
            if deadline:
                parts.append({"key": key, "heading": headings.get(key, key), "lines": deadline})
        elif key == "corrections":
            if correction:
                parts.append({"key": key, "heading": headings.get(key, "更正"), "lines": correction})
        elif key in sections:
            if sections[key]:
                parts.append({"key": key, "heading": headings.get(key, key), "lines": sections[key]})
        else:
            known = join(["corrections", "last_words", "deaths", "votes", "announcements", "seats", "deadline"], game.lang)
            raise GameError(say("ps_section", game.lang, key=key, known=known))
    title = post["title"].format(board=game.manifest.name, phase=name(label), day=board_day(game, label))
    return {"phase": label, "phase_name": name(label), "title": title, "sections": parts}


SEAT_HEAD = ["座位", "名字", "状态"]


def render_post(data: dict[str, Any], fmt: str, lang: str | None = None) -> str:
    if fmt == "bbcode":
        e = escape_bbcode
        out = [f"[align=center][size=5][b]{e(data['title'])}[/b][/size][/align]", "[hr]"]
        for s in data["sections"]:
            out.append(f"[b][color=#8b0000]{e(s['heading'])}[/color][/b]")
            if "rows" in s:
                out.append("[table]")
                out.append("[tr]" + "".join(f"[td][b]{c}[/b][/td]" for c in SEAT_HEAD) + "[/tr]")
                out += ["[tr]" + "".join(f"[td]{e(c)}[/td]" for c in row) + "[/tr]" for row in s["rows"]]
                out.append("[/table]")
            elif s["key"] == "last_words":
                out += [f"[quote]{e(line)}[/quote]" for line in s["lines"]]
            else:
                out.append("[list]")
                out += [f"[*]{e(line)}" for line in s["lines"]]
                out.append("[/list]")
        return "\n".join(out) + "\n"
    if fmt == "md":
        e = escape_md
        out = [f"# {e(data['title'])}"]
        for s in data["sections"]:
            out += ["", f"## {e(s['heading'])}", ""]
            if "rows" in s:
                out += ["| " + " | ".join(SEAT_HEAD) + " |", "| --- | --- | --- |"]
                out += ["| " + " | ".join(e(c) for c in row) + " |" for row in s["rows"]]
            elif s["key"] == "last_words":
                out += [f"> {e(line)}" for line in s["lines"]]
            else:
                out += [f"- {e(line)}" for line in s["lines"]]
        return "\n".join(out) + "\n"
    if fmt == "text":
        out = [data["title"], ""]
        for s in data["sections"]:
            out.append(f"【{s['heading']}】")
            if "rows" in s:
                out += ["  ".join(row) for row in [SEAT_HEAD, *s["rows"]]]
            else:
                out += s["lines"]
            out.append("")
        return "\n".join(out).rstrip() + "\n"
    raise GameError(say("ps_format_post", lang, fmt=fmt))


# ------------------------------------------------------------------------------- the PMs


def pms(game, board: dict[str, Any], label: str, told: dict[str, dict[str, Any]], player: str | None = None,
        corrections: dict[str, dict] | None = None, everyone: bool = False) -> list[dict[str, Any]]:
    """Each player's private message for the phase: their own feedback lines only.
    ``corrections``: name -> {"removed": [...], "added": [...]} of an amendment."""
    from bansha.engine.board import phase_namer

    name = phase_namer(game, board)(label)
    pm = board["pm"]
    who = [game.player(player)] if player else sorted(game.players.values(), key=lambda p: p.seat)
    out = []
    for p in who:
        lines = told.get(label, {}).get("feedback", {}).get(p.name, [])
        lines = lines + [x for x in told.get(label, {}).get("group", {}).get(p.name, []) if x not in lines]
        fix = (corrections or {}).get(p.name)
        if fix:
            namer = phase_namer(game, board)
            # each corrected line once (two amendments, or one written and one amended phase)
            fix = {k: list(dict.fromkeys(phase_line(namer, x) for x in v)) for k, v in fix.items()}
            if not fix["removed"] and not fix["added"]:
                fix = None
        if not lines and not fix and not (everyone or player):
            continue
        out.append({"player": p.name, "seat": p.seat, "phase": label, "phase_name": name,
                    "title": pm["title"].format(board=game.manifest.name, phase=name, name=p.name, seat=p.seat),
                    "greeting": pm["greeting"].format(name=p.name, seat=p.seat, phase=name, board=game.manifest.name),
                    "lines": lines, "empty": pm.get("empty", ""), "correction": fix})
    return out


def render_pms(blocks: list[dict[str, Any]], fmt: str, lang: str | None = None, to: bool = False) -> str:
    """The PMs as they are pasted: each block the message only (title, greeting, correction,
    lines). ``to``: a recipient line first (``--to``); the recipient is always a field of
    ``--json``. Blocks are separated by a blank line (text) or ``[hr]`` (BBCode)."""
    out: list[str] = []
    for b in blocks:
        fix = b.get("correction")
        if fmt == "bbcode":
            e = escape_bbcode
            if to:
                out.append(f"[b]{e(say('ps_to', lang, name=b['player']))}[/b]")
            out += [f"[b]{e(b['title'])}[/b]", e(b["greeting"])]
            if fix:
                out.append("[b][color=#8b0000]更正[/color][/b]")
                out += ["[list]", *[f"[*]撤回：{e(x)}" for x in fix["removed"]],
                        *[f"[*]更正为：{e(x)}" for x in fix["added"]], "[/list]"]
            out += [e(x) for x in b["lines"]] or [e(b["empty"])]
            out.append("[hr]")
        elif fmt == "text":
            if to:
                out.append(say("ps_to", lang, name=b["player"]))
            out += [b["title"], b["greeting"]]
            if fix:
                out.append("【更正】")
                out += [f"撤回：{x}" for x in fix["removed"]] + [f"更正为：{x}" for x in fix["added"]]
            out += b["lines"] or [b["empty"]]
            out.append("")
        else:
            raise GameError(say("ps_format_pm", lang, fmt=fmt))
    return "\n".join(out).rstrip() + "\n" if out else ""


def check_bbcode(text: str) -> list[str]:
    """Problems of a BBCode text: a tag Discuz! does not support, or tags not balanced."""
    problems = []
    stack: list[str] = []
    for m in re.finditer(r"\[(/?)([a-z*]+)(=[^\]]*)?\]", text):
        close, tag = m.group(1), m.group(2)
        if tag not in DISCUZ_TAGS:
            problems.append(f"unsupported tag {tag}")
            continue
        if tag in ("*", "hr"):
            continue
        if not close:
            stack.append(tag)
        elif not stack or stack.pop() != tag:
            problems.append(f"unbalanced [/{tag}]")
    problems += [f"unclosed [{t}]" for t in stack]
    return problems


def demo_post(game) -> None:
    """``bansha demo``'s last lines (the ``bansha.demo`` entry point): the demo's last phase as
    ``bansha post`` lays it out (text; ``--format bbcode`` in a game)."""
    from bansha.cli.table import echo
    from bansha.engine.board import load_board
    from bansha.engine.history import replay

    g, told = replay(game.setup, list(game.applied))
    board = load_board(g.manifest.id)
    # the last phase announced that has a post of its own (M217's night is the 晨曦's)
    label = next((k for k in reversed(told) if told[k]["announcement"] and carried_into(g, board, k) is None), None)
    if label is None:
        return
    echo(f"\n--- bansha post GAME --phase '{g.named(label)}' --format text")  # the label every command takes
    echo(render_post(build(g, list(game.applied), board, label, told), "text"), nl=False)
