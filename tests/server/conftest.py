"""Fixtures for the server tests: a real server process per test, on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from databases import BACKENDS, fresh_postgres_database
from live import LiveServer


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path | str]:
    """The server's database: an SQLite file, or the URL of a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield tmp_path / "goldfields.db"
    else:
        with fresh_postgres_database() as url:
            yield url


@pytest.fixture
def server(database: Path | str) -> Iterator[LiveServer]:
    live = LiveServer(database).start()
    yield live
    live.stop()
