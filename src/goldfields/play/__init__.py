"""Playing games: the one driver shared by the arena, the demo, the terminal and the research adapters."""

from __future__ import annotations

from .driver import DEFAULT_CLOCK, ChanceKey, Driver, StepHook, play_game

__all__ = ["DEFAULT_CLOCK", "ChanceKey", "Driver", "StepHook", "play_game"]
