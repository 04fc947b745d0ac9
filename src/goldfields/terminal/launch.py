"""Setting a game up from the command line's options, then handing it to a session.

Kept apart from the Typer command (goldfields.cli.play) so that a game can be
started, and tested, without going through the command line.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

from .. import records
from ..arena.games import GameSpec
from ..core import registry
from ..core.definition import GameDefinition, ParamError, Params, RecordError
from ..core.game import Event, GameState
from ..digger.definition import DIGGER
from ..digging.definition import DIGGING
from .digger_front import DiggerFront
from .digging_front import DiggingFront
from .front import GameFront
from .keyboard import Keyboard, TerminalKeyboard
from .screen import Screen, make_console
from .seating import Seating, SeatingError, build_bots, plan_seats
from .session import Session


class SetupError(ValueError):
    """Options that describe no game; the message says what to change."""


P = TypeVar("P", bound=Params)


def _with_rules(definition: GameDefinition[P], params: P, rules: Mapping[str, Any] | None) -> P:
    """``params`` with ``rules`` set (rule options and game parameters by name, as ``goldfields arena
    --rule`` reads them: the arena's table applies them, so that a rule means the same everywhere)."""
    if not rules:
        return params
    try:
        return cast(P, GameSpec(definition.name, params).with_rules(rules).params)
    except ValueError as err:
        raise SetupError(str(err)) from None


@dataclass(frozen=True)
class Display:
    no_color: bool = False
    width: int | None = None
    delay: float = 0.0


def _seed(seed: int | None) -> int:
    # A fresh game still gets a seed, told when it is over, so it can be played again. It decides
    # every card, so it is drawn from far more seeds than anyone could try against their own hand.
    return secrets.randbelow(10**15) if seed is None else seed


def _session(
    front: GameFront,
    state: GameState,
    seating: Seating,
    seed: int | None,
    display: Display | None,
    screen: Screen | None,
    keyboard: Keyboard | None,
    *,
    save_name: str | None = None,
    history: Sequence[Event] = (),
    takebacks: bool = False,
    resumed_from: str | None = None,
    resumed_moves: int = 0,
) -> Session:
    # A save is named for its seed only when the player chose it (and so knows it already); a drawn
    # seed would tell what is still to come, so the file is named for when the game began.
    if takebacks and not front.has_undo:
        raise SetupError(f"--takebacks: {front.undo_help}, so there is nothing to take back")
    if takebacks and seating.hot_seat:
        # The others at the keyboard have seen what happened since: undo refuses at a hot seat.
        raise SetupError("--takebacks is for one human against bots: with several players at this keyboard "
                         "there is no undo, so nothing to take back")
    name = f"{state.game_name}-{seed if seed is not None else time.strftime('%Y%m%d-%H%M')}.json"
    seed = _seed(seed)
    display = display or Display()
    screen = screen or Screen(make_console(display.no_color, display.width))
    return Session(
        front,
        state,
        build_bots(state.game_name, seating, state.num_players),
        screen,
        keyboard or TerminalKeyboard(screen),
        seed=seed,
        save_name=save_name or name,
        delay=display.delay,
        history=history,
        takebacks=takebacks,
        resumed_from=resumed_from,
        resumed_moves=resumed_moves,
    )


def _shown(value: Any) -> str:
    """A value as it was typed: ``--time-limit 25`` reaches here as 25.0."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return value if isinstance(value, str) else json.dumps(value)


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
    takebacks: bool = False,
    rules: Mapping[str, Any] | None = None,
) -> Session:
    try:
        params = DIGGING.params(players=players, partnership=partnership)
    except ParamError as err:
        hint = " (use --individual, or --players 4)" if err.param == "partnership" else ""
        raise SetupError(f"{err.message}{hint}") from None
    params = _with_rules(DIGGING, params, rules)
    try:
        seating = plan_seats(DIGGING.name, players, seats, humans, bots, DIGGING.levels_for(params))
    except SeatingError as err:
        raise SetupError(str(err)) from None
    return _session(DiggingFront(), DIGGING.new_state(params), seating, seed, display, screen, keyboard,
                    takebacks=takebacks)


def digger_session(
    players: int = 3,
    *,
    seats: Sequence[int] | None = None,
    humans: int | None = None,
    bots: Sequence[str] | None = None,
    seed: int | None = None,
    crates: str | None = None,
    time_limit: float | None = None,
    display: Display | None = None,
    screen: Screen | None = None,
    keyboard: Keyboard | None = None,
    clock: Callable[[], float] = time.monotonic,
    takebacks: bool = False,
    rules: Mapping[str, Any] | None = None,
) -> Session:
    """``crates`` (None: white) and ``time_limit`` (None: 30 s) are rules with options of their own;
    ``rules`` may set them too, but not to something else."""
    if crates is not None and crates not in ("white", "black"):
        raise SetupError(f"--crates is white or black, not {crates!r}")
    rules = dict(rules or {})
    for name, given in (("crates", crates), ("time_limit", time_limit)):
        if given is None:
            continue
        if name in rules and rules[name] != given:
            raise SetupError(f"--{name.replace('_', '-')} {_shown(given)} and --rule {name}={_shown(rules[name])} "
                             "disagree; give one of them")
        rules[name] = given
    try:
        params = _with_rules(DIGGER, DIGGER.params(players=players), rules)
        state = DIGGER.new_state(params)
        seating = plan_seats(DIGGER.name, players, seats, humans, bots, DIGGER.levels_for(params))
    except ParamError as err:
        raise SetupError(err.message) from None
    except SeatingError as err:
        raise SetupError(str(err)) from None
    return _session(DiggerFront(clock), state, seating, seed, display, screen, keyboard, takebacks=takebacks)


def resume_session(
    path: str | Path,
    *,
    seats: Sequence[int] | None = None,
    humans: int | None = None,
    bots: Sequence[str] | None = None,
    seed: int | None = None,
    display: Display | None = None,
    screen: Screen | None = None,
    keyboard: Keyboard | None = None,
    clock: Callable[[], float] = time.monotonic,
    takebacks: bool = False,
) -> Session:
    """Continue the game saved in ``path`` (a game record) from where it stopped.

    The record holds the game and its moves, not who sat where: the seats are
    given again (by default, as for a new game: you in seat 0, bots elsewhere).
    What is still to be dealt or rolled is drawn afresh from ``seed``, but for the rest of a
    Digging hand in play: the record holds its deck as dealt, so it goes on from the saved pile."""
    path = Path(path)
    try:
        record = records.read(path)
    except records.UnreadableRecord as err:
        raise SetupError(str(err)) from None
    name = record.get("game") if isinstance(record, dict) else None
    if not isinstance(name, str) or name not in FRONTS:
        raise SetupError(f"{path} is not a record of a game the terminal plays ({', '.join(FRONTS)})")
    definition = registry.get(name)
    try:
        state, history, moves = definition.resume(record)
    except RecordError as err:
        raise SetupError(f"{path} cannot be continued: {err} (goldfields replay {path} says more)") from None
    if state.is_terminal():
        raise SetupError(f"the game in {path} is over: nothing is left to play (goldfields replay {path} shows it)")
    try:
        seating = plan_seats(name, state.num_players, seats, humans, bots, definition.levels_for(record))
    except SeatingError as err:
        raise SetupError(str(err)) from None
    front: GameFront = DiggerFront(clock) if name == DIGGER.name else DiggingFront()
    front.resume(state)
    return _session(front, state, seating, seed, display, screen, keyboard, save_name=str(path), history=history,
                    takebacks=takebacks, resumed_from=str(path), resumed_moves=moves)


FRONTS = {DIGGING.name: DiggingFront, DIGGER.name: DiggerFront}
