"""Digger's rule options. With every option at its default the engine plays
exactly as ``RULINGS.md`` decides; docs/digger.md explains each option."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from .crates import Override, normalize_override, override_json

DEFAULT_TIME_LIMIT = 30.0
MAX_STACK_SECONDS = 10.0


@dataclass(frozen=True, slots=True)
class DiggerOptions:
    time_limit: float = field(default=DEFAULT_TIME_LIMIT, metadata={"limits": (1, None, None)})
    """G3: seconds in the hourglass, counted from the turn's first roll."""

    knock_probability: float = field(default=0.0, metadata={"limits": (0, 1, None)})
    """G5: the chance that a steal knocks a pile over, ending the turn and
    returning the haul to the centre. 0 (the default) leaves dexterity out."""

    crate_values: Override | Mapping[str, Any] = ()
    """G1: cards replacing (or added to) the shipped crate values, written as in
    ``crates.json``: ``{"white": {"Y": 2, ...}, "black": {"A": {...}}}``."""

    stack_seconds: float = field(default=0.0, metadata={"limits": (0, MAX_STACK_SECONDS, None)})
    """G3, the timed reading of stacking: calling "stop" starts the stacking,
    which takes this many seconds per token; the tokens stacked before the sand
    runs out are kept and the rest go back to the centre. 0 (the default) is
    the rulings' reading: a stop in time banks the whole haul."""

    def __post_init__(self) -> None:
        limit = self.time_limit
        if not _is_number(limit) or not math.isfinite(limit) or limit <= 0:
            raise ValueError(f"time_limit must be a positive number of seconds, not {limit!r}")
        p = self.knock_probability
        if not _is_number(p) or not 0.0 <= p <= 1.0:
            raise ValueError(f"knock_probability must be a number from 0 to 1, not {p!r}")
        stack = self.stack_seconds
        if not _is_number(stack) or not math.isfinite(stack) or not 0.0 <= stack <= MAX_STACK_SECONDS:
            most = f"{MAX_STACK_SECONDS:g}"
            raise ValueError(f"stack_seconds must be a number of seconds from 0 to {most}, not {stack!r}")
        object.__setattr__(self, "stack_seconds", float(stack))
        # Frozen: normalising means going round the dataclass's own setattr.
        object.__setattr__(self, "time_limit", float(limit))
        object.__setattr__(self, "knock_probability", float(p))
        object.__setattr__(self, "crate_values", normalize_override(self.crate_values))

    @property
    def override(self) -> Override:
        """``crate_values`` in its normalised form."""
        return self.crate_values  # type: ignore[return-value]  # normalised in __post_init__

    def to_json(self) -> dict[str, Any]:
        """Only the options that differ from the defaults: standard rules give ``{}``."""
        out: dict[str, Any] = {}
        if self.time_limit != DEFAULT_TIME_LIMIT:
            out["time_limit"] = self.time_limit
        if self.knock_probability:
            out["knock_probability"] = self.knock_probability
        if self.override:
            out["crate_values"] = override_json(self.override)
        if self.stack_seconds:
            out["stack_seconds"] = self.stack_seconds
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> DiggerOptions:
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise ValueError(f"options must be an object, not {data!r}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(str(k) for k in set(data) - known)
        if unknown:
            raise ValueError(f"unknown Digger rule option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        return cls(**data)


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)
