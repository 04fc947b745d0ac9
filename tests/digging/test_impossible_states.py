"""from_json refuses states the rules cannot reach, with a message, before anything is built on them."""

from __future__ import annotations

import copy
import json
import random

import pytest

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
        (lambda d: d["pile"].append(99), "the pile holds an unknown card 99"),
        (lambda d: d["mines"][0][2].append(4), r"m1 of gold holds S, not a gold chest \(D4\)"),
        (lambda d: d["mines"][0].__setitem__(1, 7), "no valid metal, owner or closed flag"),
        (lambda d: d.__setitem__("to_move", 9), "the seat to move, 9, is not at the table"),
        (lambda d: d["hands"].pop(), "hands must be 4 lists"),
        (lambda d: d.pop("pile"), "KeyError"),
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
