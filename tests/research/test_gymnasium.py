"""The single-agent Gymnasium environment: Gymnasium's env checker, masks, opponents, time."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy")
gym = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from goldfields.research.gymnasium_env import GoldfieldsEnv, step_cap  # noqa: E402


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


def test_defect_5_an_illegal_action_ends_the_episode_with_the_penalty_or_raises():
    env = GoldfieldsEnv("digging", players=2)
    obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.match.state.to_json()
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    # One penalty, and the episode is over: an agent cannot spin on illegal actions for ever.
    assert reward == -1.0 and terminated and not truncated and info2["illegal_action"]
    assert np.array_equal(obs, obs2) and env.match.state.to_json() == before
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(illegal)
    env.reset(seed=1)  # and a new episode starts cleanly
    assert env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))[4].get("illegal_action") is None
    strict = GoldfieldsEnv("digging", players=2, illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(ValueError, match="illegal action"):
        strict.step(illegal)


@pytest.mark.parametrize("env_id", ["goldfields/DiggingHand-v0", "goldfields/Digging-v0", "goldfields/Digger-v0"])
def test_defect_5_every_registered_id_has_a_step_cap(env_id):
    env = gym.make(env_id)
    cap = env.spec.max_episode_steps
    assert cap is not None and cap > 0 and cap == step_cap(env.unwrapped.table)


@pytest.mark.parametrize(("env_id", "table", "cap"), [
    ("goldfields/DiggingHand-v0", {}, 86),
    ("goldfields/DiggingHand-v0", {"players": 4, "partnership": False}, 100),
    ("goldfields/DiggingHand-v0", {"players": 4}, 5000),  # partners may pass cards back and forth: no bound
    ("goldfields/Digger-v0", {"max_turns": 2}, 66),
    ("goldfields/Digging-v0", {"max_moves": 20000}, 20000),
])  # fmt: skip
def test_another_table_of_a_registered_id_is_capped_at_its_own_step_cap(env_id, table, cap):
    # The registered id's default table (2 players, one hand: 86 steps) must not cap a 4-player
    # table, single or batched.
    assert gym.make(env_id, **table).spec.max_episode_steps == cap
    assert gym.make_vec(env_id, num_envs=2, **table).max_episode_steps == cap
    assert gym.make(env_id, max_episode_steps=7, **table).spec.max_episode_steps == 7  # a lower cap, asked


def test_defect_6_an_adjudicated_end_terminates_and_is_paid_once():
    # A cap of 4 decisions cuts every game: the side ahead is declared the winner.
    env = GoldfieldsEnv("digging", players=2, max_moves=4)
    _, info = env.reset(seed=2)
    done = False
    while not done:
        _, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        done = terminated or truncated
    assert terminated and not truncated  # an outcome, not a time limit: no bootstrapping on top of it
    assert info["adjudicated"] is True and reward in (0.0, 0.5, 1.0)
    # Plain truncation by the registered step cap (TimeLimit) pays nothing extra.
    capped = gym.wrappers.TimeLimit(GoldfieldsEnv("digging", players=2, max_moves=40), max_episode_steps=1)
    _, info = capped.reset(seed=2)
    _, reward, terminated, truncated, _ = capped.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert truncated and not terminated and reward == 0.0


@pytest.mark.parametrize(("game", "cap", "says_over"), [
    ("digging", {"players": 2, "max_moves": 10}, lambda v: not v["to_move"].any()),
    ("digger", {"max_turns": 3}, lambda v: list(v["waiting"]) == [0.0, 0.0, 1.0]),
])  # fmt: skip
def test_the_last_observation_of_a_game_cut_by_its_cap_says_the_game_is_over(game, cap, says_over):
    """The engine is still mid-game where a cap cuts it; the agent's last observation must still
    read as a finished game's, as the encoding's table says (nobody to move, the game over)."""
    env = GoldfieldsEnv(game, seat=0, **cap)
    obs, info = env.reset(seed=0)
    assert not says_over(env.encoding.views(obs))
    terminated = False
    while not terminated:
        obs, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert info["adjudicated"] and says_over(env.encoding.views(obs))


def test_a_cap_that_ends_the_game_before_the_agents_first_move_is_refused_at_reset():
    env = GoldfieldsEnv("digger", seat=2, max_turns=2)
    with pytest.raises(ValueError, match=r"the table's cap \(max_turns=2\) ends the game before seat 2 has a move"):
        env.reset(seed=0)
    env = GoldfieldsEnv("digger", seat=2, max_turns=3)  # one turn more: seat 2 digs
    _, info = env.reset(seed=0)
    assert info["action_mask"].any()


def test_defect_4_bot_objects_are_accepted_beside_spec_strings():
    from goldfields.bots.random_bot import RandomBot

    env = gym.make("goldfields/DiggingHand-v0", opponents=[RandomBot()])
    _, info = env.reset(seed=0)
    assert info["action_mask"].any()
    mixed = GoldfieldsEnv("digging", players=3, opponents=[RandomBot(), "heuristic"])
    mixed.reset(seed=0)
    assert mixed.step(int(np.flatnonzero(mixed.action_masks())[0]))[1] in (0.0, 0.5, 1.0)


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


def test_with_a_random_seat_the_opponents_are_counted_from_the_agents_left():
    # [left, partner, right] wherever the agent sits: a bot chosen as the partner stays the partner.
    from goldfields.bots.random_bot import RandomBot

    played: dict[str, set[int]] = {"left": set(), "partner": set(), "right": set()}

    class Marked(RandomBot):
        def __init__(self, role: str) -> None:
            super().__init__()
            self.role = role

        def act(self, view, rng, budget=None):
            played[self.role].add((view.seat - env.seat) % 4)
            return super().act(view, rng)

    env = GoldfieldsEnv("digging", players=4, seat="random", opponents=[Marked(r) for r in played], max_moves=60)
    seats = set()
    for seed in range(12):
        env.reset(seed=seed)
        seats.add(env.seat)
        for _ in range(5):
            if env.match.over:
                break
            env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert len(seats) > 2
    assert played == {"left": {1}, "partner": {2}, "right": {3}}


def test_a_seat_is_an_integer_of_any_kind_but_not_a_bool():
    assert GoldfieldsEnv("digging", players=2, seat=np.int64(1)).seat == 1
    for wrong in (True, "1", 1.5):
        with pytest.raises(ValueError, match=r"seat must be 0\.\.1 or 'random'"):
            GoldfieldsEnv("digging", players=2, seat=wrong)


def test_a_bot_made_for_the_other_game_is_refused_when_the_env_is_made():
    from goldfields.bots import make_bot

    with pytest.raises(ValueError, match="is a bot for digger, not digging: make it with make_bot"):
        GoldfieldsEnv("digging", players=2, opponents=[make_bot("heuristic", "digger")])
    assert GoldfieldsEnv("digging", players=2, opponents=[make_bot("heuristic", "digging")])


def test_the_bots_are_never_handed_the_generator_that_deals():
    # A bot given the chance generator could copy it and read the cards and dice to come.
    from goldfields.bots.random_bot import RandomBot

    handed = []

    class Watching(RandomBot):
        def act(self, view, rng, budget=None):
            handed.append(rng)
            return super().act(view, rng)

    env = GoldfieldsEnv("digging", players=2, seat=1, opponents=[Watching()])
    env.reset(seed=3)
    while not env.match.over:
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert handed and all(rng is not env.match.rng for rng in handed)


@pytest.mark.parametrize("players", [2, 3])
def test_the_observation_stays_in_its_box_with_the_full_deck(players):
    from goldfields.digging.options import DiggingOptions

    env = gym.make("goldfields/DiggingHand-v0", players=players, options=DiggingOptions(full_deck=True))
    obs, info = env.reset(seed=0)
    for _ in range(20):
        assert env.observation_space.contains(obs)
        obs, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated or truncated:
            break
    assert env.observation_space.contains(obs)


@pytest.mark.parametrize("game", ["digging", "digger"])
def test_after_an_illegal_action_ends_the_episode_no_action_is_legal(game):
    env = GoldfieldsEnv(game, players=2)
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, _, terminated, _, info = env.step(illegal)
    assert terminated and info["illegal_action"]
    # As on a normal end (and as the vector environment says): the episode is over, so all zero.
    assert not info["action_mask"].any()
    assert not env.action_masks().any()


def test_raise_mode_names_the_rule_the_illegal_action_breaks_and_changes_nothing():
    env = GoldfieldsEnv("digging", players=2, illegal_action="raise")
    _, info = env.reset(seed=1)
    assert np.flatnonzero(info["action_mask"]).tolist() == [0, 24, 25]
    before = env.match.state.to_json()
    with pytest.raises(ValueError) as refused:
        env.step(1)  # skip, while a card can be played
    assert str(refused.value) == (
        "illegal action 1: D2: skip is only allowed when no other action is legal; legal are [0, 24, 25]"
    )
    with pytest.raises(ValueError, match=r"^illegal action 500: notation: no Digging action has id 500; legal are"):
        env.step(500)
    assert env.match.state.to_json() == before
    assert env.action_masks().tolist() == info["action_mask"].astype(bool).tolist()  # still playable
    digger = GoldfieldsEnv("digger", players=3, illegal_action="raise")
    digger.reset(seed=1)
    with pytest.raises(ValueError, match=r"^illegal action 5: G2: take G: a turn begins with a roll"):
        digger.step(5)


@pytest.mark.parametrize("illegal_action", ["penalize", "raise"])
@pytest.mark.parametrize("action", [0.7, 0.0001, float("nan"), True, np.bool_(False), "0", None, np.array([0])])
def test_an_action_that_is_not_an_integer_is_refused_with_a_type_error(illegal_action, action):
    env = GoldfieldsEnv("digging", players=2, illegal_action=illegal_action)
    env.reset(seed=1)  # action 0 is legal here: 0.7 used to play it
    before = env.match.state.to_json()
    with pytest.raises(TypeError, match=r"^an action is an integer id of Discrete\(207\), not "):
        env.step(action)
    assert env.match.state.to_json() == before
    env.step(0)  # the episode goes on


@pytest.mark.parametrize("action", [0, np.int64(0), np.int8(0), np.array(0), 0.0, np.float32(0.0)])
def test_integers_of_any_kind_and_integral_floats_are_actions(action):
    env = GoldfieldsEnv("digging", players=2)
    env.reset(seed=1)
    reference = GoldfieldsEnv("digging", players=2)
    reference.reset(seed=1)
    a, b = env.step(action), reference.step(0)
    assert np.array_equal(a[0], b[0]) and a[1:4] == b[1:4] and "illegal_action" not in a[4]


def test_a_rule_option_given_as_a_parameter_is_refused_pointing_to_options():
    with pytest.raises(ValueError, match=r"unknown parameter\(s\) full_deck; .*options=\{'full_deck': \.\.\.\}"):
        gym.make("goldfields/Digging-v0", full_deck=True)
    with pytest.raises(ValueError, match=r"unknown parameter\(s\) bogus; known: max_moves, options, partnership"):
        gym.make("goldfields/Digging-v0", bogus=1)
    env = gym.make("goldfields/Digger-v0", options={"time_limit": 20})
    env.reset(seed=0)
    assert env.unwrapped.match.state.limit == 20
