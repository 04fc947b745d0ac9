"""Digging's 60 cards and their notation.

A card is identified by its code, a small integer (an index into ``CODES``).
Cards with the same code are interchangeable, so hands and the deck are kept
as counts per code.
"""

from __future__ import annotations

from collections.abc import Iterable

CODES: tuple[str, ...] = (
    "MG", "MS", "MC",          # mines
    "G", "S", "C",             # single chests
    "GG", "SS", "CC",          # double chests
    "X",                       # closed-mine card
    *(f"B{v}" for v in range(1, 13)),  # bandits 1..12
)  # fmt: skip
NUM_CODES = len(CODES)
CODE_OF: dict[str, int] = {name: i for i, name in enumerate(CODES)}

GOLD, SILVER, COPPER = 0, 1, 2
METALS = ("gold", "silver", "copper")
METAL_LETTER = ("G", "S", "C")
METAL_VALUE = (3, 2, 1)

MINE_CODES = (0, 1, 2)
SINGLE_CODES = (3, 4, 5)
DOUBLE_CODES = (6, 7, 8)
CHEST_CODES = SINGLE_CODES + DOUBLE_CODES
CLOSE = 9
BANDIT_CODES = tuple(range(10, 22))


def bandit(value: int) -> int:
    """The code of the bandit card worth ``value`` (1..12)."""
    return 9 + value


def bandit_value(code: int) -> int:
    return code - 9


def metal_of(code: int) -> int:
    """The metal of a mine or chest card."""
    return code % 3


def is_double(code: int) -> bool:
    return 6 <= code <= 8


def is_bandit(code: int) -> bool:
    return code >= 10


# The full deck, as counts per code (60 cards).
FULL_COUNTS: tuple[int, ...] = (3, 3, 3, 9, 9, 9, 1, 1, 1, 9, *([1] * 12))
assert sum(FULL_COUNTS) == 60

# Single chests of each metal laid aside in the individual game (RULINGS: Modes).
REMOVED_SINGLES = {2: 4, 3: 2, 4: 0}


def deck_counts(players: int, partnership: bool, full_deck: bool = False) -> list[int]:
    """Counts per code of the deck in use for this table."""
    counts = list(FULL_COUNTS)
    if not partnership and not full_deck:
        for code in SINGLE_CODES:
            counts[code] -= REMOVED_SINGLES[players]
    return counts


def expand(counts: Iterable[int]) -> list[int]:
    """Counts per code -> a sorted list of codes."""
    out: list[int] = []
    for code, k in enumerate(counts):
        out.extend([code] * k)
    return out


def parse_card(text: str) -> int:
    try:
        return CODE_OF[text.upper()]
    except KeyError:
        raise ValueError(f"unknown card {text!r}") from None


def card_name(code: int) -> str:
    return CODES[code]


def describe(code: int) -> str:
    """A card in words, for logs and front ends."""
    if code in MINE_CODES:
        return f"{METALS[code]} mine"
    if code in SINGLE_CODES:
        return f"{METALS[metal_of(code)]} chest"
    if code in DOUBLE_CODES:
        return f"double {METALS[metal_of(code)]} chest"
    if code == CLOSE:
        return "closed-mine card"
    return f"bandit {bandit_value(code)}"
