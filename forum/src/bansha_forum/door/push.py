"""``bansha forum push``: a phase's thread post and every player's PM, sent exactly once through
the outbox stored with the game (docs/forums.md, "The door: what push guarantees").

1. **Plan.** The messages are made as ``bansha post`` and ``bansha pm`` make them (posts.py), each
   under a key that names it (``post:第1夜``, ``pm:第1夜:5``); an amendment's 【更正】 is a new
   message under a key of its own. Each carries a token (``〔编号 1a2b3c4d5e6f〕``, from the game
   and the key) written into its last line. A PM goes to the uid bound to the seat at sign-up
   (``PlayerSetup.uid``) and nowhere else: a seat without one is listed and skipped.
2. **Record before sending.** ``--yes`` records every planned message in the outbox
   (``Store.outbox_add``: a key once, never rewritten) before anything goes out.
3. **Reconcile.** Every message not marked sent is looked for on the forum first — a reply in
   the thread's posts by the director, a new thread (the board's ``[post] new_thread``) among
   the forum's newest threads by the director with its subject (``forumdisplay``), a PM in the
   conversation with its recipient (``mypm&subop=view``) — by its token. Found: marked sent with the forum's pid/pmid, not
   sent again. This covers a process killed after the forum took a message and before the
   store recorded it.
4. **Send, one at a time, in order.** Mark ``sending`` (committed), send, mark ``sent`` with the
   pid/pmid (committed). A pause of the link's interval between two sends; the forum's flood
   control answered is waited out and tried again; any other refusal stops the push, saying
   which messages went out and which did not.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass

from bansha.engine.model import GameError
from bansha.text.messages import extend, say

extend({
    "dp_post": ("主帖回复", "thread reply"),
    "dp_pm": ("短消息", "PM"),
    "dp_new_thread_phase": ("模板 [post] new_thread 里的阶段 {phase} 不是本规则的阶段（可用：{known}）",
                            "the template's [post] new_thread names {phase}, no phase of this ruleset (known: {known})"),
    "dp_new": ("新主题帖", "new thread"),
    "dp_subject": ("主帖所在版块，标题「{subject}」", "in the game thread's forum, titled “{subject}”"),
    "dp_state_pending": ("待发送", "to send"),
    "dp_state_sending": ("发送中断（先在论坛核对，再决定是否重发）", "interrupted (checked on the forum before any resend)"),
    "dp_state_sent": ("已发送（{id}）", "sent ({id})"),
    "dp_thread": ("主帖 tid {tid}", "thread tid {tid}"),
    "dp_thread_unsure": ("新主题帖“{subject}”曾开始发送，但在版块主题列表的前 {pages} 页里没有找到：为免重复发帖，这次什么也没有发送；"
                         "请到论坛确认：找到了就用 --found TID 记为已发送，确实没有就用 --not-on-forum 发送",
                         "the new thread “{subject}” was begun and is not in the forum's first {pages} pages of threads: nothing sent this time, lest it go out twice; "
                         "check the forum: found, mark it sent with --found TID; not there, send it with --not-on-forum"),
    "dp_no_begun": ("没有曾开始发送而未确认的新主题帖：{option} 不适用", "no new thread was begun and left unconfirmed: {option} does not apply"),
    "dp_not_it": ("tid {tid} 不是本局的新主题帖“{subject}”（1楼 不是导演所发，或没有编号 {token}）：什么也没有记录",
                  "tid {tid} is not this game's new thread “{subject}” (its first post is not the director's, or lacks the token {token}): nothing recorded"),
    "dp_to": ("{seat}号 {name}（uid {uid}）", "seat {seat} {name} (uid {uid})"),
    "dp_head": ("{label} 的发件箱（{site}）：", "outbox of {label} ({site}):"),
    "dp_row": ("{n:>3}. {kind} → {to}  {state}  「{first}」", "{n:>3}. {kind} → {to}  {state}  “{first}”"),
    "dp_unbound": ("不发送：{seat}号 {name} 没有绑定论坛 uid（报名时记录，或名单行写 uid=…）",
                   "not sent: seat {seat} {name} has no forum uid bound (recorded at sign-up, or uid=… on the roster line)"),
    "dp_preview": ("以上为预览，什么也没有发送；加 --yes 发送未发送的 {n} 条", "a preview: nothing was sent; add --yes to send the {n} not yet sent"),
    "dp_nothing": ("没有要发送的消息：都已发送", "nothing to send: everything is sent"),
    "dp_found": ("{n}. 已在论坛上（{id}），上次发出后未记录：记为已发送，不重发", "{n}. already on the forum ({id}), sent before and not recorded: marked sent, not sent again"),
    "dp_sent": ("{n}. 已发送 {kind} → {to}（{id}）", "{n}. sent {kind} → {to} ({id})"),
    "dp_wait": ("论坛限制发帖频率，等待 {seconds} 秒后重试", "the forum's flood control: waiting {seconds} s, then again"),
    "dp_done": ("发送完毕：本次发出 {sent} 条，共 {total} 条都已发送", "done: {sent} sent now, all {total} sent"),
    "dp_stopped": ("已停止：已发出 {done}；未发出 {left}", "stopped: sent {done}; not sent {left}"),
    "dp_none": ("无", "none"),
    "dp_busy": ("另一个推送正在发送这局游戏的消息（{host} 上的进程 {pid}，{since} 开始）：等它结束再推送",
                "another push is sending this game's messages (process {pid} on {host}, since {since}): push when it is done"),
    "dp_self": ("{seat}号 {name} 绑定的 uid {uid} 是导演自己的账号：不发送", "seat {seat} {name}'s uid {uid} is the director's own: not sent"),
})


@dataclass
class Message:
    key: str
    kind: str       # "reply" | "thread" (a new thread: its tid is the forum's id) | "pm"
    body: str
    token: str
    label: str
    tid: str = ""
    to: str = ""    # the player's name
    seat: int = 0
    uid: str = ""
    subject: str = ""  # a new thread's

    def json(self) -> str:
        return json.dumps(self.__dict__, ensure_ascii=False, sort_keys=True)

    @classmethod
    def of(cls, text: str) -> Message:
        return cls(**json.loads(text))


def token_of(game: str, key: str) -> str:
    return hashlib.sha256(f"{game}\0{key}".encode()).hexdigest()[:12]


def stamped(body: str, token: str) -> str:
    """The message as sent: its text and, last, the token push finds it by on the forum."""
    return body.rstrip("\n") + f"\n〔编号 {token}〕"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def bound_uids(store, game: str, g) -> dict[str, str]:
    """Each current player's bound uid (``Game.uids``): the seat's from ``new``, or the one its
    substitute's ruling gave (a substitute given none is bound to nobody)."""
    return {p.name: g.uids[p.seat] for p in g.players.values() if p.seat in g.uids}


