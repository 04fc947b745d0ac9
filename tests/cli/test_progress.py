"""The progress bar of long commands, on a terminal and in a log file."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from rich.progress import MofNCompleteColumn, TextColumn

from goldfields.progress import LoggedProgress


def _run(console: Console, every: float, auto_refresh: bool = True) -> str:
    with LoggedProgress(TextColumn("{task.description}"), MofNCompleteColumn(), console=console, every=every,
                        auto_refresh=auto_refresh) as bar:  # fmt: skip
        task = bar.add_task("games", total=3)
        for _ in range(3):
            bar.advance(task)
    out = console.file
    assert isinstance(out, io.StringIO)
    return out.getvalue()


def test_a_log_file_gets_a_line_as_the_work_moves_on_and_the_last_at_the_end() -> None:
    log = _run(Console(file=io.StringIO(), force_terminal=False, width=80), every=0.0)
    # Two lines as it goes (the third advance finishes the work), then the bar as it ends.
    assert [line.split() for line in log.splitlines()] == [["games", "1/3"], ["games", "2/3"], ["games", "3/3"]]


def test_a_log_file_gets_no_more_than_a_line_a_period() -> None:
    log = _run(Console(file=io.StringIO(), force_terminal=False, width=80), every=3600.0)
    assert [line.split() for line in log.splitlines()] == [["games", "3/3"]]


def test_a_terminal_gets_the_live_bar_and_no_extra_lines() -> None:
    # Without its timer the live bar is drawn as it starts and as it ends, so a line printed as
    # the work moved on would be the only way "1/3" got there.
    log = _run(Console(file=io.StringIO(), force_terminal=True, width=80), every=0.0, auto_refresh=False)
    assert "0/3" in log and "3/3" in log and "1/3" not in log and "2/3" not in log


def test_a_terminal_too_dumb_for_a_live_bar_gets_the_lines_a_file_gets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "dumb")
    log = _run(Console(file=io.StringIO(), force_terminal=True, width=80), every=0.0, auto_refresh=False)
    assert [line.split() for line in log.splitlines() if line.strip()] == [["games", "1/3"], ["games", "2/3"],
                                                                        ["games", "3/3"]]


def test_a_transient_bar_leaves_no_line_in_a_file() -> None:
    console = Console(file=io.StringIO(), force_terminal=False, width=80)
    with LoggedProgress(TextColumn("{task.description}"), MofNCompleteColumn(), console=console, every=0.0,
                        transient=True) as bar:  # fmt: skip
        task = bar.add_task("games", total=3)
        for _ in range(3):
            bar.advance(task)
    assert "1/3" not in console.file.getvalue()  # type: ignore[attr-defined]


def test_work_cut_short_does_not_repeat_its_last_line_in_a_file() -> None:
    console = Console(file=io.StringIO(), force_terminal=False, width=80)
    with LoggedProgress(TextColumn("{task.description}"), MofNCompleteColumn(), console=console, every=0.0) as bar:
        task = bar.add_task("games", total=3)
        bar.advance(task)
        bar.advance(task)  # and then it stops, one game short
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert [line.split() for line in lines if line.strip()] == [["games", "1/3"], ["games", "2/3"]]


def test_the_time_left_follows_the_pace_of_the_whole_run_not_only_the_last_half_minute() -> None:
    from goldfields.progress import RemainingColumn

    now = [0.0]
    bar = LoggedProgress(RemainingColumn(), console=Console(file=io.StringIO()), get_time=lambda: now[0])
    # A resumed run: 4 of 10 games were played before it began, and are no part of its pace.
    task = bar.add_task("games", total=10, completed=4, before=4)
    column = RemainingColumn()
    assert column.render(bar.tasks[0]).plain == "-:--:--"  # no game of this run yet
    now[0] = 100.0
    bar.advance(task)
    now[0] = 200.0
    bar.advance(task)  # two games in 200 s, each longer than Rich's half-minute window
    assert column.render(bar.tasks[0]).plain == "0:06:40"  # four games left, at 100 s each
    bar.update(task, completed=10)
    assert column.render(bar.tasks[0]).plain == "0:00:00"
