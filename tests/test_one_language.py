"""Issue 11, "One language per board": every text the qisha-xia and light-shadow plugins put
before a player or the director is Chinese, and no text carries a Python repr.

Every scenario of the two rulesets is played with recorders on:

- every feedback line and every announcement of the game (whoever wrote it: for these boards
  the kernel writes only the manifest's own ``[texts]``);
- what the ruleset's plugins pass to the resolution: ruling-trace texts and their rule labels
  (``res.trace``, ``bansha log --explain``), void reasons, the rule of a redirect or a kill,
  a status's name and source;
- what their hooks return: refusals (``bansha_validate_action``, ``bansha_unknown_skill``, …), a
  kill stopped, an immunity, an identity, the views' facts (``bansha_game_view``,
  ``bansha_player_view``, asked after every resolution for the director and every player),
  the reason a ballot is void; and a GameError raised in a plugin;
- and, once per ruleset, the description of every argument a skill takes and every rule text
  (``bansha roles``, ``bansha role show``).

A text passes when every ASCII word in it is an allowed token: a name or anything else the
scenario (the director) typed, an alias of a skill, role, camp, phase or of the ruleset, an
argument key of a skill (``--arg post=…``), a house-rule option key, ``arg``, and ``YES`` (the
rule document's own word: "今日对一共XX个询问回答了YES。"). A text fails on a Python repr: list or
dict brackets around quotes, ``[]``, ``{}``, ``set()``, a number ending ``.0``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from bansha.authoring import scenario as scenario_module
from bansha.authoring.scenario import Scenario, load, run, setup_of
from bansha.engine.engine import Game, Resolution
from bansha.engine.model import GameError
from bansha.show.views import director_view, player_view

ROOT = Path(__file__).resolve().parents[1]
RULESETS = ("qisha-xia", "light-shadow")
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
#: documented ASCII tokens: ``--arg KEY=…`` and the rule document's "回答了YES"
DOCUMENTED = {"arg", "YES"}
REPR = re.compile(r"""[\[{(]['"]|['"][\]})]|\[\]|\{\}|\(\)|\bset\(|(?<![\d.])\d+\.0(?![\d.])""")


def problems(text: str, allowed: set[str]) -> list[str]:
    """What is wrong with one text: ASCII words that are not allowed tokens, Python reprs."""
    found = [f"English {w!r}" for w in WORD.findall(text) if w not in allowed]
    found += [f"repr {m.group()!r}" for m in REPR.finditer(text)]
    return found


def words(*texts) -> set[str]:
    out: set[str] = set()
    for t in texts:
        if isinstance(t, dict):
            out |= words(*t.keys(), *t.values())
        elif isinstance(t, list | tuple):
            out |= words(*t)
        elif t is not None:
            out |= set(WORD.findall(str(t)))
    return out


def allowed_tokens(game: Game, typed: set[str]) -> set[str]:
    """The ASCII tokens a text of this game may contain."""
    m = game.manifest
    out = set(DOCUMENTED) | typed | words(m.id, m.name, *m.alias) | words(*game.players)
    out |= words(*m.options)
    for c in m.camps:
        out |= words(c.name, c.alias)
    for ph in m.phases:
        out |= words(ph.name, ph.alias)
    for role in game.ruleset.roles.values():
        out |= words(role.name, role.alias)
        for s in role.skills:
            out |= words(s.name, s.alias, *s.args)
    return out


def typed_by_director(path: Path) -> set[str]:
    """Every ASCII token the scenario file's director typed (names, arguments, texts)."""
    sc = load(path)
    out = words(*(p.name for p in sc.players))
    for ph in sc.phases:
        for a in ph.actions:
            out |= words(a.actor, a.skill, a.targets, a.args)
        for v in ph.votes:
            out |= words(v.voter, v.target)
        for r in ph.rulings:
            out |= words(r.player, r.text, r.data)
        for w in ph.last_words:
            out |= words(w.player, w.text)
    return out


class Recorder:
    """Collects (where, text) of everything the ruleset's plugins show."""

    def __init__(self, plugins: Path):
        self.plugins = plugins
        self.texts: list[tuple[str, str]] = []
        self.undo: list = []
        self.monitored: set[int] = set()

    def from_plugin(self, depth: int = 2) -> bool:
        return Path(sys._getframe(depth).f_code.co_filename).resolve().is_relative_to(self.plugins)

    def add(self, where: str, *texts) -> None:
        for t in texts:
            if isinstance(t, dict):
                for v in t.values():
                    self.add(where, v)
            elif isinstance(t, list | tuple | set):
                self.add(where, *t)
            elif isinstance(t, str) and t:
                self.texts.append((where, t))

    def hook_returned(self, outcome, hook_name, hook_impls, kwargs) -> None:
        if outcome.exception is not None:
            return
        result = outcome.get_result()
        if hook_name in ("bansha_roles", "bansha_step_handlers", "bansha_setup_game"):
            return
        if hook_name == "bansha_adjust_ballots":
            self.add("void ballot", *(b.void for b in kwargs["ballots"]))
        elif isinstance(result, str | dict | list):
            self.add(hook_name, result)

    def watch(self, game: Game) -> None:
        pm = game.ruleset.pm
        if id(pm) not in self.monitored:
            self.monitored.add(id(pm))
            self.undo.append(pm.add_hookcall_monitoring(lambda *a: None, self.hook_returned))


@pytest.fixture
def recorder(monkeypatch):
    recorders: list[Recorder] = []

    def make(ruleset: str) -> Recorder:
        rec = Recorder(ROOT / "plugins" / ruleset)
        recorders.append(rec)
        init, resolve = Game.__init__, Game.resolve

        def game_init(self, *a, **kw):
            init(self, *a, **kw)
            rec.watch(self)

        def game_resolve(self, *a, **kw):
            out = resolve(self, *a, **kw)
            director_view(self)  # the views' facts, as `bansha status` shows them after it
            for name in self.players:
                player_view(self, name)
            return out

        monkeypatch.setattr(Game, "__init__", game_init)
        monkeypatch.setattr(Game, "resolve", game_resolve)

        def spy(method, where, pick):
            original = getattr(Resolution, method)

            def wrapped(self, *a, **kw):
                if rec.from_plugin():
                    rec.add(where, *pick(*a, **kw))
                return original(self, *a, **kw)

            monkeypatch.setattr(Resolution, method, wrapped)

        spy("trace", "trace", lambda rule, text: (rule, text))
        spy("void", "void", lambda action, reason, rule="": (reason, rule))
        spy("redirect", "redirect", lambda action, targets, rule: (rule,))
        spy("kill", "kill", lambda target, kind="", by="", action=None, rule="", **kw: (kind, rule))
        spy("add_status", "status", lambda player, status: (status.name, status.source))
        error_init = GameError.__init__

        def game_error(self, *a):
            if rec.from_plugin():
                rec.add("GameError", *a)
            error_init(self, *a)

        monkeypatch.setattr(GameError, "__init__", game_error)
        return rec

    yield make
    for rec in recorders:
        for undo in rec.undo:
            undo()


def play(recorder, path: Path) -> tuple[Game, Recorder]:
    rec = recorder(load(path).ruleset)
    game = run(load(path), path.parent)
    rec.add("feedback", *(t for lines in game.feedback.values() for _, t in lines))
    rec.add("announcement", *(t for _, t in game.announcements))
    return game, rec


def scenario_files():
    for ruleset in RULESETS:
        yield from (pytest.param(p, id=f"{ruleset}/{p.stem}")
                    for p in sorted((ROOT / "tests" / "scenarios" / ruleset).glob("*.toml")))


@pytest.mark.parametrize("path", list(scenario_files()))
def test_every_text_is_chinese(recorder, path):
    game, rec = play(recorder, path)
    allowed = allowed_tokens(game, typed_by_director(path))
    bad = [f"{where}: {text!r}: {', '.join(p)}" for where, text in rec.texts if (p := problems(text, allowed))]
    assert not bad, "\n".join(dict.fromkeys(bad))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_declaration_is_chinese(ruleset):
    """What `bansha roles` and the unknown-argument refusal show: each skill's arguments, each
    role's and skill's rule text."""
    game = Game(setup_of(Scenario(ruleset=ruleset, title="", players=[], phases=[])))
    allowed = allowed_tokens(game, set())
    # the rule texts quote the rule documents, whose examples name players A, B, C…
    quoting = allowed | set("ABCDEFGHX")
    bad = []
    for role in game.ruleset.roles.values():
        texts = [(role.rule, quoting), *((t, quoting) for s in role.skills for t in (s.rule,)),
                 *((t, allowed) for s in role.skills for t in s.args.values())]
        for text, ok in texts:
            if p := problems(text, ok):
                bad.append(f"{role.name}: {text!r}: {', '.join(p)}")
    assert not bad, "\n".join(bad)


def test_the_check_flags_english_and_reprs():
    allowed = {"arg", "post", "YES"}
    for text in ["黑一's 杀人 voided: blocked by 暗", "protected ['米粉', '麻团']", "{'暴怒': 0}", "得分35.0",
                 "士一 is healed", "猜测{}", "set()"]:
        assert problems(text, allowed), text
    for text in ["被暗阻止", "幻觉三需要楼层号：--arg post=楼层号。", "今日对一共3个询问回答了YES。", "1.10 吸收", "17.5分"]:
        assert not problems(text, allowed), text


@pytest.mark.parametrize(("ruleset", "scenario", "module", "name", "english"), [
    # 赤侠's "验人失败" as an English line: a feedback line (赤侠's check is the board's 验人 card)
    ("qisha-xia", "011-block-checker-gets-check-failed", "bansha_qisha_xia_cards", "FAILED", "check failed"),
    # 猎人's status source as an English label: a ruling-trace rule label
    ("light-shadow", "050-assassin-spy-sees-disguised-hunter", "bansha_light_shadow_hunter", "SOURCE", "disguise of the hunter"),
])
def test_an_english_line_is_caught(recorder, monkeypatch, ruleset, scenario, module, name, english):
    """The recorders reach the plugins' real output: a plugin made to speak English fails the check."""
    monkeypatch.setattr(sys.modules.get(module) or __import__(module), name, english)
    monkeypatch.setattr(scenario_module, "check", lambda *a: None)  # the expected texts change too
    path = ROOT / "tests" / "scenarios" / ruleset / f"{scenario}.toml"
    game, rec = play(recorder, path)
    allowed = allowed_tokens(game, typed_by_director(path))
    assert any(english in text and problems(text, allowed) for _, text in rec.texts)
