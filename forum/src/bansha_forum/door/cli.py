"""``bansha forum link|pull|push`` (entry point ``forum`` in ``bansha.commands``): the forum as
bansha's door (docs/forums.md, "The door"). Declared as the kernel declares its commands (a
``cli.table.Table``); heavy imports stay inside the commands."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace

from bansha.cli.table import DbOpt, GameArg, JsonOpt, Option, Table, echo
from bansha.text.messages import extend

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
    "h_forum_login": ("用论坛接口登录，把登录后的 cookie 写入文件（密码从 BANSHA_FORUM_PASSWORD 或提示输入读取，不保存）",
                      "log in through the forum's API and write the session's cookies to a file (the password from BANSHA_FORUM_PASSWORD or a prompt, never kept)"),
    "h_fl_username": ("导演在论坛上的用户名", "the director's forum username"),
    "h_fl_cookies_out": ("写入登录后 cookie 的文件（仅本人可读）", "the file to write the session's cookies to (readable by you only)"),
    "fl_password": ("论坛密码（不显示、不保存）：", "forum password (not shown, not kept): "),
    "fl_no_password": ("没有密码：设置 BANSHA_FORUM_PASSWORD，或在终端中运行以便输入", "no password: set BANSHA_FORUM_PASSWORD, or run it in a terminal to type it"),
    "fl_logged_in": ("已登录 {site}：{username}（uid {uid}）；cookie 已写入 {file}（只有你能读）；密码没有保存",
                     "logged in to {site}: {username} (uid {uid}); cookies written to {file} (readable by you only); the password was not kept"),
    "fl_cannot_write": ("{file}：无法写入：{why}", "{file}: cannot write: {why}"),
    "h_fp_phase": ("阶段；默认：最近结算的阶段", "phase; default: the last resolved"),
    "h_fp_yes": ("确认：发送（push）或记录（pull）", "confirm: send (push) or record (pull)"),
    "h_fp_thread": ("投票帖的 tid 或地址；默认：连接的主帖", "the vote thread's tid or address; default: the linked thread"),
    "h_fp_pm": ("只记录这些短消息（pmid，可重复；迟到的短消息也须这样点名）", "record only these PMs (pmid, repeatable; a late PM is recorded only so)"),
    "h_fp_template": ("板子模板文件", "board template file"),
    "h_fp_found": ("曾开始发送、推送没能确认的新主题帖已在论坛上：它的 tid 或地址（核对 1楼 的编号后记为已发送）",
                   "the new thread a push began and could not confirm is on the forum: its tid or address (its first post's token checked, then marked sent)"),
    "h_fp_absent": ("曾开始发送、推送没能确认的新主题帖确实不在论坛上（已到论坛确认）：发送它",
                    "the new thread a push began and could not confirm is not on the forum (you looked): send it"),
    "fp_needs_yes": ("{option} 须与 --yes 一起使用", "{option} goes with --yes"),
    "fp_clash": ("--found 与 --not-on-forum 不能同时使用", "--found and --not-on-forum cannot go together"),
    "fl_linked": ("已连接：{game} → {site}（主帖 tid {thread}，导演 {username}，uid {uid}；发送间隔 {interval} 秒）",
                  "linked: {game} → {site} (thread tid {thread}, director {username}, uid {uid}; {interval} s between sends)"),
})

commands = Table()
forum_app = Table(help="h_forum_app")
commands.add_group(forum_app, "forum")


def _cli():
    from bansha.cli import cli

    return cli


@contextmanager
def _refusals(as_json: bool, lang: str | None = None) -> Iterator[SimpleNamespace]:
    """What every forum command shares: the kernel's command module (``door.cli``) and the one
    refusal — a GameError in the block is one line (a JSON object with ``--json``) and exit 2,
    in the game's language once ``door.game(db, name)`` has found the game."""
    from bansha.engine.model import GameError

    cli = _cli()
    door = SimpleNamespace(cli=cli, lang=lang)

    def game(db: str, name: str):
        door.store = cli._store(db)
        g = door.store.load(name)
        door.lang = g.lang
        return door.store, g

    door.game = game
    try:
        yield door
    except GameError as exc:
        cli.fail(str(exc), as_json, door.lang)


