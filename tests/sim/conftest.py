"""The simulator's optional extras (bansha-sim[ray], bansha-sim[plot]): a test that needs one
skips where it is not installed, but fails in CI (CI=true), which installs every extra
(`uv sync --all-packages --all-extras`): a CI run must not pass without the Ray and --plot tests."""

from __future__ import annotations

import importlib
import os

import pytest


@pytest.fixture
def extra():
    """``extra(module, extra_name)``: the module, or a skip (a failure under CI)."""
    return _extra_or_skip


def _extra_or_skip(module: str, extra: str):
    try:
        return importlib.import_module(module)
    except ImportError:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"CI is set but {module} is not installed: the bansha-sim[{extra}] tests would be skipped")
        pytest.skip(f"{module} is not installed (uv sync --all-packages --all-extras installs bansha-sim[{extra}])")
