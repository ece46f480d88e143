"""MyBoard's threads, as its JSON export gives them: the adapter of docs/plugins.md, "A forum
format", whole. ``{"myboard_posts": [{"id", "floor", "user", "time", "body"}, …], "total"}``."""

from __future__ import annotations

import json

from bansha_forum.adapters.base import Adapter, Page, link_quotes, make_post, norm_time


class MyBoard(Adapter):
    name, label, order = "myboard", "MyBoard（JSON）", 40

    def sniff(self, text: str) -> bool:  # is this file in my format?
        return '"myboard_posts"' in text

    def parse(self, text: str) -> Page:  # one page (or a whole file) -> posts
        data = json.loads(text)
        posts = [make_post(p["floor"], p["user"], norm_time(p["time"]), p["body"].splitlines(), pid=str(p["id"]))
                 for p in data["myboard_posts"]]
        link_quotes(posts)
        return Page(posts=posts, total=data.get("total"))

    def page_url(self, url: str, page: int) -> str | None:  # only if it can be fetched
        return f"{url}&page={page}" if "myboard.example/t/" in url else None


adapter = MyBoard()
