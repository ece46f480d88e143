"""``bansha forum pull``: the PMs the players sent the director and the current phase's vote
thread, read from the linked forum and proposed (docs/forums.md, "The door: pull").

A PM counts only from a seat's bound uid (``PlayerSetup.uid``: the sender is the seat, never a
name typed in the PM). Its text, in the board's words — ``技能：杀人 目标：丙`` (a skill's alias
too; ``参数：reflect=黑二``) or a CSV line ``杀人,丙`` — becomes a line of ``act --file``'s CSV and
is read by that same reader (``bansha.cli.loop.actions_of_text``), then checked by the engine
as ``act`` checks it. Each PM is listed: what it parses to, or why it does not (never dropped);
late when sent after the phase's deadline (late PMs are listed, not recorded unless named with
``--pm``). ``--yes`` records every PM that parses, is accepted and is not late (``--pm PMID``:
only those named); a PM is pulled once: its pmid is kept in the store's records
(``forum.pulled.GAME``) after it is decided, and an action already in the log is not recorded
again (a pull killed between the two records nothing twice). The vote thread is read and
recorded by ``votes import``'s own code (``--thread``, else the linked thread)."""

from __future__ import annotations

import datetime as dt
import json
import re

from bansha.engine.model import GameError
from bansha.text.messages import extend, say

extend({
    "du_head": ("{phase}：收到的短消息（{n} 条未处理）", "{phase}: PMs received ({n} not yet pulled)"),
    "du_row": ("短消息 {pmid}  {seat}号 {name}（uid {uid}）  {time}{late}  「{text}」", "PM {pmid}  seat {seat} {name} (uid {uid})  {time}{late}  “{text}”"),
    "du_late": ("  【迟到】", "  [late]"),
    "du_parsed": ("    → {act}", "    → {act}"),
    "du_refused": ("    → 不接受：{why}", "    → refused: {why}"),
    "du_unparsed": ("    → 读不出行动：{why}（未记录，请导演处理）", "    → no action read: {why} (not recorded: the director decides)"),
    "du_already": ("    → 已在记录中", "    → already recorded"),
    "du_no_skill": ("没有“技能：…”，也不是 技能,目标 的一行", "no “技能：…” and no skill,targets line"),
    "du_none": ("没有新的短消息", "no new PMs"),
    "du_preview": ("以上为提议，什么也没有记录；加 --yes 记录可记录的 {n} 条", "proposed: nothing recorded; add --yes to record the {n} that can be"),
    "du_recorded": ("已记录 {n} 条行动", "{n} action(s) recorded"),
    "du_strangers": ("不是玩家（没有绑定的 uid）发来的短消息，未读：{uids}", "PMs from uids bound to no seat, not read: {uids}"),
    "du_votes": ("投票帖 tid {tid}：", "vote thread tid {tid}:"),
    "du_no_vote": ("本阶段没有投票：不读投票帖", "no vote this phase: the vote thread is not read"),
})

FIELD = re.compile(r"(技能|目标|对象|参数)\s*[：:]\s*(.*?)(?=\s*(?:技能|目标|对象|参数)\s*[：:]|$)")
SEP = re.compile(r"[\s、,，;；]+")


def _key(game: str) -> str:
    from bansha_forum.door import PULLED

    return f"{PULLED}.{game}"


def pm_csv(actor: str, lines: list[str], is_skill=lambda name: True) -> str | None:
    """The PM as a line of ``act --file``'s CSV (``actor,skill,targets,args``), or None when it
    names no skill (a CSV line counts only when its first cell is one of ``is_skill``'s: a chat
    with a comma is no action)."""
    text = " ".join(lines)
    fields: dict[str, str] = {}
    for m in FIELD.finditer(text):
        fields.setdefault(m.group(1).replace("对象", "目标"), m.group(2).strip())
    if "技能" in fields:
        skill = fields["技能"].split()[0] if fields["技能"].split() else ""
        targets = " ".join(t for t in SEP.split(fields.get("目标", "")) if t)
        args = ";".join(a for a in SEP.split(fields.get("参数", "")) if a)
        return f"{actor},{skill},{targets},{args}" if skill else None
    for line in lines:  # a CSV line without the actor: 杀人,丙
        cells = [c.strip() for c in re.split(r"[,，]", line)]
        if 2 <= len(cells) <= 3 and cells[0] and is_skill(cells[0]):
            return ",".join([actor, *cells])
    return None


