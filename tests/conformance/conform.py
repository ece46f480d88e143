"""The conformance walk: every surface a person reads, rendered after every event of seeded
simulated games, and the properties every surface holds (issue 31, item 1).

A game is played by the simulator (``bansha_sim.states``: the random policy, a seed, nights
closed window by window or whole), stored event by event in a SQLite store through the commands
a director types (``bansha act``, ``vote``, ``resolve --yes [--window]``: what each prints is a
surface too), and after each event these surfaces are rendered through the functions the CLI
and the web use, in this process:

- ``bansha status`` for the director and ``status --as`` every seat (``tests/clirun.run_main``:
  the installed entry point's path);
- ``post`` (BBCode and text) and ``pm`` (text, BBCode, and per recipient as JSON) of every phase
  resolved so far, asked by the label the surfaces print for it;
- ``export`` (Markdown, BBCode), ``log --explain``;
- ``undo`` (then the event is stored again), ``undo --to`` the phase before (then the events
  are stored again) and ``amend`` previews (withdrawing and re-sending an action, re-casting a
  vote of the last phase closed);
- the scenario runner's mismatch text (``scenario.check`` against an expectation that is wrong);
- every seat's page and the director's console, through the web app's test client.

What holds after every event (``Walk.findings`` lists each breach once, with its board, seed,
mode, event number and the text):

- ``raises``: nothing raises, no command exits other than 0 where the state allows it (the
  input the engine took, a post or PM of a resolved phase, a correction of an input that stood);
- ``language``: every line is in the board's language: no ASCII word but what people typed
  (names, texts) and the command words a hint quotes, no Python repr (``tests/test_one_language``);
- ``secrecy``: a line that pairs a player with their role on a seat's surface (status --as,
  their page, their PM) or a public one (post, export) is backed by a line of what the engine
  lets that reader know (``player_view``, the announcements);
- ``labels``: every phase label a surface prints names a phase the game reached, and is the
  label the game prints for it (one label per phase); the commands that take a phase accept it
  (act --phase, resolve --phase, post/pm --phase, amend --phase, undo --to are asked by it);
- ``listing``: what status (``player_view``), the web forms (``usable_skills``) and the
  simulator (``choices_for``) list for a seat equals the one listing (``seat_choices``), and
  ``act`` accepts each listed target, each listed argument value and the listed least and most
  targets, and refuses one more than the most (``Game.check`` on a copy);
- ``windows``: a game whose nights close window by window is, resolved whole with the same
  input, the same game, and a game closed whole is the same closed window by window.
"""

from __future__ import annotations

import html
import itertools
import json
import re
import tempfile
import traceback
from collections.abc import Iterable
from pathlib import Path

import msgspec
from bansha.engine.board import parse_phase_arg
from bansha.engine.engine import Game
from bansha.engine.model import ActEvent, Event, GameError, ResolveEvent, RulingEvent, VoteEvent
from bansha.show.views import player_view

ROOT = Path(__file__).resolve().parents[2]
#: the boards walked: every shipped board, the homebrew example and a variant with [[edits]]
BOARDS = {
    "light-shadow": "light-shadow",
    "qisha-xia": "qisha-xia",
    "m217": "m217",
    "mafia-basic": "mafia-basic",
    "homebrew": str(ROOT / "examples" / "homebrew-board" / "board.toml"),
    "m217-variant": str(Path(__file__).parent / "boards" / "m217-variant.toml"),
}
#: the seats' names: Chinese, so that any ASCII word a surface prints is the engine's
NAMES = ["水饺", "包子", "馄饨", "烧卖", "油条", "豆浆", "煎饼", "春卷", "汤圆", "粽子", "月饼", "麻花", "锅贴",
         "花卷", "凉皮", "肉夹馍", "酸梅", "米线", "炒饭", "面条", "凉面", "烤串", "腊肉", "糍粑"]
GAME = "对局"
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
REPR = re.compile(r"""[\[{(]['"]|['"][\]})]|\[\]|\{\}|\bset\(|(?<![\d.])\d+\.0(?![\d.])|\bNone\b|\bTrue\b|\bFalse\b""")
#: what a hint quotes for the director to type: the command and its words (``bansha act 甲 验人``)
COMMAND_WORDS = {"bansha", "act", "unact", "vote", "resolve", "ruling", "post", "pm", "amend", "undo", "status",
                 "export", "log", "new", "serve", "arg"}
