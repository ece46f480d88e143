"""`bansha serve` as a process: the login link it prints, live updates (server-sent events
from store.watch) of writes made by another process (the CLI), a player told only of changes to
their own view, and no player's token in the server's output."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time

import httpx


class Stream:
    """Read a server-sent event stream in a thread; events as (name, data)."""

    def __init__(self, client: httpx.Client, url: str):
        self.events: list[tuple[str, str]] = []
        self.client, self.url = client, url
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self):
        name = ""
        try:
            with self.client.stream("GET", self.url, timeout=httpx.Timeout(5, read=60)) as r:
                self.status = r.status_code
                for line in r.iter_lines():
                    if line.startswith("event:"):
                        name = line.split(":", 1)[1].strip()
                    elif line.startswith("data:"):
                        self.events.append((name, line.split(":", 1)[1].strip()))
        except httpx.HTTPError:
            pass

    def wait(self, name: str, count: int = 1, timeout: float = 60) -> bool:
        # generous: a wait ends as soon as the event arrives; only a failure waits it out
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if sum(1 for n, _ in self.events if n == name) >= count:
                return True
            time.sleep(0.05)
        return False


def cli(db, *args):
    out = subprocess.run([sys.executable, "-m", "bansha.cli.cli", *args, "--db", db], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_live_updates_from_another_process_and_no_token_in_the_log(server, tmp_path):
    from bansha_web.tokens import Tokens

    base = f"http://127.0.0.1:{server['port']}"
    from bansha.store.store import open_store

    with open_store(server["db"]) as other:  # another process's link: the store is shared
        red = Tokens(other).new_player("g1", "赤")
    director = httpx.Client(base_url=base)
    assert director.get(server["login"].replace(f"http://127.0.0.1:{server['port']}", base), follow_redirects=True).status_code == 200
    console = Stream(director, "/d/g/g1/events")
    player = Stream(httpx.Client(base_url=base), f"/p/{red}/events")
    assert console.wait("hello") and player.wait("hello")
    time.sleep(0.3)
    cli(server["db"], "vote", "g1", "士一", "黑一")  # another process writes
    assert console.wait("change"), console.events
    table = director.get("/d/g/g1/table").text
    assert "士一" in table and "黑一 1" in re.sub(r"<[^>]+>", " ", table).replace("  ", " ")
    time.sleep(1.0)
    assert not [e for e in player.events if e[0] == "change"], "a player heard of another's vote"
    cli(server["db"], "resolve", "g1", "--yes")
    assert player.wait("change"), player.events  # the phase resolved: their view changed
    assert "第1天 夜晚" in httpx.get(f"{base}/p/{red}/view").text
    httpx.get(f"{base}/p/{red}")
    httpx.get(f"{base}/p/not-a-token")
    time.sleep(0.3)
    log = "".join(server["lines"])
    assert red not in log
    assert "not-a-token" not in log


def test_workers_share_the_tokens_the_csrf_secret_and_the_store(tmp_path):
    """`bansha serve --workers 2`: two processes on one port. Each request on a fresh
    connection may reach either; a form rendered by one is accepted by the other (one CSRF
    secret), the director's link and the players' links work on both (tokens in the store)."""
    import os

    from bansha.store.store import open_store
    from bansha_web.tokens import Tokens
    from webhelpers import free_port, setup_of

    db = str(tmp_path / "games.db")
    with open_store(db) as store:
        store.create("g1", setup_of())
        red = Tokens(store).new_player("g1", "赤")
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "bansha.cli.cli", "serve", "--db", db, "--port", str(port), "--workers", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    lines: list[str] = []
    threading.Thread(target=lambda: [lines.append(x) for x in proc.stdout], daemon=True).start()
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                httpx.get(base + "/", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        login = re.search(r"(http://\S+/login/\S+)", "".join(lines)).group(1)
        fresh = httpx.Limits(max_keepalive_connections=0)  # every request a new connection
        with httpx.Client(base_url=base, limits=fresh) as director, httpx.Client(base_url=base, limits=fresh) as player:
            assert director.get(login.replace(f"http://127.0.0.1:{port}", base), follow_redirects=True).status_code == 200
            for i in range(12):
                page = director.get("/d/g/g1").text
                csrf = re.search(r'name="_csrf_token" value="([^"]+)"', page).group(1)
                r = director.post("/d/g/g1/ruling", data={"_csrf_token": csrf, "kind": "announce", "text": f"第{i}条"})
                assert r.status_code == 200, r.text
                assert player.get(f"/p/{red}").status_code == 200
        with open_store(db) as store:
            assert [e.text for e in store.events("g1")] == [f"第{i}条" for i in range(12)]
        pids = {p for p in os.listdir("/proc") if p.isdigit() and _parent(p) == str(proc.pid)}
        assert len(pids) >= 2, pids  # the workers are processes of their own
    finally:
        proc.terminate()
        proc.wait(20)


def _parent(pid: str) -> str:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[1]
    except OSError:
        return ""