def phase_close(g) -> dt.datetime | None:
    """The current phase's deadline where the board's clock states it (``bansha status``'s
    ``截止``: the board's ``bansha_game_view``), else None (lateness unknown)."""
    try:
        facts = {}
        for part in g.hook.bansha_game_view(game=g) or []:
            facts.update(part or {})
    except Exception:  # a board's view that cannot say: no deadline
        return None
    for k, v in facts.items():
        if "截止" in str(k) and "遗言" not in str(k):
            m = re.search(r"(\d{4})-(\d{1,2})-(\d{1,2})\D+?(\d{1,2}):(\d{2})", str(v))
            if m:
                return dt.datetime(*map(int, m.groups()))
    return None


def _has_skill(g, player, name: str) -> bool:
    if player is None:
        return False
    try:
        g.find_skill(player, name)
        return True
    except GameError:
        return False


def _when(stamp: str) -> dt.datetime | None:
    try:
        return dt.datetime.fromtimestamp(int(stamp), dt.timezone(dt.timedelta(hours=8))).replace(tzinfo=None)
    except (TypeError, ValueError, OverflowError, OSError):
        return None


def read_pms(store, game: str, link, forum, g):
    """Every PM from a bound seat not yet pulled, oldest first, with its sender; and the uids
    that wrote and are bound to no seat."""
    from .push import bound_uids

    uids = bound_uids(store, game, g)
    by_uid = {u: n for n, u in uids.items()}
    done = set(json.loads(store.get_meta([_key(game)]).get(_key(game)) or "[]"))
    me = forum.login()
    out, strangers = [], []
    for conv in forum.conversations():
        other = str(conv.get("touid") or "")
        if other == me.uid or not other:
            continue
        if other not in by_uid:
            if str(conv.get("msgfromid")) == other:
                strangers.append(other)
            continue
        for p in forum.conversation(other):
            pmid = str(p.get("pmid") or "")
            if str(p.get("msgfromid")) != other or not pmid or pmid in done:
                continue
            out.append({"pmid": pmid, "uid": other, "name": by_uid[other], "dateline": str(p.get("dateline") or ""),
                        "message": str(p.get("message") or "")})
    out.sort(key=lambda r: int(r["pmid"]) if r["pmid"].isdigit() else 0)
    return out, sorted(set(strangers))


def propose(store, game: str, pms: list[dict], lang):
    """Each PM with what it parses to, checked on a copy of the game in order: rows with
    ``event`` (to record), ``already``, ``why`` (refused) or ``unparsed``."""
    from bansha.cli.loop import actions_of_text
    from bansha.engine.model import ActEvent

    from ..adapters.base import html_lines

    g = store.load(game)
    close = phase_close(g)
    rows = []
    for pm in pms:
        lines = html_lines(pm["message"])
        sender = g.players.get(pm["name"])
        when = _when(pm["dateline"])
        row = {**pm, "lines": lines, "seat": sender.seat if sender else 0, "late": bool(close and when and when > close),
               "time": f"{when:%m-%d %H:%M}" if when else "—", "event": None, "already": False, "why": "", "unparsed": ""}
        rows.append(row)
        csv_line = pm_csv(pm["name"], lines, lambda name, p=sender: _has_skill(g, p, name))
        if csv_line is None:
            row["unparsed"] = say("du_no_skill", lang)
            continue
        try:
            (_, a), = actions_of_text(csv_line, f"PM {pm['pmid']}", False, lang)
        except (GameError, ValueError) as exc:
            row["unparsed"] = str(exc)
            continue
        ev = ActEvent(phase=g.label, actor=a["actor"], skill=a["skill"], targets=[str(t) for t in a.get("targets", [])],
                      args=dict(a.get("args", {})))
        row["act"] = " ".join([ev.actor, ev.skill, *ev.targets, *(f"{k}={v}" for k, v in ev.args.items())])
        if ev in g.applied:
            row["already"] = True
            continue
        try:
            g.apply(ev)
        except GameError as exc:
            row["why"] = str(exc)
            continue
        row["event"] = ev
    return rows


