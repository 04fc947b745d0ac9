"""Storage: DiggerState.from_json refuses every impossible state with a clear
ValueError, before anything can go wrong later (the named refusals are in test_storage)."""

from __future__ import annotations

import json
import random

import pytest
from corrupt import corrupt, load_or_refuse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goldfields.digger import ROLL, DiggerOptions, DiggerState, new_game

from .scenario import play_moves

OPTIONS = (DiggerOptions(), DiggerOptions(knock_probability=0.3), DiggerOptions(stack_seconds=0.5))


def _at(state: DiggerState, action: int) -> float | None:
    """A simple clock: one second a step, the first roll at 0."""
    if action == ROLL and not state.started:
        return 0.0
    return state.elapsed + 1.0


def random_position(players: int, options: DiggerOptions, seed: int, steps: int) -> DiggerState:
    rng = random.Random(seed)
    state = new_game(players, "white", options)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
        else:
            action = rng.choice(state.legal_actions())
            state.apply_action(action, _at(state, action))
    return state


def play_on(state: DiggerState, rng: random.Random, steps: int = 150) -> None:
    for _ in range(steps):
        for seat in range(state.num_players):
            state.observation(seat)
        state.resample(state.digger, rng)
        DiggerState.from_json(json.loads(json.dumps(state.to_json())))
        if state.logs is not None:
            state.record()
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
        else:
            action = rng.choice(state.legal_actions())
            state.apply_action(action, _at(state, action))


@settings(max_examples=300, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
          report_multiple_bugs=False)  # fmt: skip
@given(
    players=st.integers(2, 5),
    options=st.sampled_from(OPTIONS),
    seed=st.integers(0, 2**16),
    steps=st.integers(0, 300),
    data=st.data(),
)
def test_from_json_refuses_impossible_states_or_plays_on(
    players: int, options: DiggerOptions, seed: int, steps: int, data: st.DataObject
) -> None:
    state = random_position(players, options, seed, steps)
    where, doc = corrupt(data, state.to_json())
    restored = load_or_refuse(DiggerState.from_json, doc, where, "Digger")
    if restored is None:
        return
    play_on(restored, random.Random(seed))  # accepted: then nothing may fail later


def test_from_json_refuses_a_pending_roll_missing_from_the_record() -> None:
    """Used to load, then fail with an IndexError when the dice landed."""
    state = play_moves(new_game(3), "roll YRGBK @0", "take Y")
    state.apply_action(ROLL, 2.0)
    doc = state.to_json()
    doc["logs"] = []
    with pytest.raises(ValueError, match="record does not end with that roll"):
        DiggerState.from_json(doc)
