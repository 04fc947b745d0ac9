"""A finished game's costly moves, for the replay viewer.

``GET /api/tables/{id}/analysis?seat=N`` starts the work the first time and
answers ``202`` with its progress until every decision of the seat is judged,
then ``200`` with the decisions (see :mod:`goldfields.bots.analysis`). Each
decision is judged from the seat's own view, in the bot pool's search lane, so
the event loop never searches and a live table's bot is never starved for
long: one analysis runs at a time, a decision at a time, between bot moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..bots.analysis import Judgement, Position, decision, decisions
from ..core.definition import GameDefinition
from .botpool import BotPool

log = logging.getLogger("goldfields.server")

KEEP = 64
"""Analyses kept, finished or running; the oldest finished one goes first."""

WAITING = 8
"""Analyses running or waiting their turn, in all; one more is refused (503) until one ends."""

PER_CLIENT = 2
"""Analyses running or waiting that one client address may have started: else one address,
within its rate, could take every place under :data:`WAITING` for the better part of an hour."""


class Busy(Exception):
    """As many analyses wait as the server takes."""


@dataclass
class Job:
    seat: int
    judge: str
    client: str | None = None
    """The address that started it (None: not counted, as with the rate limits off)."""
    total: int | None = None
    """Decisions to judge; ``None`` while the record is still being read."""
    decisions: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    task: asyncio.Task[None] | None = None

    @property
    def done(self) -> bool:
        return self.error is not None or (self.total is not None and len(self.decisions) == self.total)

    def report(self) -> dict[str, Any]:
        status = "failed" if self.error else "done" if self.done else "running"
        out: dict[str, Any] = {"status": status, "seat": self.seat, "judge": self.judge,
                               "judged": len(self.decisions), "total": self.total}  # fmt: skip
        if self.error:
            out["message"] = self.error
        if status == "done":
            out["decisions"] = self.decisions
        return out


class Analyses:
    """Analysis jobs by ``(table, seat)``: started on the first ask, kept for the next."""

    def __init__(self, bots: BotPool, seconds: float) -> None:
        self.bots = bots
        self.seconds = seconds
        """Search time per decision."""
        self.jobs: OrderedDict[tuple[str, int], Job] = OrderedDict()
        self._one_at_a_time = asyncio.Semaphore(1)

    def get(self, table: str, seat: int) -> Job | None:
        """The analysis asked for before, unless it failed (then the next ask starts it again)."""
        job = self.jobs.get((table, seat))
        if job is None or job.error is not None:
            return None
        self.jobs.move_to_end((table, seat))
        return job

    def busy(self) -> bool:
        """Whether :data:`WAITING` analyses are under way: the next one would be refused."""
        return sum(not j.done for j in self.jobs.values()) >= WAITING

    def busy_for(self, client: str | None) -> bool:
        """Whether ``client`` has :data:`PER_CLIENT` analyses under way (never, for None)."""
        return client is not None and sum(j.client == client and not j.done for j in self.jobs.values()) >= PER_CLIENT

    def start(self, table: str, seat: int, definition: GameDefinition[Any], record: Mapping[str, Any],
              client: str | None = None) -> Job:  # fmt: skip
        """Start judging ``seat``'s decisions for ``client``; :class:`Busy` if the server is
        :meth:`busy`, or the client :meth:`busy_for`."""
        if self.busy() or self.busy_for(client):
            raise Busy
        assert definition.analyst is not None
        job = self.jobs[(table, seat)] = Job(seat, definition.analyst, client)
        job.task = asyncio.create_task(self._run(job, definition, record))
        while len(self.jobs) > KEEP:
            oldest = next((k for k, j in self.jobs.items() if j.done), None)
            if oldest is None:
                break
            del self.jobs[oldest]
        return job

    async def _run(self, job: Job, definition: GameDefinition[Any], record: Mapping[str, Any]) -> None:
        try:
            async with self._one_at_a_time:  # the record is read when its turn comes, not while it waits
                positions: list[Position] = await asyncio.to_thread(
                    lambda: list(decisions(definition, record, job.seat))
                )
                job.total = len(positions)
                for pos in positions:
                    best, played_win, best_win = await self.bots.judge(
                        job.judge, definition.name, pos.view, pos.played, pos.step, self.seconds
                    )
                    job.decisions.append(decision(pos, Judgement(best, played_win, best_win)).to_json())
        except asyncio.CancelledError:
            raise
        except Exception as err:  # a worker that died or overran: say so, and let the next ask retry
            log.warning("analysis of seat %d failed: %r", job.seat, err)
            job.error = "the analysis could not finish; ask again to retry"

    async def close(self) -> None:
        tasks = [j.task for j in self.jobs.values() if j.task is not None and not j.task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
