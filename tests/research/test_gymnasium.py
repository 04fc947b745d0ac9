"""The single-agent Gymnasium environment: Gymnasium's env checker, masks, opponents, time."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy")
gym = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from goldfields.research.gymnasium_env import GoldfieldsEnv  # noqa: E402


@pytest.mark.parametrize("env_id", ["goldfields/DiggingHand-v0", "goldfields/Digging-v0", "goldfields/Digger-v0"])
def test_check_env_and_masked_random_rollout(env_id):
    env = gym.make(env_id)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_env(env.unwrapped, skip_render_check=True)
    rng = np.random.default_rng(0)
    for episode in range(3):
        obs, info = env.reset(seed=episode)
        done = False
        while not done:
            assert env.observation_space.contains(obs)
            mask = info["action_mask"]
            assert mask.any() and np.array_equal(mask.astype(bool), env.unwrapped.action_masks())
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            done = terminated or truncated
        assert 0.0 <= reward <= 1.0


def test_reset_is_reproducible_and_seat_can_be_random():
    env = GoldfieldsEnv("digging", players=3, seat="random", opponents=["heuristic", "random"])
    seats = set()
    for seed in range(8):
        a, _ = env.reset(seed=seed)
        seats.add(env.seat)
        b, _ = env.reset(seed=seed)
        assert np.array_equal(a, b)
    assert len(seats) > 1


def test_illegal_action_is_penalised_or_raises():
    env = GoldfieldsEnv("digging", players=2)
    obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert reward == -1.0 and not terminated and not truncated and info2["illegal_action"]
    assert np.array_equal(obs, obs2)
    strict = GoldfieldsEnv("digging", players=2, illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(ValueError, match="illegal action"):
        strict.step(illegal)


def test_digger_agent_decides_only_as_digger_without_clock():
    from goldfields.research.encoding import DIGGER

    env = GoldfieldsEnv("digger", players=3, seat=1, opponents="heuristic", max_turns=12)
    clock = DIGGER.slices["clock"]
    obs, info = env.reset(seed=3)
    done = False
    while not done:
        assert env.match.state.current_player == 1
        assert not obs[clock].any()
        legal = np.flatnonzero(info["action_mask"])
        obs, _, terminated, truncated, info = env.step(int(legal[0] if len(legal) == 1 else legal[1]))
        done = terminated or truncated


def test_bad_arguments():
    with pytest.raises(ValueError):
        GoldfieldsEnv("chess")
    with pytest.raises(ValueError):
        GoldfieldsEnv("digging", players=3, opponents=["random"])
    with pytest.raises(ValueError):
        GoldfieldsEnv("digging", players=2, seat=2)
