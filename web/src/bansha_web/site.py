"""What every route of ``bansha serve`` shares: the store, the tokens, the live channel, who is
asking, the board's phase names, and the pages' contexts. The routes themselves are grouped by
who uses them: ``director.py`` (the console), ``player.py`` (a player's page); ``app.py`` puts
them together with the static files, the error pages and the CSRF check."""

from __future__ import annotations

import asyncio
import threading
import time
from collections import defaultdict, deque
from pathlib import Path
from typing import Any

import jinja2
from bansha.door.forms import excerpt
from bansha.engine.model import GameError
from bansha.show.explain import trace_lines
from bansha.show.views import card_text, director_view, player_view
from litestar import Request
from litestar.exceptions import HTTPException, NotFoundException
from litestar.response import Template
from markupsafe import Markup

from . import logic
from .messages import ERR

HERE = Path(__file__).parent
COOKIE = "bansha_director"
#: seconds between an open event stream's keep-alives, at each of which it asks whether its
#: token still counts: a link revoked by another process closes its pages within this
REVOKE_CHECK = 5.0


class Refused(HTTPException):
    status_code = 403


class Throttled(HTTPException):
    status_code = 429


class Throttle:
    """Bad tokens from one address: at most ``limit`` in ``window`` seconds, then that address's
    *bad* tokens are refused at once (429) for the rest of the window. A good token is never
    refused by it: anonymous requests cannot lock the director or a player out, and a request
    that presents no token at all (a bare ``GET /d``) counts for nothing."""

    def __init__(self, limit: int = 10, window: float = 60.0):
        self.limit, self.window = limit, window
        self.bad: dict[str, deque] = defaultdict(deque)
        self.lock = threading.Lock()

    def wait(self, addr: str) -> int:
        """Seconds until ``addr`` may try a bad token again (0: now)."""
        with self.lock:
            q = self.bad[addr]
            now = time.monotonic()
            while q and now - q[0] > self.window:
                q.popleft()
            if len(q) < self.limit:
                return 0
            return max(1, int(self.window - (now - q[0])) + 1)

    def failed(self, addr: str) -> None:
        with self.lock:
            self.bad[addr].append(time.monotonic())


class Hub:
    """One thread per watched game runs ``store.watch`` (SQLite polling, PostgreSQL
    LISTEN/NOTIFY: writes of other processes too) and wakes every waiting page."""

    def __init__(self, store):
        self.store = store
        self.version: dict[str, int] = defaultdict(int)
        self.waiters: dict[str, set] = defaultdict(set)
        self.threads: dict[str, threading.Thread] = {}
        self.lock = threading.Lock()

    def _run(self, game: str, ready: threading.Event) -> None:
        from bansha.store.store import open_store

        try:
            store = open_store(self.store.url, cache=False)  # the watcher's own connection
            after = store.last_seq(game)
            ready.set()  # every event stored from now on wakes the pages (``changes``)
            for _seq, _ev in store.watch(game, after=after):
                self.poke(game)
        except Exception:  # the game is gone or the store closed: the pages stop updating
            pass
        finally:
            ready.set()

    def poke(self, game: str) -> None:
        with self.lock:
            self.version[game] += 1
            waiters = list(self.waiters[game])
        for loop, ev in waiters:
            loop.call_soon_threadsafe(ev.set)

    def ensure(self, game: str) -> threading.Event:
        """The game's watcher, started once; its event is set once the watcher has read where
        the game stands (a write after that wakes the pages)."""
        with self.lock:
            if game not in self.threads:
                ready = threading.Event()
                t = threading.Thread(target=self._run, args=(game, ready), daemon=True, name=f"watch:{game}")
                self.threads[game] = (t, ready)
                t.start()
            return self.threads[game][1]

    async def changes(self, game: str, keepalive: float = 15.0):
        """Yield None once the page is subscribed and the game's watcher reads on from where
        the game stands (a page says hello after that, and what it then asks for is at least
        as new as anything that wakes it); then True each time the game changed (at most ~10
        times a second), False as a keep-alive every ``keepalive`` seconds. A write between a
        reconnecting page's hello and a watcher still starting was missed before: a restarted
        server's open console never heard of the first vote."""
        ready = self.ensure(game)
        loop = asyncio.get_running_loop()
        ev = asyncio.Event()
        key = (loop, ev)
        with self.lock:
            self.waiters[game].add(key)
        try:
            if not ready.is_set():
                await asyncio.to_thread(ready.wait, 30)
            yield None
            while True:
                try:
                    await asyncio.wait_for(ev.wait(), timeout=keepalive)
                except TimeoutError:
                    yield False
                    continue
                ev.clear()
                yield True
                await asyncio.sleep(0.1)
        finally:
            with self.lock:
                self.waiters[game].discard(key)


