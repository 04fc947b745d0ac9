"""The toy game's observation encoding, for the research adapters (it needs numpy)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from goldfields.research.encoding import Encoding, Piece


def _encode(obs: Mapping[str, Any], out: Any = None) -> Any:
    v = np.zeros(ENCODING.size, np.float32) if out is None else out
    v[:] = 0.0
    s = ENCODING.slices
    seat = obs["seat"] if obs["seat"] is not None else 0
    cards = obs["cards"]
    if cards[seat] is not None:
        v[s["mine"].start + cards[seat] - 1] = 1.0
    other = cards[1 - seat]
    if other is not None:
        v[s["other"].start + other - 1] = 1.0
    for i, move in enumerate(obs["moves"]):
        v[s["moves"].start + 2 * i + (move == "swap")] = 1.0
    if obs["to_move"] in (0, 1):
        v[s["to_move"].start + (obs["to_move"] - seat) % 2] = 1.0
    return v


ENCODING = Encoding(
    "toy",
    (
        Piece("mine", (3,), "one-hot: my card"),
        Piece("other", (3,), "one-hot: the other card, once known"),
        Piece("moves", (2, 2), "per move so far: keep, swap"),
        Piece("to_move", (2,), "one-hot relative seat to move"),
    ),
    _encode,
)
