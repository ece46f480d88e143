"""``bansha board …``: a board as written by hand: ``show`` (the resolved manifest, ``extends``
and ``[[edits]]`` applied), ``diff`` (what differs between two boards) and ``new`` (a variant's
installable distribution, scaffold.py). Like cli/db.py, its own table, added by one line in cli.py."""

from __future__ import annotations

from bansha.cli.db import _json, guarded
from bansha.cli.table import Argument, DbOpt, GameArg, JsonOpt, Option, Table, echo
from bansha.text.messages import extend

extend({
    "h_board_reload": ("让一局改用修正后的规则：重新读入规则文件（--from）或已升级的发行包，整局记录按原样重放才接受",
                       "Move a game to its corrected board: read the board again (--from FILE, or the upgraded "
                       "distribution); accepted only when the game's whole log replays the same"),
    "h_board_reload_from": ("修正后的规则文件（默认：已安装的同 id 规则）", "the corrected board file (default: the installed board of the game's id)"),
})

board_app = Table(help="h_board_app")


@board_app.command("show", help="h_board_show")
@guarded
def board_show(ruleset: str = Argument(..., help="h_ruleset_ref"), as_json: bool = JsonOpt) -> None:
    """The board as the engine reads it: every key, whatever file it came from."""
    from bansha.door.compose import to_toml
    from bansha.engine.registry import resolved_table

    table = resolved_table(ruleset)
    if as_json:
        return _json(table)
    echo(to_toml(table), nl=False)


@board_app.command("diff", help="h_board_diff")
@guarded
def board_diff(a: str = Argument(..., help="h_ruleset_ref"), b: str = Argument(..., help="h_ruleset_ref"),
               as_json: bool = JsonOpt) -> None:
    """What differs from board A to board B: one line per key."""
    from bansha.door.compose import differences
    from bansha.engine.registry import resolved_table

    rows = differences(resolved_table(a), resolved_table(b))
    if as_json:
        return _json([{"key": k, "a": was, "b": now} for k, was, now in rows])
    for key, was, now in rows:
        if was and now and not was.startswith("-") and not now.startswith("+"):
            echo(f"{key}: {was} → {now}")
        else:
            echo(f"{key}: {' '.join(x for x in (was, now) if x)}")


@board_app.command("reload", help="h_board_reload")
@guarded
def board_reload(game: str = GameArg, source: str = Option(None, "--from", help="h_board_reload_from"),
                 db: str = DbOpt, as_json: bool = JsonOpt) -> None:
    """Re-read a stored game's board (reload.py): stored only if the whole log replays the same."""
    from bansha.store.reload import reload_board
    from bansha.store.store import open_store
    from bansha.text.messages import say

    setup, count = reload_board(open_store(db, cache=False), game, source)
    if as_json:
        return _json({"game": game, "ruleset": setup.manifest.id, "events": count})
    echo(say("reload_same", setup.manifest.language, game=game, ruleset=setup.manifest.id, count=count))


@board_app.command("new", help="h_board_new")
@guarded
def board_new(board_id: str = Argument(..., help="h_board_new_id"),
              extends: str = Option(..., "--extends", help="h_board_new_extends"),
              into: str = Option(".", "--dir", help="h_new_dir"), as_json: bool = JsonOpt) -> None:
    """Write an installable distribution of a variant of an installed board."""
    from bansha.authoring.scaffold import new_board

    folder = new_board(board_id, extends, into)
    if as_json:
        return _json({"dir": str(folder)})
    echo(str(folder))


@guarded
def role_new(name: str = Argument(..., help="h_role_new_name"),
             board: str = Option(..., "--board", help="h_role_new_board"),
             alias: str = Option(None, "--alias", help="h_role_new_alias"),
             into: str = Option(".", "--dir", help="h_new_dir"), as_json: bool = JsonOpt) -> None:
    """Write an installable role distribution for an installed board (``bansha role new``)."""
    from bansha.authoring.scaffold import new_role

    folder = new_role(name, board, into, alias)
    if as_json:
        return _json({"dir": str(folder)})
    echo(str(folder))
