"""A game registered only by the test suite passes the research adapters' own conformance tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("numpy")


@pytest.fixture
def toy() -> Iterator[str]:
    from toy import register_toy, unregister_toy

    game = register_toy()
    yield game.name
    unregister_toy()


def test_openspiel_random_sim_test_on_the_toy_game(toy: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms.get_all_states import get_all_states

    from goldfields.research.openspiel_games import register

    game = pyspiel.load_game(register(toy))
    pyspiel.random_sim_test(game, num_sims=20, serialize=False, verbose=False)
    states = get_all_states(game, include_chance_states=True, include_terminals=True)
    assert len(states) > 6  # the six deals and what follows
    state = game.new_initial_state()
    state.apply_action(0)
    assert len(state.observation_tensor(0)) == len(state.observation_tensor(1)) == 12


def test_pettingzoo_api_and_seed_tests_on_the_toy_game(toy: str) -> None:
    test = pytest.importorskip("pettingzoo.test")
    from goldfields.research.pettingzoo_env import env

    test.api_test(env(toy), num_cycles=20)
    test.seed_test(lambda: env(toy), num_cycles=20)


def test_gymnasium_check_env_on_the_toy_game(toy: str) -> None:
    pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from goldfields.bots.random_bot import RandomBot
    from goldfields.research.gymnasium_env import GoldfieldsEnv

    env = GoldfieldsEnv(toy, opponents=RandomBot())  # a bot object as well as a spec string
    check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=3)
    assert obs.shape == (12,) and info["action_mask"].tolist() == [1, 1]


def test_the_spec_reads_the_standing_of_a_game_it_has_never_heard_of(toy: str) -> None:
    """The research spec's public standing (what a shaped reward or an analysis reads) comes
    from the game's own scores, for a game registered by a plug-in too."""
    pytest.importorskip("gymnasium")
    from goldfields.research.gymnasium_env import GoldfieldsEnv

    env = GoldfieldsEnv(toy)
    env.reset(seed=1)
    assert env.table.standing(env.match.state) == [0, 0]  # nothing is scored before the cards are shown
    terminated = truncated = False
    while not (terminated or truncated):
        _, _, terminated, truncated, _ = env.step(int(env.action_masks().nonzero()[0][0]))
    assert env.table.standing(env.match.state) == env.match.state.scores()


def test_a_plug_in_declares_its_chance_bound_or_is_told_when_the_estimate_falls_short(
    toy: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bound sizes OpenSpiel's chance policies: a node with more outcomes must be refused, not
    passed on."""
    pyspiel = pytest.importorskip("pyspiel")
    from goldfields.core import registry
    from goldfields.research import openspiel_games as og

    definition = type(registry.get(toy))
    assert pyspiel.load_game(og.register(toy)).max_chance_outcomes() == 6  # found by random play
    with monkeypatch.context() as patch:  # an estimate that missed the largest node
        patch.setattr(og, "_max_chance_outcomes", lambda spec: 3)
        state = pyspiel.load_game(og.register(toy)).new_initial_state()
        with pytest.raises(ValueError, match="has 6 outcomes, more than the 3 random play found; declare max_chance"):
            state.chance_outcomes()
        with pytest.raises(ValueError, match="has 6 outcomes"):
            state.apply_action(1)
        assert state.is_chance_node()  # nothing applied
    monkeypatch.setattr(definition, "max_chance_outcomes", 9)
    assert pyspiel.load_game(og.register(toy)).max_chance_outcomes() == 9  # declared
    monkeypatch.setattr(definition, "max_chance_outcomes", 4)
    state = pyspiel.load_game(og.register(toy)).new_initial_state()
    with pytest.raises(ValueError, match="has 6 outcomes, more than the 4 its definition declares"):
        state.chance_outcomes()
    monkeypatch.setattr(definition, "max_chance_outcomes", 0)
    with pytest.raises(ValueError, match="max_chance_outcomes is 0"):
        pyspiel.load_game(og.register(toy))


def test_an_openspiel_chance_node_of_a_plug_in_refuses_an_outcome_it_does_not_list(toy: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from goldfields.research.openspiel_games import register

    state = pyspiel.load_game(register(toy)).new_initial_state()
    assert [a for a, _ in state.chance_outcomes()] == [0, 1, 2, 3, 4, 5]
    for action in (6, 40, -2):  # an index past the list once raised a bare IndexError
        with pytest.raises(ValueError, match=f"^chance: {action} is not one of this chance node's outcomes"):
            state.apply_action(action)
    assert state.is_chance_node() and state.history() == []


def test_an_openspiel_sample_of_a_plug_in_keeps_no_true_deal_and_no_other_seats_secrets(toy: str) -> None:
    """A resampled state of any registered game starts with an empty OpenSpiel history (the true
    one holds the true deal) and keeps no private history of a seat other than the sampler's."""
    pyspiel = pytest.importorskip("pyspiel")
    from goldfields.research.openspiel_games import register

    game = pyspiel.load_game(register(toy))
    state = game.new_initial_state()
    state.apply_action(1)  # the deal (1, 3): seat 0 holds 1, seat 1 holds 3
    assert '"card":3' in state.information_state_string(1)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    held = set()
    for _ in range(30):
        sample = state.resample_from_infostate(0, sampler)
        assert sample.history() == []
        assert sample.information_state_string(0) == state.information_state_string(0)
        assert '"card"' not in sample.information_state_string(1)
        assert sample.legal_actions() == state.legal_actions()
        held.add(sample._core.engine.cards[1])
    assert held == {2, 3}  # seat 0 holds 1: seat 1 holds either other card
