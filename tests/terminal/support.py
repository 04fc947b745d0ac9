"""In-process fakes for the terminal tests: a scripted keyboard, a fake clock, a captured screen."""

from __future__ import annotations

import io
import re
from collections.abc import Callable

from goldfields.terminal.keyboard import Expired
from goldfields.terminal.screen import Screen, make_console


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


Answer = str | float


class ScriptedKeyboard:
    """A keyboard that answers prompts from a policy.

    ``policy(prompt)`` returns a line, or a number of seconds to let pass on
    the fake clock before answering the same prompt again (the deadline is
    checked after the wait, as the real keyboard would while the player thinks).
    """

    def __init__(self, policy: Callable[[str], Answer], clock: FakeClock | None = None, limit: int = 20000) -> None:
        self.policy = policy
        self.clock = clock
        self.prompts: list[str] = []
        self.limit = limit

    def discard(self) -> None:
        pass  # the policy answers each prompt as it comes: nothing is typed ahead

    def read(self, prompt: str, expired: Expired | None = None) -> str | None:
        self.prompts.append(prompt)
        if len(self.prompts) > self.limit:
            raise EOFError
        while True:
            answer = self.policy(prompt)
            if isinstance(answer, str):
                return answer
            assert self.clock is not None, "waiting needs a fake clock"
            self.clock.now += answer
            if expired is not None and expired():
                return None


def capture_screen(width: int = 120) -> tuple[Screen, io.StringIO]:
    out = io.StringIO()
    return Screen(make_console(no_color=True, width=width, file=out)), out


def moves_in(prompt: str) -> int:
    match = re.search(r"\(1(?:-(\d+)| = )", prompt)
    assert match, prompt
    return int(match.group(1) or 1)

