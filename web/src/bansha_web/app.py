"""The Litestar application of ``bansha serve`` (docs/web.md, docs/security.md).

Routes
  GET  /login/{token}            the director's link: sets the HttpOnly session cookie
  GET  /d                        games and "new game"          POST /d/new
  GET  /d/g/{game}               the console                   POST /d/g/{game}/{act,unact,vote,resolve,undo,link}
  POST /d/g/{game}/preview       the resolution on a copy (nothing stored)
  GET  /d/g/{game}/table         the live part of the console (htmx)
  GET  /d/g/{game}/events        server-sent events: one per change of the game
  GET  /p/{token}                a player's page               POST /p/{token}/{act,unact,vote}
  GET  /p/{token}/view           the live part of it (htmx)    GET /p/{token}/events (SSE)
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import threading
import time
from collections import defaultdict, deque
from pathlib import Path
from typing import Any

from bansha.model import ActEvent, GameError, ResolveEvent, Setup, UnactEvent, VoteEvent
from bansha.views import director_view, player_view
from litestar import Litestar, Request, Response, get, post
from litestar.config.csrf import CSRFConfig
from litestar.datastructures import Cookie
from litestar.exceptions import HTTPException, NotFoundException
from litestar.params import FromPath
from litestar.plugins.jinja import JinjaTemplateEngine
from litestar.response import Redirect, ServerSentEvent, Template
from litestar.static_files import create_static_files_router
from litestar.template.config import TemplateConfig

from . import logic
from .tokens import Tokens

HERE = Path(__file__).parent
COOKIE = "bansha_director"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # a player's link never leaves in a Referer header
    "Cache-Control": "no-store",
}


class Refused(HTTPException):
    status_code = 403


class Throttle:
    """Bad tokens from one address: at most ``limit`` in ``window`` seconds, then 429."""

    def __init__(self, limit: int = 10, window: float = 60.0):
        self.limit, self.window = limit, window
        self.bad: dict[str, deque] = defaultdict(deque)
        self.lock = threading.Lock()

    def blocked(self, addr: str) -> bool:
        with self.lock:
            q = self.bad[addr]
            now = time.monotonic()
            while q and now - q[0] > self.window:
                q.popleft()
            return len(q) >= self.limit

    def failed(self, addr: str) -> None:
        with self.lock:
            self.bad[addr].append(time.monotonic())


class Hub:
    """One thread per watched game runs ``store.watch`` (SQLite polling, PostgreSQL
    LISTEN/NOTIFY: writes of other processes too) and wakes every waiting page."""

    def __init__(self, store):
        self.store = store
        self.version: dict[str, int] = defaultdict(int)
        self.waiters: dict[str, set] = defaultdict(set)
        self.threads: dict[str, threading.Thread] = {}
        self.lock = threading.Lock()
        self.loop: asyncio.AbstractEventLoop | None = None

    def _run(self, game: FromPath[str]) -> None:
        from bansha.store import open_store

        store = open_store(self.store.url, cache=False)  # the watcher's own connection
        try:
            after = store.last_seq(game)
            for _seq, _ev in store.watch(game, after=after):
                self.poke(game)
        except Exception:  # the game is gone or the store closed: the pages stop updating
            pass

    def poke(self, game: FromPath[str]) -> None:
        with self.lock:
            self.version[game] += 1
            waiters = list(self.waiters[game])
        for loop, ev in waiters:
            loop.call_soon_threadsafe(ev.set)

    def ensure(self, game: FromPath[str]) -> None:
        with self.lock:
            if game not in self.threads:
                t = threading.Thread(target=self._run, args=(game,), daemon=True, name=f"watch:{game}")
                self.threads[game] = t
                t.start()

    async def changes(self, game: FromPath[str]):
        """Yield each time the game changed (at most ~10 times a second)."""
        self.ensure(game)
        loop = asyncio.get_running_loop()
        ev = asyncio.Event()
        key = (loop, ev)
        with self.lock:
            self.waiters[game].add(key)
        try:
            while True:
                try:
                    await asyncio.wait_for(ev.wait(), timeout=15)
                except TimeoutError:
                    yield False  # a keep-alive
                    continue
                ev.clear()
                yield True
                await asyncio.sleep(0.1)
        finally:
            with self.lock:
                self.waiters[game].discard(key)


def _all(form, key: str) -> list[str]:
    try:
        return [v for v in form.getall(key) if isinstance(v, str)]
    except KeyError:
        return []


def _addr(request: Request) -> str:
    return request.client.host if request.client else "?"


def create_app(store, tokens: Tokens, secret: str | None = None, throttle: Throttle | None = None) -> Litestar:
    hub = Hub(store)
    throttle = throttle or Throttle()
    # one writer per game in this process: concurrent writers of one game would each rebuild
    # it and all but one lose the store's optimistic race and rebuild again (50 clients: 4×
    # the CPU per request). Other processes still race through the store's own check.
    write_locks: defaultdict[str, threading.Lock] = defaultdict(threading.Lock)

    def run(fn):
        return asyncio.to_thread(fn)

    # ------------------------------------------------------------------ who is asking

    def director(request: Request) -> None:
        addr = _addr(request)
        if throttle.blocked(addr):
            raise HTTPException(status_code=429, detail="尝试过多，请稍后再试")
        if not tokens.is_director(request.cookies.get(COOKIE)):
            throttle.failed(addr)
            raise Refused(detail="需要导演登录链接")

    def seat_of(request: Request, token: FromPath[str]) -> tuple[str, str]:
        addr = _addr(request)
        if throttle.blocked(addr):
            raise HTTPException(status_code=429, detail="尝试过多，请稍后再试")
        seat = tokens.player(token)
        if seat is None:
            throttle.failed(addr)
            raise NotFoundException(detail="链接无效或已失效")
        return seat

    def load(game: str):
        # the cached state itself, read-only: a page renders it, never changes it (store.peek)
        try:
            return store.peek(game)
        except GameError as exc:
            raise NotFoundException(detail=str(exc)) from None

    def is_htmx(request: Request) -> bool:
        return request.headers.get("hx-request") == "true"

    # --------------------------------------------------------------------- contexts

    def player_ctx(game_name: str, name: str, token: str, message: str = "", error: str = "", g=None) -> dict[str, Any]:
        g = g if g is not None else load(game_name)
        view = player_view(g, name)
        role = g.ruleset.role(g.player(name).role)
        return {"view": view, "you": view["you"], "role_rule": role.rule, "skills": logic.usable_skills(g, name),
                "vote": logic.vote_options(g, name), "token": token, "game": game_name,
                "message": message, "error": error, "base": f"/p/{token}"}

    def console_ctx(game_name: str, message: str = "", error: str = "", links: dict | None = None,
                    preview: dict | None = None) -> dict[str, Any]:
        g = load(game_name)
        view = director_view(g)
        done, waiting = logic.acted_or_not(g)
        skills = {p.name: logic.usable_skills(g, p.name, director=True) for p in g.players.values()}
        for p in g.players.values():  # the director sees every target, the thread's view aside
            for s in skills[p.name]:
                sk, _ = g.find_skill(p, s["name"])
                s["targets"] = [q.name for q in g.players.values() if (q.alive or sk.may_target_dead)
                                and (q.name != p.name or sk.may_target_self)]
        votes = {p.name: logic.vote_options(g, p.name) for p in g.players.values()}
        return {"game": game_name, "view": view, "done": done, "waiting": waiting, "skills": skills,
                "votes": votes, "tally": logic.tally(g), "message": message, "error": error,
                "links": links or {}, "preview": preview, "announcements": g.announcements,
                "trace": g.trace, "trace_phases": logic.phases_with_trace(g),
                "feedback": g.feedback, "has_link": {n: tokens.has_link(game_name, n) for n in g.players},
                "abstain": g.manifest.vote.abstain, "seq": store.last_seq(game_name)}

    def page(template: str, ctx: dict, request: Request, fragment: str | None = None, status: int = 200) -> Template:
        name = fragment if fragment and is_htmx(request) else template
        return Template(template_name=name, context=ctx, status_code=status)

    # ------------------------------------------------------------------ director

    @get("/", sync_to_thread=False)
    def index() -> Template:
        return Template(template_name="index.html", context={})

    @get("/login/{token:str}", sync_to_thread=False)
    def login(request: Request, token: FromPath[str]) -> Response:
        addr = _addr(request)
        if throttle.blocked(addr):
            raise HTTPException(status_code=429, detail="尝试过多，请稍后再试")
        if not tokens.is_director(token):
            throttle.failed(addr)
            raise Refused(detail="导演链接无效")
        return Redirect("/d", cookies=[Cookie(key=COOKIE, value=token, httponly=True, samesite="strict", path="/",
                                              secure=request.url.scheme == "https")])

    @get("/d")
    async def games(request: Request) -> Template:
        director(request)
        from bansha.registry import installed_manifests

        names = await run(store.names)
        manifests = [(m.id, m.name, [t.seats for t in m.tables]) for m in installed_manifests().values()]
        return Template(template_name="games.html", context={"games": names, "rulesets": manifests})

    @post("/d/new")
    async def new_game(request: Request) -> Template:
        director(request)
        form = await request.form()
        name = (form.get("name") or "").strip()
        ruleset = (form.get("ruleset") or "").strip()
        roster = [n for n in (form.get("roster") or "").replace("，", ",").replace(",", "\n").split() if n.strip()]
        seed_text = (form.get("seed") or "0").strip()

        def create():
            from bansha import deal as dealing
            from bansha.registry import find_manifest, ruleset_for

            if not name:
                raise GameError("请给这局游戏起个名字")
            if not seed_text.lstrip("-").isdigit():
                raise GameError(f"seed {seed_text!r}: expected a whole number")
            if not roster:
                raise GameError("--players: no player names given")
            m = find_manifest(ruleset)
            rs = ruleset_for(m)
            seed = int(seed_text)
            setups = dealing.deal(rs, roster, seed)
            store.create(name, Setup(ruleset=m.id, manifest=m, players=setups, seed=seed, options={}, dealt_by=f"seed {seed}"))
            return tokens.new_players(name, [p.name for p in setups])

        try:
            links = await run(create)
        except GameError as exc:
            from bansha.registry import installed_manifests

            names = await run(store.names)
            manifests = [(m.id, m.name, [t.seats for t in m.tables]) for m in installed_manifests().values()]
            return Template(template_name="games.html", status_code=422,
                            context={"games": names, "rulesets": manifests, "error": str(exc)})
        ctx = await run(lambda: console_ctx(name, message="游戏已创建；以下链接只显示这一次", links=links))
        return Template(template_name="console.html", context=ctx)

    @get("/d/g/{game:str}")
    async def console(request: Request, game: FromPath[str]) -> Template:
        director(request)
        return Template(template_name="console.html", context=await run(lambda: console_ctx(game)))

    @get("/d/g/{game:str}/table")
    async def console_table(request: Request, game: FromPath[str]) -> Template:
        director(request)
        return Template(template_name="_table.html", context=await run(lambda: console_ctx(game)))

    async def _director_write(request: Request, game: str, make) -> Template:
        director(request)
        form = await request.form()

        def write():
            with write_locks[game]:
                return make(form)

        try:
            msg = await run(write)
            ctx = await run(lambda: console_ctx(game, message=msg if isinstance(msg, str) else "",
                                                links=msg if isinstance(msg, dict) and "preview" not in msg else None,
                                                preview=msg.get("preview") if isinstance(msg, dict) else None))
            return page("console.html", ctx, request, "_table.html")
        except GameError as exc:
            refusal = str(exc)
            ctx = await run(lambda: console_ctx(game, error=refusal))
            return page("console.html", ctx, request, "_table.html", status=422)

    def _act_event(form, player: str):
        skill = form.get("skill") or ""
        targets = [t for t in _all(form, "target") if t]
        args = {}
        for key, value in form.items():
            if key.startswith("arg_") and value != "":
                args[key[4:]] = int(value) if value.lstrip("-").isdigit() else value
        return lambda g: ActEvent(phase=g.label, actor=player, skill=skill, targets=targets, args=args)

    @post("/d/g/{game:str}/act")
    async def d_act(request: Request, game: FromPath[str]) -> Template:
        def make(form):
            player = form.get("player") or ""
            g, _ = store.append(game, _act_event(form, player), shared=True)
            return f"已记录：{player} {form.get('skill')} {' '.join(_all(form, 'target'))}"
        return await _director_write(request, game, make)

    @post("/d/g/{game:str}/unact")
    async def d_unact(request: Request, game: FromPath[str]) -> Template:
        def make(form):
            player, skill = form.get("player") or "", form.get("skill") or ""
            store.append(game, lambda g: UnactEvent(phase=g.label, actor=player, skill=skill), shared=True)
            return f"已撤回：{player} {skill}"
        return await _director_write(request, game, make)

    @post("/d/g/{game:str}/vote")
    async def d_vote(request: Request, game: FromPath[str]) -> Template:
        def make(form):
            voter, target = form.get("player") or "", form.get("target") or ""
            store.append(game, lambda g: VoteEvent(phase=g.label, voter=voter, target=target, proxy=True,
                                                   change=any(b.voter == voter for b in g.ballots)), shared=True)
            return f"已代投：{voter} → {target}"
        return await _director_write(request, game, make)

    @post("/d/g/{game:str}/preview")
    async def d_preview(request: Request, game: FromPath[str]) -> Template:
        def make(form):
            return {"preview": logic.preview(store.peek(game))}
        return await _director_write(request, game, make)

    @post("/d/g/{game:str}/resolve")
    async def d_resolve(request: Request, game: FromPath[str]) -> Template:
        def make(form):
            expected = form.get("phase")
            g0 = store.peek(game)
            if expected and expected != g0.label:
                raise GameError(f"the phase is now {g0.label}, not {expected}: nothing was resolved")
            g, mark = store.append(game, lambda g: ResolveEvent(phase=g.label), shared=True)
            return f"已结算 {g0.label}；现在是 {g.label}"
        return await _director_write(request, game, make)

    @post("/d/g/{game:str}/undo")
    async def d_undo(request: Request, game: FromPath[str]) -> Template:
        def make(form):
            ev = store.undo(game)
            return f"已撤销最后一个事件（{type(ev).__name__.removesuffix('Event').lower()}）"
        return await _director_write(request, game, make)

    @post("/d/g/{game:str}/link")
    async def d_link(request: Request, game: FromPath[str]) -> Template:
        def make(form):
            player = form.get("player") or ""
            store.peek(game).player(player)
            return {player: tokens.new_player(game, player)}
        return await _director_write(request, game, make)

    @get("/d/g/{game:str}/events")
    async def d_events(request: Request, game: FromPath[str]) -> ServerSentEvent:
        director(request)
        await run(lambda: load(game))

        async def stream():
            yield {"event": "hello", "data": "0"}
            async for changed in hub.changes(game):
                yield {"event": "change" if changed else "ping", "data": str(hub.version[game])}

        return ServerSentEvent(stream())

    # --------------------------------------------------------------------- player

    @get("/p/{token:str}")
    async def p_page(request: Request, token: FromPath[str]) -> Template:
        game, name = seat_of(request, token)
        return Template(template_name="player.html", context=await run(lambda: player_ctx(game, name, token)))

    @get("/p/{token:str}/view")
    async def p_view(request: Request, token: FromPath[str]) -> Template:
        game, name = seat_of(request, token)
        return Template(template_name="_player.html", context=await run(lambda: player_ctx(game, name, token)))

    async def _player_write(request: Request, token: str, make) -> Template:
        game, name = seat_of(request, token)
        form = await request.form()
        try:
            def write():
                with write_locks[game]:
                    msg, g = make(form, game, name)
                return player_ctx(game, name, token, message=msg, g=g)  # the state just written

            ctx = await run(write)
            return page("player.html", ctx, request, "_player.html")
        except GameError as exc:
            refusal = str(exc)
            ctx = await run(lambda: player_ctx(game, name, token, error=refusal))
            return page("player.html", ctx, request, "_player.html", status=422)

    @post("/p/{token:str}/act")
    async def p_act(request: Request, token: FromPath[str]) -> Template:
        def make(form, game, name):
            g, mark = store.append(game, _act_event(form, name), shared=True)
            fb, _ = g.since(mark)
            answer = "；".join(fb.get(name, []))
            return f"已提交：{form.get('skill')} {' '.join(_all(form, 'target'))}" + (f"。{answer}" if answer else ""), g
        return await _player_write(request, token, make)

    @post("/p/{token:str}/unact")
    async def p_unact(request: Request, token: FromPath[str]) -> Template:
        def make(form, game, name):
            skill = form.get("skill") or ""
            g, _ = store.append(game, lambda g: UnactEvent(phase=g.label, actor=name, skill=skill), shared=True)
            return f"已撤回：{skill}", g
        return await _player_write(request, token, make)

    @post("/p/{token:str}/vote")
    async def p_vote(request: Request, token: FromPath[str]) -> Template:
        def make(form, game, name):
            target = form.get("target") or ""
            g, _ = store.append(game, lambda g: VoteEvent(phase=g.label, voter=name, target=target,
                                                          change=any(b.voter == name for b in g.ballots)), shared=True)
            return f"已投票：{target}", g
        return await _player_write(request, token, make)

    @get("/p/{token:str}/events")
    async def p_events(request: Request, token: FromPath[str]) -> ServerSentEvent:
        game, name = seat_of(request, token)

        def digest():  # a player hears of a change only when their own view changed
            v = player_view(load(game), name)
            return hashlib.sha256(repr(v).encode()).hexdigest()

        first = await run(digest)

        async def stream():
            last = first
            yield {"event": "hello", "data": "0"}
            async for changed in hub.changes(game):
                if not changed:
                    yield {"event": "ping", "data": ""}
                    continue
                now = await run(digest)
                if now != last:
                    last = now
                    yield {"event": "change", "data": now[:12]}

        return ServerSentEvent(stream())

    # ---------------------------------------------------------------------- errors

    def html_error(request: Request, exc: Exception) -> Response:
        if isinstance(exc, HTTPException):
            status, detail = exc.status_code, exc.detail
        else:
            status, detail = 500, "服务器内部错误"
            # for the operator: the exception, never the request's URL (a player's token)
            logging.getLogger("bansha_web").error("internal error: %s: %s", type(exc).__name__, exc,
                                                  exc_info=(type(exc), exc, exc.__traceback__))
        if status == 405:
            detail = "此操作只接受 POST"
        return Template(template_name="error.html", context={"status": status, "detail": detail}, status_code=status)

    raw_headers = [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]

    async def security_headers(message, scope) -> None:
        # every response, errors, static files and event streams included
        if message["type"] == "http.response.start":
            present = {k.lower() for k, _ in message.get("headers", [])}
            message["headers"] = [*message.get("headers", []), *(h for h in raw_headers if h[0] not in present)]

    csrf = CSRFConfig(secret=secret or secrets.token_hex(32), cookie_httponly=True, cookie_samesite="strict",
                      cookie_name="bansha_csrf", header_name="x-csrftoken")
    return Litestar(
        route_handlers=[index, login, games, new_game, console, console_table, d_act, d_unact, d_vote, d_preview,
                        d_resolve, d_undo, d_link, d_events, p_page, p_view, p_act, p_unact, p_vote, p_events,
                        create_static_files_router(path="/static", directories=[HERE / "static"])],
        template_config=TemplateConfig(directory=HERE / "templates", engine=JinjaTemplateEngine),
        csrf_config=csrf,
        exception_handlers={Exception: html_error},
        before_send=[security_headers],
        debug=False,
    )
