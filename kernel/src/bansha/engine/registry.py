"""Finding rulesets and plugins: manifests from the ``bansha.rulesets`` entry points (or a path),
and only the plugins a manifest names, from the ``bansha.roles`` entry points."""

from __future__ import annotations

import functools
import operator
import os
import re
import types
from typing import TYPE_CHECKING, Any

import msgspec
import pluggy

from bansha.engine import builtins, hookspecs
from bansha.engine.model import GameError, Manifest, Role, Skill
from bansha.entrypoints import entry_points
from bansha.text.messages import extend, join, lang_of, say

extend({
    "board_id_form": ("{file}：键 id：{id} 不能作为规则的 id（只用字母、数字、.、_ 与 -，以字母或数字开头）",
                      "{file}: key id: {id} cannot be a ruleset's id (letters, digits, ., _ and - only, starting with a letter or digit)"),
    "board_id_taken": ("{file}：键 id：{id} 是已安装的规则 {installed} 的 id；变体须有自己的 id",
                       "{file}: key id: {id} is the id of the installed ruleset {installed}; a variant needs an id of its own"),
    "m_role_twice": ("{where}：{seats} 人桌：{role} 在两个牌池（或 fixed 与牌池）里", "{where}: the table for {seats}: {role} is in two pools (or in fixed and a pool)"),
    "board_import": ("规则包 {name}（发行包 {dist}）无法导入：{why}；请修复或重新安装该发行包",
                     "the board package {name} (distribution {dist}) cannot be imported: {why}; fix or reinstall the distribution"),
    "plugin_import": ("规则 {ruleset}：插件 {plugin}（发行包 {dist}）无法导入：{why}；请修复或重新安装该发行包",
                      "ruleset {ruleset}: plugin {plugin} (distribution {dist}) cannot be imported: {why}; fix or reinstall the distribution"),
    "m_negative": ("{where}：键 {key}：{value} 不能是负数", "{where}: key {key}: {value} cannot be negative"),
    "m_targets_table": ("{where}：角色 {role}，技能 {skill}：要选 {n} 个目标，{seats} 人桌最多只有 {most} 个可选",
                        "{where}: role {role}, skill {skill}: takes {n} targets, the table for {seats} has at most {most}"),
})

#: a ruleset's id: a distribution's and a file's name (``bansha-<id>``, ``<id>.toml``), never a path
BOARD_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*")

if TYPE_CHECKING:
    from pathlib import Path

ROLE_GROUP = "bansha.roles"
#: the rulings the kernel applies itself (a ruleset's rules may add kinds or give these a meaning)
KERNEL_RULINGS = {
    "remove": "PLAYER [--text reason]: take a player out of the game (disqualification)",
    "announce": "--text TEXT: announce free text",
    "answer": "PLAYER --text ANSWER: the director's answer to a player's question",
    "substitute": "PLAYER --text NEW_NAME: a substitute takes over the seat",
    "draw": "end the game as a draw",
}
RULESET_GROUP = "bansha.rulesets"
#: the plugin holding a manifest's homebrew roles, and the module that builds it
#: (bansha/homebrew/homebrew.py); with the kernel's cards (bansha/homebrew/cards.py) both are
#: found as a board's rules and cards are, through ``bansha.roles`` entry points (the kernel's
#: own, kernel/pyproject.toml): the engine imports no module of the homebrew layer
HOMEBREW = "bansha.homebrew"
CARDS = "bansha.cards"


def decode_toml(text: bytes | str, type_: Any, source: str, lang: str | None = None) -> Any:
    """Decode TOML a person wrote into ``type_`` (files.py: the one door for such files)."""
    from bansha.door.files import convert, parse_toml

    return convert(parse_toml(text, source, lang), type_, source, lang)


def convert(raw: Any, type_: Any, source: str, lang: str | None = None) -> Any:
    from bansha.door.files import convert

    return convert(raw, type_, source, lang)


# ------------------------------------------------------------------------------ rulesets


#: board packages (``bansha.rulesets`` entry points) that failed to import: name -> why
UNIMPORTABLE: dict[str, str] = {}


def ruleset_files() -> dict[str, Path]:
    """Installed manifests by file stem: every ``*.toml`` in each ``bansha.rulesets`` package."""
    from pathlib import Path  # here: a command on a stored game reads no manifest file

    found: dict[str, Path] = {}
    for ep in entry_points(RULESET_GROUP):
        try:
            root = Path(ep.load().__file__).parent
        except (AttributeError, TypeError):
            continue  # a package without files of its own cannot hold manifests
        except Exception as exc:  # a board's package that fails to import: marked, never silent
            from bansha.text.messages import excerpt

            why = f"{type(exc).__name__}: {excerpt(exc, 80)}" if str(exc) else type(exc).__name__
            UNIMPORTABLE[ep.name] = say("board_import", None, name=ep.name, dist=ep.dist or "?", why=why)
            continue
        UNIMPORTABLE.pop(ep.name, None)
        for entry in sorted(root.glob("*.toml")):
            found.setdefault(entry.stem, entry)
    return found


@functools.cache
def _installed() -> tuple[dict[str, Manifest], dict[str, str]]:
    """Every installed manifest that loads, by id; and every one that does not (a variant whose
    base was removed, a file with an error), by file stem with its one-line refusal: one broken
    board never stops the others."""
    manifests: dict[str, Manifest] = {}
    broken: dict[str, str] = {}
    for stem, path in ruleset_files().items():
        try:
            m = load_manifest_file(path)
        except GameError as exc:
            broken[stem] = str(exc)
            continue
        manifests[m.id] = m
    for name, why in UNIMPORTABLE.items():
        broken.setdefault(name, why)
    return manifests, broken


def installed_manifests() -> dict[str, Manifest]:
    """The installed boards that load, by id (``broken_manifests``: those that do not)."""
    return _installed()[0]


installed_manifests.cache_clear = _installed.cache_clear  # type: ignore[attr-defined]


def broken_manifests() -> dict[str, str]:
    """Installed manifest files that do not load: file stem -> why (``bansha rulesets`` marks them)."""
    return _installed()[1]


