"""Every hook a bansha plugin may implement: the one place to read the plugin contract.

A plugin is a module (or object) registered under its entry-point name in the group
``bansha.roles``. Role plugins declare roles with ``bansha_roles``; rule plugins (what belongs
to a ruleset rather than to one role: questions, guesses, vote modifiers) provide named step
handlers with ``bansha_step_handlers``. Both may implement any other hook.

Order: pluggy has no numeric priorities, so nothing here depends on registration order for
rules. The order of resolution is the manifest's steps and each skill's priority, applied by
the kernel. Hooks that return a value are ``firstresult`` where noted: the first non-None
answer wins, so at most one plugin should answer for a given case.

Argument types (each signature below carries them; docs/plugins.md "Hooks"): ``game`` is a
``Game`` and ``res`` a ``Resolution`` (``res.game``); ``player`` a ``Player`` (compare
``player.name``); ``skill`` the ``Skill`` declaration, not its name — compare ``skill.name ==
"查看"``, as ``skill == "查看"`` is always False — except in ``bansha_unknown_skill``, where it
is the name typed (``str``); ``action`` an ``Action`` (``chosen`` as sent, ``targets`` after
the targeting chain, ``seq`` the order of submission); ``kill`` a ``Kill``; ``ballot`` a
``Ballot``; ``ruling`` a ``RulingEvent``; ``targets`` a list of player names. ``Game`` and
``Resolution`` are named here by the Protocols of ``protocols.py``: the engine imports this
module (through the registry), so this module does not import the engine back, not even for
its annotations; the classes are ``bansha.engine.engine``'s (``from bansha import Game``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from bansha.engine.model import Action, Ballot, Kill, Player, Role, RulingEvent, Skill
    from bansha.engine.protocols import Game, Resolution

hookspec = pluggy.HookspecMarker("bansha")
hookimpl = pluggy.HookimplMarker("bansha")


def for_skills(*skills: str):
    """Declare the skills (by name) a ``bansha_validate_action`` implementation concerns::

        @hookimpl
        @for_skills("救药", "毒药")
        def bansha_validate_action(game, action): ...

    The engine then asks it only of actions of those skills (whoever holds them: a skill may be
    acquired from a role never dealt, so it is declared by the skill's name, not the role's).
    Optional: an undeclared implementation is asked of every action, as a check that reads any
    skill (a status that stops every skill) must be. Declare every skill the implementation
    may refuse; for any other it must return None. The order the engine calls the concerned
    implementations in is pluggy's, so the same refusal wins.

    On ``bansha_phase_started`` and ``bansha_on_death`` the declaration means: the implementation
    does nothing unless some player of the game, in it or out, holds one of these skills
    (``Game.skills_of``: his card's, his group's or acquired — a skill lost by a rule of the
    board still counts as held, the implementation asks that itself). The engine then calls it
    only while one does, asking so just before it would call it (so an implementation called
    before it in the same hook call may have given the skill). Optional as above; with ``BANSHA_ALL_CHECKS=1`` in the environment
    every implementation is called (tests/sim/test_sim_held_skills.py compares both)."""
    names = frozenset(skills)
    if not all(isinstance(n, str) and n for n in names) or not names:
        raise TypeError("for_skills takes one or more skill names")

    def mark(function):
        function.bansha_skills = names
        return function

    return mark


@hookspec
def bansha_roles() -> list[Role]:
    """Called once when the plugin is registered for a ruleset.

    Return the roles this plugin provides (usually one). The manifest names which of them the
    ruleset uses; the manifest's ``[skills]`` table may move a skill to another step or
    priority.
    """


@hookspec
def bansha_step_handlers() -> dict[str, Any]:
    """Called once when the plugin is registered.

    Return ``{name: handler}`` where ``handler(res: Resolution) -> None`` runs when a manifest
    step names it (``handlers = ["name"]``). Names are global: prefix them with the plugin's
    name ("light-shadow.questions").
    """


@hookspec
def bansha_setup_game(game: Game) -> None:
    """Called once when a game is created or replayed, after the deal and before any event.

    Initialise per-player data (``player.data``), counters and starting statuses. Return
    nothing.
    """


@hookspec
def bansha_validate_targets(game: Game, player: Player, skill: Skill, acquired: bool, targets: list[str]) -> str | None:
    """Called when an action is submitted, after the kernel's checks of its targets (who they
    are, how many, a repeat) and before ``bansha_validate_action``, for a refusal that reads
    the targets alone (not the args): 不得自杀, a teammate. ``choices.py`` asks it once for each
    choice of targets and leaves out the args it would otherwise try with a refused one.
    ``skill`` is the ``Skill`` declaration (``skill.name`` its name), ``targets`` the chosen
    players' names, ``acquired`` whether it is used through an acquired skill.

    Return a one-line reason to refuse, or None. Must not change the game.
    """


@hookspec
def bansha_validate_action(game: Game, action: Action) -> str | None:
    """Called when an action is submitted, after the kernel's own checks (phase, actor alive,
    uses left, target count and range), and by ``choices.py`` for each choice of targets and
    args it tries when a seat's choices are listed.

    An implementation that concerns some skills only declares them with ``@for_skills("…")``
    (under ``@hookimpl``): it is then called only for actions of those skills. Undeclared, it
    is called for every action.

    Return a one-line reason to refuse the action, or None to accept it. Must not change the
    game.
    """


@hookspec(firstresult=True)
def bansha_unknown_skill(game: Game, player: Player, skill: str) -> str | None:
    """Called when ``player`` names a skill they cannot use now (never had it, or an acquired
    skill that has lapsed). ``skill`` is the name as typed (a ``str``: there is no ``Skill``
    of that name for the player — the only hook whose ``skill`` is a name). Return the refusal line the rules give (a mimic that has learned
    nothing), or None for the kernel's own. Must not change the game."""


