"""How much does `goldfields analyze` overstate a move's cost by picking the best move and
valuing it from the same search?

    python benchmarks/bench_analysis_bias.py [--positions 120] [--players 4] [--seed 1]

The judge's choice is the move its search liked best, so that move's estimate is, on average,
lucky: the drop it reports (best estimate minus the played move's) is biased upward. This script
plays heuristic games (an ordinary player's moves), takes seat 0's decisions with a choice, and
for each one the judge (the game's analyst, ``ismcts:iterations=2000``) disagrees with, values the
same two moves again in an independent search of the same budget. The second search did not pick
the best move, so its difference is free of that selection's luck: the gap between the two mean
drops is the bias.
"""

from __future__ import annotations

import argparse
import random
import statistics

from rich.progress import Progress

from goldfields.bots import make_bot
from goldfields.bots.analysis import analyst, decisions, estimate, judge, searcher_for
from goldfields.core import registry
from goldfields.play import play_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=120)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    definition = registry.get("digging")
    params = definition.params(players=args.players)
    rng = random.Random(args.seed)
    found = []
    while len(found) < 3 * args.positions:
        bots = [make_bot("heuristic", "digging") for _ in range(args.players)]
        final = play_game(lambda: definition.new_state(params), bots, random.Random(rng.getrandbits(32)))
        found.extend(decisions(definition, final.record(), 0))
    sample = rng.sample(found, args.positions)
    searcher = searcher_for(analyst(definition), "digging")
    same, fresh, agreed = [], [], 0
    with Progress() as progress:
        task = progress.add_task("judging", total=len(sample))
        for i, pos in enumerate(sample):
            j = judge(searcher, pos.view, pos.played, random.Random(i), searcher.budget())
            progress.advance(task)
            if j.best == pos.played:
                agreed += 1
                continue
            root = searcher.search(pos.view, random.Random(1_000_000 + i), searcher.budget(), also=(pos.played,))
            same.append(j.best_win - j.played_win)
            fresh.append(estimate(root, j.best) - estimate(root, pos.played))
    n = len(same)
    if n < 2:
        raise SystemExit(f"the judge disagreed on {n} of {len(sample)} decisions: too few to compare; add --positions")
    print(f"{len(sample)} decisions of seat 0 at {args.players} players; the judge agreed with {agreed}")
    print(f"on the {n} others, mean drop (points of winning chance, unclipped):")
    print(f"  valued by the search that chose: {100 * statistics.mean(same):.2f}")
    print(f"  valued by an independent search: {100 * statistics.mean(fresh):.2f}")
    gap = [a - b for a, b in zip(same, fresh, strict=True)]
    sd = statistics.stdev(gap) / n**0.5
    print(f"  bias: {100 * statistics.mean(gap):.2f} (95% interval {100 * (statistics.mean(gap) - 1.96 * sd):.2f}"
          f" to {100 * (statistics.mean(gap) + 1.96 * sd):.2f})")
    for cut in (0.05, 0.10, 0.15):
        print(f"  drops of {100 * cut:.0f} points or more: {sum(d >= cut for d in same)} by the choosing search, "
              f"{sum(d >= cut for d in fresh)} by the independent one")


if __name__ == "__main__":
    main()