def plugins_missing(manifest: Manifest) -> list[str]:
    """The plugins ``manifest`` names that are not installed (``bansha rulesets`` marks the board)."""
    homebrew_names = {d.get("name") for d in manifest.homebrew if isinstance(d, dict)}
    wanted = {p for r, p in manifest.roles.items() if r not in homebrew_names} | set(manifest.rules)
    return sorted(wanted - {ep.name for ep in entry_points(ROLE_GROUP)} - set(LOCAL_PLUGINS))


def load_manifest_file(path: Path) -> Manifest:
    table = _manifest_table(path, ())
    if not isinstance(table.get("id"), str) or not table["id"].strip():
        raise GameError(say("no_manifest_id", table.get("language") if isinstance(table.get("language"), str) else None, file=path))
    lang = table["language"] if table.get("language") in ("zh", "en") else None
    check_board_id(table["id"], path, lang)
    m = convert(table, Manifest, str(path), lang)
    if m.homebrew:
        # the declarations' own shape, naming the file (their cards and steps: when the board loads)
        kernel_plugin(HOMEBREW, m).check_schema(m.homebrew, str(path), m.language)
    from bansha.engine.options import check_declarations

    check_declarations(m, str(path))
    check_texts(m, str(path))
    return m


def check_board_id(board_id: str, path: Path, lang: str | None = None) -> None:
    """A board's id names its file and distribution: not a path (``../../evil``), and not the
    id of another installed board (a variant's id is its own)."""
    from pathlib import Path

    if not BOARD_ID.fullmatch(board_id) or len(board_id) > 64:
        from bansha.text.messages import excerpt

        raise GameError(say("board_id_form", lang, file=path, id=excerpt(board_id)))
    installed = ruleset_files().get(board_id)
    if installed is not None and installed.resolve() != Path(path).resolve():
        raise GameError(say("board_id_taken", lang, file=path, id=board_id, installed=installed))


#: the fields each manifest text may name (the kernel formats them with ``str.format``, which
#: would follow ``{name.__class__}`` into Python and raise on ``{nosuch}`` mid-game)
TEXT_FIELDS = {
    "texts.out": ("name", "identity"), "texts.voted_out": ("name", "identity"), "texts.nobody_out": (), "texts.exits_split": ("voted", "other"),
    "texts.runoff": ("names", "first", "second"), "texts.win": ("camps",), "texts.joint_win": ("camps",),
    "texts.draw": ("camps",), "texts.counts": ("name", "count"), "texts.refuse_no_uses": ("actor", "skill"),
    "texts.refuse_repeat_target": ("skill", "target", "phase"), "texts.refuse_voter_out": ("name",),
    "texts.refuse_target_out": ("name",), "texts.refuse_runoff_target": ("label", "names"),
    "texts.refuse_runoff_abstain": ("label", "names"), "texts.refuse_changes": ("name", "changes"),
    "texts.refuse_late_change": ("name", "label"), "texts.refuse_unknown_arg": ("actor", "skill", "arg", "takes"),
    "last_words.text": ("name", "text"), "last_words.refuse_not_owed": ("name",), "last_words.refuse_recorded": ("name",),
    "last_words.refuse_empty": ("name",), "last_words.refuse_too_long": ("name", "count", "max"),
    "vote.post_warning": ("name",),
}


def check_texts(m: Manifest, where: str) -> None:
    """Every text of the manifest names only the fields it is given (files.check_template)."""
    from bansha.door.files import check_template

    for key, fields in TEXT_FIELDS.items():
        table, _, name = key.partition(".")
        text = getattr(getattr(m, table), name, "")
        if text:
            check_template(text, fields, where, key, m.language)


def _manifest_table(path: Path, seen: tuple[Path, ...]) -> dict[str, Any]:
    """The manifest's TOML table, with ``extends`` resolved: a house variant names the ruleset
    it starts from (an installed id or a path beside it) and writes only what differs."""
    from bansha.door.files import read_toml

    raw = read_toml(path)
    _include_homebrew(path, raw)
    base_ref = raw.pop("extends", None)
    edits = raw.pop("edits", None)
    if base_ref is None:
        return raw if edits is None else _edited(raw, edits, path)
    if not isinstance(base_ref, str):
        raise GameError(say("extends_kind", None, file=path))
    if base_ref.endswith(".toml") or "/" in base_ref:
        base_path = (path.parent / base_ref).resolve()
    elif base_ref in ruleset_files():
        base_path = ruleset_files()[base_ref]
    else:
        raise GameError(say("extends_unknown", None, file=path, ref=base_ref, known=join(sorted(ruleset_files())) or say("none")))
    if base_path in seen:
        raise GameError(say("extends_cycle", None, file=path, ref=base_ref))
    base = _manifest_table(base_path, (*seen, path.resolve()))
    # a variant changes its board's house rules; one its board does not have is a misspelling
    # (nothing reads it) unless the variant declares it ([option_types]: its own rule reads it)
    options, declared, known = raw.get("options"), raw.get("option_types"), base.get("options")
    if isinstance(options, dict) and isinstance(known, dict):
        for key in options:
            if key not in known and not (isinstance(declared, dict) and key in declared):
                raise GameError(say("option_unknown", None, key=key, ruleset=base.get("id", base_ref),
                                    known=join(sorted(known)) or say("none")).replace("--option ", f"{path}：键 options.", 1))
    merged = merge_tables(base, raw)
    return merged if edits is None else _edited(merged, edits, path)


def _edited(table: dict[str, Any], edits: Any, path: Path) -> dict[str, Any]:
    from bansha.door.compose import Edits, apply_edits  # only a variant with ``[[edits]]`` needs it

    return apply_edits(table, convert({"edits": edits}, Edits, str(path)).edits, str(path))


def base_path_of(path: Path) -> Path | None:
    """The manifest file ``path`` extends, or None (its ``extends`` unread or absent)."""
    ref = _key_of(path, "extends")
    if not isinstance(ref, str):
        return None
    if ref.endswith(".toml") or "/" in ref:
        return (path.parent / ref).resolve()
    return ruleset_files().get(ref)


