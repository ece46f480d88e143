"""The director's routes: the login link, the games, a new game, the console and its forms.

  GET  /login/{token}             the director's link: sets the HttpOnly session cookie
  GET  /d                         games and "new game"       POST /d/new (then 303 to the console)
  GET  /d/g/{game}                the console                POST /d/g/{game}/{act,unact,vote,resolve,undo,link}
  POST /d/g/{game}/preview        the resolution on a copy (nothing stored)
  POST /d/g/{game}/{amend,ruling,deadline}
  GET  /d/g/{game}/table          the console's state part (htmx)      GET /d/g/{game}/events (SSE)
"""

from __future__ import annotations

import base64
import datetime as dt
import json
from typing import Any
from urllib.parse import quote

from bansha.door.forms import excerpt, pairs, roster_names, text_of
from bansha.engine.model import (
    ActEvent,
    GameError,
    ResolveEvent,
    RulingEvent,
    UnactEvent,
    VoteEvent,
)
from bansha.engine.newgame import new_setup
from bansha.text.messages import say
from litestar import Request, Response, get, post
from litestar.datastructures import Cookie
from litestar.params import FromPath
from litestar.response import Redirect, ServerSentEvent, Template

from . import logic
from .messages import ERR
from .site import COOKIE, REVOKE_CHECK, Refused, Site, Throttled, addr_of, page

LINKS_COOKIE = "bansha_links"  # the new seats' links, for the one GET after a creation (post/redirect/get)


def field(form, key: str, what: str, limit: int = 2000) -> str:
    """A text field of a form through the door: text, not a file; not longer than ``limit``."""
    return text_of(form.get(key), what, "zh", limit)


def fields(form, key: str, what: str, limit: int = 200) -> list[str]:
    try:
        values = form.getall(key)
    except KeyError:
        return []
    return [text_of(v, what, "zh", limit) for v in values]


def act_event(form, player: str):
    """An act form's event: the seat, the skill, the chosen targets in order, ``arg_*`` values
    as ``--arg`` reads them (forms.pairs)."""
    skill = field(form, "skill", "技能", 100).strip()
    targets = [t for t in fields(form, "target", "目标") if t]
    args = pairs([f"{k[4:]}={field(form, k, '参数', 500)}" for k in form if k.startswith("arg_")
                  and field(form, k, "参数", 500) != ""], "参数", "zh")
    return lambda g: ActEvent(phase=g.label, actor=player, skill=skill, targets=[g.find_name(t) for t in targets], args=args)


def base_url(request: Request) -> str:
    return str(request.base_url).rstrip("/")


