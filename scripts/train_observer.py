"""Train an observer network: another seat's move as the searching seat can guess it.

Plays ``--games`` games of ``--bot`` in ``--jobs`` processes, labels every
decision for each other seat with the teacher network's policy on the mover's
own view (``goldfields.learn.observer``), holds out every tenth game, and fits
a copy of the teacher on the rest (the same inputs and layers, so it starts
from the teacher's weights). Writes into ``--out``:

- ``examples.npz``: the games' examples (``--examples-from`` reads them again);
- ``observer.npz`` and ``observer.json``: the network, and how it was made,
  for ``ismcts:net=selfplay,others=OUT/observer.npz``;
- the held-out policy loss of the teacher read as it is on the observer's view
  (what a search without an observer network would be guided by at one
  remove) and of the fitted network.

Run (about 35 minutes on 2 cores; needs the ``learn`` extra for PyTorch)::

    python scripts/train_observer.py --games 300 --jobs 2 --seed 7 --out runs/observer
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import shlex
import sys
import time
from pathlib import Path

import numpy as np
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn

from goldfields.arena.runner import worker_init
from goldfields.bots.net import load_net
from goldfields.learn.observer import ObserverPlay
from goldfields.learn.selfplay import Examples
from goldfields.progress import LoggedProgress

HOLD_OUT = 10
"""Every tenth game is held out to measure the fit."""


def _play(args: tuple[ObserverPlay, int]) -> Examples:
    play, seed = args
    return play.game(seed)


def entropy(policy: np.ndarray) -> float:
    """The mean entropy of the policy targets (rows with one): no fit's cross-entropy goes below it."""
    rows = policy[policy.sum(axis=1) > 0]
    logs = np.log(rows, out=np.zeros_like(rows), where=rows > 0)
    return float(-(rows * logs).sum(axis=1).mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300, help="games to play (default 300)")
    parser.add_argument("--bot", default="ismcts:iterations=300", help="the bot at every seat")
    parser.add_argument("--teacher", default="selfplay", help="the network whose policy is the target")
    parser.add_argument("--jobs", type=int, default=max(1, os.cpu_count() or 1), help="processes")
    parser.add_argument("--seed", type=int, default=7, help="game g is seeded seed * 1_000_003 + g")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--value-weight", type=float, default=0.0,
                        help="weight of the value loss (default 0: a search reads only the policy of an observer "
                             "network, and the games' results, learnt with it, are learnt by heart)")
    parser.add_argument("--out", type=Path, required=True, help="folder for the examples and the network")
    parser.add_argument("--examples-from", type=Path, help="read the games' examples from this file instead")
    args = parser.parse_args()
    if args.games < HOLD_OUT:
        sys.exit(f"--games must be at least {HOLD_OUT}: every tenth game is held out")
    try:
        from goldfields.learn.trainer import Fit, TorchNet, losses, train
    except ImportError as err:
        sys.exit(str(err))
    args.out.mkdir(parents=True, exist_ok=True)
    play = ObserverPlay(bot=args.bot, teacher=args.teacher)
    seeds = [args.seed * 1_000_003 + g for g in range(args.games)]
    start = time.perf_counter()
    if args.examples_from is not None:
        parts = Examples.load(args.examples_from).split()
        if len(parts) != args.games:
            sys.exit(f"{args.examples_from} holds {len(parts)} games, not --games {args.games}")
    else:
        parts = []
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        ctx = multiprocessing.get_context("spawn")
        # Logged: a run of half an hour is mostly started under nohup, where Rich's live bar shows nothing.
        with LoggedProgress(*columns) as bar, ctx.Pool(args.jobs, initializer=worker_init,
                                                  initargs=(os.getpid(),)) as pool:  # fmt: skip
            task = bar.add_task("games", total=len(seeds))
            for part in pool.imap(_play, [(play, s) for s in seeds]):  # in order: same seed, same network
                parts.append(part)
                bar.advance(task)
        Examples.join(parts).save(args.out / "examples.npz")
    played = time.perf_counter() - start
    held = Examples.join(parts[HOLD_OUT - 1 :: HOLD_OUT])
    kept = Examples.join([p for i, p in enumerate(parts) if i % HOLD_OUT != HOLD_OUT - 1])
    teacher = load_net(args.teacher)
    model = TorchNet.from_numpy(teacher)
    before = losses(model, held)
    floor = entropy(held.policy)
    print(f"{len(kept):,} examples to fit, {len(held):,} held out, whose targets' entropy ({floor:.4f}) is the "
          f"least policy loss; the teacher's weights as they are: {before[0]:.4f}")
    fit = Fit(epochs=args.epochs, schedule="cosine", value_weight=args.value_weight)
    fitted = train(model, kept, fit, seed=args.seed,
                   on_epoch=lambda e, p, v: print(f"epoch {e + 1}: policy {p:.4f}, value {v:.4f}"))  # fmt: skip
    after = losses(model, held)
    print(f"held out: policy loss {before[0]:.4f} -> {after[0]:.4f}, value {before[1]:.4f} -> {after[1]:.4f}")
    meta = {
        "kind": "observer",
        "command": "python scripts/train_observer.py " + shlex.join(sys.argv[1:]),
        "seed": args.seed,
        "games": args.games,
        "bot": args.bot,
        "teacher": args.teacher,
        "teacher_made_by": teacher.meta.get("command"),
        "examples": len(kept),
        "held_out": len(held),
        "fit": {"epochs": fit.epochs, "batch": fit.batch, "lr": fit.lr, "schedule": fit.schedule,
                "value_weight": fit.value_weight},
        "policy_loss": {"fitted": fitted[0], "held_out_teacher": before[0], "held_out": after[0],
                        "held_out_entropy": floor},
        "value_loss": {"fitted": fitted[1], "held_out_teacher": before[1], "held_out": after[1]},
        "seconds_playing": round(played, 1),
    }
    model.to_numpy(meta).save(args.out / "observer.npz")
    print(json.dumps(meta, indent=2))


if __name__ == "__main__":
    main()
