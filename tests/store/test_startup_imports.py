"""A command on a stored game pays only for what it uses (issue 9, start-up): reading a game
from SQLite, from the state the previous command kept, and showing it imports none of the
standard modules the kernel once imported on that path (pathlib and what it pulls in, json,
copy, threading, zlib). And the store spells a SQLite path as pathlib does."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from bansha.engine.deal import deal
from bansha.engine.engine import SILENT
from bansha.engine.model import ResolveEvent, Setup
from bansha.engine.registry import find_manifest, ruleset_for
from bansha.store.store import SQLiteStore, _path_parent, _path_text

NOT_ON_THE_PATH = ["pathlib", "urllib.parse", "ipaddress", "fnmatch", "json", "copy", "threading", "zlib"]

READ = """
import sys
from bansha.entrypoints import shorten_path; shorten_path()
from bansha.store import statecache
from bansha.store.store import open_store
from bansha.show.views import director_view
restore, kept = statecache.restore, []
def counted(*args):
    out = restore(*args)
    kept.append(out[0] is not None)
    return out
statecache.restore = counted
s = open_store(sys.argv[1], cache=False); s.keep_states = True
g = s.load("g"); director_view(g)
loaded = [m for m in NOT_ON_THE_PATH if m in sys.modules]
import json  # after the load, to print: the list says what the load imported
print(json.dumps({"label": g.label, "kept": kept, "loaded": loaded}))
"""


def _read(db: Path, cache: Path) -> dict:
    env = {"PATH": "", "BANSHA_CACHE_DIR": str(cache), "PYTHONHASHSEED": "0"}
    code = f"NOT_ON_THE_PATH = {NOT_ON_THE_PATH!r}\n{READ}"
    r = subprocess.run([sys.executable, "-c", code, str(db)], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_a_stored_game_is_read_without_the_modules_it_does_not_need(tmp_path):
    m = find_manifest("qisha-xia")
    names = [f"P{i:02d}" for i in range(1, m.tables[0].seats + 1)]
    setup = Setup(ruleset=m.id, manifest=m, players=deal(ruleset_for(m), names, 5), seed=5)
    db = tmp_path / "g.db"
    store = SQLiteStore(db, logger=lambda _n: SILENT)
    store.create("g", setup)
    for _ in range(3):
        store.append("g", lambda g: ResolveEvent(phase=g.label))
    label = store.load("g").label
    cache = tmp_path / "cache"
    # the first command scans the entry points (importlib.metadata needs pathlib), replays the
    # log and keeps the state; the next reads the entry points' cache and the kept state
    first = _read(db, cache)
    assert first["label"] == label and first["kept"] == [False]
    assert _read(db, cache) == {"label": label, "kept": [True], "loaded": []}


@pytest.mark.parametrize("text", ["g.db", "./g.db", "a//b/g.db", "a/./b/", "/", "//x/g.db", "///x/g.db",
                                  "../g.db", "a/../g.db", "/tmp//x/", ".", "./", "x/."])
def test_a_sqlite_path_is_spelt_as_pathlib_spells_it(text):
    assert _path_text(text) == str(Path(text))
    assert _path_parent(_path_text(text)) == str(Path(text).parent)


def test_the_store_path_is_still_a_path(tmp_path):
    store = SQLiteStore(str(tmp_path) + "//sub/./g.db", logger=lambda _n: SILENT)
    assert store.path == tmp_path / "sub" / "g.db" and store.url == str(tmp_path / "sub" / "g.db")
    assert store.path.is_file()  # the folder on the way was made


def _spec(spec) -> tuple:
    where = spec.submodule_search_locations
    return (spec.name, spec.origin, spec.cached, type(spec.loader), None if where is None else list(where),
            spec.parent, spec.has_location)


def test_a_plugin_modules_spec_is_the_path_finders():
    from importlib.machinery import PathFinder

    from bansha import entrypoints

    entrypoints._table()
    finder = entrypoints._FolderFinder()
    checked = 0
    for folder, entries in (entrypoints._LISTINGS or {}).items():
        for entry in entries:
            name = entry.removesuffix(".py")
            finder.folders[name] = folder
            if entry != name:
                finder.files[name] = entry
            ours, theirs = finder.find_spec(name), PathFinder.find_spec(name, [folder])
            assert _spec(ours) == _spec(theirs)
            checked += entry != name
    assert checked > 10  # the role plugins are lone source files, made without the folder's scan
