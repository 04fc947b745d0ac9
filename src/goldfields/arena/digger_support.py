"""Digger in the arena: the table and the simulated clock.

The arena's clock is Digger's simulated clock with a 20% jitter on every
cost, so that a digger cannot know exactly where the hourglass is and a greedy
turn does run out of time. The jitter is drawn from the driver's stamping
generator, itself derived from the deal's chance seed, so games replay
exactly (the record stores every time).
"""

from __future__ import annotations

from ..core.definition import Stamper
from ..core.game import GameState
from ..core.registry import get

ARENA_JITTER = 0.2


def new_digger_state(players: int) -> GameState:
    game = get("digger")
    return game.new_state(game.params(players=players))


def digger_stamper() -> Stamper | None:
    return get("digger").simulated_clock(ARENA_JITTER)
