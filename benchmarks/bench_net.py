"""The network's cost: ISMCTS iterations per second with and without it, and the net bot's time a move.

Run:  python benchmarks/bench_net.py [--net default] [--c 0.7] [--prior all] [--deals 1]
                                    [--iterations 400 5000] [--positions 30] [--rounds 3]
                                    [--table both|partnership|2p]

Positions: decisions with a choice from heuristic games on both tables the
network plays (4-player partnership and 2 players), or on one (``--table``:
the ratio differs between them, and each match is played on one). Each round times, side by
side on the same positions, plain ``ismcts`` and ``ismcts:net=NET`` at the same
iteration budget, and the ``net`` bot. The ratio of the two search rates is
the iteration budget that gives the network's search the same time a move as
the plain one: the arena matches in docs/network.md use it, so that "equal time"
does not depend on the load of the machine that plays them.

The ratio depends on the budget (a larger tree has more nodes visited twice,
each of which asks the network for its prior, and goes deeper), so it is
measured at each budget given and printed with the plain search's time a move
and the network's budget for the same time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from goldfields.bots.base import Budget
from goldfields.bots.ismcts import ISMCTSBot
from goldfields.bots.registry import make_bot
from goldfields.core.game import GameState
from goldfields.digging import new_game


def positions(players: int, partnership: bool, count: int, seed: int) -> list[GameState]:
    rng = random.Random(seed)
    bot = make_bot("heuristic", "digging")
    out: list[GameState] = []
    while len(out) < count:
        state = new_game(players, partnership, rng=rng)
        while not state.is_terminal() and len(out) < count:
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(rng))
                continue
            if len(state.legal_actions()) > 2 and rng.random() < 0.1:
                out.append(state.clone())
            state.apply_action(bot.act(state.view(state.current_player), rng))
    return out


def rate(bot: ISMCTSBot, states: list[GameState], iterations: int) -> float:
    """Iterations per second over ``states``."""
    spent = 0.0
    for i, state in enumerate(states):
        t0 = time.perf_counter()
        bot.search(state.view(state.current_player), random.Random(i), Budget(iterations=iterations))
        spent += time.perf_counter() - t0
    return iterations * len(states) / spent


def net_move_ms(spec: str, states: list[GameState]) -> float:
    bot = make_bot(spec, "digging")
    t0 = time.perf_counter()
    for i, state in enumerate(states):
        bot.act(state.view(state.current_player), random.Random(i))
    return 1000 * (time.perf_counter() - t0) / len(states)


# Each table's positions come from their own seed, so a table's positions are the same alone or with the other.
TABLES = {"both": [(4, True, 1), (2, False, 2)], "partnership": [(4, True, 1)], "2p": [(2, False, 2)]}
TABLE_NAMES = {"both": "4p partnership and 2p", "partnership": "4p partnership", "2p": "2p"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--net", default="default", help="a shipped network's name or a .npz path")
    parser.add_argument("--c", type=float, default=ISMCTSBot.c, help="the guided search's exploration constant")
    parser.add_argument("--prior", default="all", choices=["all", "own"], help="whose moves the prior guides")
    parser.add_argument("--deals", type=int, default=ISMCTSBot.deals,
                        help="with --prior all: deals another seat's prior is read from")
    parser.add_argument("--iterations", type=int, nargs="+", default=[400], help="plain budgets to compare at")
    parser.add_argument("--positions", type=int, default=30, help="positions per table")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--table", default="both", choices=sorted(TABLES),
                        help="whose positions: both tables (the default, as the matches' budgets were set), "
                             "or one, as each match is played on one")  # fmt: skip
    args = parser.parse_args()
    states = [s for players, partnership, seed in TABLES[args.table] for s in
              positions(players, partnership, args.positions, seed)]  # fmt: skip
    plain = ISMCTSBot()
    guided = ISMCTSBot(net=args.net, c=args.c, prior=args.prior, deals=args.deals)
    spec = f"ismcts:net={args.net}" + (f",c={args.c:g}" if args.c != ISMCTSBot.c else "")
    spec += f",prior={args.prior}" if args.prior != ISMCTSBot.prior else ""
    spec += f",deals={args.deals}" if args.deals != ISMCTSBot.deals else ""
    print(f"positions: {len(states)} ({TABLE_NAMES[args.table]}), {args.rounds} rounds, medians")
    print(
        f"{'plain budget':>12} {'plain s/move':>12} {'ismcts it/s':>11} {spec + ' it/s':>24} {'ratio':>6}"
        "  rounds  equal-time budget"
    )
    for iterations in args.iterations:
        ratios, plain_rates, net_rates = [], [], []
        for _ in range(args.rounds):
            a = rate(plain, states, iterations)
            b = rate(guided, states, iterations)
            plain_rates.append(a)
            net_rates.append(b)
            ratios.append(b / a)
        ratio = statistics.median(ratios)
        plain_rate = statistics.median(plain_rates)
        print(
            f"{iterations:>12} {iterations / plain_rate:>12.3f} {plain_rate:>11.0f}"
            f" {statistics.median(net_rates):>24.0f} {ratio:>6.2f}  {'/'.join(f'{r:.2f}' for r in ratios)}"
            f"  {round(ratio * iterations)} against {iterations}"
        )
    ms = [net_move_ms(f"net:net={args.net}", states) for _ in range(args.rounds)]
    print(f"net bot: {statistics.median(ms):.2f} ms a move")

if __name__ == "__main__":
    main()
