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
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich.console import Group, RenderableType

from ..clocks import DEFAULT_TIME_MODEL, RealClock, TimeModel
from ..core.definition import Stamper
from ..core.game import GameState
from ..core.words import plural
from ..digger import STOP, TIMEOUT, DiggerState
from ..digger.definition import DIGGER
from ..digger.narrate import event_text, tokens
from . import render_digger
from .front import GameFront, Names, numbered, recap_block
from .keyboard import Expired
from .rules_text import DIGGER_RULES

SHORTCUTS = {"r": "roll", "s": "stop"}


@dataclass
class _Turn:
    """One digger's turn as a recap line sums it up."""

    seat: int
    rolls: int = 0
    took: list[str] = field(default_factory=list)
    stole: list[tuple[str, int]] = field(default_factory=list)
    end: str | None = None

    def text(self, names: Names) -> str:
        parts = [plural(self.rolls, "roll")]
        if self.took:
            parts.append(f"took {' '.join(self.took)}")
        for colour, victim in self.stole:
            parts.append(f"stole {colour} from {names(victim)}")
        end = self.end or "still digging"
        return f"{names(self.seat)}: {', '.join(parts)}; {end}."


def _at(ev: Mapping[str, Any]) -> str:
    # Only in the views of seats that may see the hourglass (never the digger's own).
    return f" [{ev['at']:.1f} s]" if ev.get("at") is not None else ""


def _turns(views: Sequence[Mapping[str, Any]]) -> list[_Turn]:
    turns: list[_Turn] = []
    for ev in views:
        kind = ev["kind"]
        if kind == "game_over":
            continue
        if kind == "turn_start" or not turns or turns[-1].end is not None:
            if "seat" not in ev:
                continue
            turns.append(_Turn(ev["seat"]))
        turn = turns[-1]
        if kind == "throw":
            turn.rolls += 1
        elif kind == "take":
            turn.took.append(ev["colour"])
        elif kind == "steal":
            turn.stole.append((ev["colour"], ev["from"]))
        elif kind == "stop":
            at = _at(ev)
            boxed = f", boxed {ev['boxed']} blue" if ev["boxed"] else ""
            lost = ev.get("returned") or {}
            late = f" ({tokens(lost)} back: the sand ran out while stacking)" if any(lost.values()) else ""
            turn.end = f"stopped{at} and banked {tokens(ev['banked'])}{boxed}{late}, score {ev['score']}"
        elif kind == "timeout":
            turn.end = f"Time! the sand ran out{_at(ev)}, {tokens(ev['returned'])} back to the centre"
        elif kind == "knock":
            turn.end = f"knocked a pile over, {tokens(ev['returned'])} back to the centre"
    return turns


def _digger(state: GameState) -> DiggerState:
    if not isinstance(state, DiggerState):
        raise TypeError(f"the Digger front plays Digger, not {state.game_name}")
    return state


class DiggerFront(GameFront):
    game = DIGGER.name
    private_hands = False
    rules_markdown = DIGGER_RULES
    timeout_action = TIMEOUT
    luck_since = "the dice have been rolled"
    enter_plays_a_forced_move = False  # Enter is "stop"; before the first roll it explains instead
    moves_title = "Digging (the hourglass runs from your first roll, and you cannot see it):"
    moves_rows: ClassVar[tuple[tuple[str, str], ...]] = (
        ("r  or roll", "throw all five dice (again)"),
        ("<number>", "take the move with that number, or type it: take Y, steal W 2"),
        ("Enter  or s", "stop: your haul is banked (if the sand has not run out)"),
    )
    moves_note = "Colours: B blue (water, worth nothing), Y yellow, R red, G green, W white; K black (dice only)."
    # Undo never takes back luck, and every turn begins with a roll: there is never a decision to
    # go back to, so Digger offers no undo and no takebacks rather than one that always refuses.
    has_undo = False
    undo_help = "no undo in Digger: every turn begins with a roll of the dice, and luck stands (no free re-roll)"
    takebacks_help = ""

    def __init__(self, clock: Callable[[], float] = time.monotonic, model: TimeModel = DEFAULT_TIME_MODEL) -> None:
        self.real = RealClock(clock)
        self.model = model

    # -- screens ---------------------------------------------------------
    def intro(self, obs: Mapping[str, Any], names: Names) -> str:
        return (
            f"Digger for {obs['players']} players; the game ends when a turn ends with no blue token "
            f"left in the centre. Hourglass: {obs['time_limit']:g} seconds, running in real time while you dig."
        )

    def board(self, obs: Mapping[str, Any], names: Names, compact: bool = False) -> RenderableType:
        return render_digger.board(obs, names)

    def decision(
        self,
        obs: Mapping[str, Any],
        names: Names,
        moves: Sequence[str],
        full: bool,
        width: int,
        compact: bool = False,
        recap: Sequence[str] = (),
    ) -> RenderableType:
        # Mid-turn the digger needs the dice and the haul, not the whole table again: time is short.
        top = self.board(obs, names, compact) if full or not obs["started"] else render_digger.turn(obs)
        return Group(top, *recap_block(recap), numbered(moves, width))

    def recap(self, views: Sequence[Mapping[str, Any]], names: Names, width: int) -> list[str]:
        """One line per turn: who dug, how many rolls, what they took and stole, and how it ended."""
        # A turn that has only just begun (the viewer's own, about to roll) is no news.
        return [turn.text(names) for turn in _turns(views) if turn.rolls or turn.end]

    def prompt(self, moves: Sequence[str], names: Names) -> str:
        who = "Dig" if len(names.humans) == 1 else f"Seat {names.viewer}, dig"
        if moves == ["roll"]:
            return f"{who} (1 = roll: r to roll and turn the hourglass; help)> "
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

    def refusal_hint(self, rule: str) -> str:
        # G3: the timeout is the hourglass's; the digger's own way to end a turn is stop.
        return ". Press Enter to stop instead." if rule == DIGGER.refusal_rules["clock"] else ""

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

    def resume(self, state: GameState) -> None:
        self.real.resume(_digger(state))

    # -- session policy ---------------------------------------------------
    def undo_point(self, obs: Mapping[str, Any]) -> bool:
        # Only the start of a turn: undoing into a running hourglass would need time to run backwards.
        return not obs["started"]

    def watch_seat(self, state: GameState, humans: Sequence[int]) -> int | None:
        digging = state.observation(None)["digger"]
        return next((s for s in humans if s != digging), None)

    def resume_note(self, state: GameState) -> str:
        return "every roll and knock from here on is drawn afresh"

    def save_warning(self, state: GameState, hot_seat: bool, seat: int | None) -> str | None:
        obs = state.observation(None)
        if seat is not None and obs["started"] and obs["digger"] == seat and obs["to_move"] != -2:
            return "Note: the record holds the times of this turn, which the digger is not meant to see."
        return None
