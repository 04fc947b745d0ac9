"""A tournament: schedule the duplicate deals, play them, report and save everything."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import fmean, median, stdev
from typing import Any

from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..bots.registry import BotSpec, make_bot
from ..core.words import plural
from ..progress import LoggedProgress, RemainingColumn
from .games import GameSpec
from .report import (
    EntrantSummary,
    length_rows,
    rounds_of,
    side_points,
    summarise,
    write_chart,
    write_games_csv,
    write_hands_csv,
    write_lengths_csv,
    write_sides_csv,
    write_summary_csv,
)
from .runner import OnDone, check_cluster, default_jobs, run_local, run_ray, sigterm_as_interrupt
from .schedule import GameJob, deals_for, entrant_labels, per_deal, schedule
from .stats import bootstrap_rates, wilson
from .store import ResumeError, RunStore, manifest_of, spec_of
from .worker import GameResult


@dataclass(frozen=True)
class Tournament:
    spec: GameSpec
    lineup: tuple[str, ...]
    """One bot spec per side (team or seat); a rotation of it is played for every deal."""
    games: int = 100
    """At least this many games: rounded up to whole duplicate sets (one game per seating)."""
    seed: int = 0
    jobs: int = field(default_factory=default_jobs)
    ray_address: str | None = None
    out: Path | None = Path("arena-results")
    records: bool = True
    seatings: str = "rotations"
    """Each deal in every rotation of the lineup, or (``"all"``) in every ordering of it."""
    chart: bool = True
    """Draw ``chart.png`` when the run is complete. A run only a program reads (the training
    loop's measuring matches) is spared the drawing, which costs more than a short match's games."""

    def validate(self) -> None:
        """Fail early, here, on bad bot specs (rather than in a worker)."""
        for text in self.lineup:
            make_bot(BotSpec.parse(text), self.spec.game)
        if self.seatings == "one" and len(set(self.lineup)) > 1:
            raise ValueError("--seatings one is for the same bot on every side: with different bots each "
                             "would keep its seat, and a seat's edge would pass for the bot's strength "
                             "(use rotations, the default)")

    @property
    def deals(self) -> int:
        return deals_for(self.games, self.per_deal)

    @property
    def per_deal(self) -> int:
        """Games a deal: one per seating."""
        return per_deal(len(self.lineup), self.seatings)

    @property
    def total(self) -> int:
        """The games the run plays: whole deals, every seating of each."""
        return self.deals * self.per_deal

    @property
    def seating_word(self) -> str:
        """What the games of a deal differ by, for the reports."""
        return "rotation" if self.seatings == "rotations" else "seating"

    def manifest(self) -> dict[str, Any]:
        """The parameters that decide every game: a resumed run must have the same."""
        return manifest_of(self.spec, self.lineup, self.games, self.seed, self.records, self.seatings)

    @classmethod
    def from_manifest(cls, manifest: dict[str, Any], **kwargs: Any) -> Tournament:
        """The tournament of a saved run (``kwargs``: where to run it, e.g. ``jobs``, ``out``)."""
        spec = spec_of(manifest)
        return cls(spec, tuple(manifest["lineup"]), games=manifest["games"], seed=manifest["seed"],
                   records=manifest["records"], seatings=manifest["seatings"], **kwargs)  # fmt: skip


@dataclass(frozen=True)
class TournamentResult:
    tournament: Tournament
    results: list[GameResult]
    summary: list[EntrantSummary]
    resumed: int = 0
    """Games found already played in the output folder (``resume=True``)."""
    chart: bool = False
    """Whether ``chart.png`` was drawn (it needs matplotlib, and ``Tournament.chart``)."""


class Interrupted(Exception):
    """The run was stopped (Ctrl-C or SIGTERM) part-way; every game finished so far is saved."""

    def __init__(self, done: int, total: int, out: Path | None, signum: int) -> None:
        super().__init__(f"stopped after {done} of {total} games")
        self.done = done
        self.total = total
        self.out = out
        self.signum = signum


def run_tournament(
    t: Tournament, console: Console | None = None, progress: bool = True, resume: bool = False,
    replace: bool = False, announce: Callable[[], None] | None = None,
) -> TournamentResult:
    """Play the tournament, saving each game into ``t.out`` as it ends.

    ``resume``: continue the run saved in ``t.out`` (same parameters, else
    :class:`ResumeError`), playing only the games not yet there; the result is
    the same as an uninterrupted run's; with more ``games`` than the run has,
    the new deals are added after its own. Without it, a folder holding an
    unfinished run is not overwritten (:class:`ResumeError`), nor one holding a
    finished run unless ``replace``.

    Ctrl-C or SIGTERM stops the workers, keeps every finished game on disk and
    raises :class:`Interrupted`.

    ``announce`` is called once the run's folder is taken, before the first game: what the
    caller says of the run is not said of a run that is refused.
    """
    t.validate()
    jobs = schedule(t.spec, t.lineup, t.deals, t.seed, t.seatings)
    if resume and t.out is None:
        raise ResumeError("resuming needs the run's output folder")
    if t.ray_address:
        check_cluster(t.ray_address)
    store = RunStore(t.out, t.spec, t.lineup, t.manifest(), resume, replace) if t.out is not None else None
    done = {r.index: r for r in store.done} if store else {}
    todo = [j for j in jobs if j.index not in done]
    console = console or Console()
    if announce is not None:
        announce()
    if store and store.note:
        console.print(f"[yellow]note:[/] {store.note}")
    played: list[GameResult] = []

    def finished(result: GameResult) -> None:
        if store:
            store.add(result)
        played.append(result)

    try:
        with sigterm_as_interrupt() as caught:
            try:
                if progress and todo:
                    bar = LoggedProgress(
                        TextColumn("[bold]{task.description}"),
                        BarColumn(),
                        MofNCompleteColumn(),
                        TimeElapsedColumn(),
                        RemainingColumn(),
                        console=console,
                        transient=False,
                    )
                    with bar:
                        task = bar.add_task(f"{t.spec.label}", total=len(jobs), completed=len(done), before=len(done))

                        def advance(result: GameResult) -> None:
                            finished(result)
                            bar.advance(task)

                        _run(t, todo, advance)
                else:
                    _run(t, todo, finished)
            except KeyboardInterrupt:
                raise Interrupted(len(done) + len(played), len(jobs), t.out, caught.signum) from None
    finally:
        if store:
            store.close()
    results = sorted([*done.values(), *played], key=lambda r: r.index)
    summary = summarise(t.spec, t.lineup, results, t.seed)
    chart = save(t, results, summary) if t.out is not None else False
    return TournamentResult(t, results, summary, resumed=len(done), chart=chart)


def _run(t: Tournament, jobs: Sequence[GameJob], on_done: OnDone | None) -> list[GameResult]:
    if not jobs:
        return []
    if t.ray_address:
        return run_ray(jobs, t.ray_address, on_done)
    return run_local(jobs, t.jobs, on_done)


def save(t: Tournament, results: Sequence[GameResult], summary: Sequence[EntrantSummary]) -> bool:
    """The complete run's files (the games and records are already written, game by game). Returns
    whether the chart was drawn (it needs matplotlib, and ``t.chart``)."""
    assert t.out is not None
    t.out.mkdir(parents=True, exist_ok=True)
    write_games_csv(t.out / "games.csv", t.spec, t.lineup, results, t.records)
    write_summary_csv(t.out / "summary.csv", summary)
    write_sides_csv(t.out / "sides.csv", side_rows(t.spec, results, t.seed) if results else [])
    write_lengths_csv(t.out / "lengths.csv", length_rows(t.spec, distinct_games(results)))
    write_hands_csv(t.out / "hands.csv", t.spec, t.lineup, results)
    if not t.chart:
        return False
    if not write_chart(t.out / "chart.png", t.spec, summary, len(results)):
        Console(stderr=True).print("note: matplotlib is not installed, so no chart.png was written")
        return False
    return True


def summary_table(t: Tournament, summary: Sequence[EntrantSummary], results: Sequence[GameResult]) -> Table:
    """The table of a run's results so far: its title counts the deals played, and says how many of
    them lack a rotation (a run stopped part-way), whose luck the duplicate pairing has not cancelled."""
    games = len(results)
    seatings = t.per_deal
    what = t.seating_word
    by_deal = Counter(r.deal for r in results)
    short = sum(1 for n in by_deal.values() if n < seatings)
    deals = plural(len(by_deal), "deal") + (f", {short} of them not yet in every {what}" if short else "")
    per = "points per team" if t.spec.partnership else "points per player"
    with_elo = all(e.elo is not None for e in summary) and len(summary) >= 3
    elo_note = (
        "Elo fit by Bradley–Terry"
        if with_elo
        else "no Elo: with two entrants it would only restate the win rate (and grow with the games played)"
    )
    # Light borders and whole-percent intervals keep the table inside 80 columns.
    table = Table(
        box=box.SIMPLE_HEAD,
        collapse_padding=True,
        pad_edge=False,
        title=f"{t.spec.label}: {plural(games, 'game')} ({deals}; {plural(seatings, what)} a deal), "
        f"seed {t.seed}",
        caption=(
            f"win % with 95% intervals: Wilson (each game independent) and deal (bootstrap over deals"
            f"{', keeping the duplicate pairing' if seatings > 1 else ''}); parity {100 / t.spec.sides:.0f}%; "
            f"{per}; {elo_note}"
        ),
    )
    table.add_column("bot", overflow="fold", min_width=12)
    table.add_column("games", justify="right")
    table.add_column("wins", justify="right")
    table.add_column("win %", justify="right")
    table.add_column("Wilson", justify="right", no_wrap=True)
    table.add_column("deal", justify="right", no_wrap=True)
    hands = t.spec.has_hands
    if hands:
        table.add_column("pts/hand", justify="right")
    table.add_column("pts/game", justify="right")
    if with_elo:
        table.add_column("Elo", justify="right")
    # Best first; entrants' own order breaks ties (sorted() is stable).
    for e in sorted(summary, key=lambda e: -(e.elo if with_elo and e.elo is not None else e.win_rate)):
        row = [
            e.bot, str(e.games), f"{e.wins:g}", f"{100 * e.win_rate:.1f}",
            f"{100 * e.ci_low:.0f}–{100 * e.ci_high:.0f}", f"{100 * e.boot_low:.0f}–{100 * e.boot_high:.0f}",
            *([f"{e.points_per_hand:.2f}"] if hands else []), f"{e.points_per_game:.1f}",
        ]  # fmt: skip
        if with_elo:
            row.append(f"{e.elo:.0f}")
        table.add_row(*row)
    return table


def _identity(result: GameResult) -> str:
    """What two games that replayed each other move for move share: their deal, bots by seat and
    outcome, which two different games match only by a rare coincidence. Not the record: a game
    read back from the journal has none (``--standing``, a resume's earlier games), and one key for
    every game keeps a resumed run's figures those of a run played at one go."""
    return json.dumps([result.deal, result.seat_bots, result.scores, result.hand_points, result.decisions])


def distinct_games(results: Sequence[GameResult]) -> list[GameResult]:
    """The games, each counted once. Where the same bots meet again on a deal (one bot in every
    seat, say), a deterministic game replays move for move: counted once, or an interval would
    claim evidence not had."""
    return list({_identity(r): r for r in results}.values())


def side_rows(spec: GameSpec, results: Sequence[GameResult], seed: int | str = 0) -> list[dict[str, Any]]:
    """How each side of the table did, whoever sat there, over the distinct games: the rows of
    ``sides.csv``. Beside the Wilson interval (games as independent trials) is the deal bootstrap
    (``seed``, the run's, fixes its resamples): a deal's rotations share its cards or dice, so a deal
    that favours a side favours it in every rotation, and only the deals are independent."""
    games = distinct_games(results)
    n = len(games)
    by_deal: dict[int, tuple[list[float], list[int]]] = {}
    for r in games:
        deal_won, deal_played = by_deal.setdefault(r.deal, ([0.0] * spec.sides, [0] * spec.sides))
        for side in range(spec.sides):
            deal_won[side] += r.returns[spec.seats_of(side)[0]]  # a partner's return is the team's
            deal_played[side] += 1
    deals = [by_deal[d] for d in sorted(by_deal)]
    boot = bootstrap_rates([d[0] for d in deals], [d[1] for d in deals], f"sides/{seed}")
    rows = []
    for side in range(spec.sides):
        seats = spec.seats_of(side)
        won = sum(d[0][side] for d in deals)
        lo, hi = wilson(won, n)
        points = [side_points(spec, r.scores)[side] for r in games]
        rows.append({"side": f"{'seats' if len(seats) > 1 else 'seat'} {'+'.join(map(str, seats))}",
                     "holds": spec.side_note(side), "games": n, "wins": won, "win_rate": won / n,
                     "ci95_low": lo, "ci95_high": hi,
                     "deal_ci95_low": boot[side][0], "deal_ci95_high": boot[side][1],
                     "parity": 1 / spec.sides, "points_mean": fmean(points),
                     "points_sd": stdev(points) if n > 1 else 0.0})  # fmt: skip
    return rows


def _held(row: Mapping[str, Any]) -> str:
    """A side's note in brackets (`` (card B)``), or nothing."""
    return f" ({row['holds']})" if row.get("holds") else ""


def sides_line(spec: GameSpec, results: Sequence[GameResult], seed: int | str = 0) -> str | None:
    """How each side of the table did, whoever sat there, and how long the games ran: a designer's
    first questions (does the first seat win more?), which the per-bot table cannot answer, since
    rotations put every bot on every side. ``None`` before the first game."""
    if not results:
        return None
    games = distinct_games(results)
    n = len(games)
    parts = [f"{row['side']}{_held(row)} {100 * row['win_rate']:.1f}% "
             f"({100 * row['ci95_low']:.0f}–{100 * row['ci95_high']:.0f}; "
             f"deal {100 * row['deal_ci95_low']:.0f}–{100 * row['deal_ci95_high']:.0f})"
             for row in side_rows(spec, results, seed)]  # fmt: skip
    decisions = sorted(r.decisions for r in games)
    length = f"decisions a game: median {median(decisions):g}, {decisions[0]} to {decisions[-1]}"
    rounds = sorted(x for r in games if (x := rounds_of(spec, r)) is not None)
    if rounds:  # Digging's hands, Digger's turns (not known for games journaled before they were kept)
        length += f"; {spec.rounds_column}: median {median(rounds):g}, {rounds[0]} to {rounds[-1]}"
    repeats = "" if n == len(results) else (
        f" (over {plural(n, 'distinct game')}: {len(results) - n} replayed another move for move, as games of "
        "the same deterministic bots on the same deal do)")
    return "wins by side, whoever sat there: " + ", ".join(parts) + repeats + f"\n{length}"


def _duration(seconds: float) -> str:
    """A decision's time: in ms, or in µs where ms would read 0.0 (Digger's quick bots)."""
    return f"{1000 * seconds:.1f} ms" if seconds >= 0.00005 else f"{1e6 * seconds:.1f} µs"


def time_line(lineup: Sequence[str], per_move: Sequence[float | None]) -> str | None:
    """Each entrant's time a decision (:func:`time_per_move`) as one line under the summary table, or
    ``None`` when no game measured it. Wall time on the machine that played, as loaded as it was then:
    it shows whether an equal-time match (docs/network.md) was equal there."""
    shown = [f"{label} {_duration(seconds)}" for label, seconds in zip(entrant_labels(lineup), per_move, strict=True)
             if seconds is not None]  # fmt: skip
    return "time a decision: " + ", ".join(shown) if shown else None
