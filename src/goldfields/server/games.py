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

from ..core.game import Event, GameState, RuleError
from ..digger import ROLL, STOP, TIMEOUT, DiggerOptions, DiggerState
from ..digger.narrate import event_text as digger_text
from ..digging import DiggingOptions, DiggingState
from ..digging.cards import CODES
from ..digging.narrate import event_text as digging_text


class ConfigError(ValueError):
    """A table configuration the game does not accept."""


class TableGame:
    name: ClassVar[str]
    realtime: ClassVar[bool] = False
    """Real-time games run a server-side hourglass; see the methods below."""
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

    def client_step(
        self, state: GameState, text: str, elapsed: float | None, rng: random.Random, config: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The step for a move a client sent (in the notation). Raises RuleError."""
        action = state.string_to_action(text)
        return {"move": state.action_to_string(action)}

    def bot_step(
        self, state: GameState, action: int, elapsed: float | None, rng: random.Random, config: Mapping[str, Any]
    ) -> dict[str, Any]:
        return {"move": state.action_to_string(action)}

    def apply_step(self, state: GameState, step: Mapping[str, Any]) -> list[Event]:
        raise NotImplementedError

    def narrate(self, event: Mapping[str, Any], seat_name: Callable[[int], str]) -> str:
        raise NotImplementedError

    def seat_label(self, config: Mapping[str, Any], seat: int) -> str:
        return ""

    # -- real-time games only ---------------------------------------------
    def turn_running(self, state: GameState) -> bool:
        """A timed turn is under way (its clock started at its first step)."""
        return False

    def time_limit(self, state: GameState) -> float:
        raise NotImplementedError

    def clock_hidden_from(self, state: GameState) -> int | None:
        """The seat that may not see the running clock."""
        return None


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


class DiggerGame(TableGame):
    """Digger on the server: the server rolls the dice and keeps the hourglass.

    Times are seconds since the turn's first roll, measured by the server.
    Stopping takes ``stack_seconds`` per token in the haul (a table setting,
    0.5 by default as in the simulated time model): as at a real table,
    stacking a big haul takes time, and a stop that ends after the sand has
    run out loses the haul.
    """

    name = "digger"
    realtime = True
    min_players = 2
    max_players = 5

    def check_config(self, config: Mapping[str, Any]) -> dict[str, Any]:
        players = config.get("players", 3)
        crates = config.get("crates") or "white"
        try:
            options = DiggerOptions.from_json(config.get("options") or {})
            DiggerState(players, crates, options)
        except (ValueError, TypeError) as err:
            raise ConfigError(str(err)) from None
        stack = config.get("stack_seconds", 0.5)
        if not isinstance(stack, (int, float)) or isinstance(stack, bool) or not 0 <= stack <= 5:
            raise ConfigError("stack_seconds is a number of seconds per token, from 0 to 5")
        return {"players": players, "crates": crates, "options": options.to_json(), "stack_seconds": float(stack)}

    def new_state(self, config: Mapping[str, Any]) -> DiggerState:
        return DiggerState(config["players"], config["crates"], DiggerOptions.from_json(config["options"]))

    def chance_step(self, state: GameState, rng: random.Random) -> dict[str, Any]:
        # Rolls and knocks are stored with the move that caused them (see client_step).
        raise RuleError("G2", "a Digger chance outcome is always stored with its roll or steal")

    def client_step(
        self, state: GameState, text: str, elapsed: float | None, rng: random.Random, config: Mapping[str, Any]
    ) -> dict[str, Any]:
        words = text.split()
        if words and words[0].lower() == "timeout":
            raise RuleError("G3", "the hourglass is kept by the server: a player cannot call timeout")
        if words and words[0].lower() == "roll" and len(words) > 1:
            raise RuleError("G2", "write just 'roll': the server rolls the dice")
        if words and words[0].lower() == "stop" and len(words) > 1:
            raise RuleError("G4", "write just 'stop': the server keeps the time")
        return self.bot_step(state, state.string_to_action(text), elapsed, rng, config)

    def bot_step(
        self, state: GameState, action: int, elapsed: float | None, rng: random.Random, config: Mapping[str, Any]
    ) -> dict[str, Any]:
        assert isinstance(state, DiggerState)
        if action == TIMEOUT:
            raise RuleError("G3", "the hourglass is kept by the server: a player cannot call timeout")
        if action not in state.legal_actions():
            state.apply_action(action)  # raises the rule-naming error, changes nothing
        at = 0.0 if elapsed is None else round(elapsed, 3)
        if action == ROLL:
            trial = state.clone()
            trial.apply_action(ROLL, None if not state.started else at)
            if not trial.is_chance_node():  # too late: the hourglass had run out
                return {"move": "timeout"}
            faces = "".join("BYRGWK"[f] for f in trial.sample_chance(rng))
            return {"move": f"roll {faces} @{at:g}" if state.started else f"roll {faces} @0"}
        if action == STOP:
            stacking = config.get("stack_seconds", 0.5) * state.haul_size
            return {"move": f"stop @{round(at + stacking, 3):g}"}
        move = state.action_to_string(action)
        if state.knock_probability > 0 and move.startswith("steal"):
            trial = state.clone()
            trial.apply_action(action)
            move += " knock" if trial.sample_chance(rng) else " safe"
        return {"move": move}

    def apply_step(self, state: GameState, step: Mapping[str, Any]) -> list[Event]:
        return state.apply_move(step["move"])

    def narrate(self, event: Mapping[str, Any], seat_name: Callable[[int], str]) -> str:
        return digger_text(event, seat_name)

    def turn_running(self, state: GameState) -> bool:
        assert isinstance(state, DiggerState)
        return state.started and not state.is_terminal()

    def time_limit(self, state: GameState) -> float:
        assert isinstance(state, DiggerState)
        return state.limit

    def clock_hidden_from(self, state: GameState) -> int | None:
        assert isinstance(state, DiggerState)
        return state.digger


GAMES: dict[str, TableGame] = {"digging": DiggingGame(), "digger": DiggerGame()}


def table_game(name: str) -> TableGame:
    try:
        return GAMES[name]
    except KeyError:
        raise ConfigError(f"unknown game {name!r}: the server hosts {', '.join(sorted(GAMES))}") from None
