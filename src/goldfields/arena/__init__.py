"""The arena: tournaments between bots with duplicate deals, statistics, charts and records."""

from __future__ import annotations

from .games import GameSpec
from .report import EntrantSummary, time_per_move
from .schedule import GameJob, entrant_labels, rotations, schedule
from .stats import bootstrap_rates, bradley_terry_elo, wilson
from .store import ResumeError
from .tournament import Interrupted, Tournament, TournamentResult, run_tournament, sides_line, summary_table, time_line
from .worker import GameResult, run_job

__all__ = [
    "EntrantSummary", "GameJob", "GameResult", "GameSpec", "Interrupted", "ResumeError", "Tournament",
    "TournamentResult", "bootstrap_rates", "bradley_terry_elo", "entrant_labels", "rotations", "run_job",
    "run_tournament", "schedule", "sides_line", "summary_table", "time_line", "time_per_move", "wilson",
]  # fmt: skip
