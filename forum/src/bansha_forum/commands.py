"""``bansha activity`` and ``bansha signup``: the thread counted where it lives (entry points in
``bansha.commands``; imported only when typed, or for the list of ``bansha --help``).

- ``activity GAME SOURCE``: posts and characters per player since the phase opened, who has not
  posted (the prod list: fewer posts than the board's ``forum.prod_posts``, default 1), votes
  edited after the deadline, posts by people who are not players; ``--format bbcode`` for the
  thread, ``--json``.
- ``signup SOURCE --ruleset ID``: the players who signed up in a 报名 thread, in floor order, the
  seats the board deals first and the rest (and whoever signed as 替补) as substitutes; each name
  checked as ``bansha new`` checks it; written as a roster file ``bansha new --players FILE``
  reads, and the 座位表 post printed from it.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import typer
from bansha.cli.help import App
from bansha.cli.table import path_of
from bansha.door.files import os_why
from bansha.text.messages import extend, say

from .thread import why_unreadable

extend({
    "h_activity": ("帖子里每个玩家本阶段的发帖数和字数、没有发帖的玩家（催帖名单）、截止后编辑过的投票",
                   "each player's posts and characters in the thread this phase, who has not posted (the prod list), votes edited after the deadline"),
    "h_signup": ("从报名帖读出报名的玩家（按楼层顺序，含替补），检查名字，写成名单文件，并给出座位表",
                 "the players who signed up in a sign-up thread (in floor order, with substitutes), names checked, written as a roster file, with the seat post"),
    "h_fm_source": ("帖子：文件、- 表示标准输入，或帖子的地址（http://…）", "the thread: a file, - for stdin, or its address (http://…)"),
    "h_fm_game": ("游戏名", "game name"),
    "h_fm_since": ("从这个时间起计算（YYYY-MM-DD HH:MM）；默认：楼主发帖的时间", "count from this time (YYYY-MM-DD HH:MM); default: the opening post's"),
    "h_fm_format": ("输出格式：text 或 bbcode", "output format: text or bbcode"),
    "h_fm_forum": ("帖子的论坛格式；默认：自动识别", "the thread's forum format; default: recognised"),
    "h_fm_cookies": ("论坛登录后的 cookie 文件", "a logged-in cookie file"),
    "h_fm_ruleset": ("规则（报名的座位数和名字规则）", "the ruleset (its seats and name rules)"),
    "h_fm_out": ("写出的名单文件（bansha new --players FILE 读取）", "the roster file to write (read by bansha new --players FILE)"),
    "h_fm_seats": ("座位数；默认：规则的座位数", "seats; default: the ruleset's"),
    "h_fm_db": ("游戏数据库：SQLite 文件或 postgresql:// 地址", "game database: a SQLite file or a postgresql:// URL"),
    "h_fm_json": ("输出 JSON", "print JSON"),
    "fm_format": ("--format {value}：应为 text 或 bbcode", "--format {value}: expected text or bbcode"),
    "fm_since": ("--since {value}：应为 YYYY-MM-DD HH:MM", "--since {value}: expected YYYY-MM-DD HH:MM"),
    "fm_seats": ("--seats {value}：应为 1 到 200 之间的整数", "--seats {value}: expected a whole number from 1 to 200"),
    "fm_no_signups": ("{source}：帖子里没有人报名（报名帖写“{word}”）", "{source}: nobody signed up (a sign-up post says “{word}”)"),
    "fm_bad_signup": ("{floor}楼 {name}：{why}", "floor {floor}, {name}: {why}"),
    "act_title": ("{phase} 发帖统计（自 {since}）", "{phase}: posts since {since}"),
    "act_head": ("玩家|发帖|字数|最后发帖", "player|posts|characters|last post"),
    "act_prod": ("催帖（本阶段发帖少于 {n} 帖）：{names}", "to prod (fewer than {n} posts this phase): {names}"),
    "act_nobody": ("无", "nobody"),
    "act_edited": ("截止后编辑过的投票：{rows}", "votes edited after the deadline: {rows}"),
    "act_strangers": ("非玩家发帖：{names}", "posts by non-players: {names}"),
    "act_out": ("（出局）", " (out)"),
    "su_title": ("报名 {n} 人，座位 {seats} 个", "{n} signed up for {seats} seats"),
    "su_seats": ("座位表", "seats"),
    "su_subs": ("替补：{names}", "substitutes: {names}"),
    "su_wrote": ("名单已写入 {file}（bansha new GAME --ruleset {ruleset} --players {file}）",
                 "roster written to {file} (bansha new GAME --ruleset {ruleset} --players {file})"),
    "su_skipped": ("未收：{rows}", "not taken: {rows}"),
    "su_seat": ("{seat}号 {name}", "seat {seat}: {name}"),
    "su_withdrew": ("已取消报名", "withdrew"),
    "su_twice": ("重复报名", "signed up twice"),
})

SIGNUP_WORDS = ("报名",)
SUBSTITUTE_WORDS = ("替补",)
WITHDRAW_WORDS = ("取消报名", "退出报名", "不报了")


def _when(text: str):
    """A post's stored time, or None when it is no real one (``2024-13-45 27:61:00``)."""
    try:
        return dt.datetime.strptime(text, "%Y-%m-%d %H:%M:%S")
    except (TypeError, ValueError):
        return None


