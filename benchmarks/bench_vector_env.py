"""Agent steps per second of the vector environment at N = 1, 16 and 256 games, beside Gymnasium's SyncVectorEnv.

    python benchmarks/bench_vector_env.py [--seconds 5] [--rounds 3] [--sizes 1 16 256]

For each N, in one process and one after the other:

* ``GoldfieldsVectorEnv(N, "digging", players=2, single_hand=True)``: one hand
  of 2-player Digging (``goldfields/DiggingHand-v0``'s table), the other seat
  played by the ``random`` bot;
* ``gym.make_vec("goldfields/DiggingHand-v0", num_envs=N, vectorization_mode="sync")``:
  Gymnasium's ``SyncVectorEnv`` over N of today's single environments (the
  state encoder, and ``gym.make``'s wrappers: ``TimeLimit``, ``OrderEnforcing``,
  ``PassiveEnvChecker``), what a user gets without the batch;
* the old reference: ``gymnasium.vector.SyncVectorEnv`` over N single
  environments of the same table in Gymnasium's ``TimeLimit``, encoding
  through ``state.observation()`` as the single environment did before the
  state encoder.

Actions are uniformly random legal ones, drawn for the whole batch at once
from the masks. A step of a batch is N agent steps (each includes the bot's
replies). Figures are medians over the rounds, the three rows of a round run
one after the other; the ratios are GoldfieldsVectorEnv's rate over each
reference's, at the same N.
"""

from __future__ import annotations

import argparse
import os
import platform
import shlex
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np

import goldfields.research.gymnasium_env as gymnasium_env
from goldfields.research.vector_env import GoldfieldsVectorEnv


def random_legal(masks: Any, rng: Any) -> Any:
    """One uniformly random legal action per row (0 for a row with none: a finished game)."""
    scores = rng.random(masks.shape)
    scores[~masks.astype(bool)] = -1.0
    return scores.argmax(axis=1)


def agent_steps_per_second(make: Callable[[], Any], seconds: float, seed: int) -> float:
    envs = make()
    rng = np.random.default_rng(seed)
    _, infos = envs.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, _, _, infos = envs.step(random_legal(infos["action_mask"], rng))
        steps += envs.num_envs
    rate = steps / (time.perf_counter() - start)
    envs.close()
    return rate


class _ObservationPathEnv(gymnasium_env.GoldfieldsEnv):
    """The single environment as it encoded before ``encode_state``: through ``state.observation()``."""

    def _obs(self) -> Any:
        return self.encoding.encode(self.match.state.observation(self.seat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per round and row")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 16, 256])
    args = parser.parse_args()
    print(f"$ python benchmarks/bench_vector_env.py {shlex.join(sys.argv[1:])}".rstrip())
    print(
        f"python {platform.python_version()}, {platform.machine()}, gymnasium {gym.__version__}, "
        f"load average at start {os.getloadavg()[0]:.1f}"
    )
    table = {"players": 2, "single_hand": True}

    def reference(n: int) -> Any:
        return gym.vector.SyncVectorEnv(
            [lambda: gym.wrappers.TimeLimit(_ObservationPathEnv("digging", **table), 86) for _ in range(n)]
        )

    def make_vec(n: int) -> Any:
        return gym.make_vec("goldfields/DiggingHand-v0", num_envs=n, vectorization_mode="sync")

    print(
        "\n| N | SyncVectorEnv, via observation() | gym.make_vec(sync) | GoldfieldsVectorEnv "
        "| ratio to via observation() | ratio to make_vec |"
    )
    print("|---:|---:|---:|---:|---:|---:|")
    for n in args.sizes:
        old, vec, fast = [], [], []
        for r in range(args.rounds):
            old.append(agent_steps_per_second(lambda n=n: reference(n), args.seconds, 1000 * r))
            vec.append(agent_steps_per_second(lambda n=n: make_vec(n), args.seconds, 1000 * r))
            fast.append(
                agent_steps_per_second(lambda n=n: GoldfieldsVectorEnv(n, "digging", **table), args.seconds, 1000 * r)
            )
        a, v, b = statistics.median(old), statistics.median(vec), statistics.median(fast)
        print(f"| {n} | {a:,.0f} | {v:,.0f} | {b:,.0f} | {b / a:.2f} | {b / v:.2f} |", flush=True)
    print(f"\nload average at end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
