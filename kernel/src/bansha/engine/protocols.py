"""The game and its resolution as the lower modules of the engine name them.

``hookspecs.py`` (the plugin contract) and ``builtins.py`` (the kernel's own step handlers)
are imported by ``registry.py``, which ``engine.py`` imports: were they to import ``Game`` or
``Resolution`` from ``engine.py``, even only for their annotations, the engine would import a
module that imports it back. They name these Protocols instead: what a hook or a step handler
is given and may use. The classes themselves are ``bansha.engine.engine.Game`` and
``bansha.engine.engine.Resolution`` (a role author imports them as ``from bansha import Game,
Resolution``); docs/plugins.md lists what each offers. Nothing here runs: the Protocols are
read by people and editors, and checked by no one at run time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import random

    from bansha.engine.model import (
        Action,
        Ballot,
        Fact,
        Kill,
        Manifest,
        PhaseSpec,
        Player,
        Setup,
        Skill,
        Status,
    )


class Game(Protocol):
    """A live game (``bansha.engine.engine.Game``): its set-up and log replayed."""

    setup: Setup
    manifest: Manifest
    lang: str
    players: dict[str, Player]
    phase: PhaseSpec
    day: int
    actions: list[Action]
    ballots: list[Ballot]
    options: dict[str, Any]
    data: dict[str, Any]
    winner: list[str] | None
    hook: Any
    """the ruleset's hooks (``game.hook.bansha_…(…)``)"""

    @property
    def label(self) -> str: ...
    def msg(self, key: str, /, **fields: Any) -> str: ...
    def player(self, name: str) -> Player: ...
    def alive(self) -> list[Player]: ...
    def option(self, key: str) -> Any: ...
    def identity(self, player: Player) -> str: ...
    def skills_of(self, player: Player) -> dict[str, tuple[Skill, bool]]: ...
    def phase_word(self, name: str) -> str: ...


class Resolution(Protocol):
    """One resolution of a phase (``bansha.engine.engine.Resolution``): what effects, step
    handlers and hooks given ``res`` may read and do."""

    game: Game
    label: str
    step: str
    actions: list[Action]
    kills: list[Kill]
    data: dict[str, Any]

    @property
    def rng(self) -> random.Random: ...
    def actions_in(self, step: str) -> list[Action]: ...
    def of(self, skill: str) -> list[Action]: ...
    def by(self, actor: str) -> list[Action]: ...
    def trace(self, rule: str, text: str) -> None: ...
    def void(self, action: Action, reason: str, rule: str = "") -> None: ...
    def redirect(self, action: Action, targets: list[str], rule: str) -> None: ...
    def feedback(self, player: str, text: str, *facts: Fact) -> None: ...
    def announce(self, text: str) -> None: ...
    def kill(self, target: str, kind: str = ..., by: str = "", action: Action | None = None,
             rule: str = "", last_words: bool = True) -> None: ...
    def add_status(self, player: str, status: Status) -> None: ...
    def remove(self, player: Player, kill: Kill) -> None: ...
    def schedule(self, phase: str, data: Any = True) -> None: ...