def _fail(exc, as_json: bool, lang) -> None:
    from bansha.cli.cli import fail

    fail(str(exc), as_json, lang)


def _chars(post) -> int:
    """A post's own characters, quotes left out and blanks not counted (字数统计)."""
    return sum(len(re.sub(r"\s+", "", line)) for line in post.lines)


activity = App()


@activity.command(help="h_activity")
def activity_command(
    game: str = typer.Argument(..., help="h_fm_game"),
    source: str = typer.Argument(..., metavar="FILE|-|URL", help="h_fm_source"),
    since: str = typer.Option(None, "--since", help="h_fm_since"),
    fmt: str = typer.Option("text", "--format", help="h_fm_format"),
    forum_format: str = typer.Option(None, "--forum", help="h_fm_forum"),
    cookies: str = typer.Option(None, "--cookies", help="h_fm_cookies"),
    db: str = typer.Option(None, "--db", envvar="BANSHA_DB", help="h_fm_db"),
    as_json: bool = typer.Option(False, "--json", help="h_fm_json"),
) -> None:
    """Posts and characters per player since the phase opened; the prod list; late edits."""
    from bansha.engine.model import GameError

    lang = [None]
    try:
        _activity(game, source, since, fmt, forum_format, cookies, db, as_json, lang)
    except GameError as exc:
        _fail(exc, as_json, lang[0])


def activity_report(g, posts, board, since: dt.datetime | None):
    """What ``activity`` shows, as data: per seat its posts, characters and last post since
    ``since`` (default: the opening post's time), the prod list, late edits, strangers."""
    from bansha.door.names import fold

    from .votes import read_vote

    by_fold = {fold(name): name for name in g.players}
    opening = next((p for p in posts if p.floor == 1), None)
    # an opening without a real time (2024-13-45 27:61:00 pasted, "" from an adapter): no start
    start = since or (_when(opening.time) if opening else None)
    from bansha.engine.board import deadline

    close, _late = deadline(board, g.phase.name, start, g.lang) if start else (None, 0)
    rows = {name: {"player": name, "seat": p.seat, "alive": p.alive, "posts": 0, "chars": 0, "last": ""}
            for name, p in g.players.items()}
    strangers: list[str] = []
    edited = []
    unreadable = [{"floor": post.label, "author": post.author, "why": why_unreadable(post, g.lang)}
                  for post in posts if post.problem]  # said in the report, never counted nor dropped
    for post in posts:
        if post.floor == 1 or not post.time or post.problem:
            continue  # the 楼主: the director's opening
        t = _when(post.time)
        if t is None:
            continue  # no real time: neither early nor late
        if start is not None and t < start:
            continue
        name = by_fold.get(fold(post.author))
        if name is None:
            if post.author not in strangers:
                strangers.append(post.author)
            continue
        row = rows[name]
        row["posts"] += 1
        row["chars"] += _chars(post)
        row["last"] = max(row["last"], post.time)
        kind, _target, _problem = read_vote(post, board.get("forum") or {})
        if kind and close is not None and post.edited and post.edited > f"{close:%Y-%m-%d %H:%M:%S}":
            edited.append({"floor": post.floor, "player": name, "edited": post.edited})
    need = int((board.get("forum") or {}).get("prod_posts", 1))
    listed = sorted(rows.values(), key=lambda r: r["seat"])
    prod = [r["player"] for r in listed if r["alive"] and r["posts"] < need]
    return {"since": f"{start:%Y-%m-%d %H:%M}" if start else None, "deadline": f"{close:%Y-%m-%d %H:%M}" if close else None,
            "players": listed, "prod": prod, "prod_posts": need, "edited_after_deadline": edited, "strangers": strangers,
            "unreadable": unreadable}


