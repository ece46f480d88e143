"""A local forum for the tests (no network): an HTTP server on 127.0.0.1 that serves pages
written in a forum's format, paged as the forum pages them — and, for the reading loop's
limits, pages that misbehave as real servers do: one dripped a few bytes every few moments
(``Drip``: its body, or its headers too) and one whose connection drops mid-answer (``Cut``)."""

from __future__ import annotations

import http.server
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit


@dataclass
class Drip:
    """A page sent ``chunk`` bytes at a time, ``every`` seconds apart: a slow server that never
    waits long enough for a read's timeout. ``headers``: the status line and headers too."""

    body: bytes
    every: float = 0.2
    chunk: int = 1
    headers: bool = False


@dataclass
class Cut:
    """A page that declares its whole length, sends its first ``at`` bytes and closes the
    connection: a connection dropped mid-answer."""

    body: bytes
    at: int


@contextmanager
def local_forum(routes: dict[str, tuple[list[bytes], str]],
                refuse: Callable[[str, http.server.BaseHTTPRequestHandler], int | None] | None = None,
                ) -> Iterator[tuple[str, list[str]]]:
    """Serve ``GET /NAME/…?page=N`` from ``routes[NAME]`` (its pages and content type; a page
    past the last answers the last, as Discuz! does); any other path is a 404. ``refuse(name,
    request)`` may answer a status instead (a board behind a login). A page may be ``bytes``, a
    ``Drip`` or a ``Cut``. Yields the base URL and the paths asked, in order; a path whose
    answer the client stopped reading before its end is listed again with ``" (left)"``."""
    seen: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server's name)
            seen.append(self.path)
            parts = urlsplit(self.path)
            name = parts.path.strip("/").split("/")[0]
            if name not in routes:
                self.send_error(404)
                return
            status = refuse(name, self) if refuse else None
            if status:
                self.send_error(status)
                return
            pages, content_type = routes[name]
            n = int(parse_qs(parts.query).get("page", ["1"])[0])
            page = pages[max(1, min(n, len(pages))) - 1]
            body = page if isinstance(page, bytes) else page.body
            head = (f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
                    "Connection: close\r\n\r\n").encode()
            try:
                if isinstance(page, Drip):
                    data = head + body if page.headers else body
                    if not page.headers:
                        self.wfile.write(head)
                    for at in range(0, len(data), page.chunk):
                        self.wfile.write(data[at:at + page.chunk])
                        self.wfile.flush()
                        time.sleep(page.every)
                elif isinstance(page, Cut):
                    self.wfile.write(head + body[:page.at])
                    self.wfile.flush()
                    self.close_connection = True
                else:
                    self.wfile.write(head + body)
            except OSError:  # the client hung up before the end
                seen.append(self.path + " (left)")

        def log_message(self, *a):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", seen
    finally:
        server.shutdown()
        server.server_close()
