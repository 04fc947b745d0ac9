from __future__ import annotations

import math

import pytest

from goldfields.arena import bootstrap_rates, bradley_terry_elo, wilson


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


def test_deal_bootstrap_keeps_the_duplicate_pairing() -> None:
    # Two entrants, 40 deals of two games: entrant 0 wins both games of 24 deals and
    # one game of the 16 others. Per deal the two entrants' wins add up to 2.
    wins = [[2.0, 0.0]] * 24 + [[1.0, 1.0]] * 16
    games = [[2, 2]] * 40
    (low0, high0), (low1, high1) = bootstrap_rates(wins, games, seed=7)
    rate = 64 / 80
    assert low0 < rate < high0
    assert low1 == pytest.approx(1 - high0) and high1 == pytest.approx(1 - low0)
    # Games of a deal move together, and the deals vary less than independent games would.
    w_low, w_high = wilson(64, 80)
    assert high0 - low0 < w_high - w_low
    # Seeded: the same results give the same interval.
    assert bootstrap_rates(wins, games, seed=7) == [(low0, high0), (low1, high1)]


def test_deal_bootstrap_edge_cases() -> None:
    assert bootstrap_rates([[1.0, 1.0]], [[2, 2]], seed=0) == [(0.5, 0.5), (0.5, 0.5)]  # one deal: no spread
    assert bootstrap_rates([], [], seed=0) == []
    assert bootstrap_rates([[2.0, 0.0]] * 5, [[2, 2]] * 5, seed=0) == [(1.0, 1.0), (0.0, 0.0)]
