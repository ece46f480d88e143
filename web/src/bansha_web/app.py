"""The Litestar application of ``bansha serve`` (docs/web.md, docs/security.md): the
director's routes (director.py), a player's (player.py) and the static files (here), one CSRF
check whose secret lives in the store, and one error page for whatever is refused or fails —
in the board's language, saying what to do; to an htmx request as a notice on the open page.
"""

from __future__ import annotations

import logging
import secrets
from pathlib import Path

from litestar import Litestar, Request, Response, get
from litestar.config.csrf import CSRFConfig
from litestar.exceptions import HTTPException, NotFoundException, PermissionDeniedException
from litestar.middleware import DefineMiddleware
from litestar.middleware.csrf import CSRFMiddleware
from litestar.params import FromPath
from litestar.plugins.jinja import JinjaTemplateEngine
from litestar.response import Template
from litestar.template.config import TemplateConfig

from . import activity, director, forumdoor, player, stats
from .messages import ERR
from .site import Site, Throttle, is_htmx

HERE = Path(__file__).parent
CSRF_COOKIE = "bansha_csrf"
CSRF_KEY = "web.csrf_secret"
#: the largest request body (a deal file is a few kilobytes; a roster of 100 names less)
MAX_BODY = 512 * 1024
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # a player's link never leaves in a Referer header
    "Cache-Control": "no-store",
}
STATIC_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}


def csrf_secret(store) -> str:
    """The CSRF secret of the store: made by the first server that needs it and kept in the
    store's meta table beside the tokens' hashes, so that a restarted server, and every
    other server process on the same store, accepts the forms the pages already show. The
    second process to start reads the first one's; two started at the same instant on an
    empty store agree on whichever added it first (``Store.add_meta``: insert if absent and
    read back, one transaction)."""
    got = store.get_meta([CSRF_KEY]).get(CSRF_KEY)
    if got:
        return got
    return store.add_meta({CSRF_KEY: secrets.token_hex(32)})[CSRF_KEY]


class StoreCSRF(CSRFMiddleware):
    """Litestar's double-submit check, with two changes: a page load whose CSRF cookie does
    not verify under the secret (made by another secret, or forged) gets a new cookie, so the
    forms of the page it renders work; and the refusal is the board's language with what to
    do, not "CSRF token verification failed"."""

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http" and scope["method"] in self.config.safe_methods:
            prefix = f"{self.config.cookie_name}=".encode()
            headers = []
            for k, v in scope["headers"]:
                if k == b"cookie" and prefix in v:
                    parts = [p.strip() for p in v.split(b";")]
                    stale = [p for p in parts if p.startswith(prefix)
                             and self._decode_csrf_token(p[len(prefix):].decode("latin-1")) is None]
                    if stale:
                        v = b"; ".join(p for p in parts if p not in stale)
                headers.append((k, v))
            scope["headers"] = headers
        try:
            await super().__call__(scope, receive, send)
        except PermissionDeniedException as exc:
            if exc.detail == "CSRF token verification failed":
                raise PermissionDeniedException(detail=ERR["csrf"]) from None
            raise


def no_reload(engine: JinjaTemplateEngine) -> None:
    """The shipped templates never change while the server runs: Jinja's default asks the file
    system for every template's mtime on every render (7 ``stat`` calls a page, ~0.35 ms of the
    event loop's time a request under the benchmark's load, docs/performance.md)."""
    engine.engine.auto_reload = False


def _static_files() -> dict[str, tuple[bytes, str]]:
    """The static files, read once: only these names are served (no path from a request
    ever reaches the file system)."""
    out = {}
    for f in (HERE / "static").iterdir():
        if f.suffix in STATIC_TYPES:
            out[f.name] = (f.read_bytes(), STATIC_TYPES[f.suffix])
    return out


