"""``bansha serve``: the entry point in ``bansha.commands`` (imported only when typed, or for
the list of commands of ``bansha --help``).

The entry point ``serve`` is a typer app of one command, so that its help is given by catalogue
keys (``help="h_serve"``, added to the kernel's catalogue by ``extend``): ``bansha serve
--help`` speaks ``BANSHA_LANG``, else Chinese, like the kernel's commands."""

from __future__ import annotations

import os

import typer
from bansha.cli.help import App
from bansha.text.messages import extend

extend({
    "h_serve": ("为数据库中的游戏提供导演控制台和每个玩家的页面。",
                "Serve the director's console and every player's page for the games of the store."),
    "h_serve_db": ("游戏数据库：SQLite 文件或 postgresql:// 地址", "game database: a SQLite file or a postgresql:// URL"),
    "h_serve_host": ("监听的地址（默认 127.0.0.1；--new-director 不给时用本库服务器监听的地址）", "address to listen on (default 127.0.0.1; for --new-director, by default the address the server of this store listens on)"),
    "h_serve_port": ("监听的端口", "port to listen on"),
    "h_serve_new_director": ("为导演 NAME 发一个登录链接并退出（站点模式：该导演只能打开自己创建的游戏）",
                             "issue a login link for the director NAME and exit (site mode: that director opens only their own games)"),
    "h_serve_revoke_director": ("收回导演 NAME 的全部登录链接并退出", "revoke every login link of the director NAME and exit"),
    "h_serve_workers": ("同一端口上的服务器进程数（核多的主机；2 核上一个进程的尾延迟最低：docs/performance.md）",
                        "server processes on the one port (hosts with more cores; on 2 cores one process has the lowest tail: docs/performance.md)"),
})


def _open(db: str | None):
    from bansha.cli.cli import _logger
    from bansha.store.store import open_store

    from .tokens import Tokens

    options = {"pool_size": 4, "listen": True} if db and "://" in db and not db.startswith("sqlite") else {}
    # the CLI's event logger: silent unless BANSHA_LOG is set. structlog on every submission
    # cost ~0.9 ms of a ~2 ms write, and printed who acted on whom on the server's terminal
    store = open_store(db, logger=_logger, **options)
    store.names(limit=1)  # a bad store is one line now, not on the first request
    return store, Tokens(store)  # hashes in the store's meta table: every process on it shares them


def tune_gc() -> None:
    """Fewer, cheaper garbage collections for a long-running server (measured in
    docs/performance.md, "The web server": the submission p99 at 50 clients). A request makes thousands of short-lived objects (a game's copy for a
    write, a page's render), so the default 700-allocation young generation collects many
    times a request and drags the old generations' full passes (over the cached games) into
    the latency tail; everything loaded at start (modules, the app) is frozen out of them."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 10, 10)


def worker_app():
    """The app of one of ``--workers N`` processes (uvicorn imports this factory in each): the
    store named by the parent, whose CSRF secret every worker reads (app.csrf_secret), so that
    a form rendered by one worker is accepted by another."""
    from .app import create_app

    store, tokens = _open(os.environ["BANSHA_SERVE_DB"] or None)
    app = create_app(store, tokens)
    tune_gc()
    return app


serve = App()


#: the store's meta key holding the address the last server of the store listens on
ADDRESS = "web.address"


@serve.command(help="h_serve")
def serve_command(
    db: str = typer.Option(None, "--db", envvar="BANSHA_DB", help="h_serve_db"),
    host: str = typer.Option(None, "--host", help="h_serve_host"),
    port: int = typer.Option(None, "--port", help="h_serve_port"),
    workers: int = typer.Option(1, "--workers", min=1, max=64, help="h_serve_workers"),
    new_director: str = typer.Option(None, "--new-director", help="h_serve_new_director"),
    revoke_director: str = typer.Option(None, "--revoke-director", help="h_serve_revoke_director"),
) -> None:
    """Serve the director's console and every player's page for the games of the store."""
    import uvicorn
    from bansha.engine.model import GameError

    from .app import create_app

    given = host is not None or port is not None  # an address typed: a director's link names it
    host = "127.0.0.1" if host is None else host
    port = 8000 if port is None else port
    # the address as typed, checked before anything is opened: an empty host would listen on
    # every interface, a port past 65535 on another port (70000 is 4464)
    if not host.strip() or host != host.strip() or any(c.isspace() or not c.isprintable() for c in host):
        typer.echo(f"错误：--host {host!r}：应为一个地址（如 127.0.0.1）；空的地址会监听所有网卡", err=True)
        raise typer.Exit(2)
    if not 1 <= port <= 65535:
        typer.echo(f"错误：--port {port}：应在 1 到 65535 之间", err=True)
        raise typer.Exit(2)
    try:
        store, tokens = _open(db)
    except GameError as exc:
        typer.echo(f"错误：{exc}", err=True)
        raise typer.Exit(2) from None
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    address = f"http://{'[' + shown + ']' if ':' in shown else shown}:{port}"
    if new_director is not None or revoke_director is not None:
        from bansha.door.names import check_name

        try:
            who = check_name(new_director if new_director is not None else revoke_director, "what_player", "zh")
        except GameError as exc:
            typer.echo(f"错误：{exc}", err=True)
            raise typer.Exit(2) from None
        if who == "*":
            typer.echo("错误：导演名不能是 *（站长）", err=True)
            raise typer.Exit(2)
        if revoke_director is not None:
            n = tokens.revoke_director(who)
            typer.echo(f"bansha serve: 已收回导演 {who} 的 {n} 个登录链接")
        else:
            typer.echo(f"bansha serve: 导演 {who} 的登录链接（请勿外传；只能打开该导演创建的游戏）:")
            # the address the server of this store listens on (it wrote it when it started),
            # unless one is typed
            if not given:
                address = store.get_meta([ADDRESS]).get(ADDRESS) or address
            typer.echo(f"    {address}/login/{tokens.new_director(who)}")
        store.close()
        return
    token = tokens.new_director()  # the store's owner; in the store: every worker accepts it
    from .app import csrf_secret

    csrf_secret(store)  # made now, before any worker starts: they all read this one
    store.set_meta({ADDRESS: address})  # where --new-director's links point
    typer.echo("bansha serve: 导演登录链接（请勿外传）:")
    typer.echo(f"    {address}/login/{token}")
    # no access log: a player's URL is their token (docs/security.md)
    common = {"host": host, "port": port, "access_log": False, "log_level": "warning", "timeout_graceful_shutdown": 2}
    if workers == 1:
        app = create_app(store, tokens)
        tune_gc()
        uvicorn.run(app, **common)
        return
    store.close()
    os.environ["BANSHA_SERVE_DB"] = db or ""
    uvicorn.run("bansha_web.cli:worker_app", factory=True, workers=workers, **common)
