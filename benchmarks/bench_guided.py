"""Where in the tree the network guides the search: the nodes that read its prior, by depth.

Run:  python benchmarks/bench_guided.py [--net selfplay] [--iterations 5000] [--positions 10]
                                        [--spec prior=own --spec prior=all --spec prior=all,deals=4]

Positions: decisions with a choice from heuristic games (as in ``bench_net.py``), on the
4-player partnership table and the 2-player one. For each setting of the guided search (``--spec``,
the options after ``ismcts:net=NET,``), one search a position at the given budget, and

- the nodes whose prior the network gave, by their depth below the root (the root is depth 0;
  depth 4 in the partnership game is the searching seat's next decision);
- how many guided nodes below the root an iteration passes through on average (the sum of
  their visits over the iterations): how much of the search the prior shapes beyond the root.

No timing: the counts depend on the seeds alone, so a busy machine gives the same figures.
"""

from __future__ import annotations

import argparse
import random
import statistics

from bench_net import positions

from goldfields.bots.base import Budget
from goldfields.bots.ismcts import ISMCTSBot, Node
from goldfields.bots.registry import make_bot

TABLES = [("4p partnership", 4, True), ("2p", 2, False)]


def guided(root: Node) -> list[tuple[Node, int]]:
    """Every node that holds a prior, with its depth."""
    out, todo = [], [(root, 0)]
    while todo:
        node, depth = todo.pop()
        if node.prior is not None:
            out.append((node, depth))
        todo.extend((child, depth + 1) for child in node.children.values())
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--net", default="selfplay", help="a shipped network's name or a .npz path")
    parser.add_argument("--iterations", type=int, default=5000)
    parser.add_argument("--positions", type=int, default=10, help="positions per table")
    parser.add_argument("--spec", action="append", help="guided search options (repeat); "
                        "default: prior=own, prior=all, prior=all,deals=4")  # fmt: skip
    args = parser.parse_args()
    specs = args.spec or ["prior=own", "prior=all", "prior=all,deals=4"]
    print(f"{args.iterations} iterations a search, {args.positions} positions a table, network {args.net}")
    for table, players, partnership in TABLES:
        states = positions(players, partnership, args.positions, 7)
        for options in specs:
            spec = f"ismcts:net={args.net},{options}"
            bot = make_bot(spec, "digging")
            assert isinstance(bot, ISMCTSBot)
            counts: list[int] = []
            depths: dict[int, int] = {}
            passes: list[float] = []
            for i, state in enumerate(states):
                view = state.view(state.current_player)
                root = bot.search(view, random.Random(i), Budget(iterations=args.iterations))
                nodes = guided(root)
                counts.append(len(nodes))
                for _, depth in nodes:
                    depths[depth] = depths.get(depth, 0) + 1
                passes.append(sum(node.n for node, depth in nodes if depth > 0) / args.iterations)
            per = {d: c / len(states) for d, c in sorted(depths.items())}
            shown = ", ".join(f"{d}: {c:.0f}" for d, c in per.items() if c >= 0.5)
            print(f"{table:>15}  {options:<20} guided nodes a search {statistics.mean(counts):7.1f}"
                  f"  below the root an iteration {statistics.mean(passes):5.2f}  by depth {{{shown}}}")


if __name__ == "__main__":
    main()
