"""A game's live state kept on disk between commands, so that a command does not replay the log.

Every command rebuilds the game from its log (the log is the game: docs/store.md). On a
20-day game that replay is most of a command's own work (docs/performance.md), and it is the
same work each time. So a command of the CLI leaves the state it ended with in a cache file,
and the next command starts from that file when — and only when — it is the state of exactly
the stored log it reads:

- the file names a digest of the set-up and of the first ``n`` stored events, byte for byte;
  the next command computes the same digest over what the store returns and, if it matches,
  applies only the events after the ``n``th. An undo, an amend, a copied or replaced
  database, another writer: whatever changed the log changes the digest, and the game is
  replayed from its set-up as before (and the file rewritten);
- the file names every source file the state was computed with (the kernel, the rules'
  plugins, anything they imported from outside the standard library and the installed
  packages) with its modification time and size, and the interpreter's path entries with
  theirs (an install or upgrade changes those): edited or reinstalled code replays;
- anything unreadable, or a state that cannot be written (a plugin keeping a function in the
  game's data), is a miss, never an error.

The files are pickles in the user's own cache folder (``BANSHA_CACHE_DIR``, as the entry-point
cache; ``BANSHA_NO_CACHE=1`` turns both off): code that runs only from there, like Python's own
``__pycache__``. The live state and the set-up are written (unpickling a set-up is quicker than
making its decoder); the ruleset and its plugin manager are the command's own.
"""

from __future__ import annotations

import _pickle as pickle
import os
import sys

# the C modules themselves: pickle.py and hashlib (OpenSSL) cost a command more to import
# than the whole restore (docs/performance.md); the blake2 and pickle they serve are these
from _blake2 import blake2b
from typing import Any

from bansha import entrypoints

#: bumped when the file's layout changes
_FORMAT = 1
_PROTOCOL = 5
#: the declarations a game shares with its ruleset: never written, taken from the command's
#: own ruleset (the set-up is written: unpickling it is quicker than making its decoder)
SHARED = ("ruleset", "manifest", "pm", "hook", "log")


class LogDigest:
    """The running digest of a game's stored bytes: its set-up, then each event in order."""

    def __init__(self, setup_raw: bytes) -> None:
        self._h = blake2b(setup_raw, digest_size=20)
        self.count = 0

    def add(self, raw: bytes) -> None:
        self._h.update(len(raw).to_bytes(4, "big"))
        self._h.update(raw)
        self.count += 1

    def hexdigest(self) -> str:
        return self._h.hexdigest()


#: states kept per game: the newest and the two before it, so that an undo (or two) finds one
KEEP = 3
#: games kept: when a command starts a new game's folder, the folders of the least recently
#: written games beyond these go (a game deleted from its store, a test's or a simulation's
#: throwaway database would otherwise stay on disk for ever); a game that comes back replays once
MAX_GAMES = 100


def _folder(store_url: str, name: str) -> str | None:
    """The game's folder of states, one file per event count (``<n>.pickle``)."""
    root = entrypoints.cache_root()
    if root is None:
        return None
    return os.path.join(root, "states", entrypoints.short_key(f"{sys.prefix}\0{store_url}\0{name}"))


def _counts(folder: str) -> list[int]:
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return sorted(int(n.partition(".")[0]) for n in names if n.endswith(".pickle") and n.partition(".")[0].isdigit())


