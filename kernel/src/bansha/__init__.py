"""bansha: the kernel of a forum social-deduction game director's engine.

Role authors need only what is exported here; docs/plugins.md is the guide.

The names are imported when first used (PEP 562), so that ``import bansha.start`` — the
``bansha`` command's first step — costs nothing before it shortens the import path
(entrypoints.shorten_path).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bansha.engine.hookspecs import hookimpl
    from bansha.engine.model import Action, Ballot, Fact, GameError, Player, Role, Skill, Status

__all__ = ["hookimpl", "Role", "Skill", "Status", "Action", "Ballot", "Player", "GameError", "Fact"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    if name == "hookimpl":
        from bansha.engine.hookspecs import hookimpl as value
    elif name in __all__:
        from bansha.engine import model

        value = getattr(model, name)
    else:
        raise AttributeError(f"module 'bansha' has no attribute {name!r}")
    # kept: the next ``from bansha import …`` of it (every plugin module's first line, 64 of
    # them in m217) finds it without this function and its import
    globals()[name] = value
    return value
