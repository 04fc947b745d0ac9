"""The real ``goldfields`` command in a pseudo-terminal, driven with pexpect."""

from __future__ import annotations

import io
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pexpect

EXE = shutil.which("goldfields") or str(Path(sys.executable).with_name("goldfields"))

# Until goldfields.cli.app registers the play group itself, the tests add it to
# the real app in a child interpreter: the same Typer app the installed command runs.
_WITH_PLAY = (
    "from goldfields.cli.app import app\n"
    "from goldfields.cli import play\n"
    "if not any(g.name == 'play' for g in app.registered_groups):\n"
    "    play.register(app)\n"
    "app(prog_name='goldfields')\n"
)


def _play_is_registered() -> bool:
    out = subprocess.run([EXE, "play", "--help"], capture_output=True, text=True, timeout=60)
    return out.returncode == 0


_COMMAND: list[str] | None = None


def goldfields_command() -> list[str]:
    """The argv prefix that runs ``goldfields`` with its ``play`` group."""
    global _COMMAND
    if _COMMAND is None:
        _COMMAND = [EXE] if _play_is_registered() else [sys.executable, "-c", _WITH_PLAY]
    return _COMMAND


ENV = {
    **os.environ,
    "TERM": "dumb",
    "NO_COLOR": "1",
    "COLUMNS": "120",
    "LINES": "40",
    "PYTHONIOENCODING": "utf-8",
}

MOVE_PROMPT = r"\(1(?:-(\d+)| = )[^\n]*> "
"""A move prompt: ``(1-N, ...`` or, with one legal move, ``(1 = draw; ...``."""
HANDOVER = r"Pass the keyboard to seat (\d), then press Enter\.> "
HAND_OVER = r"Hand (\d+) is over\. Press Enter to deal hand \d+\.> "
GAME_OVER = r"The game is over\. Type save FILE, log, or press Enter to leave\.> "


def spawn(
    *args: str, timeout: float = 30, cwd: Path | None = None, size: tuple[int, int] = (40, 120)
) -> tuple[pexpect.spawn, io.StringIO]:
    """``goldfields <args> --no-color`` in a pseudo-terminal of ``size`` (rows, columns); returns the
    child and its transcript."""
    argv = [*goldfields_command(), *args, "--no-color"]
    rows, columns = size
    env = {**ENV, "LINES": str(rows), "COLUMNS": str(columns)}
    child = pexpect.spawn(argv[0], argv[1:], env=env, encoding="utf-8", timeout=timeout, dimensions=size,
                          cwd=str(cwd) if cwd else None)
    child.delaybeforesend = None  # pexpect's default 50 ms pause per line would dominate the suite
    transcript = io.StringIO()
    child.logfile_read = transcript
    return child, transcript


def finish(child: pexpect.spawn) -> int:
    """Wait for the end of the program and return its exit status."""
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus is not None, f"killed by signal {child.signalstatus}"
    return child.exitstatus


Chooser = Callable[[pexpect.spawn, int], str]


def random_chooser(seed: int) -> Chooser:
    rng = random.Random(seed)
    return lambda child, count: str(rng.randint(1, count))


def move_count(child: pexpect.spawn) -> int:
    """How many moves the move prompt just matched offers."""
    return int(child.match.group(1) or 1)


def play_to_end(child: pexpect.spawn, choose: Chooser, max_prompts: int = 20000) -> dict[str, int]:
    """Answer every prompt until the game-over prompt; counts of prompts of each kind."""
    counts = {"moves": 0, "handovers": 0, "hands": 0}
    for _ in range(max_prompts):
        i = child.expect([MOVE_PROMPT, HANDOVER, HAND_OVER, GAME_OVER])
        if i == 0:
            counts["moves"] += 1
            child.sendline(choose(child, move_count(child)))
        elif i == 1:
            counts["handovers"] += 1
            child.sendline("")
        elif i == 2:
            counts["hands"] += 1
            child.sendline("")
        else:
            return counts
    raise AssertionError(f"no end of game after {max_prompts} prompts")


def replay(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([EXE, "replay", str(path)], capture_output=True, text=True, timeout=60)
