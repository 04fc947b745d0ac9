"""The input side of the terminal: lines from the keyboard, with an optional deadline.

Digger is played in real time: while the human digs, the hourglass may run
out at any moment, whether or not they are typing. So a read can be given an
``expired()`` test; the keyboard then waits for input in short slices and
gives up (returning ``None``) as soon as the test says the time is over.

Lines are read from the file descriptor directly (``os.read``), not through
``sys.stdin``'s buffer: ``select`` only sees what the operating system still
holds, so a Python-level buffer could hide a typed line from the deadline
loop. Where ``select`` cannot watch the keyboard (Windows consoles), reads
simply block and a late move is caught by the engine instead, which treats a
step stamped after the hourglass as a timeout.
"""

from __future__ import annotations

import codecs
import os
import select
import sys
from collections import deque
from collections.abc import Callable
from typing import Protocol

from .screen import Screen

Expired = Callable[[], bool]

POLL_SECONDS = 0.05
"""How often a deadline is checked while waiting for a key."""

IDLE_SECONDS = 0.25
"""How often a wait without a deadline wakes (to handle signals such as Ctrl-C)."""


class Keyboard(Protocol):
    """What a session reads lines from. A keyboard may also have ``discard()``, to forget what was
    typed and not yet read (the session calls it, where there is one, before a hot seat's hand-over
    and the end of a hand: a line typed ahead for a turn that is over must not answer those)."""

    def read(self, prompt: str, expired: Expired | None = None) -> str | None:
        """Show ``prompt`` and return the next line typed, without its line end.

        Returns ``None`` if ``expired()`` became true before a line was
        complete; raises ``EOFError`` at the end of input and lets
        ``KeyboardInterrupt`` (Ctrl-C) through.
        """
        ...


class TerminalKeyboard:
    """The real keyboard (standard input), for :class:`Screen` prompts."""

    def __init__(self, screen: Screen, fd: int | None = None) -> None:
        self.screen = screen
        self.fd = sys.stdin.fileno() if fd is None else fd
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._partial = ""
        self._lines: deque[str] = deque()
        self._can_wait = os.name != "nt"

    def read(self, prompt: str, expired: Expired | None = None) -> str | None:
        self.screen.prompt(prompt)
        while not self._lines:
            if expired is not None and expired():
                self._drop_typeahead()
                self.screen.blank()
                return None
            if self._can_wait:
                # Wait in slices even without a deadline: the interpreter runs signal
                # handlers between slices, so Ctrl-C is answered even when the signal
                # did not interrupt the wait itself.
                ready, _, _ = select.select([self.fd], [], [], POLL_SECONDS if expired is not None else IDLE_SECONDS)
                if not ready:
                    continue
            data = os.read(self.fd, 4096)
            if not data:
                if self._partial:
                    self._lines.append(self._partial)
                    self._partial = ""
                    break
                raise EOFError
            self._feed(self._decoder.decode(data))
        return self._lines.popleft()

    def _feed(self, text: str) -> None:
        text = self._partial + text.replace("\r\n", "\n").replace("\r", "\n")
        *lines, self._partial = text.split("\n")
        self._lines.extend(lines)

    def discard(self) -> None:
        """Drop what was typed ahead at a terminal. Piped or redirected input is left alone: its
        lines are not typed ahead but the rest of the input, a script's answers to come."""
        if os.isatty(self.fd):
            self._drop_typeahead()

    def _drop_typeahead(self) -> None:
        """Keys typed for a turn that is over must not become moves in the next one."""
        self._lines.clear()
        self._partial = ""
        try:
            import termios

            if os.isatty(self.fd):
                termios.tcflush(self.fd, termios.TCIFLUSH)
        except (ImportError, OSError):
            pass
