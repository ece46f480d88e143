"""`bansha serve` under 50 concurrent player clients (docs/web.md#measured).

    uv run python benchmarks/bench_web.py [--pg postgresql://…] [--clients 50] [--rounds 20]

Starts `bansha serve` in its own process on a store holding a 20-seat qisha-xia game played to
night 20 (its log replays 20 days), gives each seat a link, and runs ``--clients`` clients at
once (several per seat), each ``--rounds`` times: read its page, submit its night action, read
the page, withdraw the action. Each submission is a real store append (rebuilt from the
server's cached state, checked by the engine, stored). Prints p50 / p99 latency of submissions
and reads and requests per second, for SQLite and (with ``--pg`` or BANSHA_TEST_PG) PostgreSQL.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "web"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def prepare(url: str) -> dict[str, str]:
    from bansha.engine.engine import SILENT
    from bansha.engine.model import ResolveEvent
    from bansha.store.store import open_store
    from bansha_web.logic import usable_skills
    from bansha_web.tokens import Tokens
    from webhelpers import setup_of

    store = open_store(url, logger=lambda g: SILENT)
    store.create("bench", setup_of())
    while not store.load("bench").label == "night 20":
        store.append("bench", lambda g: ResolveEvent(phase=g.label))
    g = store.load("bench")
    links = Tokens(store).new_players("bench", list(g.players))
    plan = {}
    for name in g.players:
        skills = [s for s in usable_skills(g, name) if not s["immediate"] and s["min"] == 1]
        if skills:
            s = skills[0]
            plan[name] = (links[name], s["name"], next(t for t in s["targets"] if t != name))
    store.close()
    return plan


class Connection:
    """A minimal HTTP/1.1 keep-alive client on asyncio streams: the load generator runs on the
    same 2 cores as the server, and httpx costs ~1.6 ms of CPU a request (as much as the
    server's own work), this ~0.2 ms. Enough HTTP for these pages: Content-Length bodies,
    one cookie jar."""

    def __init__(self, base: str):
        host, port = base.removeprefix("http://").split(":")
        self.host, self.port = host, int(port)
        self.cookies: dict[str, str] = {}

    async def open(self):
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def request(self, method: str, path: str, form: dict | None = None, headers: dict | None = None):
        from urllib.parse import urlencode

        body = urlencode(form).encode() if form is not None else b""
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", f"Content-Length: {len(body)}"]
        if form is not None:
            head.append("Content-Type: application/x-www-form-urlencoded")
        if self.cookies:
            head.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        head += [f"{k}: {v}" for k, v in (headers or {}).items()]
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "content-length":
                length = int(value)
            elif name == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
        return status, (await self.reader.readexactly(length)).decode()

    def close(self):
        self.writer.close()


async def client(base, token, skill, target, rounds, lat_post, lat_get, errors):
    c = Connection(base)
    await c.open()
    try:
        status, page = await c.request("GET", f"/p/{token}")
        found = re.search(r'name="_csrf_token" value="([^"]+)"', page)
        # a page without a form (the seat's skill already sent by another client, and the
        # board offering no withdrawal): the token is the CSRF cookie's value (double submit)
        csrf = found.group(1) if found else c.cookies.get("bansha_csrf")
        if status != 200 or not csrf:  # an error page: counted, and the first one's text shown at the end
            errors.append((status, re.sub(r"<[^>]+>|\s+", " ", page)[:300]))
            return
        for _ in range(rounds):
            t = time.perf_counter()
            status, _ = await c.request("GET", f"/p/{token}/view")
            lat_get.append(time.perf_counter() - t)
            if status != 200:
                errors.append(status)
            for path, data in ((f"/p/{token}/act", {"skill": skill, "target": target}), (f"/p/{token}/unact", {"skill": skill})):
                t = time.perf_counter()
                status, _ = await c.request("POST", path, {**data, "_csrf_token": csrf}, {"HX-Request": "true"})
                lat_post.append(time.perf_counter() - t)
                if status not in (200, 422):
                    errors.append(status)
    finally:
        c.close()


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid: int) -> float:
    """CPU time of a process and its children that are still running (uvicorn's workers)."""
    total = cpu_seconds(pid)
    for child in Path("/proc").iterdir():
        if child.name.isdigit():
            try:
                if Path(child, "stat").read_text().rsplit(")", 1)[1].split()[1] == str(pid):
                    total += tree_cpu_seconds(int(child.name))
            except OSError:
                pass
    return total


def run(label: str, url: str, clients: int, rounds: int, servers: int = 1, workers: int = 1) -> None:
    plan = prepare(url)
    # ``servers`` processes on one store, as behind a load balancer: each keeps its own cached
    # state and catches up from the others' writes (a few events) before it answers
    ports = [free_port() for _ in range(servers)]
    procs = [subprocess.Popen([sys.executable, "-m", "bansha.cli.cli", "serve", "--db", url, "--port", str(port),
                               "--workers", str(workers)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env={**os.environ, "BANSHA_LOG": ""}) for port in ports]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    try:
        import httpx

        for base in bases:
            for _ in range(100):
                try:
                    httpx.get(base + "/", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
        seats = list(plan.values())
        lat_post: list[float] = []
        lat_get: list[float] = []
        errors: list[int] = []

        async def main():
            await asyncio.gather(*(client(bases[i % servers], *seats[i % len(seats)], rounds, lat_post, lat_get, errors)
                                   for i in range(clients)))

        # the floor, in the same run: the server's CPU for its smallest page (GET /, a
        # template without a game), one client, one request at a time
        floor_n = 200
        with httpx.Client(base_url=bases[0]) as c:
            c0 = tree_cpu_seconds(procs[0].pid)
            for _ in range(floor_n):
                c.get("/")
            floor = (tree_cpu_seconds(procs[0].pid) - c0) / floor_n

        cpu0 = sum(tree_cpu_seconds(p.pid) for p in procs)
        client_cpu0 = time.process_time()
        t = time.perf_counter()
        asyncio.run(main())
        wall = time.perf_counter() - t
        cpu = sum(tree_cpu_seconds(p.pid) for p in procs) - cpu0
        client_cpu = time.process_time() - client_cpu0
        n = len(lat_post) + len(lat_get)
        load = os.getloadavg()[0]
        print(f"{label}: {clients} clients on {len(seats)} seats, {servers} server(s) × {workers} worker(s), {n} requests in "
              f"{wall:.1f} s = {n / wall:.0f} req/s; submission p50 {pct(lat_post, .5):.1f} ms p99 "
              f"{pct(lat_post, .99):.1f} ms; read p50 {pct(lat_get, .5):.1f} ms p99 {pct(lat_get, .99):.1f} ms; "
              f"server CPU {cpu / n * 1000:.2f} ms/request = {cpu / n / floor:.1f} × the floor "
              f"(GET /: {floor * 1000:.2f} ms); the clients' CPU {client_cpu / n * 1000:.2f} ms/request; "
              f"errors {len(errors)}; load average {load:.1f}")
        if errors:
            print("first error:", errors[0])
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pg", default=os.environ.get("BANSHA_TEST_PG"))
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--servers", type=int, default=1, help="server processes on the one store (clients spread over them)")
    ap.add_argument("--workers", type=int, default=1, help="bansha serve --workers of each server")
    ap.add_argument("--no-sqlite", action="store_true")
    a = ap.parse_args()
    if not a.no_sqlite:
        run("SQLite", str(Path(tempfile.mkdtemp()) / "bench.db"), a.clients, a.rounds, a.servers, a.workers)
    if a.pg:
        schema = "bench_" + uuid.uuid4().hex[:8]
        import psycopg

        with psycopg.connect(a.pg, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        sep = "&" if "?" in a.pg else "?"
        try:
            run("PostgreSQL", f"{a.pg}{sep}options=-csearch_path%3D{schema}", a.clients, a.rounds, a.servers, a.workers)
        finally:
            with psycopg.connect(a.pg, autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA {schema} CASCADE")


if __name__ == "__main__":
    main()
