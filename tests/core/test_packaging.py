"""`pip install goldfields` is the engines, records, bots and the command line, without the server's stack.

A fresh virtual environment per test run would cost minutes; instead a
subprocess makes the server's and the charts' libraries unimportable and
uses the core as a user of the plain install would.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXTRAS_ONLY = ("fastapi", "sqlalchemy", "uvicorn", "matplotlib", "starlette", "torch")

BLOCK = f"""
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {EXTRAS_ONLY!r}:
            raise ImportError(f"{{name}} is not installed (blocked by the test)")
sys.meta_path.insert(0, Block())
"""


def run_core(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", BLOCK + code, *args], capture_output=True, text=True, timeout=300, cwd=ROOT
    )


def test_the_core_dependencies_leave_the_server_and_the_charts_to_extras() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    core = " ".join(project["dependencies"])
    for name in EXTRAS_ONLY:
        assert name not in core
    extras = project["optional-dependencies"]
    assert {"server", "arena", "research", "cluster", "learn", "test"} <= set(extras)
    assert "torch==2.13.0" in extras["learn"]  # pinned: a CPU build here, where a newer one is a CUDA download
    assert any("fastapi" in d for d in extras["server"]) and any("matplotlib" in d for d in extras["arena"])


def test_the_command_line_bots_and_records_work_without_the_extras(tmp_path: Path) -> None:
    code = """
import json, random, sys
from goldfields.bots import make_bot
from goldfields.core import registry
from goldfields.play import play_game
from goldfields.records import replay
for game in registry.games():
    params = game.params()
    bots = [make_bot("heuristic", game.name) for _ in range(params.players)]
    final = play_game(lambda: game.new_state(params), bots, random.Random(2))
    assert replay(final.record())[1] == 0
from goldfields.cli.app import app
from typer.testing import CliRunner
result = CliRunner().invoke(app, ["--help"])
assert result.exit_code == 0, result.output
result = CliRunner().invoke(app, ["arena", "heuristic", "random", "-n", "4", "--jobs", "1", "-q",
                                   "--out", sys.argv[1]])
assert result.exit_code == 0, result.output
assert "bootstrap" in result.output.lower() or "95%" in result.output, result.output
result = CliRunner().invoke(app, ["serve"])
print(json.dumps({"serve_exit": result.exit_code, "serve_output": result.output}))
"""
    out = run_core(code, str(tmp_path / "arena"))
    assert out.returncode == 0, out.stderr
    # The arena runs and saves its games without matplotlib; only the chart is missing.
    assert (tmp_path / "arena" / "games.csv").exists() and not (tmp_path / "arena" / "chart.png").exists()
    serve = json.loads(out.stdout.strip().splitlines()[-1])
    # Asking for the server without its extra is a clear error, not a traceback.
    assert serve["serve_exit"] == 2
    assert "goldfields[server]" in serve["serve_output"] + out.stdout
