"""Declared checks (``for_skills``) against the full hook, in seeded simulated games of every
board: each time the engine asks the rules' ``bansha_validate_action`` of an action (``act``'s
check and every choice the listing tries), the implementations concerned by the skill answer
exactly what all of them answer (every reason, in order: the same refusal wins). So a
declaration that leaves out a skill its validator refuses fails here, and the listing and
``act`` answer as they would with every validator asked."""

from collections import Counter
from pathlib import Path

import pytest
from bansha.engine.registry import FastHooks
from bansha_sim.play import play_game

ROOT = Path(__file__).resolve().parents[2]
HOMEBREW = str(ROOT / "examples" / "homebrew-board" / "board.toml")


@pytest.fixture
def compared(monkeypatch):
    """Every ``for_skill`` call also made through the full hook and compared; counts
    (skill, whether some validators were left out) of the calls compared."""
    seen = Counter()
    declared = FastHooks.for_skill

    def for_skill(self, name, skill):
        part, full = declared(self, name, skill), getattr(self, name)

        def call(**kw):
            got, want = part(**kw), full(**kw)
            assert got == want, (name, skill, got, want)
            seen[skill, part is not full] += 1
            return got

        return call

    monkeypatch.setattr(FastHooks, "for_skill", for_skill)
    return seen


@pytest.mark.parametrize("board, seats, seeds, windows", [
    ("m217", 14, range(12), False), ("m217", 14, range(12, 16), True),  # a night closed window by window
    ("qisha-xia", 20, range(8), False), ("light-shadow", 12, range(2), False), ("mafia-basic", 10, range(4), False),
    (HOMEBREW, 7, range(4), False),
])
@pytest.mark.parametrize("policy", ["random", "informed"])
def test_declared_checks_answer_as_every_validator(compared, board, seats, seeds, windows, policy):
    for seed in seeds:
        play_game(board, seats, seed, policy, windows=windows)
    assert sum(compared.values()) > 0
    if board in ("m217", "qisha-xia", "light-shadow"):
        # the table left some validators out, and some refusals were compared
        assert sum(n for (_, left_out), n in compared.items() if left_out) > 0
