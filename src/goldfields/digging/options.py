"""Rule options: the readings of the rule sheets that the rulings did not pick.

Every option is off by default; with all options off the engine plays the
game exactly as ``RULINGS.md`` (in the project's shared rulings) decides.
docs/digging.md explains each. ``target`` and ``hand_size`` are designers'
knobs rather than readings: the points that win, in place of the rules' 40,
45, 50 or 60, and the cards dealt to each player, in place of the rules' 6.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

TARGETS_INDIVIDUAL = {2: 40, 3: 45, 4: 50}

REMOVED = {
    "resolve_fight_at_hand_end": (
        "resolving a fight still open at the end of a hand could never change a score "
        "(a fought-over mine is open, and open mines score nothing; D6, D8)"
    ),
}
"""Options that records made before their removal may still carry, and why they went."""
TARGET_PARTNERSHIP = 60
HAND_SIZE = 6
"""D1: the cards dealt to each player."""
MAX_HAND_SIZE = 12
"""The most cards ``hand_size`` deals each: twice the rules', which leaves a pile at every table
(2 players deal 24 of their 48 cards)."""
MAX_TARGET = 120
"""The highest ``target``: twice the partnership game's, and the scale of the observation's
target (``research.encoding``), which would pass 1 above it."""


@dataclass(frozen=True, slots=True)
class DiggingOptions:
    target_exceeded: bool = False
    """D9, partnership game only: a team must pass the target of 60, not just
    reach it (the German sheet's "überschreiten", which its partnership section
    alone says). The individual game's targets are reached as the rulings say."""

    full_deck: bool = False
    """Modes: play 2 and 3 players with all 60 cards (the German sheet only
    "recommends" laying chests aside)."""

    no_chests_during_fight: bool = False
    """D4: a mine under attack may not receive chests until the fight ends."""

    close_needs_chest: bool = False
    """D5: a closed-mine card may only go onto a mine holding a chest."""

    target: int = field(default=0, metadata={"limits": (0, MAX_TARGET, 1)})
    """The points that win the game, from 1 to :data:`MAX_TARGET`, in place of
    the rules' (D9: 40, 45 or 50 for 2, 3 or 4 players, 60 for a partnership);
    0, the default, keeps the rules' target. For designers: how does a shorter
    or longer game change who wins?"""

    hand_size: int = field(default=0, metadata={"limits": (0, MAX_HAND_SIZE, 1)})
    """The cards dealt to each player, from 1 to :data:`MAX_HAND_SIZE`, in place of
    the rules' 6 (D1); 0, the default, keeps the rules' 6. For designers: does a
    bigger hand favour planning over the luck of the draw?"""

    def __post_init__(self) -> None:
        whole = {"target": ("points", MAX_TARGET, "the rules' target"),
                 "hand_size": ("cards", MAX_HAND_SIZE, f"the rules' {HAND_SIZE}")}  # fmt: skip
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in whole:
                unit, most, zero = whole[f.name]
                if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
                    raise ValueError(f"rule option {f.name} must be a whole number of {unit} from 1 to {most} "
                                     f"(or 0 for {zero}), not {value!r}")
            elif not isinstance(value, bool):
                raise ValueError(f"rule option {f.name} must be true or false, not {value!r}")

    def to_json(self) -> dict[str, Any]:
        """Only the options that are set: a record with all defaults has ``{}``."""
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> DiggingOptions:
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            # dict() would read [["full_deck", true]] as options, and fail on 0 with a TypeError.
            raise ValueError(f"options must be an object of rule options set to true or false, not {data!r:.60}")
        data = dict(data)
        for name, why in REMOVED.items():
            if name in data:
                raise ValueError(f"the rule option {name} was removed: {why}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(
                f"unknown Digging rule option(s) {', '.join(unknown)}; "
                f"known: {', '.join(sorted(known))}"
            )
        return cls(**data)


def target_for(players: int, partnership: bool, options: DiggingOptions | None = None) -> int:
    """The points that win: the rules' for the table (D9), unless ``options`` sets a target."""
    if options is not None and options.target:
        return options.target
    return TARGET_PARTNERSHIP if partnership else TARGETS_INDIVIDUAL[players]


def hand_size_for(options: DiggingOptions | Mapping[str, Any] | None = None) -> int:
    """The cards dealt to each player: the rules' 6 (D1), unless ``options`` sets ``hand_size``.

    ``options`` may also be the options as an observation or a record carries them (``to_json``)."""
    size = options.get("hand_size") if isinstance(options, Mapping) else getattr(options, "hand_size", 0)
    return size or HAND_SIZE
