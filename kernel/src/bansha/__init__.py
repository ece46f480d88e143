"""bansha: the kernel of a forum social-deduction game director's engine.

Role authors need only what is exported here; docs/plugins.md is the guide. The kernel's layers
(docs/architecture.md, "The kernel's layers") hold each name where it is defined: the model's
in ``bansha.engine.model``, the hook marker in ``bansha.engine.hookspecs``, ``Game`` and
``Resolution`` in ``bansha.engine.engine``, homebrew cards in ``bansha.homebrew.homebrew``.

The names are imported when first used (PEP 562), so that ``import bansha.start`` — the
``bansha`` command's first step — costs nothing before it shortens the import path
(entrypoints.shorten_path).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bansha.engine.engine import Game, Resolution
    from bansha.engine.hookspecs import for_skills, hookimpl
    from bansha.engine.model import (
        Action,
        Ballot,
        Fact,
        GameError,
        Kill,
        Player,
        Role,
        Skill,
        Status,
    )
    from bansha.homebrew.homebrew import Card, Params

#: each name -> the module that defines it
_WHERE = {
    "hookimpl": "bansha.engine.hookspecs",
    "for_skills": "bansha.engine.hookspecs",
    **dict.fromkeys(("Role", "Skill", "Status", "Action", "Ballot", "Player", "GameError", "Fact", "Kill"),
                    "bansha.engine.model"),
    "Game": "bansha.engine.engine",
    "Resolution": "bansha.engine.engine",
    "Card": "bansha.homebrew.homebrew",
    "Params": "bansha.homebrew.homebrew",
}
__all__ = ["hookimpl", "for_skills", "Role", "Skill", "Status", "Action", "Ballot", "Player", "GameError", "Fact", "Kill",
           "Game", "Resolution", "Card", "Params"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'bansha' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(where), name)
    # kept: the next ``from bansha import …`` of it (every plugin module's first line, 64 of
    # them in m217) finds it without this function and its import
    globals()[name] = value
    return value
