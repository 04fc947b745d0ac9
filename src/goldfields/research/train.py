"""A small masked PPO agent in plain numpy, trained on the Gymnasium environment.

Why numpy and not torch + sb3-contrib: the network is tiny (two hidden layers
of 128), a CPU run lasts minutes, and the time goes into the game engine and
the observation encoding, not into the network. numpy keeps the example to one
small dependency that CI and a researcher's laptop already have, with no
multi-gigabyte wheel. The environment is the standard one, so sb3-contrib's
``MaskablePPO`` plugs into it as well (``env.action_masks()``).

Run (the figure and the numbers in docs/research.md come from this command)::

    python examples/train_digging.py --minutes 4 --seed 0

It trains seat-agnostic play of one hand of 2-player Digging
(``goldfields/DiggingHand-v0``, the agent's seat drawn at random each game)
against the ``random`` bot, evaluates the greedy policy against ``random``
over ``--eval-games`` games with a 95% Wilson interval, and saves the learning
curve to ``docs/img/learning_curve.png``.

The algorithm: PPO with clipped ratios, a shared tanh trunk with a policy head
and a value head, illegal actions masked out of the softmax (they get no
probability and no gradient), terminal reward 1 for a win and 0 for a loss,
no discount (a hand is short), GAE(0.9) advantages normalised per batch;
Adam. A potential-based shaping term (0.5 x the change of the agent's points
margin / 20 between its decisions, which sums to 0.5 x the final margin / 20
and so leaves the best policy unchanged) gives credit before the hand ends.
Evaluation uses the game's reward only.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..arena.stats import wilson
from ._deps import require

np = require("numpy", "goldfields.research.train")

NEG = -1e9


class MaskedPolicy:
    """obs -> tanh(W1) -> tanh(W2) -> (policy logits, value)."""

    def __init__(self, obs_size: int, num_actions: int, hidden: int = 128, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)

        def init(fan_in: int, fan_out: int, scale: float = 1.0) -> Any:
            return (rng.standard_normal((fan_in, fan_out)) * scale / math.sqrt(fan_in)).astype(np.float32)

        self.params = {
            "W1": init(obs_size, hidden),
            "b1": np.zeros(hidden, np.float32),
            "W2": init(hidden, hidden),
            "b2": np.zeros(hidden, np.float32),
            "Wp": init(hidden, num_actions, 0.01),
            "bp": np.zeros(num_actions, np.float32),
            "Wv": init(hidden, 1, 0.1),
            "bv": np.zeros(1, np.float32),
        }

    def forward(self, obs: Any, mask: Any) -> tuple[Any, Any, dict[str, Any]]:
        p = self.params
        h1 = np.tanh(obs @ p["W1"] + p["b1"])
        h2 = np.tanh(h1 @ p["W2"] + p["b2"])
        logits = h2 @ p["Wp"] + p["bp"]
        logits = np.where(mask, logits, NEG)
        logits = logits - logits.max(axis=-1, keepdims=True)
        e = np.exp(logits) * mask
        probs = e / e.sum(axis=-1, keepdims=True)
        value = (h2 @ p["Wv"] + p["bv"])[..., 0]
        return probs, value, {"obs": obs, "h1": h1, "h2": h2}

    def act(self, obs: Any, mask: Any, rng: Any, greedy: bool = False) -> tuple[int, float, float]:
        probs, value, _ = self.forward(obs[None, :], mask[None, :])
        probs = probs[0]
        a = int(np.argmax(probs)) if greedy else int(rng.choice(len(probs), p=probs))
        return a, float(np.log(probs[a] + 1e-12)), float(value[0])

    def gradients(
        self, batch: dict[str, Any], clip: float, ent_coef: float, vf_coef: float
    ) -> tuple[dict[str, Any], dict[str, float]]:
        obs, mask, act = batch["obs"], batch["mask"], batch["act"]
        probs, value, cache = self.forward(obs, mask)
        n = len(act)
        idx = np.arange(n)
        logp = np.log(probs[idx, act] + 1e-12)
        ratio = np.exp(logp - batch["logp"])
        adv = batch["adv"]
        unclipped = ratio * adv
        clipped = np.clip(ratio, 1 - clip, 1 + clip) * adv
        active = (unclipped <= clipped).astype(np.float32)  # the min picks the unclipped term
        # d(-min)/dlogp = -adv * ratio where the unclipped term is the min, else 0.
        dlogp = -adv * ratio * active / n
        onehot = np.zeros_like(probs)
        onehot[idx, act] = 1.0
        dlogits = dlogp[:, None] * (onehot - probs)
        logps = np.log(probs + 1e-12) * mask
        entropy = -(probs * logps).sum(axis=1)
        # d(-ent_coef * H)/dlogits_j = ent_coef * p_j (log p_j + H)
        dlogits += ent_coef * probs * (logps + entropy[:, None]) / n
        dlogits *= mask
        dvalue = vf_coef * (value - batch["ret"]) / n
        p = self.params
        h2, h1 = cache["h2"], cache["h1"]
        grads = {
            "Wp": h2.T @ dlogits,
            "bp": dlogits.sum(0),
            "Wv": h2.T @ dvalue[:, None],
            "bv": np.array([dvalue.sum()], np.float32),
        }
        dh2 = dlogits @ p["Wp"].T + dvalue[:, None] @ p["Wv"].T
        dz2 = dh2 * (1 - h2 * h2)
        grads["W2"] = h1.T @ dz2
        grads["b2"] = dz2.sum(0)
        dh1 = dz2 @ p["W2"].T
        dz1 = dh1 * (1 - h1 * h1)
        grads["W1"] = cache["obs"].T @ dz1
        grads["b1"] = dz1.sum(0)
        stats = {
            "policy_loss": float(-np.minimum(unclipped, clipped).mean()),
            "value_loss": float(0.5 * ((value - batch["ret"]) ** 2).mean()),
            "entropy": float(entropy.mean()),
            "clip_frac": float(1 - active.mean()),
        }
        return grads, stats

    def save(self, path: Path) -> None:
        np.savez(path, **self.params)


class Adam:
    def __init__(self, params: dict[str, Any], lr: float) -> None:
        self.lr = lr
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0

    def step(self, params: dict[str, Any], grads: dict[str, Any], max_norm: float = 0.5) -> None:
        norm = math.sqrt(sum(float((g * g).sum()) for g in grads.values()))
        scale = min(1.0, max_norm / (norm + 1e-8))
        self.t += 1
        b1, b2 = 0.9, 0.999
        for k, g in grads.items():
            g = g * scale
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            mhat = self.m[k] / (1 - b1**self.t)
            vhat = self.v[k] / (1 - b2**self.t)
            params[k] -= (self.lr * mhat / (np.sqrt(vhat) + 1e-8)).astype(np.float32)


@dataclass
class TrainConfig:
    env_id: str = "goldfields/DiggingHand-v0"
    env_kwargs: dict[str, Any] = field(default_factory=lambda: {"seat": "random", "opponents": "random"})
    minutes: float = 4.0
    seed: int = 0
    episodes_per_batch: int = 32
    epochs: int = 4
    minibatch: int = 256
    lr: float = 1e-3
    clip: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    hidden: int = 128
    gae_lambda: float = 0.9
    shaping: float = 0.5  # potential-based: x the change of the points margin / 20
    eval_every: int = 10  # batches
    eval_games: int = 100  # during training, for the curve
    final_eval_games: int = 400
    opponent: str = "random"


def margin(env: Any) -> float:
    """The agent's side's points minus the best other side's: the points are the
    table's public standing (``spec.standing``: Digging's closed-mine points this
    hand, Digger's scores), the sides its definition's (partners count together)."""
    table = env.table
    points = table.standing(env.match.state)
    totals = [sum(points[s] for s in side) for side in table.sides]
    mine = next(i for i, side in enumerate(table.sides) if env.seat in side)
    return float(totals[mine] - max(t for i, t in enumerate(totals) if i != mine))


def play_episode(
    env: Any, policy: MaskedPolicy, rng: Any, seed: int, greedy: bool = False, shaping: float = 0.0
) -> tuple[list[Any], float]:
    """One game; each step is (obs, mask, action, log-prob, value, shaped reward).

    The shaped reward is potential-based, ``shaping x`` the change of the
    points margin (scaled by 1/20) since the agent's previous decision, so it
    adds up to ``shaping x final margin / 20`` and leaves the best policy as it
    is; the game's reward (1 for a win) is added at the last step."""
    obs, info = env.reset(seed=seed)
    steps = []
    done = False
    reward = 0.0
    phi = margin(env) / 20.0 if shaping else 0.0
    while not done:
        mask = info["action_mask"].astype(bool)
        a, logp, v = policy.act(obs, mask, rng, greedy)
        before = obs
        obs, reward, terminated, truncated, info = env.step(a)
        done = terminated or truncated
        r = float(reward) if done else 0.0
        if shaping:
            new_phi = margin(env) / 20.0
            r += shaping * (new_phi - phi)
            phi = new_phi
        steps.append((before, mask, a, logp, v, r))
    return steps, float(reward)


