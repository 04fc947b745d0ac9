"""How well each leaf evaluator of the Digging search judges a position: the network's value head
against the search's own projection, measured.

Run:  python benchmarks/bench_value.py [--players 2 4] [--games 10] [--reference 5000] [--deals 16]
                                       [--net default] [--seed 3]

``ismcts:leaf=net`` scores a new node by the value head; the default scores it by
a short rollout (8 moves) and the projection of ``digging_search.evaluate``. In
the arena the value leaf loses nearly every game, while the projection with no
rollout at all (``depth=0``) holds its own. This script says why, with three
leaves side by side on the same positions, each read from determinisations of
the deciding seat's view (as in the search, so nothing hidden is used):

- **Brier** and **correlation** of the leaf's win probability for the seat to
  move against that seat's final result, over decisions of whole games played
  by ``ismcts:iterations=100`` on every seat (how well it knows who is ahead);
- **agrees** and **regret** at decisions with three or more moves to weigh: the
  move each leaf rates best after one step (averaged over ``--deals``
  determinisations) against the move a plain search of ``--reference``
  iterations plays there, and how much of the reference search's value for the
  seat that move gives up (how well it tells one move from its neighbours,
  which is what a search asks of a leaf). The judge plays the move it visited
  most, so a leaf's move can have a higher mean value and a negative regret.
  The judge's own leaf is the rollout and the projection, which favours those
  two leaves on this measure.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Callable

from rich.progress import Progress

from goldfields.bots.digging_search import evaluate
from goldfields.bots.ismcts import ISMCTSBot, SearchGame, search_game_for
from goldfields.bots.net import evaluator
from goldfields.bots.registry import make_bot
from goldfields.core.game import GameState
from goldfields.digging import new_game
from goldfields.progress import LoggedProgress

Leaf = Callable[[GameState, int, random.Random], float]

ROLLOUT = 8
"""Moves the rollout leaf plays, as ``ismcts`` does by default (``depth=8``)."""
SCORE_EVERY = 5
"""Every fifth decision is scored against the game's result: neighbours say almost the same."""
JUDGE_EVERY = 10
"""Every tenth is judged by the reference search, which costs far more than the leaves."""


def leaves(net: str, game: SearchGame) -> dict[str, Leaf]:
    ev = evaluator(net)

    def value_head(state: GameState, seat: int, rng: random.Random) -> float:
        if state.current_player < 0:  # the search itself falls back to the projection here
            return evaluate(state)[seat]  # type: ignore[arg-type]
        return float(ev.evaluate_state(state, state.legal_actions())[1][seat])

    def projection(state: GameState, seat: int, rng: random.Random) -> float:
        return evaluate(state)[seat]  # type: ignore[arg-type]

    def rollout(state: GameState, seat: int, rng: random.Random) -> float:
        return game.rollout(state, rng, ROLLOUT, seat)[seat]  # the callers' states are clones

    return {"value head": value_head, "projection": projection, "rollout 8 + projection": rollout}


def measure(players: int, games: int, reference: int, deals: int, net: str, seed: int,
            progress: Progress) -> dict[str, dict[str, float]]:  # fmt: skip
    rng = random.Random(seed)
    game = search_game_for("digging", "smart")
    fns = leaves(net, game)
    player = make_bot("ismcts:iterations=100", "digging")
    judge = ISMCTSBot(iterations=reference)
    guesses: dict[str, list[tuple[int, float]]] = {k: [] for k in fns}  # (seat, p) until the result is known
    scored: dict[str, list[tuple[float, float]]] = {k: [] for k in fns}
    agrees: dict[str, list[float]] = {k: [] for k in fns}
    regret: dict[str, list[float]] = {k: [] for k in fns}
    task = progress.add_task(f"{players} players", total=games)
    for _ in range(games):
        state = new_game(players, players == 4, rng=rng)
        turn = 0
        for k in guesses:
            guesses[k].clear()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(rng))
                continue
            seat = state.current_player
            view = state.view(seat)
            turn += 1
            if turn % SCORE_EVERY == 0:
                det = game.determinise(view, rng)
                for k, fn in fns.items():
                    guesses[k].append((seat, fn(det.clone(), seat, rng)))
            moves = game.root_moves(view, view.legal_actions())
            if turn % JUDGE_EVERY == 0 and len(moves) >= 3:
                root = judge.search(view, random.Random(turn), judge.budget())
                q = {a: v for a, v in root.values().items() if a in moves}
                best = root.chosen(list(q))  # as the bot plays
                dets = [game.determinise(view, rng) for _ in range(deals)]
                for k, fn in fns.items():
                    rating = {}
                    for a in q:
                        total = 0.0
                        for d in dets:
                            after = d.clone()
                            game.step(after, a, rng)
                            total += fn(after, seat, rng)
                        rating[a] = total
                    pick = max(rating, key=rating.__getitem__)
                    agrees[k].append(float(pick == best))
                    regret[k].append(q[best] - q[pick])
            state.apply_action(player.act(view, rng))
        result = state.returns()
        for k in fns:
            scored[k] += [(p, result[s]) for s, p in guesses[k]]
        progress.advance(task)
    out = {}
    for k in fns:
        ps = [p for p, _ in scored[k]]
        ys = [y for _, y in scored[k]]
        out[k] = {
            "brier": statistics.fmean((p - y) ** 2 for p, y in scored[k]),
            "corr": statistics.correlation(ps, ys),
            "agrees": statistics.fmean(agrees[k]),
            "regret": statistics.fmean(regret[k]),
            "states": len(ps),
            "decisions": len(agrees[k]),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4], choices=[2, 3, 4])
    parser.add_argument("--games", type=int, default=10, help="whole games a table, by ismcts:iterations=100")
    parser.add_argument("--reference", type=int, default=5000, help="iterations of the plain search that judges")
    parser.add_argument("--deals", type=int, default=16, help="determinisations each leaf averages over a move")
    parser.add_argument("--net", default="default")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    with LoggedProgress() as progress:
        results = {p: measure(p, args.games, args.reference, args.deals, args.net, args.seed, progress)
                   for p in args.players}  # fmt: skip
    print(f"network {args.net}; reference: plain ismcts:iterations={args.reference}; {args.deals} deals a move")
    print(f"{'players':>7} {'leaf':<24} {'Brier':>6} {'corr':>6} {'agrees':>7} {'regret':>7}  (states, decisions)")
    for p, rows in results.items():
        for k, r in rows.items():
            print(
                f"{p:>7} {k:<24} {r['brier']:>6.3f} {r['corr']:>6.3f} {r['agrees']:>7.2f} {r['regret']:>7.3f}"
                f"  ({r['states']}, {r['decisions']})"
            )
    print("(Brier: 0.25 is a coin's; regret: the reference search's value given up by the leaf's move)")


if __name__ == "__main__":
    main()
