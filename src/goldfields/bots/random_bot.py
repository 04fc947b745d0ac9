"""The baseline: a uniformly random legal action, for any game."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from ..core.game import SeatView
from .base import Bot, BotError, Budget


@dataclass
class RandomBot(Bot):
    name: ClassVar[str] = "random"

    def act(self, view: SeatView, rng: random.Random, budget: Budget | None = None) -> int:
        legal = view.legal_actions()
        if not legal:
            raise BotError(f"seat {view.seat} was asked to act but has no legal action (not its turn?)")
        return legal[rng.randrange(len(legal))]
