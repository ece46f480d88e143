"""--ray: the games as Ray tasks on a local Ray with 2 CPUs give the records --jobs 1 gives.
Skipped only when ray is not installed; fails then under CI, which installs the extra
(bansha-sim[ray], through `uv sync --all-packages --all-extras`)."""

import os

# before Ray is imported: under `uv run`, Ray would otherwise start each worker with `uv run`
# again (a runtime environment that, on a busy machine, never starts)
os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")


def test_ray_identical(extra):
    ray = extra("ray", "ray")
    from bansha_sim.run import run

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        a = run("mafia-basic", 9, 80, 11, "random", {"mafia": 2}, 30, ray="")
    finally:
        ray.shutdown()
    b = run("mafia-basic", 9, 80, 11, "random", {"mafia": 2}, 30, jobs=1)
    assert a == b
