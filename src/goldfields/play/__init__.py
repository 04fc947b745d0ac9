"""Playing games: the one driver shared by the arena, the demo, the terminal, the research adapters and the server."""

from __future__ import annotations

from .driver import DEFAULT_CLOCK, ChanceKey, Driver, StepHook, play_game

__all__ = ["DEFAULT_CLOCK", "ChanceKey", "Driver", "StepHook", "play_game"]
