"""`bansha hello`: an example of a command another distribution adds to `bansha`.

The entry point (group ``bansha.commands``) names a ``typer.Typer``; its name is the command's
name. bansha imports this module only when ``bansha hello`` is typed or the help is asked for,
so it imports nothing heavy at the top: what a command needs is imported in its body.
"""

import typer

app = typer.Typer(help="Greet the living players of a stored game.", no_args_is_help=True)


@app.command()
def hello(game: str, db: str = typer.Option(None, "--db", envvar="BANSHA_DB", help="game database file or postgresql:// URL")) -> None:
    """Say hello to each living player of GAME."""
    from bansha import GameError
    from bansha.store.store import Store

    try:
        g = Store(db).load(game)
    except GameError as exc:  # the kernel's refusals are one line and exit 2, here too
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    for p in g.alive():
        typer.echo(f"你好，{p.name}")
