"""The numpy PPO of the training example: its gradients and its interval."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")

from goldfields.research.train import MaskedPolicy, wilson  # noqa: E402


def test_wilson_interval():
    lo, hi = wilson(80, 100)
    assert lo == pytest.approx(0.711, abs=1e-3) and hi == pytest.approx(0.867, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)


def _loss(policy, batch, clip, ent, vf):
    probs, value, _ = policy.forward(batch["obs"], batch["mask"])
    n = len(batch["act"])
    logp = np.log(probs[np.arange(n), batch["act"]] + 1e-12)
    ratio = np.exp(logp - batch["logp"])
    surrogate = np.minimum(ratio * batch["adv"], np.clip(ratio, 1 - clip, 1 + clip) * batch["adv"])
    logps = np.log(probs + 1e-12) * batch["mask"]
    entropy = -(probs * logps).sum(1)
    return float(-surrogate.mean() - ent * entropy.mean() + vf * 0.5 * ((value - batch["ret"]) ** 2).mean())


def test_ppo_gradients_match_finite_differences():
    rng = np.random.default_rng(0)
    policy = MaskedPolicy(7, 5, hidden=6, seed=1)
    for k in policy.params:
        policy.params[k] = policy.params[k].astype(np.float64)
        policy.params[k] += rng.normal(0, 0.3, policy.params[k].shape)
    n = 9
    mask = rng.random((n, 5)) < 0.7
    mask[:, 0] = True
    act = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
    batch = {
        "obs": rng.random((n, 7)),
        "mask": mask,
        "act": act,
        "logp": np.log(rng.uniform(0.1, 0.9, n)),
        "adv": rng.normal(size=n),
        "ret": rng.random(n),
    }
    grads, _ = policy.gradients(batch, 0.2, 0.01, 0.5)
    eps = 1e-6
    for name in ("W1", "b2", "Wp", "bv"):
        p = policy.params[name]
        flat = p.reshape(-1)
        for i in range(0, flat.size, max(1, flat.size // 5)):
            old = flat[i]
            flat[i] = old + eps
            up = _loss(policy, batch, 0.2, 0.01, 0.5)
            flat[i] = old - eps
            down = _loss(policy, batch, 0.2, 0.01, 0.5)
            flat[i] = old
            assert grads[name].reshape(-1)[i] == pytest.approx((up - down) / (2 * eps), rel=1e-4, abs=1e-7)


def _env_after(game, moves, **table):
    pytest.importorskip("gymnasium")
    from goldfields.research.gymnasium_env import GoldfieldsEnv

    env = GoldfieldsEnv(game, **table)
    _, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(moves):
        if env.match.over:
            break
        _, _, _, _, info = env.step(int(rng.choice(info["action_mask"].nonzero()[0])))
    return env


def test_margin_counts_partners_together():
    from goldfields.research.tables import DIGGING
    from goldfields.research.train import margin

    env = _env_after(DIGGING, 40, players=4, partnership=True, single_hand=True, seat=1)
    points = env.match.state.observation(env.seat)["points"]
    me = env.seat % 2
    sides = [points[0] + points[2], points[1] + points[3]]
    assert points[1] and points[3]  # both partners have scored: the sum is what counts
    assert margin(env) == sides[me] - sides[1 - me]


def test_margin_of_a_game_with_single_seat_sides():
    from goldfields.research.tables import DIGGER
    from goldfields.research.train import margin

    env = _env_after(DIGGER, 60, players=3, max_turns=20)
    scores = env.match.state.scores()
    assert margin(env) == scores[env.seat] - max(s for i, s in enumerate(scores) if i != env.seat)
