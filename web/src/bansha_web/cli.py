"""``bansha serve``: the entry point in ``bansha.commands`` (imported only when typed)."""

from __future__ import annotations

import os

import typer


def _open(db: str | None):
    from bansha.cli import _logger
    from bansha.store import open_store

    from .tokens import Tokens

    options = {"pool_size": 4} if db and "://" in db and not db.startswith("sqlite") else {}
    # the CLI's event logger: silent unless BANSHA_LOG is set. structlog on every submission
    # cost ~0.9 ms of a ~2 ms write, and printed who acted on whom on the server's terminal
    store = open_store(db, logger=_logger, **options)
    store.names(limit=1)  # a bad store is one line now, not on the first request
    return store, Tokens(store)  # hashes in the store's meta table: every process on it shares them


def worker_app():
    """The app of one of ``--workers N`` processes (uvicorn imports this factory in each): the
    store named by the parent, and the parent's CSRF secret, so that a form rendered by one
    worker is accepted by another."""
    from .app import create_app

    store, tokens = _open(os.environ["BANSHA_SERVE_DB"] or None)
    return create_app(store, tokens, secret=os.environ["BANSHA_SERVE_CSRF"])


def serve(
    db: str = typer.Option(None, "--db", envvar="BANSHA_DB", help="game database: a SQLite file or a postgresql:// URL"),
    host: str = typer.Option("127.0.0.1", "--host", help="address to listen on"),
    port: int = typer.Option(8000, "--port", help="port to listen on"),
    workers: int = typer.Option(1, "--workers", min=1, max=64,
                                help="server processes on the one port (PostgreSQL: more throughput; docs/performance.md)"),
) -> None:
    """Serve the director's console and every player's page for the games of the store."""
    import secrets

    import uvicorn
    from bansha.model import GameError

    from .app import create_app

    try:
        store, tokens = _open(db)
    except GameError as exc:
        typer.echo(f"错误：{exc}", err=True)
        raise typer.Exit(2) from None
    token = tokens.new_director()  # in the store: every worker accepts it
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    typer.echo("bansha serve: 导演登录链接（请勿外传）:")
    typer.echo(f"    http://{shown}:{port}/login/{token}")
    # no access log: a player's URL is their token (docs/security.md)
    common = {"host": host, "port": port, "access_log": False, "log_level": "warning", "timeout_graceful_shutdown": 2}
    if workers == 1:
        uvicorn.run(create_app(store, tokens), **common)
        return
    store.close()
    os.environ["BANSHA_SERVE_DB"] = db or ""
    os.environ["BANSHA_SERVE_CSRF"] = secrets.token_hex(32)  # this process's children only
    uvicorn.run("bansha_web.cli:worker_app", factory=True, workers=workers, **common)
