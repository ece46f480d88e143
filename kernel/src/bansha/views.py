"""What each reader may see: the director's view, one player's view, the forum export."""

from __future__ import annotations

from typing import Any

from .engine import Game


def game_facts(game: Game) -> dict[str, Any]:
    facts: dict[str, Any] = {}
    for part in game.hook.bansha_game_view(game=game):
        if part:
            facts.update(part)
    return facts


def director_view(game: Game) -> dict[str, Any]:
    acted: dict[str, list[str]] = {}
    for a in game.actions:
        acted.setdefault(a.actor, []).append(a.skill + (" " + " ".join(a.chosen) if a.chosen else ""))
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
                "statuses": [_status(s) for s in p.statuses],
                "uses": p.uses,
                "acted": acted.get(p.name, []),
                "voted": [b.target for b in game.ballots if b.voter == p.name],
            }
            for p in game.players.values()
        ],
        "scheduled": list(game.scheduled),
        "facts": game_facts(game),
    }


def _status(s) -> str:
    text = s.name + (f":{s.count}" if s.count is not None else "")
    return text + (f" (until {s.until})" if s.until else "")


def public_players(game: Game) -> list[dict[str, Any]]:
    return [{"seat": p.seat, "name": p.name, "alive": p.alive} for p in game.players.values()]


def player_view(game: Game, name: str) -> dict[str, Any]:
    """Only what ``name`` may know: their own card, told statuses, uses left, their own
    feedback, the public announcements, and what the rules add through ``bansha_player_view``."""
    p = game.player(name)
    extra: dict[str, Any] = {}
    for part in game.hook.bansha_player_view(game=game, player=p):
        if part:
            extra.update(part)
    mates = [q.name for q in game.players.values() if q.name != p.name and set(q.groups) & set(p.groups)]
    view = {
        "ruleset": game.manifest.id,
        "phase": game.label,
        "you": {
            "name": p.name,
            "role": p.role,
            "camp": p.camp,
            "setup": p.setup,
            "alive": p.alive,
            "statuses": [_status(s) for s in p.statuses if s.told],
            "uses": p.uses,
            "acted": [a.skill for a in game.actions if a.actor == p.name],
        },
        "players": public_players(game),
        "feedback": [{"phase": ph, "text": t} for ph, t in game.feedback.get(p.name, [])],
        "announcements": [{"phase": ph, "text": t} for ph, t in game.announcements],
        "winner": game.winner,
        "facts": game_facts(game),
    }
    if mates:
        # group members know each other (黑侠 互知, an absorbed 青侠 joins its group)
        view["you"]["group"] = mates
    view["you"].update(extra)
    return view


def announcements_by_phase(game: Game) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for ph, text in game.announcements:
        if not out or out[-1][0] != ph:
            out.append((ph, []))
        out[-1][1].append(text)
    return out


def export_text(game: Game, fmt: str) -> str:
    title = f"{game.manifest.name} — {game.label}"
    if fmt == "md":
        parts = [f"# {title}"]
        for ph, lines in announcements_by_phase(game):
            parts.append(f"\n## {ph}\n")
            parts += [f"- {line}" for line in lines]
        return "\n".join(parts) + "\n"
    if fmt == "bbcode":
        parts = [f"[size=5][b]{title}[/b][/size]"]
        for ph, lines in announcements_by_phase(game):
            parts.append(f"\n[b]{ph}[/b]\n[list]")
            parts += [f"[*]{line}" for line in lines]
            parts.append("[/list]")
        return "\n".join(parts) + "\n"
    raise ValueError(fmt)
