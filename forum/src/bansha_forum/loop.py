"""The director's loop in the thread: ``bansha votes import`` (the vote thread read back, each
vote checked by the engine), ``bansha post`` (the phase's thread post) and ``bansha pm`` (each
player's private message) (docs/cli.md, "A director's day").

They are declared as the kernel declares its own commands (``bansha.cli.table``: a plain command
line runs them without importing typer) in one table, ``commands``, and reach ``bansha`` through
the ``bansha.commands`` entry points ``votes``, ``post`` and ``pm``, each naming this table: the
kernel takes from it the command or group of the entry point's name (docs/plugins.md).
Heavy imports stay inside the commands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pathlib is imported where a path is read (start-up)
    from pathlib import Path

from bansha.cli.table import Argument, DbOpt, GameArg, JsonOpt, Option, Table, echo

#: the commands of this module, by name (the entry points name it: pyproject.toml)
commands = Table()
votes_app = Table(help="h_votes_app")
commands.add_group(votes_app, "votes")


def _cli():
    """The kernel's command line: its store (``_store``), JSON printer (``_json``) and one-line
    refusal (``fail``), shared by every command."""
    from bansha.cli import cli

    return cli


def _thread_posts(source: str, lang: str | None, fmt: str | None, cookies: str | None):
    """The posts of the thread ``source`` names (a file, ``-`` or a URL), in any format an
    installed adapter reads (``bansha.forums``: docs/forums.md)."""
    from .read import read_posts

    return read_posts(source, fmt=fmt, cookies=cookies, lang=lang)[0]


def _close_arg(text: str, start, lang: str | None = None):
    import datetime as dt
    import re

    from bansha.engine.model import GameError
    from bansha.text.messages import say

    t = text.strip().replace("：", ":")
    m = re.fullmatch(r"([01]?\d|2[0-3]):([0-5]\d)", t)  # 25:99 and 24:00 are no time of a day
    if m:
        return dt.datetime.combine(start.date(), dt.time(int(m.group(1)), int(m.group(2))))
    for fmt in ("%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"):
        try:
            return dt.datetime.strptime(t, fmt)
        except ValueError:
            pass
    raise GameError(say("lp_close", lang, text=text))


def _width(s: str) -> int:
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


def _pad(s: str, n: int) -> str:
    return s + " " * max(0, n - _width(s))


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(_width(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(_pad(c, widths[i]) if i < len(r) - 1 else c for i, c in enumerate(r)).rstrip() for r in rows]


@votes_app.command("import", help="h_votes_import")
def votes_import(
    game: str = GameArg,
    source: str = Argument(..., metavar="FILE|-", help="h_votes_source"),
    accept: list[int] = Option([], "--accept", help="h_votes_accept"),
    close: str = Option(None, "--close", help="h_votes_close"),
    dry_run: bool = Option(False, "--dry-run", help="h_votes_dry_run"),
    yes: bool = Option(False, "--yes", help="h_votes_yes"),
    template: Path = Option(None, "--template", help="h_template"),
    forum_format: str = Option(None, "--forum", help="h_votes_forum"),
    cookies: str = Option(None, "--cookies", help="h_votes_cookies"),
    db: str = DbOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Read a Discuz! vote thread and record its votes and changes (floor and time), each
    checked by the engine; print what is recorded, rejected (and why) and proposed."""
    from bansha.engine.model import GameError

    cli = _cli()
    seen: list[str | None] = [None]  # the board's language, once the game is loaded
    try:
        _votes_import(cli, game, source, set(accept), close, dry_run, template, db, as_json, seen,
                      forum_format, cookies, yes)
    except GameError as exc:
        cli.fail(str(exc), as_json, seen[0])


