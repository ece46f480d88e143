"""Run a simulation: game i is dealt and played with seed S+i, in chunks, in one process, in
K processes (``--jobs``) or as Ray tasks (``--ray``); the records come back in seed order, so the
result does not depend on how the games were spread."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .play import play_chunk

CHUNK = 25


def chunks(seed: int, games: int, size: int = CHUNK) -> list[list[int]]:
    seeds = list(range(seed, seed + games))
    return [seeds[i:i + size] for i in range(0, len(seeds), size)]


def run(ruleset: str, seats: int, games: int, seed: int, policy: str, options: dict[str, Any],
        day_limit: int, jobs: int = 1, ray: str | bool | None = None,
        progress: Callable[[int], None] | None = None) -> list[dict]:
    parts = chunks(seed, games)
    args = [(ruleset, seats, c, policy, options, day_limit) for c in parts]
    out: list[dict] = []
    if ray is not None and ray is not False:
        import os

        # under `uv run`, Ray would start each worker with `uv run` again (a runtime
        # environment that syncs the workspace per worker and, on a busy machine, never
        # starts): the workers use this interpreter instead
        os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")
        import ray as _ray

        if not _ray.is_initialized():
            _ray.init(address=ray or None, include_dashboard=False, log_to_driver=False)
        task = _ray.remote(play_chunk)
        refs = [task.remote(*a) for a in args]
        for ref in refs:  # in seed order
            recs = _ray.get(ref)
            out += recs
            if progress:
                progress(len(recs))
        return out
    if jobs <= 1 or len(parts) == 1:
        for a in args:
            recs = play_chunk(*a)
            out += recs
            if progress:
                progress(len(recs))
        return out
    import multiprocessing as mp

    with mp.get_context("fork").Pool(jobs) as pool:
        for recs in pool.imap(_star, args):  # imap keeps the order of the chunks
            out += recs
            if progress:
                progress(len(recs))
    return out


def _star(a):
    return play_chunk(*a)
