"""The thread's activity on the game console (``POST /d/g/{game}/activity``, issue 26 item 3,
the web part): the director pastes the thread's text or gives its address, and gets what
``bansha activity GAME SOURCE`` prints — posts and characters per player since the phase
opened, who to prod, votes edited after the deadline, posts by non-players — as a table and
as BBCode to copy into the thread. The same three functions as the command
(``bansha_forum.read.read_posts``, ``commands.activity_report``, ``commands.render_activity``);
an address is fetched in a worker thread, never on the event loop."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import tempfile

from bansha.door.forms import excerpt
from bansha.engine.model import GameError
from litestar import Request, get, post
from litestar.params import FromPath
from litestar.response import Template

#: the largest pasted thread (the request body's own limit, app.MAX_BODY, is 512 KB)
MAX_THREAD = 400_000


def formats() -> list[tuple[str, str]]:
    """The installed forum formats: (name, what a person reads: ``read.format_label``)."""
    from bansha_forum.read import adapters, format_label

    return [(name, format_label(name)) for name, _ in adapters()]


def report_of(store, game: str, text: str, url: str, since: str, forum: str) -> dict:
    """The activity report of ``game`` over the thread pasted (``text``) or at ``url``, as
    ``bansha activity`` makes it; GameError (in the board's language) for what cannot be read."""
    from bansha.engine.board import load_board, phase_namer
    from bansha_forum.commands import activity_report, render_activity
    from bansha_forum.read import read_posts

    g = store.peek(game)
    start = None
    if since:
        try:
            start = dt.datetime.strptime(since.replace("：", ":").replace("T", " "), "%Y-%m-%d %H:%M")
        except ValueError:
            raise GameError(f"起算时间 {excerpt(since)}：应为 YYYY-MM-DD HH:MM（留空：楼主发帖的时间）") from None
    fmt = forum or None
    if fmt is not None and fmt not in dict(formats()):
        raise GameError(f"论坛格式 {excerpt(forum)}：请从列表中选择（{'、'.join(label for _, label in formats())}）")
    if url:
        if not url.startswith(("http://", "https://")):
            raise GameError(f"帖子地址 {excerpt(url)}：应以 http:// 或 https:// 开头")
        posts, _name, _title = read_posts(url, fmt=fmt, lang=g.lang)
    elif text.strip():
        # the reader reads a file: the pasted text goes through the same door as a saved one
        fd, path = tempfile.mkstemp(prefix="bansha-thread-", suffix=".txt")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(text.encode("utf-8"))
            posts, _name, _title = read_posts(path, fmt=fmt, lang=g.lang)
        finally:
            os.unlink(path)
    else:
        raise GameError("请粘贴帖子的内容，或给出帖子地址")
    if not posts:
        raise GameError("帖子里没有读到任何楼层：请检查粘贴的内容（整页复制，含楼层和发表时间），或选择论坛格式")
    board = load_board(g.manifest.id, None, lang=g.lang)
    report = activity_report(g, posts, board, start)
    report["phase"] = phase_namer(g, board)(g.label)
    return {"report": report, "bbcode": "\n".join(render_activity(report, "bbcode", g.lang)), "posts": len(posts)}


def routes(site) -> list:
    from .director import field

    store = site.store

    def ctx(game: str, form: dict, error: str = "", result: dict | None = None) -> dict:
        return {"game": game, "form": form, "error": error, "result": result, "formats": formats(),
                "max_thread": MAX_THREAD}

    @get("/d/g/{game:str}/activity")
    async def activity_form(request: Request, game: FromPath[str]) -> Template:
        await site.run(lambda: site.director(request, game))
        return Template(template_name="activity.html", context=ctx(game, {}))

    @post("/d/g/{game:str}/activity")
    async def activity(request: Request, game: FromPath[str]) -> Template:
        await site.run(lambda: site.director(request, game))
        form = await request.form()
        kept = {"url": "", "since": "", "forum": ""}
        try:
            text = field(form, "thread", "帖子内容", MAX_THREAD)
            kept = {"url": field(form, "url", "帖子地址", 2000).strip(), "since": field(form, "since", "起算时间", 40).strip(),
                    "forum": field(form, "forum", "论坛格式", 100).strip()}
            result = await asyncio.to_thread(report_of, store, game, text, kept["url"], kept["since"], kept["forum"])
        except GameError as exc:
            return Template(template_name="activity.html", context=ctx(game, kept, error=str(exc)), status_code=422)
        return Template(template_name="activity.html", context=ctx(game, kept, result=result))

    return [activity_form, activity]
