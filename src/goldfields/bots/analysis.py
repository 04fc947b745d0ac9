"""Post-game analysis: for each decision of one seat, what the strong bot would have played,
and how much the move played cost in estimated chance of winning.

The search sees only the seat's view at that moment (the same
:class:`~goldfields.core.game.SeatView` a bot gets in play), so the analysis
never uses cards the seat could not know, even from a finished game's record.
The estimate of a move is the search's mean result for it: the seat's (or its
team's) chance of winning the game, from 0 to 1.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from ..digging.replay import positions
from .ismcts import ISMCTSBot, Node
from .net import GAME
from .registry import make_bot


@dataclass(frozen=True)
class Decision:
    hand: int
    move: int
    """Index of the move in its hand's list of moves."""
    played: str
    best: str
    played_win: float
    best_win: float
    choices: int

    @property
    def drop(self) -> float:
        """Estimated chance of winning lost by the move played (0 when it was the bot's choice)."""
        return max(0.0, self.best_win - self.played_win)

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "drop": round(self.drop, 4)}


def analyze(record: Mapping[str, Any], seat: int, bot: str = "ismcts:iterations=2000", seed: int = 0,
            on_step: Callable[[], None] | None = None) -> list[Decision]:  # fmt: skip
    """Every decision of ``seat`` in a Digging ``record`` that had a choice, judged by ``bot`` (an ISMCTS spec)."""
    searcher = make_bot(bot, GAME)
    if not isinstance(searcher, ISMCTSBot):
        raise ValueError(f"analysis needs a search bot (ismcts...), not {bot!r}")
    players = record.get("players")
    if not isinstance(players, int) or not 0 <= seat < players:
        raise ValueError(f"seat must be from 0 to {players - 1 if isinstance(players, int) else '?'}, not {seat}")
    rng = random.Random(seed)
    out: list[Decision] = []
    for hand, index, state, move in positions(record):
        if state.current_player != seat:
            continue
        legal = state.legal_actions()
        if len(legal) < 2:
            continue
        view = state.view(seat)
        played = state.string_to_action(move)
        root = searcher.search(view, rng, searcher.budget())
        best = max(legal, key=lambda a: root.children[a].n if a in root.children else -1)
        mean = sum(ch.w for ch in root.children.values()) / max(1, sum(ch.n for ch in root.children.values()))
        out.append(Decision(hand, index, move, state.action_to_string(best), _win(root, played, mean),
                            _win(root, best, mean), len(legal)))  # fmt: skip
        if on_step is not None:
            on_step()
    return out


SHRINK = 3.0
"""Visits' worth of the position's mean result added to each move's own results. A move the search
tried only a few times has a mean of few samples; pulled toward the position's mean, it is not
reported as a large blunder on the strength of one unlucky sample."""


def _win(root: Node, action: int, mean: float) -> float:
    """The search's estimate for ``action``: the mover's (or team's) chance of winning, from 0 to 1."""
    node = root.children.get(action)
    n, w = (node.n, node.w) if node is not None else (0, 0.0)
    return (w + SHRINK * mean) / (n + SHRINK)
