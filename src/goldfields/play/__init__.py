"""Playing games: the match runner shared by the arena, the terminal front end and the server."""

from __future__ import annotations

from .match import Stamp, StepHook, play_game

__all__ = ["Stamp", "StepHook", "play_game"]
