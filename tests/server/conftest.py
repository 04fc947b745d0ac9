"""Fixtures for the server tests: a real server process per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from live import LiveServer


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path / "goldfields.db").start()
    yield live
    live.stop()
