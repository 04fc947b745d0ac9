"""Equal time on a match's own positions: the iteration budget that gives one search the time of another.

Run:  python benchmarks/bench_equal_time.py RECORD.json [RECORD.json ...]
          [--guided ismcts:iterations=3400,net=selfplay,deals=4] [--plain ismcts:iterations=5000]
          [--positions 40] [--rounds 2] [--seed 1]

``bench_net.py`` times the searches on positions from games of the heuristic. A
match's own games reach other positions (longer hands, fuller tables), where
the ratio of the two searches' rates can differ: the first game of
``eq-025-4p-selfplay-deals4`` at 3,400 iterations gave the guided search 470
ms a decision against the plain search's 407, where ``bench_net.py`` had put
3,400 level with 5,000. This script draws ``--positions`` decisions with a
choice from the given game records (Digging records, as the arena writes
them), times both specs side by side on each, and prints for each round the
guided spec's iterations scaled by the ratio of the times: its budget for the
plain search's time a move on these positions.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from decisions import choices

from goldfields.bots.ismcts import ISMCTSBot
from goldfields.bots.registry import make_bot
from goldfields.core.game import GameState


def decisions(paths: list[Path]) -> list[GameState]:
    """Every position of the records where the seat to move has more than one legal move."""
    return [state for path in paths for state in choices(json.loads(path.read_text(encoding="utf-8")))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("records", nargs="+", type=Path, help="game records of the match (its records/ folder)")
    parser.add_argument("--guided", default="ismcts:iterations=3400,net=selfplay,deals=4")
    parser.add_argument("--plain", default="ismcts:iterations=5000")
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1, help="which positions are drawn")
    args = parser.parse_args()
    found = decisions(args.records)
    sample = random.Random(args.seed).sample(found, min(args.positions, len(found)))
    guided, plain = make_bot(args.guided, "digging"), make_bot(args.plain, "digging")
    assert isinstance(guided, ISMCTSBot) and guided.iterations is not None, "--guided needs an iteration budget"
    print(f"{len(sample)} positions of {len(found)} with a choice, from {len(args.records)} record(s)")
    budgets = []
    for r in range(args.rounds):
        spent = {"plain": 0.0, "guided": 0.0}
        for i, state in enumerate(sample):
            view = state.view(state.current_player)
            for name, bot in (("plain", plain), ("guided", guided)):
                t0 = time.perf_counter()
                bot.act(view, random.Random(i))
                spent[name] += time.perf_counter() - t0
        budget = guided.iterations * spent["plain"] / spent["guided"]
        budgets.append(budget)
        print(f"round {r + 1}: {args.plain} {1000 * spent['plain'] / len(sample):.0f} ms a decision, "
              f"{args.guided} {1000 * spent['guided'] / len(sample):.0f} ms: equal time at {budget:.0f} iterations")
    print(f"median equal-time budget: {statistics.median(budgets):.0f} iterations")


if __name__ == "__main__":
    main()
