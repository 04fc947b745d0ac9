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
from .report import EntrantSummary, length_rows, save_figure, summarise
from .schedule import entrant_labels
from .store import read_journal, read_manifest
from .tournament import Tournament, distinct_games, side_rows


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

    @property
    def labels(self) -> list[str]:
        return entrant_labels(self.lineup)


def standing_of(out: Path) -> Standing:
    """The run saved in ``out``: :class:`~goldfields.arena.store.ResumeError` (a ``ValueError``) if
    there is none, ``KeyError`` for a manifest without a field it needs."""
    saved = read_manifest(out)
    t = Tournament.from_manifest(saved, jobs=1, out=out)
    results = read_journal(out)
    entrants = summarise(t.spec, t.lineup, results, t.seed)
    sides = side_rows(t.spec, results, t.seed) if results else []
    lengths = {row["measure"]: row for row in length_rows(t.spec, distinct_games(results))}
    return Standing(out, t.spec, t.lineup, len(results), t.total, entrants, sides, lengths)


def entrant_columns(runs: Sequence[Standing]) -> list[str]:
    """Every entrant of the runs, in the order they first appear: the comparison's columns (a run
    without one of them shows nothing there)."""
    seen: dict[str, None] = {}
    for run in runs:
        seen.update(dict.fromkeys(run.labels))
    return list(seen)


def comparison_figure(runs: Sequence[Standing]) -> Any:
    """Each run's win rates by entrant (left) and by side of the table (right), with their
    deal-bootstrap 95% intervals, runs top to bottom as named. A matplotlib figure; the caller
    closes it."""
    import matplotlib.pyplot as plt

    from .report import chart_label

    names = [f"{run.out.name}\n{run.spec.label}" for run in runs]
    entrants = entrant_columns(runs)
    most_sides = max(len(run.sides) for run in runs)
    height = 1.6 + 0.35 * len(runs) * max(len(entrants), most_sides, 1)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, height), constrained_layout=True, sharey=True)
    colours = plt.get_cmap("tab10")

    def bars(ax: Any, series: list[tuple[str, list[tuple[float, float, float] | None]]], title: str) -> None:
        step = 0.8 / max(len(series), 1)
        for k, (label, values) in enumerate(series):
            ys = [i - 0.4 + step * (k + 0.5) for i in range(len(runs))]
            shown = [(y, v) for y, v in zip(ys, values, strict=True) if v is not None]
            if not shown:
                continue
            rate = [100 * v[0] for _, v in shown]
            err = [[max(0.0, 100 * (v[0] - v[1])) for _, v in shown], [max(0.0, 100 * (v[2] - v[0])) for _, v in shown]]
            ax.barh([y for y, _ in shown], rate, height=step * 0.9, xerr=err, color=colours(k % 10),
                    ecolor="#333333", capsize=3, label=label)  # fmt: skip
        ax.set_xlim(0, 100)
        ax.set_xlabel("games won (%), deal-bootstrap 95% interval")
        ax.set_title(title)
        ax.legend(loc="lower right", fontsize=8)

    by_entrant = []
    for label in entrants:
        values: list[tuple[float, float, float] | None] = []
        for run in runs:
            e = next((e for e in run.entrants if e.bot == label and e.games), None)
            values.append(None if e is None else (e.win_rate, e.boot_low, e.boot_high))
        by_entrant.append((chart_label(label), values))
    bars(left, by_entrant, "by bot")
    by_side = []
    for side in range(most_sides):
        side_values: list[tuple[float, float, float] | None] = []
        for run in runs:
            row = run.sides[side] if side < len(run.sides) else None
            side_values.append(None if row is None else (row["win_rate"], row["deal_ci95_low"], row["deal_ci95_high"]))
        named = next(run.sides[side]["side"] for run in runs if side < len(run.sides))
        by_side.append((named, side_values))
    bars(right, by_side, "by side of the table, whoever sat there")
    for run_index, run in enumerate(runs):
        if run.sides:
            parity = 100 * run.sides[0]["parity"]
            right.plot([parity, parity], [run_index - 0.45, run_index + 0.45], color="#7a1f1f", linestyle="--",
                       linewidth=1.0)  # fmt: skip
    left.set_yticks(range(len(runs)), names)
    left.set_ylim(len(runs) - 0.5, -0.5)
    fig.suptitle("goldfields arena: runs side by side (dashed: parity)")
    return fig


def write_comparison_chart(path: Path, runs: Sequence[Standing]) -> bool:
    """Save :func:`comparison_figure` as a PNG. Returns False (and writes nothing) when matplotlib is
    not installed."""
    return save_figure(path, lambda: comparison_figure(runs))