def manifest_path(ref: str) -> Path | None:
    """The file of a ruleset given by id, alias, name or path (None: not installed)."""
    from pathlib import Path

    if ref.endswith(".toml") or "/" in ref:
        return Path(ref)
    files = ruleset_files()
    if ref in files:
        return files[ref]
    m = find_manifest(ref)
    return next((p for p in files.values() if _id_of(p) == m.id), None)


def _key_of(path: Path, key: str) -> Any:
    """A top-level key of the manifest file at ``path``, read through the door (a BOM, a
    file nested too deep); None when the file cannot be read."""
    from bansha.door.files import read_toml

    try:
        return read_toml(path).get(key)
    except GameError:
        return None


def _id_of(path: Path) -> str:
    found = _key_of(path, "id")
    return found if isinstance(found, str) else ""


def demo_file(path: Path) -> Path | None:
    """The demo script of the manifest at ``path``: its own ``demo``, read beside it, else the
    demo of the board it extends, read beside that board (a variant plays its base's demo)."""
    seen: set[Path] = set()
    current: Path | None = path
    while current is not None and current.resolve() not in seen:
        seen.add(current.resolve())
        if not current.is_file():
            return None
        demo = _key_of(current, "demo")
        if isinstance(demo, str) and demo:
            return current.parent / demo
        current = base_path_of(current)
    return None


def resolved_table(ref: str) -> dict[str, Any]:
    """A ruleset's manifest as one table, ``extends`` and ``[[edits]]`` applied (``board show``),
    checked whole as ``new`` checks it (``checked_ruleset``)."""
    path = manifest_path(ref)
    if path is None:
        find_manifest(ref)  # its one-line refusal
        raise GameError(say("unknown_ruleset", None, ref=ref, known=join(sorted(installed_manifests())) or say("none")))
    checked_ruleset(str(path) if is_path(ref) else ref)  # the line ``new`` gives
    return _manifest_table(path, ())


def is_path(ref: str) -> bool:
    """Whether a ruleset reference is a manifest file's path (else an id, alias or name)."""
    return ref.endswith(".toml") or "/" in ref


def checked_ruleset(ref: str, relative_to: Path | None = None) -> Ruleset:
    """The one validator of a board: its file read and checked key by key (schema, texts,
    homebrew declarations), its plugins loaded and the whole board checked against them
    (phases, steps, cards, tables, target ranges). ``new``, ``board show``/``diff``, ``demo``,
    the simulator and the web's create form all ask it; a refusal of a board given as a file
    names the file."""
    manifest = find_manifest(ref, relative_to)
    try:
        return ruleset_for(manifest)
    except GameError as exc:
        if is_path(ref) and not str(exc).startswith(ref):
            raise GameError(say("file_said", manifest.language, file=ref, why=exc)) from None
        raise


def _include_homebrew(path: Path, raw: dict[str, Any]) -> None:
    """``homebrew_files = ["roles.toml"]``: each file's ``[[homebrew]]`` roles (paths relative
    to the manifest naming them) join the manifest's own, so the stored game holds them all."""
    files = raw.get("homebrew_files")
    if not files or not isinstance(files, list):
        return
    from bansha.door.files import read_toml

    roles = list(raw.get("homebrew") or [])
    for name in files:
        if not isinstance(name, str):
            raise GameError(say("hb_file_kind", None, file=path))
        inc = path.parent / name
        more = read_toml(inc)  # through the door: size, depth, BOM, errors in words
        unknown = sorted(set(more) - {"homebrew"})
        if unknown:
            raise GameError(say("hb_file_keys", None, file=inc, keys="、".join(unknown)))
        roles += more.get("homebrew") or []
    raw["homebrew"] = roles
    raw["homebrew_files"] = []


