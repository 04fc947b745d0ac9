from __future__ import annotations

import random

import pytest

from goldfields.bots import Budget
from goldfields.bots.ismcts import ISMCTSBot


class FakeClock:
    """Advances a millisecond on every reading: a search sees time pass, deterministically."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.001
        return self.now


def test_iteration_budget_is_exact(positions) -> None:
    state = positions(4, True, 1, seed=5)[0]
    bot = ISMCTSBot(iterations=123)
    root = bot.search(state.view(state.current_player), random.Random(0), bot.budget())
    assert root.n == 123 == bot.last_iterations


def test_seconds_budget_uses_the_injected_clock_and_is_deterministic(positions) -> None:
    # A position where more than one move is worth searching (not one after a round of passes).
    state = next(s for s in positions(4, True, 10, seed=6) if s.observation(None)["passes_in_a_row"] < 4)
    view = state.view(state.current_player)
    runs = []
    for _ in range(2):
        bot = ISMCTSBot(seconds=0.05, clock=FakeClock())
        runs.append((bot.act(view, random.Random(3)), bot.last_iterations))
    assert runs[0] == runs[1]
    assert runs[0][1] == 50  # one clock reading per iteration after the start


def test_both_limits_whichever_first(positions) -> None:
    state = positions(2, False, 1, seed=7)[0]
    bot = ISMCTSBot(iterations=10, seconds=100.0, clock=FakeClock())
    bot.act(state.view(state.current_player), random.Random(0))
    assert bot.last_iterations == 10
    assert Budget(seconds=0.01, clock=FakeClock()).stopper(10)(0) is False


def test_budget_validation() -> None:
    with pytest.raises(ValueError):
        Budget(iterations=0)
    with pytest.raises(ValueError):
        Budget(seconds=-1)
