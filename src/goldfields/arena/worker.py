"""Playing one scheduled game, in whatever process runs it (pool worker, Ray task, or here)."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..bots.base import Bot
from ..bots.registry import make_bot
from ..core.game import Event, GameState
from ..play.driver import play_game
from .schedule import GameJob


@dataclass(frozen=True, slots=True)
class GameResult:
    index: int
    deal: int
    rotation: int
    seat_bots: tuple[str, ...]
    seat_entrants: tuple[int, ...]
    """The entrant (position in the lineup) on each seat."""
    scores: tuple[int, ...]
    returns: tuple[float, ...]
    winners: tuple[int, ...]
    hand_points: tuple[tuple[int, ...], ...]
    decisions: int
    record: dict[str, Any]
    seconds: float
    """Wall time of the game: reported, but kept out of the CSV (it is not deterministic)."""
    think: tuple[float, ...] = ()
    """Seconds each seat spent on its decisions (asking its bot and applying the move); like ``seconds``,
    reported and kept out of the CSV. Empty in a journal written before it was measured."""
    moves: tuple[int, ...] = ()
    """Decisions each seat made (``think``'s divisor)."""
    rounds: int | None = None
    """The game's length in its own rounds (Digging's hands, Digger's turns); ``None`` in a journal
    written before it was kept (:func:`rounds_of` then counts Digging's hands from ``hand_points``)."""

    def to_json(self) -> dict[str, Any]:
        """Everything but the record (saved in a file of its own), for the run's journal."""
        return {
            "index": self.index, "deal": self.deal, "rotation": self.rotation, "seat_bots": list(self.seat_bots),
            "seat_entrants": list(self.seat_entrants), "scores": list(self.scores), "returns": list(self.returns),
            "winners": list(self.winners), "hand_points": [list(h) for h in self.hand_points],
            "decisions": self.decisions, "seconds": self.seconds, "think": list(self.think),
            "moves": list(self.moves), **({} if self.rounds is None else {"rounds": self.rounds}),
        }  # fmt: skip

    @classmethod
    def from_json(cls, data: dict[str, Any], record: dict[str, Any] | None = None) -> GameResult:
        return cls(
            index=int(data["index"]), deal=int(data["deal"]), rotation=int(data["rotation"]),
            seat_bots=tuple(data["seat_bots"]), seat_entrants=tuple(int(e) for e in data["seat_entrants"]),
            scores=tuple(int(x) for x in data["scores"]), returns=tuple(float(x) for x in data["returns"]),
            winners=tuple(int(x) for x in data["winners"]),
            hand_points=tuple(tuple(int(x) for x in h) for h in data["hand_points"]),
            decisions=int(data["decisions"]), record=record or {}, seconds=float(data["seconds"]),
            think=tuple(float(x) for x in data.get("think", ())), moves=tuple(int(x) for x in data.get("moves", ())),
            rounds=None if data.get("rounds") is None else int(data["rounds"]),
        )  # fmt: skip


MAX_STEPS = 1_000_000
"""A guard against bots that never finish a game (a real game takes a few thousand steps)."""


@lru_cache(maxsize=64)
def _bot(spec: str, game: str) -> Bot:
    # Bots hold no state between decisions, so one per spec and process is enough.
    return make_bot(spec, game)


def run_job(job: GameJob) -> GameResult:
    start = time.perf_counter()
    spec = job.spec
    bots = [_bot(name, spec.game) for name in job.seat_bots]
    think = [0.0] * spec.players
    moves = [0] * spec.players
    # The time from one step to the next is the decision of the seat that was to move (the state
    # hands it its view, the bot decides, the state applies it); chance steps are nobody's.
    first = spec.new_state()
    mark = time.perf_counter()
    to_move = first.current_player

    def count(state: GameState, action: int | None, events: list[Event]) -> None:
        nonlocal mark, to_move
        now = time.perf_counter()
        if action is not None:
            think[to_move] += now - mark
            moves[to_move] += 1
        mark, to_move = now, state.current_player

    final = play_game(
        lambda: first,
        bots,
        random.Random(job.chance_seed),
        [random.Random(job.bot_seed(s)) for s in range(spec.players)],
        clock=spec.stamper(),
        chance_key=spec.chance_key(),
        on_step=count,
        max_steps=MAX_STEPS,
    )
    return GameResult(
        index=job.index,
        deal=job.deal,
        rotation=job.rotation,
        seat_bots=job.seat_bots,
        seat_entrants=job.seat_entrants,
        scores=tuple(final.scores()),
        returns=tuple(final.returns()),
        winners=tuple(final.winners() or ()),
        hand_points=tuple(tuple(h) for h in spec.hand_points(final)),
        decisions=sum(moves),
        record=final.record(),
        seconds=time.perf_counter() - start,
        think=tuple(think),
        moves=tuple(moves),
        rounds=spec.rounds(final),
    )