def plan(store, game: str, link, phase: str | None = None, template=None):
    """(game, label, messages, skipped lines): the phase's post and PMs as messages, with the
    outbox as it stands (for the corrections' keys)."""
    from bansha.engine.board import board_day, load_board, phase_namer
    from bansha.engine.history import pick_phase, played, replay

    from .. import posts
    from ..loop import _corrections

    events = store.events(game)
    g, told = replay(store.setup(game), events)
    board = load_board(g.manifest.id, template, lang=g.lang)
    label = pick_phase(g, phase)
    known = [p.name for p in g.manifest.phases]
    for ph in board["post"].get("new_thread", []):
        if ph not in known:
            raise GameError(say("dp_new_thread_phase", g.lang, phase=ph, known="、".join(known)))
    have = {r.key: Message.of(r.message) for r in store.outbox(game)}
    out: list[Message] = []
    skipped: list[str] = []

    def add(key: str, kind: str, body: str, **kw) -> None:
        tok = token_of(game, key)
        out.append(Message(key=key, kind=kind, body=stamped(body, tok), token=tok, label=label, **kw))

    # a phase the board publishes in a later phase's post (M217's night, in the dawn's: [post.carry])
    # has no post of its own: its PMs go now, its lines with that phase's post
    if posts.carried_into(g, board, label) is None:
        post = posts.render_post(posts.build(g, events, board, label, told), "bbcode", g.lang)
        key = f"post:{label}"
        where: dict = {"tid": link.thread}
        body = post
        if label.partition(" ")[0] in board["post"].get("new_thread", []):
            name = phase_namer(g, board)
            seq = played(g)  # the phase this post begins: the one played after it, else the current
            after = seq[seq.index(label) + 1] if label in seq and seq.index(label) + 1 < len(seq) else g.label
            subject = board["post"]["thread_title"].format(board=g.manifest.name, phase=name(label), day=board_day(g, label),
                                                           next=name(after))
            # its 1楼 opens with the subject, naming the day it votes (as votes import checks a vote thread's 1楼)
            where, body = {"subject": subject}, f"[b]{subject}[/b]\n" + post
        if key in have and have[key].body != stamped(body, have[key].token):
            # a correction goes where its post went: into the phase's own thread once it is open
            add(f"{key}:更正:{_digest(post)}", "reply", "[b]【更正】[/b]\n" + post, tid=phase_thread(store, game, link, label))
        add(key, "thread" if "subject" in where else "reply", body, **where)
    uids = bound_uids(store, game, g)
    fix = _corrections(told, g, label, phase is None)
    for b in posts.pms(g, board, label, told, corrections=fix):
        uid = uids.get(b["player"], "")
        if not uid:
            skipped.append(say("dp_unbound", g.lang, seat=b["seat"], name=b["player"]))
            continue
        if uid == link.uid:
            skipped.append(say("dp_self", g.lang, seat=b["seat"], name=b["player"], uid=uid))
            continue
        to = {"to": b["player"], "seat": b["seat"], "uid": uid}
        key = f"pm:{label}:{b['seat']}"
        base = dict(b, correction=None)
        if key not in have:
            if b["lines"] or not b.get("correction"):
                add(key, "pm", posts.render_pms([base], "text", g.lang), **to)
            continue
        c = b.get("correction")
        if c:
            text = "\n".join([b["title"], b["greeting"], "【更正】", *[f"撤回：{x}" for x in c["removed"]],
                              *[f"更正为：{x}" for x in c["added"]]])
            add(f"{key}:更正:{_digest(text)}", "pm", text, **to)
        add(key, "pm", posts.render_pms([base], "text", g.lang), **to)
    # a message recorded before is shown and sent as recorded (a key's text is never rewritten)
    out = [have.get(m.key, m) for m in out]
    # the outbox's order: what was planned before first, new messages after, the post before the PMs
    order = {k: i for i, k in enumerate(have)}
    out.sort(key=lambda m: (order.get(m.key, len(order)), 1 if m.kind == "pm" else 0))
    return g, label, out, skipped


