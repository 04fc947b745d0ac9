"""Turning game results into the tournament's tables, CSV files, chart and records."""

from __future__ import annotations

import csv
import io
import json
import os
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..files import write_atomic
from .games import GameSpec
from .schedule import entrant_labels
from .stats import bootstrap_rates, bradley_terry_elo, wilson
from .worker import GameResult


@dataclass(frozen=True, slots=True)
class EntrantSummary:
    """One entrant's results over the tournament (all the sides it played).

    An entrant is a position in the lineup: in self-play (``heuristic heuristic``)
    each copy is an entrant of its own, labelled ``heuristic #1`` and ``heuristic #2``.
    """

    bot: str
    """The entrant's label: its spec, numbered when the lineup names the spec more than once."""
    games: int
    wins: float
    """Games won; a win shared between k sides counts 1/k."""
    ci_low: float
    ci_high: float
    """Wilson 95% interval of the win rate, taking every game as an independent trial."""
    boot_low: float
    boot_high: float
    """Deal-bootstrap 95% interval of the win rate: deals, not games, are the independent unit."""
    points_per_hand: float
    """Mean points one side of this entrant scored in a hand (a team's points in the partnership game)."""
    points_per_game: float
    elo: float | None
    """Bradley–Terry Elo, only with three or more entrants: with two it merely restates the win rate
    (400·log10(p/(1-p)) apart) and so grows without bound as a lopsided match goes on."""
    spec: str = ""
    """The bot spec the entrant plays."""

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def side_returns(spec: GameSpec, result: GameResult) -> list[float]:
    """Each side's share of the win (a partnership win gives the team 1, not 2)."""
    return [result.returns[spec.seats_of(side)[0]] for side in range(spec.sides)]


def side_points(spec: GameSpec, points: Sequence[int]) -> list[int]:
    """Each side's points: a team's are its seats' together."""
    return [sum(points[s] for s in spec.seats_of(side)) for side in range(spec.sides)]


def summarise(
    spec: GameSpec, lineup: Sequence[str], results: Sequence[GameResult], seed: int | str = 0
) -> list[EntrantSummary]:
    """Per entrant (position in ``lineup``): wins, intervals, points and Elo.

    ``seed`` (the tournament's) fixes the bootstrap's resamples, so the summary
    depends only on the results, not on the order they came in.
    """
    labels = entrant_labels(lineup)
    k = len(lineup)
    games = [0] * k
    wins = [0.0] * k
    hand_sum = [0.0] * k
    hand_n = [0] * k
    game_sum = [0.0] * k
    game_n = [0] * k
    by_deal: dict[int, tuple[list[float], list[int]]] = {}
    pairs: list[tuple[str, str, float]] = []
    for r in sorted(results, key=lambda r: r.index):
        seat_entrants = r.seat_entrants or tuple(list(lineup).index(b) for b in r.seat_bots)
        side_ent = [seat_entrants[spec.seats_of(side)[0]] for side in range(spec.sides)]
        ret = side_returns(spec, r)
        deal_wins, deal_games = by_deal.setdefault(r.deal, ([0.0] * k, [0] * k))
        for e in set(side_ent):
            games[e] += 1
            deal_games[e] += 1
        points = side_points(spec, r.scores)
        for side, e in enumerate(side_ent):
            wins[e] += ret[side]
            deal_wins[e] += ret[side]
            game_sum[e] += points[side]
            game_n[e] += 1
            for hand in r.hand_points:
                hand_sum[e] += side_points(spec, hand)[side]
                hand_n[e] += 1
        # Pairwise results between sides held by different entrants, for the Elo fit, by the
        # finishing order: the winner above the rest, then the points (two losers are not a draw
        # when one of them came second).
        for i in range(spec.sides):
            for j in range(i + 1, spec.sides):
                if side_ent[i] != side_ent[j]:
                    a, b = (ret[i], points[i]), (ret[j], points[j])
                    score = 1.0 if a > b else 0.0 if a < b else 0.5
                    pairs.append((labels[side_ent[i]], labels[side_ent[j]], score))
    elo = bradley_terry_elo(labels, pairs) if k >= 3 else None
    deals = [by_deal[d] for d in sorted(by_deal)]
    boot = bootstrap_rates([d[0] for d in deals], [d[1] for d in deals], seed) if deals else [(0.0, 1.0)] * k
    out = []
    for e, label in enumerate(labels):
        low, high = wilson(wins[e], games[e])
        out.append(
            EntrantSummary(
                bot=label,
                games=games[e],
                wins=wins[e],
                ci_low=low,
                ci_high=high,
                boot_low=boot[e][0],
                boot_high=boot[e][1],
                points_per_hand=hand_sum[e] / hand_n[e] if hand_n[e] else 0.0,
                points_per_game=game_sum[e] / game_n[e] if game_n[e] else 0.0,
                elo=elo[label] if elo is not None else None,
                spec=lineup[e],
            )
        )
    return out


