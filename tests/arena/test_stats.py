from __future__ import annotations

import math

import pytest

from goldfields.arena import bradley_terry_elo, wilson


def test_wilson_known_values() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4)
    assert high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson(0, 20)
    assert low == 0.0 and high == pytest.approx(0.1611, abs=1e-4)
    assert wilson(20, 20)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_elo_from_a_win_rate() -> None:
    # 75% against one opponent: the ratings are ~ 400*log10(3) apart (less a little for the prior).
    results = [("a", "b", 1.0)] * 75 + [("a", "b", 0.0)] * 25
    elo = bradley_terry_elo(["a", "b"], results)
    gap = elo["a"] - elo["b"]
    assert 0.95 * 400 * math.log10(3) < gap < 400 * math.log10(3)
    assert (elo["a"] + elo["b"]) / 2 == pytest.approx(1500)


def test_elo_is_finite_for_a_clean_sweep_and_orders_a_chain() -> None:
    results = [("a", "b", 1.0)] * 10 + [("b", "c", 1.0)] * 10 + [("a", "c", 0.5)] * 0
    elo = bradley_terry_elo(["a", "b", "c"], results)
    assert elo["a"] > elo["b"] > elo["c"]
    assert all(math.isfinite(v) for v in elo.values())
    assert bradley_terry_elo(["solo"], []) == {"solo": 1500.0}
