"""The training example (sb3-contrib's MaskablePPO on the vector environment), run for a few hundred steps."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("matplotlib")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_digging.py"


def test_the_training_example_trains_evaluates_and_plots(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("train_digging", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    png, out = tmp_path / "curve.png", tmp_path / "results.json"
    results = module.main(
        ["--steps", "256", "--envs", "4", "--n-steps", "32", "--batch-size", "64", "--epochs", "1",
         "--hidden", "32", "--curve-games", "4", "--eval-games", "6", "--png", str(png), "--json", str(out)]
    )
    assert png.stat().st_size > 0
    assert json.loads(out.read_text())["agent_steps"] == results["agent_steps"] >= 256
    for opponent in ("random", "heuristic"):
        final = results["final"][opponent]
        assert final["games"] == 6 and final["low"] - 1e-9 <= final["rate"] <= final["high"] + 1e-9
    assert len(results["curve"]) >= 2  # before training and at its end


def test_the_training_example_saves_its_curve_in_the_current_directory_not_over_the_docs_plot() -> None:
    spec = importlib.util.spec_from_file_location("train_digging", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # docs/img/learning_curve.png is the docs' plot of the documented run: a default run must leave it.
    assert Path(module.parse_args(["--minutes", "10", "--seed", "0"]).png) == Path("learning_curve.png")
