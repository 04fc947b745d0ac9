"""Simulated play: a policy chooses, the simulated clock stamps, the caller's generator rolls.

This is the loop of the arena, the benchmarks and the property tests: the
engine never draws a number or reads a clock itself, so something outside it
has to resolve chance and stamp time (RULINGS G4).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..core.game import Event
from .state import DiggerState
from .timing import DEFAULT_TIME_MODEL, TimeModel

Policy = Callable[[DiggerState, random.Random], int]


def random_policy(state: DiggerState, rng: random.Random) -> int:
    """A uniformly random legal action."""
    legal = state.legal_actions()
    return legal[rng.randrange(len(legal))]


def step(state: DiggerState, policy: Policy, rng: random.Random, model: TimeModel = DEFAULT_TIME_MODEL) -> list[Event]:
    """One step: a chance outcome drawn with ``rng``, or the policy's action at the model's time."""
    if state.is_chance_node():
        return state.apply_chance(state.sample_chance(rng))
    action = policy(state, rng)
    return state.apply_action(action, model.stamp(state, action, rng))


def play(
    state: DiggerState,
    rng: random.Random,
    policy: Policy = random_policy,
    model: TimeModel = DEFAULT_TIME_MODEL,
    max_turns: int | None = None,
) -> DiggerState:
    """Play ``state`` on (in place) until the game ends or ``max_turns`` more turns have started."""
    stop_at = None if max_turns is None else state.turn + max_turns
    while not state.is_terminal() and (stop_at is None or state.turn < stop_at):
        step(state, policy, rng, model)
    return state