#: the rule documents' own words, quoted in rule texts and announcements: light-shadow's
#: "今日对一共XX个询问回答了YES。", examples naming players A, B, C…, "X为存活人数/4", "PS：",
#: m217's "遗言中禁止使用Discuz!代码"
DOCUMENTED = {"YES", "XX", "X", "PS", "Discuz", *"ABCDEFGH"}
#: markup the surfaces are written in: BBCode tags, Markdown, options (``--phase``), ``--arg KEY=``
MARKUP = re.compile(r"\[/?(?:b|i|u|s|quote|color|size|url|code|list|\*|hr|img|font|align|spoiler|del|table|tr|td)"
                    r"(?:=[^\]]*)?\]|--arg\s+[A-Za-z_<>]+=|--[a-z][a-z-]*|https?://\S+")


class Finding(msgspec.Struct, frozen=True):
    check: str
    board: str
    where: str
    text: str


class Walk:
    """One seeded game of one board, walked event by event."""

    def __init__(self, board: str, seed: int, *, windows: bool = False, day_limit: int = 2, web: bool = True,
                 every: int = 1, deep_every: int = 1, seats: int | None = None, policy: str = "random"):
        """``every``: status, pages and listings after every Nth event (1: each); ``deep_every``:
        the posts, PMs, export, log, undo, amend and mismatch surfaces too (always after a
        resolution and the last event)."""
        import logging

        import structlog

        logging.getLogger("httpx").setLevel(logging.WARNING)
        structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(30))
        from bansha_sim.states import play

        self.board, self.seed, self.windows = board, seed, windows
        self.every, self.deep_every = every, deep_every
        self.tag = f"{board} seed {seed} {'by window' if windows else 'whole'}"
        self.played = play(BOARDS[board], seed, seats=seats, policy=policy, day_limit=day_limit, windows=windows,
                           names=NAMES)
        self.findings: dict[tuple, Finding] = {}
        self.counts = {"events": 0, "texts": 0, "commands": 0, "listed": 0}
        self.tmp = tempfile.TemporaryDirectory(prefix="bansha-conform-")
        self.db = str(Path(self.tmp.name) / "g.db")
        from bansha.store.store import open_store

        self.store = open_store(self.db)
        self.store.create(GAME, self.played.setup)
        self.web = web
        if web:
            self._web()

    # ------------------------------------------------------------------ findings

    def find(self, check: str, where: str, text: str, key: str | None = None) -> None:
        """Record a breach once: the same text on the same surface (seats' names and numbers
        aside) is one finding, reported where it was first seen."""
        def shape(s: str) -> str:
            for n in NAMES:
                s = s.replace(n, "某")
            return re.sub(r"\d+", "#", s)

        key = (check, shape(where.split(" @")[0]).split(" --phase")[0], key or shape(text)[:300])
        if key not in self.findings:
            self.findings[key] = Finding(check, self.tag, where, text)

    # ------------------------------------------------------------------ the walk

    def run(self) -> list[Finding]:
        try:
            self._run()
        finally:
            self.close()
        return list(self.findings.values())

    def close(self) -> None:
        if getattr(self, "client", None) is not None:
            self.client.__exit__(None, None, None)
            self.client = None
        self.store.close()
        self.tmp.cleanup()

    def _run(self) -> None:
        events = self.played.events
        for i, (game, ev) in enumerate(self.played.states(), start=1):
            at = f"@{i} {type(ev).__name__} {game.label}"
            said = self.send(ev, at)
            if said is None:
                break
            self.counts["events"] += 1
            deep = isinstance(ev, ResolveEvent) or i == len(events) or i % self.deep_every == 0
            if i % self.every and not deep:
                continue
            try:
                self.step(game, ev, at, deep, said)
            except Exception:  # noqa: BLE001 - a surface that raises is the finding
                self.find("raises", at, traceback.format_exc(limit=-6))
        self.check_windows()

    def send(self, ev: Event, at: str) -> tuple[str, str] | None:
        """Store ``ev`` as a director types it (``bansha act``, ``vote``, ``resolve --yes
        [--window]``, ``ruling``): what the command printed, as (the command, its text). A
        command that refuses what the engine took is a finding, and the event is then stored
        as it is (a proxy, late or changed vote too: the simulator sends none); None: the store
        refused it too (the walk cannot go on)."""
        argv: list[str] = []
        now = self.store.peek(GAME)
        # the phase named as the surfaces print it: act and resolve take it (one label per phase)
        shown = now.named(now.label)
        if isinstance(ev, ActEvent) and ev.phase == now.label:
            argv = ["act", GAME, ev.actor, ev.skill, *ev.targets, "--phase", shown,
                    *(x for k, v in ev.args.items() for x in ("--arg", f"{k}={v}"))]
        elif isinstance(ev, VoteEvent) and not (ev.proxy or ev.late or ev.change):
            argv = ["vote", GAME, ev.voter, ev.target, *(("--post", str(ev.post)) if ev.post else ())]
        elif isinstance(ev, ResolveEvent):
            argv = ["resolve", GAME, "--yes", "--phase", shown, *(("--window",) if ev.window else ())]
        elif isinstance(ev, RulingEvent) and not ev.data:
            argv = ["ruling", GAME, ev.kind, *((ev.player,) if ev.player else ()), *(("--text", ev.text) if ev.text else ())]
        before = len(self.store.events(GAME))
        if argv:
            code, out, err = self.cli(*argv, at=at, ok=False)
            stored = self.store.events(GAME)
            if code == 0 and len(stored) == before + 1:
                if getattr(stored[-1], "phase", None) != getattr(ev, "phase", None):
                    self.find("labels", f"bansha {' '.join(argv)} {at}",
                              f"stored with the phase {stored[-1].phase!r}, the log's name for it is {ev.phase!r}")
                return " ".join(argv[:2] + ["…"]), out
            self.find("raises", f"bansha {' '.join(argv)} {at}", f"the command refuses what the engine took: {(err or out).strip()[:400]}")
        try:
            self.store.append(GAME, ev)
        except Exception as exc:  # noqa: BLE001 - the stored game is not the game: nothing after it can be read
            self.find("raises", at, f"the store refused an event the game took: {exc}")
            return None
        return "", ""

    def step(self, game: Game, ev: Event, at: str, deep: bool, said: tuple[str, str] | None = None) -> None:
        surfaces: list[tuple[str, str, str]] = []  # (surface, reader: None director / "" public / a seat, text)
        if said and said[0]:
            surfaces.append((said[0], None, said[1]))
        stored = self.store.peek(GAME)
        if [outcome(stored)[k] for k in ("label", "announcements", "feedback", "winner")] != \
                [outcome(game)[k] for k in ("label", "announcements", "feedback", "winner")]:
            self.find("raises", at, "the game stored through the commands is not the game the engine played")
        surfaces += self.status(game, at)
        if self.web:
            surfaces += self.pages(game, at)
        self.listing(game, ev, at)
        if deep:
            surfaces += self.outputs(game, at)
            surfaces += self.undo(game, ev, at)
            surfaces += self.amend(game, at)
            surfaces += self.mismatch(game, at)
        corpus = self.corpus(game, surfaces)
        for where, reader, text in surfaces:
            self.counts["texts"] += 1
            self.language(game, f"{where} {at}", text)
            self.labels(game, f"{where} {at}", text)
            if reader is not None:
                self.secrecy(game, f"{where} {at}", reader, text, corpus)

    # ------------------------------------------------------------------ the CLI

    def cli(self, *argv: str, at: str, ok: bool = True) -> tuple[int, str, str]:
        import sys

        sys.path.insert(0, str(ROOT / "tests"))
        from clirun import run_main

        self.counts["commands"] += 1
        code, out, err = run_main([*argv, "--db", self.db])
        if ok and code != 0:
            self.find("raises", f"bansha {' '.join(argv)} {at}", (err or out).strip()[-600:])
        if "Traceback" in err:
            self.find("raises", f"bansha {' '.join(argv)} {at}", err.strip()[-600:])
        return code, out, err

    def status(self, game: Game, at: str) -> list:
        out = [("status", None, self.cli("status", GAME, at=at)[1])]
        for name in game.players:
            out.append((f"status --as {name}", name, self.cli("status", GAME, "--as", name, at=at)[1]))
        return out

    def outputs(self, game: Game, at: str) -> list:
        from bansha.engine.board import load_board
        from bansha_forum.posts import carried_into

        out = []
        board = load_board(game.manifest.id, lang=game.lang)
        for label in dict.fromkeys(game.resolved):
            shown = game.named(label)
            into = carried_into(game, board, label)
            for fmt in ("bbcode", "text") if into is None else ():
                # a phase whose post is another's (m217's night, told in the dawn's) has none
                code, text, _ = self.cli("post", GAME, "--phase", shown, "--format", fmt, at=at)
                out.append((f"post --phase {shown} --format {fmt}", "", text))
            for fmt in ("text", "bbcode"):
                code, text, _ = self.cli("pm", GAME, "--phase", shown, "--format", fmt, at=at)
                out.append((f"pm --phase {shown} --format {fmt}", None, text))
            code, text, _ = self.cli("pm", GAME, "--phase", shown, "--json", at=at)
            if code == 0:
                for block in json.loads(text or "[]"):
                    to = block["player"]
                    if to not in game.players:
                        continue
                    out.append((f"pm --phase {shown} to {to}", to, "\n".join(block["lines"])))
                    # a PM holds its reader's own feedback lines only (what the engine told them),
                    # and who their group's members are (``you.group``: members know each other),
                    # now or when the phase was told: a group changes (m217's 接刀 heir gives the
                    # knife back when a 群内 wolf stands again), and a PM of an earlier phase says
                    # who the members were then
                    view = player_view(game, to)
                    told = {f["text"] for f in view["feedback"]}
                    seen = [game, *self.told_at(game, label)]
                    mates = {n for g in seen for n in g.players
                             for e in player_view(g, to)["you"].get("group", []) if n in e}
                    groups = {gr for g in seen for gr in g.players[to].groups}
                    for line in block["lines"]:
                        named = {n for n in game.players if n in line and n != to}
                        # a line of the reader's group names its members, or none yet (an absorbed
                        # 青侠 alone in the group it joined: 你的同伴（独立青侠）：暂无其他成员)
                        of_group = named <= mates and (named or any(gr in line for gr in groups))
                        if line not in told and not of_group:
                            self.find("secrecy", f"pm --phase {shown} to {to} {at}",
                                      f"a line the engine did not tell {to}: {line[:300]}")
        for fmt in ("md", "bbcode"):
            out.append((f"export --format {fmt}", "", self.cli("export", GAME, "--format", fmt, at=at)[1]))
        out.append(("log --explain", None, self.cli("log", GAME, "--explain", at=at)[1]))
        return out

    def undo(self, game: Game, ev: Event, at: str) -> list:
        out = []
        count = len(self.store.events(GAME))
        code, text, err = self.cli("undo", GAME, at=at)
        out.append(("undo", None, text + err))
        if code == 0 and isinstance(ev, ResolveEvent):  # that was the preview: undoing a resolution takes --yes
            code, text, err = self.cli("undo", GAME, "--yes", at=at)
            out.append(("undo --yes", None, text + err))
        if code == 0 and len(self.store.events(GAME)) == count - 1:
            self.store.append(GAME, ev)
        done = [lb for lb in dict.fromkeys(game.resolved)]
        if len(done) >= 2 and isinstance(ev, ResolveEvent):
            before = self.store.events(GAME)
            shown = game.named(done[-2])
            code, text, err = self.cli("undo", GAME, "--to", shown, at=at)
            out.append((f"undo --to {shown}", None, text + err))
            if code == 0:  # that was the preview; then undone, and the events stored again
                code, text, err = self.cli("undo", GAME, "--to", shown, "--yes", at=at)
                out.append((f"undo --to {shown} --yes", None, text + err))
            if code == 0:
                for e in before[len(self.store.events(GAME)):]:
                    self.store.append(GAME, e)
            if len(self.store.events(GAME)) != len(before):
                self.find("raises", f"undo --to {shown} {at}", "the events undone could not be stored again")
        return out

    def told_at(self, game: Game, label: str) -> list[Game]:
        """The game as it was after each resolution of ``label`` in ``game`` (a night closed
        window by window: after each window; a phase a clock turned back: each play): what the
        phase's PM tells was true at one of these."""
        cache = self.__dict__.setdefault("_told_at", {})
        out = []
        for i, e in enumerate(game.applied):
            if isinstance(e, ResolveEvent) and game.canonical(e.phase) == label:
                if i not in cache:
                    cache[i] = self.played.final(list(game.applied[:i + 1]))
                out.append(cache[i])
        return out

    def standing(self, label: str) -> tuple[list, list]:
        """The actions (kept for the resolution, not answered at once) and the ballots that
        stood when ``label`` was resolved: the game replayed to just before its resolution."""
        cache = self.__dict__.setdefault("_standing", {})
        if label not in cache:
            events = self.played.events
            # the first resolution (a night closed window by window: its first window) of the
            # phase's last play: a clock turned back (时光倒流) plays a phase again, and an
            # amendment without --play corrects the play that stands, the last
            starts, prev = [], None
            for i, e in enumerate(events):
                if isinstance(e, ResolveEvent):
                    if e.phase == label and not (prev is not None and prev.window and prev.phase == label):
                        starts.append(i)
                    prev = e
            end = starts[-1]
            g = self.played.final(events[:end])
            acts = []
            for a in g.actions:
                held = g.skills_of(g.player(a.actor)).get(a.skill) if a.actor in g.players else None
                if held is not None and not g.answered_at_once(held[0]):
                    acts.append(a)
            cache[label] = (acts, list(g.ballots))
        return cache[label]

    def amend(self, game: Game, at: str) -> list:
        """Previews (no --yes) of corrections of the last phase closed: an action that stood
        withdrawn, and sent again as it was (it replaces itself), a ballot cast again. Each is
        accepted — the phase had them — or refused in the one line that names the later event
        it would undo (a withdrawal changes who is out; an input more moves the phase's random
        draws, seeded with the count of inputs: a tie drawn again), and nothing else."""
        if not game.resolved:
            return []
        label = game.resolved[-1]
        shown = game.named(label)
        acts, ballots = self.standing(label)
        out = []
        if acts:
            a = acts[-1]
            args = [x for k, v in a.args.items() for x in ("--arg", f"{k}={v}")]
            for argv in (("amend", GAME, "unact", a.actor, a.skill, "--phase", shown),
                         ("amend", GAME, "act", a.actor, a.skill, *a.chosen, *args, "--phase", shown)):
                out.append(self._amend(argv, at))
        if ballots and game.manifest.vote:
            v = ballots[-1]
            argv = ("amend", GAME, "vote", v.voter, v.target, "--change", "--phase", shown,
                    *(("--post", str(v.post)) if v.post else ()))
            out.append(self._amend(argv, at))
        return out

    def _amend(self, argv: tuple, at: str) -> tuple:
        from bansha.text.messages import say

        code, text, err = self.cli(*argv, at=at, ok=False)
        # the refusal's own words up to its first field: the catalogue's, in the board's language
        breaks = say("amend_later", "zh", label="\0", phase="\0", what="\0", why="\0").split("\0")
        lines = [x for x in (text + err).splitlines() if x.strip()]
        refused_as_told = (code == 2 and len(lines) == 1
                           and all(part in lines[0] for part in breaks if part.strip()))
        if code != 0 and not refused_as_told:
            self.find("raises", f"bansha {' '.join(argv)} {at}", (err or text).strip()[-600:])
        return (" ".join(argv[:5]), None, text + err)

    def mismatch(self, game: Game, at: str) -> list:
        """What the scenario runner prints when an expectation of the last phase closed fails."""
        from bansha.authoring.scenario import Expect, Mismatch, check

        if not game.resolved:
            return []
        label = game.resolved[-1]
        wrong = Expect(out=["?"], alive=[], winner=["?"], announcement=["?"],
                       feedback={n: ["?"] for n in list(game.players)[:2]}, statuses={n: ["?"] for n in list(game.players)[:1]})
        try:
            check(game, label, wrong)
        except Mismatch as exc:
            return [("scenario mismatch", None, str(exc))]
        self.find("raises", f"scenario mismatch {at}", "an expectation that cannot hold passed")
        return []

    # ------------------------------------------------------------------ the web

    def _web(self) -> None:
        from bansha_web.app import Throttle, create_app
        from bansha_web.tokens import Tokens
        from litestar.testing import TestClient

        tokens = Tokens(self.store)
        self.links = tokens.new_players(GAME, list(self.played.setup.players and [p.name for p in self.played.setup.players]))
        director = tokens.new_director()
        self.app = create_app(self.store, tokens, throttle=Throttle(limit=10**9))
        self.client = TestClient(self.app)
        self.client.__enter__()
        r = self.client.get(f"/login/{director}")
        assert r.status_code == 200, r.text

    def pages(self, game: Game, at: str) -> list:
        out = []
        r = self.client.get(f"/d/g/{GAME}")
        self.counts["commands"] += 1
        if r.status_code != 200:
            self.find("raises", f"console {at}", f"{r.status_code} {page_text(r.text)[:400]}")
        out.append(("console", None, page_text(r.text)))
        for name, token in self.links.items():
            if name not in game.players:
                continue
            r = self.client.get(f"/p/{token}")
            self.counts["commands"] += 1
            if r.status_code != 200:
                self.find("raises", f"page of {name} {at}", f"{r.status_code} {page_text(r.text)[:400]}")
            out.append((f"page of {name}", name, page_text(r.text)))
        return out

    # ------------------------------------------------------------------ language

    def allowed(self, game: Game) -> set[str]:
        """What people typed: the seats' names, the texts and arguments of the log (the
        simulator's input), the board's id (``--ruleset``), and the command words a hint quotes."""
        if not hasattr(self, "_allowed"):
            out = set(COMMAND_WORDS) | DOCUMENTED
            m = game.manifest
            out |= set(WORD.findall(m.id))
            # a step named by the document's own numbering (m217's 午夜15a, 深夜15b)
            for ph in m.phases:
                for st in ph.steps:
                    for n in (st.name, st.alias):
                        if n and re.search(r"[\u4e00-\u9fff]", n):
                            out |= set(WORD.findall(n))
            for p in self.played.setup.players:
                out |= set(WORD.findall(p.name))
            for ev in self.played.events:
                d = msgspec.to_builtins(ev)
                for k in ("args", "text", "targets", "target"):
                    out |= set(WORD.findall(json.dumps(d.get(k, ""), ensure_ascii=False)))
            self._allowed = out
        return self._allowed

    def language(self, game: Game, where: str, text: str) -> None:
        if game.lang != "zh":
            return
        allowed = self.allowed(game)
        for line in text.splitlines():
            bare = MARKUP.sub(" ", line)
            bad = [w for w in WORD.findall(bare) if w not in allowed]
            bad += [m.group() for m in REPR.finditer(bare)]
            if bad:
                self.find("language", where, f"{', '.join(dict.fromkeys(bad))}: {line.strip()[:300]}",
                          key=" ".join(sorted(set(bad))))

    # ------------------------------------------------------------------ labels

    def bare_label_pattern(self, game: Game) -> re.Pattern:
        """A phase's alias and its number glued (``夜晚2``, ``晨曦1``): the id put into Chinese."""
        if not hasattr(self, "_bare"):
            words = sorted({ph.alias for ph in game.manifest.phases if ph.alias}, key=len, reverse=True)
            self._bare = re.compile(r"(?<![天日]\s)(?<![天日])(" + "|".join(map(re.escape, words))
                                    + r")\s?\d+(?![\d次票名人个点号楼条天日分轮张])") if words else re.compile(r"(?!x)x")
        return self._bare

    def label_pattern(self, game: Game) -> re.Pattern:
        if not hasattr(self, "_labels"):
            words = sorted({ph.alias for ph in game.manifest.phases if ph.alias} | {ph.name for ph in game.manifest.phases},
                           key=len, reverse=True)
            self._labels = re.compile(r"第\s*\d+\s*[天日]\s*(?:" + "|".join(map(re.escape, words)) + r")?(?![\u4e00-\u9fff]*的第)")
        return self._labels

    def labels(self, game: Game, where: str, text: str) -> None:
        bare = self.bare_label_pattern(game)
        steps = {n for ph in game.manifest.phases for st in ph.steps for n in (st.name, st.alias) if n}
        # a step named by the document's numbering (m217's 黄昏4, 午夜15a) is no phase
        text_ = re.sub(r"\[([^\]\n]+)\]", lambda m: " " if m.group(1) in steps else m.group(), text)
        for m in bare.finditer(text_):
            self.find("labels", where, f"{m.group()!r}: a phase named as no command takes it "
                      f"(the board says {game.named(game.label)!r}): {line_of(text_, m.start())}", key=m.group(1))
        reached = set(game.resolved) | {game.label}
        named = {game.named(lb) for lb in reached}
        for m in self.label_pattern(game).finditer(text):
            shown = m.group().strip()
            try:
                label = parse_phase_arg(game, shown)
            except GameError as exc:
                self.find("labels", where, f"{shown!r} printed, refused as a phase: {exc}")
                continue
            if label not in reached:
                try:
                    past = game.parse_phase(label) < game.position
                except GameError:
                    past = True
                if past:  # a label of no phase the game played (a phase to come is fine: a deadline, a status's end)
                    self.find("labels", where, f"{shown!r} printed: no phase of the game is {label!r}")
                continue
            if shown.replace(" ", "") not in {n.replace(" ", "") for n in named} and not re.fullmatch(r"第\s*\d+\s*[天日]", shown):
                self.find("labels", where, f"{shown!r} printed for {game.named(label)!r}")

    # ------------------------------------------------------------------ secrecy

    def corpus(self, game: Game, surfaces) -> dict[str, list[str]]:
        """What each reader may know, line by line: a seat's ``player_view`` (as JSON, its
        feedback lines), and for everyone the announcements and the seats' public fates."""
        public = [t for _, t in game.announcements]
        out = {"": public}
        for name in game.players:
            view = player_view(game, name)
            lines = [json.dumps(view, ensure_ascii=False)]
            lines += [f["text"] if isinstance(f, dict) else str(f) for f in view.get("feedback", [])]
            out[name] = public + lines
        return out

    def secrecy(self, game: Game, where: str, reader: str, text: str, corpus: dict[str, list[str]]) -> None:
        roles = {p.name: p.role for p in game.players.values()}
        role_names = set(roles.values())
        known = corpus.get(reader, corpus[""])
        for line in text.splitlines():
            present = [r for r in role_names if r in line]
            if not present or len(present) >= 3:
                continue  # no role, or a listing of roles (an argument's values)
            for q, r in roles.items():
                if q == reader or r not in present or q not in line:
                    continue
                if any(q in k and r in k for k in known):
                    continue
                if self._names_role(line, q, r):
                    self.find("secrecy", f"{where} (reader {reader or 'public'})", f"{q} {r}: {line.strip()[:300]}")

    @staticmethod
    def _names_role(line: str, q: str, r: str) -> bool:
        """The line pairs ``q`` with ``r``: the role close after the name (within a few characters)."""
        for m in re.finditer(re.escape(q), line):
            if r in line[m.end():m.end() + 12]:
                return True
        return False

    # ------------------------------------------------------------------ the listing

    def listing(self, game: Game, ev: Event, at: str) -> None:
        """At each phase's start and after each action, for the seat that acted (every seat
        at a phase's start): the listings agree, and act accepts what they list."""
        if game.winner is not None:
            return
        if isinstance(ev, ResolveEvent):
            seats = list(game.players)
        elif isinstance(ev, ActEvent) and ev.actor in game.players:
            seats = [ev.actor]
        else:
            return
        from bansha.engine.choices import seat_choices, vote_choices
        from bansha_sim.play import choices_for
        from bansha_web.logic import usable_skills, vote_options

        for name in seats:
            listed = seat_choices(game, name)
            by = {c.skill: c for c in listed}
            view = player_view(game, name)
            shown = {c["skill"]: c for c in view["you"].get("choices", [])}
            if set(shown) != set(by):
                self.find("listing", f"status --as {name} {at}", f"status lists {sorted(shown)}, the listing {sorted(by)}")
            for skill, c in shown.items():
                ref = by.get(skill)
                if ref is not None and (c["min"], c["max"]) != (ref.min_targets, ref.max_targets):
                    self.find("listing", f"status --as {name} {at}",
                              f"{skill}: status counts {c['min']}-{c['max']}, act {ref.min_targets}-{ref.max_targets}")
            forms = {f["name"]: f for f in usable_skills(game, name)}
            if set(forms) != set(by):
                self.find("listing", f"page of {name} {at}", f"forms offer {sorted(forms)}, the listing {sorted(by)}")
            for skill, f in forms.items():
                ref = by.get(skill)
                if ref is None:
                    continue
                if (f["min"], f["max"]) != (ref.min_targets, ref.max_targets):
                    self.find("listing", f"page of {name} {at}", f"{skill}: form counts {f['min']}-{f['max']}, act {ref.min_targets}-{ref.max_targets}")
                extra = [t for t in f["targets"] if t not in ref.targets and t not in game.unannounced_exits()]
                if extra:
                    self.find("listing", f"page of {name} {at}", f"{skill}: form offers {extra}, which act refuses")
                for k, fld in f["arg_fields"].items():
                    if (fld["choices"] or None) != (ref.args.get(k) or None):
                        self.find("listing", f"page of {name} {at}", f"{skill} {k}: form {fld['choices']}, act {ref.args.get(k)}")
            sim = {c.skill: c for c in choices_for(game, game.player(name))}
            for skill, c in sim.items():
                ref = by.get(skill)
                if ref is None:
                    if c.hi or not c.keyed:
                        self.find("listing", f"simulator {name} {at}", f"the simulator offers {skill}, the listing does not")
                    continue
                if (c.lo, c.hi) != (ref.min_targets, ref.max_targets) or set(c.candidates) != set(ref.targets):
                    self.find("listing", f"simulator {name} {at}", f"{skill}: simulator {c.lo}-{c.hi} {list(c.candidates)}, "
                                                                   f"act {ref.min_targets}-{ref.max_targets} {ref.targets}")
            for c in listed:
                self.accepted(game, name, c, at)
            votes = vote_choices(game, name)
            form = vote_options(game, name)
            if (votes is None) != (form is None):
                self.find("listing", f"vote form of {name} {at}", f"vote listing {votes}, form {form}")

    def accepted(self, game: Game, name: str, c, at: str) -> None:
        """``act`` accepts each listed target (the listing's example), each listed value of each
        argument, the least and the most targets listed; and refuses one more than the most."""
        from bansha.engine.choices import examples

        found = examples(game, name, c.skill)
        where = f"act {name} {c.skill} {at}"
        for t in c.targets or [""]:
            if t not in found:
                self.find("listing", where, f"target {t or '(none)'} listed without an accepted example")
        if not found:
            return
        self.counts["listed"] += 1
        samples = list(found.values())

        def ok(targets, args) -> str | None:
            try:
                game.check(ActEvent(phase=game.label, actor=name, skill=c.skill, targets=list(targets), args=dict(args)))
                return None
            except GameError as exc:
                return str(exc)

        for k, values in c.args.items():
            if not values or k.startswith("<"):
                continue
            for v in values:
                if v == "":
                    continue
                whys = [ok(ts, {**a, k: v}) for ts, a in samples[:6]]
                if all(whys):
                    self.find("listing", where, f"--arg {k}={v} listed, act refuses it: {whys[0]}")
        base = samples[0][1]
        pool = [t for t in c.targets if t]
        if any(k.startswith("<") for k in base):
            return  # a guess keyed by players (light-shadow's 猜测): its targets are its keys
        for n in sorted({c.min_targets, c.max_targets}):
            if n > len(pool):
                self.find("listing", where, f"{c.min_targets}-{c.max_targets} targets listed, {len(pool)} listed targets")
                continue
            # a count may hold with some args only (m217's 赌徒's 大奖: 出人票 names nobody, <杀人> one):
            # the listing's own examples of n targets with their args, then other choices of n
            # with each example's args
            tried = [(ts, a) for ts, a in samples if len(ts) == n]
            more = list(itertools.islice(itertools.permutations(pool, n), 200))
            arg_sets: list[dict] = []
            for _, a in samples[:4]:
                if a not in arg_sets:
                    arg_sets.append(a)
            tried += [(ts, a) for a in arg_sets for ts in more]
            if all(ok(ts, a) for ts, a in tried):
                self.find("listing", where, f"{n} targets listed ({c.min_targets}-{c.max_targets}), act accepts no {n} of "
                          f"{pool}: {ok(*tried[0])}")
        if 0 < c.max_targets < len(pool):
            for more in itertools.islice(itertools.permutations(pool, c.max_targets + 1), 50):
                if ok(more, base) is None:
                    self.find("listing", where, f"at most {c.max_targets} targets listed, act accepts {list(more)}")
                    break

    # ------------------------------------------------------------------ windows

    def check_windows(self) -> None:
        from bansha_sim.states import by_window, whole

        p = self.played
        if not any(ph.windows for ph in p.setup.manifest.phases):
            return
        events = p.events
        if self.windows:
            other, what = whole(events), "the same input resolved whole"
        else:
            other, what = by_window(events, Game(p.setup)), "the same input resolved window by window"
        # A resolution seeds its draws with the game's count of events, which the windows' own
        # resolutions and the inputs sent between them move: from the first phase that draws at
        # random once a night has been closed by window, the two modes draw apart by design
        # (docs/performance.md, "Tried and not kept": our scenarios and others' choose seeds for
        # their draws). The games are compared up to that phase, whole.
        cut = drawn_from(p.final(), p.setup)
        if cut is not None:
            events = events[:first_resolution(events, cut)]
            other = other[:first_resolution(other, cut)]
            self.counts["windows_cut"] = self.counts.get("windows_cut", 0) + 1
        a = outcome(p.final(events))
        try:
            b = outcome(p.final(other))
        except GameError as exc:
            self.find("windows", "the game", f"{what}: refused: {exc}")
            return
        diff = [k for k in a if a[k] != b[k]]
        if diff:
            self.find("windows", "the game", f"{what} differs in {', '.join(diff)}: "
                      + "; ".join(f"{k}: {str(a[k])[:200]} / {str(b[k])[:200]}" for k in diff[:2]))


