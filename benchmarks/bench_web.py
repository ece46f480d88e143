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


def prepare(url: str, tokens_file: Path) -> dict[str, str]:
    from bansha.engine import SILENT
    from bansha.model import ResolveEvent
    from bansha.store import open_store
    from bansha_web.logic import usable_skills
    from bansha_web.tokens import Tokens
    from webhelpers import setup_of

    store = open_store(url, logger=lambda g: SILENT)
    store.create("bench", setup_of())
    while not store.load("bench").label == "night 20":
        store.append("bench", lambda g: ResolveEvent(phase=g.label))
    g = store.load("bench")
    links = Tokens(tokens_file).new_players("bench", list(g.players))
    plan = {}
    for name in g.players:
        skills = [s for s in usable_skills(g, name) if not s["immediate"] and s["min"] == 1]
        if skills:
            s = skills[0]
            plan[name] = (links[name], s["name"], next(t for t in s["targets"] if t != name))
    store.close()
    return plan


async def client(base, token, skill, target, rounds, lat_post, lat_get, errors):
    import httpx

    async with httpx.AsyncClient(base_url=base, timeout=30) as c:
        page = (await c.get(f"/p/{token}")).text
        csrf = re.search(r'name="_csrf_token" value="([^"]+)"', page).group(1)
        for _ in range(rounds):
            t = time.perf_counter()
            r = await c.get(f"/p/{token}/view")
            lat_get.append(time.perf_counter() - t)
            for path, data in ((f"/p/{token}/act", {"skill": skill, "target": target}), (f"/p/{token}/unact", {"skill": skill})):
                t = time.perf_counter()
                r = await c.post(path, data={**data, "_csrf_token": csrf}, headers={"HX-Request": "true"})
                lat_post.append(time.perf_counter() - t)
                if r.status_code not in (200, 422):
                    errors.append(r.status_code)


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000


def run(label: str, url: str, clients: int, rounds: int) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="bench-web-"))
    tokens_file = tmp / "tokens.json"
    plan = prepare(url, tokens_file)
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "bansha.cli", "serve", "--db", url, "--port", str(port),
                             "--tokens", str(tokens_file)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "BANSHA_LOG": ""})
    base = f"http://127.0.0.1:{port}"
    try:
        import httpx

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
            await asyncio.gather(*(client(base, *seats[i % len(seats)], rounds, lat_post, lat_get, errors)
                                   for i in range(clients)))

        t = time.perf_counter()
        asyncio.run(main())
        wall = time.perf_counter() - t
        n = len(lat_post) + len(lat_get)
        print(f"{label}: {clients} clients on {len(seats)} seats, {n} requests in {wall:.1f} s = {n / wall:.0f} req/s; "
              f"submission p50 {pct(lat_post, .5):.0f} ms p99 {pct(lat_post, .99):.0f} ms; "
              f"read p50 {pct(lat_get, .5):.0f} ms p99 {pct(lat_get, .99):.0f} ms; errors {len(errors)}")
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pg", default=os.environ.get("BANSHA_TEST_PG"))
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=20)
    a = ap.parse_args()
    run("SQLite", str(Path(tempfile.mkdtemp()) / "bench.db"), a.clients, a.rounds)
    if a.pg:
        schema = "bench_" + uuid.uuid4().hex[:8]
        import psycopg

        with psycopg.connect(a.pg, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        sep = "&" if "?" in a.pg else "?"
        try:
            run("PostgreSQL", f"{a.pg}{sep}options=-csearch_path%3D{schema}", a.clients, a.rounds)
        finally:
            with psycopg.connect(a.pg, autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA {schema} CASCADE")


if __name__ == "__main__":
    main()
