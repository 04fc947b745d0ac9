"""PettingZoo AEC environments: PettingZoo's api_test and seed_test, masks, rewards."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from goldfields.research.pettingzoo_env import DiggerAEC, DiggingAEC, digger_env, digging_env  # noqa: E402

CASES = [
    (digging_env, {"players": 2, "single_hand": True}),
    (digging_env, {"players": 4}),
    (digger_env, {"players": 3}),
    (digger_env, {"players": 2, "crates": "black", "max_turns": 6}),
]


@pytest.mark.parametrize(
    ("make", "kwargs"), CASES, ids=["digging-2p-hand", "digging-4p", "digger-3p", "digger-2p-black"]
)
def test_api_and_seed(make, kwargs):
    with warnings.catch_warnings():
        # Dict observations ({"observation", "action_mask"}, as in PettingZoo's classic games)
        # draw two advisory warnings from api_test for an environment it does not know by name.
        warnings.simplefilter("ignore", UserWarning)
        api_test(make(**kwargs), num_cycles=200)
        seed_test(lambda: make(**kwargs), num_cycles=200)


def _play(env, seed):
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    rewards = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        rewards[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.any()
        legal = np.flatnonzero(mask)
        env.step(int(rng.choice(legal)))
    return rewards


def test_partnership_rewards_go_to_both_partners():
    env = DiggingAEC(players=4, single_hand=True)
    for seed in range(3):
        r = _play(env, seed)
        assert r["player_0"] == r["player_2"] and r["player_1"] == r["player_3"]
        assert sum(r.values()) == pytest.approx(2.0)


def test_digger_only_the_digger_acts_and_its_observation_has_no_clock():
    from goldfields.research.encoding import DIGGER

    env = DiggerAEC(players=3)
    env.reset(seed=5)
    clock = DIGGER.slices["clock"]
    for _ in range(60):
        agent = env.agent_selection
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        assert env.unwrapped.match.state.current_player == int(agent[-1])
        assert not obs["observation"][clock].any()
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))


def test_illegal_action_is_refused():
    raw = DiggingAEC(players=2)
    raw.reset(seed=0)
    obs = raw.observe(raw.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="illegal action"):
        raw.step(illegal)


@pytest.mark.parametrize("make", [DiggingAEC, DiggerAEC])
@pytest.mark.parametrize("action", [0.7, True, "1"])
def test_an_action_that_is_not_an_integer_is_refused_and_nothing_moves(make, action):
    raw = make(players=2)
    raw.reset(seed=0)
    before = (raw.match.state.to_json(), dict(raw.rewards), dict(raw._cumulative_rewards))
    with pytest.raises(TypeError, match=r"^an action is an integer id of Discrete\(\d+\), not "):
        raw.step(action)
    assert (raw.match.state.to_json(), dict(raw.rewards), dict(raw._cumulative_rewards)) == before
    raw.step(np.float64(float(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"])[0])))  # 3.0 is 3


@pytest.mark.parametrize(("make", "kwargs"), CASES[:1] + CASES[3:], ids=["digging-2p-hand", "digger-2p-black"])
def test_the_environments_never_truncate_a_game_they_play_to_its_end(make, kwargs):
    env = make(**kwargs)
    for seed in range(3):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            assert not truncated  # the cap (digger-2p-black's max_turns) terminates as well
            env.step(None if terminated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert all(env.unwrapped.terminations.values())


def test_after_an_illegal_action_the_wrapper_reports_both_termination_and_truncation():
    # PettingZoo's TerminateIllegalWrapper does this, and the docs say so: not this module.
    env = digging_env(players=2, single_hand=True)
    env.reset(seed=0)
    author = env.agent_selection
    obs = env.observe(author)
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    _, _, terminated, truncated, _ = env.last()
    assert terminated and truncated
    assert all(env.terminations.values()) and all(env.truncations.values())
    assert env.rewards[author] == -1.0


def test_an_agent_cannot_call_the_hourglass_on_itself() -> None:
    # The engine takes Digger's timeout from whoever keeps the clock, whenever the hourglass
    # runs; an agent's mask never offers it, and sent anyway it is refused with the rule.
    from goldfields.digger import TIMEOUT
    from goldfields.research.pettingzoo_env import DiggerAEC

    env = DiggerAEC(players=3)
    env.reset(seed=1)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))  # the first roll
    before = env.match.state.to_json()
    assert env.observe(env.agent_selection)["action_mask"][TIMEOUT] == 0
    with pytest.raises(ValueError, match=r"G3: timeout is the clock's to call"):
        env.step(TIMEOUT)
    assert env.match.state.to_json() == before


@pytest.mark.parametrize(("make", "table", "option"), [
    (digging_env, {"players": 2, "full_deck": True}, "full_deck"),
    (digger_env, {"time_limit": 20}, "time_limit"),
])  # fmt: skip
def test_a_rule_option_given_as_a_parameter_is_told_where_it_goes(make, table, option) -> None:
    with pytest.raises(ValueError, match=rf"unknown parameter\(s\) {option}; .*a rule option goes in options="):
        make(**table)
