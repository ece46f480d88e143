"""Issue 32 item 6, the author's path (the wheelhouse and the failing boards are
tests/outsider/test_outsider_path.py): ``bansha role show`` speaks the board's language on every
shipped role — the rule's quoted lines without the plugin's implementation notes, phases and
steps as the board names them, a triggered skill said as triggered, no empty brackets — and what
docs/plugins.md answers to the author's seven questions holds of the engine."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
from bansha.engine import hookspecs
from bansha.engine.engine import Game
from bansha.engine.model import ActEvent, GameError, Player, ResolveEvent
from bansha.engine.registry import find_manifest, installed_manifests, ruleset_for
from clirun import run_main

ROOT = Path(__file__).resolve().parents[2]
CHINESE_BOARDS = sorted(m.id for m in installed_manifests().values() if m.language == "zh")


@pytest.mark.parametrize("board", CHINESE_BOARDS)
def test_role_show_prints_every_role_in_the_boards_language(board):
    rs = ruleset_for(find_manifest(board))
    for role in rs.roles.values():
        code, out, err = run_main(["role", "show", role.name, "--ruleset", board])
        assert code == 0, err
        # what a director types stays as typed: an alias in brackets, an --arg's name
        said = re.sub(r"（[a-z0-9-]+）|--arg [a-z_<>]+=", "", out)
        english = re.findall(r"[A-Za-z`_][A-Za-z`_.]{3,}", said)
        assert not english, (role.name, english, out)
        assert "（）" not in out and "于，" not in out, out
        for skill in role.skills:
            line = next(x for x in out.splitlines() if x.strip().startswith(f"技能 {skill.name}"))
            if not skill.phases:
                assert "触发技能" in line, line
            for phase in skill.phases:
                assert (rs.phase(phase).alias or phase) in line, line


def test_a_plugins_rule_is_shown_without_its_implementation_notes():
    code, out, _ = run_main(["role", "show", "熊", "--ruleset", "m217"])
    assert code == 0
    assert "咆哮[强制][黄昏]" in out and "handler" not in out and "Judged at" not in out, out
    assert "技能 咆哮（roar）：触发技能" in out, out


def test_the_plugin_guide_answers_the_authors_questions():
    guide = (ROOT / "docs/plugins.md").read_text(encoding="utf-8")
    for heading in ("### `Action`: what an effect reads", "### Actions of earlier phases", "### Phase labels",
                    "### Target range: `may_target_self`, `may_target_dead`", "### A triggered skill (no action: the rules play it)",
                    "### `neighbours`", "**The arguments' types**", "### Publishing: a wheelhouse, installed with no index"):
        assert heading in guide, heading
    assert "pip install --no-index --find-links wheelhouse" in guide and "pip wheel --wheel-dir wheelhouse" in guide
    # the hook specs carry the types: a Skill everywhere but bansha_unknown_skill, which gets a name
    for name, spec in inspect.getmembers(hookspecs, inspect.isfunction):
        if name.startswith("bansha_") and "skill" in inspect.signature(spec).parameters:
            want = "str" if name == "bansha_unknown_skill" else "Skill"
            assert inspect.signature(spec).parameters["skill"].annotation == want, name
            assert ("name as typed" if want == "str" else "Skill") in (spec.__doc__ or "") + hookspecs.__doc__, name


M14 = ["子鼠", "丑牛", "寅虎", "卯兔", "辰龙", "巳蛇", "午马", "未羊", "申猴", "酉鸡", "戌狗", "亥猪", "春风", "秋月"]


def _m217(seed: int, roles: dict[str, str] | None = None) -> Game:
    """An m217 game of the board's own deal for ``seed``, with ``roles`` given in place."""
    from bansha.engine.deal import deal
    from bansha.engine.model import PlayerSetup, Setup

    rs = ruleset_for(find_manifest("m217"))
    seats = deal(rs, M14, seed)
    players = [PlayerSetup(name=p.name, role=(roles or {}).get(p.name, p.role), camp=p.camp, setup=p.setup) for p in seats]
    return Game(Setup(ruleset="m217", manifest=rs.manifest, seed=seed, players=players))


def test_what_the_guide_says_of_labels_neighbours_actions_and_the_target_range_holds():
    game = _m217(3)
    labels = [game.label]
    for _ in range(5):
        game.apply(ResolveEvent(phase=game.label))
        labels.append(game.label)
    # "m217 plays opening, dusk 1, night 1, dawn 1, noon 1 …, dusk 2"
    assert labels == ["opening", "dusk 1", "night 1", "dawn 1", "noon 1", "dusk 2"], labels
    # neighbours: two Players, the seats as a ring, the dead skipped
    seats = sorted(game.players.values(), key=lambda p: p.seat)
    before, after = game.neighbours(seats[0].name)
    assert isinstance(before, Player) and before.name == seats[-1].name and after.name == seats[1].name
    seats[1].alive = False
    assert game.neighbours(seats[0].name)[1].name == seats[2].name

    # may_target_dead widens the range: the kernel's range check takes a living player for 灵能's
    # 感知 (the dead may be chosen), and the rule that wants the dead only refuses the living itself
    game = _m217(3, {M14[0]: "灵能"})
    holder = game.player(M14[0])
    skill = game.find_skill(holder, "感知")[0]
    assert skill.may_target_dead
    while game.phase.name != "night":
        game.apply(ResolveEvent(phase=game.label))
    assert game.player(M14[5]).alive
    assert game.check_targets(holder, skill, False, [M14[5]]) == [M14[5]]
    with pytest.raises(GameError, match="仍在场上"):
        game.apply(ActEvent(phase=game.label, actor=M14[0], skill="感知", targets=[M14[5]]))

    # an Action: chosen as sent, targets the final ones (a copy of chosen before any redirect),
    # seq the game-wide order of submission
    from bansha.engine.choices import seat_choices

    choice = next(c for name in M14 for c in seat_choices(game, name) if 1 <= c.min_targets <= len(c.targets))
    chosen = choice.targets[:choice.min_targets]
    game.apply(ActEvent(phase=game.label, actor=choice.player, skill=choice.skill, targets=chosen))
    sent = game.actions[-1]
    assert (sent.actor, sent.skill, sent.chosen, sent.targets, sent.seq) == (choice.player, choice.skill, chosen, chosen, game.seq)
    assert sent.chosen is not sent.targets
