"""Digger (Roberto Fraga): the rules engine, its notation and its records.

Clocks (simulated and real) live outside the engine, in :mod:`goldfields.clocks`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .actions import NUM_ACTIONS, ROLL, STOP, TIMEOUT, steal_action, take_action
from .crates import DEFAULT_TABLE, CrateTable
from .dice import FACES, ROLL_OUTCOMES
from .options import DiggerOptions
from .state import DiggerState


def new_game(
    players: int = 3,
    crates: str | Mapping[str, Any] | Sequence[str] = "white",
    options: DiggerOptions | None = None,
) -> DiggerState:
    """A game before its first roll: seat 0 digs first.

    ``crates`` is ``"white"`` (the same card for everyone), ``"black"`` (cards
    A, B, C... in seat order), ``{"black": ["A", "C", "E"]}`` or a list of
    letters, one different card per seat (G1).
    """
    return DiggerState(players, crates, options)


__all__ = [
    "DEFAULT_TABLE", "FACES", "NUM_ACTIONS", "ROLL", "ROLL_OUTCOMES", "STOP", "TIMEOUT",
    "CrateTable", "DiggerOptions", "DiggerState", "new_game", "steal_action", "take_action",
]  # fmt: skip