def _activity(game, source, since, fmt, forum_format, cookies, db, as_json, lang):
    from bansha.cli.cli import _json, _store
    from bansha.engine.board import load_board, phase_namer
    from bansha.engine.model import GameError

    from .read import read_posts

    if fmt not in ("text", "bbcode"):
        raise GameError(say("fm_format", None, value=fmt))
    start = None
    if since is not None:
        try:
            start = dt.datetime.strptime(since.strip().replace("：", ":"), "%Y-%m-%d %H:%M")
        except ValueError:
            raise GameError(say("fm_since", None, value=since)) from None
    g = _store(db).load(game)
    lang[0] = g.lang
    board = load_board(g.manifest.id, None, lang=g.lang)
    posts, _name, _title = read_posts(source, fmt=forum_format, cookies=cookies, lang=g.lang)
    report = activity_report(g, posts, board, start)
    report["phase"] = phase_namer(g, board)(g.label)
    if as_json:
        return _json(report)
    for line in render_activity(report, fmt, g.lang):
        typer.echo(line)


def render_activity(report, fmt: str, lang=None) -> list[str]:
    head = say("act_head", lang).split("|")
    rows = [[r["player"] + ("" if r["alive"] else say("act_out", lang)), str(r["posts"]), str(r["chars"]), r["last"][5:16] or "—"]
            for r in report["players"]]
    title = say("act_title", lang, phase=report["phase"], since=report["since"] or "—")
    prod = say("act_prod", lang, n=report["prod_posts"], names="、".join(report["prod"]) or say("act_nobody", lang))
    extra = []
    if report["edited_after_deadline"]:
        extra.append(say("act_edited", lang, rows="、".join(f"{e['floor']}楼 {e['player']}（{e['edited'][5:16]}）"
                                                           for e in report["edited_after_deadline"])))
    if report["strangers"]:
        extra.append(say("act_strangers", lang, names="、".join(report["strangers"])))
    if report.get("unreadable"):
        extra.append(say("fm_unreadable_posts", lang, rows="；".join(f"{u['author'] or '—'}：{u['why']}" for u in report["unreadable"])))
    if fmt == "bbcode":
        from bansha.show.views import escape_bbcode

        out = [f"[b]{escape_bbcode(title)}[/b]", "[table]"]
        out += ["[tr]" + "".join(f"[td]{escape_bbcode(c)}[/td]" for c in row) + "[/tr]" for row in [head, *rows]]
        return [*out, "[/table]", escape_bbcode(prod), *map(escape_bbcode, extra)]
    from bansha.door.names import pad, width

    cols = [max(width(r[i]) for r in [head, *rows]) for i in range(len(head))]
    return [title, *("  ".join(pad(c, cols[i]) for i, c in enumerate(r)).rstrip() for r in [head, *rows]), prod, *extra]


signup = App()


@signup.command(help="h_signup")
def signup_command(
    source: str = typer.Argument(..., metavar="FILE|-|URL", help="h_fm_source"),
    ruleset: str = typer.Option(..., "--ruleset", help="h_fm_ruleset"),
    out: Path = typer.Option(None, "--out", help="h_fm_out", parser=path_of),
    seats: int = typer.Option(None, "--seats", help="h_fm_seats"),
    fmt: str = typer.Option("text", "--format", help="h_fm_format"),
    forum_format: str = typer.Option(None, "--forum", help="h_fm_forum"),
    cookies: str = typer.Option(None, "--cookies", help="h_fm_cookies"),
    as_json: bool = typer.Option(False, "--json", help="h_fm_json"),
) -> None:
    """The players of a sign-up thread, as a roster file and a seat post."""
    from bansha.engine.model import GameError

    lang = [None]
    try:
        _signup(source, ruleset, out, seats, fmt, forum_format, cookies, as_json, lang)
    except GameError as exc:
        _fail(exc, as_json, lang[0])


