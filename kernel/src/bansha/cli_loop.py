"""The director's loop on the command line: ``votes import``, ``post``, ``pm``, ``act --file``,
``undo --to`` (docs/cli.md, "A director's day"). Registered on the ``bansha`` app by ``cli.py``;
heavy imports stay inside the commands."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pathlib is imported where a path is read (start-up)
    from pathlib import Path

from .cli_table import Argument, DbOpt, GameArg, JsonOpt, Option, Table, echo

votes_app = Table(help="h_votes_app")


class _Helpers:
    """What the loop's commands share with ``cli.py``: its store, JSON printer and one-line
    error (given at registration: this module never imports ``cli``)."""

    def __init__(self, store=None, echo_json=None, fail=None):
        self._store, self._json, self.fail = store, echo_json, fail


_HELPERS = _Helpers()


def _cli() -> _Helpers:
    return _HELPERS


def _read_input(source: str, lang: str | None = None) -> str:
    from .files import MAX_BYTES, read_bytes
    from .messages import say
    from .model import GameError

    if source == "-":
        data = sys.stdin.buffer.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise GameError(say("file_too_big", lang, file="-", max=MAX_BYTES // 1024 // 1024))
    else:
        data = read_bytes(source, lang)
    for enc in ("utf-8-sig", "gb18030"):  # a page saved by an older Discuz! is GBK
        try:
            return data.decode(enc)
        except UnicodeDecodeError:
            continue
    raise GameError(say("lp_encoding", lang, file=source))


def _thread_posts(source: str, lang: str | None, fmt: str | None, cookies: str | None):
    """The posts of the thread ``source`` names. With a forum distribution installed (an adapter
    in ``bansha.forums``, such as bansha-forum's: docs/forums.md), any format it reads, from a
    file, ``-`` or a URL; without one, the pasted Discuz! text of a file or ``-``."""
    from .entrypoints import entry_points
    from .forum import parse_thread

    eps = entry_points("bansha.forums")
    if eps:  # every adapter reads a thread with all the installed ones (bansha_forum.adapters.base)
        return eps[0].load().read_thread(source, fmt=fmt, cookies=cookies, lang=lang)
    if fmt is not None or cookies is not None or source.startswith(("http://", "https://")):
        from .messages import say
        from .model import GameError

        raise GameError(say("lp_no_forums", lang))
    return parse_thread(_read_input(source, lang))


def _close_arg(text: str, start, lang: str | None = None):
    import datetime as dt
    import re

    from .messages import say
    from .model import GameError

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
    cli = _cli()
    seen: list[str | None] = [None]  # the board's language, once the game is loaded
    try:
        _votes_import(cli, game, source, set(accept), close, dry_run, template, db, as_json, seen,
                      forum_format, cookies, yes)
    except cli_error() as exc:
        cli.fail(str(exc), as_json, seen[0])


def cli_error():
    from .model import GameError

    return GameError


def _votes_import(cli, game, source, accept, close, dry_run, template, db, as_json, seen, forum_format=None,
                  cookies=None, yes=False):
    import datetime as dt
    import re

    from . import forum
    from .messages import say
    from .model import GameError

    store = cli._store(db)
    g = store.load(game)
    lang = seen[0] = g.lang
    if g.winner is not None:
        raise GameError(say("lp_over", lang))
    if not g.phase.vote:
        raise GameError(say("no_vote_phase", lang, label=g.named()))
    board = forum.load_board(g.manifest.id, template, lang=lang)
    if not board.get("forum"):
        raise GameError(say("lp_no_forum", lang, ruleset=g.manifest.id))
    posts = _thread_posts(source, lang, forum_format, cookies)
    if not posts:
        raise GameError(say("lp_no_posts", lang, file=source))
    seen: dict[int, int] = {}
    for p in posts:
        if p.floor in seen:
            raise GameError(say("lp_floor_twice", lang, file=source, line=p.line_no, floor=p.floor, first=seen[p.floor]))
        seen[p.floor] = p.line_no
    opening = next((p for p in posts if p.floor == 1), None) or min(posts, key=lambda p: p.time)
    if not yes:
        other_phase(g, store.events(game), posts, opening, source)
    try:
        start = dt.datetime.strptime(opening.time, "%Y-%m-%d %H:%M:%S")
    except ValueError:  # 2024-13-45 27:61:00: the thread's first post dates the phase
        raise GameError(say("lp_line", lang, file=source, line=opening.line_no,
                            why=say("fm_time", lang, time=opening.time))) from None
    deadline, late = forum.deadline(board, g.phase.name, start, lang)
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
    from .model import VoteEvent

    done = {e.post for e in store.events(game) if isinstance(e, VoteEvent) and e.post is not None
            and g.canonical(e.phase) == g.label}
    unknown = sorted(accept - {p.floor for p in posts})
    if unknown:
        raise GameError(say("lp_accept", lang, floor=unknown[0]))
    rows = forum.plan(store.load(game), posts, board, done, accept, deadline, late)
    events = [r.event for r in rows if r.event is not None]
    if events and not dry_run:
        store.append_all(game, lambda _g: events)
    name = forum.phase_namer(g, board)(g.label)
    counts = {k: sum(r.status == k for r in rows) for k in forum.STATUS_ZH}
    if as_json:
        return cli._json({"phase": g.label, "phase_name": name, "deadline": deadline.isoformat(" ") if deadline else None,
                          "no_change_minutes": late, "recorded": 0 if dry_run else len(events), "dry_run": dry_run,
                          "posts": [r.as_dict() for r in rows]})
    echo(f"{name}（{g.label}）投票帖：{len(posts)} 楼" + (f"，截止 {deadline:%Y-%m-%d %H:%M}" if deadline else "，截止时间未知")
               + (f"，截止前 {late} 分钟不得改票" if deadline and late else ""))
    table = [["楼层", "作者", "时间", "类型", "对象", "结果", "原因"]]
    for r in rows:
        shown = r.target
        if r.event is not None and r.event.target != r.target:
            shown = f"{r.target}→{r.event.target}"
        table.append([str(r.floor), r.author, r.time[5:16], forum.KIND_ZH[r.kind], shown or "—", forum.STATUS_ZH[r.status], r.reason])
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

    from .messages import say
    from .model import GameError, VoteEvent

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


def register(app, store, echo_json, fail) -> None:
    global _HELPERS
    _HELPERS = _Helpers(store, echo_json, fail)
    app.add_group(votes_app, "votes")
    app.command("amend", help="h_amend")(amend)
    register_commands(app)


def _phase_of(cli, game: str, phase: str | None, template, db, seen):
    """What `post` and `pm` both start from: the replayed game with what was told in each
    phase, its events, the board file and the phase asked for (default: the last resolved).
    ``seen[0]``: the board's language, for the refusal's ``错误：``."""
    from . import forum, posts

    store = cli._store(db)
    events = store.events(game)
    g, told = posts.replay(store.setup(game), events)
    seen[0] = g.lang
    return g, events, told, forum.load_board(g.manifest.id, template, lang=g.lang), posts.pick_phase(g, phase)


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
    from . import posts
    from .model import GameError

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
    from . import posts
    from .messages import say
    from .model import GameError

    seen: list[str | None] = [None]
    try:
        g, events, told, board, label = _phase_of(cli, game, phase, template, db, seen)
        if fmt not in ("text", "bbcode", "json"):  # refused even when nobody is sent anything
            raise GameError(say("ps_format_pm", g.lang, fmt=fmt))
        blocks = posts.pms(g, board, label, told, player, corrections=_corrections(told, g, label, phase is None), everyone=every)
        if as_json or fmt == "json":
            return cli._json(blocks)
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


# ------------------------------------------------------------------------- act --file


def read_actions(path: Path, lang: str | None = None) -> list[tuple[int, dict]]:
    """A phase's actions from a file, each with its line: a TOML file with the scenario
    files' ``actions`` list (``actor``, ``skill``, ``targets``, ``args``, ``phase``,
    ``withdraw``), or a CSV of ``actor,skill,targets,args`` (targets separated by spaces,
    ``;`` or ``、``; args ``K=V`` separated by ``;``; an optional header; ``#`` comments).
    Refusals are said in ``lang``, the board's."""
    import csv
    import io
    import re

    from .files import parse_toml, read_text
    from .messages import join, say
    from .model import GameError

    def at(line, message, **fields):  # a refusal naming the file and the line
        return GameError(say("lp_line", lang, file=path, line=line, why=say(message, lang, **fields)))

    text = read_text(path, lang)  # at most MAX_BYTES, UTF-8, a BOM dropped
    out: list[tuple[int, dict]] = []
    if path.suffix.lower() == ".toml":
        data = parse_toml(text, str(path), lang)
        extra = set(data) - {"actions"}
        if extra or not isinstance(data.get("actions"), list):
            found = say("lp_found", lang, keys=join(sorted(extra), lang)) if extra else ""
            raise GameError(say("lp_actions_list", lang, file=path, found=found))
        lines = [text[:m.start()].count("\n") + 1 for m in re.finditer(r"(?m)(?:^|[{,\s])actor\s*=", text)]
        allowed = {"actor", "skill", "targets", "args", "phase", "withdraw"}
        for i, a in enumerate(data["actions"]):
            line = lines[i] if i < len(lines) else 0
            if not isinstance(a, dict):
                raise at(line, "lp_action_table")
            bad = set(a) - allowed
            if bad:
                raise at(line, "lp_action_key", key=sorted(bad)[0], keys=join(sorted(allowed), lang))
            if not a.get("actor") or not a.get("skill"):
                raise at(line, "lp_action_needs")
            if (not isinstance(a.get("targets", []), list) or not isinstance(a.get("args", {}), dict)
                    or not all(isinstance(t, str) for t in a.get("targets", []))
                    or not all(isinstance(a[k], str) for k in ("actor", "skill", "phase") if k in a)
                    or not isinstance(a.get("withdraw", False), bool)
                    or not all(isinstance(v, str | int) and not isinstance(v, bool) for v in a.get("args", {}).values())):
                raise at(line, "lp_action_types")
            out.append((line, a))
        return out
    try:
        rows = list(csv.reader(io.StringIO(text)))
    except csv.Error:  # a field past csv's limit, a NUL byte
        raise GameError(say("lp_csv_bad", lang, file=path)) from None
    for n, row in enumerate(rows, start=1):
        cells = [c.strip() for c in row]
        if not any(cells) or cells[0].startswith("#"):
            continue
        if n == 1 and [c.lower() for c in cells[:2]] == ["actor", "skill"]:
            continue
        if len(cells) < 2 or not cells[0] or not cells[1] or len(cells) > 4:
            raise at(n, "lp_csv_fields", count=len(cells))
        targets = [t for t in re.split(r"[\s;；、]+", cells[2]) if t] if len(cells) > 2 else []
        args: dict = {}
        for pair in (re.split(r"[;；]", cells[3]) if len(cells) > 3 else []):
            if not pair.strip():
                continue
            k, sep, v = pair.strip().partition("=")
            if not sep or not k:
                raise at(n, "lp_csv_arg", pair=pair.strip())
            args[k.strip()] = int(v) if re.fullmatch(r"-?\d{1,18}", v.strip()) else v.strip()
        out.append((n, {"actor": cells[0], "skill": cells[1], "targets": targets, "args": args}))
    return out


def act_file(game: str, path: Path, db, as_json: bool) -> None:
    """``bansha act GAME --file F``: every action of the file, all or nothing."""
    cli = _cli()
    from .messages import say
    from .model import ActEvent, GameError, UnactEvent

    lang = None
    try:
        store = cli._store(db)
        g = store.load(game)  # first: the file's refusals are said in the board's language
        lang = g.lang
        entries = read_actions(path, lang)
        if not entries:
            raise GameError(say("lp_no_action", lang, file=path))

        def event(g, a):
            if a.get("withdraw"):
                return UnactEvent(phase=a.get("phase") or g.label, actor=a["actor"], skill=a["skill"])
            return ActEvent(phase=a.get("phase") or g.label, actor=a["actor"], skill=a["skill"],
                            targets=[str(t) for t in a.get("targets", [])], args=dict(a.get("args", {})))

        refused = []
        for line, a in entries:  # every refusal, each named by its line, before anything is written
            try:
                g.apply(event(g, a))
            except GameError as exc:
                refused.append(say("lp_refused_line", lang, line=line, actor=a["actor"], skill=a["skill"], why=exc))
        if refused:
            raise GameError(say("lp_nothing_recorded", lang, file=path, refusals=say("lp_sep", lang).join(refused)))
        label = g.label
        g, mark = store.append_all(game, lambda g: [event(g, a) for _, a in entries])
        fb, ann = g.since(mark)
        if as_json:
            return cli._json({"recorded": [a for _, a in entries], "feedback": fb, "announcement": ann, "winner": g.winner})
        named = g.named  # phases as the board names them
        for _, a in entries:
            text = " ".join([a["actor"], a["skill"], *map(str, a.get("targets", []))])
            echo(say("l_withdrawn", lang, text=text, label=named(g.canonical(a.get("phase") or label))) if a.get("withdraw")
                 else say("l_recorded", lang, text=text))
        for name, lines in fb.items():
            for line in lines:
                echo(f"  [{name}] {line}")
        for t in ann:
            echo(f"  {say('l_public', lang)} {t}")
        echo(say("l_acts_recorded", lang, count=len(entries), label=named(label)))
    except GameError as exc:
        cli.fail(str(exc), as_json, lang)


# --------------------------------------------------------------------------- amend, undo --to

def amend(
    game: str = GameArg,
    kind: str = Argument(..., metavar="act|unact|vote", help="h_amend_kind"),
    words: list[str] = Argument(None, metavar="…", help="h_amend_words"),
    phase: str = Option(..., "--phase", help="h_amend_phase"),
    play: int = Option(0, "--play", help="h_amend_play"),
    arg: list[str] = Option([], "--arg", help="h_amend_arg"),
    post: int = Option(None, "--post", help="h_amend_post"),
    change: bool = Option(False, "--change", help="h_amend_change"),
    proxy: bool = Option(False, "--proxy", help="h_amend_proxy"),
    late: bool = Option(False, "--late", help="h_amend_late"),
    yes: bool = Option(False, "--yes", help="h_amend_yes"),
    db: str = DbOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Correct a closed phase: insert or withdraw an input and replay everything after it.
    Prints, per player, the feedback lines removed and added, the announcement lines removed
    and added and who is alive differently; --yes writes it as an amendment event."""
    from .messages import say
    from .model import ActEvent, GameError, UnactEvent, VoteEvent

    words = words or []
    shapes = {"act": (2, None), "unact": (2, 2), "vote": (2, 2)}

    def make(label, lang=None):
        from .model import MAX_POST

        if post is not None and not 1 <= post <= MAX_POST:
            raise GameError(say("post_number", lang, post=post))
        if kind not in shapes:
            raise GameError(say("lp_amend_kind", lang, kind=kind))
        lo, hi = shapes[kind]
        if len(words) < lo or (hi is not None and len(words) > hi):
            raise GameError(say("lp_amend_shape", lang, kind=kind, want=say(f"lp_want_{kind}", lang)))
        if kind == "act":
            return ActEvent(phase=label, actor=words[0], skill=words[1], targets=words[2:], args=_kv(arg, lang))
        if kind == "unact":
            return UnactEvent(phase=label, actor=words[0], skill=words[1])
        return VoteEvent(phase=label, voter=words[0], target=words[1], post=post, change=change, proxy=proxy, late=late)

    _amend({"game": game, "phase": phase, "db": db, "play": play}, make, yes, as_json)


def _kv(pairs, lang=None):
    import re

    from .messages import say
    from .model import GameError

    out = {}
    for pair in pairs:
        k, sep, v = pair.partition("=")
        if not sep or not k:
            raise GameError(say("kv_expected", lang, flag="--arg", pair=pair))
        out[k] = int(v) if re.fullmatch(r"-?\d{1,18}", v) else v  # longer: text (the store holds 64 bits)
    return out


def amendment(g, phase: str, make, play: int = 0):
    """The amendment of the closed phase ``phase`` (as a director types it) whose input is
    ``make(label)``, applied to ``g`` (a private copy: it changes; a refused amendment raises
    the engine's GameError), and what it changes (``posts.amend_diff``): ``(AmendEvent with
    its record, label, diff)``. ``play``: which play of a phase a rewind played more than once
    (0: the one that stands, the last); the event names it whenever there were several, so
    that the log says which. ``bansha amend`` and the web console's amend share it."""
    from . import posts
    from .board import parse_phase_arg
    from .model import AmendEvent

    label = parse_phase_arg(g, phase)
    count = len(g.plays(label))
    if count > 1 and not play:
        play = count
    ev = AmendEvent(phase=label, event=make(label), play=play)
    before = posts.snapshot(g)
    g.apply(ev)
    diff = posts.amend_diff(before, posts.snapshot(g))
    return AmendEvent(phase=label, event=ev.event, play=play, record=diff), label, diff


def _amend(obj, make, yes: bool, as_json: bool) -> None:
    cli = _cli()
    from .messages import say
    from .model import GameError

    lang = None
    try:
        store = cli._store(obj["db"])
        game = obj["game"]
        g = store.load(game)
        lang = g.lang
        # a refused amendment: one line, nothing written
        from .board import parse_phase_arg

        plays = len(g.plays(parse_phase_arg(g, obj["phase"])))
        ev, label, diff = amendment(g, obj["phase"], lambda label: make(label, lang), obj.get("play", 0))
        if yes:
            store.append(game, ev)
        named = g.named(label)
        if as_json:
            return cli._json({"phase": label, "phase_name": named, "play": ev.play or plays, "plays": plays,
                              "amendment": ev.event, "changes": diff, "written": yes})
        inner = ev.event
        what = {"ActEvent": lambda e: f"act {e.actor} {e.skill} {' '.join(e.targets)}".rstrip(),
                "UnactEvent": lambda e: f"unact {e.actor} {e.skill}",
                "VoteEvent": lambda e: f"vote {e.voter} → {e.target}" + (say("l_amend_change", lang) if e.change else "")}
        which = ""
        if plays > 1:  # a rewind played it again: say which play is corrected
            which = say("l_amend_play", lang, play=ev.play, count=plays,
                        standing=say("l_amend_standing", lang) if ev.play == plays else "")
        echo(say("l_amend", lang, label=named + which, what=what[type(inner).__name__](inner)))
        from . import posts

        def shown(line):  # "night 1：text" -> "第1天 夜晚：text"
            return posts._phase_line(g.named, line)

        diff = {"feedback": {n: {k: [shown(x) for x in v] for k, v in d.items()} for n, d in diff["feedback"].items()},
                "announcement": {k: [shown(x) for x in v] for k, v in diff["announcement"].items()}, "alive": diff["alive"]}
        for name, d in diff["feedback"].items():
            for line in d["removed"]:
                echo(f"  [{name}] - {line}")
            for line in d["added"]:
                echo(f"  [{name}] + {line}")
        public = say("l_public", lang)
        for line in diff["announcement"]["removed"]:
            echo(f"  {public} - {line}")
        for line in diff["announcement"]["added"]:
            echo(f"  {public} + {line}")
        state = {True: say("l_alive", lang), False: say("l_out", lang)}
        for name, a in diff["alive"].items():
            echo(say("l_amend_alive", lang, name=name, was=state[bool(a["was"])], now=state[bool(a["now"])]))
        if not diff["feedback"] and not diff["announcement"]["removed"] and not diff["announcement"]["added"] and not diff["alive"]:
            echo(say("l_amend_nothing", lang))
        echo(say("l_amend_written" if yes else "l_amend_dry", lang))
    except GameError as exc:
        cli.fail(str(exc), as_json, lang)


def undo_to(game: str, phase: str, db, as_json: bool) -> None:
    """``bansha undo GAME --to PHASE``: drop every event after the resolution that closed PHASE."""
    cli = _cli()
    import msgspec

    from .board import parse_phase_arg
    from .engine import Game
    from .messages import say
    from .model import GameError, ResolveEvent

    lang = None
    try:
        store = cli._store(db)
        events = store.events(game)
        g = Game(store.setup(game))
        lang = g.lang
        label = parse_phase_arg(g, phase)
        keep = None
        for i, ev in enumerate(events):
            g.apply(ev)
            if isinstance(ev, ResolveEvent) and g.canonical(ev.phase) == label:
                keep = i + 1
        if keep is None:
            raise GameError(say("lp_not_resolved", lang, phase=phase, label=g.named(label)))
        gone = store.undo_to(game, keep)
        now = store.load(game).label
        if as_json:
            return cli._json({"kept": keep, "undone": [msgspec.to_builtins(e) | {"type": type(e).__name__} for e in gone], "phase": now})
        from .explain import event_line  # an event as `log` prints it, in the board's words

        named = g.named
        for e in gone:
            d = msgspec.to_builtins(e)
            d.pop("type", None)
            kind, _, text = event_line(d, type(e).__name__.removesuffix("Event").lower(), lang, named).partition(" ")
            echo(say("l_undone", lang, kind=kind, text=text.strip()))
        echo(say("l_undone_to", lang, count=len(gone), label=named(now)))
    except GameError as exc:
        cli.fail(str(exc), as_json, lang)


# ------------------------------------------------------------------------------ status


def loop_view(g) -> dict:
    """The director's to-do list for the current phase: every seat's skills not yet sent
    (``choices.all_choices``: forced ones marked, the exact selection range and the --args'
    values), who has not voted, the live count (``choices.count_votes``: the count resolve
    will make) with the threshold in whole votes, and the phase's deadline from the board."""
    import msgspec

    from .board import load_board, phase_namer
    from .choices import all_choices, count_votes
    from .model import GameError

    try:
        board = load_board(g.manifest.id)
    except GameError:
        board = load_board("", None)
    pending = []
    for cs in all_choices(g).values():
        for c in cs:
            if c.submitted or c.group_acted:
                continue
            pending.append(msgspec.to_builtins(c))
    vote = None
    count = count_votes(g) if g.phase.vote else None
    if count is not None:
        vote = {"not_voted": count.not_voted, "tally": [{"player": n, "votes": c} for n, c in count.tally.items()],
                "abstained": count.abstained, "void": count.void, "threshold": count.threshold, "needed": count.needed,
                "public_counts": count.public, "out": count.out, "runoff": count.runoff, "immune": count.immune}
    clock = board.get("clock", {}).get(g.phase.name, {})
    return {"phase_name": phase_namer(g, board)(g.label), "pending": pending, "vote": vote,
            "deadline": clock.get("note") or None, "closes": clock.get("close") or None}


def echo_loop_view(view: dict, lang: str | None = None) -> None:
    from .messages import say

    echo(f"{view['phase_name']}" + (say("lv_deadline", lang, text=view["deadline"]) if view["deadline"] else ""))
    if view["pending"]:
        echo(say("lv_pending", lang))
    sep = say("lv_sep", lang)
    for s in view["pending"]:
        rng = s["targets"]
        shown = sep.join(rng) if len(rng) <= 8 else say("lv_many", lang, count=len(rng), names=sep.join(rng[:8]))
        lo, hi = s["min_targets"], s["max_targets"]
        want = str(lo) if lo == hi else f"{lo}-{hi}"
        args = " ".join(f"--arg {k}=" + ("|".join(v) if v else "…") for k, v in s["args"].items())
        echo(f"  {s['player']} {s['skill']}" + (say("lv_forced", lang) if s["forced"] else "")
             + (" " + say("lv_group", lang, group=s["group"]) if s["group"] else "")
             + (" " + say("lv_targets", lang, count=want, names=shown) if hi else "") + (f"  {args}" if args else ""))
    v = view["vote"]
    if v is not None:
        echo(say("lv_not_voted", lang, names=sep.join(v["not_voted"]) or say("lv_none", lang)))
        label = say("lv_tally" if v["public_counts"] else "lv_tally_hidden", lang)
        tally = say("lv_comma", lang).join(f"{t['player']} {t['votes']:g}" for t in v["tally"]) or say("lv_no_votes", lang)
        echo(f"{label}{tally}" + (say("lv_abstained", lang, count=len(v["abstained"])) if v["abstained"] else "")
             + (say("lv_void", lang, count=len(v["void"])) if v["void"] else ""))
        if v["threshold"]:
            echo(say("lv_threshold", lang, pct=f"{v['threshold']:.0%}", needed=v["needed"]))
        else:
            echo(say("lv_plurality", lang))
        if v["out"]:
            echo(say("lv_would_out", lang, name=v["out"]))
        elif v["runoff"]:
            echo(say("lv_would_runoff", lang, names=sep.join(v["runoff"])))
        elif v["immune"]:
            echo(say("lv_would_immune", lang, text=v["immune"]))


def demo_post(game) -> None:
    """The demo's last phase as ``bansha post`` lays it out (text; `--format bbcode` in a game)."""
    from . import forum, posts

    g, told = posts.replay(game.setup, list(game.applied))
    board = forum.load_board(g.manifest.id)
    # the last phase announced that has a post of its own (M217's night is the 晨曦's)
    label = next((k for k in reversed(told) if told[k]["announcement"] and posts.carried_into(g, board, k) is None), None)
    if label is None:
        return
    echo(f"\n--- bansha post GAME --phase '{label}' --format text")
    echo(posts.render_post(posts.build(g, list(game.applied), board, label, told), "text"), nl=False)
