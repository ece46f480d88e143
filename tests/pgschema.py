"""A fresh schema of the PostgreSQL database BANSHA_TEST_PG names, for one test: its URL (with
``search_path`` set to it), dropped afterwards. Without BANSHA_TEST_PG the test is skipped
locally and fails under CI, which starts a server (.ci/run)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest


@contextmanager
def pg_schema(prefix: str = "t") -> Iterator[str]:
    base = os.environ.get("BANSHA_TEST_PG", "")
    if not base:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("CI is set but BANSHA_TEST_PG is not: the PostgreSQL tests would be skipped")
        pytest.skip("BANSHA_TEST_PG is not set")
    import psycopg

    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"{base}{'&' if '?' in base else '?'}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