def evaluate(env: Any, policy: MaskedPolicy, games: int, seed: int) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    total = 0.0
    for g in range(games):
        _, r = play_episode(env, policy, rng, seed=seed + g, greedy=True)
        total += r
    lo, hi = wilson(total, games)
    return {"games": games, "score": total / games, "wilson95": [lo, hi]}


def train(cfg: TrainConfig, out_png: Path | None = None, log: Any = print) -> dict[str, Any]:
    import gymnasium as gym

    from . import gymnasium_env  # noqa: F401  (registers the ids)

    random.seed(cfg.seed)
    env = gym.make(cfg.env_id, **cfg.env_kwargs).unwrapped
    eval_env = gym.make(cfg.env_id, **{**cfg.env_kwargs, "opponents": cfg.opponent}).unwrapped
    obs_size = int(np.prod(env.observation_space.shape))
    actions = int(env.action_space.n)  # type: ignore[attr-defined]  # GoldfieldsEnv's is a Discrete space
    policy = MaskedPolicy(obs_size, actions, cfg.hidden, cfg.seed)
    opt = Adam(policy.params, cfg.lr)
    rng = np.random.default_rng(cfg.seed)
    start = time.perf_counter()
    deadline = start + 60 * cfg.minutes
    curve: list[dict[str, Any]] = []
    episodes = 0
    steps_total = 0
    batch_no = 0
    baseline = evaluate(eval_env, policy, cfg.eval_games, seed=10_000_000)
    curve.append({"episodes": 0, "seconds": 0.0, **baseline})
    log(f"episodes 0: greedy score vs {cfg.opponent} {baseline['score']:.3f}")
    while time.perf_counter() < deadline:
        obs_l, mask_l, act_l, logp_l, ret_l, adv_l = [], [], [], [], [], []
        wins = 0.0
        for _ in range(cfg.episodes_per_batch):
            steps, reward = play_episode(env, policy, rng, cfg.seed * 1_000_003 + episodes, shaping=cfg.shaping)
            episodes += 1
            wins += reward
            # GAE(lambda) with no discount: the value after the last step is 0.
            gae = 0.0
            next_v = 0.0
            advs = [0.0] * len(steps)
            for i in range(len(steps) - 1, -1, -1):
                _, _, _, _, v, r = steps[i]
                gae = r + next_v - v + cfg.gae_lambda * gae
                advs[i] = gae
                next_v = v
            for (o, m, a, lp, v, _), adv_i in zip(steps, advs, strict=True):
                obs_l.append(o)
                mask_l.append(m)
                act_l.append(a)
                logp_l.append(lp)
                adv_l.append(adv_i)
                ret_l.append(adv_i + v)
        batch = {
            "obs": np.asarray(obs_l, np.float32),
            "mask": np.asarray(mask_l, bool),
            "act": np.asarray(act_l),
            "logp": np.asarray(logp_l, np.float32),
            "ret": np.asarray(ret_l, np.float32),
        }
        adv = np.asarray(adv_l, np.float32)
        batch["adv"] = (adv - adv.mean()) / (adv.std() + 1e-8)
        n = len(act_l)
        steps_total += n
        stats: dict[str, float] = {}
        for _ in range(cfg.epochs):
            order = rng.permutation(n)
            for lo in range(0, n, cfg.minibatch):
                sel = order[lo : lo + cfg.minibatch]
                mb = {k: v[sel] for k, v in batch.items()}
                grads, stats = policy.gradients(mb, cfg.clip, cfg.ent_coef, cfg.vf_coef)
                opt.step(policy.params, grads)
        batch_no += 1
        if batch_no % cfg.eval_every == 0:
            ev = evaluate(eval_env, policy, cfg.eval_games, seed=10_000_000 + batch_no)
            point = {
                "episodes": episodes,
                "seconds": round(time.perf_counter() - start, 1),
                "train_score": wins / cfg.episodes_per_batch,
                **ev,
                **{k: round(v, 4) for k, v in stats.items()},
            }
            curve.append(point)
            log(
                f"episodes {episodes} ({point['seconds']:.0f}s): greedy score vs {cfg.opponent} {ev['score']:.3f} "
                f"entropy {stats['entropy']:.3f}"
            )
    train_seconds = time.perf_counter() - start
    final = evaluate(eval_env, policy, cfg.final_eval_games, seed=20_000_000)
    untrained = MaskedPolicy(obs_size, actions, cfg.hidden, cfg.seed)
    final_untrained = evaluate(eval_env, untrained, cfg.final_eval_games, seed=20_000_000)
    result = {
        "config": asdict(cfg),
        "episodes": episodes,
        "agent_steps": steps_total,
        "train_seconds": round(train_seconds, 1),
        "final": final,
        "untrained_final": final_untrained,
        "curve": curve,
    }
    log(
        f"final: greedy score vs {cfg.opponent} over {final['games']} games {final['score']:.3f} "
        f"(95% Wilson {final['wilson95'][0]:.3f}-{final['wilson95'][1]:.3f}); "
        f"untrained network {final_untrained['score']:.3f}"
    )
    if out_png is not None:
        plot_curve(result, out_png)
    return result


