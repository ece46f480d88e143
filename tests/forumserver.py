"""A local forum for the tests (no network): an HTTP server on 127.0.0.1 that serves pages
written in a forum's format, paged as the forum pages them."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from urllib.parse import parse_qs, urlsplit


@contextmanager
def local_forum(routes: dict[str, tuple[list[bytes], str]],
                refuse: Callable[[str, http.server.BaseHTTPRequestHandler], int | None] | None = None,
                ) -> Iterator[tuple[str, list[str]]]:
    """Serve ``GET /NAME/…?page=N`` from ``routes[NAME]`` (its pages and content type; a page
    past the last answers the last, as Discuz! does); any other path is a 404. ``refuse(name,
    request)`` may answer a status instead (a board behind a login). Yields the base URL and
    the paths asked, in order."""
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
            body = pages[max(1, min(n, len(pages))) - 1]
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *a):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", seen
    finally:
        server.shutdown()
        server.server_close()
