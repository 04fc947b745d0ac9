"""Digger's action space and its notation.

Every decision is one integer in ``range(NUM_ACTIONS)``, the same space for
2 to 5 players, so bots and research adapters see a fixed action space:

=====================  ===============================================  =======
move                   meaning                                          ids
=====================  ===============================================  =======
``roll``               roll all five dice (the outcome is chance)       0
``stop``               stack the haul and call "stop"                   1
``take <colour>``      a token from the centre, colour B Y R G W        2..6
``steal <colour> <s>``  a gem from seat s's crate, colour Y R G W        7..26
``timeout``            the hourglass ran out (the clock's, not a         27
                       player's choice)
=====================  ===============================================  =======

In a record a move also carries what the action id leaves out: a roll its
five faces and its time (``roll KRGBY @2.5``), a stop its time
(``stop @12``), and, with the G5 option on, a steal whether it knocked a pile
(``steal Y 2 knock`` or ``steal Y 2 safe``). Times are seconds since the
turn's first roll.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.words import is_number
from .dice import BLACK, BLUE, COLOUR_OF, FACES, GEMS, NUM_DICE, TOKEN_COLOURS, faces_text, parse_faces

ROLL = 0
STOP = 1
TAKE_BASE = 2
STEAL_BASE = TAKE_BASE + len(TOKEN_COLOURS)  # 7
MAX_SEATS = 5
TIMEOUT = STEAL_BASE + len(GEMS) * MAX_SEATS  # 27
NUM_ACTIONS = TIMEOUT + 1

K_ROLL, K_STOP, K_TAKE, K_STEAL, K_TIMEOUT = range(5)


def take_action(colour: int) -> int:
    return TAKE_BASE + colour


def steal_action(colour: int, victim: int) -> int:
    """Blue has no steal action: it is never stolen (G2)."""
    return STEAL_BASE + (colour - 1) * MAX_SEATS + victim


def _decode(a: int) -> tuple[int, int, int]:
    """(kind, colour or -1, victim seat or -1)."""
    if a == ROLL:
        return K_ROLL, -1, -1
    if a == STOP:
        return K_STOP, -1, -1
    if a == TIMEOUT:
        return K_TIMEOUT, -1, -1
    if a < STEAL_BASE:
        return K_TAKE, a - TAKE_BASE, -1
    gem, victim = divmod(a - STEAL_BASE, MAX_SEATS)
    return K_STEAL, gem + 1, victim


DECODED: tuple[tuple[int, int, int], ...] = tuple(_decode(a) for a in range(NUM_ACTIONS))


def action_to_string(a: int) -> str:
    if not 0 <= a < NUM_ACTIONS:
        raise ValueError(f"no Digger action has id {a}")
    kind, colour, victim = DECODED[a]
    if kind == K_ROLL:
        return "roll"
    if kind == K_STOP:
        return "stop"
    if kind == K_TIMEOUT:
        return "timeout"
    if kind == K_TAKE:
        return f"take {FACES[colour]}"
    return f"steal {FACES[colour]} {victim}"


def format_time(seconds: float) -> str:
    """The shortest text that reads back as exactly the same float (``2``, ``2.5``)."""
    text = repr(float(seconds))
    return text[:-2] if text.endswith(".0") else text


def move_text(
    action: int, at: float | None = None, faces: Sequence[int] | None = None, knocked: bool | None = None
) -> str:
    """A move as records write it: ``roll KRGBY @4.2``, ``stop @12``, ``steal Y 2 knock``.

    A roll's faces, a steal's knock outcome and a move's time are written when
    given (``timeout`` has no time: it is the moment the sand ran out).
    """
    text = action_to_string(action)
    if faces is not None and action == ROLL:
        text += " " + faces_text(faces)
    if knocked is not None and DECODED[action][0] == K_STEAL:
        text += " knock" if knocked else " safe"
    if at is not None and action != TIMEOUT:
        text += " @" + format_time(at)
    return text


class NotationError(ValueError):
    """A move that cannot be read; ``rule`` is ``"notation"`` or the ruling it runs into."""

    def __init__(self, message: str, rule: str = "notation") -> None:
        super().__init__(message)
        self.rule = rule


@dataclass(frozen=True, slots=True)
class Move:
    """A move as written: the action and what the notation adds to it."""

    action: int
    faces: tuple[int, ...] | None = None
    at: float | None = None
    knocked: bool | None = None


KNOCK_WORDS = {"knock": True, "safe": False}


def parse_move(text: str, players: int = MAX_SEATS) -> Move:
    """Read a move in the notation for a table of ``players``; raises :class:`NotationError`."""
    if not isinstance(text, str):
        raise NotationError(f"a move is a string in the notation, not {text!r}")
    words = text.split()
    if not words:
        raise NotationError("empty move")
    verb = words[0].lower()
    args = words[1:]
    if verb == "roll":
        faces = None
        if args and not args[0].startswith("@"):
            try:
                faces = parse_faces(args.pop(0))
            except ValueError as err:
                raise NotationError(f"{text!r}: {err}") from None
        at = _time(args.pop(0), text) if args else None
        _nothing_left(args, text, f"write 'roll <{NUM_DICE} faces> @<seconds>', e.g. 'roll KRGBY @2.5'")
        return Move(ROLL, faces, at)
    if verb == "stop":
        at = _time(args.pop(0), text) if args else None
        _nothing_left(args, text, "write 'stop @<seconds>', e.g. 'stop @12.5'")
        return Move(STOP, at=at)
    if verb == "timeout":
        _nothing_left(args, text, "'timeout' takes nothing after it")
        return Move(TIMEOUT)
    # A take or a steal may carry its time (G4), written last as on every move.
    at = _time(args.pop(), text) if verb in ("take", "steal") and args and args[-1].startswith("@") else None
    if verb == "take":
        if len(args) != 1:
            raise NotationError(f"write 'take <colour>', e.g. 'take Y' or 'take Y @3.5': {text!r}")
        return Move(take_action(_token_colour(args[0], text)), at=at)
    if verb == "steal":
        if len(args) not in (2, 3):
            raise NotationError(f"write 'steal <colour> <seat>', e.g. 'steal Y 2' or 'steal Y 2 @3.5': {text!r}")
        colour = _token_colour(args[0], text)
        if colour == BLUE:
            raise NotationError(f"{text!r}: blue tokens are never stolen, only taken from the centre", "G2")
        if not is_number(args[1]):
            raise NotationError(f"{text!r}: the victim is a seat number, from 0 to {players - 1} at this table")
        if int(args[1]) >= players:
            raise NotationError(f"{text!r}: there is no seat {int(args[1])}; the seats are 0 to {players - 1}",
                                "G2")
        knocked = None
        if len(args) == 3:
            knocked = KNOCK_WORDS.get(args[2].lower())
            if knocked is None:
                raise NotationError(f"{text!r}: a steal's outcome is 'knock' or 'safe' (G5), not {args[2]!r}")
        return Move(steal_action(colour, int(args[1])), at=at, knocked=knocked)
    raise NotationError(f"unknown move {text!r}: moves are roll, take, steal, stop and timeout")


def _token_colour(word: str, text: str) -> int:
    colour = COLOUR_OF.get(word)
    if colour is None:
        raise NotationError(f"{text!r}: unknown colour {word!r}; tokens are B Y R G W")
    if colour == BLACK:
        raise NotationError(f"{text!r}: black is on the dice only; there are no black tokens", "G2")
    return colour


def _time(word: str, text: str) -> float:
    if not word.startswith("@"):
        raise NotationError(f"{text!r}: a time is written @<seconds>, e.g. @2.5, not {word!r}")
    try:
        seconds = float(word[1:])
    except ValueError:
        raise NotationError(f"{text!r}: {word!r} is not a time in seconds") from None
    if not math.isfinite(seconds) or seconds < 0:
        # A time that cannot be is a G4 matter, whether it comes written or as apply_action's at=.
        raise NotationError(f"{text!r}: a time is a number of seconds >= 0, not {word[1:]!r}", "G4")
    return seconds


def _nothing_left(args: list[str], text: str, hint: str) -> None:
    if args:
        raise NotationError(f"{text!r}: unexpected {' '.join(args)!r}; {hint}")


def string_to_action(text: str) -> int:
    """The action id of a move; a roll's faces and a time, if written, are read and dropped."""
    return parse_move(text).action


__all__ = [
    "DECODED", "MAX_SEATS", "NUM_ACTIONS", "ROLL", "STEAL_BASE", "STOP", "TAKE_BASE", "TIMEOUT",
    "Move", "NotationError", "action_to_string", "format_time", "move_text", "parse_move", "steal_action",
    "string_to_action", "take_action",
]  # fmt: skip
