"""``bansha forum link|pull|push`` (entry point ``forum`` in ``bansha.commands``): the forum as
bansha's door (docs/forums.md, "The door"). Declared as the kernel declares its commands (a
``cli_table.Table``); heavy imports stay inside the commands."""

from __future__ import annotations

from bansha.cli_table import DbOpt, GameArg, JsonOpt, Option, Table, echo
from bansha.messages import extend

extend({
    "h_forum_app": ("论坛之门：连接论坛、拉取短消息和投票、推送帖子和短消息（各恰好一次）",
                    "the forum as the door: link, pull PMs and votes, push posts and PMs (each exactly once)"),
    "h_forum_link": ("把游戏连接到论坛（论坛根地址、导演的 cookie 文件、游戏主帖）", "link the game to its forum (base address, the director's cookies file, the main thread)"),
    "h_forum_push": ("把阶段的主帖回复和每个玩家的短消息经发件箱发出：预览；--yes 发送；每条恰好一次",
                     "send the phase's thread reply and each player's PM through the outbox: preview; --yes sends; each exactly once"),
    "h_forum_pull": ("读取导演收到的短消息（行动）和本阶段的投票帖，给出提议；--yes 记录",
                     "read the PMs sent to the director (actions) and the phase's vote thread, and propose; --yes records"),
    "h_fl_site": ("论坛的根地址（https://bbs.example.com/）", "the forum's base address (https://bbs.example.com/)"),
    "h_fl_cookies": ("导演登录论坛后的 cookie 文件（只保存路径，不保存内容）", "the director's logged-in cookies file (its path is kept, never its content)"),
    "h_fl_thread": ("游戏主帖的 tid 或地址", "the game's main thread: tid or address"),
    "h_fl_interval": ("两次发送之间至少间隔的秒数（论坛的发帖间隔；默认 15）", "seconds between two sends at least (the forum's flood control; default 15)"),
    "h_fp_phase": ("阶段；默认：最近结算的阶段", "phase; default: the last resolved"),
    "h_fp_yes": ("确认：发送（push）或记录（pull）", "confirm: send (push) or record (pull)"),
    "h_fp_thread": ("投票帖的 tid 或地址；默认：连接的主帖", "the vote thread's tid or address; default: the linked thread"),
    "h_fp_pm": ("只记录这些短消息（pmid，可重复；迟到的短消息也须这样点名）", "record only these PMs (pmid, repeatable; a late PM is recorded only so)"),
    "h_fp_template": ("板子模板文件", "board template file"),
    "fl_linked": ("已连接：{game} → {site}（主帖 tid {thread}，导演 {username}，uid {uid}；发送间隔 {interval} 秒）",
                  "linked: {game} → {site} (thread tid {thread}, director {username}, uid {uid}; {interval} s between sends)"),
})

commands = Table()
forum_app = Table(help="h_forum_app")
commands.add_group(forum_app, "forum")


def _cli():
    from bansha import cli

    return cli


@forum_app.command("link", help="h_forum_link")
def link(
    game: str = GameArg,
    site: str = Option(..., "--site", help="h_fl_site"),
    cookies: str = Option(..., "--cookies", help="h_fl_cookies"),
    thread: str = Option(..., "--thread", help="h_fl_thread"),
    interval: float = Option(None, "--interval", help="h_fl_interval"),
    db: str = DbOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Link the game to its forum: check that the cookies log in and the thread is there."""
    import os

    from bansha.messages import say
    from bansha.model import GameError

    from .discuz import Discuz
    from .link import DEFAULT_INTERVAL, Link, check_site, save_link, thread_id

    cli = _cli()
    lang = None
    try:
        store = cli._store(db)
        g = store.load(game)
        lang = g.lang
        if interval is not None and not 0 <= interval <= 600:
            raise GameError(say("dl_interval", lang, value=interval))
        base = check_site(site, lang)
        tid = thread_id(thread, lang)
        forum = Discuz(base, cookies, lang)
        try:
            me = forum.login()
            forum.thread(tid, ppp=1)  # the thread is there and readable
        finally:
            forum.close()
        lk = Link(site=base, cookies=os.path.abspath(cookies), thread=tid, uid=me.uid, username=me.username,
                  interval=DEFAULT_INTERVAL if interval is None else float(interval))
        save_link(store, game, lk)
        if as_json:
            return cli._json({"game": game, "site": lk.site, "thread": tid, "uid": me.uid, "username": me.username,
                              "interval": lk.interval})
        echo(say("fl_linked", lang, game=game, site=lk.site, thread=tid, username=me.username, uid=me.uid,
                 interval=f"{lk.interval:g}"))
    except GameError as exc:
        cli.fail(str(exc), as_json, lang)


@forum_app.command("push", help="h_forum_push")
def push(
    game: str = GameArg,
    phase: str = Option(None, "--phase", help="h_fp_phase"),
    yes: bool = Option(False, "--yes", help="h_fp_yes"),
    template: str = Option(None, "--template", help="h_fp_template"),
    db: str = DbOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Preview the phase's messages; with --yes send those not yet sent, each exactly once."""
    from bansha.messages import say
    from bansha.model import GameError

    from . import push as pushing
    from .discuz import Discuz
    from .link import load_link

    cli = _cli()
    lang = None
    try:
        store = cli._store(db)
        lang = store.load(game).lang
        lk = load_link(store, game, lang)
        g, label, msgs, skipped = pushing.plan(store, game, lk, phase, template)
        from bansha.board import load_board, phase_namer

        named = phase_namer(g, load_board(g.manifest.id, template, lang=lang))(label)
        lines, rows = pushing.preview(store, game, lk, named, msgs, lang)
        left = sum(1 for r in rows if r["state"] != "sent")
        if not yes:
            if as_json:
                return cli._json({"phase": label, "messages": rows, "skipped": skipped, "sent": False})
            for line in [*lines, *skipped]:
                echo(line)
            echo(say("dp_preview", lang, n=left) if left else say("dp_nothing", lang))
            return
        if not as_json:
            for line in [*lines, *skipped]:
                echo(line)
        forum = Discuz(lk.site, lk.cookies, lang)
        try:
            done = pushing.send(store, game, lk, forum, msgs, lang, (lambda s: None) if as_json else echo)
        finally:
            forum.close()
        if as_json:
            _, rows = pushing.preview(store, game, lk, label, msgs, lang)
            return cli._json({"phase": label, "messages": rows, "skipped": skipped, "sent": done["sent"]})
    except GameError as exc:
        cli.fail(str(exc), as_json, lang)


@forum_app.command("pull", help="h_forum_pull")
def pull(
    game: str = GameArg,
    thread: str = Option(None, "--thread", help="h_fp_thread"),
    yes: bool = Option(False, "--yes", help="h_fp_yes"),
    only: list[str] = Option([], "--pm", help="h_fp_pm"),
    template: str = Option(None, "--template", help="h_fp_template"),
    db: str = DbOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Read the PMs sent to the director and the phase's vote thread; propose; --yes records."""
    from bansha.model import GameError

    from . import pull as pulling

    cli = _cli()
    lang = None
    try:
        store = cli._store(db)
        lang = store.load(game).lang
        pulling.run(cli, store, game, thread, yes, template, db, as_json, lang, only)
    except GameError as exc:
        cli.fail(str(exc), as_json, lang)
