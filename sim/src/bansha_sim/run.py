"""Run a simulation: game i is dealt and played with seed S+i, in chunks, in one process, in
K processes (``--jobs``) or as Ray tasks (``--ray``); the records come back in seed order, so the
result does not depend on how the games were spread."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .play import play_chunk

CHUNK = 25
#: chunks per worker at least, so that the last chunks, when one worker may wait for another,
#: are short (a whole 25-game chunk of qisha-xia is about half a CPU-second)
CHUNKS_PER_JOB = 16


def chunks(seed: int, games: int, size: int = CHUNK) -> list[list[int]]:
    seeds = list(range(seed, seed + games))
    return [seeds[i:i + size] for i in range(0, len(seeds), size)]


def chunk_size(games: int, workers: int) -> int:
    return max(1, min(CHUNK, -(-games // (workers * CHUNKS_PER_JOB))))


def warm(ruleset: str, policy: str) -> None:
    """Load, in the parent, what every forked worker would otherwise load again on its own: the
    logging set-up (structlog's import), the policy (an entry-point scan), the ruleset."""
    import structlog
    from bansha.engine.registry import ruleset_for

    from .play import _manifest, _policy

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(30))
    _policy(policy)
    ruleset_for(_manifest(ruleset))


def run(ruleset: str, seats: int, games: int, seed: int, policy: str, options: dict[str, Any],
        day_limit: int, jobs: int = 1, ray: str | bool | None = None,
        progress: Callable[[int], None] | None = None) -> list[dict]:
    forked = (ray is None or ray is False) and jobs > 1
    parts = chunks(seed, games, chunk_size(games, jobs) if forked else CHUNK)
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

    warm(ruleset, policy)
    with mp.get_context("fork").Pool(jobs) as pool:
        for recs in pool.imap(_star, args):  # imap keeps the order of the chunks
            out += recs
            if progress:
                progress(len(recs))
        # let the workers exit (rather than be killed on leaving the block): their CPU time
        # is then the parent's children's time, which bench_sim.py reads
        pool.close()
        pool.join()
    return out


def _star(a):
    return play_chunk(*a)


def run_specs(specs: list[tuple], jobs: int = 1, ray: str | bool | None = None) -> list[list[dict]]:
    """Several runs at once, each ``(board, seats, seeds, policy, options, day_limit)``: their
    chunks share the workers (or the Ray cluster), and each run's records come back in its seed
    order (``bansha balance`` plays a round of every candidate still in the race so)."""
    total = sum(len(s[2]) for s in specs)
    size = chunk_size(total, jobs) if jobs > 1 and not ray else CHUNK
    args: list[tuple] = []
    owner: list[int] = []
    for i, (board, seats, seeds, policy, options, days) in enumerate(specs):
        seeds = list(seeds)
        for k in range(0, len(seeds), size):
            args.append((board, seats, seeds[k:k + size], policy, options, days))
            owner.append(i)
    out: list[list[dict]] = [[] for _ in specs]
    if ray is not None and ray is not False:
        import os

        os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")  # see run()
        import ray as _ray

        if not _ray.is_initialized():
            _ray.init(address=ray or None, include_dashboard=False, log_to_driver=False)
        task = _ray.remote(play_chunk)
        refs = [task.remote(*a) for a in args]
        for i, ref in zip(owner, refs, strict=True):
            out[i] += _ray.get(ref)
        return out
    if jobs <= 1 or len(args) == 1:
        for i, a in zip(owner, args, strict=True):
            out[i] += play_chunk(*a)
        return out
    import multiprocessing as mp

    for board, policy in {(a[0], a[3]) for a in args}:
        warm(board, policy)
    with mp.get_context("fork").Pool(jobs) as pool:
        for i, recs in zip(owner, pool.imap(_star, args), strict=True):
            out[i] += recs
        pool.close()
        pool.join()
    return out
