"""Copies, the exact JSON round trip and game records."""

from __future__ import annotations

import json
import random

import pytest

from goldfields.clocks import TimeModel
from goldfields.digger import DiggerOptions, DiggerState, new_game
from goldfields.play.simulate import Simulation, random_policy, simulate

from .scenario import play_moves, random_game


def round_trip(state: DiggerState) -> DiggerState:
    return DiggerState.from_json(json.loads(json.dumps(state.to_json())))


def test_the_json_round_trip_is_exact_at_every_step() -> None:
    options = DiggerOptions(
        knock_probability=0.2, time_limit=25.0, crate_values={"white": {"Y": 1, "R": 2, "G": 3, "W": 4}}
    )
    for seed in range(4):
        state = new_game(2 + seed % 4, "black" if seed % 2 else "white", options)
        sim = Simulation(state, random.Random(seed), random_policy, TimeModel(jitter=0.4))
        while not state.is_terminal():
            again = round_trip(state)
            assert again.to_json() == state.to_json()
            assert again.legal_actions() == state.legal_actions()
            assert again.observation(1) == state.observation(1)
            sim.step()
        assert round_trip(state).to_json() == state.to_json()
        assert round_trip(state).winners() == state.winners()


def test_a_restored_state_plays_on_exactly_like_the_original() -> None:
    state = random_game(3, max_turns=5)
    copy = round_trip(state)
    simulate(state, random.Random(9))
    simulate(copy, random.Random(9))
    assert copy.to_json() == state.to_json()


def test_a_clone_is_independent() -> None:
    state = play_moves(new_game(3), "roll YRGBW @0", "take Y")
    copy = state.clone()
    play_moves(copy, "take R", "stop @2")
    assert state.haul == [0, 1, 0, 0, 0] and state.crates[0] == [0] * 5
    assert state.record()["moves"] == ["roll YRGBW @0", "take Y"]
    assert copy.crates[0] == [0, 1, 1, 0, 0]


def test_from_json_refuses_another_game() -> None:
    with pytest.raises(ValueError, match="not a Digger state"):
        DiggerState.from_json({"game": "digging"})


def test_the_record_has_the_issues_format() -> None:
    state = play_moves(new_game(3, {"black": ["A", "C", "E"]}), "roll KYRRB @0", "take Y", "take B", "stop @2.25")
    state.apply_move("roll YYYYY @0")
    assert state.record() == {
        "game": "digger",
        "players": 3,
        "crates": {"black": ["A", "C", "E"]},
        "options": {},
        "moves": ["roll KYRRB @0", "take Y", "take B", "stop @2.25", "roll YYYYY @0"],
    }
    # A roll still in the air has no faces yet: the record stops before it.
    state.apply_action(0, at=2)
    assert state.record()["moves"][-1] == "roll YYYYY @0"
    with pytest.raises(ValueError, match="no record"):
        state.resample(0, random.Random(0)).record()


def test_times_are_written_so_that_they_read_back_exactly() -> None:
    state = play_moves(new_game(2), "roll YRGBW @0")
    state.apply_action(0, at=0.1 + 0.2)
    state.apply_chance("KKKKK")
    state.apply_action(1, at=1 / 3)
    again = play_moves(new_game(2), *state.record()["moves"])
    assert again.to_json() == state.to_json()
    assert state.record()["moves"][1] == "roll KKKKK @0.30000000000000004"


@pytest.mark.parametrize(
    ("corrupt", "message"),
    [
        (lambda d: d["centre"].__setitem__(1, d["centre"][1] + 1), r"11 yellow tokens in centre, crates, haul and box"),
        (lambda d: d["crate_tokens"][0].__setitem__(0, 1), r"blue goes into the box \(G3\)"),
        (lambda d: d.__setitem__("digger", 7), "digger must be a whole number from 0 to 2, not 7"),
        (lambda d: d["haul"].append(0), r"haul must be a list of 5"),
        (lambda d: d.pop("centre"), "centre is missing"),
    ],
)
def test_impossible_digger_states_are_refused_with_what_is_wrong(corrupt, message: str) -> None:  # type: ignore[no-untyped-def]
    data = json.loads(json.dumps(random_game(3, players=3, max_turns=2).to_json()))
    corrupt(data)
    with pytest.raises(ValueError, match=message):
        DiggerState.from_json(data)