def phase_thread(store, game: str, link, label: str) -> str:
    """The thread of phase ``label``'s post: the one push opened for it (the outbox's sent
    ``post:LABEL`` of kind thread, its tid), else the game's linked thread."""
    for r in store.outbox(game):
        if r.key == f"post:{label}" and r.state == "sent" and Message.of(r.message).kind == "thread":
            return r.remote
    return link.thread


def _first(body: str) -> str:
    line = next((x for x in body.splitlines() if x.strip()), "")
    return line[:30] + ("…" if len(line) > 30 else "")


def describe(m: Message, lang) -> tuple[str, str]:
    if m.kind == "reply":
        return say("dp_post", lang), say("dp_thread", lang, tid=m.tid)
    if m.kind == "thread":
        return say("dp_new", lang), say("dp_subject", lang, subject=m.subject)
    return say("dp_pm", lang), say("dp_to", lang, seat=m.seat, name=m.to, uid=m.uid)


def state_text(row, lang) -> str:
    if row is None or row.state == "pending":
        return say("dp_state_pending", lang)
    if row.state == "sending":
        return say("dp_state_sending", lang)
    return say("dp_state_sent", lang, id=row.remote)


def preview(store, game: str, link, label: str, msgs: list[Message], lang) -> tuple[list[str], list[dict]]:
    """The lines and the rows of the preview: every message of the phase with its recipient,
    uid and state."""
    rows = {r.key: r for r in store.outbox(game)}
    lines, data = [say("dp_head", lang, label=label, site=link.site)], []
    for i, m in enumerate(msgs, start=1):
        kind, to = describe(m, lang)
        row = rows.get(m.key)
        lines.append(say("dp_row", lang, n=i, kind=kind, to=to, state=state_text(row, lang), first=_first(m.body)))
        data.append({"n": i, "key": m.key, "kind": m.kind, "to": m.to, "seat": m.seat, "uid": m.uid, "tid": m.tid, "subject": m.subject,
                     "state": row.state if row else "pending", "remote": row.remote if row else "", "message": m.body})
    return lines, data


def _fid(forum, link, cache: dict) -> str:
    if "fid" not in cache:
        cache["fid"] = forum.forum_of(link.thread)
    return cache["fid"]