#: a store whose round trip takes less than this is asked on the event loop (runs_inline)
INLINE_ROUND_TRIP = 0.001


def runs_inline(store) -> bool:
    """Whether a request's store work runs on the event loop rather than in a worker thread.

    SQLite (a local file: microseconds a call) always: a worker thread cost more than it saved
    (~0.4 ms of CPU a request, and GIL hand-offs: p99 448 → 246 ms under 50 clients). PostgreSQL
    when its round trip is under a millisecond (a server on this machine or the same rack)
    and the store answers unchanged reads from its LISTEN cache (``listen=True``): a player's
    request then makes no query, or one (a submission's append, ~0.3 ms), and in threads the
    writers of a game queued behind each other's GIL waits while holding its write lock
    (bench_web, 50 clients: 0.97 against 1.28–1.45 ms of CPU a request, p99 112 against
    127–165 ms, docs/performance.md). A slower server's round trips are left to threads, so the
    loop serves others meanwhile. As on SQLite, a write that waits for another process's lock
    holds up this process's loop meanwhile (at most BANSHA_DB_TIMEOUT)."""
    from bansha.store.store import SQLiteStore

    if isinstance(store, SQLiteStore):
        return True
    if getattr(store, "_fresh", None) is None:
        return False
    trips = []
    for _ in range(5):
        t = time.perf_counter()
        store.names(limit=1)
        trips.append(time.perf_counter() - t)
    return min(trips) < INLINE_ROUND_TRIP


def addr_of(request: Request) -> str:
    return request.client.host if request.client else "?"


def newest_phase_first(lines: list[dict]) -> list[dict]:
    """History lines, the newest phase first, each phase's lines in the order they were said."""
    groups: list[list[dict]] = []
    for line in lines:
        if not groups or groups[-1][0]["phase"] != line["phase"]:
            groups.append([])
        groups[-1].append(line)
    return [line for group in reversed(groups) for line in group]


