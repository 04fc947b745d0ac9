"""A finished game, step by step, as the replay viewer shows it, and its summary.

Only a finished game is replayed: by then nothing is secret, so the viewer may
look through any seat's eyes, or through all of them at once. Each frame is
shaped like a live update (``view``, ``events``, ``log``), so the browser draws
it with the same code it plays with.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..core.definition import GameDefinition
from ..core.game import GameState

ALL = "all"
"""The seat choice that shows every seat's hand (a finished game has no secret left)."""


def _names(names: Mapping[int, str]) -> Callable[[int], str]:
    return lambda i: names.get(i) or f"seat {i}"


def _view(state: GameState, seat: int | str | None) -> dict[str, Any]:
    if seat != ALL:
        return state.observation(seat if isinstance(seat, int) else None)
    view = state.observation(None)
    hands = [state.observation(s).get("hand") for s in range(state.num_players)]
    if any(h is not None for h in hands):
        view["hands"] = hands
    return view


class NoSuchSeat(ValueError):
    """A replay asked through the eyes of a seat the game does not have."""


class TooLong(ValueError):
    """A record with more steps than a replay is built for."""


def frames(
    definition: GameDefinition[Any], record: Mapping[str, Any], seat: int | str | None, names: Mapping[int, str],
    max_steps: int | None = None,
) -> dict[str, Any]:
    """Every position of a finished game through ``seat``'s eyes (an int, ``None`` for a
    spectator, or :data:`ALL`), with the summary. Raises ``RecordError`` for a record
    that is not a legal game, and :class:`TooLong` past ``max_steps`` steps: each frame
    is a whole view, so a record of hands that score nothing could ask for gigabytes."""
    if max_steps is not None and definition.steps(record) > max_steps:
        # Counted before the record is checked and walked: checking alone costs a second or so
        # per 6,000 steps, for a record that is refused in the end.
        raise TooLong(_too_long(max_steps))
    name = _names(names)
    out: list[dict[str, Any]] = []
    state: GameState | None = None
    progress: list[dict[str, Any]] = []
    for state, move, events in definition.walk(record):
        if max_steps is not None and len(out) >= max_steps:
            raise TooLong(_too_long(max_steps))  # a game whose steps() miscounts: still capped
        if not out and isinstance(seat, int) and not 0 <= seat < state.num_players:
            raise NoSuchSeat(f"this game has no seat {seat}; its seats are 0 to {state.num_players - 1}")
        views = [e.view(seat if isinstance(seat, int) else None) for e in events]
        out.append(
            {
                "move": move,
                "to_move": state.current_player if not state.is_terminal() else None,
                "events": views,
                "log": [definition.narrate(v, name) for v in views],
                "view": _view(state, seat),
            }
        )
        _track(definition, progress, len(out), state)
    if state is None:
        raise ValueError("the record holds no step")
    return {"frames": out, "summary": _summary(definition, state, progress, names)}


def _too_long(max_steps: int) -> str:
    return (f"this game has more than {max_steps} steps, more than a replay is built for "
            "(the longest games played run to about 2,000)")  # fmt: skip


def summary(definition: GameDefinition[Any], record: Mapping[str, Any], names: Mapping[int, str]) -> dict[str, Any]:
    """Who won, every hand's points, and the scores over the game (for the game-over chart)."""
    state: GameState | None = None
    progress: list[dict[str, Any]] = []
    for step, (state, _move, _events) in enumerate(definition.walk(record), start=1):
        _track(definition, progress, step, state)
    if state is None:
        raise ValueError("the record holds no step")
    return _summary(definition, state, progress, names)


def _track(definition: GameDefinition[Any], progress: list[dict[str, Any]], step: int, state: GameState) -> None:
    """Keep the scores each time they change: per hand in Digging, per banked haul in Digger,
    with the hand they changed in, so that a client can say which hand a point belongs to."""
    scores = list(state.scores())
    if not progress or progress[-1]["scores"] != scores:
        # The game's rows of hand points are its scored hands, or one row before the first is
        # scored and in a one-hand game: so the hand just scored, else hand 1.
        hand = len(definition.hand_points(state))
        progress.append({"step": step, "hand": hand, "scores": scores})


def _summary(
    definition: GameDefinition[Any],
    state: GameState,
    progress: list[dict[str, Any]],
    names: Mapping[int, str],
) -> dict[str, Any]:
    # The sides that win together, from each seat's team as the observation gives it.
    teams = state.observation(None).get("teams") or list(range(state.num_players))
    sides = [[s for s, t in enumerate(teams) if t == team] for team in dict.fromkeys(teams)]
    hands = definition.hand_points(state)
    return {
        "game": definition.name,
        "players": state.num_players,
        # "" for a player who gave no name: a client names the seat in its reader's language.
        "names": [names.get(s) or "" for s in range(state.num_players)],
        "sides": sides,
        "hands": hands,
        "scores": list(state.scores()),
        "winners": state.winners(),
        "finished": state.is_terminal(),
        "progress": progress,
    }
