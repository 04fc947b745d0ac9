"""Saved runs side by side (``goldfields arena --standing A --standing B ...``).

A designer weighing a variant plays the same lineup under each rule, or at each table size,
into a folder of its own, then reads the runs together: who wins, how each side of the table
does whoever sits there, and how long and close the games are. Each figure is the one the run's
own summary gives (``summary.csv``, ``sides.csv``, ``lengths.csv``), read from its journal, so a
run still being played compares as it stands.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .games import GameSpec
from .provenance import versions_of
from .report import EntrantSummary, chart_label, length_rows, save_figure, summarise
from .schedule import entrant_labels
from .store import read_journal, read_manifest
from .tournament import Tournament, distinct_games, side_rows

Interval = tuple[float, float, float]
"""A win rate with its deal-bootstrap 95% interval: (rate, low, high)."""


@dataclass(frozen=True)
class Standing:
    """One saved run as it stands."""

    out: Path
    spec: GameSpec
    lineup: tuple[str, ...]
    played: int
    total: int
    entrants: list[EntrantSummary]
    """Per entrant (position in the lineup), as ``summary.csv``."""
    sides: list[dict[str, Any]]
    """Per side of the table, whoever sat there, as ``sides.csv`` (empty before the first game)."""
    lengths: dict[str, dict[str, Any]]
    """``decisions``, the game's rounds (``hands``, ``turns``) and ``margin``, as ``lengths.csv``."""
    versions: int
    """How many versions of the rules and bots played its games (more than one: say so)."""

    @property
    def labels(self) -> list[str]:
        return entrant_labels(self.lineup)

    def entrant(self, label: str) -> EntrantSummary | None:
        """The entrant of that label, if it is in this run and has played."""
        return next((e for e in self.entrants if e.bot == label and e.games), None)

    def side(self, name: str) -> dict[str, Any] | None:
        """The side of that name (``seat 0``, ``seats 0+2``), if this run's table has it."""
        return next((row for row in self.sides if row["side"] == name), None)


def standing_of(out: Path) -> Standing:
    """The run saved in ``out``: :class:`~goldfields.arena.store.ResumeError` (a ``ValueError``) if
    there is none, ``KeyError`` for a manifest without a field it needs."""
    saved = read_manifest(out)
    t = Tournament.from_manifest(saved, jobs=1, out=out)
    results = read_journal(out)
    entrants = summarise(t.spec, t.lineup, results, t.seed)
    sides = side_rows(t.spec, results, t.seed) if results else []
    lengths = {row["measure"]: row for row in length_rows(t.spec, distinct_games(results))}
    return Standing(out, t.spec, t.lineup, len(results), t.total, entrants, sides, lengths, len(versions_of(saved)))


def standings_of(folders: Sequence[Path]) -> list[Standing]:
    """The runs saved in ``folders``, which must be of one game: a bot's name (``heuristic``) is
    another bot in another game, and its column would mix them. Raises ``ValueError`` (or
    ``KeyError``, as :func:`standing_of`)."""
    runs = [standing_of(out) for out in folders]
    games = {run.spec.game for run in runs}
    if len(games) > 1:
        named = ", ".join(f"{run.out} is {run.spec.game}" for run in runs)
        raise ValueError(f"runs side by side are of one game, so that each bot is the same bot in each: {named}")
    return runs


def entrant_columns(runs: Sequence[Standing]) -> list[str]:
    """Every entrant of the runs, in the order they first appear: the comparison's columns (a run
    without one of them shows nothing there)."""
    return list(dict.fromkeys(label for run in runs for label in run.labels))


def side_columns(runs: Sequence[Standing]) -> list[str]:
    """Every side of the runs' tables by name (``seat 0``, ``seats 0+2``), in the order they first
    appear: a partnership's teams and an individual table's seats are other sides."""
    return list(dict.fromkeys(row["side"] for run in runs for row in run.sides))


