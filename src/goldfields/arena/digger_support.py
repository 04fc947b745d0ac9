"""Digger in the arena: the table and the simulated clock.

The arena's clock is the default :class:`~goldfields.digger.timing.TimeModel`
with a 20% jitter on every cost, so that a digger cannot know exactly where
the hourglass is and a greedy turn does run out of time. The jitter is drawn
from the match runner's stamping generator, itself derived from the deal's
chance seed, so games replay exactly (the record stores every time).
"""

from __future__ import annotations

import random

from ..core.game import GameState
from ..play.match import Stamp

ARENA_JITTER = 0.2


def new_digger_state(players: int) -> GameState:
    from ..digger import new_game

    return new_game(players)


def digger_stamper() -> Stamp:
    from ..digger import TimeModel

    model = TimeModel(jitter=ARENA_JITTER)

    def stamp(state: GameState, action: int, rng: random.Random) -> float | None:
        return model.stamp(state, action, rng)  # type: ignore[arg-type]

    return stamp