def drawn_from(g: Game, setup) -> str | None:
    """The first phase, from the first phase of windows on, whose resolution drew at random (its
    trace's ``random`` lines), or None."""
    windowed = {ph.name for ph in setup.manifest.phases if ph.windows}
    seen = False
    for label in dict.fromkeys(g.resolved):
        seen = seen or label.partition(" ")[0] in windowed
        if seen and any(t.phase == label and t.rule == "random" for t in g.trace):
            return label
    return None


def first_resolution(events: list, label: str) -> int:
    """The index of the first resolution of phase ``label`` in ``events`` (its length if none)."""
    return next((i for i, e in enumerate(events) if isinstance(e, ResolveEvent) and e.phase == label), len(events))


def outcome(g: Game) -> dict:
    return {
        "label": g.label,
        "players": msgspec.to_builtins(list(g.players.values())),
        "feedback": g.feedback,
        "announcements": g.announcements,
        "winner": g.winner,
        "out": g.out,
        "scores": g.scores,
    }


def line_of(text: str, at: int) -> str:
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return text[start:end if end >= 0 else None].strip()[:300]


_SCRIPT = re.compile(r"<(script|style)\b.*?</\1>", re.S | re.I)
_TAG = re.compile(r"<[^>]+>")
_ATTR = re.compile(r"""\b(?:title|placeholder|aria-label|alt)="([^"]*)\"""")


def page_text(page: str) -> str:
    """What a person reads on a page: its text, line by line, and the titles and placeholders."""
    page = _SCRIPT.sub(" ", page)
    attrs = [html.unescape(a) for a in _ATTR.findall(page)]
    text = _TAG.sub("\n", page)
    lines = [html.unescape(x).strip() for x in text.splitlines()]
    return "\n".join([x for x in lines if x] + attrs)


def walk(boards: Iterable[str], seeds: Iterable[int], **kw) -> tuple[list[Finding], dict]:
    findings: list[Finding] = []
    counts: dict[str, int] = {}
    for board in boards:
        for seed in seeds:
            for windows in ((False, True) if board.startswith("m217") else (False,)):
                w = Walk(board, seed, windows=windows, **kw)
                findings += w.run()
                for k, v in w.counts.items():
                    counts[k] = counts.get(k, 0) + v
    return findings, counts


def report(findings: list[Finding]) -> str:
    return "\n".join(f"[{f.check}] {f.board} — {f.where}\n    {f.text}" for f in findings)