def _on_forum(forum, link, m: Message, me_uid: str, cache: dict, begun: bool = False, lang=None,
              absent: bool = False) -> str:
    """The forum's id of ``m`` when it is already there (found by its token), else "". A new
    thread is looked for among the forum's newest threads by the director with its subject,
    by the token in its first post: the first pages, and where a send of it was begun and never
    confirmed (``begun``: a push killed after the forum may have taken it) the whole list, up
    to ``DEEP_PAGES``. A thread still not found where the list goes on is not opened again:
    the push stops before sending anything, for a second thread is a message sent twice, until
    the director, having looked, says it is not there (``absent``: ``--not-on-forum``)."""
    if m.kind == "thread":
        fid = _fid(forum, link, cache)
        if ("f", fid) not in cache:
            cache[("f", fid)] = forum.threads(fid)
        found = _thread_in(forum, cache[("f", fid)], m, me_uid)
        if found or not begun or absent:
            return found
        if ("F", fid) not in cache:
            cache[("F", fid)] = forum.thread_list(fid, DEEP_PAGES)
        rows, whole = cache[("F", fid)]
        found = _thread_in(forum, rows, m, me_uid)
        if not found and not whole:
            raise GameError(say("dp_thread_unsure", lang, subject=m.subject, pages=DEEP_PAGES))
        return found
    if m.kind == "reply":
        if ("t", m.tid) not in cache:
            cache[("t", m.tid)] = forum.thread(m.tid)
        for p in cache[("t", m.tid)]:
            if str(p.get("authorid")) == me_uid and m.token in str(p.get("message") or ""):
                return str(p.get("pid"))
        return ""
    if ("c", m.uid) not in cache:
        cache[("c", m.uid)] = forum.conversation(m.uid)
    for p in cache[("c", m.uid)]:
        if str(p.get("msgfromid")) == me_uid and m.token in str(p.get("message") or ""):
            return str(p.get("pmid"))
    return ""


#: how many pages of a forum's thread list a push reads back for a new thread it began to send
DEEP_PAGES = 100


def _thread_in(forum, rows: list[dict], m: Message, me_uid: str) -> str:
    for t in rows:
        if str(t.get("authorid")) == me_uid and str(t.get("subject")) == m.subject:
            first = forum.first_post(str(t.get("tid"))) or {}
            if m.token in str(first.get("message") or ""):
                return str(t.get("tid"))
    return ""


def _lease_key(game: str) -> str:
    return f"forum.pushing.{game}"


def _alive(holder: dict) -> bool:
    """Whether the push that holds the lease may still be running: a process of this machine
    that is gone is not; another machine's is, for an hour."""
    import os
    import socket

    if holder.get("host") != socket.gethostname():
        return time.time() - float(holder.get("since", 0)) < 3600
    try:
        os.kill(int(holder.get("pid", 0)), 0)
    except ProcessLookupError:
        return False
    except (OSError, ValueError):
        return True
    return True


def take_lease(store, game: str, lang) -> str:
    """One push of a game at a time: the store's record ``forum.pushing.GAME`` names the
    process that sends (host, pid, since); a push finding another one alive is refused; one
    killed (its process gone) is taken over. Returns this push's mark, for ``drop_lease``."""
    import os
    import secrets
    import socket

    mine = json.dumps({"host": socket.gethostname(), "pid": os.getpid(), "since": time.time(), "mark": secrets.token_hex(8)})
    key = _lease_key(game)
    held = store.add_meta({key: mine})[key]
    if held != mine:
        holder = json.loads(held)
        if _alive(holder):
            raise GameError(say("dp_busy", lang, pid=holder.get("pid"), host=holder.get("host"),
                                since=time.strftime("%H:%M:%S", time.localtime(float(holder.get("since", 0))))))
        store.set_meta({key: mine})  # the holder is gone: its messages are reconciled below
    return mine


def drop_lease(store, game: str, mine: str) -> None:
    key = _lease_key(game)
    if store.get_meta([key]).get(key) == mine:
        store.set_meta({key: None})


def send(store, game: str, link, forum, msgs: list[Message], lang, echo, sleep=time.sleep, tries: int = 3,
         found_thread: str | None = None, absent: bool = False) -> dict:
    """Record, reconcile and send (the module's steps 2-4), holding the game's push lease.
    Returns what happened; raises the forum's refusal (after echoing which went out) when it
    stops. The director's word on a new thread begun and never confirmed, where the push could
    not tell (``dp_thread_unsure``): ``found_thread``, its tid (checked by the token in its 1楼,
    then marked sent); ``absent``, it is not on the forum (sent without the deep search)."""
    mine = take_lease(store, game, lang)
    try:
        return _send(store, game, link, forum, msgs, lang, echo, sleep, tries, found_thread, absent)
    finally:
        drop_lease(store, game, mine)


