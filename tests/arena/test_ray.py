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


def test_training_on_ray_stopped_part_way_keeps_the_first_games_and_goes_on_to_the_local_network(
    tmp_path: Path, local_ray: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("torch")
    import numpy as np

    from goldfields.learn import loop
    from goldfields.learn.loop import Plan, run
    from goldfields.learn.selfplay import Examples
    from goldfields.learn.trainer import Fit

    plan = Plan(rounds=1, games=4, search=8, hidden=(8,), eval_games=2, tables=((2, False),), jobs=1,
                fit=Fit(epochs=1), seed=3)  # fmt: skip
    run(plan, tmp_path / "local")
    whole = Examples.load(tmp_path / "local" / "examples-01.npz").split()
    monkeypatch.setattr(loop, "SAVE_EVERY", 0.0)
    on_ray = Plan(**{**plan.__dict__, "ray": "auto"})
    out = tmp_path / "ray"
    heard: list[int] = []

    def stop_after_two_games() -> None:
        heard.append(1)
        if len(heard) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(on_ray, out, on_game=stop_after_two_games)
    games = out / "examples-01.npz"
    kept = Examples.load(games).split() if games.exists() else []  # none, if game 0 was still playing
    # Ray finishes games in any order; what is kept is the first ones, as local processes played them
    # (which games a stop catches in order depends on the cluster: tests/arena/test_tournament.py
    # hands InOrder the results out of order).
    assert len(kept) <= 2 and not (out / "round-01.npz").exists()
    for a, b in zip(kept, whole, strict=False):
        assert np.array_equal(a.x, b.x) and np.array_equal(a.policy, b.policy)
    run(Plan(**{**on_ray.__dict__, "examples_from": str(out)}), out)
    with np.load(tmp_path / "local" / "round-01.npz") as a, np.load(out / "round-01.npz") as b:
        for key in a.files:
            np.testing.assert_array_equal(a[key], b[key])
