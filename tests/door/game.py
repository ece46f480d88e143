"""A qisha-xia game for the door's tests: the demo's deal with each seat bound to a forum uid
(1000 + seat), the director uid 1, played from the demo script as far as asked."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from clirun import run_main
from forumserver import DiscuzStandIn, discuz_site

DEMO = Path(__file__).resolve().parents[2] / "rulesets/qisha-xia/bansha_qisha_xia/demos/qisha-xia.toml"
SCRIPT = tomllib.loads(DEMO.read_text(encoding="utf-8"))
DIRECTOR = 1
TID = 77


def uid_of(seat: int) -> int:
    return 1000 + seat


def bansha(*args, db) -> str:
    code, out, err = run_main([*args, "--db", str(db)])
    assert code == 0, out + err
    return out


def new_game(tmp_path: Path, name: str = "g", db=None):
    """The game in ``db`` (a SQLite file in ``tmp_path`` by default, or a postgresql:// URL)."""
    db = db or tmp_path / "games.db"
    deal = tmp_path / "deal.toml"
    deal.write_text("".join(f'[[players]]\nname = "{p["name"]}"\nrole = "{p["role"]}"\nuid = "{uid_of(i)}"\n'
                            for i, p in enumerate(SCRIPT["players"], start=1)), encoding="utf-8")
    bansha("new", name, "--ruleset", "qisha-xia", "--deal", str(deal), db=db)
    return db


def play(db: Path, phases: int, name: str = "g") -> None:
    """The demo's first ``phases`` phases typed as commands (what the door replaces)."""
    for phase in SCRIPT["phases"][:phases]:
        for a in phase.get("actions", []):
            args = [x for k, v in a.get("args", {}).items() for x in ("--arg", f"{k}={v}")]
            bansha("act", name, a["actor"], a["skill"], *a.get("targets", []), *args, db=db)
        for v in phase.get("votes", []):
            bansha("vote", name, v["voter"], v["target"], "--post", str(v["post"]), *(["--change"] if v.get("change") else []), db=db)
        bansha("resolve", name, "--yes", db=db)


def site_with_players(charset: str = "UTF-8", flood: float = 0.0) -> DiscuzStandIn:
    site = DiscuzStandIn(charset=charset, flood=flood)
    site.add_user(DIRECTOR, "导演")
    for i, p in enumerate(SCRIPT["players"], start=1):
        site.add_user(uid_of(i), p["name"])
    site.new_thread(TID, DIRECTOR, "【七杀·侠】第一局", "游戏主帖")
    return site


def cookies_file(tmp_path: Path, site: DiscuzStandIn, uid: int = DIRECTOR) -> Path:
    path = tmp_path / "cookies.txt"
    path.write_text(site.login_cookie(uid) + "\n", encoding="utf-8")
    return path


def link(db, tmp_path: Path, site: DiscuzStandIn, base: str, *, interval: str | None = "0", name: str = "g") -> str:
    """``bansha forum link`` of the game to the stand-in's main thread, logged in as the director
    (``interval``: seconds between sends; None: the default)."""
    return bansha("forum", "link", name, "--site", base, "--cookies", str(cookies_file(tmp_path, site)),
                  "--thread", str(TID), *(["--interval", interval] if interval is not None else []), db=db)


@contextmanager
def linked(tmp_path: Path, phases: int = 3) -> Iterator[tuple[Path, DiscuzStandIn, str]]:
    """``(db, site, base)``: the game played ``phases`` phases (3: day 1, its run-off, night 1),
    the stand-in forum serving at ``base`` for the block, the game linked to its main thread."""
    db = new_game(tmp_path)
    play(db, phases)
    site = site_with_players()
    with discuz_site(site) as base:
        link(db, tmp_path, site, base)
        yield db, site, base
