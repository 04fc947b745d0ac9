"""Digging (Reiner Knizia, Hexagames 1990): the rules engine and its notation."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .actions import NUM_ACTIONS
from .cards import CODES
from .options import DiggingOptions
from .state import DiggingState, Mine, mine_points


def new_game(
    players: int = 4,
    partnership: bool | None = None,
    *,
    seed: int | None = None,
    rng: random.Random | None = None,
    deck: Sequence[int | str] | None = None,
    options: DiggingOptions | None = None,
    dealer: int | None = None,
) -> DiggingState:
    """A game with its first hand dealt: from ``deck`` (top card first) if given,
    else shuffled with ``rng`` (or a generator seeded with ``seed``)."""
    state = DiggingState(players, partnership, options, dealer)
    if deck is None:
        deck = state.sample_chance(rng if rng is not None else random.Random(seed))
    state.apply_chance(deck)
    return state


__all__ = ["CODES", "NUM_ACTIONS", "DiggingOptions", "DiggingState", "Mine", "mine_points", "new_game"]
