"""The databases the server tests run on: an SQLite file, and a fresh PostgreSQL database.

PostgreSQL comes from ``GOLDFIELDS_TEST_POSTGRES``, a URL of a server where the
tests may create databases (``postgresql+psycopg://user:pw@127.0.0.1:5432``);
scripts/test starts Debian's postgresql on localhost and sets it. Without it
the PostgreSQL variants are skipped, saying why, unless
``GOLDFIELDS_REQUIRE_POSTGRES=1`` (set by scripts/test once PostgreSQL is up),
where a missing server is a failure. Redis, for the tests of several server
processes, comes from ``GOLDFIELDS_TEST_REDIS`` in the same way.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import make_url

ENV = "GOLDFIELDS_TEST_POSTGRES"
REDIS_ENV = "GOLDFIELDS_TEST_REDIS"
BACKENDS = ("sqlite", "postgresql")


def postgres_or_skip() -> str:
    base = os.environ.get(ENV)
    if not base:
        if os.environ.get("GOLDFIELDS_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"{ENV} is not set, but PostgreSQL is required")
        pytest.skip(f"no PostgreSQL: set {ENV} (scripts/test starts one)")
    return base


@contextmanager
def fresh_postgres_database() -> Iterator[str]:
    """A new, empty PostgreSQL database for one test (dropped afterwards): its SQLAlchemy URL."""
    import psycopg

    base = make_url(postgres_or_skip())
    admin = base.set(drivername="postgresql", database="postgres").render_as_string(hide_password=False)
    name = f"goldfields_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield base.set(drivername="postgresql+psycopg", database=name).render_as_string(hide_password=False)
    finally:
        _drop(admin, name)


def _drop(admin: str, name: str, patience: float = 120.0) -> None:
    """Drop database ``name``, waiting for an autovacuum worker that is still in it.

    ``WITH (FORCE)`` ends the test's own connections, but PostgreSQL 15 refuses to end an
    autovacuum worker (it belongs to no role) unless the role is in ``pg_signal_backend``, which
    scripts/test grants. Without that grant, a busy machine's autovacuum can still be in a
    just-used database: it leaves within moments, so the drop is tried again until it has.
    """
    import psycopg

    deadline = time.monotonic() + patience
    while True:
        try:
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            return
        except psycopg.errors.InsufficientPrivilege:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def redis_or_skip() -> str:
    """The Redis URL the cluster tests use (``GOLDFIELDS_TEST_REDIS``, set by scripts/test)."""
    url = os.environ.get(REDIS_ENV)
    if not url:
        if os.environ.get("GOLDFIELDS_REQUIRE_REDIS") == "1":
            pytest.fail(f"{REDIS_ENV} is not set, but Redis is required")
        pytest.skip(f"no Redis: set {REDIS_ENV} (scripts/test starts one)")
    return url