def create_app(store, tokens, secret: str | None = None, throttle: Throttle | None = None,
               inline: bool | None = None) -> Litestar:
    site = Site(store, tokens, throttle=throttle, inline=inline)
    files = _static_files()

    @get("/", sync_to_thread=False)
    def index() -> Template:
        return Template(template_name="index.html", context={})

    @get("/static/{name:str}", sync_to_thread=False)
    def static(name: FromPath[str]) -> Response:
        hit = files.get(name)
        if hit is None:
            raise NotFoundException(detail=ERR["not_found"])
        return Response(content=hit[0], media_type=hit[1])

    # ---------------------------------------------------------------------- errors

    def html_error(request: Request, exc: Exception) -> Response:
        headers = {}
        if isinstance(exc, HTTPException):
            status, detail = exc.status_code, str(exc.detail)
            headers = dict(exc.headers or {})
            if status == 404 and detail in ("Not Found", ""):
                detail = ERR["not_found"]
            elif status == 405:
                detail = ERR["post_only"]
            elif status == 413:
                detail = ERR["too_large"].format(limit=f"{MAX_BODY // 1024} KB")
            elif status == 400:
                detail = ERR["bad_request"]
            elif status == 429 and not detail.startswith("尝试"):
                detail = ERR["throttled"].format(seconds=60)
        else:
            status, detail = 500, ERR["internal"]
            # for the operator: the exception, never the request's URL (a player's token)
            logging.getLogger("bansha_web").error("internal error: %s: %s", type(exc).__name__, exc,
                                                  exc_info=(type(exc), exc, exc.__traceback__))
        if is_htmx(request):
            # an open page's form or refresh: the notice shows on the page, above its state
            headers.update({"HX-Retarget": "#said", "HX-Reswap": "innerHTML"})
            return Template(template_name="_notice.html", context={"error": detail, "status": status},
                            status_code=status, headers=headers)
        return Template(template_name="error.html", context={"status": status, "detail": detail},
                        status_code=status, headers=headers)

    raw_headers = [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]

    async def security_headers(message, scope) -> None:
        # every response, errors, static files and event streams included
        if message["type"] == "http.response.start":
            present = {k.lower() for k, _ in message.get("headers", [])}
            message["headers"] = [*message.get("headers", []), *(h for h in raw_headers if h[0] not in present)]

    csrf = CSRFConfig(secret=secret or csrf_secret(store), cookie_httponly=True, cookie_samesite="strict",
                      cookie_name=CSRF_COOKIE, header_name="x-csrftoken")
    app = Litestar(
        route_handlers=[index, static, *director.routes(site), *player.routes(site), *stats.routes(site),
                        *activity.routes(site), *forumdoor.routes(site)],
        template_config=TemplateConfig(directory=HERE / "templates", engine=JinjaTemplateEngine,
                                       engine_callback=no_reload),
        middleware=[DefineMiddleware(StoreCSRF, config=csrf)],
        exception_handlers={Exception: html_error},
        before_send=[security_headers],
        request_max_body_size=MAX_BODY,
        debug=False,
    )
    app.state.site = site
    return head_as_get(app)


def head_as_get(app):
    """``HEAD`` answered as ``GET`` without its body (Litestar routes a GET handler to GET only):
    the GET's status and headers, then an empty body at once and the GET stopped (an event
    stream's GET never ends by itself)."""
    import asyncio

    async def asgi(scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "HEAD":
            return await app(scope, receive, send)
        started = asyncio.Event()

        async def headers_only(message):
            if message["type"] == "http.response.start" and not started.is_set():
                await send(message)
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                started.set()

        task = asyncio.ensure_future(app({**scope, "method": "GET"}, receive, headers_only))
        waiter = asyncio.ensure_future(started.wait())
        await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
        for t in (task, waiter):
            t.cancel()
        await asyncio.gather(task, waiter, return_exceptions=True)

    asgi.litestar = app  # the app itself, for tests and uvicorn's lifespan
    return asgi
