"""The entry points of bansha's groups, read once per state of the installation.

Every command needs a few of them (the ruleset manifests, the manifest's role plugins, a
command or a store someone installed), and finding them the standard way costs more than the
command: ``importlib.metadata`` reads every distribution's metadata (and its import alone is
~14 ms), and importing a plugin module searches every path entry that the workspace's ~80
editable installs add, one after the other (docs/performance.md).

So the first command after an install scans once and writes, for each of ``GROUPS``, the entry
points and the folder each one's module lives in, to a cache file; later commands read that
file and import each plugin module straight from its folder. The file is keyed by the
interpreter's path entries and their modification times: installing, upgrading or removing a
distribution changes the folder it goes into, so the very next command scans again and sees it.
``BANSHA_CACHE_DIR`` moves the file; ``BANSHA_NO_CACHE=1`` turns it off (every command scans).

Only the standard library is imported here, and ``importlib.metadata`` only to scan. The
file is a ``marshal`` of plain lists and strings: marshal is built into the interpreter, where
``json`` cost a command ~5 M instructions to import and ~1 M to read the file (callgrind).
Another interpreter's marshal is another file: the key holds ``sys.prefix`` and the stamps the
interpreter's own modification time.
"""

from __future__ import annotations

import marshal
import os
import sys

#: the entry-point groups bansha reads
GROUPS = ("bansha.roles", "bansha.rulesets", "bansha.commands", "bansha.stores", "bansha.forums", "bansha.demo",
          "bansha.board_sections", "bansha.game_records")
#: bumped when the cache file's layout changes (or its groups)
_FORMAT = 8
#: the cache file's name: ``entry-points-<key>`` and this
_SUFFIX = ".marshal"


class EntryPoint(tuple):
    """One entry point as the cache keeps it (the fields of importlib.metadata's): the tuple
    ``(name, value, group, dist, folder)``, ``dist`` the distribution that declares it,
    ``folder`` the folder its top-level module is found in ("" when the scan could not tell).

    A tuple with named fields written out: ``typing.NamedTuple`` compiles the class's
    ``__new__`` when this module is imported, ~1 M instructions of every command."""

    __slots__ = ()

    def __new__(cls, name: str, value: str, group: str, dist: str, folder: str):
        return tuple.__new__(cls, (name, value, group, dist, folder))

    def __getnewargs__(self):
        return tuple(self)

    def __repr__(self) -> str:
        return "EntryPoint(name={!r}, value={!r}, group={!r}, dist={!r}, folder={!r})".format(*self)

    name = property(lambda self: self[0])
    value = property(lambda self: self[1])
    group = property(lambda self: self[2])
    dist = property(lambda self: self[3])
    folder = property(lambda self: self[4])

    @property
    def module(self) -> str:
        return self.value.partition(":")[0].strip()

    def load(self):
        """Import the module (straight from its folder when known) and return the object."""
        import importlib

        top = self.module.partition(".")[0]
        if self.folder and top not in sys.modules:
            _finder().folders.setdefault(top, self.folder)
        obj = importlib.import_module(self.module)
        attr = self.value.partition(":")[2].strip()
        for part in attr.split(".") if attr else ():
            obj = getattr(obj, part)
        return obj


def entry_points(group: str) -> tuple[EntryPoint, ...]:
    """The installed entry points of ``group`` (one of ``GROUPS``)."""
    return _table().get(group, ())


_TABLE: dict[str, tuple[EntryPoint, ...]] | None = None
#: the editable folders entry points live in -> the top-level modules each holds (the cache's)
_LISTINGS: dict[str, list[str]] | None = None


def _table() -> dict[str, tuple[EntryPoint, ...]]:
    # one read per process: what is installed does not change under a running command
    global _TABLE, _LISTINGS
    if _TABLE is None:
        _TABLE, _LISTINGS = _load()
    return _TABLE


def refresh() -> None:
    """Forget what this process read (a test that installs a distribution mid-process)."""
    global _TABLE, _STAMPS, _LISTINGS
    _TABLE = _STAMPS = _LISTINGS = None


#: the import path as the interpreter made it, before shorten_path: what the cache is keyed by
_FULL_PATH: list[str] | None = None