def _stamp(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def _sources() -> list[tuple[str, tuple[int, int] | None]]:
    """The source files of this process's modules that the standard library and the installed
    (non-editable) packages do not hold: the kernel and plugins of a checkout, a community
    plugin's folder. An installed package changes the path entries' stamps instead."""
    fixed = tuple({os.path.join(p, "") for p in (sys.base_prefix, sys.prefix, sys.exec_prefix)})
    seen = []
    for mod in list(sys.modules.values()):
        path = getattr(mod, "__file__", None)
        if path and not path.startswith(fixed):
            seen.append(path)
    return [(p, _stamp(p)) for p in sorted(set(seen))]


def restore(store_url: str, name: str, game_cls, setup_raw: bytes,
            rows: list[tuple[int, bytes]]) -> tuple[tuple[Any, int] | None, LogDigest]:
    """((the game after its first ``n`` stored events, ``n``) from the newest kept state of
    a prefix of ``rows``, or None; the digest of the whole log, for the next :func:`save`)."""
    folder = _folder(store_url, name)
    counts = set(_counts(folder)) if folder is not None else set()
    # one pass over the log: the digest of each kept prefix, and of the whole
    digests, digest = {}, LogDigest(setup_raw)
    if 0 in counts:
        digests[0] = digest.hexdigest()
    for i, (_, raw) in enumerate(rows, start=1):
        digest.add(raw)
        if i in counts:
            digests[i] = digest.hexdigest()
    return _restored(folder, game_cls, digests), digest


def _restored(folder: str | None, game_cls, digests: dict[int, str]) -> tuple[Any, int] | None:
    for n in sorted(digests, reverse=True):  # the newest state of this very log
        try:
            with open(os.path.join(folder, f"{n}.pickle"), "rb") as f:
                head, state_raw = pickle.load(f)
            if (head["format"] != _FORMAT or head["events"] != n or head["digest"] != digests[n]
                    or head["paths"] != entrypoints.path_stamps()):
                continue
            if any(_stamp(p) != stamp for p, stamp in head["sources"]):
                return None  # edited code: no older state of it is any better
            state = pickle.loads(state_raw)
            break
        except Exception:  # noqa: BLE001 - an unreadable state is a miss, whatever broke it
            continue
    else:
        return None
    from bansha.engine.engine import SILENT
    from bansha.engine.registry import ruleset_for

    try:
        ruleset = ruleset_for(state["setup"].manifest)
    except Exception:  # noqa: BLE001 - a plugin gone since: the replay names it
        return None
    game = game_cls.__new__(game_cls)
    game.__dict__.update(state)
    game.ruleset, game.manifest = ruleset, ruleset.manifest
    game.pm, game.hook = ruleset.pm, ruleset.hooks
    game.log = SILENT
    return game, n


def _refuse(obj):
    raise pickle.PicklingError(f"a game's state holds {type(obj).__name__}")


def save(store_url: str, name: str, game, digest: LogDigest) -> None:
    """Leave ``game`` (the state after the ``digest.count`` events digested) for the next
    command. Never raises: a state that cannot be written is replayed next time."""
    folder = _folder(store_url, name)
    if folder is None:
        return
    import io

    state = {k: v for k, v in game.__dict__.items() if k not in SHARED}
    buf = io.BytesIO()
    pickler = pickle.Pickler(buf, protocol=_PROTOCOL)
    # the plugin manager and the ruleset belong to the command, not to the state: a state that
    # reaches them (a rule keeping a reference in the game's data) is not cached at all
    pickler.dispatch_table = {type(game.pm): _refuse, type(game.ruleset): _refuse, type(game.hook): _refuse}
    try:
        pickler.dump(state)
    except Exception:  # noqa: BLE001 - a state that cannot be pickled costs a replay, no more
        return
    head = {"format": _FORMAT, "events": digest.count, "digest": digest.hexdigest(),
            "paths": entrypoints.path_stamps(), "sources": _sources()}
    new_game = not os.path.isdir(folder)
    path = os.path.join(folder, f"{digest.count}.pickle")
    if not entrypoints.write_whole(path, pickle.dumps((head, buf.getvalue()), protocol=_PROTOCOL), folder_mode=0o700):
        return
    if new_game:
        _forget_old_games(os.path.dirname(folder))
    # states past this one are of a log undone since; keep the newest few before it
    counts = _counts(folder)
    older = [c for c in counts if c < digest.count]
    for c in [c for c in counts if c > digest.count] + older[:max(0, len(older) - (KEEP - 1))]:
        try:
            os.unlink(os.path.join(folder, f"{c}.pickle"))
        except OSError:
            pass


def _forget_old_games(states: str) -> None:
    """Remove the folders of all but the :data:`MAX_GAMES` most recently written games (a
    folder's modification time is its newest save: every save adds or removes a file)."""
    try:
        folders = [e for e in os.scandir(states) if e.is_dir(follow_symlinks=False)]
    except OSError:
        return
    if len(folders) <= MAX_GAMES:
        return
    def written(entry):
        try:
            return entry.stat(follow_symlinks=False).st_mtime_ns
        except OSError:
            return 0
    folders.sort(key=written, reverse=True)
    for entry in folders[MAX_GAMES:]:
        try:
            for f in os.scandir(entry.path):
                os.unlink(f.path)
            os.rmdir(entry.path)
        except OSError:
            pass  # another command's write in between: it is gone next time
