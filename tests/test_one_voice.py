"""Issue 31, "One voice": each human-facing name is said by one function, from the board, so
that a raw id cannot reach text by accident. One test per concept, each over seeded simulated
games of every shipped board (and the board's declarations), failing where an id or an English
word reaches what a person reads:

- a phase (``Game.named``), a phase's word (``Game.phase_word``), an action window
  (``Game.window_named``) and a status's duration (``Game.lasting``);
- an event (``explain.event_text``: plain ``undo``, ``undo --to``, the web console's undo) and
  an input (``explain.input_line``: ``amend``);
- a cause of exit (``explain.cause``: ``stats``, ``simulate``);
- a house rule, its help and its values (``options.label_of``, ``value_label``);
- a ruling kind (``Ruleset.ruling_name``);
- a forum format (``read.format_label``);
- a role's card (its rule text and its skills');
- the vote's threshold and tie line (``choices.vote_rule_line``), from the rule the count uses.
"""

from __future__ import annotations

import re

import pytest
from bansha.engine.choices import count_votes, vote_rule_line
from bansha.engine.engine import Game
from bansha.engine.model import ActEvent, AmendEvent, GameError, RulingEvent, UnactEvent, VoteEvent
from bansha.engine.options import label_of, type_of, value_label
from bansha.engine.registry import find_manifest, ruleset_for
from bansha.show.explain import cause, event_text, input_line
from bansha.show.views import director_view, player_view
from bansha_sim.play import play_game

BOARDS = {"light-shadow": 12, "qisha-xia": 20, "m217": 14, "mafia-basic": 9}
#: a phase id ("night 2", "dusk", "opening") or a key=value pair: never in a line a person reads
RAW = re.compile(r"\b(opening|day|night|dusk|dawn|noon|runoff|extra-noon)\b( \d+)?|\w+=\S")
ENGLISH = re.compile(r"\b[A-Za-z]{3,}\b")


def games(ruleset: str, seeds=(1, 2)):
    """Seeded simulated games of ``ruleset``: (setup, events)."""
    for seed in seeds:
        out = play_game(ruleset, BOARDS[ruleset], seed, keep=True, day_limit=6)
        yield out["setup"], out["events"]


def replayed(setup, events):
    """The game after each event, in turn (one live game, applied event by event)."""
    g = Game(setup)
    for ev in events:
        g.apply(ev)
        yield g, ev


def raw(text: str, names) -> list[str]:
    """The ids and English words in ``text``, once the players' names (what people typed) are
    taken out."""
    for n in sorted(names, key=len, reverse=True):
        text = text.replace(n, "·")
    return [m.group(0) for m in RAW.finditer(text)] + ENGLISH.findall(text)


@pytest.mark.parametrize("ruleset", BOARDS)
def test_phases_windows_and_durations_are_the_boards_names(ruleset):
    """Every label a game reaches is named by the board, and the name reads back as the same
    phase (one label per phase); each window and each status's duration is said with it, in
    every view (the director's and each seat's)."""
    from bansha.engine.board import parse_phase_arg

    for setup, events in games(ruleset):
        seen: set[str] = set()
        for g, _ in replayed(setup, events):
            names = set(g.players)
            if g.label not in seen:
                seen.add(g.label)
                shown = g.named(g.label)
                assert not raw(shown, names), shown
                assert parse_phase_arg(g, shown) == g.label
                assert not raw(g.phase_word(g.phase.name), names)
                for w in range(max(1, len(g.phase.windows))):
                    assert not raw(g.window_named(w), names), g.window_named(w)
            for p in g.players.values():
                for s in p.statuses:
                    lasting = g.lasting(s.until)
                    assert not raw(lasting, names), lasting
                    if s.until:
                        assert g.named(s.until) in lasting
                if p.statuses:
                    for line in player_view(g, p.name, votes=None)["you"]["statuses"]:
                        assert not raw(line, names), line
            for row in director_view(g)["players"]:
                for line in row["statuses"]:
                    assert not raw(line, names), line