def time_per_move(lineup: Sequence[str], results: Sequence[GameResult]) -> list[float | None]:
    """Each entrant's mean seconds a decision, over the games that measured it (``None``: none did).

    Wall time, so it depends on the machine and its load, and is shown, never saved in the CSV
    files; it is how an equal-time match shows that its budgets were equal where it was played.
    """
    spent = [0.0] * len(lineup)
    moves = [0] * len(lineup)
    for r in results:
        for seat, e in enumerate(r.seat_entrants if r.think else ()):
            spent[e] += r.think[seat]
            moves[e] += r.moves[seat]
    return [spent[e] / moves[e] if moves[e] else None for e in range(len(lineup))]


def record_name(result: GameResult) -> str:
    return f"game-{result.index + 1:05d}.json"


def write_record(folder: Path, result: GameResult) -> None:
    """One game's record, written whole or not at all (a run may be stopped at any moment)."""
    folder.mkdir(parents=True, exist_ok=True)
    write_atomic(folder / record_name(result), json.dumps(result.record, indent=1) + "\n")


def write_records(folder: Path, results: Sequence[GameResult]) -> None:
    for r in results:
        write_record(folder, r)


def games_csv_header(spec: GameSpec) -> list[str]:
    n = spec.players
    return ["game", "deal", "rotation", *(f"seat{s}" for s in range(n)), *(f"points{s}" for s in range(n)),
            "winners", spec.rounds_column, "decisions", "record", "rules"]  # fmt: skip


def rounds_of(spec: GameSpec, result: GameResult) -> int | None:
    """A game's length in its rounds (hands, turns); for a game journaled before that was kept,
    Digging's hands from its points per hand, and ``None`` where nothing says it."""
    if result.rounds is not None:
        return result.rounds
    # Where a round is a hand, the hands are counted in the points per hand (Digger's turns are not).
    return len(result.hand_points) if spec.definition.round_word == "hand" else None


def games_csv_row(spec: GameSpec, result: GameResult, labels: Sequence[str], records: bool) -> list[object]:
    """A game's row; the seats name entrants, so the two copies in self-play stay apart. The record
    column names the game's record file if the run writes records and this game has one (a game
    carried over from another machine without its record has none). The rules (those that differ
    from the defaults) are on every row, so that rows of runs under other rules stay apart when
    their files are put together."""
    r = result
    seats = [labels[e] for e in r.seat_entrants] if r.seat_entrants else list(r.seat_bots)
    record = f"records/{record_name(r)}" if records and r.record else ""
    rounds = rounds_of(spec, r)
    return [r.index + 1, r.deal, r.rotation, *seats, *r.scores, " ".join(map(str, r.winners)),
            "" if rounds is None else rounds, r.decisions, record, spec.rules_text()]  # fmt: skip


def games_csv_text(spec: GameSpec, lineup: Sequence[str], results: Sequence[GameResult], records: bool) -> str:
    labels = entrant_labels(lineup)
    f = io.StringIO(newline="")
    w = csv.writer(f)
    w.writerow(games_csv_header(spec))
    for r in sorted(results, key=lambda r: r.index):
        w.writerow(games_csv_row(spec, r, labels, records))
    return f.getvalue()


def write_games_csv(
    path: Path, spec: GameSpec, lineup: Sequence[str], results: Sequence[GameResult], records: bool
) -> None:
    """All the games, in game order (whatever order they finished in)."""
    write_atomic(path, games_csv_text(spec, lineup, results, records))


def write_summary_csv(path: Path, summary: Sequence[EntrantSummary]) -> None:
    f = io.StringIO(newline="")
    w = csv.writer(f)
    w.writerow(["bot", "spec", "games", "wins", "win_rate", "ci95_low", "ci95_high", "deal_ci95_low",
                "deal_ci95_high", "points_per_hand", "points_per_game", "elo"])
    for e in summary:
        w.writerow([e.bot, e.spec, e.games, f"{e.wins:g}", f"{e.win_rate:.4f}", f"{e.ci_low:.4f}",
                    f"{e.ci_high:.4f}", f"{e.boot_low:.4f}", f"{e.boot_high:.4f}", f"{e.points_per_hand:.3f}",
                    f"{e.points_per_game:.3f}", "" if e.elo is None else f"{e.elo:.1f}"])
    write_atomic(path, f.getvalue())


