"""The Digging soak stays out of the default run: its tests (marked ``soak``) run
only when the marker expression asks for them, e.g. ``pytest -m soak tests/digging``."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "soak" in (config.option.markexpr or ""):
        return  # -m soak runs it; -m "not soak" has deselected it already
    skip = pytest.mark.skip(reason="long soak: run with -m soak")
    for item in items:
        if item.get_closest_marker("soak") and HERE in item.path.parents:
            item.add_marker(skip)
