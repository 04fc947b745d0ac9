"""Bots think in worker processes, never on the server's event loop.

A search bot thinks for half a second, and a bot spec from a stranger could ask
for far more. On the event loop that would stall every table and every
``/api/health``; in a thread it would still fight the loop for the GIL. So each
bot move is sent to a pool of worker processes (:mod:`pebble`, which can kill a
worker that overruns) with the seat's view, never the game state:

- a move that overruns its hard deadline has its worker killed and replaced;
- a bot that raises, returns an illegal action or overruns is replaced, for
  that move only, by the fallback bot (:data:`FALLBACK`, which decides in
  about a millisecond), so a table never stalls;
- workers run at a lower CPU priority (``nice``), so a human's move is
  answered first however many bots are thinking.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import random
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..bots.base import Bot, Budget
from ..bots.registry import BotSpec, BotSpecError, bot_class, make_bot
from ..core import registry
from ..core.definition import GameDefinition
from ..core.game import SeatView
from .settings import DEFAULT_DEADLINE, DEFAULT_WORKERS

if TYPE_CHECKING:
    from pebble import ProcessPool

log = logging.getLogger("goldfields.server")

FALLBACK = "heuristic"
"""The bot that moves for one that failed: quick and sensible, never a search."""

_NICE = 10
"""Workers' CPU priority below the server's (0 is the server's, 19 the lowest)."""


@dataclass(frozen=True, slots=True)
class PoolSettings:
    workers: int = DEFAULT_WORKERS
    """Worker processes."""
    deadline: float = DEFAULT_DEADLINE
    """Seconds a bot move may take in its worker before the worker is killed."""
    queue_deadline: float = 60.0
    """Seconds a bot move may wait for a free worker and think, in all, before the fallback moves."""


def _start_worker(plugins: list[GameDefinition[Any]]) -> None:
    with contextlib.suppress(OSError):  # not allowed here: the bots still run, at the server's priority
        os.nice(_NICE)
    for game in plugins:  # games the server registered at run time (plug-ins) are known here too
        registry.register(game, replace=True)


@lru_cache(maxsize=64)
def _bot(spec: str, game: str) -> Bot:
    # Bots keep nothing between moves, so one per spec serves every table.
    return make_bot(spec, game, trusted=False)


class BotFailure(Exception):
    """What a bot raised, as text: any exception crosses back from the worker, even one
    that cannot be pickled (which would break the whole pool)."""


def _decide(spec: str, game: str, view: SeatView, rng: random.Random, seconds: float) -> int:
    """In a worker: what the bot plays, given only the seat's view."""
    try:
        return _bot(spec, game).act(view, rng, Budget(seconds=seconds))
    except Exception as err:
        raise BotFailure(f"{type(err).__name__}: {err}"[:300]) from None


def _judge(spec: str, game: str, view: SeatView, played: int, seed: int, seconds: float) -> tuple[int, float, float]:
    """In a worker: the analysis of one decision (see :mod:`goldfields.bots.analysis`), from the seat's view."""
    from ..bots.analysis import judge, searcher_for

    try:
        searcher = searcher_for(spec, game, trusted=False)
        j = judge(searcher, view, played, random.Random(seed), Budget(seconds=seconds))
    except Exception as err:
        raise BotFailure(f"{type(err).__name__}: {err}"[:300]) from None
    return j.best, j.played_win, j.best_win


def fallback_action(game: str, view: SeatView, rng: random.Random) -> int:
    """The fallback bot's move, on the caller's thread; a random legal move if even that fails."""
    try:
        return _bot(FALLBACK, game).act(view, rng)
    except Exception:  # the last resort must not fail: any legal move keeps the table going
        legal = view.legal_actions()
        return legal[rng.randrange(len(legal))]


@lru_cache(maxsize=256)
def is_quick(spec: str, game: str) -> bool:
    """Whether the spec's bot decides without searching (see :attr:`Bot.quick`)."""
    try:
        return bot_class(BotSpec.parse(spec).name, game).quick
    except BotSpecError:
        return True  # it will fail at once in its worker, and the fallback is quick


@dataclass(slots=True)
class _Line:
    """One creator's line for the search lane: the gate lets as many through as there are
    search workers, and ``people`` counts those through it or waiting at it."""

    gate: asyncio.Semaphore
    people: int = 0


class BotPool:
    """Worker processes for bot moves, in two lanes: quick bots (random, heuristics, the
    policy network alone) in one worker of their own, searches in ``settings.workers``.
    A quick bot's move never waits in line behind a search: a table of a human and
    three heuristics keeps its pace however many search tables are thinking.

    Started on the first move; end with :meth:`close`.
    """

    def __init__(self, settings: PoolSettings | None = None) -> None:
        self.settings = settings or PoolSettings()
        self._pools: dict[bool, ProcessPool] = {}
        self.failures = 0
        """Moves the fallback made, since start (a health figure)."""
        self._last_log = 0.0
        self._lines: dict[str, _Line] = {}
        """Each creator's line for the search lane (gone when nobody is in it)."""

    def _pool(self, quick: bool) -> ProcessPool:
        if quick not in self._pools:
            from pebble import ProcessPool  # a server extra: the defaults above are read without it

            # spawn: a fork of a server with a running event loop and threads is not safe.
            self._pools[quick] = ProcessPool(
                max_workers=1 if quick else self.settings.workers,
                initializer=_start_worker,
                initargs=(registry.plugins(),),
                context=multiprocessing.get_context("spawn"),
            )
        return self._pools[quick]

    def close(self) -> None:
        pools, self._pools = list(self._pools.values()), {}
        for pool in pools:
            pool.stop()
        for pool in pools:
            pool.join(timeout=10)

    @contextlib.asynccontextmanager
    async def _turn(self, who: str | None) -> AsyncIterator[None]:
        """Wait for ``who``'s turn in the search lane; at once for None.

        The tables of one creator (a client address) may have as many searches in the lane at
        once, thinking or waiting for a worker, as there are search workers: all of them when
        nobody else asks, a fair share when others do. The rest wait in the creator's own line.
        Else one address with its twenty tables of search bots, moving at once, would keep every
        other table's bots waiting behind twenty searches."""
        if who is None:
            yield
            return
        line = self._lines.get(who) or self._lines.setdefault(who, _Line(asyncio.Semaphore(self.settings.workers)))
        line.people += 1
        try:
            async with line.gate:
                yield
        finally:
            line.people -= 1
            if not line.people:
                del self._lines[who]

    async def decide(self, spec: str, game: str, view: SeatView, rng: random.Random, seconds: float,
                     who: str | None = None) -> int:  # fmt: skip
        """The bot's action for ``view.seat``, or the fallback's if the bot fails or overruns.

        ``rng`` is the table's: the worker draws from a copy, and the fallback
        from ``rng`` itself, so a game stays reproducible from its seeds either way.
        ``who`` is the table's creator: a search waits its turn among that creator's.
        """
        quick = is_quick(spec, game)
        future = None
        broke: RuntimeError | None = None
        try:
            # The wait in the creator's line counts against the queue deadline too.
            async with asyncio.timeout(self.settings.queue_deadline), self._turn(None if quick else who):
                try:
                    future = self._pool(quick).schedule(
                        _decide, args=(spec, game, view, rng, seconds), timeout=self.settings.deadline
                    )
                except RuntimeError as err:  # the lane's pool itself broke: mended below, out of line
                    broke = err
                else:
                    action = await asyncio.wrap_future(future)
        except asyncio.CancelledError:  # the table moved on, or the server is stopping
            if future is not None:
                future.cancel()
            raise
        except Exception as err:  # overran (TimeoutError), worker died (ProcessExpired), bot raised
            if future is not None:
                future.cancel()
            self._note(spec, game, err)
        else:
            if broke is not None:  # a new pool serves the next move
                self._note(spec, game, broke)
                broken = self._pools.pop(quick, None)
                if broken is not None:
                    broken.stop()
                    await asyncio.to_thread(broken.join, 10)
            elif action in view.legal_actions():
                return int(action)
            else:
                self._note(spec, game, ValueError(f"illegal action {action!r}"))
        return fallback_action(game, view, rng)

    async def judge(self, spec: str, game: str, view: SeatView, played: int, seed: int,
                    seconds: float) -> tuple[int, float, float]:  # fmt: skip
        """A decision's analysis in the search lane (like a search bot's move): the search's
        choice, and its estimates for the move played and for that choice. Raises on failure."""
        future = self._pool(False).schedule(_judge, args=(spec, game, view, played, seed, seconds),
                                            timeout=self.settings.deadline)  # fmt: skip
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            future.cancel()
            raise

    def _note(self, spec: str, game: str, err: BaseException) -> None:
        """One short line per failure, and at most one a second: a broken bot spec at many
        tables must not flood the log."""
        self.failures += 1
        now = time.monotonic()
        if now - self._last_log >= 1.0:
            self._last_log = now
            what = "overran its deadline" if isinstance(err, TimeoutError) else repr(err)[:120]
            log.warning("bot %s (%s) %s; the fallback moved (%d so far)", spec, game, what, self.failures)
