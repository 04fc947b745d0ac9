"""The vector environment: the same games as Gymnasium's SyncVectorEnv over the single environment, batched."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
gym = pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode  # noqa: E402

import goldfields.research.gymnasium_env  # noqa: E402, F401  (registers the ids)
from goldfields.research.vector_env import GoldfieldsVectorEnv  # noqa: E402

HAND = {"players": 2, "single_hand": True}


def _random_legal(masks, rng):
    scores = rng.random(masks.shape)
    scores[~masks.astype(bool)] = -1.0
    return scores.argmax(axis=1)


def _assert_same(a, b, what):
    assert np.array_equal(a, b), what


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
@pytest.mark.parametrize(
    ("env_id", "game", "table"),
    [("goldfields/DiggingHand-v0", "digging", HAND), ("goldfields/Digger-v0", "digger", {"players": 3})],
)
def test_the_batch_plays_the_games_of_gymnasiums_sync_vector_env(mode, env_id, game, table):
    n = 4
    reference = gym.vector.SyncVectorEnv(
        [lambda: gym.make(env_id, opponents="heuristic") for _ in range(n)], autoreset_mode=mode
    )
    batch = GoldfieldsVectorEnv(n, game, opponents="heuristic", autoreset_mode=mode, **table)
    assert batch.metadata["autoreset_mode"] == mode
    assert batch.observation_space == reference.observation_space
    assert batch.action_space == reference.action_space
    assert batch.max_episode_steps == gym.make(env_id, **table).spec.max_episode_steps
    obs_a, info_a = reference.reset(seed=7)
    obs_b, info_b = batch.reset(seed=7)
    _assert_same(obs_a, obs_b, "reset observations")
    _assert_same(info_a["action_mask"], info_b["action_mask"], "reset masks")
    rng = np.random.default_rng(0)
    ends = 0
    for t in range(250):
        actions = _random_legal(info_b["action_mask"], rng)
        a = reference.step(actions)
        b = batch.step(actions)
        for k, what in enumerate(("obs", "reward", "terminated", "truncated")):
            _assert_same(a[k], b[k], f"step {t}: {what}")
        info_a, info_b = a[4], b[4]
        _assert_same(info_a["action_mask"], info_b["action_mask"], f"step {t}: masks")
        _assert_same(batch.action_masks(), info_b["action_mask"].astype(bool), f"step {t}: action_masks()")
        assert batch.observation_space.contains(b[0])
        if mode == AutoresetMode.SAME_STEP and "final_obs" in info_a:
            done = info_a["_final_obs"]
            _assert_same(done, info_b["_final_obs"], f"step {t}: which games ended")
            for i in np.flatnonzero(done):
                _assert_same(info_a["final_obs"][i], info_b["final_obs"][i], f"step {t}: final obs")
        ends += int((b[2] | b[3]).sum())
    assert ends > 0


def test_next_step_autoreset_ignores_the_action_and_starts_a_new_game():
    batch = GoldfieldsVectorEnv(2, "digging", **HAND)
    _, infos = batch.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(500):
        _, rewards, terminated, truncated, infos = batch.step(_random_legal(infos["action_mask"], rng))
        if terminated.any():
            break
    i = int(np.flatnonzero(terminated)[0])
    assert not infos["action_mask"][i].any()  # a finished game has no legal action
    assert infos["_adjudicated"][i] and not infos["adjudicated"][i] and not infos["illegal_action"][i]
    _, rewards, terminated, truncated, infos = batch.step(np.zeros(2, np.int64))  # action 0 is illegal: ignored
    assert rewards[i] == 0.0 and not terminated[i] and not truncated[i]
    assert infos["action_mask"][i].any()


def test_seeding_fixes_the_run_and_the_step_cap_truncates():
    def run(seed):
        batch = GoldfieldsVectorEnv(3, "digging", max_episode_steps=5, **HAND)
        obs, infos = batch.reset(seed=seed)
        out = [obs]
        rng = np.random.default_rng(2)
        truncations = 0
        for _ in range(30):
            obs, _, _, truncated, infos = batch.step(_random_legal(infos["action_mask"], rng))
            truncations += int(truncated.sum())
            out.append(obs)
        return np.stack(out), truncations

    a, truncated = run(5)
    b, _ = run(5)
    c, _ = run(6)
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    assert truncated >= 3  # every 5 agent steps (a hand lasts longer), with no reward paid


def test_an_illegal_action_ends_its_game_with_the_penalty():
    batch = GoldfieldsVectorEnv(2, "digging", **HAND)
    _, infos = batch.reset(seed=0)
    illegal = int(np.flatnonzero(infos["action_mask"][0] == 0)[0])
    legal = int(np.flatnonzero(infos["action_mask"][1])[0])
    _, rewards, terminated, _, infos = batch.step([illegal, legal])
    assert rewards[0] == -1.0 and terminated[0] and infos["illegal_action"][0]
    assert not terminated[1]


def test_disabled_autoreset_resets_by_mask():
    batch = GoldfieldsVectorEnv(2, "digging", autoreset_mode="Disabled", **HAND)
    _, infos = batch.reset(seed=0)
    illegal = int(np.flatnonzero(infos["action_mask"][0] == 0)[0])
    batch.step([illegal, int(np.flatnonzero(infos["action_mask"][1])[0])])
    with pytest.raises(RuntimeError, match="reset it"):
        batch.step([0, 0])
    _, infos = batch.reset(options={"reset_mask": np.array([True, False])})
    assert infos["action_mask"][0].any()


def test_maskable_ppo_reads_the_masks_through_the_sb3_adapter():
    pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    from goldfields.research.sb3 import SB3VecEnv

    venv = SB3VecEnv(GoldfieldsVectorEnv(3, "digging", **HAND))
    obs = venv.reset()
    assert obs.shape == (3, venv.observation_space.shape[0])
    assert is_masking_supported(venv)
    masks = get_action_masks(venv)
    assert masks.shape == (3, 207) and masks.dtype == bool and masks.any(axis=1).all()


def test_make_vec_builds_the_batch_from_the_registered_ids():
    envs = gym.make_vec("goldfields/DiggingHand-v0", num_envs=3, opponents="heuristic")
    assert isinstance(envs, GoldfieldsVectorEnv)
    assert envs.num_envs == 3 and envs.max_episode_steps == gym.make("goldfields/DiggingHand-v0").spec.max_episode_steps
    assert all(env.opponent_specs == ["heuristic"] for env in envs.envs)
    obs, infos = envs.reset(seed=0)
    assert obs.shape == (3, 391) and infos["action_mask"].shape == (3, 207)
    sync = gym.make_vec("goldfields/DiggingHand-v0", num_envs=3, vectorization_mode="sync")
    assert isinstance(sync, gym.vector.SyncVectorEnv)


def test_per_env_gives_each_game_its_own_arguments():
    batch = GoldfieldsVectorEnv(4, "digging", per_env=[{"opponents": "random"}, {"opponents": "heuristic"}] * 2, **HAND)
    assert [env.opponent_specs for env in batch.envs] == [["random"], ["heuristic"]] * 2
    with pytest.raises(ValueError, match="one dict per game"):
        GoldfieldsVectorEnv(3, "digging", per_env=[{}], **HAND)


def test_a_batch_with_an_action_that_is_not_an_integer_refuses_it_before_any_game_moves():
    batch = GoldfieldsVectorEnv(3, "digging", **HAND)
    _, infos = batch.reset(seed=0)
    actions = _random_legal(infos["action_mask"], np.random.default_rng(0)).astype(np.float64)
    fractional = actions.copy()
    fractional[2] += 0.5
    moves = [env.match.moves for env in batch.envs]
    with pytest.raises(TypeError, match=r"^game 2: an action is an integer id of Discrete\(207\), not .*\.5"):
        batch.step(fractional)
    assert [env.match.moves for env in batch.envs] == moves  # no game moved, the first two neither
    batch.step(actions)  # integral floats are ids
    assert all(env.match.moves > m for env, m in zip(batch.envs, moves, strict=True))


def test_an_illegal_action_under_raise_stops_the_batch_before_any_game_moves():
    batch = GoldfieldsVectorEnv(3, "digging", illegal_action="raise", **HAND)
    _, infos = batch.reset(seed=0)
    actions = _random_legal(infos["action_mask"], np.random.default_rng(0))
    actions[1] = int(np.flatnonzero(infos["action_mask"][1] == 0)[0])
    moves = [env.match.moves for env in batch.envs]
    with pytest.raises(ValueError, match=r"^game 1: illegal action .*; no game moved$"):
        batch.step(actions)
    assert [env.match.moves for env in batch.envs] == moves  # game 0 neither, though it came first


def test_a_finished_game_under_disabled_autoreset_stops_the_batch_before_any_game_moves():
    batch = GoldfieldsVectorEnv(2, "digging", autoreset_mode="DISABLED", **HAND)
    _, infos = batch.reset(seed=0)
    rng = np.random.default_rng(0)
    while not batch._needs_reset.any():
        _, _, _, _, infos = batch.step(_random_legal(infos["action_mask"], rng))
    over = int(np.flatnonzero(batch._needs_reset)[0])
    assert not infos["action_mask"][over].any()  # no action is legal: a step refuses it
    moves = [env.match.moves for env in batch.envs]
    with pytest.raises(RuntimeError, match=rf"game {over} is over: reset it .*no game moved"):
        batch.step(_random_legal(infos["action_mask"], rng))
    assert [env.match.moves for env in batch.envs] == moves


def test_an_actions_own_error_keeps_its_type_with_a_note_naming_the_game():
    # An error type whose constructor takes other arguments cannot be rebuilt around a new
    # message: it is raised as it is, noted with the game, and still no game moves.
    import json
    import numbers

    class Broken:
        def __int__(self) -> int:
            raise json.JSONDecodeError("no id in it", "{}", 0)

    numbers.Integral.register(Broken)
    batch = GoldfieldsVectorEnv(2, "digging", **HAND)
    _, infos = batch.reset(seed=0)
    moves = [env.match.moves for env in batch.envs]
    actions = np.array([_random_legal(infos["action_mask"], np.random.default_rng(0))[0], Broken()], dtype=object)
    with pytest.raises(json.JSONDecodeError) as err:
        batch.step(actions)
    assert "game 1; no game moved" in err.value.__notes__
    assert [env.match.moves for env in batch.envs] == moves


def test_a_batch_of_the_wrong_number_of_actions_is_refused_with_the_count():
    batch = GoldfieldsVectorEnv(4, "digging", **HAND)
    batch.reset(seed=0)
    moves = [env.match.moves for env in batch.envs]
    with pytest.raises(ValueError, match=r"one action per game: 4 of them, not 3"):
        batch.step(np.zeros(3, np.int64))
    assert [env.match.moves for env in batch.envs] == moves


@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.name)
def test_the_autoreset_mode_is_taken_as_the_enum_its_name_or_its_value(mode):
    for given in (mode, mode.name, mode.value):  # AutoresetMode.NEXT_STEP, "NEXT_STEP", "NextStep"
        batch = GoldfieldsVectorEnv(1, "digging", autoreset_mode=given, **HAND)
        assert batch.metadata["autoreset_mode"] is mode and batch.autoreset_mode is mode


def test_an_unknown_autoreset_mode_is_refused_with_the_known_ones():
    with pytest.raises(ValueError, match=r"autoreset_mode 'next' is none of .*NEXT_STEP \('NextStep'\)"):
        GoldfieldsVectorEnv(1, "digging", autoreset_mode="next", **HAND)


def test_the_modules_example_loop_runs_past_the_first_games_end():
    import re
    import textwrap

    import goldfields.research.vector_env as module

    block = []
    for line in module.__doc__.split("::", 1)[1].splitlines()[1:]:
        if line.strip() and not line.startswith("    "):
            break
        block.append(line)
    code = textwrap.dedent("\n".join(block))
    assert "while True:" in code
    ended = []
    code = code.replace("while True:", "for _ in range(120):") + "\n    ended.append(terminations.any())\n"
    exec(compile(re.sub(r"GoldfieldsVectorEnv\(16,", "GoldfieldsVectorEnv(4,", code), "example", "exec"),
         {"ended": ended})  # fmt: skip
    assert any(ended)  # it stepped on after a game ended, where a finished game's mask row is all 0
