"""Random walks through a game: the positions property tests start from."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TypeVar

from goldfields.core.game import GameState

State = TypeVar("State", bound=GameState)


def random_walk(
    state: State, rng: random.Random, steps: int | None = None, count_chance: bool = True,
    choose: Callable[[State, list[int]], int] | None = None,
) -> State:
    """Play ``state`` on with random moves and chance outcomes, all drawn from ``rng``, until the
    game ends or ``steps`` steps were taken (None: to the end). Chance steps (deals, rolls) count
    unless ``count_chance`` is off, so that ``steps=0`` can stop before the first deal.
    ``choose(state, legal)`` picks the moves instead, where a walk needs games of a kind."""
    taken = 0
    while not state.is_terminal() and (steps is None or taken < steps):
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
            taken += count_chance
        else:
            legal = state.legal_actions()
            state.apply_action(choose(state, legal) if choose else legal[rng.randrange(len(legal))])
            taken += 1
    return state