@hookspec(firstresult=True)
def bansha_skill_unavailable(game: Game, player: Player, skill: Skill) -> str | None:
    """Called when an action of ``skill`` is submitted (before its targets are checked) and
    whenever a player's usable skills are listed (a player's view). ``skill`` is the ``Skill``
    declaration, not its name: test ``skill.name == "…"`` (``skill == "…"`` never matches).

    Return why ``player`` cannot use ``skill`` now (a condition of the rule, such as a skill
    offered only while something holds), or None when it can. Must not change the game.
    """


@hookspec(firstresult=True)
def bansha_skill_window(game: Game, player: Player, skill: Skill) -> bool | None:
    """Called when an action of ``skill`` is submitted in a phase that is not one of its
    ``phases`` (and whenever a player's usable skills are listed).

    Return True to let ``player`` use it now all the same — a rule that opens a skill outside
    its phases (M217: an acquired [开局] skill "刷新至初始" is decided in the phase it is gained).
    Such an action is answered at once (its step is not in this phase), like an ``immediate``
    skill. None (the default) keeps the skill to its phases. Must not change the game.
    """


@hookspec(firstresult=True)
def bansha_uses_in_phase(game: Game, player: Player, skill: Skill) -> int | None:
    """Called when an action of ``skill`` is submitted by ``player`` (for a group skill, by a
    member of its group).

    Return how many actions of the skill the player (or the group) may have in the current
    phase when a rule grants more or fewer than the skill's ``per_phase`` now (M217's [迅捷1]:
    one more 杀人 that night), or None for ``per_phase``. For a group skill the latest that
    many submissions count. Must not change the game.
    """


@hookspec
def bansha_validate_vote(game: Game, ballot: Ballot) -> str | None:
    """Called when a vote is submitted, after the kernel's checks (vote phase, voter alive,
    one change). Return a one-line reason to refuse it, or None."""


@hookspec
def bansha_ruling_kinds() -> dict[str, str | tuple[str, str]] | None:
    """Called once when a ruleset is loaded.

    Return the kinds of director's ruling the rules add (or give a meaning of their own), as
    ``{kind: one line saying what it does and what it takes}`` or ``{kind: (name, line)}``
    (``name``: what a person reads for the kind, on the web console and in an undone event;
    without one the kind itself), or None. ``bansha rulings``
    lists them beside the kernel's, and an unknown kind is refused with the whole list.
    """


