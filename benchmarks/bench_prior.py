"""How flat each network's policy is as the search's prior, and what ``sharpen`` makes of it.

Run:  python benchmarks/bench_prior.py [--net default PATH.npz ...] [--sharpen 1 4 10]
                                       [--players 2 4] [--games 10] [--seed 5]

The policy is fitted to the visit shares of a 400-iteration search, and a
search that weighs moves worth nearly the same visits them nearly alike: so the
network ranks the moves well (the ``net`` bot plays its favourite and beats the
heuristic), but as a PUCT prior it barely leans on that ranking. This script
reads every decision with three or more legal moves in games of the
``heuristic`` (one move in ten at random, as the warm-up plays, so that the
positions vary), and reports for each network and each ``sharpen``:

- **fav/avg**: the favourite move's prior over the average prior, 1/n (1 is a
  flat prior; n would put everything on the favourite), mean and median;
- **fav**: the favourite's prior itself;
- **entropy**: the prior's entropy over log n (1 is flat, 0 is certain).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from pathlib import Path

import numpy as np

from goldfields.bots.net import NetEvaluator, PolicyValueNet, evaluator
from goldfields.bots.registry import make_bot
from goldfields.digging import new_game
from goldfields.progress import LoggedProgress

RANDOM_SHARE = 0.1
"""Moves played at random, as the warm-up's games do."""


def load(name: str) -> NetEvaluator:
    if not name.endswith(".npz"):
        return evaluator(name)
    with np.load(Path(name)) as data:
        return NetEvaluator(PolicyValueNet.from_arrays({k: data[k] for k in data.files}))


def measure(players: int, games: int, nets: dict[str, NetEvaluator], sharpen: list[float], seed: int,
            progress: LoggedProgress) -> dict[tuple[str, float], dict[str, float]]:  # fmt: skip
    rng = random.Random(seed)
    player = make_bot("heuristic", "digging")
    rows: dict[tuple[str, float], list[tuple[float, float, float]]] = {(n, s): [] for n in nets for s in sharpen}
    sizes: list[int] = []
    task = progress.add_task(f"{players} players", total=games)
    for _ in range(games):
        state = new_game(players, players == 4, rng=rng)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if len(legal) >= 3:
                sizes.append(len(legal))
                for name, ev in nets.items():
                    for s in sharpen:
                        p, _ = ev.evaluate_state(state, legal, 1.0 / s)
                        fav = float(p.max())
                        entropy = -float((p * np.log(np.maximum(p, 1e-30))).sum()) / math.log(len(legal))
                        rows[name, s].append((fav * len(legal), fav, entropy))
            if rng.random() < RANDOM_SHARE:
                action = rng.choice(legal)
            else:
                action = player.act(state.view(state.current_player), rng)
            state.apply_action(action)
        progress.advance(task)
    out = {}
    for key, vals in rows.items():
        out[key] = {
            "ratio": statistics.fmean(v[0] for v in vals),
            "median": statistics.median(v[0] for v in vals),
            "fav": statistics.fmean(v[1] for v in vals),
            "entropy": statistics.fmean(v[2] for v in vals),
            "decisions": len(vals),
            "moves": statistics.fmean(sizes),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--net", nargs="+", default=["default"], help="shipped names or .npz paths")
    parser.add_argument("--sharpen", type=float, nargs="+", default=[1.0, 4.0, 10.0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4], choices=[2, 3, 4])
    parser.add_argument("--games", type=int, default=10, help="games of the heuristic a table")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    if any(s <= 0 for s in args.sharpen):
        parser.error("--sharpen values must be above 0")
    nets = {name: load(name) for name in args.net}
    with LoggedProgress() as progress:
        results = {p: measure(p, args.games, nets, args.sharpen, args.seed, progress) for p in args.players}
    print(f"{'players':>7} {'network':<28} {'sharpen':>7} {'fav/avg':>8} {'median':>7} {'fav':>6} {'entropy':>8}")
    for p, rows in results.items():
        for (name, s), r in rows.items():
            print(
                f"{p:>7} {Path(name).name:<28} {s:>7g} {r['ratio']:>8.2f} {r['median']:>7.2f} {r['fav']:>6.3f}"
                f" {r['entropy']:>8.3f}"
            )
        first = next(iter(rows.values()))
        print(f"        ({first['decisions']} decisions, {first['moves']:.1f} legal moves on average)")
    print("(fav/avg: the favourite's prior over 1/n, 1 for a flat prior; entropy over log n, 1 for a flat prior)")


if __name__ == "__main__":
    main()
