"""Small helpers for the English of game logs and screens."""

from __future__ import annotations


def plural(count: int, word: str, many: str | None = None) -> str:
    """``plural(1, "point")`` -> ``1 point``; ``plural(3, "point")`` -> ``3 points``."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def agree(subjects: int, verb: str) -> str:
    """The verb for one subject or several: ``agree(1, "win")`` -> ``wins``."""
    return verb + "s" if subjects == 1 else verb


def is_number(text: str) -> bool:
    """Whether ``text`` is a whole number written in ASCII digits, short enough to be a count,
    a seat or a mine. (``str.isdigit`` also takes ``²``, which ``int`` refuses, digits of other
    scripts, which the notation does not use, and a number of any length, which ``int`` refuses
    past 4,300 digits.)"""
    return text.isascii() and text.isdigit() and len(text) <= 9
