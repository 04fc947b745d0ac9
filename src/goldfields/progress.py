"""Progress bars for long work that also show in a log file.

Rich draws a live bar on a terminal. Where the output is a file (``nohup``, a
batch job, CI), it draws nothing until the work is done, so an hours-long
``goldfields train`` or ``arena`` run says nothing of how far it has got.
:class:`LoggedProgress` is Rich's bar on a terminal and, elsewhere (a file, or a
terminal too dumb for a live bar), prints the bar's line as text at most every
``every`` seconds while the work moves on.
"""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

from rich.progress import Progress, ProgressColumn, Task, TaskID
from rich.text import Text

EVERY = 60.0
"""Seconds between two progress lines in a log: often enough to see a run move, seldom enough
that a run of hours writes a few hundred lines."""


class LoggedProgress(Progress):
    """:class:`rich.progress.Progress` that, off a terminal, prints its line every ``every`` seconds."""

    def __init__(self, *columns: Any, every: float | None = None, **kwargs: Any) -> None:
        super().__init__(*columns, **kwargs)
        self.every = EVERY if every is None else every
        self._logged = time.monotonic()
        self._logged_at: tuple[tuple[float, float | None], ...] | None = None
        """Where the tasks stood at the last line logged."""

    def advance(self, task_id: TaskID, advance: float = 1) -> None:
        super().advance(task_id, advance)
        self._log()

    def update(self, task_id: TaskID, **kwargs: Any) -> None:
        super().update(task_id, **kwargs)
        if kwargs.get("advance") or kwargs.get("completed") is not None:
            self._log()

    def _log(self) -> None:
        live = self.console.is_terminal and not self.console.is_dumb_terminal  # where Rich draws the bar
        # A transient bar is not part of the output: in a file, lines of it would stay there. The
        # finished bar is printed when it stops.
        if self.disable or live or self.live.transient or self.finished:
            return
        now = time.monotonic()
        if now - self._logged >= self.every:
            self._logged = now
            self._logged_at = self._standing()
            self.console.print(self.make_tasks_table(self.tasks))

    def stop(self) -> None:
        # Off a terminal Rich prints the bar once more as it stops. After work cut short (an
        # interrupted run, a failed one) that line would repeat the last one logged.
        if self._logged_at is not None and self._logged_at == self._standing():
            self.live.transient = True  # off a terminal a transient bar ends with a bare newline
        super().stop()

    def _standing(self) -> tuple[tuple[float, float | None], ...]:
        return tuple((task.completed, task.total) for task in self.tasks)


class RateColumn(ProgressColumn):
    """Work done a second, as ``0.42 games/s``: over the whole run, since its pieces (a game of
    search) take seconds each and Rich's own speed, over the last half minute, is mostly blank."""

    def __init__(self, unit: str) -> None:
        super().__init__()
        self.unit = unit

    def render(self, task: Task) -> Text:
        rate = pace(task)
        if rate is None:
            return Text(f"- {self.unit}/s", style="progress.data.speed")
        return Text(f"{rate:.2f} {self.unit}/s", style="progress.data.speed")


class RemainingColumn(ProgressColumn):
    """Time left at the pace of the whole run so far. Rich's own estimate reads the last half
    minute, which is blank where each piece of work takes longer (an arena game of search). Work
    done before a resumed run began (the task's ``before`` field) is left out of the pace."""

    def render(self, task: Task) -> Text:
        if task.finished:
            return Text("0:00:00", style="progress.remaining")
        rate = pace(task)
        if task.total is None or rate is None:
            return Text("-:--:--", style="progress.remaining")
        return Text(str(timedelta(seconds=round((task.total - task.completed) / rate))), style="progress.remaining")


def pace(task: Task) -> float | None:
    """Work done a second over the whole run (None before any): the work a resumed run found
    done already (the task's ``before`` field) is left out."""
    elapsed = task.finished_time if task.finished else task.elapsed
    done = task.completed - task.fields.get("before", 0)
    return done / elapsed if done > 0 and elapsed else None
