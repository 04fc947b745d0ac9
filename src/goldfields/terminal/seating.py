"""Who sits where: the human seats and a bot for every other seat.

Checked before the game starts, so that a bad option is an error message and
an exit status, never a traceback halfway through a game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..bots import Bot, BotSpecError, make_bot
from ..bots.registry import misnamed, spec_or_level


class SeatingError(ValueError):
    """Options that do not describe a table: the message says what to change."""


@dataclass(frozen=True, slots=True)
class Seating:
    humans: tuple[int, ...]
    bot_specs: tuple[tuple[int, str], ...]
    """(seat, bot spec) for every seat that is not human, in seat order."""

    @property
    def hot_seat(self) -> bool:
        return len(self.humans) > 1

    def spec_of(self, seat: int) -> str | None:
        return dict(self.bot_specs).get(seat)


def default_bot(game: str, preferred: Sequence[str] = ("heuristic", "random")) -> str:
    """The first preferred bot that exists for ``game`` (Digger's heuristic may not yet)."""
    for spec in preferred:
        try:
            make_bot(spec, game)
        except BotSpecError:
            continue
        return spec
    return "random"


def plan_seats(
    game: str,
    players: int,
    seats: Sequence[int] | None = None,
    humans: int | None = None,
    bots: Sequence[str] | None = None,
    levels: Mapping[str, str] | None = None,
) -> Seating:
    """Human seats from ``seats`` (explicit) or ``humans`` (seats 0..K-1), default seat 0.

    ``bots`` holds one spec per bot seat (in seat order) or one for all;
    each item may hold several specs separated by spaces. A spec that is one of
    ``levels`` (the table's, ``GameDefinition.levels_for``: easy, medium, hard)
    stands for that level's bot (:func:`level_spec`).
    """
    levels = levels or {}
    if seats:
        human_seats = tuple(seats)
        for s in human_seats:
            if not 0 <= s < players:
                raise SeatingError(f"--seat {s}: the seats of a {players}-player game are 0 to {players - 1}")
        if len(set(human_seats)) != len(human_seats):
            raise SeatingError(f"--seat names a seat twice: {' '.join(map(str, human_seats))}")
        if humans is not None and humans != len(human_seats):
            raise SeatingError(f"--humans {humans} but {len(human_seats)} --seat given; give one or the other")
        human_seats = tuple(sorted(human_seats))
    else:
        count = 1 if humans is None else humans
        if not 1 <= count <= players:
            raise SeatingError(f"--humans {count}: between 1 and {players} people can play a {players}-player game")
        human_seats = tuple(range(count))
    bot_seats = [s for s in range(players) if s not in human_seats]
    specs = [spec_or_level(spec, levels, game) for item in (bots or ()) for spec in item.split()]
    if not bot_seats:
        if specs:
            raise SeatingError("every seat is human, so --bots has no seat to fill")
        return Seating(human_seats, ())
    if not specs:
        specs = [default_bot(game)]
    if len(specs) == 1:
        specs = specs * len(bot_seats)
    if len(specs) != len(bot_seats):
        raise SeatingError(
            f"{len(bot_seats)} bot seat{'s' if len(bot_seats) > 1 else ''} ({', '.join(map(str, bot_seats))}) "
            f"need{'' if len(bot_seats) > 1 else 's'} one bot spec for all or one each; got {len(specs)}: "
            f"{' '.join(specs)}"
        )
    for spec in specs:
        try:
            make_bot(spec, game)
        except BotSpecError as err:
            # A known bot with a wrong parameter: its error says which. A wrong name: the right ones.
            raise SeatingError(misnamed(spec, game, levels) or str(err)) from None
    return Seating(human_seats, tuple(zip(bot_seats, specs, strict=True)))


def build_bots(game: str, seating: Seating, players: int) -> list[Bot | None]:
    """A bot per bot seat, ``None`` for the human seats."""
    bots: list[Bot | None] = [None] * players
    for seat, spec in seating.bot_specs:
        bots[seat] = make_bot(spec, game)
    return bots
