"""A tournament: schedule the duplicate deals, play them, report and save everything."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ..bots.registry import BotSpec, make_bot
from .games import GameSpec
from .report import EntrantSummary, summarise, write_chart, write_games_csv, write_records, write_summary_csv
from .runner import OnDone, default_jobs, run_local, run_ray
from .schedule import GameJob, deals_for, schedule
from .worker import GameResult


@dataclass(frozen=True)
class Tournament:
    spec: GameSpec
    lineup: tuple[str, ...]
    """One bot spec per side (team or seat); a rotation of it is played for every deal."""
    games: int = 100
    """At least this many games: rounded up to whole duplicate sets (one per rotation)."""
    seed: int = 0
    jobs: int = field(default_factory=default_jobs)
    ray_address: str | None = None
    out: Path | None = Path("arena-results")
    records: bool = True

    def validate(self) -> None:
        """Fail early, here, on bad bot specs (rather than in a worker)."""
        for text in self.lineup:
            make_bot(BotSpec.parse(text), self.spec.game)

    @property
    def deals(self) -> int:
        return deals_for(self.games, len(self.lineup))


@dataclass(frozen=True)
class TournamentResult:
    tournament: Tournament
    results: list[GameResult]
    summary: list[EntrantSummary]


def run_tournament(t: Tournament, console: Console | None = None, progress: bool = True) -> TournamentResult:
    t.validate()
    jobs = schedule(t.spec, t.lineup, t.deals, t.seed)
    console = console or Console()
    if progress:
        bar = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=False,
        )
        with bar:
            task = bar.add_task(f"{t.spec.label}", total=len(jobs))
            results = _run(t, jobs, lambda _r: bar.advance(task))
    else:
        results = _run(t, jobs, None)
    summary = summarise(t.spec, t.lineup, results)
    if t.out is not None:
        save(t, results, summary)
    return TournamentResult(t, results, summary)


def _run(t: Tournament, jobs: Sequence[GameJob], on_done: OnDone | None) -> list[GameResult]:
    if t.ray_address:
        return run_ray(jobs, t.ray_address, on_done)
    return run_local(jobs, t.jobs, on_done)


def save(t: Tournament, results: Sequence[GameResult], summary: Sequence[EntrantSummary]) -> None:
    assert t.out is not None
    t.out.mkdir(parents=True, exist_ok=True)
    write_games_csv(t.out / "games.csv", t.spec, results)
    write_summary_csv(t.out / "summary.csv", summary)
    if not write_chart(t.out / "chart.png", t.spec, summary, len(results)):
        Console(stderr=True).print("note: matplotlib is not installed, so no chart.png was written")
    if t.records:
        write_records(t.out / "records", results)


def summary_table(t: Tournament, summary: Sequence[EntrantSummary], games: int) -> Table:
    per = "points per team" if t.spec.partnership else "points per player"
    table = Table(
        title=f"{t.spec.label}: {games} games ({t.deals} deals x {len(t.lineup)} rotations), seed {t.seed}",
        caption=f"win rate with its Wilson 95% interval; {per}; Elo fit by Bradley–Terry",
    )
    table.add_column("bot", overflow="fold", min_width=12)
    table.add_column("games", justify="right")
    table.add_column("wins", justify="right")
    table.add_column("win %", justify="right")
    table.add_column("95% CI", justify="right", no_wrap=True)
    table.add_column("pts/hand", justify="right")
    table.add_column("pts/game", justify="right")
    table.add_column("Elo", justify="right")
    for e in sorted(summary, key=lambda e: -e.elo):
        table.add_row(
            e.bot, str(e.games), f"{e.wins:g}", f"{100 * e.win_rate:.1f}",
            f"{100 * e.ci_low:.1f}–{100 * e.ci_high:.1f}", f"{e.points_per_hand:.2f}", f"{e.points_per_game:.1f}",
            f"{e.elo:.0f}",
        )
    return table
