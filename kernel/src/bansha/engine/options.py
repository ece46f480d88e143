"""House rules' values checked at the door: one function for ``new --option``, a scenario's
``[options]`` and a manifest's defaults (``extends`` included), against the manifest's
``[option_types]`` (docs/manifests.md). An undeclared option takes its default's type."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from bansha.engine.model import GameError, Manifest, OptionType
from bansha.text.messages import join, say

TYPES = ("bool", "int", "number", "str", "list", "time", "table")
TIME = "%Y-%m-%d %H:%M"
_TRUE = {"true": True, "false": False, "是": True, "否": False}


def type_of(manifest: Manifest, key: str) -> OptionType:
    """The declared type of ``key``, or the type of its default."""
    declared = manifest.option_types.get(key)
    if declared is not None:
        return declared
    d = manifest.options.get(key)
    kind = ("bool" if isinstance(d, bool) else "int" if isinstance(d, int) else "number" if isinstance(d, float)
            else "list" if isinstance(d, list) else "table" if isinstance(d, dict) else "str")
    return OptionType(type=kind)


def allowed(t: OptionType, lang: str | None) -> str:
    """What ``t`` allows, in words (a choice by its label, where it has one)."""
    choices = [t.choice_labels.get(str(c), c) for c in t.choices]
    if t.choices and t.type == "list":
        return say("allowed_list", lang, choices=join(choices, lang))
    if t.choices:
        return say("allowed_choice", lang, choices=join(choices, lang))
    if t.type == "int" and (t.min is not None or t.max is not None):
        return say("allowed_int_range", lang, min="−∞" if t.min is None else t.min, max="∞" if t.max is None else t.max)
    return say({"bool": "allowed_bool", "int": "allowed_int", "number": "allowed_number", "list": "allowed_list_any",
                "time": "allowed_time", "table": "allowed_table"}.get(t.type, "allowed_str"), lang)


def value_of(t: OptionType, value: Any) -> tuple[bool, Any]:
    """(fits, the value as the option holds it). Text from the command line is read as the type
    asks (``true``/``false``, digits, ``a,b`` for a list); a bool given as a number does not fit."""
    kind = t.type
    if kind == "bool":
        if isinstance(value, bool):
            return True, value
        if isinstance(value, str) and value.strip().lower() in _TRUE:
            return True, _TRUE[value.strip().lower()]
        return False, value
    if kind == "int":
        if isinstance(value, str) and re.fullmatch(r"-?\d{1,18}", value.strip()):  # longer: no int the store holds
            value = int(value)
        if not isinstance(value, int) or isinstance(value, bool) or not -2**63 <= value < 2**63:  # the store's integers
            return False, value
        return (t.min is None or value >= t.min) and (t.max is None or value <= t.max), value
    if kind == "number":
        if isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                return False, value
        return isinstance(value, int | float) and not isinstance(value, bool) and value == value, value
    if kind == "list":
        if isinstance(value, str):
            value = [v.strip() for v in re.split(r"[,，、]", value) if v.strip()]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return False, value
        return not t.choices or all(v in t.choices for v in value), value
    if kind == "time":
        if not isinstance(value, str):
            return False, value
        if not value.strip():
            return True, ""
        try:
            datetime.strptime(value.strip(), TIME)
        except ValueError:
            return False, value
        return True, value.strip()
    if kind == "table":
        return isinstance(value, dict), value
    # str: text (a number typed on the command line is the text it is), one of the choices if given
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        return False, value
    return not t.choices or value in t.choices, value


def label_of(manifest: Manifest, key: str) -> str:
    """A house rule's name as a person reads it (its ``label``; the key where none is given):
    the one name every surface prints for it."""
    t = manifest.option_types.get(key)
    return t.label if t is not None and t.label else key


def value_label(manifest: Manifest, key: str, value: Any) -> str:
    """A house rule's value as a person reads it: a choice's label, 是/否 for a bool (in the
    board's language), a list joined, otherwise as typed."""
    t = type_of(manifest, key)
    lang = manifest.language
    if isinstance(value, bool):
        return say("yes" if value else "no", lang)
    if isinstance(value, list):
        return join([t.choice_labels.get(str(v), str(v)) for v in value], lang)
    if value == "" and t.type == "time":
        return say("none", lang)
    return t.choice_labels.get(str(value), shown(value))


def shown(value: Any) -> str:
    """A value as the director typed it, never a Python repr."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(map(str, value))
    return str(value)


def check_options(manifest: Manifest, given: dict[str, Any], source: str = "--option", lang: str | None = None) -> dict[str, Any]:
    """``given`` checked against the manifest's house rules and converted to their types; an
    unknown name, or a value its type does not allow, is a GameError naming the option, the
    value and what is allowed."""
    lang = lang or manifest.language
    out = {}
    by_label = {t.label: k for k, t in manifest.option_types.items() if t.label}
    for key, value in given.items():
        key = key if key in manifest.options else by_label.get(key, key)  # its label is its name too
        if key not in manifest.options:
            known = join(sorted(manifest.options), lang) or say("none", lang)
            raise GameError(say("option_unknown", lang, key=key, ruleset=manifest.id, known=known).replace("--option", source, 1))
        t = type_of(manifest, key)
        if isinstance(value, str) and t.choice_labels:  # a choice by its label: 整局 for game
            names = {v: k for k, v in t.choice_labels.items()}
            value = ",".join(names.get(v.strip(), v.strip()) for v in re.split(r"[,，、]", value)) if t.type == "list" \
                else names.get(value.strip(), value)
        fits, converted = value_of(t, value)
        if not fits:
            raise GameError(say("option_bad", lang, source=source, key=key, value=shown(value), allowed=allowed(t, lang)))
        out[key] = converted
    return out


def check_declarations(manifest: Manifest, where: str) -> None:
    """A manifest's ``[option_types]``: known types, and every default fits its type."""
    lang = manifest.language
    for key, t in manifest.option_types.items():
        if t.type not in TYPES:
            raise GameError(say("option_type_bad", lang, where=where, key=key, type=t.type, types=join(TYPES, lang)))
        if key not in manifest.options:
            raise GameError(say("option_unknown", lang, key=key, ruleset=manifest.id,
                                known=join(sorted(manifest.options), lang) or say("none", lang)).replace("--option", f"{where}: option_types", 1))
    for key, value in manifest.options.items():
        t = type_of(manifest, key)
        fits, _ = value_of(t, value)
        if not fits or (t.type != "str" and isinstance(value, str) and t.type not in ("time",)):
            raise GameError(say("option_default_bad", lang, where=where, key=key, value=shown(value), allowed=allowed(t, lang)))