def _search_path() -> list[str]:
    """The path entries distributions are installed in: all but the script's folder (or the
    current one), which Python puts first and which differs between ``bansha`` and
    ``python -m``."""
    path = sys.path if _FULL_PATH is None else _FULL_PATH
    return path if sys.flags.safe_path else path[1:]


def shorten_path() -> None:
    """Take the folders of bansha's plugin distributions off ``sys.path``; their modules are
    then found by name in their own folder (the cache lists each folder's modules). Only the
    ``bansha`` command calls it (start.py): ~90 editable installs make every import that is
    not found search ~90 folders. Folders of installed (non-editable) packages are shared
    with everything else and stay."""
    global _FULL_PATH
    _table()  # reads the listings with the entry points
    listed: dict[str, list[str]] = _LISTINGS or {}
    if not listed or _FULL_PATH is not None:
        return
    _FULL_PATH = list(sys.path)
    finder = _finder()
    for folder, names in listed.items():
        for entry in names:
            name = entry.removesuffix(".py")
            if name not in sys.modules and name not in finder.folders:
                finder.folders[name] = folder
                if entry != name:
                    finder.files[name] = entry
    sys.path[:] = [p for p in sys.path if p not in listed]


def _fingerprint(paths: list[str]) -> list[str]:
    """The path entries and their modification times: what an install or removal changes."""
    stamps = []
    for p in [sys.executable, *paths]:
        try:
            stamps.append(f"{p}\t{os.stat(p or '.').st_mtime_ns}")
        except OSError:
            stamps.append(f"{p}\t-")
    return stamps


def cache_root() -> str | None:
    """bansha's cache folder (``BANSHA_CACHE_DIR``, else the user's cache folder), or None
    under ``BANSHA_NO_CACHE``: this file's entry points and the game states of statecache.py."""
    if os.environ.get("BANSHA_NO_CACHE"):
        return None
    return os.environ.get("BANSHA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "bansha")


_STAMPS: list[str] | None = None


def path_stamps() -> list[str]:
    """The interpreter and its path entries with their modification times, read once per
    process: what installing, upgrading or removing a distribution changes."""
    global _STAMPS
    if _STAMPS is None:
        _STAMPS = _fingerprint(_search_path())
    return _STAMPS


def _cache_file(paths: list[str]) -> str | None:
    root = cache_root()
    if root is None:
        return None
    # one file per environment and path: several virtual environments share the cache folder
    return os.path.join(root, f"entry-points-{short_key(chr(10).join([sys.prefix, *paths]))}{_SUFFIX}")


def short_key(text: str) -> str:
    """8 hex digits naming a cache file or folder. blake2, which the state cache needs anyway
    (statecache.py), rather than zlib's crc32: one C module fewer to load."""
    from _blake2 import blake2b

    return blake2b(text.encode(), digest_size=4).hexdigest()


def _load() -> tuple[dict[str, tuple[EntryPoint, ...]], dict[str, list[str]]]:
    paths = _search_path()
    path = _cache_file(paths)
    stamps = path_stamps()
    if path is not None:
        try:
            with open(path, "rb") as f:
                data = marshal.loads(f.read())
            if data.get("format") == _FORMAT and data.get("stamps") == stamps:
                return ({g: tuple(EntryPoint(*row) for row in rows) for g, rows in data["groups"].items()},
                        data["listings"])
        except (OSError, ValueError, TypeError, KeyError, EOFError, AttributeError):
            pass  # no cache yet, or an unreadable one: scan
    table = _scan()
    listings = _listings(table, paths)
    if path is not None:
        _write(path, {"format": _FORMAT, "stamps": stamps, "listings": listings,
                      "groups": {g: [list(ep) for ep in eps] for g, eps in table.items()}})
    return table, listings


def _listings(table: dict[str, tuple[EntryPoint, ...]], paths: list[str]) -> dict[str, list[str]]:
    """The top-level modules of each folder that holds an entry point's module and is a path
    entry of its own (an editable install), except the kernel's: a folder's listing changes
    its modification time, which the stamps hold. A module that is one ``<name>.py`` and
    nothing else of its name (no package, no compiled extension) is listed as ``<name>.py``:
    its spec is made from that file (``_FolderFinder``), as the path's finder would make it."""
    kernel = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    shared = {p for p in paths if os.path.basename(p.rstrip(os.sep)) in ("site-packages", "dist-packages")}
    folders = {ep.folder for eps in table.values() for ep in eps} & set(paths)
    listings = {}
    for folder in sorted(folders - shared - {kernel}):
        try:
            entries = os.listdir(folder)
        except OSError:
            continue
        found: dict[str, list[str]] = {}
        for entry in entries:
            stem, dot, ext = entry.partition(".")
            if stem.isidentifier() and stem != "__pycache__" and (not dot or ext in ("py", "pyc") or ext.endswith("so")):
                found.setdefault(stem, []).append(entry)
        listings[folder] = sorted(
            f"{stem}.py" if those == [f"{stem}.py"] and os.path.isfile(os.path.join(folder, those[0])) else stem
            for stem, those in found.items())
    return listings


#: environments whose entry points are kept: one file each, the most recently written; a
#: removed virtual environment's file would otherwise stay for ever
MAX_ENVIRONMENTS = 16


def write_whole(path: str, data: bytes, folder_mode: int = 0o777) -> bool:
    """Put ``data`` in the cache file ``path``: written to a file of its own and renamed into
    place, so that a concurrent command reads the old file or the new one. False when it cannot
    be written (a read-only home): the cache then costs its rebuild next time, nothing more."""
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), mode=folder_mode, exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
        return True
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return False


