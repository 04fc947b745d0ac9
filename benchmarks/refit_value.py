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
pair of games (one of each table) is held out, and the script prints the
value's mean squared error on it (over the seats each game has) and the policy's
loss, before and after. Needs the ``learn`` extra (PyTorch).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import torch

from goldfields.bots.digging_search import evaluate
from goldfields.bots.net import GAME, NetEvaluator, evaluator, load_net, relative_action
from goldfields.bots.registry import make_bot
from goldfields.digging import new_game
from goldfields.digging.state import DiggingState
from goldfields.learn.loop import split_held_out
from goldfields.learn.selfplay import Decision, Examples
from goldfields.learn.trainer import Fit, TorchNet, losses, train
from goldfields.progress import LoggedProgress
from goldfields.research.encoding import encoding_for

TARGETS = ("hand", "now")


def labelled_game(seed: int, target: str, ev: NetEvaluator) -> Examples:
    """One game's decisions with a choice: the mover's encoded view, its legal moves, the network's
    own prior as the policy target, and ``target``'s projection per seat as the value."""
    players = players_of(seed)
    rng = random.Random(seed)
    state: DiggingState = new_game(players, players == 4, rng=rng)
    bot = make_bot("ismcts:iterations=100", GAME)
    encoding = encoding_for(GAME)
    done: list[Decision] = []
    open_hand: list[Decision] = []

    def end_of_hand() -> None:
        # At a chance node the hand is already in the totals; at the end, the result itself.
        values = state.returns() if state.is_terminal() else evaluate(state)
        done.extend(row if target == "now" else (*row[:4], values) for row in open_hand)
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
            open_hand.append((encoding.encode(view.data).copy(), rel, prior.tolist(), seat, evaluate(state)))
        state.apply_action(bot.act(view, rng))
    end_of_hand()
    return Examples.of_game(encoding.size, players, done)


def players_of(seed: int) -> int:
    """Even seeds 2 players, odd ones the partnership: two consecutive games hold both tables."""
    return 4 if seed % 2 else 2


def value_error(model: TorchNet, games: list[Examples], seeds: list[int]) -> float:
    """Mean squared error of the value over the seats each game has (a 2-player game's other two
    columns are padding, which would halve the figure)."""
    total = count = 0.0
    for game, seed in zip(games, seeds, strict=True):
        players = players_of(seed)
        with torch.no_grad():
            _, v = model(torch.from_numpy(game.x))
        err = (torch.sigmoid(v).numpy()[:, :players] - game.value[:, :players]) ** 2
        total += float(err.sum())
        count += err.size
    return total / count


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
    if args.games < 20:
        parser.error("--games must be at least 20 (every tenth pair of games is held out)")
    ev = evaluator(args.net)
    games = []
    with LoggedProgress() as progress:
        task = progress.add_task(f"games labelled '{args.target}'", total=args.games)
        for g in range(args.games):
            games.append(labelled_game(args.seed + g, args.target, ev))
            progress.advance(task)
    pairs = list(zip(range(args.seed, args.seed + args.games), games, strict=True))
    fitted_pairs, held_pairs = split_held_out(pairs, tables=2, holdout=10)  # whole pairs: both tables held out
    fitted = [g for _, g in fitted_pairs]
    held, held_seeds = [g for _, g in held_pairs], [s for s, _ in held_pairs]
    model = TorchNet.from_numpy(load_net(args.net))
    before = value_error(model, held, held_seeds), losses(model, Examples.join(held))[0]
    # The value's loss weighs four times the policy's: the policy only has to stay where it is.
    fit = Fit(epochs=args.epochs, lr=args.lr, schedule="cosine", value_weight=4.0)
    data = Examples.join(fitted)
    with LoggedProgress() as progress:
        task = progress.add_task("fitting", total=args.epochs)
        train(model, data, fit, seed=args.seed, on_epoch=lambda *_: progress.advance(task))
    after = value_error(model, held, held_seeds), losses(model, Examples.join(held))[0]
    meta = {"value_target": args.target, "from": args.net, "games": args.games, "seed": args.seed,
            "command": "python benchmarks/refit_value.py " + " ".join(sys.argv[1:])}  # fmt: skip
    model.to_numpy(meta).save(args.out)
    print(f"{len(data)} decisions fitted, {sum(len(h) for h in held)} held out ({len(held)} games, both tables)")
    print(f"held-out value error (mean squared, against the '{args.target}' target): {before[0]:.4f} -> {after[0]:.4f}")
    print(f"held-out policy loss (against the starting network's prior): {before[1]:.4f} -> {after[1]:.4f}")
    print(f"wrote {args.out}; judge it with: python benchmarks/bench_value.py --net {args.out}")


if __name__ == "__main__":
    main()
