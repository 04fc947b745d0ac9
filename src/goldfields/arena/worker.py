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

    def to_json(self) -> dict[str, Any]:
        """Everything but the record (saved in a file of its own), for the run's journal."""
        return {
            "index": self.index, "deal": self.deal, "rotation": self.rotation, "seat_bots": list(self.seat_bots),
            "seat_entrants": list(self.seat_entrants), "scores": list(self.scores), "returns": list(self.returns),
            "winners": list(self.winners), "hand_points": [list(h) for h in self.hand_points],
            "decisions": self.decisions, "seconds": self.seconds,
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
    decisions = 0

    def count(state: GameState, action: int | None, events: list[Event]) -> None:
        nonlocal decisions
        decisions += action is not None

    final = play_game(
        spec.new_state,
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
        decisions=decisions,
        record=final.record(),
        seconds=time.perf_counter() - start,
    )
