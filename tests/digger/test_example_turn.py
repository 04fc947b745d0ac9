"""The example turn of the rule sheet (seeds/004, "Exemple de tour de jeu" / "Example of a Turn"), step by step.

Seat 0 first banks a yellow gem, so that the example's digger (seat 1) has an
opponent's crate to steal from, as the example assumes.
"""

from __future__ import annotations

import pytest

from goldfields.digger import DiggerState, new_game
from goldfields.digger.narrate import event_text

from .scenario import accounted, rejected


def moves(state: DiggerState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


@pytest.fixture
def before_the_example() -> DiggerState:
    state = new_game(3)
    for move in ("roll YBRRG @0", "take Y", "stop @1.5"):
        state.apply_move(move)
    assert state.digger == 1 and state.crates[0] == [0, 1, 0, 0, 0]
    return state


def test_the_rule_sheets_example_turn(before_the_example: DiggerState) -> None:
    state = before_the_example

    # He rolls 2 red, 2 green and 1 blue: no red or green token, only a blue one.
    state.apply_move("roll RRGGB @0")
    assert moves(state) == ["roll", "stop", "take B"]
    rejected(state, "G2", move="take R")
    rejected(state, "G2", move="take G")
    state.apply_move("take B")
    assert state.haul == [1, 0, 0, 0, 0]

    # He rolls again: 2 red, 1 yellow, 1 blue, 1 black. No red; he may steal a
    # yellow from someone (or take one from the centre); blue only from the centre.
    state.apply_move("roll RRYBK @3")
    assert moves(state) == ["roll", "stop", "take B", "take Y", "steal Y 0"]
    rejected(state, "G2", move="take R")
    rejected(state, "G2", move="steal B 0")
    state.apply_move("steal Y 0")
    state.apply_move("take B")
    assert state.crates[0] == [0, 0, 0, 0, 0]
    assert state.haul == [2, 1, 0, 0, 0]

    # One last roll: 2 black, 1 yellow, 1 blue, 1 red. Two blacks: no stealing;
    # exactly one yellow, one blue and one red from the centre.
    state.apply_move("roll KKYBR @7")
    assert moves(state) == ["roll", "stop", "take B", "take Y", "take R"]
    for move in ("take Y", "take B", "take R"):
        state.apply_move(move)
    assert state.haul == [3, 2, 1, 0, 0]
    assert state.crates[1] == [0, 0, 0, 0, 0]  # still at risk

    # He stacks gems in his crate, the blue tokens in the box, and calls "stop"
    # before the sand runs out.
    events = state.apply_move("stop @12.5")
    assert [e.kind for e in events] == ["stop", "turn_start"]
    assert state.crates[1] == [0, 2, 1, 0, 0]
    assert state.box == 3
    assert state.centre == [7, 8, 9, 10, 10]
    assert state.scores() == [0, 2 * 2 + 3, 0]
    assert state.digger == 2
    assert accounted(state) == [10] * 5
    assert state.record()["moves"][3:] == [
        "roll RRGGB @0", "take B", "roll RRYBK @3", "steal Y 0", "take B",
        "roll KKYBR @7", "take Y", "take B", "take R", "stop @12.5",
    ]  # fmt: skip


def test_the_example_with_no_yellow_to_steal_takes_it_from_the_centre() -> None:
    state = new_game(3)
    state.apply_move("roll RRGGK @0")
    state.apply_move("stop @0.5")
    state.apply_move("roll RRYBK @0")
    # Nobody has a yellow gem in their crate: stealing is open, but there is nothing to steal.
    assert moves(state) == ["roll", "stop", "take B", "take Y"]
    state.apply_move("take Y")
    assert state.centre[1] == 9


def test_the_example_turn_lost_to_the_hourglass(before_the_example: DiggerState) -> None:
    state = before_the_example
    for move in ("roll RRGGB @0", "take B", "roll RRYBK @3", "steal Y 0", "take B", "roll KKYBR @7",
                 "take Y", "take B", "take R"):  # fmt: skip
        state.apply_move(move)
    centre = state.centre[:]
    state.apply_move("stop @30.5")
    # Everything goes back to the centre: the stolen yellow and the blue tokens too.
    assert state.centre == [centre[0] + 3, centre[1] + 2, centre[2] + 1, 10, 10]
    assert state.crates == [[0] * 5, [0] * 5, [0] * 5]
    assert state.box == 0



def roll_event(state: DiggerState, move: str) -> dict[str, object]:
    (roll,) = [e.view(None) for e in state.apply_move(move) if e.kind == "roll"]
    return roll


def test_a_roll_tells_whether_it_offers_a_steal(before_the_example: DiggerState) -> None:
    """G2: a single black offers a steal only if a gem shows once and an opponent's crate
    holds one. The roll's event says which, so a log never announces a steal that cannot be made."""
    offered = roll_event(before_the_example, "roll RRYBK @0")  # seat 0 holds the yellow that shows once
    assert (offered["black"], offered["steal"]) == (True, True)
    assert event_text(offered).endswith("(once: B Y; black once: a gem may be stolen).")

    state = new_game(3)
    nothing = roll_event(state, "roll RRYBK @0")  # no crate holds a yellow yet
    assert (nothing["black"], nothing["steal"]) == (True, False)
    assert event_text(nothing).endswith("(once: B Y; black once, nothing to steal).")
    state.apply_move("stop @1")
    two_blacks = roll_event(state, "roll KKYBR @0")
    assert (two_blacks["black"], two_blacks["steal"]) == (False, False)
    assert "black" not in event_text(two_blacks)
