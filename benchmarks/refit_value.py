"""Teach a network's value head a target nearer the move than the game's result, for
``benchmarks/bench_value.py`` to judge as a leaf of the search.

Run:  python benchmarks/refit_value.py OUT.npz [--target hand|now] [--games 200] [--net default]
                                       [--epochs 6] [--lr 5e-4] [--seed 0]
then: python benchmarks/bench_value.py --net OUT.npz

The shipped value head learnt each seat's game result, one noisy bit for a
game of hundreds of moves. Here the games are played by
``ismcts:iterations=100`` on every seat (even game numbers 2 players, odd ones
the partnership), and each decision with a choice is labelled, for every seat,
with the search's projection (``digging_search.evaluate``, read on the true
state) either

- ``hand``: at the end of the current hand (the game's result in its last hand),
  a target that a whole hand of moves separates from the decision; or
- ``now``: at the decision itself, which asks the network to reproduce the
  projection.

The network starts from ``--net`` and keeps its policy by fitting its own prior
on the same decisions, so only the value head's lesson changes. Every tenth
game is held out, and the script prints the value's mean squared error on it
before and after. Needs the ``learn`` extra (PyTorch).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import numpy as np
import torch
from rich.progress import Progress

from goldfields.bots.digging_search import evaluate
from goldfields.bots.net import GAME, SEATS, NetEvaluator, evaluator, load_net, relative_action
from goldfields.bots.registry import make_bot
from goldfields.digging import new_game
from goldfields.digging.actions import NUM_ACTIONS
from goldfields.digging.state import DiggingState
from goldfields.learn.selfplay import Examples
from goldfields.learn.trainer import Fit, TorchNet, train
from goldfields.research.encoding import encoding_for

TARGETS = ("hand", "now")


def labelled_game(seed: int, target: str, ev: NetEvaluator) -> Examples:
    """One game's decisions with a choice: the mover's encoded view, its legal moves, the network's
    own prior as the policy target, and ``target``'s projection per relative seat as the value."""
    players = 4 if seed % 2 else 2
    rng = random.Random(seed)
    state: DiggingState = new_game(players, players == 4, rng=rng)
    bot = make_bot("ismcts:iterations=100", GAME)
    encoding = encoding_for(GAME)
    done: list[tuple[np.ndarray, list[int], np.ndarray, int, list[float]]] = []
    open_hand: list[tuple[np.ndarray, list[int], np.ndarray, int, list[float]]] = []

    def end_of_hand() -> None:
        # At a chance node the hand is already in the totals; at the end, the result itself.
        values = state.returns() if state.is_terminal() else evaluate(state)
        done.extend((x, rel, prior, seat, now if target == "now" else values) for x, rel, prior, seat, now in open_hand)
        open_hand.clear()

    while not state.is_terminal():
        if state.is_chance_node():
            end_of_hand()
            state.apply_chance(state.sample_chance(rng))
            continue
        seat = state.current_player
        view = state.view(seat)
        legal = view.legal_actions()
        if len(legal) > 1:
            prior, _ = ev.evaluate(view.data, seat, legal)
            rel = [relative_action(a, seat, players) for a in legal]
            open_hand.append((encoding.encode(view.data).copy(), rel, prior, seat, evaluate(state.clone())))
        state.apply_action(bot.act(view, rng))
    end_of_hand()
    n = len(done)
    x = np.zeros((n, encoding.size), dtype=np.float32)
    mask = np.zeros((n, NUM_ACTIONS), dtype=np.float32)
    policy = np.zeros((n, NUM_ACTIONS), dtype=np.float32)
    value = np.zeros((n, SEATS), dtype=np.float32)
    for i, (vec, rel, prior, mover, values) in enumerate(done):
        x[i] = vec
        mask[i, rel] = 1.0
        policy[i, rel] = prior
        for s in range(players):
            value[i, (s - mover) % players] = values[s]
    return Examples(x, mask, policy, value, (n,))


def value_error(model: TorchNet, data: Examples) -> float:
    with torch.no_grad():
        _, v = model(torch.from_numpy(data.x))
    return float(((torch.sigmoid(v).numpy() - data.value) ** 2).mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="where to write the network (.npz, with a .json beside it)")
    parser.add_argument("--target", choices=TARGETS, default="hand")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--net", default="default", help="the network to start from")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--lr", type=float, default=5e-4)
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed, and the fit's")
    args = parser.parse_args()
    if args.out.suffix != ".npz":
        parser.error(f"OUT must end in .npz, not {args.out.name!r}")
    if args.games < 10:
        parser.error("--games must be at least 10 (every tenth game is held out)")
    ev = evaluator(args.net)
    games = []
    with Progress() as progress:
        task = progress.add_task(f"games labelled '{args.target}'", total=args.games)
        for g in range(args.games):
            games.append(labelled_game(args.seed + g, args.target, ev))
            progress.advance(task)
    held = Examples.join(games[::10])
    fitted = Examples.join([e for i, e in enumerate(games) if i % 10])
    model = TorchNet.from_numpy(load_net(args.net))
    before = value_error(model, held)
    fit = Fit(epochs=args.epochs, lr=args.lr, schedule="cosine", value_weight=4.0)
    with Progress() as progress:
        task = progress.add_task("fitting", total=args.epochs)
        train(model, fitted, fit, seed=args.seed, on_epoch=lambda *_: progress.advance(task))
    after = value_error(model, held)
    meta = {"value_target": args.target, "from": args.net, "games": args.games, "seed": args.seed,
            "command": "python benchmarks/refit_value.py " + " ".join(
                [str(args.out), "--target", args.target, "--games", str(args.games), "--net", args.net,
                 "--epochs", str(args.epochs), "--lr", str(args.lr), "--seed", str(args.seed)])}  # fmt: skip
    model.to_numpy(meta).save(args.out)
    print(f"{len(fitted.x)} decisions fitted, {len(held.x)} held out ({held.games} games)")
    print(f"held-out value error (mean squared, against the '{args.target}' target): {before:.4f} -> {after:.4f}")
    print(f"wrote {args.out}; judge it with: python benchmarks/bench_value.py --net {args.out}")


if __name__ == "__main__":
    main()
