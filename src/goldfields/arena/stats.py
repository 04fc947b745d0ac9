"""The statistics the arena reports: Wilson and deal-bootstrap intervals, and an Elo fit (Bradley–Terry)."""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Iterable, Sequence

Z95 = 1.959963984540054


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default).

    ``successes`` may be fractional (a shared win counts as a share), as the
    interval only needs the observed proportion and the number of trials.
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1.0 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def bootstrap_rates(
    wins: Sequence[Sequence[float]],
    games: Sequence[Sequence[int]],
    seed: str | int,
    resamples: int = 2000,
    level: float = 0.95,
) -> list[tuple[float, float]]:
    """Percentile bootstrap intervals for each entrant's win rate, resampling whole deals.

    ``wins[d][e]`` and ``games[d][e]`` are entrant ``e``'s wins and games in deal
    ``d`` (every rotation of it). The games of one deal share its decks or dice,
    so they are not independent; the deals are. Resampling deals keeps that
    pairing, which the Wilson interval (games as independent trials) ignores:
    duplicate deals cancel luck, so this interval is usually the narrower one.
    ``seed`` fixes the resamples, so the same results give the same interval.
    With few deals the interval is too narrow (with one deal it has no width).
    """
    # Pure Python on purpose: the arena is part of the core install, which has no numpy.
    deals = len(wins)
    if deals == 0:
        return []
    entrants = len(wins[0])
    digest = hashlib.sha256(f"goldfields-arena/bootstrap/{seed}".encode()).digest()
    rng = random.Random(int.from_bytes(digest[:8], "little"))
    won_by = [[float(row[e]) for row in wins] for e in range(entrants)]
    played_by = [[float(row[e]) for row in games] for e in range(entrants)]
    indices = range(deals)
    rates: list[list[float]] = [[] for _ in range(entrants)]
    for _ in range(resamples):
        picks = rng.choices(indices, k=deals)
        for e in range(entrants):
            played = sum(map(played_by[e].__getitem__, picks))
            rates[e].append(sum(map(won_by[e].__getitem__, picks)) / played if played > 0 else 0.0)
    tail = (1 - level) / 2
    return [(_percentile(sorted(r), tail), _percentile(sorted(r), 1 - tail)) for r in rates]


def _percentile(ordered: Sequence[float], q: float) -> float:
    """The ``q`` quantile of sorted values, interpolated linearly between neighbours (numpy's default)."""
    at = q * (len(ordered) - 1)
    below = math.floor(at)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (at - below)


def bradley_terry_elo(
    players: Sequence[str],
    results: Iterable[tuple[str, str, float]],
    prior_games: float = 1.0,
    iterations: int = 10_000,
    base: float = 1500.0,
) -> dict[str, float]:
    """Elo ratings fit to pairwise results ``(a, b, score of a)`` (1 win, 0.5 draw, 0 loss).

    Fits the Bradley–Terry model by Hunter's MM iteration, a draw counting half a
    win to each side. ``prior_games`` virtual drawn games between every pair keep
    the ratings finite when one player won every game. Ratings are centred on
    ``base``: 400 points apart means 10-to-1 odds.
    """
    names = list(dict.fromkeys(players))
    k = len(names)
    if k < 2:
        return {name: base for name in names}
    index = {name: i for i, name in enumerate(names)}
    wins = [0.0] * k
    games = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(i + 1, k):
            games[i][j] += prior_games
            games[j][i] += prior_games
            wins[i] += prior_games / 2
            wins[j] += prior_games / 2
    for a, b, score in results:
        i, j = index[a], index[b]
        games[i][j] += 1.0
        games[j][i] += 1.0
        wins[i] += score
        wins[j] += 1.0 - score
    gamma = [1.0] * k
    for _ in range(iterations):
        new = []
        for i in range(k):
            denom = sum(games[i][j] / (gamma[i] + gamma[j]) for j in range(k) if j != i and games[i][j])
            new.append(wins[i] / denom if denom else gamma[i])
        # Fix the scale: geometric mean 1.
        mean_log = sum(math.log(g) for g in new) / k
        new = [g / math.exp(mean_log) for g in new]
        change = max(abs(a - b) for a, b in zip(new, gamma, strict=True))
        gamma = new
        if change < 1e-12:
            break
    return {name: base + 400.0 * math.log10(gamma[index[name]]) for name in names}