@pytest.mark.parametrize("ruleset", BOARDS)
def test_every_event_and_input_is_said_in_the_boards_words(ruleset):
    """What undo, undo --to, amend and the web console say of each event a game stores."""
    for setup, events in games(ruleset, seeds=(3,)):
        g = Game(setup)
        names = set(g.players)
        for ev in events:
            line = event_text(g, ev)
            assert not raw(line, names | {getattr(ev, "skill", ""), getattr(ev, "text", "")} - {""}), line
            if isinstance(ev, ActEvent | UnactEvent | VoteEvent):
                amended = event_text(g, AmendEvent(phase=ev.phase, event=ev))
                assert amended.endswith(input_line(ev, g.lang)) and amended != line
            g.apply(ev)
    g = Game(setup)
    undone = event_text(g, RulingEvent(phase=g.label, kind="remove", player=next(iter(g.players)), text="x"))
    assert "remove" not in undone and g.ruleset.ruling_name("remove") in undone


@pytest.mark.parametrize("ruleset", BOARDS)
def test_every_cause_of_exit_is_a_word_of_the_board(ruleset):
    """``stats`` and ``simulate`` name each cause of exit by ``explain.cause``."""
    out_kinds = set()
    for seed in range(1, 6):
        out_kinds |= set(play_game(ruleset, BOARDS[ruleset], seed, day_limit=6)["causes"])
    assert out_kinds or ruleset == "light-shadow"  # (its exits are the rules' own, not the kernel's kills)
    for kind in out_kinds:
        assert not ENGLISH.search(cause(kind, "zh")), (kind, cause(kind, "zh"))


@pytest.mark.parametrize("ruleset", BOARDS)
def test_every_house_rule_has_a_label_a_help_line_and_named_values(ruleset):
    """Every option of a shipped board says what it is and what it decides; a value that is an
    id (game, four-mage, submission) has a label, and ``new`` takes the label for it."""
    from bansha.engine.options import check_options

    m = find_manifest(ruleset)
    for key, default in m.options.items():
        t = type_of(m, key)
        assert t.label and t.help, f"{ruleset}: option {key} has no label or help"
        assert not ENGLISH.search(t.label) and not ENGLISH.search(re.sub(r"R-[A-Z]+\d+", "", t.help)), (key, t.label, t.help)
        assert label_of(m, key) == t.label
        values = list(t.choices) or [default]
        for v in values:
            shown = value_label(m, key, v)
            assert not ENGLISH.search(shown), (key, v, shown)
            if isinstance(v, str) and v in t.choice_labels and t.type == "str":
                assert check_options(m, {t.label: shown}) == {key: v}


@pytest.mark.parametrize("ruleset", BOARDS)
def test_every_ruling_kind_has_a_name(ruleset):
    rs = ruleset_for(find_manifest(ruleset))
    for kind in rs.ruling_kinds:
        name = rs.ruling_name(kind)
        assert name and not ENGLISH.search(name), (kind, name)


def test_every_forum_format_has_a_label():
    from bansha_forum.read import adapters, format_label

    for name, _ in adapters():
        assert format_label(name) != name


@pytest.mark.parametrize("ruleset", BOARDS)
def test_every_card_speaks_the_boards_language(ruleset):
    """A role's rule text and each of its skills' (``bansha role show``, a player's card):
    mafia-basic's too."""
    from bansha.show.views import card_text

    rs = ruleset_for(find_manifest(ruleset))
    for role in rs.roles.values():
        for text in [card_text(role.rule), *(card_text(s.rule) for s in role.skills)]:
            if text:
                assert re.search(r"[\u4e00-\u9fff]", text) and not re.search(r"\b[A-Za-z]{4,} [A-Za-z]{3,}\b", text), (role.name, text)


