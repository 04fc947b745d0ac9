"""Setting a game up from the command line's options, then handing it to a session.

Kept apart from the Typer command (goldfields.cli.play) so that a game can be
started, and tested, without going through the command line.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..core.definition import ParamError
from ..digger.definition import DIGGER
from ..digging.definition import DIGGING
from .digger_front import DiggerFront
from .digging_front import DiggingFront
from .keyboard import Keyboard, TerminalKeyboard
from .screen import Screen, make_console
from .seating import SeatingError, build_bots, plan_seats
from .session import Session


class SetupError(ValueError):
    """Options that describe no game; the message says what to change."""


@dataclass(frozen=True)
class Display:
    no_color: bool = False
    width: int | None = None
    delay: float = 0.0


def _seed(seed: int | None) -> int:
    # A fresh game still gets a seed, printed at the start, so it can be played again.
    return random.SystemRandom().randrange(1_000_000) if seed is None else seed


def digging_session(
    players: int = 4,
    partnership: bool | None = None,
    *,
    seats: Sequence[int] | None = None,
    humans: int | None = None,
    bots: Sequence[str] | None = None,
    seed: int | None = None,
    display: Display | None = None,
    screen: Screen | None = None,
    keyboard: Keyboard | None = None,
) -> Session:
    try:
        params = DIGGING.params(players=players, partnership=partnership)
    except ParamError as err:
        hint = " (use --individual, or --players 4)" if err.param == "partnership" else ""
        raise SetupError(f"{err.message}{hint}") from None
    try:
        seating = plan_seats(DIGGING.name, players, seats, humans, bots)
    except SeatingError as err:
        raise SetupError(str(err)) from None
    state = DIGGING.new_state(params)
    seed = _seed(seed)
    display = display or Display()
    screen = screen or Screen(make_console(display.no_color, display.width))
    return Session(
        DiggingFront(),
        state,
        build_bots(DIGGING.name, seating, players),
        screen,
        keyboard or TerminalKeyboard(screen),
        seed=seed,
        save_name=f"digging-{seed}.json",
        delay=display.delay,
    )


def digger_session(
    players: int = 3,
    *,
    seats: Sequence[int] | None = None,
    humans: int | None = None,
    bots: Sequence[str] | None = None,
    seed: int | None = None,
    crates: str = "white",
    time_limit: float | None = None,
    display: Display | None = None,
    screen: Screen | None = None,
    keyboard: Keyboard | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Session:
    if crates not in ("white", "black"):
        raise SetupError(f"--crates is white or black, not {crates!r}")
    try:
        options = {} if time_limit is None else {"time_limit": time_limit}
        state = DIGGER.new_state(DIGGER.params(players=players, crates=crates, options=options))
        seating = plan_seats(DIGGER.name, players, seats, humans, bots)
    except ParamError as err:
        raise SetupError(err.message) from None
    except SeatingError as err:
        raise SetupError(str(err)) from None
    seed = _seed(seed)
    display = display or Display()
    screen = screen or Screen(make_console(display.no_color, display.width))
    return Session(
        DiggerFront(clock),
        state,
        build_bots(DIGGER.name, seating, players),
        screen,
        keyboard or TerminalKeyboard(screen),
        seed=seed,
        save_name=f"digger-{seed}.json",
        delay=display.delay,
    )