def write_sides_csv(path: Path, rows: Sequence[Mapping[str, Any]]) -> None:
    """How each side of the table did, whoever sat there (see ``tournament.side_rows``): win rate,
    Wilson and deal-bootstrap intervals and parity over the distinct games, and the side's points
    a game (mean and standard deviation). ``holds``, last, is what sets the side apart besides its
    seats (Digger's black crate card, ``card B``), empty where nothing does."""
    f = io.StringIO(newline="")
    w = csv.writer(f)
    w.writerow(["side", "games", "wins", "win_rate", "ci95_low", "ci95_high", "deal_ci95_low", "deal_ci95_high",
                "parity", "points_mean", "points_sd", "holds"])
    for r in rows:
        w.writerow([r["side"], r["games"], f"{r['wins']:g}", f"{r['win_rate']:.4f}", f"{r['ci95_low']:.4f}",
                    f"{r['ci95_high']:.4f}", f"{r['deal_ci95_low']:.4f}", f"{r['deal_ci95_high']:.4f}",
                    f"{r['parity']:.4f}", f"{r['points_mean']:.3f}", f"{r['points_sd']:.3f}", r.get("holds", "")])
    write_atomic(path, f.getvalue())


def length_rows(spec: GameSpec, games: Sequence[GameResult]) -> list[dict[str, Any]]:
    """How long the (distinct) games ran and how close they were: decisions, the game's rounds
    (hands, turns) and the winning margin (the best side's points less the next side's), each
    as mean, standard deviation, extremes and quartiles: the rows of ``lengths.csv``."""
    measures: dict[str, list[float]] = {"decisions": [float(r.decisions) for r in games]}
    rounds = [rounds_of(spec, r) for r in games]
    if games and None not in rounds:
        measures[spec.rounds_column] = [float(x) for x in rounds if x is not None]
    ranked = [sorted(side_points(spec, r.scores), reverse=True) for r in games]
    measures["margin"] = [float(points[0] - points[1]) for points in ranked]
    rows = []
    for name, xs in measures.items():
        if not xs:
            continue
        q1, mid, q3 = statistics.quantiles(xs, n=4, method="inclusive") if len(xs) > 1 else (xs[0],) * 3
        rows.append({"measure": name, "games": len(xs), "mean": statistics.fmean(xs),
                     "sd": statistics.stdev(xs) if len(xs) > 1 else 0.0, "min": min(xs), "q1": q1, "median": mid,
                     "q3": q3, "max": max(xs)})  # fmt: skip
    return rows


def hands_csv_text(spec: GameSpec, lineup: Sequence[str], results: Sequence[GameResult]) -> str:
    """Every hand of every game, in game order: the game (as in games.csv), its deal and rotation, the
    hand's number from 1, who sat where, and each seat's points in that hand. A designer's view of a
    game's arc (do hands get richer as the game goes on? does a lead hold?); a game of Digger is one hand."""
    labels = entrant_labels(lineup)
    n = spec.players
    f = io.StringIO(newline="")
    w = csv.writer(f)
    w.writerow(["game", "deal", "rotation", "hand", *(f"seat{s}" for s in range(n)), *(f"points{s}" for s in range(n))])
    for r in sorted(results, key=lambda r: r.index):
        seats = [labels[e] for e in r.seat_entrants] if r.seat_entrants else list(r.seat_bots)
        for hand, points in enumerate(r.hand_points, start=1):
            w.writerow([r.index + 1, r.deal, r.rotation, hand, *seats, *points])
    return f.getvalue()


def write_hands_csv(path: Path, spec: GameSpec, lineup: Sequence[str], results: Sequence[GameResult]) -> None:
    write_atomic(path, hands_csv_text(spec, lineup, results))


def write_lengths_csv(path: Path, rows: Sequence[Mapping[str, Any]]) -> None:
    f = io.StringIO(newline="")
    w = csv.writer(f)
    w.writerow(["measure", "games", "mean", "sd", "min", "q1", "median", "q3", "max"])
    for r in rows:
        w.writerow([r["measure"], r["games"], *(f"{r[k]:.3f}" for k in ("mean", "sd")),
                    *(f"{r[k]:g}" for k in ("min", "q1", "median", "q3", "max"))])  # fmt: skip
    write_atomic(path, f.getvalue())


def write_chart(path: Path, spec: GameSpec, summary: Sequence[EntrantSummary], games: int) -> bool:
    """Save :func:`chart_figure` as a PNG. Returns False (and writes nothing) when matplotlib is not installed."""
    return save_figure(path, lambda: chart_figure(spec, summary, games))


