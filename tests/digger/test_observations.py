"""What each seat may know: everything is public but the hourglass, which the digger never sees (G2, G3)."""

from __future__ import annotations

import json
import random

from goldfields.clocks import DEFAULT_TIME_MODEL, TimeModel
from goldfields.digger import ROLL, STOP, DiggerState, new_game, take_action
from goldfields.digger.dice import RED, YELLOW

from .scenario import play_moves, position


def timed_turn(take_at: float, roll_at: float) -> DiggerState:
    state = play_moves(position(3, crates={2: "G"}), "roll YRGBK @0")
    state.apply_action(take_action(YELLOW), at=take_at)
    state.apply_action(ROLL, at=roll_at)
    state.apply_chance("KYRBB")
    state.apply_action(take_action(RED), at=roll_at + 0.5)
    return state


def test_states_differing_only_in_time_look_the_same_to_the_digger() -> None:
    fast, slow = timed_turn(1.0, 2.0), timed_turn(9.0, 21.5)
    assert fast.elapsed != slow.elapsed
    digger = fast.digger
    assert fast.view(digger).data == slow.view(digger).data
    assert fast.view(digger).sample(random.Random(1)).to_json() == slow.view(digger).sample(random.Random(1)).to_json()
    # The same position restored from storage with only the time changed.
    data = fast.to_json()
    data["elapsed"] = 29.75
    other = DiggerState.from_json(data)
    assert other.view(digger).data == fast.view(digger).data
    assert other.resample(digger, random.Random(3)).to_json() == fast.resample(digger, random.Random(5)).to_json()
    # The other seats do see the difference.
    assert fast.view(1).data != slow.view(1).data
    # A spectator does not: it may be the digger in another window.
    assert fast.observation(None) == slow.observation(None)
    assert fast.observation(1)["elapsed"] == 2.5 and slow.observation(2)["remaining"] == 8.0


def test_the_diggers_copy_carries_no_time() -> None:
    state = timed_turn(9.0, 21.5)
    copy = state.resample(state.digger, random.Random(0))
    # The true 21.5 s is hidden; the engine puts in no reckoning of its own
    # (that needs a model of how fast the digger plays: goldfields.clocks).
    assert copy.elapsed == 0.0
    assert DEFAULT_TIME_MODEL.estimate(2, 2) == 4.0  # what a search reckons from the public counts
    assert copy.logs is None
    # Every other seat saw the hourglass: its copy keeps the true time.
    assert state.resample(1, random.Random(0)).elapsed == 22.0


def test_the_digger_never_receives_the_time_in_events() -> None:
    state = new_game(3)
    events = state.apply_action(ROLL, at=0)
    events += state.apply_chance("YRGBW")
    events += state.apply_action(take_action(YELLOW), at=3.0)
    events += state.apply_action(STOP, at=4.5)
    for event in events:
        assert "at" not in event.view(0)
        assert "at" not in event.view(None) or event.kind == "turn_start"
    assert [e.view(1).get("at") for e in events] == [0.0, None, 3.0, 4.5, None]


def test_an_observation_holds_everything_public() -> None:
    state = play_moves(position(3, crates={1: "WW"}, box=1), "roll KWRRB @0", "take B", "steal W 1")
    obs = state.observation(0)
    assert json.loads(json.dumps(obs)) == obs
    assert obs["centre"] == {"B": 8, "Y": 10, "R": 10, "G": 10, "W": 8}
    assert obs["crates"] == [
        {"Y": 0, "R": 0, "G": 0, "W": 0},
        {"Y": 0, "R": 0, "G": 0, "W": 1},
        {"Y": 0, "R": 0, "G": 0, "W": 0},
    ]
    assert obs["haul"] == {"B": 1, "Y": 0, "R": 0, "G": 0, "W": 1}
    assert obs["box"] == {"B": 1}
    assert obs["dice"] == "KWRRB" and obs["unique"] == ["B", "W"] and obs["black_unique"] is True
    assert obs["used"] == ["B", "W"] and obs["rolls"] == 1 and obs["tokens_taken"] == 2
    assert obs["scores"] == [0, 6, 0] and obs["winners"] is None
    assert obs["legal"] == ["roll", "stop"]
    assert state.observation(1)["legal"] == []
    assert obs["values"][0] == {"Y": 2, "R": 3, "G": 4, "W": 6} and obs["crate_cards"] == "white"


def test_a_bot_sees_the_same_legal_actions_through_its_view() -> None:
    state = play_moves(position(3, crates={1: "Y"}), "roll KYRRB @0")
    view = state.view(0)
    assert view.legal_actions() == state.legal_actions()
    assert state.view(1).legal_actions() == []
    sample = view.sample(random.Random(2))
    # A determinisation can be played on without touching the real game.
    action = sample.legal_actions()[-1]
    sample.apply_action(action, TimeModel().stamp(sample, action))
    assert state.haul == [0] * 5
