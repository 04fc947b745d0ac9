"""Playing in the terminal: one person against bots, or several at one keyboard (hot seat).

``goldfields play digging`` and ``goldfields play digger`` (goldfields.cli.play)
set a game up with :mod:`.launch` and run it in a :class:`.session.Session`.
The front end talks to the engines only through the GameState interface and
shows each person only their own seat's observation and event views.
See docs/terminal.md.
"""

from __future__ import annotations

from .launch import Display, SetupError, digger_session, digging_session, resume_session
from .session import Session

__all__ = ["Display", "Session", "SetupError", "digger_session", "digging_session", "resume_session"]
