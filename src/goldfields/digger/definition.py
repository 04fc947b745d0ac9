"""Digger, defined once: its parameters, clock, bots and timed notation for every layer above the engine."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..core.definition import GameDefinition, Move, ParamError, Params, TurnClock
from ..core.game import GameState, RuleError
from .actions import MAX_SEATS, NUM_ACTIONS, ROLL, TIMEOUT, NotationError, move_text, parse_move
from .crates import parse_spec, table_with
from .options import DiggerOptions
from .state import KNOCK_DUE, DiggerState

Crates = str | Mapping[str, Any] | Sequence[str]

_CLOCK_ACTIONS = frozenset({TIMEOUT})


@dataclass(frozen=True, slots=True)
class DiggerParams(Params):
    players: int = 3
    crates: Crates = "white"
    """G1: ``"white"`` (one card for all), ``"black"`` (cards A, B, C... in seat
    order), ``{"black": ["A", "C", "E"]}`` or a list of letters, one per seat."""
    options: DiggerOptions = field(default_factory=DiggerOptions)
    """The rule options (docs/digger.md): time limit, knocks, crate values."""


class Digger(GameDefinition[DiggerParams]):
    name = "digger"
    title = "Digger"
    summary = "Roberto Fraga's real-time dice game against a hidden hourglass, for 2 to 5 players"
    min_players = 2
    max_players = MAX_SEATS
    params_type = DiggerParams
    needs_time = True
    num_actions = NUM_ACTIONS
    round_word = "turn"

    bots: ClassVar[Mapping[str, str]] = {
        "heuristic": "goldfields.bots.digger_heuristic:DiggerHeuristic",
        "search": "goldfields.bots.digger_search:DiggerSearch",
    }
    bot_help: ClassVar[Mapping[str, str]] = {
        "heuristic": "hand-written rules that play like a sensible human",
        "search": "Monte Carlo search of rolls, grabs and the stop, under the simulated clock",
    }
    levels: ClassVar[Mapping[str, str]] = {
        # The search, thinking the server's bot budget (0.5 s) a move there and away from it
        # (bots.registry.level_spec); at 200 iterations (about 0.2 s) it beat two heuristics in
        # 74% of 150 games (docs/bots.md).
        "easy": "random",
        "medium": "heuristic",
        "hard": "search",
    }
    search = "goldfields.bots.digger_search:search_game"
    encoding = "goldfields.research.encoding:DIGGER"
    clock = "goldfields.clocks:simulated_clock"
    replayer = "goldfields.digger.replay:replay"
    narrator = "goldfields.digger.narrate:event_text"

    @property
    def default_players(self) -> int:
        return 3

    def check(self, values: dict[str, Any]) -> DiggerParams:
        crates = values.get("crates", "white")
        options = values.get("options")
        if not isinstance(options, DiggerOptions):
            try:
                options = DiggerOptions.from_json(options)
            except (ValueError, TypeError) as err:
                raise ParamError("options", str(err)) from None
        try:
            DiggerState(values["players"], crates, options)
        except (ValueError, TypeError) as err:
            raise ParamError("crates", str(err)) from None
        if isinstance(crates, list):
            crates = tuple(crates)
        return DiggerParams(values["players"], crates, options)

    def new_state(self, params: DiggerParams, rng: random.Random | None = None) -> DiggerState:
        # Digger opens with a decision (the first roll), not with chance: ``rng`` has nothing to draw.
        crates = list(params.crates) if isinstance(params.crates, tuple) else params.crates
        return DiggerState(params.players, crates, params.options)

    chance_in_moves = True
    refusal_rules: ClassVar[Mapping[str, str]] = {"chance": "G2", "time": "G4", "clock": "G3"}

    def turn_clock(self, state: GameState) -> TurnClock | None:
        assert isinstance(state, DiggerState)
        return TurnClock(state.started and not state.is_terminal(), state.elapsed, state.limit, state.digger)

    def clock_actions(self, state: GameState) -> frozenset[int]:
        return _CLOCK_ACTIONS

    def chance_stream(self, state: GameState) -> object | None:
        # Each turn's dice come from a stream of their own, so that turn t of a
        # deal gets the same rolls in every rotation of a duplicate deal; its knocks
        # (G5) from another, so that the k-th roll and the k-th knock of the turn
        # stay paired however many steals the diggers of each rotation try.
        assert isinstance(state, DiggerState)
        return (state.turn, "knock") if state.pending == KNOCK_DUE else state.turn

    def side_note(self, params: DiggerParams, side: int) -> str:
        # Each side is one seat; at black crates its card is a rule of its own (G1), which a designer
        # weighing the cards reads beside the seat's wins.
        spec = parse_spec(params.crates, params.players, table_with(params.options.override))
        return "" if spec == "white" else f"card {spec[side]}"

    def idle_options(self, params: DiggerParams) -> dict[str, str]:
        override = params.options.override
        if not override:
            return {}
        spec = parse_spec(params.crates, params.players, table_with(override))
        in_play = {"white"} if spec == "white" else set(spec)
        given = [name for name, _ in override]
        if in_play & set(given):
            return {}
        # Every card it sets is out of play here: a white card at black crates, or a letter no seat has.
        cards = ", ".join("white" if n == "white" else f"black {n}" for n in given)
        here = "the white card" if spec == "white" else f"black cards {', '.join(spec)}"
        return {"crate_values": f"it sets {cards}, and this table plays {here} (G1; docs/digger.md, Rule options)"}

    def rounds(self, state: GameState) -> int:
        assert isinstance(state, DiggerState)
        # turn counts the turns before this one; this one counts once its first roll is thrown,
        # and the last turn (the game ends inside it) always.
        return state.turn + (1 if state.started or state.is_terminal() else 0)

    def move_text(self, state: GameState, action: int, at: float | None = None, outcome: Any = None) -> str:
        assert isinstance(state, DiggerState)
        if action == ROLL and outcome is None and at is not None and state.started and at > state.limit:
            return "timeout"  # a roll after the sand ran out never lands (G3)
        knocked = outcome if isinstance(outcome, bool) else None
        faces = None if outcome is None or knocked is not None else outcome
        return move_text(action, at, faces, knocked)

    def read_move(self, state: GameState, text: str) -> Move:
        try:
            move = parse_move(text, state.num_players)
        except NotationError as err:
            raise RuleError(err.rule, str(err)) from None
        outcome = move.faces if move.faces is not None else move.knocked
        return Move(move.action, move.at, outcome)

    former_params: ClassVar[Mapping[str, str]] = {"stack_seconds": "stack_seconds"}


DIGGER = Digger()
