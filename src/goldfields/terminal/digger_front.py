"""Digger in the terminal: real time for the human digger, simulated time for bots.

While a human digs, the hourglass is the wall clock (``RealClock``, started by
the turn's first roll), and the keyboard is read with a deadline, so the sand
can run out while they hesitate. The digger is never shown the time: their
observation and event views carry none. Bots' turns are stamped with the
simulated ``TimeModel`` of the digger package, as in the arena, so a bot's
turn takes no wall-clock time and its result does not depend on the machine.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from rich.console import Group, RenderableType

from ..clocks import DEFAULT_TIME_MODEL, RealClock, TimeModel
from ..core.definition import Stamper
from ..core.game import GameState
from ..digger import STOP, TIMEOUT, DiggerState
from ..digger.definition import DIGGER
from ..digger.narrate import event_text
from . import render_digger
from .front import GameFront, Names, numbered
from .keyboard import Expired
from .rules_text import DIGGER_RULES

SHORTCUTS = {"r": "roll", "s": "stop"}


def _digger(state: GameState) -> DiggerState:
    if not isinstance(state, DiggerState):
        raise TypeError(f"the Digger front plays Digger, not {state.game_name}")
    return state


class DiggerFront(GameFront):
    game = DIGGER.name
    private_hands = False
    rules_markdown = DIGGER_RULES
    timeout_action = TIMEOUT
    moves_help: ClassVar[str] = """\
Digging (the hourglass runs from your first roll, and you cannot see it):
  r  or roll        throw all five dice (again)
  <number>          take the move with that number, or type it: take Y, steal W 2
  Enter  or s       stop: your haul is banked (if the sand has not run out)
Colours: B blue (water, worth nothing), Y yellow, R red, G green, W white; K black (dice only).
"""

    def __init__(self, clock: Callable[[], float] = time.monotonic, model: TimeModel = DEFAULT_TIME_MODEL) -> None:
        self.real = RealClock(clock)
        self.model = model

    # -- screens ---------------------------------------------------------
    def intro(self, obs: Mapping[str, Any], names: Names) -> str:
        return (
            f"Digger for {obs['players']} players; the game ends when a turn ends with no blue token "
            f"left in the centre. Hourglass: {obs['time_limit']:g} seconds, running in real time while you dig."
        )

    def board(self, obs: Mapping[str, Any], names: Names) -> RenderableType:
        return render_digger.board(obs, names)

    def decision(
        self, obs: Mapping[str, Any], names: Names, moves: Sequence[str], full: bool, width: int
    ) -> RenderableType:
        # Mid-turn the digger needs the dice and the haul, not the whole table again: time is short.
        top = self.board(obs, names) if full or not obs["started"] else render_digger.turn(obs)
        return Group(top, numbered(moves, width))

    def prompt(self, moves: Sequence[str], names: Names) -> str:
        who = "Dig" if len(names.humans) == 1 else f"Seat {names.viewer}, dig"
        if moves == ["roll"]:
            return f"{who} (1-1: r to roll and turn the hourglass; help)> "
        return f"{who} (1-{len(moves)}; r roll, Enter stop; help)> "

    def narrate(self, ev: Mapping[str, Any], names: Names) -> str | None:
        return event_text(ev, names)

    def summary(self, obs: Mapping[str, Any], names: Names) -> RenderableType:
        return render_digger.summary(obs, names)

    # -- typing ----------------------------------------------------------
    def expand(self, text: str) -> str:
        return SHORTCUTS.get(text.strip().lower(), text)

    def empty_line(self, state: GameState) -> int | str | None:
        if _digger(state).started:
            return STOP
        return "A turn begins with a roll: type r (the hourglass starts with it)."

    def refuse(self, state: GameState, action: int) -> str | None:
        if action == TIMEOUT:
            return "timeout is the hourglass's call, not the digger's: press Enter to stop instead."
        return None

    # -- time ------------------------------------------------------------
    def stamp_human(self, state: GameState, action: int) -> float | None:
        return self.real.stamp(_digger(state), action)

    @property
    def bot_clock(self) -> Stamper:  # type: ignore[override]
        return self.model

    def deadline(self, state: GameState) -> Expired | None:
        digger = _digger(state)
        if not digger.can_time_out:
            return None
        return lambda: self.real.expired(digger)

    # -- session policy ---------------------------------------------------
    def undo_point(self, obs: Mapping[str, Any]) -> bool:
        # Only the start of a turn: undoing into a running hourglass would need time to run backwards.
        return not obs["started"]

    def watch_seat(self, state: GameState, humans: Sequence[int]) -> int | None:
        digging = state.observation(None)["digger"]
        return next((s for s in humans if s != digging), None)

    def save_warning(self, state: GameState, hot_seat: bool, seat: int | None) -> str | None:
        obs = state.observation(None)
        if seat is not None and obs["started"] and obs["digger"] == seat and obs["to_move"] != -2:
            return "Note: the record holds the times of this turn, which the digger is not meant to see."
        return None
