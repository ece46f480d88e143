"""What each reader may see: the director's view, one player's view, the forum export."""

from __future__ import annotations

import re
from typing import Any

from bansha.engine.engine import Game
from bansha.text.messages import say


def game_facts(game: Game) -> dict[str, Any]:
    facts: dict[str, Any] = {}
    for part in game.hook.bansha_game_view(game=game):
        if part:
            facts.update(part)
    return facts


def _feedback(game: Game, name: str) -> list[dict[str, Any]]:
    """A player's feedback lines, each with the facts it states (``model.Fact``) where it
    states some: ``{"phase", "text", "facts": [{"player", "what", "value", "holds", "by"}, …]}``."""
    facts = game.feedback_facts.get(name, {})
    out: list[dict[str, Any]] = [{"phase": ph, "text": t} for ph, t in game.feedback.get(name, [])]
    for i, fs in facts.items():
        if i < len(out):
            out[i]["facts"] = [{"player": f.player, "what": f.what, "value": f.value, "holds": f.holds, "by": f.by}
                               for f in fs]
    return out


def director_view(game: Game) -> dict[str, Any]:
    acted: dict[str, list[str]] = {}
    for a in game.actions:
        acted.setdefault(a.actor, []).append(a.skill + (" " + " ".join(a.chosen) if a.chosen else ""))
    for ev, window, _ in game.ahead:  # sent ahead for a later window: it waits for it
        acted.setdefault(ev.actor, []).append(" ".join([ev.skill, *ev.targets]) + say("l_ahead_mark", game.lang, window=game.window_name(window)))
    return {
        "ruleset": game.manifest.id,
        "phase": game.label,
        "winner": game.winner,
        "draw": game.draw,
        "scores": game.scores,
        "players": [
            {
                "seat": p.seat,
                "name": p.name,
                "role": p.role,
                "identity": game.identity(p),
                "camp": p.camp,
                "setup": p.setup,
                "alive": p.alive,
                "groups": p.groups,
                "statuses": [_status(game, s) for s in p.statuses],
                "uses": p.uses,
                "acted": acted.get(p.name, []),
                "voted": [b.target for b in game.ballots if b.voter == p.name],
            }
            for p in game.players.values()
        ],
        "scheduled": list(game.scheduled),
        "last_words": last_words_owed(game),
        "facts": game_facts(game),
    }


def last_words_owed(game: Game) -> list[dict[str, Any]]:
    """Who is owed last words (遗言), since which phase and until which phase closes."""
    return [{"player": name, "out": owed["out"], "until": owed["until"], "recorded": owed["text"] is not None}
            for name, owed in game.last_words.items()]


def _status(game: Game, s) -> str:
    """A status as a view lists it: its name, its count and how long it lasts (``Game.lasting``)."""
    text = s.name + (f":{s.count}" if s.count is not None else "")
    return text + (game.msg("status_lasting", lasting=game.lasting(s.until)) if s.until else "")


def card_text(rule: str) -> str:
    """A role card as a person reads it: the rule's quoted text (the lines a role module quotes
    with ``> ``), without the engine's notes beside it (step numbers, ``--arg`` forms, where the
    readings are written, in the developers' English); a rule without quoted lines is all rule
    text. The one card a player's page and ``bansha role show`` print."""
    quoted = [line[1:].strip() for line in (rule or "").splitlines() if line.startswith(">")]
    return "\n".join(quoted) if quoted else (rule or "").strip()


def public_players(game: Game, viewer: str | None = None) -> list[dict[str, Any]]:
    """Seats and who is in the game, as the thread knows it: an exit of this phase not yet
    announced (``Game.unannounced_exits``: an immediate death in a ``hold_public`` phase) is
    shown to nobody but the player who left."""
    hidden = game.unannounced_exits() - {viewer}
    return [{"seat": p.seat, "name": p.name, "alive": p.alive or p.name in hidden} for p in game.players.values()]


#: ``player_view``'s ``votes`` when the caller has not asked ``choices.vote_choices``
ASK = object()


