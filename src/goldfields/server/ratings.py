"""Player ratings: openskill's Plackett-Luce model, which rates teams and any number of sides.

A finished game is rated when every human seat was taken with a player profile and it was
played by the standard rules (a game under a rule option is kept in the history, unrated); bots are
rated too, one profile per bot spec (a bot at several seats of one game keeps its rating:
the game cannot tell which copy it was). Partners form one team, so a partnership game rates
two teams of two; an individual game rates each seat alone. Each game and mode (the
partnership game, or 2, 3, 4... players) has its own ladder. A rating is shown as
openskill's ordinal, mu - 3 sigma: it starts at 0; a win raises it, and a first loss can take it
below 0 (mu falls by more than 3 sigma shrinks).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import select
from sqlalchemy.orm import Session

from .models import PlayerRow, RatingRow, ResultRow

MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of a finished game: who sat there, their side, the side's rank (0 won) and score."""

    seat: int
    player_id: str | None  # None: a human seat taken without a profile
    bot: str | None  # the bot spec at a bot seat
    side: int
    rank: int
    score: int


def bot_player_id(spec: str) -> str:
    return "bot-" + hashlib.sha256(spec.encode()).hexdigest()[:12]


def ordinal(mu: float, sigma: float) -> float:
    return round(mu - 3 * sigma, 2)


def ranks(sides: Sequence[Sequence[int]], scores: Sequence[int], winners: Sequence[int] | None) -> list[int]:
    """Each side's place: the winners first (0), then the others by their score."""
    won = set(winners or [])
    totals = [sum(scores[s] for s in side) for side in sides]
    losers = sorted({totals[i] for i, side in enumerate(sides) if not won & set(side)}, reverse=True)
    return [0 if won & set(side) else 1 + losers.index(totals[i]) for i, side in enumerate(sides)]


def record_results(
    session: Session, table_id: str, game: str, mode: str, seats: Sequence[SeatResult], now: float,
    standard: bool = True,
) -> None:
    """Store each seat's result and, when every seat is known and the game was played by the
    standard rules (``standard``: no rule option set), update the ratings: inside the caller's
    transaction (the game's end), so a game is rated once or not at all."""
    ids: dict[int, str] = {}
    for s in seats:
        if s.player_id is not None:
            # A profile deleted unused (``unused_profile_expiry``) while its key took this seat
            # plays on as no profile: the game is kept, unrated, rather than lost to a missing row.
            if session.get(PlayerRow, s.player_id) is not None:
                ids[s.seat] = s.player_id
        elif s.bot is not None:
            ids[s.seat] = bot_player_id(s.bot)
            if session.get(PlayerRow, ids[s.seat]) is None:
                session.add(PlayerRow(id=ids[s.seat], name=s.bot, key_hash=None, bot=s.bot, created_at=now))
    session.flush()
    # Rated when every seat is known: a human seat taken without a profile leaves it unrated. A
    # ladder compares games of one set of rules: a variant's (a target of 10, hands of 12) is not rated.
    rated = standard and len(ids) == len(seats)
    before: dict[int, float | None] = {}
    after: dict[int, float | None] = {}
    if rated:
        # A bot that sits at several seats (three `random` bots around one human) plays with
        # its rating, but one game cannot say which of its copies it was: it keeps its rating.
        copies = Counter(ids.values())
        rows: dict[str, RatingRow] = {}
        for pid in copies:
            row = session.get(RatingRow, (pid, game, mode))
            if row is None:
                fresh = MODEL.rating()
                row = RatingRow(player_id=pid, game=game, mode=mode, mu=fresh.mu, sigma=fresh.sigma,
                                games=0, wins=0, updated_at=now)
                if copies[pid] == 1:  # a ladder lists only players this game rates
                    session.add(row)
            rows[pid] = row
        current = {pid: (row.mu, row.sigma) for pid, row in rows.items()}
        sides = sorted({s.side for s in seats})
        teams = [[s for s in seats if s.side == side] for side in sides]
        new = MODEL.rate(
            [[MODEL.rating(mu=current[ids[s.seat]][0], sigma=current[ids[s.seat]][1]) for s in team] for team in teams],
            ranks=[team[0].rank for team in teams],
        )
        for team, rated_team in zip(teams, new, strict=True):
            for s, r in zip(team, rated_team, strict=True):
                pid = ids[s.seat]
                if copies[pid] > 1:
                    continue  # unrated for it, as its history says (not "rating 0.0 → 0.0")
                row = rows[pid]
                before[s.seat] = ordinal(*current[pid])
                row.mu, row.sigma = r.mu, r.sigma
                row.games += 1
                row.wins += s.rank == 0
                row.updated_at = now
                after[s.seat] = ordinal(row.mu, row.sigma)
    for s in seats:
        if s.seat in ids:
            session.add(ResultRow(table_id=table_id, seat=s.seat, player_id=ids[s.seat], game=game, mode=mode,
                                  rank=s.rank, score=s.score, rating_before=before.get(s.seat),
                                  rating_after=after.get(s.seat), finished_at=now))


def leaderboard(session: Session, game: str, mode: str, limit: int) -> list[dict[str, Any]]:
    query = (
        select(RatingRow, PlayerRow)
        .join(PlayerRow, PlayerRow.id == RatingRow.player_id)
        .where(RatingRow.game == game, RatingRow.mode == mode)
        .order_by((RatingRow.mu - 3 * RatingRow.sigma).desc(), RatingRow.games.desc(), PlayerRow.id)
        .limit(limit)
    )
    return [
        {
            "rank": i + 1,
            "player": player.id,
            "name": player.name,
            "bot": player.bot,
            "rating": ordinal(rating.mu, rating.sigma),
            "mu": round(rating.mu, 3),
            "sigma": round(rating.sigma, 3),
            "games": rating.games,
            "wins": rating.wins,
        }
        for i, (rating, player) in enumerate(session.execute(query))
    ]


def profile(session: Session, player: PlayerRow, history: int = 50) -> dict[str, Any]:
    """A player's public page: name, ratings on every ladder, last games."""
    ratings = session.scalars(select(RatingRow).where(RatingRow.player_id == player.id)).all()
    results = session.scalars(
        select(ResultRow).where(ResultRow.player_id == player.id).order_by(ResultRow.finished_at.desc()).limit(history)
    ).all()
    return {
        "id": player.id,
        "name": player.name,
        "bot": player.bot,
        "created_at": player.created_at,
        "ratings": [
            {"game": r.game, "mode": r.mode, "rating": ordinal(r.mu, r.sigma), "mu": round(r.mu, 3),
             "sigma": round(r.sigma, 3), "games": r.games, "wins": r.wins}
            for r in sorted(ratings, key=lambda r: (r.game, r.mode))
        ],
        "history": [
            {"table": r.table_id, "seat": r.seat, "game": r.game, "mode": r.mode, "rank": r.rank, "won": r.rank == 0,
             "score": r.score, "rating_before": r.rating_before, "rating_after": r.rating_after,
             "finished_at": r.finished_at}
            for r in results
        ],
    }