def plot_curve(result: dict[str, Any], path: Path) -> None:
    matplotlib = require("matplotlib", "the learning-curve figure")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curve = result["curve"]
    xs = [p["episodes"] for p in curve]
    ys = [p["score"] for p in curve]
    lo = [p["wilson95"][0] for p in curve]
    hi = [p["wilson95"][1] for p in curve]
    cfg = result["config"]
    fig, ax = plt.subplots(figsize=(7, 4), dpi=120)
    ax.fill_between(xs, lo, hi, alpha=0.25, label="95% Wilson interval")
    ax.plot(xs, ys, marker="o", ms=3, label=f"greedy policy vs {cfg['opponent']} ({cfg['eval_games']} games/point)")
    train_x = [p["episodes"] for p in curve[1:]]
    train_y = [p["train_score"] for p in curve[1:]]
    if train_x:
        ax.plot(train_x, train_y, lw=0.8, alpha=0.6, label="training batch (sampling policy)")
    ax.axhline(0.5, color="grey", ls="--", lw=0.8)
    final = result["final"]
    ax.set_title(
        f"{cfg['env_id']}: masked PPO (numpy), {result['train_seconds'] / 60:.1f} min CPU\n"
        f"final {final['score']:.2f} over {final['games']} games "
        f"[{final['wilson95'][0]:.2f}, {final['wilson95'][1]:.2f}]",
        fontsize=9,
    )
    ax.set_xlabel("training episodes")
    ax.set_ylabel("win rate (ties count half)")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=4.0, help="wall-clock training time")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--env", default="goldfields/DiggingHand-v0", help="a goldfields Gymnasium id")
    ap.add_argument("--opponent", default="random", help="bot spec the agent trains and is evaluated against")
    ap.add_argument("--eval-games", type=int, default=400, help="games of the final evaluation")
    ap.add_argument("--png", default="docs/img/learning_curve.png", help="where to save the learning curve")
    ap.add_argument("--json", default=None, help="also write the curve and results as JSON here")
    args = ap.parse_args(argv)
    cfg = TrainConfig(
        env_id=args.env,
        env_kwargs={"seat": "random", "opponents": args.opponent},
        minutes=args.minutes,
        seed=args.seed,
        final_eval_games=args.eval_games,
        opponent=args.opponent,
    )
    result = train(cfg, Path(args.png) if args.png else None)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    return result


if __name__ == "__main__":
    main()
