"""A player's routes: the page of the seat the token names, its state part, its live channel,
and its forms. No URL or form field names a seat: the token's seat is the one acting.

  GET  /p/{token}                a player's page         POST /p/{token}/{act,unact,vote,words}
  GET  /p/{token}/view           its state part (htmx)   GET  /p/{token}/events (SSE)
"""

from __future__ import annotations

import hashlib

from bansha.engine.model import GameError, RulingEvent, UnactEvent, VoteEvent
from bansha.show.views import player_view
from litestar import Request, get, post
from litestar.params import FromPath
from litestar.response import ServerSentEvent, Template

from . import logic
from .director import act_event, field
from .messages import ERR
from .site import REVOKE_CHECK, Site, page


def routes(site: Site) -> list:
    store, tokens = site.store, site.tokens

    @get("/p/{token:str}")
    async def p_page(request: Request, token: FromPath[str]) -> Template:
        game, name = await site.run(lambda: site.seat_of(request, token))
        return Template(template_name="player.html", context=await site.run(lambda: site.player_ctx(game, name, token)))

    @get("/p/{token:str}/view")
    async def p_view(request: Request, token: FromPath[str]) -> Template:
        game, name = await site.run(lambda: site.seat_of(request, token))
        return Template(template_name="_pstate.html", context=await site.run(lambda: site.player_ctx(game, name, token)))

    async def player_write(request: Request, token: str, make) -> Template:
        game, name = await site.run(lambda: site.seat_of(request, token))
        form = await request.form()
        try:
            def write():
                with site.write_locks[game]:
                    msg, g = make(form, game, name)
                return site.player_ctx(game, name, token, message=msg, g=g)  # the state just written

            ctx = await site.run(write)
            return page("player.html", ctx, request, "_player.html")
        except GameError as exc:
            refusal = str(exc)
            ctx = await site.run(lambda: site.player_ctx(game, name, token, error=refusal))
            return page("player.html", ctx, request, "_player.html", status=422)

    @post("/p/{token:str}/act")
    async def p_act(request: Request, token: FromPath[str]) -> Template:
        def make(form, game, name):
            g, mark = store.append(game, act_event(form, name), shared=True)
            fb, _ = g.since(mark)
            answer = "；".join(fb.get(name, []))
            a = next((a for a in reversed(g.actions) if a.actor == name), None)
            said = " ".join([a.skill, *a.chosen]) if a else field(form, "skill", "技能", 100)
            return f"已提交：{said}" + (f"。{answer}" if answer else ""), g
        return await player_write(request, token, make)

    @post("/p/{token:str}/unact")
    async def p_unact(request: Request, token: FromPath[str]) -> Template:
        def make(form, game, name):
            skill = field(form, "skill", "技能", 100)
            g, _ = store.append(game, lambda g: UnactEvent(phase=g.label, actor=name, skill=skill), shared=True)
            return f"已撤回：{skill}", g
        return await player_write(request, token, make)

    @post("/p/{token:str}/vote")
    async def p_vote(request: Request, token: FromPath[str]) -> Template:
        def make(form, game, name):
            target = field(form, "target", "投票对象", 100)
            if not target:
                raise GameError("请选择投票对象")
            post_no = logic.post_number(field(form, "post", "楼层", 30))
            g, _ = store.append(game, lambda g: VoteEvent(phase=g.label, voter=name, target=g.find_name(target), post=post_no,
                                                          change=any(b.voter == name for b in g.ballots)), shared=True)
            return f"已投票：{target}", g
        return await player_write(request, token, make)

    @post("/p/{token:str}/words")
    async def p_words(request: Request, token: FromPath[str]) -> Template:
        """Last words (遗言), where the manifest's ``[last_words]`` owes them: the ruling of the
        board's last-words kind for this seat, judged by the engine as ``bansha ruling`` is."""
        def make(form, game, name):
            text = field(form, "text", "遗言", 5000)
            g, _ = store.append(game, lambda g: RulingEvent(phase=g.label, kind=g.manifest.last_words.kind, player=name,
                                                            text=text), shared=True)
            return "已记录遗言，将在公告中公布。", g
        return await player_write(request, token, make)

    @get("/p/{token:str}/events")
    async def p_events(request: Request, token: FromPath[str]) -> ServerSentEvent:
        game, name = await site.run(lambda: site.seat_of(request, token))

        def digest():  # a player hears of a change only when their own view changed
            g = site.load(game)
            v = player_view(g, name, site.choices(g, name))
            return hashlib.sha256(repr(v).encode()).hexdigest()

        async def stream():
            changes = site.hub.changes(game, keepalive=REVOKE_CHECK)
            await anext(changes)  # subscribed before the view is read and hello said
            last = await site.run(digest)
            yield {"event": "hello", "data": "0"}
            async for changed in changes:
                # a revoked link's open page is told so and its channel closed
                if await site.run(lambda: tokens.player(token)) is None:
                    yield {"event": "gone", "data": ERR["bad_link"]}
                    return
                if not changed:
                    yield {"event": "ping", "data": ""}
                    continue
                now = await site.run(digest)
                if now != last:
                    last = now
                    yield {"event": "change", "data": now[:12]}

        return ServerSentEvent(stream())

    return [p_page, p_view, p_act, p_unact, p_vote, p_words, p_events]
