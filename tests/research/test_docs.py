"""docs/research.md and the research modules name only things that exist."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "research.md"
RESEARCH = ROOT / "src" / "goldfields" / "research"
SOURCES = [DOCS, *sorted(RESEARCH.glob("*.py")), ROOT / "examples" / "train_digging.py"]


def _resolve(name: str) -> object:
    """The object a dotted name ``goldfields.x.y.Name`` names: the longest importable module, then attributes."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError as err:
            if err.name is not None and not err.name.startswith("goldfields"):
                pytest.skip(f"{err.name} is not installed")
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj
    raise ModuleNotFoundError(name)


_NAMES = sorted({m for path in SOURCES for m in re.findall(r"goldfields(?:\.[A-Za-z_]\w*)+", path.read_text())})


@pytest.mark.parametrize("name", _NAMES)
def test_every_dotted_goldfields_name_in_the_research_docs_and_docstrings_exists(name):
    # goldfields.digger.timing.TimeModel was once cited for goldfields.clocks.TimeModel.
    assert _resolve(name) is not None


def _imports_in_code_blocks() -> list[str]:
    blocks = re.findall(r"```python\n(.*?)```", DOCS.read_text(), flags=re.S)
    return [line.strip().split("  #")[0] for block in blocks for line in block.splitlines()
            if re.match(r"\s*(from \S+ import |import )", line)]


@pytest.mark.parametrize("line", _imports_in_code_blocks())
def test_every_import_in_the_docs_code_runs(line):
    try:
        exec(line, {})
    except ModuleNotFoundError as err:
        if err.name is not None and not err.name.startswith("goldfields"):
            pytest.skip(f"{err.name} is not installed")
        raise
