"""``bansha db …``: the store itself (docs/store.md): its schema version, upgrading an older
store in place, copying games between stores (SQLite ↔ PostgreSQL), event for event.

Its own module and table of commands, added by one ``add_group`` line in cli.py. It imports
nothing from cli.py (cli.py imports it while it is being built), hence its own small copies of
the one-line error (the ``--db``/``--json`` options are cli/table.py's)."""

from __future__ import annotations

import functools
import json

from bansha.cli.table import Argument, DbOpt, JsonOpt, Table, echo


def guarded(fn):
    """A GameError (StoreError among them) is one line ``错误：…`` (``error: …`` with
    BANSHA_LANG=en) or a JSON object, and exit 2."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from bansha.engine.model import GameError

        try:
            return fn(*args, **kwargs)
        except GameError as exc:
            if kwargs.get("as_json"):
                echo(json.dumps({"error": str(exc), "code": 2}, ensure_ascii=False))
            else:
                from bansha.text.messages import say

                echo(say("error", None, message=" ".join(str(exc).split())), err=True)
            raise SystemExit(2) from None

    return wrapper


def _json(data) -> None:
    import msgspec

    echo(json.dumps(msgspec.to_builtins(data), ensure_ascii=False, indent=2))


db_app = Table(help="h_db_app")


def _open(url: str | None):
    from bansha.store.store import open_store

    return open_store(url, cache=False)


@db_app.command("info", help="h_db_info")
@guarded
def info(db: str = DbOpt, as_json: bool = JsonOpt) -> None:
    """The store's backend, schema version and number of games (said before any board is
    known: in BANSHA_LANG, else Chinese, like the store's refusals)."""
    from bansha.store.store import SCHEMA_VERSION
    from bansha.text.messages import say

    store = _open(db)
    version = store.schema_version()
    games = len(store.names()) if version == SCHEMA_VERSION else None
    row = {"store": store.url, "backend": type(store).__name__, "schema": version, "reads_up_to": SCHEMA_VERSION, "games": games}
    if as_json:
        return _json(row)
    echo(say("l_db_info", None, store=row["store"], backend=row["backend"], version=version, known=SCHEMA_VERSION)
         + (say("l_db_games", None, games=games) if games is not None else ""))


@db_app.command("upgrade", help="h_db_upgrade")
@guarded
def upgrade(db: str = DbOpt, as_json: bool = JsonOpt) -> None:
    """Migrate an older store to this bansha's schema, in place, in one transaction."""
    from bansha.text.messages import say

    store = _open(db)
    start, end = store.upgrade()
    if as_json:
        return _json({"store": store.url, "from": start, "to": end})
    echo(say("l_db_current", None, store=store.url, version=start) if start == end
         else say("l_db_upgraded", None, store=store.url, start=start, end=end))


@db_app.command("copy", help="h_db_copy")
@guarded
def copy(
    src: str = Argument(..., help="h_db_copy_src"),
    dst: str = Argument(..., help="h_db_copy_dst"),
    games: list[str] = Argument(None, help="h_db_copy_games"),
    as_json: bool = JsonOpt,
) -> None:
    """Copy games from SRC to DST event for event (each game in one transaction). A game
    already in DST is refused before anything is copied."""
    from bansha.engine.model import GameError
    from bansha.store.store import backend_class, scheme_of
    from bansha.text.messages import join, say

    if backend_class(src).__name__ == "SQLiteStore":  # a file to copy from: opening one would make it
        import os

        path = src.removeprefix("sqlite://") if scheme_of(src) == "sqlite" else src
        if not os.path.isfile(path):
            raise GameError(say("st_copy_no_source", None, src=src))
    source = _open(src)
    names = list(games or source.names())
    known = set(source.names())
    missing = [n for n in names if n not in known]
    if missing:
        raise GameError(say("st_copy_missing", None, src=src, names=join(map(repr, missing))))
    target = _open(dst)  # only once the source holds what is asked
    there = set(target.names())
    clash = [n for n in names if n in there]
    if clash:
        raise GameError(say("st_copy_clash", None, dst=dst, names=join(map(repr, clash))))
    prefixes = game_record_prefixes()
    done = []
    for name in names:
        setup, events = source.export_raw(name)
        outbox = source.export_outbox_raw(name)
        records = source.get_meta([f"{p}.{name}" for p in prefixes]) if prefixes else {}
        # the game's records first: a copy cut between them and the game leaves no game in DST,
        # and copying again writes them again
        if records:
            target.set_meta(records)
        target.import_raw(name, setup, events, outbox)
        done.append({"game": name, "events": len(events), "outbox": len(outbox), "records": sorted(records)})
    if as_json:
        return _json({"copied": done})
    for d in done:
        echo(say("l_db_copied", None, game=d["game"], events=d["events"])
             + (say("l_db_copied_outbox", None, n=d["outbox"]) if d["outbox"] else "")
             + (say("l_db_copied_records", None, n=len(d["records"])) if d["records"] else ""))


def game_record_prefixes() -> list[str]:
    """The store records that belong to one game and move with it (``PREFIX.GAME``), as the
    installed distributions declare them (``bansha.game_records`` entry points: bansha-forum's
    link and the PMs it pulled; not a push's lease, which is the source's)."""
    from bansha.engine.model import GameError
    from bansha.entrypoints import entry_points
    from bansha.text.messages import say

    out: list[str] = []
    for ep in entry_points("bansha.game_records"):
        try:
            out += [str(p) for p in ep.load()]
        except Exception as exc:  # noqa: BLE001 - a broken distribution: one line naming it
            raise GameError(say("st_records_plugin", None, name=ep.value, why=type(exc).__name__)) from None
    return out
