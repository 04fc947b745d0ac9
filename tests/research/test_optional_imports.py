"""goldfields imports without the research libraries; each adapter says what to install."""

from __future__ import annotations

import subprocess
import sys

import pytest

BLOCK = "import sys\nfor name in {names!r}:\n    sys.modules[name] = None\n"


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_goldfields_imports_without_research_libraries():
    code = BLOCK.format(names=["pyspiel", "pettingzoo", "gymnasium", "numpy"])
    code += (
        "import goldfields, goldfields.research, goldfields.research.tables, goldfields.digging, goldfields.digger\n"
    )
    code += "print('ok')"
    result = _run(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


@pytest.mark.parametrize(
    ("module", "blocked", "pip"),
    [
        ("goldfields.research.openspiel_games", "pyspiel", "open-spiel"),
        ("goldfields.research.observers", "pyspiel", "open-spiel"),
        ("goldfields.research.pettingzoo_env", "pettingzoo", "pettingzoo"),
        ("goldfields.research.gymnasium_env", "gymnasium", "gymnasium"),
        ("goldfields.research.encoding", "numpy", "numpy"),
        ("goldfields.research.vector_env", "gymnasium", "gymnasium"),
        ("goldfields.research.sb3", "stable_baselines3", "stable-baselines3"),
    ],
)
def test_missing_library_gives_a_clear_import_error(module, blocked, pip):
    code = BLOCK.format(names=[blocked])
    code += f"try:\n    import {module}\nexcept ImportError as err:\n    print(err)\nelse:\n    print('imported')"
    result = _run(code)
    assert result.returncode == 0, result.stderr
    assert f"pip install {pip}" in result.stdout
