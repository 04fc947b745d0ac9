"""Duplicate deals: which bots sit where in every game of a tournament.

A *lineup* names one bot per side (a team in the Digging partnership game, a
seat otherwise). Each deal is played once per rotation of the lineup over the
sides, always with the same chance seed, so every bot meets the same decks and
dice from every side of the table, as in duplicate bridge, and the luck of the
deal cancels out of the comparison.

Rotations put every bot on every side, but with three or more bots each keeps
its neighbours: in ``a b c`` rotated, ``b`` always plays right after ``a``.
Where the order around the table matters (who steals from whom in Digger, whose
mine is attacked next in Digging), ``seatings="all"`` plays every ordering of
the lineup instead: 6 games a deal for three sides, 24 for four.

An *entrant* is a position in the lineup, not a bot spec: ``heuristic
heuristic`` is two entrants (self-play), told apart by :func:`entrant_labels`.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

from ..seeding import sealed_seed
from .games import GameSpec

T = TypeVar("T")

class Seatings(StrEnum):
    """How each deal is seated: every cyclic rotation of the lineup, every ordering of it, or
    the lineup's own seating alone (``one``: for a lineup of one bot on every side, whose
    rotations would replay the same game when the bot is deterministic)."""

    rotations = "rotations"
    all = "all"
    one = "one"


SEATINGS = tuple(Seatings)


@dataclass(frozen=True, slots=True)
class GameJob:
    """One game to play: a deal, a rotation of the lineup, and the seeds."""

    index: int
    deal: int
    rotation: int
    seat_bots: tuple[str, ...]
    spec: GameSpec
    seed: int
    seat_entrants: tuple[int, ...] = ()
    """The entrant (position in the lineup) on each seat; equal specs stay apart here."""

    @property
    def chance_seed(self) -> str:
        # The same for every rotation of a deal: that is the duplicate.
        return f"goldfields-arena/{self.seed}/deal/{self.deal}"

    def bot_seed(self, seat: int) -> int:
        # Sealed: the text names the run's seed and the deal, which a bot could read back out of a
        # generator seeded with the text itself, and so deal the cards again (goldfields.seeding).
        return sealed_seed(f"goldfields-arena/{self.seed}/deal/{self.deal}/rotation/{self.rotation}/seat/{seat}")


def rotations(lineup: Sequence[T]) -> list[tuple[T, ...]]:
    """Every cyclic rotation of the lineup (bot per side); a lineup of one bot has one."""
    k = len(lineup)
    seen: list[tuple[T, ...]] = []
    for r in range(k):
        rotated = tuple(lineup[(i - r) % k] for i in range(k))
        seen.append(rotated)
    return seen


def seatings(lineup: Sequence[T], mode: str = "rotations") -> list[tuple[T, ...]]:
    """The seatings of a deal (bot per side): :func:`rotations`, or with ``"all"`` every ordering,
    the lineup's own first, or with ``"one"`` the lineup's own alone."""
    if mode == "rotations":
        return rotations(lineup)
    if mode == "all":
        return list(itertools.permutations(lineup))
    if mode == "one":
        return [tuple(lineup)]
    raise ValueError(f"seatings must be one of {', '.join(SEATINGS)}, not {mode!r}")


def per_deal(sides: int, mode: str = "rotations") -> int:
    """Games a deal: one per seating."""
    return len(seatings(range(sides), mode))


def entrant_labels(lineup: Sequence[str]) -> list[str]:
    """A name per entrant: its spec, numbered ``#1``, ``#2``... when the spec appears more than once."""
    counts = Counter(lineup)
    seen: Counter[str] = Counter()
    labels = []
    for text in lineup:
        seen[text] += 1
        labels.append(text if counts[text] == 1 else f"{text} #{seen[text]}")
    return labels


def deals_for(games: int, games_a_deal: int) -> int:
    """How many deals give at least ``games`` games (whole duplicate sets only)."""
    return max(1, math.ceil(games / games_a_deal))


def schedule(
    spec: GameSpec, lineup: Sequence[str], deals: int, seed: int, mode: str = "rotations"
) -> list[GameJob]:
    if len(lineup) != spec.sides:
        what = "teams" if spec.partnership else "seats"
        raise ValueError(
            f"{spec.label} has {spec.sides} {what}: name {spec.sides} bots, one per {what[:-1]} "
            f"(got {len(lineup)}: {' '.join(lineup) or 'none'})"
        )
    jobs: list[GameJob] = []
    for deal in range(deals):
        for r, sides in enumerate(seatings(range(len(lineup)), mode)):
            seat_entrants = tuple(sides[spec.side_of(s)] for s in range(spec.players))
            seat_bots = tuple(lineup[e] for e in seat_entrants)
            jobs.append(GameJob(len(jobs), deal, r, seat_bots, spec, seed, seat_entrants))
    return jobs
