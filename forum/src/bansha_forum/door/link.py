"""A game's link to its forum (``bansha forum link``): the forum's base address, the path of
the director's cookies file (the path, never its content), the game's main thread, the
director's uid on the forum and the pause between two sends. Kept in the store's records beside
the game (``forum.link.GAME``), so the CLI and the console use the same link."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from bansha.engine.model import GameError
from bansha.text.messages import extend, say

extend({
    "dl_none": ("游戏 {game} 还没有连接论坛：先运行 bansha forum link {game} --site 论坛地址 --cookies cookie文件 --thread 主帖tid",
                "game {game} is not linked to a forum: run bansha forum link {game} --site URL --cookies FILE --thread TID first"),
    "dl_site": ("--site {site}：应为论坛的根地址（http:// 或 https:// 开头）", "--site {site}: expected the forum's base address (http:// or https://)"),
    "dl_thread": ("--thread {tid}：应为主题的 tid（数字）或帖子地址", "--thread {tid}: expected the thread's tid (a number) or its address"),
    "dl_interval": ("--interval {value}：应为 0 到 600 之间的秒数", "--interval {value}: expected seconds from 0 to 600"),
})

DEFAULT_INTERVAL = 15.0  # Discuz!'s default flood control between two posts (floodctrl)


@dataclass
class Link:
    site: str
    cookies: str
    thread: str
    uid: str = ""
    username: str = ""
    interval: float = DEFAULT_INTERVAL


def _key(game: str) -> str:
    from bansha_forum.door import LINK

    return f"{LINK}.{game}"


def thread_id(text: str, lang=None) -> str:
    """A thread's tid from a tid or a thread's address (``forum.php?mod=viewthread&tid=N``,
    ``thread-N-1-1.html``, the mobile API's ``tid=N``)."""
    import re

    t = (text or "").strip()
    if t.isdigit() and len(t) <= 18:
        return t
    m = re.search(r"[?&]tid=(\d{1,18})\b", t) or re.search(r"/thread-(\d{1,18})-\d+-\d+\.html", t)
    if not m:
        raise GameError(say("dl_thread", lang, tid=text))
    return m.group(1)


def load_link(store, game: str, lang=None) -> Link:
    store.load(game)  # an unknown game is said as every command says it
    raw = store.get_meta([_key(game)]).get(_key(game))
    if not raw:
        raise GameError(say("dl_none", lang, game=game))
    return Link(**json.loads(raw))


def save_link(store, game: str, link: Link) -> None:
    store.set_meta({_key(game): json.dumps(asdict(link), ensure_ascii=False)})


def check_site(site: str, lang=None) -> str:
    s = (site or "").strip()
    if not s.startswith(("http://", "https://")) or len(s) > 500:
        raise GameError(say("dl_site", lang, site=site))
    return s if s.endswith("/") else s + "/"
