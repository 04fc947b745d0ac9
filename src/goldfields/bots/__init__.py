"""Bots for both games, behind one interface: a seat's view and a budget in, a legal action out.

Build one from a spec with :func:`make_bot` (``random``, ``heuristic``,
``ismcts:iterations=2000,c=0.7``...); see docs/bots.md.
"""

from __future__ import annotations

from .base import Bot, BotError, Budget, Clock
from .registry import BotSpec, BotSpecError, known_bots, make_bot

__all__ = ["Bot", "BotError", "BotSpec", "BotSpecError", "Budget", "Clock", "known_bots", "make_bot"]
