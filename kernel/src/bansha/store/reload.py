"""``bansha board reload GAME [--from FILE]``: a stored game moves to a corrected board.

A game keeps the board it was created with (``Setup.manifest``). When that board was wrong (a
homebrew text naming a field no card gives, a plugin that raised) the director fixes the file,
or upgrades the board's distribution, and reloads: the board is read again (the file given, else
the installed board of the game's id) and checked whole (``registry.checked_ruleset``), then the
game's whole log is replayed under it. Only when every event replays the same — accepted, with
the same lines told to each player and in public, the same players out, the same next phase and
winner — is the new board stored as the game's; otherwise the reload is refused naming the
first event that differs, and the game is unchanged. What "the same" is compared with: the
replay under the stored board where it still replays (its plugins as installed now), else what
the log recorded of each resolve (who left, what was announced)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from bansha.engine.model import GameError, ResolveEvent
from bansha.text.messages import extend, say

if TYPE_CHECKING:
    from bansha.engine.model import Setup
    from bansha.store.store import Store

extend({
    "reload_other_id": ("{ref} 是规则 {new}，本局的规则是 {old}：只能重新读入同一规则（同一 id）",
                        "{ref} is ruleset {new}, the game's is {old}: only the same ruleset (the same id) can be read again"),
    "reload_needs_from": ("本局的规则 {ruleset} 不是已安装的规则：用 --from 给出修正后的规则文件",
                          "the game's board {ruleset} is not installed: give the corrected file with --from"),
    "reload_setup": ("本局的座位在新规则下不成立：{why}", "the game's seats do not hold under the new board: {why}"),
    "reload_refused": ("第 {seq} 个事件（{what}，{phase}）在新规则下被拒绝：{why}；本局未改变",
                       "event {seq} ({what}, {phase}) is refused under the new board: {why}; the game is unchanged"),
    "reload_differs": ("第 {seq} 个事件（{what}，{phase}）在新规则下结果不同：{part}；本局未改变",
                       "event {seq} ({what}, {phase}) plays differently under the new board: {part}; the game is unchanged"),
    "reload_part_told": ("告知的内容不同", "what is told differs"),
    "reload_part_out": ("出局的玩家不同", "who leaves differs"),
    "reload_part_next": ("之后的阶段或胜负不同", "the next phase or the winner differs"),
    "reload_same": ("本局 {game} 已改用重新读入的规则 {ruleset}（{count} 个事件按原样重放）",
                    "game {game} now plays the board {ruleset} as read again ({count} events replayed the same)"),
    "reload_kind_act": ("行动", "an action"), "reload_kind_unact": ("撤回", "a withdrawal"),
    "reload_kind_vote": ("投票", "a vote"), "reload_kind_resolve": ("结算", "a resolve"),
    "reload_kind_ruling": ("裁定", "a ruling"), "reload_kind_amend": ("修正", "an amendment"),
})


def _what(ev, lang: str | None) -> str:
    return say("reload_kind_" + type(ev).__name__.removesuffix("Event").lower(), lang)


def _outcome(game, mark) -> tuple:
    feedback, announced = game.since(mark)
    return feedback, announced


def reloaded_setup(name: str, old: Setup, events: list[tuple[int, object]], source: str | None) -> Setup:
    """The game's set-up with its board read again (``source``: a manifest file; None: the
    installed board of the game's id), if the whole log replays the same under it."""
    from bansha.engine.engine import Game
    from bansha.engine.registry import checked_ruleset

    ref = source if source is not None else old.manifest.id
    if source is None:
        from bansha.engine.registry import broken_manifests, installed_manifests

        if ref not in installed_manifests() and ref not in broken_manifests():
            # a board read from a file when the game was made: only that file, corrected, can say
            raise GameError(say("reload_needs_from", old.manifest.language, ruleset=ref))
    rs = checked_ruleset(ref)
    lang = rs.lang
    if rs.manifest.id != old.manifest.id:
        raise GameError(say("reload_other_id", lang, ref=ref, new=rs.manifest.id, old=old.manifest.id))
    new_setup = msgspec.structs.replace(old, manifest=rs.manifest)
    try:
        new = Game(new_setup)
    except GameError as exc:
        raise GameError(say("reload_setup", lang, why=exc)) from None
    try:
        before: Game | None = Game(old)
    except GameError:
        before = None  # the stored board no longer loads: compare with what the log recorded
    for seq, ev in events:
        try:
            phase = new.named(getattr(ev, "phase", new.label))
        except GameError:
            phase = getattr(ev, "phase", "")
        mark = new.mark()
        try:
            new.apply(ev)
        except GameError as exc:
            raise GameError(say("reload_refused", lang, seq=seq, what=_what(ev, lang), phase=phase, why=exc)) from None
        told = _outcome(new, mark)
        part = None
        if before is not None:
            was = before.mark()
            try:
                before.apply(ev)
            except GameError:
                before = None
            else:
                if _outcome(before, was) != told:
                    part = "reload_part_told"
                elif before.out != new.out:
                    part = "reload_part_out"
                elif (before.label, before.winner, before.draw) != (new.label, new.winner, new.draw):
                    part = "reload_part_next"
        if part is None and before is None and isinstance(ev, ResolveEvent) and (ev.out or ev.announcement):
            if list(new.out.get(ev.phase, [])) != list(ev.out):
                part = "reload_part_out"
            elif told[1] != list(ev.announcement):
                part = "reload_part_told"
        if part is not None:
            raise GameError(say("reload_differs", lang, seq=seq, what=_what(ev, lang), phase=phase, part=say(part, lang)))
    return new_setup


def reload_board(store: Store, name: str, source: str | None) -> tuple[Setup, int]:
    """Store the game's board read again (``reloaded_setup``) under the game's write lock;
    returns the new set-up and how many events were replayed."""
    count = [0]

    def check(setup_raw: bytes, rows: list[tuple[int, bytes]]) -> Setup:
        old = store._decode_setup(name, setup_raw)
        events = [(seq, store._decode_event(name, seq, raw)) for seq, raw in rows]
        count[0] = len(events)
        return reloaded_setup(name, old, events, source)

    return store.replace_setup(name, check), count[0]
