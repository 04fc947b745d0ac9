"""The maintainer's script that fits the Digger search's value model still runs."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "fit_digger_value.py"


def test_fit_script_produces_a_model_of_the_shape_the_search_reads() -> None:
    pytest.importorskip("scipy")
    spec = importlib.util.spec_from_file_location("fit_digger_value", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    from goldfields.bots.digger_search import VALUE_MODEL

    rows = module.positions(3, 12, seed=1)
    assert rows and all(len(r[0]) == 3 and abs(sum(r[4]) - 1.0) < 1e-9 for r in rows)
    params, train, test, uniform = module.fit(3, rows)
    assert len(params) == len(VALUE_MODEL[3])
    assert all(math.isfinite(x) for x in (*params, train, test))
    assert train <= uniform + 1e-6, "the fit is no worse than a uniform guess on its own data"