class Site:
    """The shared parts of one server process."""

    def __init__(self, store, tokens, throttle: Throttle | None = None, inline: bool | None = None):
        self.store, self.tokens = store, tokens
        self.hub = Hub(store)
        self.deadlines = logic.Deadlines(store)
        self.throttle = throttle or Throttle()
        # one writer per game in this process: concurrent writers of one game would each
        # rebuild it and all but one lose the store's optimistic race and rebuild again (50
        # clients: 4× the CPU per request). Other processes still race through the store's check.
        self.write_locks: defaultdict[str, threading.Lock] = defaultdict(threading.Lock)
        if inline is None:
            inline = runs_inline(store)
        self.inline = inline
        self.history_template = jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"),
                                                   autoescape=True, auto_reload=False).get_template("_history.html")
        self.history_cache: dict[tuple, Markup] = {}
        #: id(game state) -> (that state, {seat: its seat_choices}): see :meth:`choices`
        self._choices: dict[int, tuple[Any, dict[Any, list]]] = {}

    async def run(self, fn):
        """A request's store work, on the event loop when :func:`runs_inline` said so, else in a
        worker thread (the loop serves others while it waits for round trips)."""
        if self.inline:
            return fn()
        return await asyncio.to_thread(fn)

    # ------------------------------------------------------------------ who is asking

    def _throttled(self, request: Request) -> None:
        addr = addr_of(request)
        self.throttle.failed(addr)

    def director(self, request: Request, game: str | None = None) -> str:
        """The director the request's cookie names; with ``game``, one who may open it (its
        creator, or the store's owner). A game of another director is "not found" to them, as
        a game that does not exist (a refusal reveals nothing either)."""
        token = request.cookies.get(COOKIE)
        who = self.tokens.director(token) if token else None
        if who is not None:
            if game is not None and not self.tokens.may_open(who, game):
                raise NotFoundException(detail=ERR["no_game"].format(name=excerpt(game)))
            return who
        if token:  # a cookie that is no director's: a guess, or a revoked link
            wait = self.throttle.wait(addr_of(request))
            if wait:
                raise Throttled(detail=ERR["throttled"].format(seconds=wait), headers={"Retry-After": str(wait)})
            self._throttled(request)
        raise Refused(detail=ERR["no_director"])

    def own_games(self, who: str) -> list[str]:
        """The games a director opens: those they created; the store's owner every game."""
        from .tokens import OWNER

        names = self.store.names()
        if who == OWNER:
            return names
        owners = self.tokens.owners(names)
        return [g for g in names if owners.get(g) == who]

    def seat_of(self, request: Request, token: str) -> tuple[str, str]:
        seat = self.tokens.player(token)
        if seat is not None:
            return seat
        wait = self.throttle.wait(addr_of(request))
        if wait:
            raise Throttled(detail=ERR["throttled"].format(seconds=wait), headers={"Retry-After": str(wait)})
        self._throttled(request)
        raise NotFoundException(detail=ERR["bad_link"])

    def load(self, game: str):
        # the cached state itself, read-only: a page renders it, never changes it (store.peek)
        try:
            return self.store.peek(game)
        except GameError:
            raise NotFoundException(detail=ERR["no_game"].format(name=excerpt(game))) from None

    # ------------------------------------------------------------------ the board's words

    def namer(self, game):
        """label ("night 1") -> the board's name of the phase ("第1天 夜晚"): ``Game.named``,
        the one name every surface prints."""
        return game.named

    # --------------------------------------------------------------------- contexts

    def choices(self, g, name: str) -> list:
        """``choices.seat_choices(g, name)``, asked once per cached state and seat: a page
        needs it twice (the player's view and their forms) and every page of a seat renders
        the same state until the next write — the engine's checks target by target were a
        quarter of the server's CPU under the benchmark (docs/performance.md). Sound because
        a cached state is never changed once cached (``Store.peek``: a write applies to a copy
        and caches that); the entry holds the state, so its id is not reused meanwhile."""
        from bansha.engine.choices import seat_choices

        entry = self._choices.get(id(g))
        if entry is None or entry[0] is not g:
            if len(self._choices) >= 64:
                self._choices.clear()
            entry = self._choices[id(g)] = (g, {})
        got = entry[1].get(name)
        if got is None:
            got = entry[1][name] = seat_choices(g, name)
        return got

    def withdrawable(self, g, name: str, offered: set[str]) -> list[str]:
        """``logic.withdrawable``, once per cached state and seat (as :meth:`choices`)."""
        entry = self._choices.get(id(g))
        key = ("withdraw", name)
        if entry is None or entry[0] is not g:
            return logic.withdrawable(g, name, offered)
        got = entry[1].get(key)
        if got is None:
            got = entry[1][key] = logic.withdrawable(g, name, offered)
        return got

    def history(self, view: dict, name) -> Markup:
        """The history part of a player's page (their feedback and the announcements, newest
        first; who is in the game), rendered once per content: it is most of the page's
        rendering on a 20-day game and changes only at a resolution or a ruling."""
        key = (tuple((f["phase"], f["text"]) for f in view["feedback"]),
               tuple((a["phase"], a["text"]) for a in view["announcements"]),
               tuple((p["name"], p["alive"]) for p in view["players"]), view["phase"])
        out = self.history_cache.get(key)
        if out is None:
            if len(self.history_cache) >= 4096:
                self.history_cache.clear()
            feedback = newest_phase_first([{"phase": name(f["phase"]), "text": f["text"]} for f in view["feedback"]])
            announcements = newest_phase_first([{"phase": name(a["phase"]), "text": a["text"]} for a in view["announcements"]])
            out = self.history_cache[key] = Markup(self.history_template.render(
                feedback=feedback, announcements=announcements, players=view["players"]))
        return out

    def player_ctx(self, game_name: str, name: str, token: str, message: str = "", error: str = "", g=None) -> dict[str, Any]:
        g = g if g is not None else self.load(game_name)
        choices = self.choices(g, name)
        view = player_view(g, name, choices)
        skills = logic.usable_skills(g, name, choices=choices)
        role = g.ruleset.role(g.player(name).role)
        phase_name = self.namer(g)
        latest = {g.label, *(g.resolved[-1:])}  # this phase's and the last resolved one's
        news = [{"phase": phase_name(f["phase"]), "text": f["text"]} for f in view["feedback"] if f["phase"] in latest]
        news_ann = [a["text"] for a in view["announcements"] if g.resolved and a["phase"] == g.resolved[-1]]
        until = view["you"].get("last_words_until")
        last_words = None
        if until and g.manifest.last_words.owed:
            last_words = {"until": phase_name(until), "max": g.manifest.last_words.max_chars or None}
        return {"view": view, "you": view["you"], "role_rule": card_text(role.rule),
                "skills": skills, "withdraw": self.withdrawable(g, name, {s["name"] for s in skills}), "vote": logic.vote_options(g, name), "token": token,
                "game": game_name, "phase": phase_name(g.label), "label": g.label,
                "last_resolved": phase_name(g.resolved[-1]) if g.resolved else "",
                "news": news, "news_ann": news_ann, "last_words": last_words,
                "deadline": logic.deadline_of(self.deadlines, game_name, g), "history": self.history(view, phase_name),
                "message": message, "error": error, "base": f"/p/{token}"}

    def console_ctx(self, game_name: str, message: str = "", error: str = "", links: dict | None = None,
                    preview: dict | None = None, amend: dict | None = None, undo: dict | None = None,
                    host: str = "") -> dict[str, Any]:
        g = self.load(game_name)
        view = director_view(g)
        name = self.namer(g)
        done, waiting = logic.acted_or_not(g)
        # the same answer as the players' pages (bansha.engine.choices), without the thread's view
        skills = {p.name: logic.usable_skills(g, p.name, director=True, choices=self.choices(g, p.name))
                  for p in g.players.values()}
        votes = {p.name: logic.vote_options(g, p.name, director=True) for p in g.players.values()}
        choices = logic.amend_choices(g)
        choices["phase_names"] = [(ph, name(ph)) for ph in choices["phases"]]
        return {"game": game_name, "view": view, "done": done, "waiting": waiting, "skills": skills,
                "votes": votes, "tally": logic.tally(g), "message": message, "error": error,
                "links": links or {}, "host": host, "preview": preview, "undo": undo,
                "announcements": [(name(ph), t) for ph, t in g.announcements],
                "trace_phases": [(name(ph), trace_lines(g, [t for t in g.trace if t.phase == ph]))
                                 for ph in logic.phases_with_trace(g)],
                "feedback": {n: [(name(ph), t) for ph, t in lines] for n, lines in g.feedback.items()},
                "has_link": self.tokens.links_of(game_name, list(g.players)),
                "abstain": g.manifest.vote.abstain, "seq": self.store.last_seq(game_name),
                "phase": name(g.label), "label": g.label,
                "amend_choices": choices, "amend": amend, "ruling_kinds": [(k, g.ruleset.ruling_name(k), line) for k, line in g.ruleset.ruling_kinds.items()],
                "players": [p.name for p in sorted(g.players.values(), key=lambda p: p.seat)],
                "deadline": logic.deadline_of(self.deadlines, game_name, g)}


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def page(template: str, ctx: dict, request: Request, fragment: str | None = None, status: int = 200) -> Template:
    name = fragment if fragment and is_htmx(request) else template
    return Template(template_name=name, context=ctx, status_code=status)
