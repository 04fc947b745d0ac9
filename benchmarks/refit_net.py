"""Fit a training run's round 1 again with other epoch counts, and measure each network against the heuristic.

Run:  python benchmarks/refit_net.py RUN [--epochs 4 12 24] [--seeds 31 41 43] [--seeds-2p 32 42]
                                         [--games 200] [--out refit-results]

RUN is the ``--out`` folder of a finished ``goldfields train --warmup N --rounds 1``
run: its ``warmup.npz`` network, ``examples-warmup.npz`` and ``examples-01.npz``
(and ``dagger-01.npz``, ``dagger-01-2.npz`` ... for a run with ``--dagger``).
Each fit starts from the warm-up network and fits round 1's decisions as the
command does (the same held-out games, the warm-up games' values beside them,
the same seed), with ``--epochs`` passes instead of the default 4; with 4 it
makes the run's own ``round-01.npz`` again on the machine that made it. Each
network then plays the ``net`` bot against ``heuristic`` on duplicate deals,
partnership on every seed of ``--seeds`` and 2 players on every seed of
``--seeds-2p``: several sets of deals, since one set of 100 deals moves a win
rate by more than its Wilson interval says of the network (docs/network.md).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from goldfields.arena import GameSpec, Tournament, run_tournament
from goldfields.arena.stats import wilson
from goldfields.bots.net import GAME, load_net
from goldfields.learn.loop import Plan, split_held_out, with_warmup_values
from goldfields.learn.selfplay import Examples
from goldfields.learn.trainer import Fit, TorchNet, losses, train


def refit(run: Path, epochs: int, out: Path) -> tuple[Path, float, float]:
    """Round 1 of ``run`` fitted with ``epochs`` passes; the network's path and its held-out losses."""
    made = json.loads((run / "train.json").read_text())["plan"]
    plan = Plan(seed=made["seed"], holdout=made["holdout"], tables=tuple(tuple(t) for t in made["tables"]))
    warm = Examples.load(run / "examples-warmup.npz")
    fitted, held = split_held_out(Examples.load(run / "examples-01.npz").split(), len(plan.tables), plan.holdout)
    if made.get("dagger"):  # a --dagger run fits its round on every pass's DAgger games too, after the self-play
        fitted.append(Examples.load(run / "dagger-01.npz"))
        fitted += [Examples.load(run / f"dagger-01-{k}.npz") for k in range(2, made.get("dagger_passes", 1) + 1)]
    data = with_warmup_values(Examples.join(fitted), warm, seed=plan.seed + 1)  # as goldfields train's round 1
    model = TorchNet.from_numpy(load_net(str(run / "warmup.npz")))
    # The run's own fit (its learning-rate schedule, batch...) with other epochs; the first seed's
    # fit, which with --fits K is fit 1 of the K.
    train(model, data, Fit(**{**made.get("fit", {}), "epochs": epochs}), seed=plan.seed + 1)
    path = out / f"epochs-{epochs}.npz"
    model.to_numpy({"refit_of": str(run), "epochs": epochs}).save(path)
    p_loss, v_loss = losses(model, Examples.join(held))
    return path, p_loss, v_loss


def wins(net: Path, players: int, seed: int, games: int, out: Path) -> tuple[int, int]:
    spec = GameSpec.make(GAME, players, players == 4)
    t = Tournament(spec, (f"net:net={net}", "heuristic"), games=games, seed=seed, out=out, records=False)
    result = run_tournament(t, progress=False, replace=True).summary[0]  # a rerun measures again
    return int(result.wins), result.games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path)
    ap.add_argument("--epochs", type=int, nargs="+", default=[4, 12, 24])
    ap.add_argument("--seeds", type=int, nargs="*", default=[31, 41, 43], help="partnership deal sets")
    ap.add_argument("--seeds-2p", type=int, nargs="*", default=[32, 42], help="2-player deal sets")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--out", type=Path, default=Path("refit-results"))
    args = ap.parse_args()
    for need in ("train.json", "warmup.npz", "examples-warmup.npz", "examples-01.npz"):
        if not (args.run / need).is_file():
            ap.error(f"{args.run} has no {need}: give the --out folder of a finished "
                     "'goldfields train --warmup N --rounds 1' run")  # fmt: skip
    args.out.mkdir(parents=True, exist_ok=True)
    tables = [(4, s) for s in args.seeds] + [(2, s) for s in args.seeds_2p]
    print("epochs | held-out policy / value loss | " + " | ".join(f"{p}p seed {s}" for p, s in tables)
          + " | partnership, all | 2 players, all", flush=True)  # fmt: skip
    for epochs in args.epochs:
        t0 = time.perf_counter()
        net, p_loss, v_loss = refit(args.run, epochs, args.out)
        cells, total = [], {4: [0, 0], 2: [0, 0]}
        for players, seed in tables:
            won, games = wins(net, players, seed, args.games, args.out / f"epochs-{epochs}-{players}p-{seed}")
            cells.append(str(won))
            total[players][0] += won
            total[players][1] += games
        pooled = []
        for players in (4, 2):
            won, games = total[players]
            low, high = wilson(won, games) if games else (0.0, 0.0)
            pooled.append(f"{won}/{games} ({100 * low:.1f}-{100 * high:.1f}%)" if games else "-")
        print(f"{epochs} | {p_loss:.3f} / {v_loss:.3f} | " + " | ".join(cells) + " | " + " | ".join(pooled)
              + f"   ({time.perf_counter() - t0:.0f} s)", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
