"""The baseline: a uniformly random legal action, for any game."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from ..core.game import SeatView
from .base import Bot, Budget, legal_actions_of


@dataclass
class RandomBot(Bot):
    name: ClassVar[str] = "random"
    quick: ClassVar[bool] = True

    def act(self, view: SeatView, rng: random.Random, budget: Budget | None = None) -> int:
        legal = legal_actions_of(view)
        return legal[rng.randrange(len(legal))]
