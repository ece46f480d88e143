"""The Litestar application of ``bansha serve`` (docs/web.md, docs/security.md).

Routes
  GET  /login/{token}            the director's link: sets the HttpOnly session cookie
  GET  /d                        games and "new game"          POST /d/new
  GET  /d/g/{game}               the console                   POST /d/g/{game}/{act,unact,vote,resolve,undo,link}
  POST /d/g/{game}/preview       the resolution on a copy (nothing stored)
  GET  /d/g/{game}/table         the console's state part, re-rendered on a change (htmx)
  GET  /d/g/{game}/events        server-sent events: one per change of the game
  GET  /p/{token}                a player's page               POST /p/{token}/{act,unact,vote}
  GET  /p/{token}/view           its state part (htmx)         GET /p/{token}/events (SSE)
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

import jinja2
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
from markupsafe import Markup

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


def _amend_what(ev) -> str:
    if isinstance(ev, ActEvent):
        return f"{ev.actor} {ev.skill} {' '.join(ev.targets)}".rstrip()
    if isinstance(ev, UnactEvent):
        return f"撤回 {ev.actor} {ev.skill}"
    return f"{ev.voter} 投 {ev.target}"


def _addr(request: Request) -> str:
    return request.client.host if request.client else "?"


def create_app(store, tokens: Tokens, secret: str | None = None, throttle: Throttle | None = None,
               inline: bool | None = None) -> Litestar:
    hub = Hub(store)
    deadlines = logic.Deadlines(store)
    throttle = throttle or Throttle()
    # one writer per game in this process: concurrent writers of one game would each rebuild
    # it and all but one lose the store's optimistic race and rebuild again (50 clients: 4×
    # the CPU per request). Other processes still race through the store's own check.
    write_locks: defaultdict[str, threading.Lock] = defaultdict(threading.Lock)

    if inline is None:
        from bansha.store import SQLiteStore

        inline = isinstance(store, SQLiteStore)
    if inline:
        # SQLite is a local file: a request's store calls take microseconds, and handing each
        # request to a worker thread cost more (~0.4 ms of CPU, GIL hand-offs between the
        # threads: p99 448 → 246 ms under 50 clients, docs/performance.md) than it saved
        async def run(fn):
            return fn()
    else:
        # PostgreSQL: a request waits for round trips; in a worker thread the loop serves
        # others meanwhile (inline: 125 req/s against 186 under 50 clients)
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

    history_template = jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"),
                                          autoescape=True).get_template("_history.html")
    history_cache: dict[tuple, Markup] = {}

    def history(view: dict) -> Markup:
        """The history part of a player's page, rendered once per content: it is most of the
        page's rendering on a 20-day game and changes only at a resolution or a ruling. The key
        is the content itself, so one rendering serves every page that shows the same."""
        key = (tuple((f["phase"], f["text"]) for f in view["feedback"]),
               tuple((a["phase"], a["text"]) for a in view["announcements"]),
               tuple((p["name"], p["alive"]) for p in view["players"]))
        out = history_cache.get(key)
        if out is None:
            if len(history_cache) >= 4096:
                history_cache.clear()
            out = history_cache[key] = Markup(history_template.render(view=view))
        return out

    def player_ctx(game_name: str, name: str, token: str, message: str = "", error: str = "", g=None) -> dict[str, Any]:
        g = g if g is not None else load(game_name)
        view = player_view(g, name)
        role = g.ruleset.role(g.player(name).role)
        return {"view": view, "you": view["you"], "role_rule": role.rule, "skills": logic.usable_skills(g, name),
                "vote": logic.vote_options(g, name), "token": token, "game": game_name,
                "deadline": logic.deadline_of(deadlines, game_name, g), "history": history(view),
                "message": message, "error": error, "base": f"/p/{token}"}

    def console_ctx(game_name: str, message: str = "", error: str = "", links: dict | None = None,
                    preview: dict | None = None, amend: dict | None = None) -> dict[str, Any]:
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
                "feedback": g.feedback, "has_link": tokens.links_of(game_name, list(g.players)),
                "abstain": g.manifest.vote.abstain, "seq": store.last_seq(game_name),
                "amend_choices": logic.amend_choices(g), "amend": amend, "ruling_kinds": g.ruleset.ruling_kinds,
                "players": [p.name for p in sorted(g.players.values(), key=lambda p: p.seat)],
                "deadline": logic.deadline_of(deadlines, game_name, g)}

    def page(template: str, ctx: dict, request: Request, fragment: str | None = None, status: int = 200) -> Template:
        name = fragment if fragment and is_htmx(request) else template
        return Template(template_name=name, context=ctx, status_code=status)

    # ------------------------------------------------------------------ director

    @get("/", sync_to_thread=False)
    def index() -> Template:
        return Template(template_name="index.html", context={})

    @get("/login/{token:str}", sync_to_thread=True)
    def login(request: Request, token: FromPath[str]) -> Response:
        addr = _addr(request)
        if throttle.blocked(addr):
            raise HTTPException(status_code=429, detail="尝试过多，请稍后再试")
        if not tokens.is_director(token):
            throttle.failed(addr)
            raise Refused(detail="导演链接无效")
        return Redirect("/d", cookies=[Cookie(key=COOKIE, value=token, httponly=True, samesite="strict", path="/",
                                              secure=request.url.scheme == "https")])

    def games_ctx(error: str = "") -> dict[str, Any]:
        from bansha.registry import installed_manifests

        manifests = [{"id": m.id, "name": m.name, "seats": [t.seats for t in m.tables], "options": logic.option_fields(m)}
                     for m in installed_manifests().values()]
        return {"games": store.names(), "rulesets": manifests, "error": error}

    @get("/d")
    async def games(request: Request) -> Template:
        await run(lambda: director(request))
        return Template(template_name="games.html", context=await run(games_ctx))

    @post("/d/new")
    async def new_game(request: Request) -> Template:
        """A new game: roster and seed (the manifest's deal), or a deal file (TOML, uploaded or
        pasted, as ``bansha new --deal``), with house rules (``--option``) from the fields the
        ruleset's [option_types] give."""
        await run(lambda: director(request))
        form = await request.form()
        name = (form.get("name") or "").strip()
        ruleset = (form.get("ruleset") or "").strip()
        roster = [n for n in (form.get("roster") or "").replace("，", ",").replace(",", "\n").split() if n.strip()]
        seed_text = (form.get("seed") or "0").strip()
        upload = form.get("deal")
        deal_raw = await upload.read() if hasattr(upload, "read") else b""
        deal_raw = deal_raw or (form.get("deal_text") or "").strip().encode()

        def create():
            from bansha import deal as dealing
            from bansha.cli import _check_deal
            from bansha.model import Deal
            from bansha.names import MAX_GAME_NAME, check_name
            from bansha.options import check_options
            from bansha.registry import decode_toml, find_manifest, ruleset_for

            m = find_manifest(ruleset)
            rs = ruleset_for(m)
            game_name = check_name(name, "what_game", rs.lang, limit=MAX_GAME_NAME)
            if not seed_text.lstrip("-").isdigit():
                raise GameError(f"种子 {seed_text!r}：应为整数")
            seed = int(seed_text)
            if not 0 <= seed <= 2**63 - 1:
                raise GameError(f"种子 {seed}：应在 0 到 2^63−1 之间")
            opts = check_options(m, logic.changed_options(m, form.get), "--option", rs.lang)
            if deal_raw:
                setups = decode_toml(deal_raw, Deal, "发牌文件").players
                _check_deal(rs, setups, "发牌文件")
                dealt_by = "发牌文件"
            else:
                if not roster:
                    raise GameError("请填写玩家名单（一行一个），或上传发牌文件")
                setups = dealing.deal(rs, roster, seed)
                dealt_by = f"seed {seed}"
            store.create(game_name, Setup(ruleset=m.id, manifest=m, players=setups, seed=seed, options=opts, dealt_by=dealt_by))
            return game_name, tokens.new_players(game_name, [p.name for p in setups])

        try:
            created, links = await run(create)
        except GameError as exc:
            refusal = str(exc)
            return Template(template_name="games.html", status_code=422, context=await run(lambda: games_ctx(refusal)))
        ctx = await run(lambda: console_ctx(created, message="游戏已创建；以下链接只显示这一次", links=links))
        return Template(template_name="console.html", context=ctx)

    @get("/d/g/{game:str}")
    async def console(request: Request, game: FromPath[str]) -> Template:
        await run(lambda: director(request))
        return Template(template_name="console.html", context=await run(lambda: console_ctx(game)))

    @get("/d/g/{game:str}/table")
    async def console_table(request: Request, game: FromPath[str]) -> Template:
        await run(lambda: director(request))
        return Template(template_name="_state.html", context=await run(lambda: console_ctx(game)))

    async def _director_write(request: Request, game: str, make) -> Template:
        await run(lambda: director(request))
        form = await request.form()

        def write():
            with write_locks[game]:
                return make(form)

        try:
            msg = await run(write)
            special = isinstance(msg, dict) and ("preview" in msg or "amend" in msg)
            ctx = await run(lambda: console_ctx(game, message=msg if isinstance(msg, str) else "",
                                                links=msg if isinstance(msg, dict) and not special else None,
                                                preview=msg.get("preview") if isinstance(msg, dict) else None,
                                                amend=msg.get("amend") if isinstance(msg, dict) else None))
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
            g = store.peek(game)
            return {"preview": {**logic.preview(g), "seq": store.last_seq(game)}}
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

    def _amend_input(form):
        """The input an amend form names: act (a seat's skill and targets), unact or vote."""
        kind = form.get("kind") or ""
        if kind in ("act", "unact"):
            player, _, skill = (form.get("act") or "").partition("\t")
            targets = [t for t in _all(form, "target") if t] if kind == "act" else []
            if kind == "act":
                return lambda label: ActEvent(phase=label, actor=player, skill=skill, targets=targets, args={})
            return lambda label: UnactEvent(phase=label, actor=player, skill=skill)
        if kind == "vote":
            voter, target = form.get("voter") or "", form.get("vote_target") or ""
            return lambda label: VoteEvent(phase=label, voter=voter, target=target, proxy=True)
        raise GameError(f"修正 {kind!r}：应为 act、unact 或 vote")

    @post("/d/g/{game:str}/amend")
    async def d_amend(request: Request, game: FromPath[str]) -> Template:
        """Amend a closed phase: without ``confirm`` the diff of what it changes (nothing
        stored); with it, written (the diff recomputed on the state it is written to)."""
        from bansha.cli_loop import amendment

        def make(form):
            phase, make_input = form.get("phase") or "", _amend_input(form)
            if form.get("confirm") != "1":
                ev, label, diff = amendment(store.load(game), phase, make_input)  # a private copy
                return {"amend": {"label": label, "what": _amend_what(ev.event), "diff": diff,
                                  "fields": [(k, v) for k, v in form.multi_items() if k != "_csrf_token"]}}
            written = {}

            def event(g):  # on the state it is written to, its record too (a copy: apply changes it)
                written["ev"], written["label"], _ = amendment(logic.private_copy(g), phase, make_input)
                return written["ev"]

            store.append(game, event, shared=True)
            return f"已写入修正（{written['label']}）：{_amend_what(written['ev'].event)}；受影响的玩家请重发私信"
        return await _director_write(request, game, make)

    @post("/d/g/{game:str}/ruling")
    async def d_ruling(request: Request, game: FromPath[str]) -> Template:
        from bansha.cli import _kv
        from bansha.model import RulingEvent

        def make(form):
            kind, player, text = (form.get("kind") or "").strip(), form.get("player") or "", form.get("text") or ""
            data = _kv([line for line in (form.get("data") or "").splitlines() if line.strip()], "参数", "zh")

            def event(g):
                if kind not in g.ruleset.ruling_kinds:
                    raise GameError(f"裁定 {kind!r}：本规则的裁定种类为 {'、'.join(g.ruleset.ruling_kinds)}")
                return RulingEvent(phase=g.label, kind=kind, player=g.find_name(player) if player else "",
                                   text=text, data=data)

            g, mark = store.append(game, event, shared=True)
            ann = g.since(mark)[1]
            return f"已记录裁定 {kind}（{g.label}）" + (f"：{'；'.join(ann)}" if ann else "")
        return await _director_write(request, game, make)

    @post("/d/g/{game:str}/deadline")
    async def d_deadline(request: Request, game: FromPath[str]) -> Template:
        import datetime as dt
        import json

        def make(form):
            g = store.peek(game)
            at = (form.get("at") or "").strip().replace("T", " ")
            if not at:
                deadlines.set(game, None)
                return "已清除截止时间"
            try:
                when = dt.datetime.strptime(at, "%Y-%m-%d %H:%M")
            except ValueError:
                raise GameError(f"截止时间 {at!r}：应为 YYYY-MM-DD HH:MM") from None
            deadlines.set(game, json.dumps({"phase": g.label, "at": when.strftime("%Y-%m-%d %H:%M")}, ensure_ascii=False))
            return f"{g.label} 截止：{when:%Y-%m-%d %H:%M}"
        return await _director_write(request, game, make)

    @get("/d/g/{game:str}/events")
    async def d_events(request: Request, game: FromPath[str]) -> ServerSentEvent:
        await run(lambda: director(request))
        await run(lambda: load(game))

        async def stream():
            yield {"event": "hello", "data": "0"}
            async for changed in hub.changes(game):
                yield {"event": "change" if changed else "ping", "data": str(hub.version[game])}

        return ServerSentEvent(stream())

    # --------------------------------------------------------------------- player

    @get("/p/{token:str}")
    async def p_page(request: Request, token: FromPath[str]) -> Template:
        game, name = await run(lambda: seat_of(request, token))
        return Template(template_name="player.html", context=await run(lambda: player_ctx(game, name, token)))

    @get("/p/{token:str}/view")
    async def p_view(request: Request, token: FromPath[str]) -> Template:
        game, name = await run(lambda: seat_of(request, token))
        return Template(template_name="_pstate.html", context=await run(lambda: player_ctx(game, name, token)))

    async def _player_write(request: Request, token: str, make) -> Template:
        game, name = await run(lambda: seat_of(request, token))
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
        game, name = await run(lambda: seat_of(request, token))

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
                        d_resolve, d_undo, d_link, d_amend, d_ruling, d_deadline, d_events, p_page, p_view, p_act, p_unact, p_vote, p_events,
                        create_static_files_router(path="/static", directories=[HERE / "static"])],
        template_config=TemplateConfig(directory=HERE / "templates", engine=JinjaTemplateEngine),
        csrf_config=csrf,
        exception_handlers={Exception: html_error},
        before_send=[security_headers],
        debug=False,
    )
