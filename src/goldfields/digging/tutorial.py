"""A guided first game of Digging: a scripted deal in which the player, at seat 0 of a
partnership table, opens a mine, lays a chest, defends it in a fight (the partner helps),
passes a card to the partner and closes the mine, one prompt at a time.

It is a game record like any other, checked by the engine (tests/digging/test_tutorial.py),
plus the prompts: which of the player's moves each step asks for, and what to say while
the bots move. The browser plays it (web/static/tutorial.html); no server table is made.
"""

from __future__ import annotations

import random
from typing import Any

from .cards import CODES

PLAYER = 0
NAMES = {0: "", 1: "Rex", 2: "Sal", 3: "Tex"}
"""Seat 0 is the player (named by the page); Sal is the partner opposite."""

HANDS: dict[int, list[str]] = {
    0: ["MG", "G", "B9", "S", "X", "C"],
    1: ["B5", "MC", "C", "SS", "B1", "X"],
    2: ["B4", "MS", "C", "S", "CC", "B2"],
    3: ["MC", "C", "S", "G", "B3", "X"],
}

# (seat, move, text): for the player's moves, the prompt that asks for it; for a bot's,
# what the page says as it moves. Texts are the page's (tut.<text>, in three languages).
SCRIPT: list[tuple[int, str, str | None]] = [
    (0, "play MG 0", "open"),
    (1, "draw", None),
    (2, "draw", None),
    (3, "draw", None),
    (0, "play G m1", "chest"),
    (1, "play B5 m1", "attacked"),
    (2, "play B4 m1", "partnerJoins"),
    (3, "draw", "chanceSpent"),
    (0, "play B9 m1", "defend"),
    (1, "draw", None),
    (2, "draw", None),
    (3, "draw", None),
    (0, "pass S", "pass"),
    (1, "draw", None),
    (2, "draw", None),
    (3, "draw", None),
    (0, "play X m1", "close"),
]


def _deck() -> list[str]:
    """The deal: each seat's scripted hand, the rest of the 60 cards in a fixed order."""
    rest = [c for c in CODES[:3] for _ in range(3)] + [c for c in ("G", "S", "C", "X") for _ in range(9)]
    rest += [c for c in CODES if c not in ("MG", "MS", "MC", "G", "S", "C", "X")]
    for hand in HANDS.values():
        for card in hand:
            rest.remove(card)
    random.Random(1990).shuffle(rest)
    # Dealt one at a time from the seat after the dealer (seat 3): seat 0 gets cards 0, 4, 8...
    dealt = [HANDS[i % 4][i // 4] for i in range(24)]
    return dealt + rest


def record() -> dict[str, Any]:
    """The scripted hand as a Digging record (the hand stops after the player's last step)."""
    return {
        "game": "digging",
        "players": 4,
        "partnership": True,
        "hands": [{"dealer": 3, "deck": _deck(), "moves": [move for _, move, _ in SCRIPT]}],
    }


AFTER = {"defend": "defended", "close": "done"}
"""What the page says once the player has made a step (the fight is decided at once)."""


def steps() -> list[dict[str, Any]]:
    """Each step of the script: the frame it leads to (frame 0 is the deal, frame k follows
    move k), who moves, the move, and the texts before and after it."""
    return [
        {"frame": k + 1, "seat": seat, "move": move, "text": text, "after": AFTER.get(text or "")}
        for k, (seat, move, text) in enumerate(SCRIPT)
    ]
