"""The arena: tournaments between bots with duplicate deals, statistics, charts and records."""

from __future__ import annotations

from .games import GameSpec
from .report import EntrantSummary
from .schedule import GameJob, rotations, schedule
from .stats import bradley_terry_elo, wilson
from .tournament import Tournament, TournamentResult, run_tournament, summary_table
from .worker import GameResult, run_job

__all__ = [
    "EntrantSummary", "GameJob", "GameResult", "GameSpec", "Tournament", "TournamentResult",
    "bradley_terry_elo", "rotations", "run_job", "run_tournament", "schedule", "summary_table", "wilson",
]  # fmt: skip
