"""Turning game results into the tournament's tables, CSV files, chart and records."""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .games import GameSpec
from .stats import bradley_terry_elo, wilson
from .worker import GameResult


@dataclass(frozen=True, slots=True)
class EntrantSummary:
    """One bot's results over the tournament (all the sides it played)."""

    bot: str
    games: int
    wins: float
    """Games won; a win shared between k sides counts 1/k (a bot on two sides adds both)."""
    ci_low: float
    ci_high: float
    points_per_hand: float
    """Mean points one side of this bot scored in a hand (a team's points in the partnership game)."""
    points_per_game: float
    elo: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def side_returns(spec: GameSpec, result: GameResult) -> list[float]:
    """Each side's share of the win (a partnership win gives the team 1, not 2)."""
    return [result.returns[spec.seats_of(side)[0]] for side in range(spec.sides)]


def side_points(spec: GameSpec, points: Sequence[int]) -> list[int]:
    return [sum(points[s] for s in spec.seats_of(side)) for side in range(spec.sides)]


def summarise(spec: GameSpec, lineup: Sequence[str], results: Sequence[GameResult]) -> list[EntrantSummary]:
    bots = list(dict.fromkeys(lineup))
    games = dict.fromkeys(bots, 0)
    wins = dict.fromkeys(bots, 0.0)
    hand_sum = dict.fromkeys(bots, 0.0)
    hand_n = dict.fromkeys(bots, 0)
    game_sum = dict.fromkeys(bots, 0.0)
    game_n = dict.fromkeys(bots, 0)
    pairs: list[tuple[str, str, float]] = []
    for r in results:
        side_bot = [r.seat_bots[spec.seats_of(side)[0]] for side in range(spec.sides)]
        ret = side_returns(spec, r)
        for bot in set(side_bot):
            games[bot] += 1
        for side, bot in enumerate(side_bot):
            wins[bot] += ret[side]
            game_sum[bot] += side_points(spec, r.scores)[side]
            game_n[bot] += 1
            for hand in r.hand_points:
                hand_sum[bot] += side_points(spec, hand)[side]
                hand_n[bot] += 1
        # Pairwise results between sides held by different bots, for the Elo fit.
        for i in range(spec.sides):
            for j in range(i + 1, spec.sides):
                if side_bot[i] != side_bot[j]:
                    score = 1.0 if ret[i] > ret[j] else 0.0 if ret[i] < ret[j] else 0.5
                    pairs.append((side_bot[i], side_bot[j], score))
    elo = bradley_terry_elo(bots, pairs)
    out = []
    for bot in bots:
        low, high = wilson(wins[bot], games[bot])
        out.append(
            EntrantSummary(
                bot=bot,
                games=games[bot],
                wins=wins[bot],
                ci_low=low,
                ci_high=high,
                points_per_hand=hand_sum[bot] / hand_n[bot] if hand_n[bot] else 0.0,
                points_per_game=game_sum[bot] / game_n[bot] if game_n[bot] else 0.0,
                elo=elo[bot],
            )
        )
    return out


def record_name(result: GameResult) -> str:
    return f"game-{result.index + 1:05d}.json"


def write_records(folder: Path, results: Sequence[GameResult]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for r in results:
        (folder / record_name(r)).write_text(json.dumps(r.record, indent=1) + "\n")


def write_games_csv(path: Path, spec: GameSpec, results: Sequence[GameResult]) -> None:
    n = spec.players
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(
            ["game", "deal", "rotation", *(f"seat{s}" for s in range(n)), *(f"points{s}" for s in range(n)),
             "winners", "hands", "decisions", "record"]
        )
        for r in results:
            w.writerow(
                [r.index + 1, r.deal, r.rotation, *r.seat_bots, *r.scores, " ".join(map(str, r.winners)),
                 len(r.hand_points), r.decisions, f"records/{record_name(r)}"]
            )


def write_summary_csv(path: Path, summary: Sequence[EntrantSummary]) -> None:
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["bot", "games", "wins", "win_rate", "ci95_low", "ci95_high", "points_per_hand",
                    "points_per_game", "elo"])
        for e in summary:
            w.writerow([e.bot, e.games, f"{e.wins:g}", f"{e.win_rate:.4f}", f"{e.ci_low:.4f}", f"{e.ci_high:.4f}",
                        f"{e.points_per_hand:.3f}", f"{e.points_per_game:.3f}", f"{e.elo:.1f}"])


def write_chart(path: Path, spec: GameSpec, summary: Sequence[EntrantSummary], games: int) -> bool:
    """Win rates with their Wilson 95% intervals, and Elo, side by side.

    Returns False (and writes nothing) when matplotlib is not installed.
    """
    try:
        import matplotlib
    except ImportError:
        return False

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    names = [e.bot for e in summary]
    rates = [100 * e.win_rate for e in summary]
    # max(0, ...): rounding can put an interval end a hair past its centre at 0% or 100%.
    err = [[max(0.0, 100 * (e.win_rate - e.ci_low)) for e in summary],
           [max(0.0, 100 * (e.ci_high - e.win_rate)) for e in summary]]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 1.6 + 0.6 * len(names)), constrained_layout=True)
    ypos = list(range(len(names)))
    ax1.barh(ypos, rates, xerr=err, color="#d4a017", ecolor="#333333", capsize=4)
    for y, e in zip(ypos, summary, strict=True):
        # The figure goes past the interval's end, or inside the bar when that end is near 100%.
        x = 100 * e.ci_high + 2 if e.ci_high < 0.8 else 100 * e.ci_low - 2
        ax1.text(x, y, f"{100 * e.win_rate:.1f}%", va="center", ha="left" if e.ci_high < 0.8 else "right")
    ax1.set_yticks(ypos, names)
    ax1.set_xlim(0, 100)
    ax1.set_xlabel("games won (%), Wilson 95% interval")
    ax1.invert_yaxis()
    elo_bars = ax2.barh(ypos, [e.elo for e in summary], color="#8c6d31")
    ax2.bar_label(elo_bars, labels=[f"{e.elo:.0f}" for e in summary], label_type="edge", padding=3)
    ax2.set_yticks(ypos, names)
    ax2.set_xlabel("Elo (Bradley–Terry fit, mean 1500)")
    lo = min(e.elo for e in summary)
    hi = max(e.elo for e in summary)
    ax2.set_xlim(lo - 100, hi + 100)
    ax2.invert_yaxis()
    fig.suptitle(f"goldfields arena: {spec.label}, {games} games")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True
