"""Post-game analysis: for each decision of one seat, what the strong bot would have played,
and how much the move played cost in estimated chance of winning.

The search sees only the seat's view at that moment (the same
:class:`~goldfields.core.game.SeatView` a bot gets in play), so the analysis
never uses cards the seat could not know, even from a finished game's record.
The estimate of a move is the search's mean result for it: the seat's (or its
team's) chance of winning the game, from 0 to 1.

A game offers analysis by naming its judge in its definition
(:attr:`~goldfields.core.definition.GameDefinition.analyst`, an ISMCTS spec);
the command line (``goldfields analyze``) and the server's replay viewer both
go through :func:`decisions` and :func:`judge` here.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from ..core import registry
from ..core.definition import GameDefinition
from ..core.game import SeatView
from .base import Budget
from .ismcts import ISMCTSBot, Node, search_game_for
from .registry import make_bot


@dataclass(frozen=True)
class Position:
    """A decision of the seat in a record: what it saw, what it played, and where that is."""

    step: int
    """Index of the step that plays the move, counted as the replay viewer counts frames."""
    hand: int
    """Hand number (0 for a game without hands)."""
    move: int
    """Index of the move within its hand."""
    view: SeatView
    played: int
    text: str


@dataclass(frozen=True)
class Judgement:
    best: int
    played_win: float
    best_win: float


@dataclass(frozen=True)
class Decision:
    step: int
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


def analyst(definition: GameDefinition[Any]) -> str:
    """The game's judge, or a clear error for a game that offers no analysis."""
    if definition.analyst is None:
        raise ValueError(f"{definition.title} offers no analysis")
    return definition.analyst


def decisions(definition: GameDefinition[Any], record: Mapping[str, Any], seat: int) -> Iterator[Position]:
    """The seat's decisions with a choice in a finished record, each through the seat's eyes.

    Raises ``ValueError`` for a seat the game does not have, and
    :class:`~goldfields.core.definition.RecordError` for a record that is not a legal game."""
    players = record.get("players")
    if type(players) is int and not 0 <= seat < players:
        raise ValueError(f"seat must be from 0 to {players - 1}, not {seat}")
    # Any other "players" (none, true, "4") is the record's fault: the walk's check names it.
    pending: tuple[SeatView, Any] | None = None
    hand, move = -1, 0
    for step, (state, text, _events) in enumerate(definition.walk(record)):
        if text is None:  # a chance step written apart: a new hand
            hand, move = hand + 1, 0
        else:
            if pending is not None:
                view, before = pending
                yield Position(step, max(hand, 0), move, view, before.string_to_action(text), text)
            move += 1
        pending = None
        if not state.is_terminal() and state.current_player == seat and len(state.legal_actions()) > 1:
            before = state.clone()  # the live state moves on; the move's text is read against this one
            pending = (before.view(seat), before)


def judge(searcher: ISMCTSBot, view: SeatView, played: int, rng: random.Random, budget: Budget) -> Judgement:
    """The search's choice at ``view`` and its estimates for that move and the one played.

    The move played is searched even if the bot would leave it out (Digging's pass that stalls
    the hand): valued from its own results, not guessed from the position's. The bot's choice is
    still made among the moves it would play."""
    root = searcher.search(view, rng, budget, also=(played,))
    legal = view.legal_actions()
    best = root.chosen(search_game_for(view.game_name, searcher.policy).root_moves(view, legal))
    return Judgement(best, estimate(root, played), estimate(root, best))


def searcher_for(spec: str, game: str, trusted: bool = True) -> ISMCTSBot:
    bot = make_bot(spec, game, trusted=trusted)
    if not isinstance(bot, ISMCTSBot):
        raise ValueError(f"analysis needs a search bot (ismcts...), not {spec!r}")
    return bot


def analyze(record: Mapping[str, Any], seat: int, bot: str | None = None, seed: int = 0,
            on_step: Callable[[], None] | None = None,
            on_total: Callable[[int], None] | None = None) -> list[Decision]:  # fmt: skip
    """Every decision of ``seat`` in ``record`` that had a choice, judged by ``bot`` (an ISMCTS
    spec; by default the game's analyst)."""
    definition = registry.get(str(record.get("game")))
    searcher = searcher_for(bot or analyst(definition), definition.name)
    rng = random.Random(seed)
    out: list[Decision] = []
    found = list(decisions(definition, record, seat))
    if on_total is not None:
        on_total(len(found))
    for pos in found:
        j = judge(searcher, pos.view, pos.played, rng, searcher.budget())
        out.append(decision(pos, j))
        if on_step is not None:
            on_step()
    return out


def decision(pos: Position, j: Judgement) -> Decision:
    to_text = pos.view.action_to_string
    return Decision(pos.step, pos.hand, pos.move, pos.text, to_text(j.best), j.played_win, j.best_win,
                    len(pos.view.legal_actions()))  # fmt: skip


SHRINK = 3.0
"""Visits' worth of the position's mean result added to each move's own results. A move the search
tried only a few times has a mean of few samples; pulled toward the position's mean, it is not
reported as a large blunder on the strength of one unlucky sample."""


def estimate(root: Node, action: int) -> float:
    """The search's estimate for ``action`` at ``root``: the mover's (or team's) chance of winning,
    from 0 to 1, pulled toward the position's mean result by :data:`SHRINK` visits' worth."""
    mean = sum(ch.w for ch in root.children.values()) / max(1, sum(ch.n for ch in root.children.values()))
    node = root.children.get(action)
    n, w = (node.n, node.w) if node is not None else (0, 0.0)
    return (w + SHRINK * mean) / (n + SHRINK)
