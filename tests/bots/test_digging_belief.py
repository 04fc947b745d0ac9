"""Belief inference for Digging: the hand rewound to a deal, replayed, and weighed, from the seat's view alone."""

from __future__ import annotations

import random

import pytest

from goldfields.bots import digging_belief as belief
from goldfields.bots.net import evaluator
from goldfields.core.game import GameState
from goldfields.digging import DiggingOptions
from goldfields.digging.state import DiggingState

from .conftest import TABLES, Positions, random_positions


def _table_state(state: DiggingState, seat: int) -> object:
    """Everything about a position but the record of how it came about, and what the other
    side knows of its own passes (a determinisation cannot know it)."""
    data = state.to_json()
    del data["logs"]
    for s in range(state.num_players):
        if state.is_opponent(seat, s):
            data["known"][s] = data["passes"][s] = None
    return data


def _rewound(state: GameState, i: int) -> tuple[DiggingState, DiggingState]:
    """A determinisation of ``state`` for its seat to move, and the deal the hand's moves are
    rewound to from it, replayed to it as a real game (whose moves are checked): (the deal, the
    replay)."""
    assert isinstance(state, DiggingState)
    seat = state.current_player
    view = state.view(seat)
    parsed = belief.parse_moves(view)
    assert parsed is not None
    det: DiggingState = view.sample(random.Random(i))  # type: ignore[assignment]
    back = belief.rewind(det, parsed, seat, random.Random(i))
    assert back is not None
    start, actions, _ = back
    replay = DiggingState.from_json(start.to_json())
    for action in actions:
        replay.apply_action(action)
    assert _table_state(replay, seat) == _table_state(det, seat)
    return start, replay


@pytest.mark.parametrize(("players", "partnership"), TABLES)
def test_a_rewound_deal_replays_to_the_determinisation(players: int, partnership: bool, positions: Positions) -> None:
    for i, state in enumerate(positions(players, partnership, 8, seed=40 + players)):
        _rewound(state, i)


@pytest.mark.parametrize(("players", "partnership", "hand"), [(2, False, 12), (3, False, 2), (4, True, 9)])
def test_a_rewound_deal_has_the_hands_the_hand_size_option_deals(players: int, partnership: bool, hand: int) -> None:
    # A deal of other than 6 cards each is rewound as well (a deal of 6 would not add up to it).
    options = DiggingOptions(hand_size=hand)
    for i, state in enumerate(random_positions(players, partnership, 4, 60 + hand, options)):
        start, replay = _rewound(state, i)
        assert start.sizes == [hand] * players and replay.hand_size == hand


@pytest.mark.parametrize(("players", "partnership"), TABLES)
def test_the_true_deal_explains_the_moves(players: int, partnership: bool, positions: Positions) -> None:
    net = evaluator("default")
    for i, state in enumerate(positions(players, partnership, 8, seed=50 + players)):
        seat = state.current_player
        parsed = belief.parse_moves(state.view(seat))
        assert parsed is not None
        found = belief.weigh(state, parsed, seat, net, random.Random(i))  # type: ignore[arg-type]
        assert found is not None
        assert _table_state(found[1], seat) == _table_state(state, seat)  # type: ignore[arg-type]


def test_the_belief_reads_only_the_seats_view(positions: Positions) -> None:
    net = evaluator("default")
    checked = 0
    for i, state in enumerate(positions(4, True, 8, seed=61)):
        seat = state.current_player
        twin = state.resample(seat, random.Random(100 + i))  # the same table from this seat's chair
        if twin.hands == state.hands:  # type: ignore[attr-defined]
            continue
        a = belief.weighted_deals(state.view(seat), random.Random(i), net, 12)
        b = belief.weighted_deals(twin.view(seat), random.Random(i), net, 12)
        if a is None:
            assert b is None
            continue
        assert b is not None
        assert a.weights == b.weights
        assert [d.to_json() for d in a.states] == [d.to_json() for d in b.states]
        checked += 1
    assert checked >= 4


def test_weighted_deals_sample_by_weight(positions: Positions) -> None:
    net = evaluator("default")
    state = positions(2, False, 1, seed=71)[0]
    found = belief.weighted_deals(state.view(state.current_player), random.Random(0), net, 16)
    assert found is not None
    assert sum(found.weights) == pytest.approx(1.0)
    assert 1.0 <= found.effective_size <= len(found.states)
    rng = random.Random(1)
    drawn = [found.sample(rng) for _ in range(2000)]
    best = max(range(len(found.states)), key=found.weights.__getitem__)
    share = sum(d is found.states[best] for d in drawn) / len(drawn)
    assert share == pytest.approx(found.weights[best], abs=0.05)


def test_no_belief_without_a_record_of_the_hand(positions: Positions) -> None:
    state = positions(2, False, 1, seed=72)[0]
    seat = state.current_player
    det = state.resample(seat, random.Random(0))
    det.seen = None  # a state loaded without its record
    assert belief.weighted_deals(det.view(seat), random.Random(0), evaluator("default"), 4) is None