def _begun_thread(msgs: list[Message], states: dict[str, str], option: str, lang) -> Message:
    """The phase's new thread whose send was begun and never confirmed (state ``sending``)."""
    m = next((m for m in msgs if m.kind == "thread" and states.get(m.key) == "sending"), None)
    if m is None:
        raise GameError(say("dp_no_begun", lang, option=option))
    return m


def _send(store, game: str, link, forum, msgs: list[Message], lang, echo, sleep, tries: int,
          found_thread: str | None = None, absent: bool = False) -> dict:
    from .discuz import ForumRefused, check_encodable

    me = forum.login()
    for m in msgs:  # a message the site cannot write is refused before anything is recorded or sent
        check_encodable(m.body, me.charset, lang)
    if found_thread is not None or absent:  # the director's word concerns a send begun before: check it first
        states = {r.key: r.state for r in store.outbox(game)}
        begun = _begun_thread(msgs, states, "--found" if found_thread is not None else "--not-on-forum", lang)
        if found_thread is not None:
            first = forum.first_post(found_thread) or {}
            if not (str(first.get("authorid")) == me.uid and begun.token in str(first.get("message") or "")):
                raise GameError(say("dp_not_it", lang, tid=found_thread, subject=begun.subject, token=begun.token))
            if store.outbox_mark(game, begun.key, "sent", remote=found_thread):
                echo(say("dp_found", lang, n=msgs.index(begun) + 1, id=found_thread))
    rows = {r.key: r for r in store.outbox_add(game, [(m.key, m.json()) for m in msgs])}
    # what is recorded is what is sent: a message planned again with other text keeps its first
    msgs = [Message.of(rows[m.key].message) for m in msgs]
    cache: dict = {}
    sent_now: list[str] = []
    for i, m in enumerate(msgs, start=1):
        if rows[m.key].state == "sent":
            continue
        found = _on_forum(forum, link, m, me.uid, cache, begun=rows[m.key].state == "sending", lang=lang,
                          absent=absent)
        if found and store.outbox_mark(game, m.key, "sent", remote=found):
            echo(say("dp_found", lang, n=i, id=found))
            rows[m.key].state, rows[m.key].remote = "sent", found
    last = 0.0
    for i, m in enumerate(msgs, start=1):
        if rows[m.key].state == "sent":
            continue
        kind, to = describe(m, lang)
        for attempt in range(tries):
            wait = link.interval - (time.monotonic() - last) if last else 0
            if wait > 0:
                sleep(wait)
            if not store.outbox_mark(game, m.key, "sending"):
                break  # sent meanwhile (another push): the store says so
            try:
                if m.kind == "thread":
                    remote = forum.send_thread(_fid(forum, link, cache), m.subject, m.body)
                elif m.kind == "reply":
                    remote = forum.send_reply(m.tid, m.body)
                else:
                    remote = forum.send_pm(m.uid, m.body)
            except ForumRefused as exc:
                last = time.monotonic()
                store.outbox_mark(game, m.key, "pending", expect=("sending",))  # refused: it did not go out
                if exc.flood and attempt + 1 < tries:
                    echo(say("dp_wait", lang, seconds=f"{max(link.interval, 1):g}"))
                    sleep(max(link.interval, 1))
                    continue
                _stopped(store, game, msgs, lang, echo)
                raise
            except GameError:
                _stopped(store, game, msgs, lang, echo)
                raise
            last = time.monotonic()
            store.outbox_mark(game, m.key, "sent", remote=remote)
            rows[m.key].state = "sent"
            sent_now.append(m.key)
            echo(say("dp_sent", lang, n=i, kind=kind, to=to, id=remote))
            break
    echo(say("dp_done", lang, sent=len(sent_now), total=len(msgs)))
    return {"sent": sent_now, "total": len(msgs)}


def _stopped(store, game, msgs, lang, echo) -> None:
    rows = {r.key: r for r in store.outbox(game)}
    done = [f"{i}" for i, m in enumerate(msgs, start=1) if rows[m.key].state == "sent"]
    left = [f"{i}" for i, m in enumerate(msgs, start=1) if rows[m.key].state != "sent"]
    none = say("dp_none", lang)
    echo(say("dp_stopped", lang, done="、".join(done) or none, left="、".join(left) or none))
