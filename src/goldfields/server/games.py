"""A game as the server hosts it: its definition, plus how a table stores and stamps its steps.

The server is game-agnostic: it stores steps, applies them through the
engine interface and sends each seat its own view. Everything it needs to
know about a game comes from the game's definition in the registry
(:mod:`goldfields.core.registry`): the table's parameters and their checks,
how a chance outcome is stored, how a move is written with its time and its
chance outcome (``roll KRGBY @4.2``), the hourglass of a timed turn and who
may not see it, and the parameters older clients sent under other names.
Dice and times are filled in here, on the server, never by the client.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import fields, is_dataclass
from typing import Any

from ..clocks import stamp_time
from ..core import registry
from ..core.definition import GameDefinition, ParamError, Params
from ..core.game import Event, GameState, RuleError

SERVER_KEYS = ("move_seconds", "rematch_of", "reserved")
"""Table settings of the server's own, stored in the config beside the game's parameters:
the move clock, and for a rematch the table it follows and the seats kept for that
table's players."""


class ConfigError(ValueError):
    """A table configuration the game does not accept."""


class TableGame:
    """One registered game, as the server plays it."""

    def __init__(self, definition: GameDefinition[Any]) -> None:
        self.definition = definition
        self.name = definition.name
        self.title = definition.title
        self.realtime = definition.needs_time
        """Timed games run a server-side hourglass; turn-based ones may have a move clock."""
        self.min_players = definition.min_players
        self.max_players = definition.max_players

    # -- configuration -----------------------------------------------------
    def check_config(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """The game's parameters from a table request, checked and with defaults:
        the config stored with the table. Raises :class:`ConfigError`."""
        values = {k: v for k, v in request.items() if k not in _REQUEST_ONLY}
        moved = {k: values.pop(k) for k in self.definition.former_params if k in values}
        if moved and (values.get("options") is None or isinstance(values["options"], Mapping)):
            # Sent beside the parameters, as older clients did: the rule option it now is
            # (set in ``options`` too, the option wins). Anything else is the definition's to refuse.
            renamed = {self.definition.former_params[k]: v for k, v in moved.items()}
            values["options"] = {**renamed, **(values.get("options") or {})}
        try:
            return self.definition.params(**values).to_json()
        except ParamError as err:
            raise ConfigError(err.in_game(self.title)) from None

    def idle_options(self) -> list[dict[str, Any]]:
        """The on/off rule options that would change nothing at some table, with that table
        and why: a request that sets one there is refused, so the lobby hides it there.
        A table is its number of players, and whether it is a partnership where the game has them."""
        definition = self.definition
        modes: tuple[bool | None, ...] = (None,)
        if "partnership" in {f.name for f in fields(definition.params_type)}:
            modes = (True, False)
        out = []
        for players in range(self.min_players, self.max_players + 1):
            for partnership in modes:
                table: dict[str, Any] = {"players": players}
                if partnership is not None:
                    table["partnership"] = partnership
                try:
                    params = definition.params(**table)
                except ParamError:
                    continue  # no such table (Digging's partnership of 3)
                options = getattr(params, "options", None)
                if not is_dataclass(options):
                    continue
                for option in [f.name for f in fields(options) if getattr(options, f.name) is False]:
                    set_on = definition.params_from_json({**params.to_json(), "options": {option: True}})
                    why = definition.idle_options(set_on).get(option)
                    if why:
                        out.append({"players": players, "partnership": partnership, "option": option, "why": why})
        return out

    def fresh_config(self, config: Mapping[str, Any]) -> dict[str, Any]:
        """A stored table's config, for a new table of the same game (a rematch): less any rule
        option that changes nothing at its table, which a table stored before they were refused
        may hold and a new table may not name. The game played is the same."""
        idle = self.definition.idle_options(self.params(config))
        options = config.get("options")
        if not idle or not isinstance(options, Mapping):
            return dict(config)
        return {**config, "options": {k: v for k, v in options.items() if k not in idle}}

    def params(self, config: Mapping[str, Any]) -> Params:
        # A stored config keeps its former parameters unread: its stored moves were written without them.
        skip = (*SERVER_KEYS, *self.definition.former_params)
        return self.definition.params_from_json({k: v for k, v in config.items() if k not in skip})

    def new_state(self, config: Mapping[str, Any]) -> GameState:
        return self.definition.new_state(self.params(config))

    def seat_label(self, config: Mapping[str, Any], seat: int) -> str:
        """A team's letter where seats play in teams (``team A``), else nothing."""
        params = self.params(config)
        sides = self.definition.sides(params)
        if len(sides) == params.players:
            return ""
        return f"team {'ABCDEFGH'[self.definition.side_of(params, seat)]}"

    # -- steps ---------------------------------------------------------------
    def chance_step(self, state: GameState, rng: random.Random) -> dict[str, Any]:
        """The next chance outcome (one the game writes as a step of its own), to store and then apply."""
        return {"chance": self.definition.chance_json(state.sample_chance(rng))}

    def client_step(
        self, state: GameState, text: str, elapsed: float | None, rng: random.Random, config: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The step for a move a client sent in the notation. Raises RuleError.

        A client writes only its decision: the server draws chance and keeps time."""
        return self.bot_step(state, self.definition.read_decision(state, text), elapsed, rng, config)

    def bot_step(
        self, state: GameState, action: int, elapsed: float | None, rng: random.Random, config: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The step for a decision: stamped with the server's clock, with the chance it causes drawn now."""
        definition = self.definition
        if (clock := definition.clock_refusal(state, action)) is not None:
            raise clock
        if action not in state.legal_actions():
            state.apply_action(action)  # raises the rule-naming error, changes nothing
            raise RuleError("turn", f"{state.action_to_string(action)!r} is not a legal move now")
        at = self._stamp(state, elapsed)
        outcome = None
        if definition.chance_in_moves:
            trial = state.clone()
            trial.apply_action(action, at)
            if trial.is_chance_node():
                outcome = trial.sample_chance(rng)
        return {"move": definition.move_text(state, action, at, outcome)}

    def _stamp(self, state: GameState, elapsed: float | None) -> float | None:
        clock = self.definition.turn_clock(state)
        if clock is None:
            return None
        if not clock.running or elapsed is None:
            return 0.0  # the turn's first timed step starts its clock
        return stamp_time(elapsed, clock.elapsed, clock.limit)

    def apply_step(self, state: GameState, step: Mapping[str, Any]) -> list[Event]:
        if "chance" in step:
            return state.apply_chance(step["chance"])
        if "deal" in step:  # a deal as stored before the game registry
            return state.apply_chance(step["deal"])
        return self.definition.apply_move(state, step["move"])

    def narrate(self, event: Mapping[str, Any], seat_name: Callable[[int], str]) -> str:
        return self.definition.narrate(event, seat_name)

    # -- timed games ---------------------------------------------------------
    def turn_running(self, state: GameState) -> bool:
        clock = self.definition.turn_clock(state)
        return clock is not None and clock.running

    def time_limit(self, state: GameState) -> float:
        clock = self.definition.turn_clock(state)
        assert clock is not None
        return clock.limit

    def clock_hidden_from(self, state: GameState) -> int | None:
        clock = self.definition.turn_clock(state)
        return None if clock is None else clock.hidden_from

    def timeout_step(self, state: GameState) -> dict[str, Any]:
        """The step the server stores when the sand runs out."""
        (action,) = self.definition.clock_actions(state)
        return {"move": self.definition.move_text(state, action)}


# What a table request carries beside the game's parameters (checked by the API's schema).
_REQUEST_ONLY = frozenset({"game", "seats", "name", "claim", "player_name", "player_key", *SERVER_KEYS})


def table_game(name: str) -> TableGame:
    try:
        return TableGame(registry.get(name))
    except registry.UnknownGame:
        raise ConfigError(f"unknown game {name!r}: the server hosts {', '.join(registry.names())}") from None