def _write(path: str, data: dict) -> None:
    new = not os.path.exists(path)
    if write_whole(path, marshal.dumps(data)) and new:
        _forget_old_environments(os.path.dirname(path))


def _forget_old_environments(root: str) -> None:
    try:
        # (``.json``: the files of bansha before the marshal ones, which age out the same way)
        files = [e for e in os.scandir(root)
                 if e.name.startswith("entry-points-") and e.name.endswith((_SUFFIX, ".json"))]
        files.sort(key=lambda e: e.stat().st_mtime_ns, reverse=True)
        for e in files[MAX_ENVIRONMENTS:]:
            os.unlink(e.path)
    except OSError:
        pass  # a file another command removed first


def _scan() -> dict[str, tuple[EntryPoint, ...]]:
    import importlib.metadata
    import importlib.util

    table: dict[str, list[EntryPoint]] = {g: [] for g in GROUPS}
    seen: set[tuple[str, str]] = set()
    for group in GROUPS:
        for ep in importlib.metadata.entry_points(group=group):
            if (group, ep.name) in seen:  # the first distribution on the path wins, as in importlib
                continue
            seen.add((group, ep.name))
            table[group].append(EntryPoint(ep.name, ep.value, group, ep.dist.name if ep.dist else "",
                                           _folder_of(importlib.util, ep.value)))
    return {g: tuple(eps) for g, eps in table.items()}


def _folder_of(util, value: str) -> str:
    top = value.partition(":")[0].strip().partition(".")[0]
    try:
        spec = util.find_spec(top)
    except (ImportError, ValueError):
        return ""
    if spec is None or not spec.origin or not spec.has_location:
        return ""
    folder = os.path.dirname(spec.origin)
    # a package is found in the folder that holds the package's folder
    return os.path.dirname(folder) if spec.submodule_search_locations else folder


class _FolderFinder:
    """Finds the modules the cache knows in their own folder instead of on the whole path.
    A module that is no longer there is looked for on the path as usual."""

    def __init__(self) -> None:
        self.folders: dict[str, str] = {}
        #: the modules that are one source file in their folder (the listing's ``<name>.py``)
        #: -> that file's name
        self.files: dict[str, str] = {}

    def find_spec(self, name, path=None, target=None):
        folder = self.folders.get(name)
        if folder is None or path is not None:
            return None
        from importlib.machinery import ModuleSpec, PathFinder, SourceFileLoader

        file = self.files.get(name)
        if file is not None and os.path.isfile(file := os.path.join(folder, file)):
            # the spec the path's finder makes for a lone source file (spec_from_file_location),
            # without its folder scan and its probes for a package or an extension: ~50,000
            # instructions a module, 64 modules for m217
            spec = ModuleSpec(name, SourceFileLoader(name, file), origin=file)
            spec.has_location = True
            return spec
        return PathFinder.find_spec(name, [folder], target)

    def invalidate_caches(self) -> None:
        pass


_FINDER: _FolderFinder | None = None


def _finder() -> _FolderFinder:
    global _FINDER
    if _FINDER is None:
        _FINDER = _FolderFinder()
        sys.meta_path.insert(0, _FINDER)
    return _FINDER
