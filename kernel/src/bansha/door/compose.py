"""Additive edits of a board that ``extends`` another: ``[[edits]]`` change one pool, one count,
one constraint, one list or one phase's steps of the base without restating the whole array
(docs/manifests.md "Composing without copying").

Each edit names one target and what to do to it; they apply in the order written, to the base
with the variant's own keys already merged. A target that does not exist is refused with one
line naming the file and the edit, so a variant never silently stops applying when its base
changes. ``resolved_table`` and ``differences`` serve ``bansha board show`` and ``board diff``.
"""

from __future__ import annotations

import copy
from typing import Any

import msgspec

from bansha.text.messages import GameError, extend, say

extend({
    "edit_not_in_pool": ("{where}：牌池 {pool} 里没有 {name}{elsewhere}", "{where}: pool {pool} has no {name}{elsewhere}"),
    "edit_in_pool": ("{where}：{name} 已在{other}中：一个角色只能在一个牌池或 fixed 里",
                     "{where}: {name} is already in {other}: a role is in one pool or in fixed"),
    "edit_pool_of": ("牌池 {pool} ", "pool {pool}"),
    "edit_elsewhere": ("（它在{other}中）", " (it is in {other})"),
})


class Edit(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    #: the table size whose deal is edited (0: every table)
    seats: int = 0
    #: a pool of the deal (by its name): ``add``/``remove`` roles, ``draw`` a new count
    pool: str = ""
    #: the deal's fixed roles: role -> count (0 removes the role)
    fixed: dict[str, int] = {}
    #: the deal's constraints: add these, remove those equal to these
    add_constraint: list[dict[str, Any]] = []
    remove_constraint: list[dict[str, Any]] = []
    #: a list of text by its dotted key (``options.death_order``, ``rules``, ``common``, ``alias``)
    in_list: str = msgspec.field(default="", name="list")
    #: a phase by its name: ``insert`` steps (tables), ``remove`` steps (names), or edit ``step``
    phase: str = ""
    #: a step of ``phase``: ``add_handlers`` / ``add_after`` / ``remove`` handler names
    step: str = ""
    add_handlers: list[str] = []
    add_after: list[str] = []
    #: what goes in (roles of a pool, items of a list, steps of a phase) and where
    add: list[Any] = []
    insert: list[Any] = []
    remove: list[str] = []
    before: str = ""
    after: str = ""
    draw: int | None = None


class Edits(msgspec.Struct):
    """A variant's ``[[edits]]`` (converted under this key, so an error names ``edits[N].key``)."""

    edits: list[Edit]


def apply_edits(table: dict[str, Any], edits: list[Edit], source: str) -> dict[str, Any]:
    """``table`` (a merged manifest table) with the ``[[edits]]`` of ``source`` applied."""
    out = copy.deepcopy(table)
    for n, edit in enumerate(edits):
        where = f"{source}: edits[{n}]"
        kinds = [k for k in ("pool", "in_list", "phase") if getattr(edit, k)]
        if edit.fixed or edit.add_constraint or edit.remove_constraint:
            kinds.append("tables")
        if len(kinds) != 1:
            raise GameError(say("edit_kind", None, where=where))
        if kinds[0] == "in_list":
            _edit_list(out, edit, where)
        elif kinds[0] == "phase":
            _edit_phase(out, edit, where)
        else:
            _edit_tables(out, edit, where)
    return out


def _place(items: list[Any], new: list[Any], edit: Edit, where: str, key=lambda x: x) -> list[Any]:
    """``new`` inserted into ``items`` before/after the item named (at the end if neither)."""
    names = [key(x) for x in items]
    for x in new:
        if key(x) in names:
            raise GameError(say("edit_dup", None, where=where, name=key(x)))
    anchor = edit.before or edit.after
    if not anchor:
        return [*items, *new]
    if anchor not in names:
        raise GameError(say("edit_no_anchor", None, where=where, name=anchor))
    i = names.index(anchor) + (1 if edit.after else 0)
    return [*items[:i], *new, *items[i:]]


def _removed(items: list[Any], names: list[str], where: str, key=lambda x: x) -> list[Any]:
    present = [key(x) for x in items]
    for name in names:
        if name not in present:
            raise GameError(say("edit_no_item", None, where=where, name=name))
    return [x for x in items if key(x) not in names]


def _edit_list(table: dict[str, Any], edit: Edit, where: str) -> None:
    *parents, last = edit.in_list.split(".")
    node = table
    for part in parents:
        node = node.get(part) if isinstance(node, dict) else None
    items = node.get(last) if isinstance(node, dict) else None
    if not isinstance(items, list):
        raise GameError(say("edit_no_list", None, where=where, name=edit.in_list))
    items = _removed(items, edit.remove, where)
    node[last] = _place(items, [*edit.add, *edit.insert], edit, where)


def _edit_phase(table: dict[str, Any], edit: Edit, where: str) -> None:
    phase = next((p for p in table.get("phases", []) if edit.phase in (p.get("name"), p.get("alias"))), None)
    if phase is None:
        raise GameError(say("edit_no_item", None, where=where, name=edit.phase))
    steps = phase.setdefault("steps", [])
    if edit.step:
        step = next((s for s in steps if s.get("name") == edit.step), None)
        if step is None:
            raise GameError(say("edit_no_item", None, where=where, name=edit.step))
        handlers, after = list(step.get("handlers", [])), list(step.get("after", []))
        for name in edit.remove:  # a handler run before the step's actions, or after them
            if name not in handlers and name not in after:
                raise GameError(say("edit_no_item", None, where=where, name=name))
            handlers, after = [h for h in handlers if h != name], [h for h in after if h != name]
        step["handlers"] = _place(handlers, edit.add_handlers, edit, where)
        step["after"] = _place(after, edit.add_after, Edit(), where)
        return
    steps = _removed(steps, edit.remove, where, key=lambda s: s.get("name"))
    phase["steps"] = _place(steps, [*edit.add, *edit.insert], edit, where, key=lambda s: s.get("name"))


def _edit_tables(table: dict[str, Any], edit: Edit, where: str) -> None:
    tables = [t for t in table.get("tables", []) if not edit.seats or t.get("seats") == edit.seats]
    if not tables:
        raise GameError(say("edit_no_item", None, where=where, name=str(edit.seats)))
    for t in tables:
        if edit.pool:
            pool = next((p for p in t.get("pools", []) if p.get("name") == edit.pool), None)
            if pool is None:
                raise GameError(say("edit_no_item", None, where=where, name=edit.pool))
            # where else each role of the table is: a role is dealt from one place only
            placed = {r: say("edit_pool_of", None, pool=p.get("name")) for p in t.get("pools", []) if p is not pool
                      for r in p.get("roles", [])}
            placed.update({r: " fixed " for r in t.get("fixed", {})})
            for name in edit.remove:
                if name not in pool.get("roles", []):
                    elsewhere = say("edit_elsewhere", None, other=placed[name]) if name in placed else ""
                    raise GameError(say("edit_not_in_pool", None, where=where, pool=edit.pool, name=name, elsewhere=elsewhere))
            for name in [*edit.add, *edit.insert]:
                if name in placed:
                    raise GameError(say("edit_in_pool", None, where=where, name=name, other=placed[name]))
            roles = _removed(pool.get("roles", []), edit.remove, where)
            pool["roles"] = _place(roles, [*edit.add, *edit.insert], edit, where)
            if edit.draw is not None:
                pool["draw"] = edit.draw
            continue
        fixed = t.setdefault("fixed", {})
        for role, count in edit.fixed.items():
            if count:
                fixed[role] = count
            else:
                fixed.pop(role, None)
        constraints = t.setdefault("constraints", [])
        for c in edit.remove_constraint:
            if c not in constraints:
                raise GameError(say("edit_no_item", None, where=where, name=_inline(c)))
            constraints.remove(c)
        constraints.extend(edit.add_constraint)


def _inline(value: Any) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_inline(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    return msgspec.json.encode(str(value)).decode()


def _key(k: str) -> str:
    return k if k and all(c.isascii() and (c.isalnum() or c in "-_") for c in k) else msgspec.json.encode(k).decode()


def to_toml(table: dict[str, Any], prefix: str = "") -> str:
    """A manifest table as TOML (what ``bansha board show`` prints): each level's plain keys,
    then the top level's tables as ``[section]`` and arrays of tables as ``[[array]]``."""
    lines: list[str] = []
    sections = []
    for k, v in table.items():
        if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            sections.append((True, k, v))
        elif isinstance(v, dict) and v and not prefix:
            sections.append((False, k, v))
        else:
            lines.append(f"{_key(k)} = {_inline(v)}")
    for array, k, v in sections:
        name = f"{prefix}{_key(k)}"
        for item in (v if array else [v]):
            lines += ["", f"[[{name}]]" if array else f"[{name}]", to_toml(item, f"{name}.").rstrip("\n")]
    return "\n".join(lines).strip("\n") + "\n"


def _flat(value: Any, path: str, out: dict[str, Any]) -> dict[str, Any]:
    """Leaves by path; arrays of tables keyed by each item's name (or seats), lists whole."""
    if isinstance(value, dict):
        for k, v in value.items():
            _flat(v, f"{path}.{k}" if path else k, out)
    elif isinstance(value, list) and value and all(isinstance(x, dict) for x in value):
        for i, item in enumerate(value):
            name = item.get("name", item.get("seats", i))
            _flat(item, f"{path}[{name}]", out)
    else:
        out[path] = value
    return out


def differences(a: dict[str, Any], b: dict[str, Any]) -> list[tuple[str, str, str]]:
    """What differs from ``a`` to ``b``: ``(key, was, is)``; a list shows the items it lost and
    gained (``- x``, ``+ y``) when both are lists."""
    fa, fb = _flat(a, "", {}), _flat(b, "", {})
    out = []
    for key in [*fa, *(k for k in fb if k not in fa)]:
        va, vb = fa.get(key), fb.get(key)
        if va == vb:
            continue
        if isinstance(va, list) and isinstance(vb, list) and not any(isinstance(x, dict | list) for x in (*va, *vb)):
            gone = [x for x in va if x not in vb]
            new = [x for x in vb if x not in va]
            if gone or new:
                out.append((key, " ".join(f"-{_inline(x)}" for x in gone), " ".join(f"+{_inline(x)}" for x in new)))
            else:
                out.append((key, _inline(va), _inline(vb)))
            continue
        out.append((key, "" if key not in fa else _inline(va), "" if key not in fb else _inline(vb)))
    return out
