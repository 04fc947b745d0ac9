"""Digger's colours, its five dice and what a roll shows.

Colours are small integers so that counts live in plain lists indexed by
colour. The five token colours come first, so a token colour is also a valid
index into a list of five counts; black exists on the dice only.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import NamedTuple

BLUE, YELLOW, RED, GREEN, WHITE, BLACK = range(6)

FACES = "BYRGWK"
"""Face and token letters, indexed by colour: ``B`` blue (water), ``Y`` yellow
(gold), ``R`` red (ruby), ``G`` green (emerald), ``W`` white (diamond),
``K`` black (dice only)."""

COLOUR_NAMES = ("blue", "yellow", "red", "green", "white", "black")
TOKEN_COLOURS = (BLUE, YELLOW, RED, GREEN, WHITE)
GEMS = (YELLOW, RED, GREEN, WHITE)
NUM_DICE = 5
NUM_FACES = 6
TOKENS_PER_COLOUR = 10
TOKENS_TOTAL = TOKENS_PER_COLOUR * len(TOKEN_COLOURS)

COLOUR_OF: dict[str, int] = {letter: i for i, letter in enumerate(FACES)}
COLOUR_OF.update({letter.lower(): i for i, letter in enumerate(FACES)})


def parse_faces(outcome: str | Sequence[int | str]) -> tuple[int, ...]:
    """Five faces, written ``"KRGBY"`` or as a sequence of letters or colour numbers.

    Raises ``ValueError`` naming what is wrong; the state turns that into a
    rule error.
    """
    if len(outcome) != NUM_DICE:
        raise ValueError(f"a roll shows exactly {NUM_DICE} faces, got {len(outcome)} in {outcome!r}")
    faces: list[int] = []
    for item in outcome:
        if isinstance(item, str):
            colour = COLOUR_OF.get(item)
            if colour is None:
                raise ValueError(f"unknown face {item!r}: faces are {', '.join(FACES)}")
        elif isinstance(item, int) and not isinstance(item, bool) and 0 <= item < NUM_FACES:
            colour = item
        else:
            raise ValueError(f"unknown face {item!r}: faces are {', '.join(FACES)} or 0..5")
        faces.append(colour)
    return tuple(faces)


def faces_text(faces: Iterable[int]) -> str:
    return "".join(FACES[f] for f in faces)


def read_roll(faces: Sequence[int]) -> tuple[int, bool]:
    """(bit mask of the token colours showing on exactly one die, black shows on exactly one die)."""
    counts = [0, 0, 0, 0, 0, 0]
    for f in faces:
        counts[f] += 1
    mask = 0
    for colour in TOKEN_COLOURS:
        if counts[colour] == 1:
            mask |= 1 << colour
    return mask, counts[BLACK] == 1


class Roll(NamedTuple):
    """An ordered roll and what it shows, computed once for all 7,776."""

    faces: tuple[int, ...]
    text: str
    unique: int
    """Bit mask of the token colours that show on exactly one die."""
    black: bool
    """Black shows on exactly one die."""
    unique_letters: tuple[str, ...]


def _ordered_rolls() -> dict[tuple[int, ...] | str, Roll]:
    """Every ordered roll, keyed by its colour numbers and by its capital letters.

    The engine applies a roll with one dictionary look-up, which both checks
    the outcome and reads it.
    """
    table: dict[tuple[int, ...] | str, Roll] = {}
    for faces in itertools.product(range(NUM_FACES), repeat=NUM_DICE):
        mask, black = read_roll(faces)
        text = faces_text(faces)
        letters = tuple(FACES[c] for c in TOKEN_COLOURS if mask >> c & 1)
        table[faces] = table[text] = Roll(faces, text, mask, black, letters)
    return table


ORDERED_ROLLS = _ordered_rolls()


def _roll_outcomes() -> tuple[tuple[str, float], ...]:
    """The 252 distinguishable rolls (multisets of five faces) with their probabilities."""
    total = NUM_FACES**NUM_DICE
    out = []
    for combo in itertools.combinations_with_replacement(range(NUM_FACES), NUM_DICE):
        ways = math.factorial(NUM_DICE)
        for face in set(combo):
            ways //= math.factorial(combo.count(face))
        out.append((faces_text(combo), float(Fraction(ways, total))))
    return tuple(out)


ROLL_OUTCOMES: tuple[tuple[str, float], ...] = _roll_outcomes()
"""Every roll as sorted face letters (``"BBYRK"``), with its probability; they sum to 1."""