def player_view(game: Game, name: str, choices: list | None = None, votes: Any = ASK) -> dict[str, Any]:
    """Only what ``name`` may know: their own card, told statuses, uses left, their own
    feedback, the public announcements, their group's members and the group's standing
    actions, and what the rules add through ``bansha_player_view``. ``choices``: the seat's
    ``choices.seat_choices`` of this very state, when the caller has them already (the web
    server asks once per state and seat); ``votes``: likewise its ``choices.vote_choices``
    (None: it may not vote), as the simulator has both."""
    p = game.player(name)
    extra: dict[str, Any] = {}
    for part in game.hook.bansha_player_view(game=game, player=p):
        if part:
            extra.update(part)
    # group members know each other (黑侠 互知, an absorbed 青侠 joins its group); one who has
    # left the game is still a member, marked as out
    held = game.unannounced_exits()  # an exit not yet announced is not shown (M217's 黄昏/晨曦)
    mates = [q.name + ("" if q.alive or q.name in held else "（出局）") for q in game.players.values()
             if q.name != p.name and set(q.groups) & set(p.groups)]
    # the group's standing privileges, whichever member sent them (the last sent counts)
    shared = [a.describe() for a in game.actions if a.group and a.group in p.groups and a.actor != p.name]
    view = {
        "ruleset": game.manifest.id,
        "phase": game.label,
        "you": {
            "name": p.name,
            "role": p.role,
            "camp": p.camp,
            "setup": p.setup,
            "alive": p.alive,
            "statuses": [_status(game, s) for s in p.statuses if s.told],
            "uses": p.uses,
            "acted": [a.skill for a in game.actions if a.actor == p.name],
        },
        "players": public_players(game, name),
        "feedback": _feedback(game, p.name),
        "announcements": [{"phase": ph, "text": t} for ph, t in game.announcements],
        "winner": game.winner,
        "facts": game_facts(game),
    }
    choices = seat_choices_shown(game, p.name, choices)
    if choices:
        view["you"]["choices"] = choices
    if votes is ASK:
        from bansha.engine.choices import vote_choices

        votes = vote_choices(game, p.name)
    if votes is not None:
        view["you"]["vote"] = votes
    owed = game.last_words.get(p.name)
    if owed is not None and owed["text"] is None:
        view["you"]["last_words_until"] = owed["until"]
    if mates:
        view["you"]["group"] = mates
    if shared:
        view["you"]["group_acted"] = shared
    view["you"].update(extra)
    return view


def seat_choices_shown(game: Game, name: str, choices: list | None = None) -> list[dict[str, Any]]:
    """The seat's choices now (``choices.seat_choices``) as its own view shows them: a player
    who left in this phase and is not yet announced stays in the ranges (the reader may not
    learn of the exit from a range)."""
    from bansha.engine.choices import seat_choices

    held = game.unannounced_exits() - {name}
    out = []
    for c in (choices if choices is not None else seat_choices(game, name)):
        targets = c.targets
        if held and c.max_targets:
            seen = set(targets) | held
            targets = [n for n in game.players if n in seen]  # ``held`` never holds the reader
        out.append({"skill": c.skill, "targets": targets, "min": c.min_targets, "max": c.max_targets, "args": c.args,
                    "arg_with": c.arg_with, "forced": c.forced, "group": c.group, "group_acted": c.group_acted, "submitted": c.submitted,
                    "uses": c.uses})
    return out


def args_line(args: dict[str, list[str] | None], arg_with: dict[str, dict[str, list[str]]], lang: str | None) -> str:
    """A listed skill's arguments as a person types them, ``--arg role=骑士|法师 --arg
    number=1|2（仅与 role=法师）``: what the director's and a player's status print."""
    from bansha.text.messages import say

    parts = []
    for k, v in args.items():
        with_ = (arg_with or {}).get(k)
        pairs = " ".join(f"{k2}={'|'.join(v2)}" for k2, v2 in with_.items()) if with_ else ""
        parts.append(f"--arg {k}=" + ("|".join(v) if v else "…") + (say("lv_arg_with", lang, pairs=pairs) if pairs else ""))
    return " ".join(parts)


def announcements_by_phase(game: Game) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for ph, text in game.announcements:
        if not out or out[-1][0] != ph:
            out.append((ph, []))
        out[-1][1].append(text)
    return out


# patterns, compiled (and kept by ``re``) at their first use: a ``status`` escapes nothing, and
# compiling both cost every command that shows a game ~1 M instructions
_MD_SPECIAL = r"([\\`*_{}\[\]()#+\-!|<>~])"
_TAGLIKE = r"\[(?=/?[A-Za-z*])"


