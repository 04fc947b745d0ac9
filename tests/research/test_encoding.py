"""One encoding per game, built from the seat's observation only: nothing hidden leaks."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from goldfields.research.encoding import DIGGER, DIGGING, encode  # noqa: E402

from .helpers import DIGGER_SPECS, DIGGING_SPECS, random_matches  # noqa: E402


def test_layouts_are_contiguous_and_documented():
    for enc in (DIGGING, DIGGER):
        at = 0
        for piece in enc.pieces:
            s = enc.slices[piece.name]
            assert s.start == at and s.stop - s.start == piece.size
            assert piece.meaning
            at = s.stop
        assert at == enc.size
        assert enc.table().count("\n") == len(enc.pieces) + 1


@pytest.mark.parametrize("spec", DIGGING_SPECS, ids=lambda s: f"{s.players}p-{s.is_partnership}")
def test_digging_states_a_seat_cannot_tell_apart_give_it_the_same_tensor(spec):
    differed = 0
    for match in random_matches(spec, range(12)):
        state = match.state
        for seat in range(spec.players):
            mine = encode(state.observation(seat))
            assert mine.dtype == np.float32 and mine.shape == (DIGGING.size,)
            assert mine.min() >= 0.0 and mine.max() <= 1.0
            for k in range(3):
                other = state.resample(seat, random.Random(k))
                assert np.array_equal(encode(other.observation(seat)), mine)
                # The sample really differs in what the seat cannot see: another seat's tensor changes.
                if any(
                    not np.array_equal(encode(other.observation(s)), encode(state.observation(s)))
                    for s in range(spec.players)
                    if s != seat
                ):
                    differed += 1
    assert differed > 0


def test_digging_hidden_cards_do_not_reach_the_tensor():
    # Two deals that give seat 0 the same hand but the others different cards.
    from goldfields.digging import DiggingState

    base = DiggingState(2, False)
    deck = base.sample_chance(random.Random(5))
    other = deck[:]
    # Swap a card of seat 1's hand (odd positions of the first 12) with one deep in the pile.
    i = next(i for i in range(1, 12, 2) if deck[i] != deck[40])
    other[i], other[40] = other[40], other[i]
    a, b = DiggingState(2, False), DiggingState(2, False)
    a.apply_chance(deck)
    b.apply_chance(other)
    assert np.array_equal(encode(a.observation(0)), encode(b.observation(0)))
    assert not np.array_equal(encode(a.observation(1)), encode(b.observation(1)))


@pytest.mark.parametrize("spec", DIGGER_SPECS, ids=lambda s: f"{s.players}p-{s.crates}")
def test_digger_tensor_of_the_digger_holds_no_time(spec):
    from goldfields.clocks import TimeModel
    from goldfields.research.tables import DiggerSpec

    jittered = DiggerSpec(spec.players, spec.crates, time_model=TimeModel(jitter=0.3))
    clock = DIGGER.slices["clock"]
    checked = 0
    for match in random_matches(jittered, range(12), max_steps=150):
        state = match.state
        digger = state.current_player
        mine = encode(state.observation(digger))
        assert not mine[clock].any()
        # The engine's sample for the digger puts a reckoned time in place of the true one.
        sample = state.resample(digger, random.Random(0))
        assert np.array_equal(encode(sample.observation(digger)), mine)
        for seat in range(spec.players):
            if seat != digger:
                theirs = encode(state.observation(seat))
                assert theirs[clock][0] == 1.0
                checked += 1
    assert checked > 0


def test_spectator_and_public_observations_encode():
    for spec in DIGGING_SPECS[:1] + DIGGER_SPECS[:1]:
        for match in random_matches(spec, range(2)):
            v = encode(match.state.observation(None))
            assert v.min() >= 0.0 and v.max() <= 1.0