def _votes_import(cli, game, source, accept, close, dry_run, template, db, as_json, seen, forum_format=None,
                  cookies=None, yes=False):
    import datetime as dt
    import re

    from bansha.engine.board import deadline as board_deadline
    from bansha.engine.board import load_board, phase_namer
    from bansha.engine.model import GameError
    from bansha.text.messages import say

    from .votes import KIND_ZH, STATUS_ZH, plan

    store = cli._store(db)
    g = store.load(game)
    lang = seen[0] = g.lang
    if g.winner is not None:
        raise GameError(say("lp_over", lang))
    if not g.phase.vote:
        raise GameError(say("no_vote_phase", lang, label=g.named()))
    board = load_board(g.manifest.id, template, lang=lang)
    if not board.get("forum"):
        raise GameError(say("lp_no_forum", lang, ruleset=g.manifest.id))
    posts = _thread_posts(source, lang, forum_format, cookies)
    if not posts:
        raise GameError(say("lp_no_posts", lang, file=source))
    seen: dict[int, int] = {}
    readable = [p for p in posts if not p.problem]  # the others are refused rows of the plan
    for p in readable:
        if p.floor in seen:
            raise GameError(say("lp_floor_twice", lang, file=source, line=p.line_no, floor=p.floor, first=seen[p.floor]))
        seen[p.floor] = p.line_no
    opening = next((p for p in readable if p.floor == 1), None) or min(readable or posts, key=lambda p: p.time)
    if not yes:
        other_phase(g, store.events(game), posts, opening, source)
    try:
        start = dt.datetime.strptime(opening.time, "%Y-%m-%d %H:%M:%S")
    except ValueError:  # 2024-13-45 27:61:00: the thread's first post dates the phase
        raise GameError(say("lp_line", lang, file=source, line=opening.line_no,
                            why=say("fm_time", lang, time=opening.time))) from None
    deadline, late = board_deadline(board, g.phase.name, start, lang)
    if opening.floor == 1:  # the 楼主 may state the day's 关门 and its no-change hour
        m = re.search(r"关门时间\s*[:：]?\s*([01]?\d|2[0-3])[:：]([0-5]\d)", opening.text)
        if m:
            deadline = dt.datetime.combine(deadline.date() if deadline else start.date(), dt.time(int(m.group(1)), int(m.group(2))))
        m2 = re.search(r"([01]?\d|2[0-3])[:：]([0-5]\d)\s*(?:后|以后|之后)\s*不(?:允许|得|能)改票", opening.text)
        if m2 and deadline is not None:
            cut = dt.datetime.combine(deadline.date(), dt.time(int(m2.group(1)), int(m2.group(2))))
            late = max(0, int((deadline - cut).total_seconds() // 60))
    if close:
        deadline = _close_arg(close, start, lang)
    from bansha.engine.model import VoteEvent

    done = {e.post for e in store.events(game) if isinstance(e, VoteEvent) and e.post is not None
            and g.canonical(e.phase) == g.label}
    unknown = sorted(accept - {p.floor for p in posts})
    if unknown:
        raise GameError(say("lp_accept", lang, floor=unknown[0]))
    if accept:
        # --accept takes a proposal (a misspelt name where the board reads them, a post edited
        # after the deadline); a floor with none is refused saying why, not silently ignored
        proposed = {r.floor for r in plan(store.load(game), posts, board, done, set(), deadline, late)
                    if r.status == "propose"}
        idle = sorted(accept - proposed)
        if idle:
            typos = int(board.get("forum", {}).get("typos", 0))
            raise GameError(say("lp_accept_nothing" if typos else "lp_accept_no_typos", lang, floor=idle[0],
                                board=g.manifest.name))
    rows = plan(store.load(game), posts, board, done, accept, deadline, late)
    events = [r.event for r in rows if r.event is not None]
    if events and not dry_run:
        store.append_all(game, lambda _g: events)
    name = phase_namer(g, board)(g.label)
    counts = {k: sum(r.status == k for r in rows) for k in STATUS_ZH}
    if as_json:
        return cli._json({"phase": g.label, "phase_name": name, "deadline": deadline.isoformat(" ") if deadline else None,
                          "no_change_minutes": late, "recorded": 0 if dry_run else len(events), "dry_run": dry_run,
                          "posts": [r.as_dict() for r in rows]})
    echo(f"{name}投票帖：{len(posts)} 楼" + (f"，截止 {deadline:%Y-%m-%d %H:%M}" if deadline else "，截止时间未知")
               + (f"，截止前 {late} 分钟不得改票" if deadline and late else ""))
    table = [["楼层", "作者", "时间", "类型", "对象", "结果", "原因"]]
    for r in rows:
        shown = r.target
        if r.event is not None and r.event.target != r.target:
            shown = f"{r.target}→{r.event.target}"
        table.append([str(r.floor or "?"), r.author, r.time[5:16], KIND_ZH[r.kind], shown or "—", STATUS_ZH[r.status], r.reason])
    for line in _table(table):
        echo(line)
    recorded = "未写入（--dry-run）" if dry_run else f"写入 {len(events)} 票"
    echo(f"{recorded}：记录 {counts['record']}，拒绝 {counts['reject']}，待确认 {counts['propose']}，"
               f"忽略 {counts['ignore']}，已记录 {counts['done']}")


def other_phase(g, events, posts, opening, source) -> None:
    """Refuse a thread that belongs to another phase (``votes import`` without --yes): one whose
    posts are recorded already in an earlier phase (the same floor posted at the same time), one
    opened before the last vote recorded in an earlier phase, or one whose first floor (the
    director's, "第3日正午投票帖") names another day."""
    import re

    from bansha.engine.model import GameError, VoteEvent
    from bansha.text.messages import say

    lang = g.lang
    earlier = [e for e in events if isinstance(e, VoteEvent) and g.canonical(e.phase) != g.label]
    stamps = {(e.post, e.time): e.phase for e in earlier if e.post is not None and e.time}
    seen = [(p.floor, stamps[(p.floor, p.time)]) for p in posts if (p.floor, p.time) in stamps]
    if seen:
        floors = say("lv_sep", lang).join(str(f) for f, _ in seen[:5])
        raise GameError(say("vi_floors_done", lang, file=source, floors=floors, other=g.named(g.canonical(seen[0][1])),
                            label=g.named()))
    last = max((e.time for e in earlier if e.time), default="")
    if last and opening.time and opening.time < last:
        raise GameError(say("vi_time", lang, file=source, floor=opening.floor, time=opening.time, label=g.named(), start=last))
    m = re.search(r"第\s*(\d+)\s*[天日]", opening.text) if opening.floor == 1 else None
    if m and not g.phase.opening and int(m.group(1)) != g.day:
        raise GameError(say("vi_day", lang, file=source, day=m.group(1), label=g.named()))


def _phase_of(cli, game: str, phase: str | None, template, db, seen):
    """What `post` and `pm` both start from: the replayed game with what was told in each
    phase, its events, the board file and the phase asked for (default: the last resolved).
    ``seen[0]``: the board's language, for the refusal's ``错误：``."""
    from bansha.engine.board import load_board
    from bansha.engine.history import pick_phase, replay

    store = cli._store(db)
    events = store.events(game)
    g, told = replay(store.setup(game), events)
    seen[0] = g.lang
    return g, events, told, load_board(g.manifest.id, template, lang=g.lang), pick_phase(g, phase)


def post(
    game: str = GameArg,
    phase: str = Option(None, "--phase", help="h_post_phase"),
    fmt: str = Option("bbcode", "--format", help="h_post_format"),
    template: Path = Option(None, "--template", help="h_post_template"),
    db: str = DbOpt,
    as_json: bool = Option(False, "--json", help="h_post_json"),
) -> None:
    """The phase's thread post: title, deaths, last words, votes, announcements, seats, deadline."""
    cli = _cli()
    from bansha.engine.model import GameError

    from . import posts

    seen: list[str | None] = [None]
    try:
        g, events, told, board, label = _phase_of(cli, game, phase, template, db, seen)
        data = posts.build(g, events, board, label, told)
        if as_json:
            return cli._json(data)
        echo(posts.render_post(data, fmt, g.lang), nl=False)
    except GameError as exc:
        cli.fail(str(exc), as_json, seen[0])


def pm(
    game: str = GameArg,
    phase: str = Option(None, "--phase", help="h_pm_phase"),
    player: str = Option(None, "--player", help="h_pm_player"),
    fmt: str = Option("text", "--format", help="h_pm_format"),
    every: bool = Option(False, "--all", help="h_pm_all"),
    to: bool = Option(False, "--to", help="h_pm_to"),
    template: Path = Option(None, "--template", help="h_template"),
    db: str = DbOpt,
    as_json: bool = Option(False, "--json", help="h_pm_json"),
) -> None:
    """Each player's private message (短消息) for the phase, one block per recipient."""
    cli = _cli()
    from bansha.engine.model import GameError
    from bansha.text.messages import say

    from . import posts

    seen: list[str | None] = [None]
    try:
        g, events, told, board, label = _phase_of(cli, game, phase, template, db, seen)
        if fmt not in ("text", "bbcode", "json"):  # refused even when nobody is sent anything
            raise GameError(say("ps_format_pm", g.lang, fmt=fmt))
        blocks = posts.pms(g, board, label, told, player, corrections=_corrections(told, g, label, phase is None), everyone=every)
        if as_json or fmt == "json":
            return cli._json(blocks)
        if not blocks:  # said, not an empty output the director may take for a failure
            who = g.find_name(player) if player else None
            echo(say("ps_no_pms_player" if who else "ps_no_pms", g.lang, label=g.named(label), name=who), err=True)
            return
        echo(posts.render_pms(blocks, fmt, g.lang, to=to), nl=False)
    except GameError as exc:
        cli.fail(str(exc), as_json, seen[0])


def _corrections(told, game, label, default: bool):
    """The amendments' corrections to send with the PMs of ``label``: those of the amendments of
    ``label`` (wherever written), those written while it was current, and by default (no
    --phase) those written since it closed; each line once (``posts.pms``)."""
    fix: dict[str, dict[str, list]] = {}
    parts = [told.get(label, {}).get("amended", {}), told.get(label, {}).get("corrections", {})]
    if default and game.label != label:
        parts.append(told.get(game.label, {}).get("corrections", {}))
    for part in parts:
        for name, d in part.items():
            slot = fix.setdefault(name, {"removed": [], "added": []})
            slot["removed"] = list(dict.fromkeys(slot["removed"] + d["removed"]))
            slot["added"] = list(dict.fromkeys(slot["added"] + d["added"]))
    return fix


def register_commands(app) -> None:
    app.command("post", help="h_post")(post)
    app.command("pm", help="h_pm")(pm)


commands.command("post", help="h_post")(post)
commands.command("pm", help="h_pm")(pm)