def escape_md(text: str) -> str:
    """Text as Markdown shows it literally: every character Markdown reads is backslashed, so a
    name like ``**卡片**`` or ``[x](y)`` cannot restyle a post."""
    return re.sub(_MD_SPECIAL, r"\\\1", text)


def escape_bbcode(text: str) -> str:
    """Text as Discuz! shows it literally: a zero-width space after each "[" that could open or
    close a tag ("[b", "[/list", "[*"), so a name like ``[/list][b]梦见`` opens or closes
    nothing and the boards' own "[不死]" stays as written (BBCode has no escape character)."""
    return re.sub(_TAGLIKE, "[\u200b", text)


def export_text(game: Game, fmt: str, name=None) -> str:
    """Every phase's announcements for a forum post; ``name(label)`` gives the board's phase
    names (``bansha export`` passes the board file's, the ones ``bansha post`` uses). Their lines
    hold player-given text (names, last words, free announcements): escaped, so that it cannot
    break or restyle the post."""
    name = name or (lambda label: label)
    title = f"{game.manifest.name} — {name(game.label)}"
    if fmt == "md":
        parts = [f"# {escape_md(title)}"]
        for ph, lines in announcements_by_phase(game):
            parts.append(f"\n## {escape_md(name(ph))}\n")
            parts += [f"- {escape_md(line)}" for line in lines]
        return "\n".join(parts) + "\n"
    if fmt == "bbcode":
        parts = [f"[size=5][b]{escape_bbcode(title)}[/b][/size]"]
        for ph, lines in announcements_by_phase(game):
            parts.append(f"\n[b]{escape_bbcode(name(ph))}[/b]\n[list]")
            parts += [f"[*]{escape_bbcode(line)}" for line in lines]
            parts.append("[/list]")
        return "\n".join(parts) + "\n"
    raise ValueError(fmt)


def roles_reference(ruleset) -> str:
    """Every role of a loaded ruleset with its skills — phase, step and priority (after the
    manifest's overrides), targets, uses, tags, each ``--arg`` and the rule sentence — as
    Markdown (``bansha roles RULESET --markdown``; docs/roles/<ruleset>.md)."""
    m = ruleset.manifest
    out = [f"# {m.name} (`{m.id}`): roles and skills", "",
           f"Generated by `bansha roles {m.id} --markdown` from the plugins the manifest names; "
           "`bansha role show NAME --ruleset " + m.id + "` prints one role. Pseudo-roles never dealt "
           "hold skills that others gain.", ""]
    # in the manifest's order (the board's own listing), then any role a plugin adds unasked
    order = [*m.roles, *(r for r in ruleset.roles if r not in m.roles)]
    for role in (ruleset.roles[r] for r in order if r in ruleset.roles):
        dealt = any(role.name in t.fixed or any(role.name in p.roles for p in t.pools)
                    or any(role.name in rs for rs in t.camps.values()) for t in m.tables)
        kind = "" if dealt else ("; every player's skills, never dealt" if role.name in m.common else "; never dealt")
        out += [f"## {role.name} (`{role.alias}`)", "",
                f"Camp {role.camp or 'by the deal'}; plugin `{ruleset.role_plugin[role.name]}`{kind}.", ""]
        # a homebrew role (homebrew.py): how it meets named roles
        out += [f"- jinx with {jinx}" for jinx in role.jinxes] + ([""] if role.jinxes else [])
        if not role.skills:
            continue
        out += ["| skill | phases | step, priority | targets | uses | tags | arguments |",
                "| --- | --- | --- | --- | --- | --- | --- |"]
        for s in role.skills:
            n = s.targets if s.max_targets in (None, s.targets) else f"{s.targets}–{s.max_targets}"
            args = "<br>".join(f"`--arg {k}=…` {v}" for k, v in s.args.items())
            step = f"{s.step}, {s.priority}" if s.step else ("at once" if s.immediate else "—")
            out.append(f"| {s.name} (`{s.alias}`) | {'/'.join(s.phases) or 'applies by itself'} | {step} | {n} "
                       f"| {s.uses if s.uses is not None else '∞'} | {'、'.join(s.tags)} | {args} |")
        out.append("")
        out += [f"- **{s.name}**: {s.rule}" for s in role.skills if s.rule]
        out += [f"- **{s.name}** cards: {'; '.join(s.cards)}" for s in role.skills if s.cards]
        out.append("")
    return "\n".join(out).rstrip() + "\n"
