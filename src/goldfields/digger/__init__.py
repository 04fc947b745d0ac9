"""Digger (Roberto Fraga): the rules engine, its notation, its clocks and its records."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .actions import NUM_ACTIONS, ROLL, STOP, TIMEOUT, steal_action, take_action
from .crates import DEFAULT_TABLE, CrateTable
from .dice import FACES, ROLL_OUTCOMES
from .options import DiggerOptions
from .simulate import play, random_policy, step
from .state import DiggerState
from .timing import DEFAULT_TIME_MODEL, RealClock, TimeModel


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
    "DEFAULT_TABLE", "DEFAULT_TIME_MODEL", "FACES", "NUM_ACTIONS", "ROLL", "ROLL_OUTCOMES", "STOP", "TIMEOUT",
    "CrateTable", "DiggerOptions", "DiggerState", "RealClock", "TimeModel", "new_game", "play",
    "random_policy", "steal_action", "step", "take_action",
]  # fmt: skip
