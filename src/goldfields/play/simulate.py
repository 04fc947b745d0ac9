"""Simulated play with a policy over the full state: for tests, benchmarks and soaks.

A policy here sees the whole state (it is not a player, so hidden
information does not apply); chance is drawn and time is stamped by the
:class:`~goldfields.play.driver.Driver`, as in every other game loop.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..core.definition import Stamper
from ..core.game import Event, GameState
from .driver import DEFAULT_CLOCK, Driver, _GameClock

Policy = Callable[[GameState, random.Random], int]


def random_policy(state: GameState, rng: random.Random) -> int:
    """A uniformly random legal action."""
    legal = state.legal_actions()
    return legal[rng.randrange(len(legal))]


class Simulation:
    """A driver whose every decision comes from ``policy`` (drawing from ``rng``)."""

    def __init__(
        self,
        state: GameState,
        rng: random.Random,
        policy: Policy = random_policy,
        clock: Stamper | _GameClock | None = DEFAULT_CLOCK,
    ) -> None:
        self.rng = rng
        self.policy = policy
        self.driver = Driver(state, [None] * state.num_players, rng, [rng] * state.num_players, clock=clock)

    def step(self) -> list[Event]:
        """One step: the chance outcome due, or the policy's decision at the clock's time."""
        driver = self.driver
        if driver.state.is_chance_node():
            return driver.chance()
        return driver.apply(self.policy(driver.state, self.rng))


def simulate(
    state: GameState,
    rng: random.Random,
    policy: Policy = random_policy,
    clock: Stamper | _GameClock | None = DEFAULT_CLOCK,
    max_turns: int | None = None,
) -> GameState:
    """Play ``state`` on (in place) until the game ends, or ``max_turns`` more
    turns have started where the state counts turns (Digger's ``turn``)."""
    sim = Simulation(state, rng, policy, clock)
    turn0: int = getattr(state, "turn", 0)
    while not state.is_terminal() and (max_turns is None or getattr(state, "turn", 0) < turn0 + max_turns):
        sim.step()
    return state
