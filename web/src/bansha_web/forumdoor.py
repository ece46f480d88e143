"""The forum as the door, on the game console (``/d/g/{game}/forum``, issue 34 item 7): the same
pull and push as ``bansha forum pull`` and ``bansha forum push``, with the same preview — the
functions are bansha-forum's (``bansha_forum.door.push.plan``, ``preview``, ``send``;
``bansha_forum.door.pull.collect``). The page shows the link, the phase's outbox (every message
with its recipient, uid and state) and a button that sends what is not sent; a button that
reads the PMs and proposes, and one that records. The forum is reached in a worker thread,
never on the event loop; every form is under CSRF and every player's text escaped by the
templates. A game is linked from the command line (``bansha forum link``: the cookies file
lives where the director keeps it, on the server's disk)."""

from __future__ import annotations

import asyncio

from bansha.engine.model import GameError
from litestar import Request, get, post
from litestar.params import FromPath
from litestar.response import Template


def _plan(store, game: str) -> dict:
    from bansha.engine.board import load_board, phase_namer
    from bansha_forum.door import push as pushing
    from bansha_forum.door.link import load_link

    g = store.load(game)
    link = load_link(store, game, g.lang)
    g, label, msgs, skipped = pushing.plan(store, game, link)
    named = phase_namer(g, load_board(g.manifest.id, None, lang=g.lang))(label)
    lines, rows = pushing.preview(store, game, link, named, msgs, g.lang)
    return {"link": link, "phase": named, "rows": rows, "skipped": skipped, "left": sum(r["state"] != "sent" for r in rows),
            "msgs": msgs, "lang": g.lang}


def _push(store, game: str) -> dict:
    from bansha_forum.door import push as pushing
    from bansha_forum.door.discuz import Discuz

    planned = _plan(store, game)
    said: list[str] = []
    link = planned["link"]
    forum = Discuz(link.site, link.cookies, planned["lang"])
    error = ""
    try:
        pushing.send(store, game, link, forum, planned["msgs"], planned["lang"], said.append)
    except GameError as exc:
        error = str(exc)
    finally:
        forum.close()
    return {"said": said, "error": error}


def _pull(store, game: str, record: bool, only: list[str]) -> dict:
    from bansha_forum.door.pull import collect

    g = store.load(game)
    if record and not only:  # nothing proposed was confirmed
        raise GameError("没有要记录的短消息：请先读取短消息，再确认提议")
    got = collect(store, game, record, g.lang, only)
    return {"rows": got["rows"], "recorded": got["recorded"], "strangers": got["strangers"], "to_record": got["to_record"],
            "record": record}


def routes(site) -> list:
    from .director import fields

    store = site.store

    async def page(game: str, **extra) -> Template:
        ctx = {"game": game, "plan": None, "unlinked": "", "pushed": None, "pulled": None, "error": ""}
        try:
            ctx["plan"] = await asyncio.to_thread(_plan, store, game)
        except GameError as exc:
            ctx["unlinked"] = str(exc)
        ctx.update(extra)
        return Template(template_name="forumdoor.html", context=ctx, status_code=422 if extra.get("error") else 200)

    @get("/d/g/{game:str}/forum")
    async def forum_page(request: Request, game: FromPath[str]) -> Template:
        await site.run(lambda: site.director(request, game))
        return await page(game)

    @post("/d/g/{game:str}/forum/push")
    async def forum_push(request: Request, game: FromPath[str]) -> Template:
        await site.run(lambda: site.director(request, game))
        try:
            done = await asyncio.to_thread(_push, store, game)
        except GameError as exc:
            return await page(game, error=str(exc))
        return await page(game, pushed=done, error=done["error"])

    @post("/d/g/{game:str}/forum/pull")
    async def forum_pull(request: Request, game: FromPath[str]) -> Template:
        await site.run(lambda: site.director(request, game))
        form = await request.form()
        record = form.get("record") == "1"
        try:
            # what the director confirmed: the PMs the proposal listed (one that arrived since waits)
            only = fields(form, "pm", "短消息", 20)[:500]
            got = await asyncio.to_thread(_pull, store, game, record, only)
        except GameError as exc:
            return await page(game, error=str(exc))
        return await page(game, pulled=got)

    return [forum_page, forum_push, forum_pull]
