"""Random-play speed of the Digger engine, on one core.

    python benchmarks/bench_digger.py [--seconds 3] [--rounds 5] [--players 4]

A turn is one digger's turn from its first roll to its stop, timeout or
knock. The policy picks a uniformly random legal action; the simulated clock
(``TimeModel`` with its default costs and 20% jitter) stamps each step, so a
turn can run out of time as at the table; the dice are drawn with the same
seeded ``random.Random``. Everything is timed: policy, clock, chance and
engine, in one process. Figures are medians over the rounds.
"""

from __future__ import annotations

import argparse
import platform
import random
import shlex
import statistics
import sys
import time

from goldfields.clocks import TimeModel
from goldfields.digger import DiggerState


def digger_round(players: int, seconds: float, seed: int, model: TimeModel) -> dict[str, float]:
    """Random games for ``seconds``: turns/s, decisions/s, games/s and the share of turns that timed out."""
    rng = random.Random(seed)
    randrange = rng.randrange
    stamp = model.stamp
    turns = decisions = games = timeouts = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = DiggerState(players)
        legal_actions, apply_action = state.legal_actions, state.apply_action
        sample_chance, apply_chance = state.sample_chance, state.apply_chance
        while state.current_player != -2:  # TERMINAL
            if state.current_player == -1:  # CHANCE
                apply_chance(sample_chance(rng))
                continue
            legal = legal_actions()
            action = legal[randrange(len(legal))]
            for event in apply_action(action, stamp(state, action, rng)):
                if event.kind == "timeout":
                    timeouts += 1
            decisions += 1
        turns += state.turn + 1
        games += 1
    total = time.perf_counter() - start
    return {
        "turns": turns / total,
        "decisions": decisions / total,
        "games": games / total,
        "timeouts": timeouts / turns,
        "turns_per_game": turns / games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (median reported)")
    parser.add_argument("--players", type=int, default=4, choices=range(2, 6), help="players at the table")
    args = parser.parse_args()

    model = TimeModel(jitter=0.2)
    rows: list[dict[str, float]] = []
    for r in range(args.rounds):
        row = digger_round(args.players, args.seconds, seed=r, model=model)
        rows.append(row)
        print(f"round {r + 1}/{args.rounds}: {row['turns']:,.0f} turns/s, {row['decisions']:,.0f} decisions/s")

    med = {key: statistics.median(row[key] for row in rows) for key in rows[0]}
    command = shlex.join([sys.executable, *sys.argv])
    print(f"\nDigger random play, {args.players} players, one core, Python {platform.python_version()}, "
          f"{args.rounds} rounds x {args.seconds:g} s, medians; simulated clock {model}.")  # fmt: skip
    print(f"  turns/s:     {med['turns']:>10,.0f}")
    print(f"  decisions/s: {med['decisions']:>10,.0f}")
    print(f"  games/s:     {med['games']:>10,.1f}  ({med['turns_per_game']:.1f} turns a game, "
          f"{med['timeouts']:.1%} of turns timed out)")  # fmt: skip
    print(f"command: {command}")


if __name__ == "__main__":
    main()
