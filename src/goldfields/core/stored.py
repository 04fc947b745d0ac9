"""Reading a stored state's JSON field by field, each value checked.

Both engines' ``from_json`` read through :class:`StoredFields`, so a stored
state with a value of the wrong type or out of range is refused at once, with a
``ValueError`` naming the field, and never fails later in the middle of a move.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_MISSING = object()


class StoredFields:
    """The fields of one stored state; ``game`` names it in every refusal."""

    def __init__(self, data: Mapping[str, Any], game: str) -> None:
        self.data = data
        self.game = game

    def bad(self, what: str) -> ValueError:
        return ValueError(f"not a valid {self.game} state: {what}")

    def get(self, key: str) -> Any:
        if key not in self.data:
            raise self.bad(f"{key} is missing")
        return self.data[key]

    def whole(self, name: str, lo: int, hi: int, value: Any = _MISSING) -> int:
        v = self.get(name) if value is _MISSING else value
        if type(v) is not int or not lo <= v <= hi:
            raise self.bad(f"{name} must be a whole number from {lo} to {hi}, not {_short(v)}")
        return v

    def flag(self, name: str, value: Any = _MISSING) -> bool:
        v = self.get(name) if value is _MISSING else value
        if type(v) is not bool:
            raise self.bad(f"{name} must be true or false, not {_short(v)}")
        return v

    def seq(self, name: str, length: int | None = None, value: Any = _MISSING) -> list[Any]:
        v = self.get(name) if value is _MISSING else value
        if not isinstance(v, (list, tuple)) or (length is not None and len(v) != length):
            raise self.bad(f"{name} must be {'a list' if length is None else f'a list of {length}'}, not {_short(v)}")
        return list(v)

    def wholes(self, name: str, lo: int, hi: int, length: int | None = None, value: Any = _MISSING) -> list[int]:
        v = self.seq(name, length, value)
        for x in v:
            if type(x) is not int or not lo <= x <= hi:
                raise self.bad(f"{name} must hold whole numbers from {lo} to {hi}, not {_short(x)}")
        return v


def _short(value: Any, limit: int = 40) -> str:
    """A value for a message: whole if short, else cut (a stored hand is long, and a message is one line)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