def routes(site: Site) -> list:
    store, tokens = site.store, site.tokens

    def console_page(request: Request, game: str, status: int = 200, **said) -> Template:
        ctx = site.console_ctx(game, host=base_url(request), **said)
        return page("console.html", ctx, request, "_table.html", status=status)

    @get("/login/{token:str}", sync_to_thread=True)
    def login(request: Request, token: FromPath[str]) -> Response:
        if not tokens.is_director(token):
            wait = site.throttle.wait(addr_of(request))
            if wait:
                raise Throttled(detail=ERR["throttled"].format(seconds=wait), headers={"Retry-After": str(wait)})
            site.throttle.failed(addr_of(request))
            raise Refused(detail=ERR["bad_director"])
        return Redirect("/d", cookies=[Cookie(key=COOKIE, value=token, httponly=True, samesite="strict", path="/",
                                              secure=request.url.scheme == "https")])

    def games_ctx(who: str, error: str = "", form: dict | None = None) -> dict[str, Any]:
        from bansha.engine.registry import installed_manifests

        manifests = [{"id": m.id, "name": m.name, "seats": [t.seats for t in m.tables], "options": logic.option_fields(m)}
                     for m in installed_manifests().values()]
        names = site.own_games(who)  # a director sees the games they created
        return {"games": names, "rulesets": manifests, "error": error, "form": form or {}, "director": who}

    @get("/d")
    async def games(request: Request) -> Template:
        who = await site.run(lambda: site.director(request))
        return Template(template_name="games.html", context=await site.run(lambda: games_ctx(who)))

    @post("/d/new")
    async def new_game(request: Request) -> Response:
        """A new game through the door the CLI uses (newgame.new_setup): roster and seed, or a deal
        file (TOML, uploaded or pasted), with house rules. A refused creation stores nothing and
        shows the form again as it was filled in; a created one redirects to its console (so a
        reload does not post it again), where its links are shown once."""
        who = await site.run(lambda: site.director(request))
        form = await request.form()
        kept: dict[str, str] = {}
        try:
            name = field(form, "name", "游戏名", 20000)  # check_name says how long a name may be
            ruleset = field(form, "ruleset", "规则", 200).strip()
            roster = field(form, "roster", "玩家名单", 20000)
            seed = field(form, "seed", "种子", 100).strip() or "0"
            kept = {"name": name, "ruleset": ruleset, "roster": roster, "seed": seed}
            upload = form.get("deal")
            deal_raw = await upload.read() if hasattr(upload, "read") else b""
            deal_raw = deal_raw or field(form, "deal_text", "发牌文件", 200000).strip().encode()
            from bansha.engine.registry import installed_manifests

            manifest = installed_manifests().get(ruleset)  # an installed ruleset only, never a file path
            if manifest is None:
                raise GameError(f"规则 {excerpt(ruleset)}：请从列表中选择")
            options = logic.changed_options(manifest, lambda k: field(form, k, k, 2000) if k in form else None)

            def taken(game: str) -> bool:
                try:
                    store.setup(game)
                except GameError:
                    return False
                return True

            # the roster read as `bansha new --players FILE` reads one (forms.roster_names)
            names, _notes = roster_names(roster, "玩家名单", manifest.language)
            if not names and not deal_raw:
                raise GameError(say("no_players_in_file", manifest.language, file="玩家名单"))

            def create():
                game, setup, _m, _rs = new_setup(ruleset, name, names=names, seed=seed,
                                                 deal=deal_raw or None, deal_source="发牌文件", options=options)
                try:
                    store.create(game, setup)
                except GameError:
                    if not tokens.may_open(who, game) and taken(game):
                        # another director's game: the refusal must not confirm that it exists
                        raise GameError(f"游戏名 {excerpt(game)} 不可用，请换一个名字") from None
                    raise
                tokens.set_owner(game, who)
                return game, tokens.new_players(game, [p.name for p in setup.players])

            game, links = await site.run(create)
        except GameError as exc:
            refusal = str(exc)
            return Template(template_name="games.html", context=await site.run(lambda: games_ctx(who, refusal, kept)),
                            status_code=422)
        payload = base64.urlsafe_b64encode(json.dumps({"game": game, "links": links}, ensure_ascii=False).encode()).decode()
        return Redirect(f"/d/g/{quote(game, safe='')}", status_code=303, cookies=[Cookie(
            key=LINKS_COOKIE, value=payload, httponly=True, samesite="strict", path="/d", max_age=300,
            secure=request.url.scheme == "https")])

    @get("/d/g/{game:str}")
    async def console(request: Request, game: FromPath[str]) -> Response:
        await site.run(lambda: site.director(request, game))
        links = None
        raw = request.cookies.get(LINKS_COOKIE)
        if raw:
            try:
                shown = json.loads(base64.urlsafe_b64decode(raw.encode()))
                links = shown["links"] if shown.get("game") == game else None
            except (ValueError, KeyError, TypeError):
                links = None
        ctx = await site.run(lambda: site.console_ctx(game, links=links, host=base_url(request),
                                                      message="已创建游戏并发牌。" if links else ""))
        out = Template(template_name="console.html", context=ctx)
        if links:  # shown once: the cookie goes with this page
            out.cookies.append(Cookie(key=LINKS_COOKIE, value="", path="/d", max_age=0, httponly=True, samesite="strict"))
        return out

    @get("/d/g/{game:str}/table")
    async def console_table(request: Request, game: FromPath[str]) -> Template:
        await site.run(lambda: site.director(request, game))
        return Template(template_name="_state.html", context=await site.run(lambda: site.console_ctx(game)))

    async def director_write(request: Request, game: str, make) -> Template:
        await site.run(lambda: site.director(request, game))
        form = await request.form()

        def write():
            with site.write_locks[game]:
                return make(form)

        try:
            said = await site.run(write)
            if isinstance(said, str):
                said = {"message": said}
            return await site.run(lambda: console_page(request, game, **said))
        except GameError as exc:
            refusal = str(exc)
            return await site.run(lambda: console_page(request, game, status=422, error=refusal))

    def player_field(form) -> str:
        return field(form, "player", "玩家", 100)

    @post("/d/g/{game:str}/act")
    async def d_act(request: Request, game: FromPath[str]) -> Template:
        def make(form):
            player = player_field(form)
            g, _ = store.append(game, act_event(form, player), shared=True)
            a = next((a for a in reversed(g.actions) if a.actor == player), None)
            return f"已记录：{a.describe() if a else player}"
        return await director_write(request, game, make)

    @post("/d/g/{game:str}/unact")
    async def d_unact(request: Request, game: FromPath[str]) -> Template:
        def make(form):
            player, skill = player_field(form), field(form, "skill", "技能", 100)
            store.append(game, lambda g: UnactEvent(phase=g.label, actor=player, skill=skill), shared=True)
            return f"已撤回：{player} {skill}"
        return await director_write(request, game, make)

    @post("/d/g/{game:str}/vote")
    async def d_vote(request: Request, game: FromPath[str]) -> Template:
        def make(form):
            voter, target = player_field(form), field(form, "target", "投票对象", 100)
            if not target:
                raise GameError("请选择投票对象")
            post_no = logic.post_number(field(form, "post", "楼层", 30))
            store.append(game, lambda g: VoteEvent(phase=g.label, voter=voter, target=g.find_name(target), proxy=True, post=post_no,
                                                   change=any(b.voter == voter for b in g.ballots)), shared=True)
            return f"已代投：{voter} → {target}"
        return await director_write(request, game, make)

    @post("/d/g/{game:str}/preview")
    async def d_preview(request: Request, game: FromPath[str]) -> Template:
        def make(form):
            g = store.peek(game)
            name = site.namer(g)
            p = logic.preview(g)
            p.update(phase=name(p["phase"]), next=name(p["next"]), seq=store.last_seq(game))
            return {"preview": p}
        return await director_write(request, game, make)

    @post("/d/g/{game:str}/resolve")
    async def d_resolve(request: Request, game: FromPath[str]) -> Template:
        def make(form):
            expected = field(form, "phase", "阶段", 100)
            g0 = store.peek(game)
            name = site.namer(g0)
            if expected and expected != g0.label:
                raise GameError(ERR["phase_moved"].format(now=name(g0.label), expected=name(expected)))
            g, mark = store.append(game, lambda g: ResolveEvent(phase=g.label), shared=True)
            return f"已结算{name(g0.label)}；现在是{name(g.label)}"
        return await director_write(request, game, make)

    @post("/d/g/{game:str}/undo")
    async def d_undo(request: Request, game: FromPath[str]) -> Template:
        """Undo names what it removes and asks: without ``seq`` it shows the last event and a
        confirmation carrying its number; with it, that event is dropped only if it is still
        the last (a player's action that arrived meanwhile is not dropped in its place)."""
        def make(form):
            g = store.peek(game)
            last = store.last_seq(game)
            if last == 0:
                raise GameError("没有可撤销的事件")
            seq_text = field(form, "seq", "事件号", 30).strip()
            if not seq_text:
                (_, ev), = store.numbered_events(game, after=last - 1)
                return {"undo": {"seq": last, "what": logic.describe_event(ev, g)}}
            if seq_text != str(last):
                raise GameError(ERR["undo_moved"].format(now=last, expected=excerpt(seq_text)))
            gone = store.undo_to(game, last - 1)
            return "已撤销：" + "；".join(f"#{last} {logic.describe_event(ev, g)}" for ev in gone)
        return await director_write(request, game, make)

    @post("/d/g/{game:str}/link")
    async def d_link(request: Request, game: FromPath[str]) -> Template:
        def make(form):
            g = store.peek(game)
            every = field(form, "all", "全部", 10) == "1"
            names = [p.name for p in sorted(g.players.values(), key=lambda p: p.seat)] if every \
                else [g.find_name(player_field(form))]
            links = tokens.new_players(game, names)
            site.hub.poke(game)  # open pages of the old links hear of it (and close)
            return {"links": links, "message": "已为全部座位生成新链接（旧链接已失效）" if every else f"已为 {names[0]} 生成新链接（旧链接已失效）"}
        return await director_write(request, game, make)

    def amend_input(form):
        """The input an amend form names: act (a seat's skill and targets), unact or vote."""
        kind = field(form, "kind", "种类", 20)
        if kind in ("act", "unact"):
            player, _, skill = field(form, "act", "行动", 200).partition("\t")
            targets = [t for t in fields(form, "target", "目标") if t] if kind == "act" else []
            if kind == "act":
                return lambda label: ActEvent(phase=label, actor=player, skill=skill, targets=targets, args={})
            return lambda label: UnactEvent(phase=label, actor=player, skill=skill)
        if kind == "vote":
            voter, target = field(form, "voter", "投票人", 100), field(form, "vote_target", "投票对象", 100)
            return lambda label: VoteEvent(phase=label, voter=voter, target=target, proxy=True)
        raise GameError(f"修正 {excerpt(kind)}：应为补录行动、撤回行动或补录投票")

    @post("/d/g/{game:str}/amend")
    async def d_amend(request: Request, game: FromPath[str]) -> Template:
        """Amend a closed phase: without ``confirm`` the diff of what it changes (nothing
        stored); with it, written (the diff recomputed on the state it is written to)."""
        from bansha.cli.loop import amendment

        def make(form):
            phase, make_input = field(form, "phase", "阶段", 100), amend_input(form)
            g = store.peek(game)
            name = site.namer(g)
            if field(form, "confirm", "确认", 10) != "1":
                ev, label, diff = amendment(store.load(game), phase, make_input)  # a private copy
                from bansha.engine.history import named_diff

                return {"amend": {"label": name(label), "what": logic.describe_input(ev.event, g), "diff": named_diff(diff, name),
                                  "fields": [(k, v) for k, v in form.multi_items() if k != "_csrf_token" and isinstance(v, str)]}}
            written = {}

            def event(g):  # on the state it is written to, its record too (a copy: apply changes it)
                written["ev"], written["label"], _ = amendment(logic.private_copy(g), phase, make_input)
                return written["ev"]

            store.append(game, event, shared=True)
            return f"已写入修正（{name(written['label'])}）：{logic.describe_input(written['ev'].event, g)}；受影响的玩家请重发私信"
        return await director_write(request, game, make)

    @post("/d/g/{game:str}/ruling")
    async def d_ruling(request: Request, game: FromPath[str]) -> Template:
        def make(form):
            typed, player = field(form, "kind", "种类", 100).strip(), field(form, "player", "玩家", 100)
            text = field(form, "text", "文字", 2000)
            data = pairs([line for line in field(form, "data", "参数", 5000).splitlines() if line.strip()], "参数", "zh")

            def event(g):
                kind = g.ruleset.ruling_kind(typed)
                if kind not in g.ruleset.ruling_kinds:
                    names = "、".join(g.ruleset.ruling_name(k) for k in g.ruleset.ruling_kinds)
                    raise GameError(f"裁定 {excerpt(typed)}：本规则的裁定种类为 {names}")
                return RulingEvent(phase=g.label, kind=kind, player=g.find_name(player) if player else "",
                                   text=text, data=data)

            g, mark = store.append(game, event, shared=True)
            ann = g.since(mark)[1]
            return f"已记录裁定 {g.ruleset.ruling_name(g.ruleset.ruling_kind(typed))}（{g.named()}）" + (f"：{'；'.join(ann)}" if ann else "")
        return await director_write(request, game, make)

    @post("/d/g/{game:str}/deadline")
    async def d_deadline(request: Request, game: FromPath[str]) -> Template:
        def make(form):
            g = store.peek(game)
            at = field(form, "at", "截止时间", 40).strip().replace("T", " ")
            if not at:
                site.deadlines.set(game, None)
                return "已清除截止时间"
            try:
                when = dt.datetime.strptime(at, "%Y-%m-%d %H:%M")
            except ValueError:
                raise GameError(f"截止时间 {excerpt(at)}：应为 YYYY-MM-DD HH:MM") from None
            site.deadlines.set(game, json.dumps({"phase": g.label, "at": when.strftime("%Y-%m-%d %H:%M")}, ensure_ascii=False))
            return f"{site.namer(g)(g.label)} 截止：{when:%Y-%m-%d %H:%M}"
        return await director_write(request, game, make)

    @get("/d/g/{game:str}/events")
    async def d_events(request: Request, game: FromPath[str]) -> ServerSentEvent:
        await site.run(lambda: site.director(request, game))
        await site.run(lambda: site.load(game))
        cookie = request.cookies.get(COOKIE)

        async def stream():
            changes = site.hub.changes(game, keepalive=REVOKE_CHECK)
            await anext(changes)  # subscribed before hello: nothing after it goes unheard
            yield {"event": "hello", "data": "0"}
            async for changed in changes:
                if not await site.run(lambda: tokens.is_director(cookie)):
                    yield {"event": "gone", "data": ERR["bad_director"]}
                    return
                yield {"event": "change" if changed else "ping", "data": str(site.hub.version[game])}

        return ServerSentEvent(stream())

    return [login, games, new_game, console, console_table, d_act, d_unact, d_vote, d_preview, d_resolve, d_undo,
            d_link, d_amend, d_ruling, d_deadline, d_events]
