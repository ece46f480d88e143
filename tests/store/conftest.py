"""The store suite runs on every backend: SQLite always, PostgreSQL when BANSHA_TEST_PG gives
a server's URL (.ci/run starts a throwaway one). In CI (CI=true) a missing URL fails the
PostgreSQL tests instead of skipping them: a CI run must not pass without them."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

PG = os.environ.get("BANSHA_TEST_PG", "")
TOY = str(Path(__file__).parent.parent / "kernel" / "toy.toml")
NAMES = ["甲", "乙", "丙", "丁", "戊", "己", "庚"]


def pg_url_or_skip() -> str:
    if not PG:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("CI is set but BANSHA_TEST_PG is not: the PostgreSQL store tests would be skipped")
        pytest.skip("BANSHA_TEST_PG is not set (a postgresql:// URL of a server to test against)")
    return PG


def with_schema(url: str, schema: str) -> str:
    """The URL with a search_path of its own: each test gets empty tables in the one server."""
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}options=-csearch_path%3D{schema}"


@pytest.fixture
def pg_url():
    """A postgresql:// URL whose tables are a fresh schema, dropped after the test."""
    import psycopg

    base = pg_url_or_skip()
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    yield with_schema(base, schema)
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path):
    """The URL of an empty store on each backend."""
    if request.param == "sqlite":
        return str(tmp_path / "games.db")
    return request.getfixturevalue("pg_url")


def toy_setup(seed: int = 3):
    from bansha.engine.deal import deal
    from bansha.engine.model import Setup
    from bansha.engine.registry import find_manifest, ruleset_for

    m = find_manifest(TOY)
    return Setup(ruleset=m.id, manifest=m, players=deal(ruleset_for(m), NAMES, seed), seed=seed)