def save_figure(path: Path, draw: Callable[[], Any]) -> bool:
    """Save the matplotlib figure ``draw`` makes as a PNG in ``path``. Returns False (and writes
    nothing) when matplotlib is not installed."""
    try:
        import matplotlib
    except ImportError:
        return False

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    fig = draw()
    png = io.BytesIO()
    try:
        fig.savefig(png, dpi=110, format="png")
    finally:
        plt.close(fig)
    write_atomic(path, png.getvalue())  # a viewer never opens half a picture
    return True


def chart_label(bot: str, width: int = 32, short_paths: bool = True) -> str:
    """A bot's name as the chart shows it. A network file is named by its file name, not its
    whole path, and a long spec is wrapped at its commas: a label wider than the figure would
    squeeze the bars to nothing."""
    parts = []
    for part in bot.split(","):
        key, sep, value = part.rpartition("=")
        path = sep and ("/" in value or os.sep in value)
        parts.append(f"{key}{sep}{Path(value).name}" if short_paths and path else part)
    lines = [parts[0]]
    for part in parts[1:]:
        if len(lines[-1]) + 1 + len(part) <= width:
            lines[-1] += "," + part
        else:
            lines[-1] += ","
            lines.append(part)
    return "\n".join(lines)


def chart_figure(spec: GameSpec, summary: Sequence[EntrantSummary], games: int) -> Any:
    """Win rates with their deal-bootstrap 95% intervals against the parity line, and Elo when it means
    something (three or more entrants). A matplotlib figure; the caller closes it."""
    import matplotlib.pyplot as plt

    with_elo = all(e.elo is not None for e in summary) and len(summary) >= 3
    # Best first, as the printed table orders them (entrants' own order breaks ties).
    summary = sorted(summary, key=lambda e: -(e.elo if with_elo and e.elo is not None else e.win_rate))
    names = [chart_label(e.bot) for e in summary]
    if len(set(names)) < len(names):  # two networks of one file name, in two folders
        names = [chart_label(e.bot, short_paths=False) for e in summary]
    rates = [100 * e.win_rate for e in summary]
    # max(0, ...): rounding can put an interval end a hair past its centre at 0% or 100%.
    err = [[max(0.0, 100 * (e.win_rate - e.boot_low)) for e in summary],
           [max(0.0, 100 * (e.boot_high - e.win_rate)) for e in summary]]
    height = 1.9 + 0.6 * len(names) + 0.2 * sum(name.count("\n") for name in names)
    if with_elo:
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, height), constrained_layout=True)
    else:
        fig, ax1 = plt.subplots(1, 1, figsize=(6.5, height), constrained_layout=True)
    ypos = list(range(len(names)))
    ax1.barh(ypos, rates, xerr=err, color="#d4a017", ecolor="#333333", capsize=4)
    # Parity: each side's share if all were equal (a third at a 3-seat table, not a half).
    parity = 100 / spec.sides
    ax1.axvline(parity, label="parity", color="#7a1f1f", linestyle="--", linewidth=1.2, zorder=3)
    ax1.text(parity, -0.5, f" parity {parity:.0f}%", color="#7a1f1f", va="bottom", ha="left", fontsize=9)
    for y, e in zip(ypos, summary, strict=True):
        # The figure goes past the interval's end, or inside the bar when that end is near 100%.
        x = 100 * e.boot_high + 2 if e.boot_high < 0.8 else 100 * e.boot_low - 2
        ax1.text(x, y, f"{100 * e.win_rate:.1f}%", va="center", ha="left" if e.boot_high < 0.8 else "right")
    ax1.set_yticks(ypos, names)
    ax1.set_xlim(0, 100)
    ax1.set_ylim(len(names) - 0.5, -0.8)  # top to bottom, with room for the parity label
    ax1.set_xlabel("games won (%), deal-bootstrap 95% interval")
    if with_elo:
        elo = [e.elo or 0.0 for e in summary]
        # From the mean, so that a bar's length is the gap it stands for (bars from an axis
        # cut near the lowest rating would make small gaps look large).
        elo_bars = ax2.barh(ypos, [v - 1500 for v in elo], left=1500, color="#8c6d31")
        ax2.bar_label(elo_bars, labels=[f"{v:.0f}" for v in elo], label_type="edge", padding=3)
        ax2.axvline(1500, color="#333333", linewidth=0.8)
        ax2.set_yticks(ypos, names)
        ax2.set_xlabel("Elo (Bradley–Terry fit, mean 1500)")
        reach = max(abs(v - 1500) for v in elo) + 120
        ax2.set_xlim(1500 - reach, 1500 + reach)
        ax2.invert_yaxis()
    fig.suptitle(f"goldfields arena: {spec.label}, {games} games")
    return fig