@hookspec
def bansha_validate_ruling(game: Game, ruling: RulingEvent) -> str | None:
    """Called when the director records a ruling (``bansha ruling``), before the kernel or any
    rule applies it.

    Return a one-line reason to refuse it (a seat that has had its one substitute, an answer
    nobody asked for), or None to accept it. Must not change the game.
    """


@hookspec
def bansha_awaited_rulings(game: Game) -> list[dict] | None:
    """Called by whoever plays the director's part (``bansha simulate``), at any time.

    Return the rulings the game now waits for, one dict each: ``kind``, ``player``,
    ``question`` (what is asked, or "") and ``answers`` (the texts the ruling takes; empty for
    a free text): 天师's open question, 摄魂's text. The engine never calls it; it must not
    change the game.
    """


@hookspec(firstresult=True)
def bansha_apply_ruling(res: Resolution, ruling: RulingEvent) -> bool | None:
    """Called for every accepted ruling, before the kernel's own handling of its kind.

    Apply a ruling the rules give a meaning to (a red card that waits for the vote, an answer
    delivered as a player's feedback, a ballot voided, a kind of the ruleset's own) through
    ``res`` and return True: the kernel then only records it. Return None to let the kernel
    apply its kinds (remove, announce, answer, substitute, draw); an unknown kind nobody
    applies is refused. Raise ``GameError`` only before changing anything.
    """


@hookspec
def bansha_phase_started(game: Game) -> None:
    """Called when the game enters a phase (``game.phase``), before any action of it.

    Use it for what happens at the turn of the clock (a status that begins, a camp that
    becomes independent). Feedback given here goes with the new phase. Return nothing.
    An implementation that does nothing unless some player holds one of some skills may
    declare them with ``@for_skills("…")``: it is then skipped in a game where nobody holds
    any of them (``for_skills``).
    """


@hookspec
def bansha_phase_opened(res: Resolution) -> None:
    """Called when the game enters a phase, after ``bansha_phase_started``, with a resolution of
    its own (``res.step == "开始"``, ``res.label`` the new phase): what a phase's start publishes
    and does (熊's roar at 开门, a standing status announced every noon), through the same API
    as a step — ``res.announce``, ``res.feedback``, ``res.add_status``, ``res.remove``, ``res.trace``,
    ``res.rng``. Its public lines open the phase's announcement (held to its close where the
    phase holds them, ``hold_public``); its private lines go with the new phase. A kill queued
    with ``res.kill`` has no deaths step to land in here: use ``res.remove``. Return nothing.
    """


@hookspec
def bansha_adjust_ballots(res: Resolution, ballots: list[Ballot]) -> None:
    """Called before the votes of a phase are counted.

    Change ballots in place: force a target, set ``weight``, or set ``void`` with a reason
    (a post-number cut-off). Votes that no ballot carries (a slander counting one more vote
    against a player) go in ``res.data["extra_votes"]`` (player -> votes), added to the count
    when the player is in the game. Trace what you change with ``res.trace``. Return nothing.
    """


@hookspec(firstresult=True)
def bansha_defer_vote_out(res: Resolution, player: Player) -> bool | None:
    """Called when the count of ``bansha.vote`` has made ``player`` the one voted out, before
    anything is asked of the exit (``bansha_vote_immune``).

    Return True when the rules settle that vote-out themselves, later (M217: "（1）结算被[投票出局]
    的角色", the first step of the 黄昏 after the vote, a step the manifest marks ``start``); the
    count then stops there. None: the player is voted out now.
    """


@hookspec(firstresult=True)
def bansha_vote_immune(res: Resolution, player: Player) -> str | None:
    """Called when ``player`` would be voted out.

    Return the public line that announces why the player stays (霸道, 幻觉二), or None.
    """


@hookspec(firstresult=True)
def bansha_stop_kill(res: Resolution, kill: Kill) -> str | None:
    """Called for each pending kill during the kernel's ``bansha.deaths`` handler.

    Return the reason the kill does not land (a heal, 守护, 不死) — it is written to the ruling
    trace, never to the announcement — or None to let it land.
    """


