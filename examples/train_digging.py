"""Train sb3-contrib's MaskablePPO on one hand of 2-player Digging, against the ``random`` and ``heuristic`` bots.

    pip install 'goldfields[research,train]'
    python examples/train_digging.py --minutes 10 --seed 0

The environment is ``goldfields/DiggingHand-v0``'s table (one hand of
2-player Digging, the agent's seat drawn at random each game) batched in
:class:`goldfields.research.vector_env.GoldfieldsVectorEnv` (``--envs`` games;
half play the ``random`` bot, half the ``heuristic`` bot) and handed to
``MaskablePPO`` through :class:`goldfields.research.sb3.SB3VecEnv`, which
gives it the legal-action masks. Reward: 1 for a win, 0.5 for a tie in
points, 0 for a loss, at the end of the hand.

Training stops after ``--minutes`` of training (the evaluations for the curve
are not counted). Every ``--curve-every`` seconds the greedy policy (masked
argmax) plays ``--curve-games`` games against each bot; at the end it plays
``--eval-games`` against each, and the script prints the score rates (a win 1,
a tie 0.5) with 95% Wilson intervals, saves the learning curve
(``--png``, by default ``learning_curve.png`` in the current directory) and
writes everything as JSON (``--json``). docs/research.md has the figures of
the command above; its plot, docs/img/learning_curve.png, was made by that
command with ``--png docs/img/learning_curve.png``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from goldfields.arena.stats import wilson
from goldfields.research.sb3 import SB3VecEnv
from goldfields.research.vector_env import GoldfieldsVectorEnv

TABLE = {"game": "digging", "players": 2, "single_hand": True, "seat": "random"}
OPPONENTS = ("random", "heuristic")


def evaluate(model: Any, opponent: str, games: int, seed: int, batch: int = 100) -> tuple[float, int]:
    """Score (a win 1, a tie 0.5) of the greedy policy over ``games`` games against ``opponent``.

    Each game of the batch plays a fixed share, so short games are not over-counted."""
    n = min(batch, games)
    envs = GoldfieldsVectorEnv(n, opponents=opponent, **TABLE)
    left = np.array([games // n + (i < games % n) for i in range(n)])
    obs, _ = envs.reset(seed=seed)
    score = 0.0
    while left.any():
        actions, _ = model.predict(obs, action_masks=envs.action_masks(), deterministic=True)
        obs, rewards, terminated, truncated, _ = envs.step(actions)
        done = (terminated | truncated) & (left > 0)
        score += float(rewards[done].sum())
        left[done] -= 1
    envs.close()
    return score, games


class Clock(BaseCallback):  # type: ignore[misc]
    """Stops training after ``seconds`` of it, and measures the greedy policy every ``every`` seconds."""

    def __init__(self, seconds: float, every: float, games: int, seed: int) -> None:
        super().__init__()
        self.seconds, self.every, self.games, self.seed = seconds, every, games, seed
        self.trained = 0.0  # seconds of training so far, evaluations excluded
        self.curve: list[dict[str, Any]] = []
        self._since = 0.0
        self._mark = 0.0

    def measure(self) -> None:
        point: dict[str, Any] = {"minutes": self.trained / 60, "steps": int(self.num_timesteps)}
        for opponent in OPPONENTS:
            score, games = evaluate(self.model, opponent, self.games, seed=10_000_000 + len(self.curve) * 1000)
            lo, hi = wilson(score, games)
            point[opponent] = {"rate": score / games, "low": lo, "high": hi}
        self.curve.append(point)
        print(
            f"{point['minutes']:5.1f} min {point['steps']:>9,} steps  "
            + "  ".join(f"{o} {point[o]['rate']:.3f}" for o in OPPONENTS),
            flush=True,
        )

    def _on_training_start(self) -> None:
        self.measure()
        self._mark = time.perf_counter()

    def _on_step(self) -> bool:
        now = time.perf_counter()
        self.trained += now - self._mark
        self._since += now - self._mark
        self._mark = now
        if self._since >= self.every:
            self._since = 0.0
            self.measure()
            self._mark = time.perf_counter()
        return self.trained < self.seconds


def plot(curve: list[dict[str, Any]], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4), constrained_layout=True)
    x = [p["minutes"] for p in curve]
    for opponent, colour in zip(OPPONENTS, ("tab:blue", "tab:red"), strict=True):
        rate = [p[opponent]["rate"] for p in curve]
        ax.plot(x, rate, marker="o", color=colour, label=f"against {opponent}")
        ax.fill_between(x, [p[opponent]["low"] for p in curve], [p[opponent]["high"] for p in curve],
                        color=colour, alpha=0.15)
    ax.set_xlabel("minutes of training")
    ax.set_ylabel("score rate of the greedy policy (win 1, tie 0.5)")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    ax.set_title(title, fontsize=9)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--minutes", type=float, default=10.0, help="training time (evaluations excluded)")
    ap.add_argument("--steps", type=int, default=0, help="also stop after this many agent steps (0: no limit)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--envs", type=int, default=32, help="games in the batch (half against each bot)")
    ap.add_argument("--threads", type=int, default=1, help="torch threads")
    ap.add_argument("--n-steps", type=int, default=128, help="steps per game between updates")
    ap.add_argument("--batch-size", type=int, default=512)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--ent-coef", type=float, default=0.01)
    ap.add_argument("--gamma", type=float, default=0.995)
    ap.add_argument("--hidden", type=int, nargs="+", default=[256, 256], help="hidden layer sizes")
    ap.add_argument("--curve-every", type=float, default=60.0, help="seconds of training between curve points")
    ap.add_argument("--curve-games", type=int, default=200, help="games per bot at each curve point")
    ap.add_argument("--eval-games", type=int, default=1000, help="games per bot of the final evaluation")
    # In the current directory: a run must not overwrite the plot that docs/research.md shows.
    ap.add_argument("--png", default="learning_curve.png", help="save the learning curve here")
    ap.add_argument("--json", default=None, help="write the curve and the results here")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)

    torch.set_num_threads(args.threads)
    per_env = [{"opponents": OPPONENTS[i % 2]} for i in range(args.envs)]
    venv = SB3VecEnv(GoldfieldsVectorEnv(args.envs, per_env=per_env, **TABLE))
    venv.seed(args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.epochs,
        learning_rate=args.lr,
        ent_coef=args.ent_coef,
        gamma=args.gamma,
        policy_kwargs={"net_arch": list(args.hidden)},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    clock = Clock(args.minutes * 60, args.curve_every, args.curve_games, args.seed)
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps or 10**12, callback=clock)
    wall = time.perf_counter() - start
    clock.measure()  # the curve's last point, at the end of training

    results: dict[str, Any] = {
        "command": "python examples/train_digging.py " + " ".join(sys.argv[1:] if argv is None else argv),
        "seed": args.seed,
        "training_minutes": clock.trained / 60,
        "wall_minutes": wall / 60,
        "agent_steps": int(model.num_timesteps),
        "steps_per_second": model.num_timesteps / clock.trained,
        "torch_threads": args.threads,
        "curve": clock.curve,
        "final": {},
    }
    for opponent in OPPONENTS:
        score, games = evaluate(model, opponent, args.eval_games, seed=20_000_000)
        lo, hi = wilson(score, games)
        results["final"][opponent] = {"games": games, "rate": score / games, "low": lo, "high": hi}
        print(f"final against {opponent}: {score / games:.3f} (95% {lo:.3f}-{hi:.3f}) over {games} games", flush=True)
    print(
        f"{results['agent_steps']:,} agent steps in {results['training_minutes']:.1f} min of training "
        f"({results['steps_per_second']:,.0f} steps/s)"
    )
    plot(
        clock.curve,
        Path(args.png),
        f"MaskablePPO on one hand of 2-player Digging (seed {args.seed}, {args.envs} games in a batch, "
        f"{results['agent_steps']:,} steps)",
    )
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    return results


if __name__ == "__main__":
    main()