def collect(store, game: str, yes: bool, lang, only=(), forum=None) -> dict:
    """The PMs not yet pulled, proposed; with ``yes`` those that can be recorded recorded (all
    not late, or the pmids of ``only``) and every listed PM kept as pulled. What ``forum pull``
    prints and the console shows: ``rows`` (each PM: sender, time, late, lines, what it parses
    to or why not), ``recorded``, ``strangers``, ``to_record``."""
    from .discuz import Discuz
    from .link import load_link

    link = load_link(store, game, lang)
    g = store.load(game)
    own = forum is None
    forum = forum or Discuz(link.site, link.cookies, lang)
    try:
        pms, strangers = read_pms(store, game, link, forum, g)
    finally:
        if own:
            forum.close()
    rows = propose(store, game, pms, lang)
    chosen = {str(x) for x in only}
    take = [r for r in rows if r["event"] is not None and ((r["pmid"] in chosen) if chosen else not r["late"])]
    recorded = 0
    if yes and take:
        events = [r["event"] for r in take]
        store.append_all(game, lambda _g: events)
        recorded = len(events)
    if yes:  # decided: recorded, already in the log, refused, unreadable or late (listed now)
        decided = [r["pmid"] for r in rows if not chosen or r["pmid"] in chosen]
        old = json.loads(store.get_meta([_key(game)]).get(_key(game)) or "[]")
        store.set_meta({_key(game): json.dumps(sorted(set(old) | set(decided)))})
    for r in rows:
        r["to_record"] = r in take
    return {"link": link, "game": g, "rows": rows, "recorded": recorded, "strangers": strangers, "to_record": len(take)}


def run(cli, store, game, thread, yes, template, db, as_json, lang, only: list[str] = ()) -> None:
    from bansha.cli.table import echo
    from bansha.engine.board import load_board, phase_namer


    got = collect(store, game, yes, lang, only)
    link, g, rows, recorded, strangers = got["link"], got["game"], got["rows"], got["recorded"], got["strangers"]
    take = [r for r in rows if r["to_record"]]
    phase = phase_namer(g, load_board(g.manifest.id, template, lang=lang))(g.label)
    if as_json:
        out = {"phase": g.label, "phase_name": phase, "recorded": recorded, "strangers": strangers,
               "pms": [{k: r[k] for k in ("pmid", "uid", "name", "seat", "time", "late", "lines", "already", "why", "unparsed")}
                       | {"action": r.get("act"), "to_record": r["to_record"]} for r in rows]}
        votes = None
        if g.phase.vote:
            votes = _votes(cli, store, game, link, vote_thread(store, game, link, g, thread, lang), yes, template, db, lang, capture=True)
        out["votes"] = votes
        return cli._json(out)
    echo(say("du_head", lang, phase=phase, n=len(rows)))
    for r in rows:
        text = " ".join(r["lines"])
        echo(say("du_row", lang, pmid=r["pmid"], seat=r["seat"], name=r["name"], uid=r["uid"], time=r["time"],
                 late=say("du_late", lang) if r["late"] else "", text=text[:60] + ("…" if len(text) > 60 else "")))
        if r["unparsed"]:
            echo(say("du_unparsed", lang, why=r["unparsed"]))
        elif r["already"]:
            echo(say("du_already", lang))
        elif r["why"]:
            echo(say("du_refused", lang, why=r["why"]))
        else:
            echo(say("du_parsed", lang, act=r["act"]))
    if not rows:
        echo(say("du_none", lang))
    if strangers:
        echo(say("du_strangers", lang, uids="、".join(strangers)))
    echo(say("du_recorded", lang, n=recorded) if yes else say("du_preview", lang, n=len(take)))
    if g.phase.vote:
        tid = vote_thread(store, game, link, g, thread, lang)
        echo(say("du_votes", lang, tid=tid))
        _votes(cli, store, game, link, tid, yes, template, db, lang)
    else:
        echo(say("du_no_vote", lang))


def vote_thread(store, game: str, link, g, thread: str | None, lang) -> str:
    """The tid of the current phase's vote thread: ``--thread`` when given; else the thread
    push opened with the post that began the phase (the post of the phase resolved last, where
    the board's ``[post] new_thread`` says so, recorded in the outbox); else the game's linked
    thread."""
    from .link import thread_id
    from .push import phase_thread

    if thread:
        return thread_id(thread, lang)
    return phase_thread(store, game, link, g.resolved[-1]) if g.resolved else link.thread


def _votes(cli, store, game, link, thread, yes, template, db, lang, capture=False):
    """The vote thread through ``votes import`` (its reading, checks and records)."""
    import contextlib
    import io

    from ..loop import _votes_import
    from .link import thread_id

    tid = thread_id(thread, lang) if thread else link.thread
    url = f"{link.site}api/mobile/index.php?version=4&module=viewthread&tid={tid}"
    seen = [lang]
    if capture:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            _votes_import(cli, game, url, set(), None, not yes, template, db, True, seen, "discuz-api", link.cookies, yes)
        return json.loads(buf.getvalue())
    _votes_import(cli, game, url, set(), None, not yes, template, db, False, seen, "discuz-api", link.cookies, yes)
    return None
