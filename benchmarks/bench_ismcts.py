"""ISMCTS iterations per second on one core, from a 4-player partnership mid-game position.

Run:  /work/venv/bin/python benchmarks/bench_ismcts.py [--iterations N] [--repeat R]

The position: a partnership game (seed 7) played by the heuristic bot for 40
moves into its first hand. The bot searches it ``--repeat`` times with a
budget of ``--iterations``; the best rate is reported (the least disturbed
run). If ``open_spiel`` is importable, OpenSpiel's Python ISMCTS is timed the
same way on its C++ ``hearts`` game, mid-hand, with random rollouts, and the
ratio is printed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from goldfields.bots.digging_heuristic import DiggingHeuristic
from goldfields.bots.ismcts import ISMCTSBot
from goldfields.core.game import GameState
from goldfields.digging import new_game


def midgame_position(moves: int = 40, seed: int = 7) -> GameState:
    state = new_game(4, seed=seed)
    bot = DiggingHeuristic()
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply_action(bot.act(state.view(state.current_player), rng))
    # Move on to a position where the seat to move has a real choice.
    while len(state.legal_actions()) < 4:
        state.apply_action(bot.act(state.view(state.current_player), rng))
    return state


def bench_goldfields(iterations: int, repeat: int, **params: float) -> float:
    state = midgame_position()
    view = state.view(state.current_player)
    bot = ISMCTSBot(iterations=iterations, **params)  # type: ignore[arg-type]
    best = 0.0
    for r in range(repeat):
        t0 = time.perf_counter()
        bot.act(view, random.Random(r))
        dt = time.perf_counter() - t0
        best = max(best, bot.last_iterations / dt)
    return best


def bench_open_spiel(iterations: int, repeat: int) -> float | None:
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rng = np.random.RandomState(0)
    state = game.new_initial_state()
    # Deal, pass and play a few tricks at random, to a mid-hand position.
    while not state.is_terminal() and (state.is_chance_node() or len(state.history()) < 80):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    best = 0.0
    for _ in range(repeat):
        bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=iterations, random_state=rng)
        t0 = time.perf_counter()
        bot.step(state)
        best = max(best, iterations / (time.perf_counter() - t0))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--iterations", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--depth", type=int, default=None, help="ISMCTS rollout depth (default: the bot's)")
    parser.add_argument("--reuse", type=int, default=None, help="iterations per determinisation")
    parser.add_argument("--policy", default=None, help="rollout policy: smart or fast")
    parser.add_argument("--no-open-spiel", action="store_true")
    args = parser.parse_args()
    params = {k: v for k, v in (("depth", args.depth), ("reuse", args.reuse), ("policy", args.policy)) if v is not None}
    print(f"command: {' '.join([sys.executable, *sys.argv])}")
    ours = bench_goldfields(args.iterations, args.repeat, **params)
    print(f"goldfields ISMCTS, Digging partnership mid-game: {ours:,.0f} iterations/s "
          f"(best of {args.repeat} x {args.iterations} iterations, one core, params {params or 'default'})")
    if args.no_open_spiel:
        return
    theirs = bench_open_spiel(max(1, args.iterations // 10), args.repeat)
    if theirs is None:
        print("open_spiel not importable: no hearts comparison")
        return
    print(f"OpenSpiel Python ISMCTS, C++ hearts mid-hand: {theirs:,.0f} iterations/s "
          f"(best of {args.repeat} x {max(1, args.iterations // 10)} iterations, random rollouts)")
    print(f"ratio goldfields / OpenSpiel: {ours / theirs:.2f}")


if __name__ == "__main__":
    main()
