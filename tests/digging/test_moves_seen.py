"""The hand's moves in each seat's observation: perfect recall, with an opponent's passed card hidden (D2)."""

from __future__ import annotations

import random

import pytest

from goldfields.digging import actions as A
from goldfields.digging import new_game
from goldfields.digging.state import DiggingState

TABLES = [(2, False), (3, False), (4, True)]


def played(players: int, partnership: bool, seed: int, moves: int) -> DiggingState:
    """A game of random moves, passes preferred (they are what a seat may not see)."""
    rng = random.Random(seed)
    state: DiggingState = new_game(players, partnership, seed=seed)  # type: ignore[assignment]
    for _ in range(moves):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        passes = [a for a in legal if A.DECODED[a][0] == A.K_PASS]
        state.apply_action(rng.choice(passes if passes and rng.random() < 0.4 else legal))
    return state


@pytest.mark.parametrize(("players", "partnership"), TABLES)
@pytest.mark.parametrize("seed", range(6))
def test_moves_are_the_hand_as_each_seat_saw_it(players: int, partnership: bool, seed: int) -> None:
    state = played(players, partnership, seed, 20 + 25 * seed)
    assert state.logs
    log = state.logs[-1]
    for seat in [*range(players), None]:
        seen = state.observation(seat)["moves"]
        assert len(seen) == len(log["moves"])
        for i, ((mover, text), action) in enumerate(zip(seen, log["moves"], strict=True)):
            assert mover == (log["dealer"] + 1 + i) % players  # turns go round the table
            own_side = seat is not None and partnership and mover % 2 == seat % 2
            if A.DECODED[action][0] == A.K_PASS and not own_side:
                assert text == "pass"
            else:
                assert A.string_to_action(text, players) == action


def test_an_opponents_pass_is_seen_without_its_card() -> None:
    state: DiggingState = new_game(4, True, seed=3)  # type: ignore[assignment]
    mover = state.current_player
    card = state.hand_codes(mover)[0]
    state.apply_move(f"pass {card}")
    mate, left, right = (mover + 2) % 4, (mover + 1) % 4, (mover + 3) % 4
    assert state.observation(mover)["moves"] == [[mover, f"pass {card}"]]
    assert state.observation(mate)["moves"] == [[mover, f"pass {card}"]]
    assert state.observation(left)["moves"] == [[mover, "pass"]]
    assert state.observation(right)["moves"] == [[mover, "pass"]]
    assert state.observation(None)["moves"] == [[mover, "pass"]]


@pytest.mark.parametrize("seed", range(4))
def test_a_determinisation_keeps_the_moves_its_seat_saw(seed: int) -> None:
    state = played(4, True, 100 + seed, 60)
    if state.current_player < 0:
        pytest.skip("the hand ended")
    for seat in range(4):
        det = state.resample(seat, random.Random(seed))
        assert det.logs is None  # no record of a past that is not the real one
        assert det.observation(seat)["moves"] == state.observation(seat)["moves"]
        assert det.clone().observation(seat)["moves"] == state.observation(seat)["moves"]
        assert det.observation(None)["moves"] == state.observation(None)["moves"]
        # The other side's passes are not known in a determinisation: they stay hidden from everyone.
        other = (seat + 1) % 4
        assert all(text == "pass" or not text.startswith("pass") for _, text in det.observation(other)["moves"])


def test_a_determinisation_that_moves_on_has_no_record_of_the_hand() -> None:
    state = played(4, True, 7, 30)
    seat = state.current_player
    det = state.resample(seat, random.Random(0))
    assert det.observation(seat)["moves"] == state.observation(seat)["moves"]
    det.apply_action(det.legal_actions()[0])
    assert det.observation(seat)["moves"] is None  # not the last hand's moves, nor this one's without the move
    between = played(2, False, 8, 0)
    while not between.is_chance_node():  # the first hand, played to its end
        between.apply_action(between.legal_actions()[0])
    det = between.resample(0, random.Random(0))
    assert det.observation(0)["moves"] == between.observation(0)["moves"]  # the hand just finished
    det.apply_chance(det.sample_chance(random.Random(1)))
    assert det.observation(0)["moves"] is None
