"""What the server needs to know about each game, behind one small interface.

The server itself is game-agnostic: it stores steps, applies them through the
engine interface and sends each seat its own view. A :class:`TableGame` adds
the few game-specific pieces: building the initial state from a table's
configuration, writing a chance outcome as a storable step, turning what a
client sends into a complete move (Digger's dice and times are filled in here,
on the server, never by the client), and narrating events.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from ..core.game import Event, GameState
from ..digging import DiggingOptions, DiggingState
from ..digging.cards import CODES
from ..digging.narrate import event_text as digging_text


class ConfigError(ValueError):
    """A table configuration the game does not accept."""


class TableGame:
    name: ClassVar[str]
    realtime: ClassVar[bool] = False
    min_players: ClassVar[int]
    max_players: ClassVar[int]

    def check_config(self, config: Mapping[str, Any]) -> dict[str, Any]:
        """A normalised copy of the game part of a table config; raises ConfigError."""
        raise NotImplementedError

    def new_state(self, config: Mapping[str, Any]) -> GameState:
        raise NotImplementedError

    def chance_step(self, state: GameState, rng: random.Random) -> dict[str, Any]:
        """The next chance outcome, as a step to store and then apply."""
        raise NotImplementedError

    def client_step(self, state: GameState, text: str, elapsed: float | None, rng: random.Random) -> dict[str, Any]:
        """The step for a move a client sent (in the notation). Raises RuleError."""
        action = state.string_to_action(text)
        return {"move": state.action_to_string(action)}

    def bot_step(self, state: GameState, action: int, elapsed: float | None, rng: random.Random) -> dict[str, Any]:
        return {"move": state.action_to_string(action)}

    def apply_step(self, state: GameState, step: Mapping[str, Any]) -> list[Event]:
        raise NotImplementedError

    def narrate(self, event: Mapping[str, Any], seat_name: Callable[[int], str]) -> str:
        raise NotImplementedError

    def seat_label(self, config: Mapping[str, Any], seat: int) -> str:
        return f"seat {seat}"


class DiggingGame(TableGame):
    name = "digging"
    min_players = 2
    max_players = 4

    def check_config(self, config: Mapping[str, Any]) -> dict[str, Any]:
        players = config.get("players", 4)
        if players not in (2, 3, 4):
            raise ConfigError("Digging is for 2, 3 or 4 players")
        partnership = config.get("partnership")
        if partnership is None:
            partnership = players == 4
        if partnership and players != 4:
            raise ConfigError("the partnership game is for exactly 4 players")
        try:
            options = DiggingOptions.from_json(config.get("options") or {})
        except ValueError as err:
            raise ConfigError(str(err)) from None
        return {"players": players, "partnership": bool(partnership), "options": options.to_json()}

    def new_state(self, config: Mapping[str, Any]) -> DiggingState:
        return DiggingState(config["players"], config["partnership"], DiggingOptions.from_json(config["options"]))

    def chance_step(self, state: GameState, rng: random.Random) -> dict[str, Any]:
        return {"deal": [CODES[c] for c in state.sample_chance(rng)]}

    def apply_step(self, state: GameState, step: Mapping[str, Any]) -> list[Event]:
        if "deal" in step:
            return state.apply_chance(step["deal"])
        return state.apply_move(step["move"])

    def narrate(self, event: Mapping[str, Any], seat_name: Callable[[int], str]) -> str:
        return digging_text(event, seat_name)

    def seat_label(self, config: Mapping[str, Any], seat: int) -> str:
        return f"team {'AB'[seat % 2]}" if config.get("partnership") else ""


GAMES: dict[str, TableGame] = {"digging": DiggingGame()}


def table_game(name: str) -> TableGame:
    try:
        return GAMES[name]
    except KeyError:
        raise ConfigError(f"unknown game {name!r}: the server hosts {', '.join(sorted(GAMES))}") from None
