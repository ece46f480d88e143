"""``bansha serve``: the entry point in ``bansha.commands`` (imported only when typed)."""

from __future__ import annotations

import typer


def serve(
    db: str = typer.Option(None, "--db", envvar="BANSHA_DB", help="game database: a SQLite file or a postgresql:// URL"),
    host: str = typer.Option("127.0.0.1", "--host", help="address to listen on"),
    port: int = typer.Option(8000, "--port", help="port to listen on"),
) -> None:
    """Serve the director's console and every player's page for the games of the store."""
    import uvicorn
    from bansha.model import GameError
    from bansha.store import open_store

    from .app import create_app
    from .tokens import Tokens

    try:
        options = {"pool_size": 4} if db and "://" in db and not db.startswith("sqlite") else {}
        # the CLI's event logger: silent unless BANSHA_LOG is set. structlog on every
        # submission cost ~0.9 ms of a ~2 ms write, and printed who acted on whom on the
        # server's terminal
        from bansha.cli import _logger

        store = open_store(db, logger=_logger, **options)
        store.names(limit=1)  # a bad store is one line now, not on the first request
        tokens = Tokens(store)  # hashes in the store's meta table: every process on it shares them
    except GameError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    token = tokens.new_director()
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    typer.echo("bansha serve: 导演登录链接（请勿外传）:")
    typer.echo(f"    http://{shown}:{port}/login/{token}")
    # no access log: a player's URL is their token (docs/security.md)
    uvicorn.run(create_app(store, tokens), host=host, port=port, access_log=False, log_level="warning",
                timeout_graceful_shutdown=2)