def merge_tables(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """``over`` written on ``base``: tables merge key by key, anything else (arrays such as
    ``phases`` or ``tables``) is replaced whole."""
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = merge_tables(merged[key], value)
        else:
            merged[key] = value
    return merged


def find_manifest(ref: str, relative_to: Path | None = None) -> Manifest:
    """A ruleset id (or alias, or display name) of an installed ruleset, or a manifest path."""
    if ref.endswith(".toml") or "/" in ref:
        from pathlib import Path

        path = Path(ref)
        if not path.is_absolute() and relative_to is not None and not path.exists():
            path = relative_to / path
        return load_manifest_file(path)
    for m in installed_manifests().values():
        if ref in (m.id, m.name, *m.alias):
            return m
    if ref in broken_manifests():  # installed, but it does not load: refused by its name, and why
        raise GameError(broken_manifests()[ref])
    raise GameError(say("unknown_ruleset", None, ref=ref, known=join(sorted(installed_manifests())) or say("none")))


# ------------------------------------------------------------------------------- plugins


def missing_plugins(manifest: Manifest, missing: list[str]) -> str:
    """One line naming every plugin of ``manifest`` not installed and the one command that
    installs their distributions (plugin ``P.x`` is published as ``bansha-P-x``): a
    board's plugins come with its distribution ``bansha-P`` (``bansha-m217`` installs all of
    m217's), so a plugin of the board itself, or of the board a variant ``P-…`` is named after,
    is installed by that; any other (an out-of-tree role) by its own distribution."""
    dists = [f"bansha-{name.replace('.', '-')}" for name in missing]
    install = []
    for name, dist in zip(missing, dists, strict=True):
        board, _, _ = name.partition(".")
        want = f"bansha-{board}" if manifest.id == board or manifest.id.startswith(board + "-") else dist
        if want not in install:
            install.append(want)
    return say("m_not_installed", manifest.language, ruleset=manifest.id, count=len(missing),
               names=join(missing, lang_of(manifest.language)), command="pip install " + " ".join(install))


def _load_plugin(ep, manifest: Manifest) -> Any:
    """A role plugin's module; one that fails to import is one line naming its distribution
    (and what Python said), never a traceback."""
    try:
        return ep.load()
    except Exception as exc:
        from bansha.text.messages import excerpt

        why = f"{type(exc).__name__}: {excerpt(exc, 80)}" if str(exc) else type(exc).__name__
        raise GameError(say("plugin_import", manifest.language, plugin=ep.name, dist=ep.dist or "?",
                            ruleset=manifest.id, why=why)) from None


def kernel_plugin(name: str, manifest: Manifest) -> Any:
    """One of the kernel's own plugins in ``bansha.roles`` (``HOMEBREW``, ``CARDS``), loaded as
    a board's plugin is: missing (a broken install), it is one line like any missing plugin."""
    for ep in entry_points(ROLE_GROUP):
        if ep.name == name:
            return _load_plugin(ep, manifest)
    raise GameError(missing_plugins(manifest, [name]))


class Ruleset:
    """A manifest with its plugins loaded and checked: one per manifest, shared by games."""

    def __init__(self, manifest: Manifest):
        self.manifest = manifest
        self.pm = _PluginManager("bansha")
        self.pm.add_hookspecs(hookspecs)
        #: ``pm.hook`` without pluggy's per-call work (``FastHooks``): what ``game.hook`` is
        self.hooks = self.pm.fast
        # the kernel's own step handlers are a plugin like any other (bansha.deaths, bansha.vote)
        self.pm.register(builtins, name="bansha.builtins")
        # a homebrew role of a name the manifest maps to a plugin takes its place: that plugin
        # is loaded only if another role of the board still needs it
        homebrew_names = {d.get("name") for d in manifest.homebrew if isinstance(d, dict)}
        wanted = {p for r, p in manifest.roles.items() if r not in homebrew_names} | set(manifest.rules)
        eps = {ep.name: ep for ep in entry_points(ROLE_GROUP) if ep.name in wanted}
        missing = sorted(wanted - set(eps) - set(LOCAL_PLUGINS))
        if missing:
            raise GameError(missing_plugins(manifest, missing))
        for name in sorted(wanted):
            self.pm.register(LOCAL_PLUGINS[name] if name in LOCAL_PLUGINS else _load_plugin(eps[name], manifest), name=name)
        homebrew = self._homebrew() if manifest.homebrew else None
        # a misspelt hook name is an error, not a silently dead rule
        self.pm.check_pending()
        self.roles: dict[str, Role] = {}
        self.role_plugin: dict[str, str] = {}
        for plugin_name, roles in _by_plugin(self.pm, "bansha_roles"):
            for role in roles or []:
                if role.name in homebrew_names and plugin_name != HOMEBREW:
                    continue
                self.role_plugin[role.name] = plugin_name
                if manifest.roles.get(role.name) == plugin_name or (homebrew is not None and plugin_name == HOMEBREW):
                    self.roles[role.name] = _apply_overrides(role, manifest)
        #: name or alias -> the first role of that name or alias (``role``: the rules ask it by
        #: name on their hot paths, 60 roles on m217)
        self._role_by_name: dict[str, Role] = {}
        for role in self.roles.values():
            for key in (role.name, role.alias):
                self._role_by_name.setdefault(key, role)
        # skill lookups by role, by group and for everyone (Game.skills_of is on a hot path)
        self.own_skills = {name: role.skills for name, role in self.roles.items()}
        self.common_skills = tuple(s for name in manifest.common if name in self.roles for s in self.roles[name].skills)
        self.group_skills: dict[str, list[Skill]] = {}
        for role in self.roles.values():
            for skill in role.skills:
                if skill.group:
                    self.group_skills.setdefault(skill.group, []).append(skill)
        #: a skill's name (and alias: an acquired skill is kept under the name it was given)
        #: -> the steps any skill so called resolves in: ``Resolution.actions_in`` looks up the
        #: skill of an action only in the steps it can belong to
        self.skill_steps: dict[str, frozenset[str]] = {}
        steps: dict[str, set[str]] = {}
        for role in self.roles.values():
            for skill in role.skills:
                for key in {skill.name, skill.alias} - {""}:
                    steps.setdefault(key, set()).add(skill.step)
        self.skill_steps = {k: frozenset(v) for k, v in steps.items()}
        #: every step some skill resolves in
        self.steps_of_skills = frozenset(step for v in steps.values() for step in v)
        #: role -> its place in the manifest's ``identity_order`` (an acquired skill's caster)
        self.identity_rank = {name: i for i, name in enumerate(manifest.identity_order)}
        for role_name, plugin_name in manifest.roles.items():
            if role_name not in self.roles and role_name not in homebrew_names:
                raise GameError(say("m_no_role", manifest.language, ruleset=manifest.id, role=role_name, plugin=plugin_name))
        for role_name in manifest.identity_order:
            if role_name not in manifest.roles:
                raise GameError(say("m_identity_order", manifest.language, ruleset=manifest.id, role=role_name))
        self.handlers: dict[str, Any] = {}
        for _, handlers in _by_plugin(self.pm, "bansha_step_handlers"):
            self.handlers.update(handlers or {})
        #: the director's ruling kinds: the kernel's, then those the rules add (bansha rulings)
        self.ruling_kinds: dict[str, str] = {k: self.msg(f"ruling_{k}") for k in KERNEL_RULINGS}
        #: each kind's name, as a person reads it (the web console's list, an undone ruling):
        #: ``ruling_name`` says it
        self.ruling_names: dict[str, str] = {k: self.msg(f"rn_{k}") for k in KERNEL_RULINGS}
        if self.manifest.last_words.owed:
            self.ruling_kinds[self.manifest.last_words.kind] = self.msg("lw_ruling_help")
            self.ruling_names[self.manifest.last_words.kind] = self.manifest.last_words.kind
        for _, kinds in _by_plugin(self.pm, "bansha_ruling_kinds"):
            for kind, line in (kinds or {}).items():
                name, line = line if isinstance(line, tuple | list) else (kind, line)
                self.ruling_kinds[kind] = line
                self.ruling_names[kind] = name
        #: the manifest's win rules, compiled: [(camp, [(require_alive, selectors)])]
        #: (``builtins.win_holds``, asked after every resolution)
        self.win_rules = [(camp, [(r.require_alive, builtins.compile_selectors(r.all_out)) for r in rules])
                          for camp, rules in manifest.win.items()]
        #: every phase's label reads back as itself (``Game.canonical(label) == label``): no
        #: phase is named by another's alias, no name has a space. Then an event stamped with
        #: the current label needs no parsing (``Game._check_phase``)
        self.plain_labels = all(
            self.phase(p.name) is p and p.name == p.name.strip() and " " not in p.name and p.name
            for p in manifest.phases)
        self._skills_memo: dict[tuple, dict[str, tuple[Skill, bool]]] = {}
        #: role -> ``_skills_memo[(role, (), ())]``: a player with no group and nothing acquired
        self._role_skills_memo: dict[str, dict[str, tuple[Skill, bool]]] = {}
        #: the index of what may be sent (``Game.sendable_skills``): (role, groups, acquired,
        #: phase, window, alive) -> the skills of that set ``Game.skill_refused`` may accept there
        self._sendable_memo: dict[tuple, tuple[tuple[Skill, bool], ...]] = {}
        self._prefix_memo: dict[str, list[tuple[str, Any]]] = {}
        self._check_manifest()

    # -- lookups used by the engine and the CLI

    def skills_for(self, role: str, groups: tuple[str, ...], acquired: tuple[tuple[str, str], ...]
                   ) -> dict[str, tuple[Skill, bool]]:
        """The skills of a player with this role, these groups and these acquired skills
        (skill -> the role it came from): ``Game.skills_of``. Looked up for every action at
        every step, so each combination is built once per ruleset."""
        key = (role, groups, acquired)
        out = self._skills_memo.get(key)
        if out is not None:
            return out
        out = {}
        for s in self.own_skills.get(role, ()):
            out.setdefault(s.name, (s, False))
        for s in self.common_skills:
            out.setdefault(s.name, (s, False))
        for group in groups:
            for s in self.group_skills.get(group, ()):
                out.setdefault(s.name, (s, False))
        for skill_name, role_name in acquired:
            s = self.role(role_name).skill(skill_name)
            if s is not None and skill_name not in out:
                # an acquired skill is the player's own: not shared with the role's group
                out[skill_name] = (msgspec.structs.replace(s, group=None) if s.group else s, True)
        self._skills_memo[key] = out
        return out

    def handlers_under(self, prefix: str) -> list[tuple[str, Any]]:
        """The step handlers whose names start with ``prefix``, in name order (a rule plugin's
        family of handlers, such as one per step), found once per prefix."""
        found = self._prefix_memo.get(prefix)
        if found is None:
            found = self._prefix_memo[prefix] = sorted((n, h) for n, h in self.handlers.items() if n.startswith(prefix))
        return found

    @property
    def lang(self) -> str:
        """The board's language (``language`` in the manifest)."""
        return lang_of(self.manifest.language)

    def msg(self, key: str, /, **fields: Any) -> str:
        """The kernel's message ``key`` in the board's language (messages.py)."""
        return say(key, self.lang, **fields)

    def ruling_name(self, kind: str) -> str:
        """A ruling kind's name as a person reads it ("remove" -> 取消资格): the one place the
        web console, an undone or amended event and a log line take it from."""
        return self.ruling_names.get(kind, kind)

    def ruling_kind(self, typed: str) -> str:
        """The ruling kind a director typed, by its id or its name ("取消资格" -> remove): what
        the CLI, the web console and a scenario accept, so that a board's own words are taken
        back. Anything else comes back unchanged (the engine then refuses it by name)."""
        typed = typed.strip()
        if typed in self.ruling_kinds:
            return typed
        return next((k for k, name in self.ruling_names.items() if name == typed), typed)

    def role(self, name: str) -> Role:
        role = self._role_by_name.get(name)
        if role is not None:
            return role
        raise GameError(self.msg("unknown_role_in", name=name, ruleset=self.manifest.id))

    def _homebrew(self):
        """The manifest's homebrew roles: the kernel's cards (``bansha.cards``) and the board's
        (``bansha_cards``), the declarations checked and built by ``bansha.homebrew``'s
        ``install``, registered as ``bansha.homebrew`` with the plugins of the cards they use.
        Both kernel plugins come from their ``bansha.roles`` entry points (``kernel_plugin``)."""
        cards = kernel_plugin(CARDS, self.manifest)
        self.pm.register(cards, name=CARDS)
        library: dict[str, Any] = {c.name: c for c in cards.CARDS}  # name -> homebrew.Card
        for name, given in _by_plugin(self.pm, "bansha_cards"):
            if name != CARDS:
                library.update({c.name: c for c in given or []})
        plugin = kernel_plugin(HOMEBREW, self.manifest).install(self, library)
        for name, hooks in sorted(plugin.card_plugins.items()):
            self.pm.register(hooks, name=f"bansha.cards.{name}")
        self.pm.register(plugin, name=HOMEBREW)
        return plugin

    def phase(self, name: str):
        for p in self.manifest.phases:
            if name in (p.name, p.alias):
                return p
        raise GameError(self.msg("unknown_phase", name=name, ruleset=self.manifest.id))

    def camp(self, name: str) -> str:
        for c in self.manifest.camps:
            if name in (c.name, c.alias):
                return c.name
        raise GameError(self.msg("unknown_camp", name=name, ruleset=self.manifest.id))

    def option(self, options: dict[str, Any], key: str) -> Any:
        return options.get(key, self.manifest.options.get(key))

    def _check_manifest(self) -> None:
        m = self.manifest
        where = self.msg("m_where", ruleset=m.id)
        phase_steps = {p.name: {s.name for s in p.steps} for p in m.phases}
        for role in self.roles.values():
            for skill in role.skills:
                for ph in skill.phases:
                    if ph not in phase_steps:
                        raise GameError(self.msg("m_skill_phase", where=where, role=role.name, skill=skill.name, phase=ph))
                    if not skill.immediate and skill.step not in phase_steps[ph]:
                        raise GameError(self.msg("m_skill_step", where=where, skill=skill.name, step=skill.step, phase=ph))
        for p in m.phases:
            if p.windows and [n for w in p.windows for n in w] != [s.name for s in p.steps if not s.start]:
                raise GameError(self.msg("m_windows", where=where, phase=p.name))
            if p.window_names and len(p.window_names) != len(p.windows):
                raise GameError(self.msg("m_window_names", where=where, phase=p.name, count=len(p.windows)))
            for step in p.steps:
                for h in (*step.handlers, *step.after):
                    if h not in self.handlers:
                        raise GameError(self.msg("m_handler", where=where, phase=p.name, step=step.name, handler=h))
        for rule in m.last_words.owed:
            for ph in (*rule.phases, *([rule.until] if rule.until else [])):
                if ph not in phase_steps:
                    raise GameError(self.msg("m_lw_phase", where=where, phase=ph))
        if m.vote.post not in ("optional", "warn", "required"):
            raise GameError(self.msg("m_vote_post", where=where, value=m.vote.post))
        runoffs = [p.name for p in m.phases if p.optional]
        if m.vote.tie != "none" and m.vote.tie not in runoffs:
            raise GameError(self.msg("m_vote_tie", where=where, value=m.vote.tie, allowed=join(["none", *runoffs], self.lang)))
        for name in m.common:
            if name not in self.roles:
                raise GameError(self.msg("m_common", where=where, name=name))
        skill_names = {n for r in self.roles.values() for s in r.skills for n in (s.name, s.alias) if n}
        for name in m.skills:
            if name not in skill_names:
                raise GameError(self.msg("m_skills", where=where, name=name))
        if isinstance(m.rewind, list):
            for moment in m.rewind:
                name, _, point = moment.partition(":")
                if name not in phase_steps or point not in ("start", "resolve"):
                    raise GameError(self.msg("m_rewind", where=where, moment=moment))
        camps = {c.name for c in m.camps}
        for t in m.tables:
            for camp in t.camps:
                if camp not in camps:
                    raise GameError(self.msg("m_table_camp", where=where, camp=camp))
            for r in [*t.fixed, *(r for pool in t.pools for r in pool.roles)]:
                if r not in self.roles:
                    raise GameError(self.msg("m_table_role", where=where, role=r))
            # a variant's [[edits]] that grow one pool must shrink another: said when it loads
            places = [*t.fixed, *(r for pool in t.pools for r in pool.roles)]
            twice = next((r for i, r in enumerate(places) if r in places[:i]), None)
            if twice is not None:
                raise GameError(self.msg("m_role_twice", where=where, seats=t.seats, role=twice))
            for role_name, count in t.fixed.items():
                if count < 0:
                    raise GameError(self.msg("m_negative", where=where, key=f"tables.fixed.{role_name}", value=count))
            for pool in t.pools:
                if pool.draw < 0:
                    raise GameError(self.msg("m_negative", where=where, key=f"tables.pools.{pool.name}.draw", value=pool.draw))
                if pool.draw > len(pool.roles):
                    raise GameError(self.msg("m_pool_draw", where=where, pool=pool.name, draw=pool.draw, roles=len(pool.roles)))
            cards = sum(t.fixed.values()) + sum(pool.draw for pool in t.pools)
            if not t.camps and cards != t.seats:
                raise GameError(self.msg("m_table_cards", where=where, seats=t.seats, cards=cards))
            # a skill that takes more targets than the table has players is never offered
            dealt = set(t.fixed) | {r for pool in t.pools for r in pool.roles} | {r for rs in t.camps.values() for r in rs}
            for role in self.roles.values():
                if dealt and role.name not in dealt and role.name not in m.common:
                    continue
                for skill in role.skills:
                    most = t.seats - (0 if skill.may_target_self else 1)
                    if skill.targets > most:
                        raise GameError(self.msg("m_targets_table", where=where, role=role.name, skill=skill.name,
                                                 n=skill.targets, seats=t.seats, most=most))


#: what ``_PluginManager._register_module`` uses of pluggy beyond its public API (pluggy 1.5–1.x
#: have them; tests/kernel/test_fast_register.py holds the result to pluggy's own): a pluggy
#: without them registers every plugin its own way
_PLUGGY_INSIDES = (all(hasattr(pluggy.PluginManager, a) for a in ("_verify_hook", "_hookexec"))
                   and all(hasattr(pluggy.HookCaller, a) for a in ("_add_hookimpl", "_maybe_apply_history")))


class _PluginManager(pluggy.PluginManager):
    def __init__(self, project_name: str):
        super().__init__(project_name)
        #: the hook calls the engine makes (``game.hook``): pluggy's, without its per-call work
        self.fast = FastHooks(self)

    def register(self, plugin, name=None):
        try:
            if isinstance(plugin, types.ModuleType) and _PLUGGY_INSIDES:
                return self._register_module(plugin, name)
            return super().register(plugin, name)
        finally:
            self.fast.reset()

    def _register_module(self, plugin: types.ModuleType, name: str | None):
        """pluggy's ``register`` for a module whose hook implementations are plain functions:
        the same HookImpls, verified and added in the same order, without pluggy's per-name
        lookups (``parse_hookimpl_opts`` for each of the module's names, then
        ``getattr_static`` for each implementation: ~40 % of registering m217's 64 plugin
        modules). Anything else (a name already taken, a marked object that is not a plain
        function) is pluggy's own, before anything is changed."""
        plugin_name = name or self.get_canonical_name(plugin)
        if plugin_name in self._name2plugin or plugin in self._name2plugin.values():
            return super().register(plugin, name)  # pluggy's refusal (or a blocked name's None)
        namespace = plugin.__dict__
        impls = []
        for attr_name in dir(plugin):  # pluggy's order: the names sorted
            value = namespace.get(attr_name)
            if not hasattr(value, "bansha_impl"):  # what parse_hookimpl_opts skips
                continue
            if not isinstance(value, types.FunctionType):
                return super().register(plugin, name)
            opts = value.bansha_impl
            if not isinstance(opts, dict):
                continue
            # pluggy's normalize_hookimpl_opts (its home moved between versions)
            for key in ("tryfirst", "trylast", "wrapper", "hookwrapper", "optionalhook"):
                opts.setdefault(key, False)
            opts.setdefault("specname", None)
            impl = pluggy.HookImpl(plugin, plugin_name, value, opts)
            hook_name = opts["specname"] or attr_name
            hook = getattr(self.hook, hook_name, None)
            verified = hook is not None and hook.has_spec()
            if verified:
                self._verify_hook(hook, impl)
            impls.append((hook_name, impl, verified))
        # from here, pluggy's own second half of ``register``
        self._name2plugin[plugin_name] = plugin
        for hook_name, impl, verified in impls:
            hook = getattr(self.hook, hook_name, None)
            if hook is None:
                hook = pluggy.HookCaller(hook_name, self._hookexec)
                setattr(self.hook, hook_name, hook)
            elif not verified and hook.has_spec():
                self._verify_hook(hook, impl)
            hook._maybe_apply_history(impl)
            hook._add_hookimpl(impl)
        return plugin_name

    def unregister(self, plugin=None, name=None):
        try:
            return super().unregister(plugin, name)
        finally:
            self.fast.reset()

    def add_hookspecs(self, module_or_class):
        try:
            return super().add_hookspecs(module_or_class)
        finally:
            self.fast.reset()

    def set_blocked(self, name):
        try:
            return super().set_blocked(name)
        finally:
            self.fast.reset()

    def parse_hookspec_opts(self, module_or_class, name):
        # pluggy's answer for a module's plain function (its marker), without the
        # getattr_static pluggy makes for each of hookspecs.py's names (~3 M instructions a
        # ruleset); anything else is pluggy's own lookup
        if isinstance(module_or_class, types.ModuleType):
            value = module_or_class.__dict__.get(name)
            if type(value) is types.FunctionType:
                opts = getattr(value, "bansha_spec", None)
                return opts if isinstance(opts, dict) else None
        return super().parse_hookspec_opts(module_or_class, name)

    def parse_hookimpl_opts(self, plugin, name):
        # A module's names are read from its namespace: pluggy's own lookup (getattr_static on
        # every attribute of every plugin) was a third of loading m217's 64 plugin modules.
        # Only a function marked by ``hookimpl`` can be a hook implementation.
        if isinstance(plugin, types.ModuleType):
            value = plugin.__dict__.get(name)
            if not hasattr(value, "bansha_impl"):
                return None
            if isinstance(value, types.FunctionType):
                # what pluggy's lookup finds for a module's plain function, without its
                # getattr_static (half of what registering m217's plugins still cost)
                opts = value.bansha_impl
                return opts if isinstance(opts, dict) else None
        return super().parse_hookimpl_opts(plugin, name)


class FastHooks:
    """``pm.hook`` for the engine's hot path (``game.hook.bansha_…(…)``), with the same results.

    pluggy's ``HookCaller.__call__`` copies the implementations, applies defaults, checks the
    arguments and runs ``_multicall`` for every call, even for a hook no plugin of the ruleset
    implements: 15-24 % of a simulated game. Here each hook's plan (its implementations in
    call order, each with its argument names) is made once, at its first call, and a call only
    picks the arguments and calls the functions. A hook with a wrapper (new or old style), a
    historic hook, a spec with defaults, a call missing an argument (pluggy warns) and a manager
    whose calls are monitored or traced (``add_hookcall_monitoring``) go to pluggy itself.
    Registering or unregistering a plugin forgets the plans. ``impl.function`` is read at each
    call, so a test that wraps an implementation after loading is still heard."""

    def __init__(self, pm: pluggy.PluginManager):
        self._pm = pm
        #: pluggy's own executor: when it is replaced (monitoring, tracing) every call is pluggy's
        self._plain_exec = pm._inner_hookexec

    def reset(self) -> None:
        for name in [n for n in self.__dict__ if not n.startswith("_")]:
            del self.__dict__[name]

    def implemented(self, name: str) -> bool:
        """Whether any plugin implements the hook ``name`` (a hook none implements answers
        nothing: a caller may leave out building its arguments)."""
        return bool(getattr(self._pm.hook, name).get_hookimpls())

    def for_skill(self, name: str, skill: str):
        """The hook ``name`` as the engine calls it for an action of ``skill`` (a skill's name):
        only the implementations that concern the skill — those declared for it with
        ``for_skills`` and every undeclared one — in pluggy's order, so the answers are the
        full hook's (an implementation declared for other skills answers None for this one).
        The table (skill -> call) is made once per manager, a skill at its first call; with
        ``BANSHA_ALL_CHECKS=1`` in the environment every implementation is called (the full
        hook: the same-games check compares both)."""
        by_skill = self.__dict__.get("by_skill")
        if by_skill is None:
            by_skill = self.__dict__["by_skill"] = {}
        call = by_skill.get((name, skill))
        if call is None:
            call = by_skill[(name, skill)] = self._skill_plan(name, skill)
        return call

    def _skill_plan(self, name: str, skill: str):
        full = getattr(self, name)
        hc = getattr(self._pm.hook, name)
        impls = hc.get_hookimpls()
        if os.environ.get("BANSHA_ALL_CHECKS") == "1" or full is hc:
            return full  # pluggy's own call (a wrapper, monitoring): every implementation
        concerned = [i for i in impls if _declared_skills(i) is None or skill in _declared_skills(i)]
        if len(concerned) == len(impls):
            return full
        return self._plan(hc, concerned)

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        hc = getattr(self._pm.hook, name)  # an unknown hook: pluggy's AttributeError
        call = self._plan(hc)
        setattr(self, name, call)  # later calls find it without __getattr__
        return call

    def _plan(self, hc, impls=None):
        # ``impls``: some of the hook's implementations, in pluggy's list order (``for_skill``)
        spec = hc.spec
        impls = hc.get_hookimpls() if impls is None else impls
        if (spec is None or spec.kwargdefaults or hc.is_historic()
                or any(i.wrapper or i.hookwrapper or i.kwargnames for i in impls)):
            return hc
        pm, plain = self._pm, self._plain_exec
        firstresult = bool(spec.opts.get("firstresult"))
        # every argument of the spec, picked at once: a call missing one goes to pluggy (which
        # warns, and fails only for an implementation that needs it), before anything is called
        spec_args = _picker(tuple(spec.argnames))
        # pluggy calls the last registered first (its list is kept in that order, tryfirst
        # last); an implementation that takes the spec's arguments in its order gets them as
        # picked, another picks its own
        plan = tuple((impl, None if tuple(impl.argnames) == tuple(spec.argnames) else _picker(tuple(impl.argnames)))
                     for impl in reversed(impls))
        # the functions themselves, looked up once (a call makes ~100,000 of them a simulated game)
        funcs = tuple((impl.function, pick) for impl, pick in plan)
        # an implementation of a hook of ``HELD_GATED`` declared with ``for_skills`` is called only
        # while some player of the game holds one of its skills (``BANSHA_ALL_CHECKS=1``: always)
        gates = tuple(_declared_skills(impl) if hc.name in HELD_GATED else None for impl, _ in plan)
        if (not firstresult and any(g is not None for g in gates)
                and os.environ.get("BANSHA_ALL_CHECKS") != "1"):
            gated = tuple((function, pick, gate) for (function, pick), gate in zip(funcs, gates, strict=True))
            tests: dict[frozenset[str], Any] = {}  # gate -> its ``_holder_test``, made at its first call

            def call(**kw):
                if pm._inner_hookexec is not plain:
                    return hc(**kw)
                try:
                    args = spec_args(kw)
                except KeyError:
                    return hc(**kw)
                game = kw["game"] if "game" in kw else kw["res"].game
                results = []
                for function, pick, gate in gated:
                    if gate is not None:
                        # asked now, of the players as they are: what ran before may have given a skill
                        test = tests.get(gate)
                        if test is None:
                            test = tests[gate] = _holder_test(game.ruleset, gate)
                        if not test(game):
                            continue
                    res = function(*(args if pick is None else pick(kw)))
                    if res is not None:
                        results.append(res)
                return results

            call.__name__ = hc.name
            return call

        if not plan:
            def call(**kw):
                if pm._inner_hookexec is not plain:
                    return hc(**kw)
                try:
                    spec_args(kw)
                except KeyError:
                    return hc(**kw)
                return None if firstresult else []
        elif len(plan) == 1:
            ((impl, pick),) = plan

            def call(**kw):
                if pm._inner_hookexec is not plain:
                    return hc(**kw)
                try:
                    args = spec_args(kw)
                except KeyError:
                    return hc(**kw)
                res = impl.function(*(args if pick is None else pick(kw)))
                if firstresult:
                    return res
                return [] if res is None else [res]
        elif firstresult:
            def call(**kw):
                if pm._inner_hookexec is not plain:
                    return hc(**kw)
                try:
                    args = spec_args(kw)
                except KeyError:
                    return hc(**kw)
                for function, pick in funcs:
                    res = function(*(args if pick is None else pick(kw)))
                    if res is not None:
                        return res
                return None
        else:
            def call(**kw):
                if pm._inner_hookexec is not plain:
                    return hc(**kw)
                try:
                    args = spec_args(kw)
                except KeyError:
                    return hc(**kw)
                results = []
                for function, pick in funcs:
                    res = function(*(args if pick is None else pick(kw)))
                    if res is not None:
                        results.append(res)
                return results

        call.__name__ = hc.name
        return call


#: the hooks whose implementations ``for_skills`` may gate by the skills held in the game (a
#: ``bansha_validate_action`` implementation is gated by the action's skill: ``FastHooks.for_skill``)
HELD_GATED = frozenset({"bansha_phase_started", "bansha_on_death"})


def _holder_test(ruleset: Ruleset, skills: frozenset[str]):
    """``game -> bool``: whether a player of the game, in it or out, holds one of ``skills`` —
    a key of his ``Game.skills_of`` table (``Ruleset.skills_for``: his role's own skills, every
    player's, his groups', those he acquired) — read without making each player's table."""
    if any(s.name in skills for s in ruleset.common_skills):
        return lambda game: bool(game.players)
    roles = frozenset(r for r, own in ruleset.own_skills.items() if any(s.name in skills for s in own))
    groups = frozenset(g for g, held in ruleset.group_skills.items() if any(s.name in skills for s in held))

    def test(game) -> bool:
        for p in game.players.values():
            if p.role in roles or (p.groups and not groups.isdisjoint(p.groups)):
                return True
            for name, role in p.acquired.items() if p.acquired else ():
                if name in skills and ruleset.role(role).skill(name) is not None:
                    return True
        return False

    return test


def _declared_skills(impl) -> frozenset[str] | None:
    """The skills an implementation declared with ``for_skills`` (None: every skill)."""
    return getattr(impl.function, "bansha_skills", None)


def _picker(names: tuple[str, ...]):
    """``kw -> (kw[name] for name in names)`` as a tuple (KeyError if one is missing)."""
    if len(names) > 1:
        return operator.itemgetter(*names)
    if names:
        (name,) = names
        return lambda kw: (kw[name],)
    return lambda kw: ()


def _by_plugin(pm: pluggy.PluginManager, hook: str):
    for impl in getattr(pm.hook, hook).get_hookimpls():
        yield impl.plugin_name, impl.function()


def _apply_overrides(role: Role, manifest: Manifest) -> Role:
    skills = []
    for skill in role.skills:
        o = manifest.skills.get(skill.name)
        if o is not None:
            skill = msgspec.structs.replace(
                skill,
                step=o.step if o.step is not None else skill.step,
                priority=o.priority if o.priority is not None else skill.priority,
            )
        skills.append(skill)
    return msgspec.structs.replace(role, skills=tuple(skills))


_RULESETS: dict[str, Ruleset] = {}

#: plugins registered in-process (tests, or a director's script) before any entry point
LOCAL_PLUGINS: dict[str, object] = {}


def register_local(name: str, plugin: object) -> None:
    """Make ``plugin`` available under ``name`` without installing a distribution."""
    LOCAL_PLUGINS[name] = plugin
    _RULESETS.clear()


def ruleset_for(manifest: Manifest) -> Ruleset:
    """One loaded Ruleset per manifest content (building a plugin manager costs ~ms)."""
    key = msgspec.json.encode(manifest).decode()
    rs = _RULESETS.get(key)
    if rs is None:
        rs = _RULESETS[key] = Ruleset(manifest)
    return rs


def available_roles() -> dict[str, str]:
    """Entry-point names of every installed role plugin -> their distribution."""
    return {ep.name: ep.dist for ep in entry_points(ROLE_GROUP)}
