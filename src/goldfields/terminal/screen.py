"""The output side of the terminal: a Rich console, with clearing that works everywhere.

Hot-seat play depends on clearing the screen between players ("hands hidden
between turns"). Rich's own clear leaves the scrollback, where the last
player's hand would be one scroll away, and does nothing at all on a dumb
terminal or a pipe. :meth:`Screen.clear` erases the scrollback too where the
terminal can, and elsewhere scrolls the old screen away with blank lines.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO

from rich.console import Console, RenderableType
from rich.text import Text

COMPACT_HEIGHT, COMPACT_WIDTH = 32, 100
"""Below either, the table is drawn compact so that it, the recap and the moves fit one screen."""

THINKING_AFTER = 0.5
"""Seconds a bot may think before the screen says so: fast bots would only make it flicker."""


def make_console(no_color: bool = False, width: int | None = None, file: IO[str] | None = None) -> Console:
    """A console for play: no automatic highlighting or emoji, so card codes print as typed.

    ``no_color`` (``--no-color``) prints plain text, with no escape codes at all, for a screen
    reader or a log; ``NO_COLOR`` in the environment, left to Rich, takes away only the colours."""
    return Console(
        file=file,
        color_system=None if no_color else "auto",
        width=width,
        highlight=False,
        emoji=False,
        soft_wrap=False,
    )


class Screen:
    """Everything the terminal front end prints goes through here."""

    def __init__(self, console: Console) -> None:
        self.console = console

    @property
    def width(self) -> int:
        return self.console.width

    @property
    def height(self) -> int:
        return self.console.height

    def rows(self, line: str) -> int:
        """How many screen rows ``line`` takes once the console wraps it."""
        return len(Text(line).wrap(self.console, self.width))

    @property
    def compact(self) -> bool:
        """A small terminal (80x24, a phone): draw the short form of the table."""
        return self.height < COMPACT_HEIGHT or self.width < COMPACT_WIDTH

    @contextmanager
    def thinking(self, what: str, after: float = THINKING_AFTER) -> Iterator[None]:
        """Say ``what`` (a bot is thinking) if the block takes longer than ``after`` seconds.

        A terminal gets a spinner that disappears when the move is made; a dumb
        terminal or a pipe, where nothing can be erased, gets one plain line."""
        console = self.console
        live = console.is_terminal and not console.is_dumb_terminal
        status = console.status(Text(f"{what}..."), spinner="dots") if live else None
        shown = threading.Event()
        lock = threading.Lock()
        done = False

        def show() -> None:
            with lock:
                if done:
                    return
                shown.set()
                if status is not None:
                    status.start()
                else:
                    console.print(Text(f"{what}...", style="dim"))
                    console.file.flush()

        timer = threading.Timer(after, show)
        timer.daemon = True
        timer.start()
        try:
            yield
        finally:
            with lock:
                done = True
                timer.cancel()
                if shown.is_set() and status is not None:
                    status.stop()

    def show(self, *items: RenderableType) -> None:
        """Print renderables; plain strings are printed literally (never as Rich markup)."""
        for item in items:
            self.console.print(Text(item) if isinstance(item, str) else item)

    def say(self, text: str, style: str | None = None) -> None:
        self.console.print(Text(text, style=style or ""))

    def error(self, text: str) -> None:
        self.console.print(Text(text, style="bold red"))

    def blank(self) -> None:
        self.console.print()

    def rule(self, title: str = "") -> None:
        self.console.rule(Text(title), style="dim")

    def prompt(self, text: str) -> None:
        """Write a prompt without a newline and flush, so it shows before input is read."""
        self.console.print(Text(text, style="bold"), end="")
        self.console.file.flush()

    def clear(self) -> None:
        console = self.console
        if console.legacy_windows:
            console.clear()  # an old Windows console: Rich clears it through the Windows API
        elif console.is_terminal and not console.is_dumb_terminal:
            # Home, erase the screen, and erase the scrollback too (xterm's 3J; terminals
            # that lack it ignore it): a hand must not be one scroll away.
            console.file.write("\033[H\033[2J\033[3J")
        else:
            # Nothing can be erased here: push the old screen out of sight instead.
            console.print("\n" * max(console.height, 40), end="")
        console.file.flush()
