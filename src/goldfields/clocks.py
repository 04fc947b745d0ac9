"""Clocks for timed games (Digger's hourglass, RULINGS G4): simulated and real.

The engines never read a clock. Whoever drives a game stamps each timed step
with the seconds since the turn's first roll and passes it in
(``state.apply_action(action, at=...)``); the engine enforces the hourglass.
This module, outside the engines, holds the stampers:

* :class:`TimeModel`, the simulated clock of bots, tests and the arena: each
  step costs a fixed number of seconds, optionally jittered with a
  ``random.Random`` the caller owns.
* :class:`RealClock`, for live play: a monotonic clock, started at the first roll.

Both answer ``stamp(state, action)``: the time to pass with that action. Every
time they give goes through :func:`stamp_time`, the one rounding rule.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .digger.actions import DECODED, K_ROLL, K_STEAL, K_STOP, K_TAKE, ROLL, TIMEOUT

if TYPE_CHECKING:
    from .digger.state import DiggerState


def stamp_time(seconds: float, floor: float = 0.0, limit: float | None = None) -> float:
    """A step's time as it is applied and recorded: the one rounding rule.

    Rounded to the millisecond (records stay short and read back exactly),
    never before ``floor``, the previous step's time (time does not run
    backwards), and never across ``limit``, the hourglass: a step that came
    after the sand ran out stays late, and one before it stays in time.
    """
    t = max(floor, round(seconds, 3))
    if limit is not None:
        if seconds > limit >= t:
            t = math.floor(limit * 1000 + 1) / 1000  # the first millisecond past the limit
        elif seconds <= limit < t:
            t = max(floor, math.floor(limit * 1000) / 1000)
    return t


@dataclass(frozen=True, slots=True)
class TimeModel:
    """Named costs in seconds for a simulated digger (G4).

    The defaults describe a brisk but unhurried player: about ten actions fit
    in the hourglass, so a greedy turn can run out of time, as at the table.
    """

    roll: float = 2.0
    """Gathering the five dice and throwing them again (the first roll of a
    turn is at 0 by definition: the hourglass starts with it)."""

    take: float = 1.0
    """Reaching for one token, from the centre or from an opponent's crate."""

    stack: float = 0.5
    """Stacking one token of the haul before calling "stop" (gems into the
    crate, blue into the box): a stop comes at now + stack x haul size."""

    limit: float = 30.0
    """The hourglass this player believes in, for bots that plan with
    :meth:`time_left`. The engine enforces the game's own ``time_limit``
    option, never this."""

    jitter: float = 0.0
    """Each cost is multiplied by a factor drawn uniformly in
    [1 - jitter, 1 + jitter] with the caller's generator; 0 is deterministic."""

    def __post_init__(self) -> None:
        for name in ("roll", "take", "stack", "limit"):
            v = getattr(self, name)
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v) or v < 0:
                raise ValueError(f"TimeModel.{name} must be a number of seconds >= 0, not {v!r}")
        if not isinstance(self.jitter, (int, float)) or not 0.0 <= self.jitter < 1.0:
            raise ValueError(f"TimeModel.jitter must be a fraction in [0, 1), not {self.jitter!r}")

    def cost(self, action: int, haul: int = 0, rng: random.Random | None = None) -> float:
        """Seconds that ``action`` takes after the previous step (0 for a timeout)."""
        kind = DECODED[action][0]
        if kind == K_ROLL:
            base = self.roll
        elif kind in (K_TAKE, K_STEAL):
            base = self.take
        elif kind == K_STOP:
            base = self.stack * haul
        else:
            return 0.0
        if self.jitter:
            if rng is None:
                raise ValueError("a TimeModel with jitter needs the caller's random.Random")
            base *= rng.uniform(1.0 - self.jitter, 1.0 + self.jitter)
        return base

    def stamp(self, state: DiggerState, action: int, rng: random.Random | None = None) -> float | None:
        """The time to apply ``action`` at in ``state``, to the millisecond.

        ``None`` for a timeout (the engine sets the time to the limit itself).
        """
        if action == TIMEOUT:
            return None
        if action == ROLL and not state.started:
            return 0.0
        # With the timed-stacking option the engine stacks after the stop: the stop is stamped when called.
        haul = 0 if state.options.stack_seconds else state.haul_size
        return stamp_time(state.elapsed + self.cost(action, haul, rng), state.elapsed, state.limit)

    def estimate(self, rolls: int, tokens: int) -> float:
        """Seconds into a turn after ``rolls`` rolls and ``tokens`` tokens taken,
        by this model's costs: what a digger can reckon without the hourglass."""
        if rolls <= 0:
            return 0.0
        return self.roll * (rolls - 1) + self.take * tokens

    def time_left(self, rolls: int, tokens: int) -> float:
        """The digger's own reckoning of the time left (may be negative)."""
        return self.limit - self.estimate(rolls, tokens)


DEFAULT_TIME_MODEL = TimeModel()


def simulated_clock(jitter: float = 0.0) -> TimeModel:
    """Digger's simulated clock (the game definition's ``clock``): the default costs, with ``jitter``."""
    return TimeModel(jitter=jitter) if jitter else DEFAULT_TIME_MODEL


class RealClock:
    """The wall clock of a live game, measured from the current turn's first roll.

    ``clock`` is injectable (a test hands in a fake one); ``time.monotonic``
    by default, so that a change of the system time cannot shorten a turn.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._start: float | None = None

    def stamp(self, state: DiggerState, action: int) -> float | None:
        """Seconds since the turn's first roll; a turn's first roll starts the count at 0."""
        if action == TIMEOUT:
            return None
        if action == ROLL and not state.started:
            self._start = self._clock()
            return 0.0
        if self._start is None or not state.started:
            return None
        return stamp_time(self._clock() - self._start, state.elapsed, state.limit)

    def resume(self, state: DiggerState) -> None:
        """Continue a turn restored from a record: the sand already gone stays gone."""
        self._start = self._clock() - (state.elapsed or 0.0) if state.started else None

    def expired(self, state: DiggerState) -> bool:
        """Whether the sand has run out on the turn under way: the caller then applies ``TIMEOUT``."""
        if self._start is None or not state.can_time_out:
            return False
        return self._clock() - self._start > state.limit
