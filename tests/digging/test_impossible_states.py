"""from_json refuses states the rules cannot reach, with a message, before anything is built on them."""

from __future__ import annotations

import copy
import json
import random

import pytest
from corrupt import corrupt, load_or_refuse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from walks import random_walk

from goldfields.digging import DiggingState, new_game

from .scenario import deal, play


def _state_json() -> dict:
    state = deal({0: "MG G", 1: "B5"})
    play(state, "0: play MG 0", "1: draw", "2: draw", "3: draw", "0: play G m1")
    return state.to_json()


def test_D6_a_fight_over_a_mine_with_no_chest_is_refused_before_any_move() -> None:
    data = _state_json()
    data["mines"][0][2] = []  # the gold mine loses its chest...
    data["fight"] = [0, 1, [[1, 14]], [2, 3]]  # ...and a bandit is on it
    with pytest.raises(ValueError, match=r"a fight over m1, which is without a chest \(D6\)"):
        DiggingState.from_json(data)


@pytest.mark.parametrize(
    ("corrupt", "message"),
    [
        (lambda d: d["pile"].append(0), r"wrong counts of MG \(D1\)"),
        (lambda d: d["pile"].pop(), r"the cards in play are not the deck"),
        (lambda d: d["pile"].append(99), "pile must hold whole numbers from 0 to 21, not 99"),
        (lambda d: d["mines"][0][2].append(4), r"m1 of gold holds S, not a gold chest \(D4\)"),
        (lambda d: d["mines"][0].__setitem__(1, 7), r"mines\[0\] owner must be a whole number from 0 to 3, not 7"),
        (lambda d: d.__setitem__("to_move", 9), "to_move must be a whole number from -2 to 3, not 9"),
        (lambda d: d["hands"].pop(), "hands must be a list of 4, not"),
        (lambda d: d.pop("pile"), "pile is missing"),
        (lambda d: d.__setitem__("winners", [0]), "winners are given exactly when the game is over"),
    ],
)
def test_impossible_states_are_refused_with_what_is_wrong(corrupt, message: str) -> None:  # type: ignore[no-untyped-def]
    data = _state_json()
    corrupt(data)
    with pytest.raises(ValueError, match=message):
        DiggingState.from_json(data)


def test_every_state_of_random_games_is_accepted_back() -> None:
    rng = random.Random(5)
    for players in (2, 3, 4):
        state = new_game(players, seed=players)
        for _ in range(200):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            data = json.loads(json.dumps(state.to_json()))
            assert DiggingState.from_json(copy.deepcopy(data)).to_json() == data


def _random_position(players: int, seed: int, steps: int) -> DiggingState:
    return random_walk(new_game(players, seed=seed), random.Random(seed), steps)


@settings(max_examples=300, deadline=None, database=None, derandomize=True, report_multiple_bugs=False,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])  # fmt: skip
@given(players=st.integers(2, 4), seed=st.integers(0, 2**16), steps=st.integers(0, 400), data=st.data())
def test_a_corrupted_state_is_refused_or_plays_on(players: int, seed: int, steps: int, data: st.DataObject) -> None:
    """One value changed, removed or doubled anywhere: from_json refuses it with a
    ValueError, or else everything a caller can do with the state still works."""
    where, doc = corrupt(data, _random_position(players, seed, steps).to_json())
    state = load_or_refuse(DiggingState.from_json, doc, where, "Digging")
    if state is None:
        return
    rng = random.Random(seed)
    for _ in range(150):
        for seat in range(state.num_players):
            state.observation(seat)
        DiggingState.from_json(json.loads(json.dumps(state.to_json())))
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