def comparison_rows(runs: Sequence[Standing]) -> tuple[list[str], list[list[str]]]:
    """The runs side by side as text, as ``goldfields arena --standing A --standing B`` prints them:
    the column names, then a row per run (its folder, table, games played, each entrant's win % with
    its deal interval, each side's win %, and the median decisions and rounds and mean margin of its
    distinct games). A cell is empty where the run has no such entrant or figure."""
    entrants = entrant_columns(runs)
    rounds = {run.spec.rounds_column for run in runs}
    columns = ["run", "table", "games", *(f"{label} win %" for label in entrants), "win % by side", "decisions",
               rounds.pop() if len(rounds) == 1 else "hands or turns", "margin"]  # fmt: skip
    rows = []
    for run in runs:
        margin = run.lengths.get("margin")
        played = str(run.played) if run.played >= run.total else f"{run.played} of {run.total}"
        rows.append([
            str(run.out), run.spec.label, played,
            *(_interval_text(run.entrant(label)) for label in entrants),
            " · ".join(f"{100 * row['win_rate']:.1f}" for row in run.sides),
            _median_text(run.lengths.get("decisions")), _median_text(run.lengths.get(run.spec.rounds_column)),
            "" if margin is None else f"{margin['mean']:.1f}",
        ])  # fmt: skip
    return columns, rows


def _interval_text(e: EntrantSummary | None) -> str:
    """A win rate with its deal interval (``61.4 (54–69)``), or nothing for a bot not in the run."""
    return "" if e is None else f"{100 * e.win_rate:.1f} ({100 * e.boot_low:.0f}–{100 * e.boot_high:.0f})"


def _median_text(row: dict[str, Any] | None) -> str:
    return "" if row is None else f"{row['median']:g}"


def _entrant_interval(run: Standing, label: str) -> Interval | None:
    e = run.entrant(label)
    return None if e is None else (e.win_rate, e.boot_low, e.boot_high)


def _side_interval(run: Standing, name: str) -> Interval | None:
    row = run.side(name)
    return None if row is None else (row["win_rate"], row["deal_ci95_low"], row["deal_ci95_high"])


def _bars(ax: Any, rows: int, series: Sequence[tuple[str, Sequence[Interval | None]]], title: str) -> None:
    """One group of bars a run (top to bottom), one bar a series in it, each with its interval."""
    import matplotlib.pyplot as plt

    colours = plt.get_cmap("tab10")
    step = 0.8 / max(len(series), 1)
    drawn = False
    for k, (label, values) in enumerate(series):
        shown = [(i - 0.4 + step * (k + 0.5), v) for i, v in enumerate(values) if v is not None]
        if not shown:
            continue
        err = [[max(0.0, 100 * (v[0] - v[1])) for _, v in shown], [max(0.0, 100 * (v[2] - v[0])) for _, v in shown]]
        ax.barh([y for y, _ in shown], [100 * v[0] for _, v in shown], height=step * 0.9, xerr=err,
                color=colours(k % 10), ecolor="#333333", capsize=3, label=label)  # fmt: skip
        drawn = True
    ax.set_xlim(0, 100)
    ax.set_ylim(rows - 0.5, -0.5)
    ax.set_xlabel("games won (%), deal-bootstrap 95% interval")
    ax.set_title(title)
    if drawn:  # a run of no games yet has nothing to name
        ax.legend(loc="lower right", fontsize=8)


def comparison_figure(runs: Sequence[Standing]) -> Any:
    """Each run's win rates by entrant (left) and by side of the table (right, against parity),
    with their deal-bootstrap 95% intervals, runs top to bottom as named. A matplotlib figure; the
    caller closes it."""
    import matplotlib.pyplot as plt

    entrants, sides = entrant_columns(runs), side_columns(runs)
    height = 1.6 + 0.35 * len(runs) * max(len(entrants), len(sides), 1)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, height), constrained_layout=True, sharey=True)
    _bars(left, len(runs), [(chart_label(label), [_entrant_interval(run, label) for run in runs])
                            for label in entrants], "by bot")  # fmt: skip
    _bars(right, len(runs), [(name, [_side_interval(run, name) for run in runs]) for name in sides],
          "by side of the table, whoever sat there")
    for i, run in enumerate(runs):
        if run.sides:
            parity = 100 * run.sides[0]["parity"]
            right.plot([parity, parity], [i - 0.45, i + 0.45], color="#7a1f1f", linestyle="--", linewidth=1.0)
    left.set_yticks(range(len(runs)), [f"{run.out.name}\n{run.spec.label}" for run in runs])
    fig.suptitle("goldfields arena: runs side by side (dashed: parity)")
    return fig


def write_comparison_chart(path: Path, runs: Sequence[Standing]) -> bool:
    """Save :func:`comparison_figure` as a PNG. Returns False (and writes nothing) when matplotlib is
    not installed."""
    return save_figure(path, lambda: comparison_figure(runs))