@forum_app.command("link", help="h_forum_link")
def link(
    game: str = GameArg,
    site: str = Option(..., "--site", help="h_fl_site"),
    cookies: str = Option(..., "--cookies", help="h_fl_cookies"),
    thread: str = Option(..., "--thread", help="h_fl_thread"),
    interval: str = Option(None, "--interval", help="h_fl_interval"),
    db: str = DbOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Link the game to its forum: check that the cookies log in and the thread is there."""
    import os

    from bansha.engine.model import GameError
    from bansha.text.messages import say

    from .discuz import Discuz
    from .link import DEFAULT_INTERVAL, Link, check_site, save_link, thread_id

    with _refusals(as_json) as door:
        cli = door.cli
        store, g = door.game(db, game)
        lang = g.lang
        seconds = DEFAULT_INTERVAL
        if interval is not None:
            try:
                seconds = float(interval.strip())
            except ValueError:
                seconds = -1.0
            if not 0 <= seconds <= 600:  # nan and inf too
                raise GameError(say("dl_interval", lang, value=interval))
        base = check_site(site, lang)
        tid = thread_id(thread, lang)
        forum = Discuz(base, cookies, lang)
        try:
            me = forum.login()
            forum.first_post(tid)  # the thread is there and readable
        finally:
            forum.close()
        lk = Link(site=base, cookies=os.path.abspath(cookies), thread=tid, uid=me.uid, username=me.username,
                  interval=seconds)
        save_link(store, game, lk)
        if as_json:
            return cli._json({"game": game, "site": lk.site, "thread": tid, "uid": me.uid, "username": me.username,
                              "interval": lk.interval})
        echo(say("fl_linked", lang, game=game, site=lk.site, thread=tid, username=me.username, uid=me.uid,
                 interval=f"{lk.interval:g}"))


@forum_app.command("login", help="h_forum_login")
def login(
    site: str = Option(..., "--site", help="h_fl_site"),
    username: str = Option(..., "--username", help="h_fl_username"),
    cookies: str = Option(..., "--cookies", help="h_fl_cookies_out"),
    as_json: bool = JsonOpt,
) -> None:
    """Log in through the API; the session's cookies go to the file the director names."""
    import os
    import sys

    from bansha.door.files import os_why
    from bansha.engine.model import GameError
    from bansha.text.messages import say

    from .discuz import Discuz
    from .link import check_site

    lang = "zh"
    with _refusals(as_json, lang) as door:
        cli = door.cli
        base = check_site(site, lang)
        password = os.environ.get("BANSHA_FORUM_PASSWORD", "")
        if not password:
            if not sys.stdin.isatty():
                raise GameError(say("fl_no_password", lang))
            import getpass

            password = getpass.getpass(say("fl_password", lang))
        forum = Discuz(base, None, lang)
        try:
            me, jar = forum.password_login(username, password)
        finally:
            forum.close()
        line = "; ".join(f"{k}={v}" for k, v in jar.items()) + "\n"
        try:  # created readable by its owner only, before anything is written into it
            fd = os.open(cookies, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(line)
            os.chmod(cookies, 0o600)
        except OSError as exc:
            raise GameError(say("fl_cannot_write", lang, file=cookies, why=os_why(exc, lang))) from None
        if as_json:
            return cli._json({"site": base, "uid": me.uid, "username": me.username, "cookies": cookies})
        echo(say("fl_logged_in", lang, site=base, username=me.username, uid=me.uid, file=cookies))


@forum_app.command("push", help="h_forum_push")
def push(
    game: str = GameArg,
    phase: str = Option(None, "--phase", help="h_fp_phase"),
    yes: bool = Option(False, "--yes", help="h_fp_yes"),
    template: str = Option(None, "--template", help="h_fp_template"),
    found: str = Option(None, "--found", help="h_fp_found"),
    absent: bool = Option(False, "--not-on-forum", help="h_fp_absent"),
    db: str = DbOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Preview the phase's messages; with --yes send those not yet sent, each exactly once."""
    from bansha.engine.model import GameError
    from bansha.text.messages import say

    from . import push as pushing
    from .discuz import Discuz
    from .link import load_link, thread_id

    with _refusals(as_json) as door:
        cli = door.cli
        store, _ = door.game(db, game)
        lang = door.lang
        if found is not None and absent:
            raise GameError(say("fp_clash", lang))
        if (found is not None or absent) and not yes:
            raise GameError(say("fp_needs_yes", lang, option="--found" if found is not None else "--not-on-forum"))
        found_tid = thread_id(found, lang) if found is not None else None
        lk = load_link(store, game, lang)
        g, label, msgs, skipped = pushing.plan(store, game, lk, phase, template)
        from bansha.engine.board import load_board, phase_namer

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
            done = pushing.send(store, game, lk, forum, msgs, lang, (lambda s: None) if as_json else echo,
                                found_thread=found_tid, absent=absent)
        finally:
            forum.close()
        if as_json:
            _, rows = pushing.preview(store, game, lk, label, msgs, lang)
            return cli._json({"phase": label, "messages": rows, "skipped": skipped, "sent": done["sent"]})


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
    from . import pull as pulling

    with _refusals(as_json) as door:
        cli = door.cli
        store, _ = door.game(db, game)
        lang = door.lang
        pulling.run(cli, store, game, thread, yes, template, db, as_json, lang, only)
