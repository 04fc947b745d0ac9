"""The same tournament on a Ray cluster: here a local Ray instance started by the test.

Skipped when ray is not installed, cannot start, or GOLDFIELDS_SKIP_RAY is set
(starting Ray takes some 10-20 seconds).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from goldfields.arena import GameSpec, Tournament, run_tournament

if os.environ.get("GOLDFIELDS_SKIP_RAY"):
    pytest.skip("GOLDFIELDS_SKIP_RAY is set", allow_module_level=True)

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray():
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    except Exception as err:  # pragma: no cover - depends on the machine
        pytest.skip(f"ray cannot start here: {err}")
    yield
    ray.shutdown()


def test_ray_gives_the_same_results_as_the_local_pool(tmp_path: Path, local_ray: None) -> None:
    spec = GameSpec.make("digging", 2)
    lineup = ("heuristic", "random")
    on_ray = Tournament(spec, lineup, games=4, seed=8, ray_address="auto", out=tmp_path / "ray")
    local = Tournament(spec, lineup, games=4, seed=8, jobs=1, out=tmp_path / "local")
    run_tournament(on_ray, progress=False)
    run_tournament(local, progress=False)
    assert (tmp_path / "ray" / "games.csv").read_text() == (tmp_path / "local" / "games.csv").read_text()
    assert len(list((tmp_path / "ray" / "records").glob("*.json"))) == 4


def test_training_on_ray_makes_the_same_network_as_local_processes(tmp_path: Path, local_ray: None) -> None:
    pytest.importorskip("torch")
    import numpy as np

    from goldfields.learn.loop import Plan, run
    from goldfields.learn.trainer import Fit

    plan = Plan(rounds=1, games=2, search=8, hidden=(8,), eval_games=2, tables=((2, False),), jobs=1,
                fit=Fit(epochs=1), seed=3)  # fmt: skip
    run(plan, tmp_path / "local")
    run(Plan(**{**plan.__dict__, "ray": "auto"}), tmp_path / "ray")
    with np.load(tmp_path / "local" / "round-01.npz") as a, np.load(tmp_path / "ray" / "round-01.npz") as b:
        for key in a.files:
            np.testing.assert_array_equal(a[key], b[key])