@hookspec
def bansha_on_death(res: Resolution, player: Player, kill: Kill) -> None:
    """Called after ``player`` has left the game (by a kill, a vote or a ruling).

    Triggers live here: a last shot, a lover's grief, an heir. New kills queued with
    ``res.kill`` are resolved in the same deaths handler. Return nothing. An implementation that
    does nothing unless some player (the one leaving included) holds one of some skills may
    declare them with ``@for_skills("…")``, as on ``bansha_phase_started``.
    """


@hookspec(firstresult=True)
def bansha_identity(game: Game, player: Player) -> str | None:
    """Called whenever a player's identity is shown (a check, a death announcement).

    Return the label the rules give (a role with its current state, "role（state）"), or None for the role's name.
    """


@hookspec(firstresult=True)
def bansha_check_win(game: Game) -> list[str] | None:
    """Called after every resolution, before the manifest's declarative win rules.

    Return the list of winning camps to end the game, or None to let the manifest decide.
    """


@hookspec
def bansha_player_view(game: Game, player: Player) -> dict[str, Any] | None:
    """Called for ``bansha status --as PLAYER``.

    Return extra lines that this player may know (their mage number, their group's members),
    as ``{label: value}``, or None. Never return what the rules hide from them.
    """


@hookspec
def bansha_game_view(game: Game) -> dict[str, Any] | None:
    """Called for ``bansha status`` (the director's view and every player's view).

    Return public facts about the game's clock or board (the phase deadline, a weekend
    extension, a status announced every day) as ``{label: value}``, or None. Everyone sees
    these: never return a secret.
    """


@hookspec(firstresult=True)
def bansha_last_words(game: Game, player: Player, kill: Kill) -> bool | None:
    """Called when ``player`` leaves the game, to decide whether the exit owes last words.

    Return True or False to decide it by the board's own conditions (M217: none after a red
    card; a house rule giving last words to players voted out), or None to let the manifest's
    ``[last_words] owed`` rules decide (with ``kill.last_words``: an exit whose rule says its
    last words are forced empty owes none).
    """


@hookspec
def bansha_check_last_words(game: Game, player: Player, text: str) -> str | None:
    """Called when the director records ``player``'s last words, after the manifest's limits
    (``max_chars``, ``forbid``) are checked.

    Return a one-line reason to refuse them (M217's [寡言]: at most 5 characters), or None.
    Must not change the game.
    """


# ------------------------------------------------------------------- homebrew roles' cards


@hookspec
def bansha_cards() -> list[Any]:
    """Called once when a ruleset that declares homebrew roles (``[[homebrew]]``) is loaded.

    Return the cards (``bansha.homebrew.homebrew.Card``) this plugin adds to the library a homebrew
    skill's ``effects`` are chosen from: a board's rules plugin gives the board's own (M217's
    穿透 and 守护, 七杀·侠's 救治). The kernel's cards (``bansha.cards``) come first; a card
    of the same name given by a board replaces the kernel's for that board.
    """


@hookspec(firstresult=True)
def bansha_card_targets(res: Resolution, action: Action) -> list[str] | None:
    """Called when a homebrew skill's action is about to play its cards, before any is played.

    Return the final targets the cards act on when the board moves them itself at this moment
    (M217: a [指定] skill answered at once passes the targeting chain here; an empty list: the
    action has no target left), or None to play on ``action.targets``. May change the game as
    the board's targeting does (traces, voids).
    """


@hookspec
def bansha_card_done(res: Resolution, action: Action) -> None:
    """Called after a homebrew skill's action has played its cards (also when it had no target
    left). Finish what the board finishes after an effect (M217: an action answered at once
    lands its kills now). Return nothing.
    """


@hookspec(firstresult=True)
def bansha_card_camp(game: Game, target: str, by: str) -> str | None:
    """Called when a card's ``if_camp`` / ``unless_camp`` condition is read for ``target``,
    for a skill sent by ``by``.

    Return the camp the board's skills judge the target by (M217: the [实际阵营] as a skill of
    the sender's camp sees it, ``judged_camp``), or None for the player's camp. Must not change
    the game.
    """