def signups(posts, seats: int, reserved=(), lang=None):
    """(players, substitutes, not taken, {name: forum uid}) of a sign-up thread (the uid: the
    post's author's account, where the thread's format gives it — Discuz!'s ``authorid``): each post after the 楼主 that says
    报名 signs its author up (替补: as a substitute), in floor order; 取消报名 takes a name back;
    the first ``seats`` players sit, the later ones are substitutes after those who asked to be."""
    from bansha.door.names import check_name, fold
    from bansha.engine.model import GameError

    signed: dict[str, tuple[str, bool, int]] = {}  # fold -> (name, substitute, floor)
    uids: dict[str, str] = {}  # name -> the author's forum uid, where the format gives it
    skipped = []
    for post in sorted(posts, key=lambda p: p.floor):
        if post.problem:  # a post that cannot be read signs nobody up, and says so if it would have
            if any(w in post.text for w in (*SIGNUP_WORDS, *SUBSTITUTE_WORDS, *WITHDRAW_WORDS)):
                skipped.append({"floor": None, "name": post.author, "why": why_unreadable(post, lang)})
            continue
        if post.floor == 1:
            continue
        text = post.text
        if any(w in text for w in WITHDRAW_WORDS):
            gone = signed.pop(fold(post.author), None)
            if gone is not None:
                skipped.append({"floor": post.floor, "name": gone[0], "why": say("su_withdrew", lang)})
            continue
        sub = any(w in text for w in SUBSTITUTE_WORDS)
        if not sub and not any(w in text for w in SIGNUP_WORDS):
            continue
        try:
            name = check_name(post.author, "what_player", lang, reserved=reserved)
        except GameError as exc:
            skipped.append({"floor": post.floor, "name": post.author, "why": str(exc)})
            continue
        if fold(name) in signed:
            skipped.append({"floor": post.floor, "name": name, "why": say("su_twice", lang)})
            continue
        signed[fold(name)] = (name, sub, post.floor)
        if post.author_uid:
            uids[name] = post.author_uid
    order = sorted(signed.values(), key=lambda v: v[2])
    players = [n for n, sub, _ in order if not sub][:seats]
    subs = [n for n, sub, _ in order if not sub][seats:] + [n for n, sub, _ in order if sub]
    return players, subs, skipped, uids


def _signup(source, ruleset, out, seats, fmt, forum_format, cookies, as_json, lang):
    from bansha.cli.cli import _json
    from bansha.door.names import reserved_of
    from bansha.engine.model import GameError
    from bansha.engine.registry import find_manifest, ruleset_for

    from .read import read_posts

    rs = ruleset_for(find_manifest(ruleset))
    lang[0] = rs.lang
    if fmt not in ("text", "bbcode"):
        raise GameError(say("fm_format", rs.lang, value=fmt))
    tables = sorted(t.seats for t in rs.manifest.tables)
    if seats is not None and not 1 <= seats <= 200:
        raise GameError(say("fm_seats", rs.lang, value=seats))
    want = seats or (tables[-1] if tables else 200)
    posts, _name, _title = read_posts(source, fmt=forum_format, cookies=cookies, lang=rs.lang)
    players, subs, skipped, uids = signups(posts, want, reserved_of(rs.manifest), rs.lang)
    if not players:
        raise GameError(say("fm_no_signups", rs.lang, source=source, word=SIGNUP_WORDS[0]))
    if out is not None:
        # each seat's line carries its forum uid (bansha new binds it to the seat: forum push sends it PMs)
        text = "\n".join(f"{n} uid={uids[n]}" if n in uids else n for n in players) + "\n" + \
            "".join(f"## 替补：{n}" + (f" uid={uids[n]}" if n in uids else "") + "\n" for n in subs)
        try:
            out.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise GameError(say("lp_cannot_read", rs.lang, file=out, why=os_why(exc, rs.lang))) from None
    if as_json:
        return _json({"ruleset": rs.manifest.id, "seats": want, "players": players, "substitutes": subs, "uids": uids,
                      "not_taken": skipped, "roster": str(out) if out else None})
    lines = [say("su_title", rs.lang, n=len(players), seats=want)]
    seat_lines = [say("su_seat", rs.lang, seat=i, name=n) for i, n in enumerate(players, 1)]
    if fmt == "bbcode":
        from bansha.show.views import escape_bbcode

        lines += [f"[b]{say('su_seats', rs.lang)}[/b]", *map(escape_bbcode, seat_lines)]
    else:
        lines += [say("su_seats", rs.lang) + "：", *("  " + s for s in seat_lines)]
    if subs:
        lines.append(say("su_subs", rs.lang, names="、".join(subs)))
    if skipped:
        lines.append(say("su_skipped", rs.lang, rows="；".join(f"{s['floor'] or '?'}楼 {s['name']}：{s['why']}" for s in skipped)))
    if out is not None:
        lines.append(say("su_wrote", rs.lang, file=out, ruleset=rs.manifest.id))
    for line in lines:
        typer.echo(line)