def test_mafia_basic_refuses_in_chinese():
    from bansha.engine.model import Ballot

    for setup, _ in games("mafia-basic", seeds=(1,)):
        g = Game(setup)
        voter = next(iter(g.players))
        for target in (g.manifest.vote.abstain, voter):
            with pytest.raises(GameError) as err:
                g.check_vote(Ballot(voter=voter, target=target, seq=1))
            assert not ENGLISH.search(str(err.value).replace(voter, "")), str(err.value)


@pytest.mark.parametrize("ruleset,options,says", [
    ("mafia-basic", {}, "最高票出局（平票抽签决定出局者）"),
    ("qisha-xia", {}, "最高票须达存活人数的 40%"),
    ("m217", {}, "最高票出局（平票无人出局）"),
    ("m217", {"tie": "全部出局"}, "最高票出局（平票者全部出局）"),
])
def test_the_vote_rule_line_is_the_rule_the_count_uses(ruleset, options, says):
    """status's 出局门槛 line comes from the count ``resolve`` makes (mafia-basic draws lots, and
    says so); a tie rule set by a house rule is said too."""
    out = play_game(ruleset, BOARDS[ruleset], 4, keep=True, day_limit=3, options=options)
    g = Game(out["setup"])
    lines = set()
    for ev in out["events"]:
        if g.phase.vote:
            count = count_votes(g)
            if count is not None:
                lines.add(vote_rule_line(g, count))
        g.apply(ev)
    assert lines and all(says in line for line in lines), lines
    if ruleset == "qisha-xia":
        assert any("两人平票进入高票对决" in line for line in lines), lines


@pytest.mark.parametrize("ruleset", BOARDS)
def test_the_demo_names_its_phases_as_the_board_does(ruleset):
    """``bansha demo``: each phase's heading and the closing ``bansha post`` line give the label
    every command takes, never the id (``== day 0``, ``--phase 'day 2'``)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from clirun import run_main

    code, out, err = run_main(["demo", "--ruleset", ruleset])
    assert code == 0, err
    headings = [line for line in out.splitlines() if line.startswith(("== ", "--- bansha post"))]
    assert headings
    for line in headings:
        assert not RAW.search(line.replace("--phase", "").replace("--format text", "").replace("bansha post GAME", "")), line


@pytest.mark.parametrize("file", ["076-hallucination-one-forces-votes.toml", "081-hallucination-three-post-cutoff.toml",
                                  "082-hallucination-three-void-change-keeps-vote.toml"])
def test_the_posts_vote_record_agrees_with_its_counts(file):
    """After 幻觉一/幻觉三 the day post's record of the votes as posted marks each vote the count
    did not take as posted (（不计）, （被改变）), so that the unmarked votes never exceed the counts
    beside them, and every marked voter is one the count changed."""
    from pathlib import Path

    from bansha.authoring.scenario import load, run
    from bansha.engine import history
    from bansha.engine.board import load_board
    from bansha_forum import posts

    path = Path(__file__).parent / "scenarios" / "qisha-xia" / file
    game = run(load(path), path.parent)
    g, told = history.replay(game.setup, list(game.applied))
    board = load_board(g.manifest.id)
    marked_any = False
    for label in history.played(g):
        if not g.ruleset.phase(label.partition(" ")[0]).vote or label not in g.resolved:
            continue
        data = posts.build(g, list(game.applied), board, label, told)
        record = [line for s in data["sections"] if s["key"] == "votes" for line in s.get("lines", []) if " → " in line]
        counts = {n: float(c) for n, c in history.tally(g, label)}
        changed = history.not_counted_as_cast(g, label)
        unmarked: dict[str, int] = {}
        for line in record:
            voter, _, rest = line.partition(" → ")
            if "（不计）" in rest or "（被改变）" in rest:
                marked_any = True
                assert voter in changed, (label, line)
                continue
            assert voter not in changed, (label, line)
            target = rest.split("（")[0]
            unmarked[target] = unmarked.get(target, 0) + 1
        for target, n in unmarked.items():
            if target != g.manifest.vote.abstain:
                assert n <= counts.get(target, 0), (label, target, n, counts, record)
    assert marked_any, file
