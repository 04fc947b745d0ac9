"""The server's database: tables, their seats, and the log of every step.

A table's game is never stored as a snapshot: it is the table's configuration
plus its append-only list of steps (deals, dice, moves), replayed through the
engine on restart. That keeps one source of truth (the engine) and makes a
restored table exactly the table that was running.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


CREATOR_WIDTH = 64
"""Characters of a table creator's address kept (``tables.creator``)."""


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(80), default="")
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    # Seeds the table's chance outcomes and bots; never leaves the server.
    secret: Mapped[str] = mapped_column(String(64))
    # waiting, playing, finished, expired (a waiting table nobody joined in time), abandoned (a game
    # in play nobody came back to), or stopped (a game that reached max_game_steps).
    status: Mapped[str] = mapped_column(String(16), default="waiting")
    created_at: Mapped[float] = mapped_column(Float)
    # Wall-clock time of the last change of seats or status: a waiting table expires from it.
    updated_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    # The game record, written when the game ends: an archived table is read from it, never replayed.
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # The number of steps, written with the record (a live table counts its own).
    seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # The address that created it, while it is live: --max-tables-per-client counts these over
    # every process and across restarts. Cleared when the table closes, so that the database
    # keeps no player's address for longer than their table lives.
    creator: Mapped[str | None] = mapped_column(String(CREATOR_WIDTH), nullable=True)
    # The IPv6 /48 that address lies in (limits.network_key), kept and cleared with it, so that a
    # network's live tables are counted from an index, not by parsing every live creator.
    creator_network: Mapped[str | None] = mapped_column(String(CREATOR_WIDTH), nullable=True)

    __table_args__ = (
        # The lobby's queries: live tables at start-up, and each game's tables by status, newest first.
        Index("ix_tables_status_created", "status", "created_at"),
        Index("ix_tables_game_status_created", "game", "status", "created_at"),
        Index("ix_tables_creator_status", "creator", "status"),
        Index("ix_tables_creator_network_status", "creator_network", "status"),
    )


class SeatRow(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # human or bot
    bot: Mapped[str | None] = mapped_column(String(120), nullable=True)
    name: Mapped[str] = mapped_column(String(40), default="")
    # Only a hash of the seat's secret token is kept, so the database alone
    # does not let anyone move for a seat.
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # The player profile that took the seat (a rated game needs one at every human seat).
    player_id: Mapped[str | None] = mapped_column(String(24), nullable=True)

    # A profile that never took a seat is deleted after a while: the sweep asks for each one.
    __table_args__ = (Index("ix_seats_player", "player_id"),)


class StepRow(Base):
    __tablename__ = "steps"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    # {"deal": [cards]} or {"move": "notation"}; see goldfields.server.games.
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    # Wall-clock time of the step (time.time()), for restoring live clocks.
    wall: Mapped[float] = mapped_column(Float)


class PlayerRow(Base):
    """A player profile: a name and a secret key, no password. Bots are players too (``bot``
    holds the spec, and they have no key), so that they have ratings beside the humans."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    # Only a hash of the key, as for seat tokens: the database alone lets no one play as anyone.
    key_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    bot: Mapped[str | None] = mapped_column(String(120), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)


class RatingRow(Base):
    """A player's rating in one game and mode (``partnership``, ``2p``, ``3p``...): openskill's
    Plackett-Luce mu and sigma; shown as the ordinal mu - 3 sigma."""

    __tablename__ = "ratings"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    mode: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index("ix_ratings_board", "game", "mode"),)


class ResultRow(Base):
    """One seat's result in a finished game: a player's game history."""

    __tablename__ = "results"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    game: Mapped[str] = mapped_column(String(16))
    mode: Mapped[str] = mapped_column(String(16))
    rank: Mapped[int] = mapped_column(Integer)  # 0: the winning side
    score: Mapped[int] = mapped_column(Integer)  # the side's score
    # The rating (ordinal) before and after; null for an unrated game (a human seat with no profile).
    rating_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    rating_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index("ix_results_player", "player_id", "finished_at"),)
