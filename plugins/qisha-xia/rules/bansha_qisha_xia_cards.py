"""七杀·侠 (qisha-xia): the board's cards for homebrew roles (kernel/src/bansha/homebrew.py).

``bansha_qisha_xia_rules`` gives them through ``bansha_cards``. They write and read the night's
shared results under the keys the rules document (``qisha-xia.healed`` …), so a homebrew
privilege is routed, reflected, received and blocked like the board's own.

| card | parameters | 七杀·侠 |
| --- | --- | --- |
| 救治 | — | 1.4 "此人当晚不会被杀死……无反馈" (a reflected kill is healable unless ``reflected_kill_healable`` is false) |
| 杀人 | — | 1.1 "可杀死任何人……但会被白侠救治" |
| 验人 | ``text`` (``{chosen}``, ``{value}``) | 1.5 "可验得此人身份": every member of the sender's group is told |
"""

from __future__ import annotations

from bansha import hookimpl
from bansha.homebrew import Card, Params

HEALED, REFLECTED = "qisha-xia.healed", "qisha-xia.reflected"


def heal(res, target: str) -> None:
    # > 此人当晚不会被杀死……无反馈
    res.data.setdefault(HEALED, set()).add(target)
    res.trace("1.4 救治", f"{target}被救治，当晚不会被杀死")


def healed(res, kill) -> str | None:
    """Whether ``kill`` is stopped by a heal of the night (白侠's 救治 or a homebrew one)."""
    if kill.target not in res.data.get(HEALED, ()):
        return None
    # R-K4: a reflected kill is healable unless the house rule says otherwise
    reflected = kill.action is not None and kill.action.seq in res.data.get(REFLECTED, {})
    if reflected and not res.game.option("reflected_kill_healable"):
        return None
    return "救治"


class _Heal:
    @hookimpl
    def bansha_stop_kill(self, res, kill):
        return healed(res, kill)


class CheckText(Params, kw_only=True, forbid_unknown_fields=True):
    text: str = "{chosen}是{value}。"


def kill(res, a, who, p):
    # > 可杀死任何人（包括暗侠、幻侠），但会被白侠救治
    res.kill(who, kind="杀人", by=a.actor, action=a, rule="1.1 杀人")


def check(res, a, who, p):
    # > 可验得此人身份 — a group's check is told to every member in the game
    game = res.game
    told = [q.name for q in game.alive() if a.group in q.groups] if a.group else [a.actor]
    line = p.text.format(chosen=a.chosen[0] if a.chosen else who, value=game.identity(game.player(who)))
    for name in told:
        res.feedback(name, line)


CARDS = [
    Card("救治", lambda res, a, who, p: heal(res, who), text="当晚不会被杀死，无反馈", does=("help",), hooks=_Heal()),
    Card("杀人", kill, text="杀人（可被救治）", does=("harm",)),
    Card("验人", check, params=CheckText, text="验得身份：{text}", does=("check",)),
]
