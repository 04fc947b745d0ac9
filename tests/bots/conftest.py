"""Positions for bot tests: random playouts of every Digging table."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from goldfields.core.game import GameState
from goldfields.digging import DiggingOptions, new_game

TABLES = [(2, False), (3, False), (4, False), (4, True)]


def random_positions(
    players: int, partnership: bool, count: int, seed: int, options: DiggingOptions | None = None
) -> list[GameState]:
    """``count`` positions from random games (under rule ``options``) where the seat to move has a choice."""
    rng = random.Random(seed)
    out: list[GameState] = []
    while len(out) < count:
        state = new_game(players, partnership, seed=rng.randrange(1 << 30), options=options)
        stop = rng.randrange(5, 150)
        steps = 0
        while not state.is_terminal() and len(out) < count:
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(rng))
                continue
            if steps >= stop and len(state.legal_actions()) > 1:
                out.append(state.clone())
                stop = steps + rng.randrange(20, 120)
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return out


Positions = Callable[[int, bool, int, int], list[GameState]]


@pytest.fixture
def positions() -> Positions:
    return random_positions
