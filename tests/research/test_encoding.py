"""One encoding per game, built from the seat's observation only: nothing hidden leaks."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy")

from goldfields.clocks import TimeModel  # noqa: E402
from goldfields.research.encoding import DIGGER, DIGGING, encode, encode_state  # noqa: E402
from goldfields.research.tables import DiggerSpec, DiggingSpec, Match  # noqa: E402

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


# The fast path: encode_state reads the engine's state directly and must give the observation
# path's vector bit for bit (which is what keeps it from leaking: the observation path reads
# nothing but what the seat may know).
_ALL_TABLES = [
    DiggingSpec(2, single_hand=True),
    *DIGGING_SPECS,
    DiggingSpec(3, options={"full_deck": True}),
    DiggingSpec(2, options={"hand_size": 3}),
    DiggingSpec(4, options={"hand_size": 10}),
    *DIGGER_SPECS,
    DiggerSpec(4, "black", options={"knock_probability": 0.5, "time_limit": 20}),
    DiggerSpec(3, time_model=TimeModel(jitter=0.3)),
    DiggerSpec(3, options={"crate_values": {"white": {"Y": 1, "R": 3, "G": 5, "W": 9}}}),
]


def _walk(spec, seed, steps):
    """Every position of a random game (uniformly random decisions) up to ``steps`` decisions."""
    rng = random.Random(seed)
    match = Match(spec, rng)
    yield match.state
    for _ in range(steps):
        if match.over:
            return
        legal = match.state.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
        yield match.state


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=st.sampled_from(range(len(_ALL_TABLES))), seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 600))
def test_the_state_encoder_equals_the_observation_encoder(table, seed, steps):
    spec = _ALL_TABLES[table]
    for state in _walk(spec, seed, steps):
        for seat in (None, *range(spec.players)):
            reference = encode(state.observation(seat))
            fast = encode_state(state, seat)
            assert fast.dtype == np.float32 and fast.shape == reference.shape
            assert np.array_equal(fast, reference), (spec, seed, seat, np.flatnonzero(fast != reference))


@pytest.mark.parametrize("spec", [DIGGING_SPECS[0], DIGGER_SPECS[0]], ids=["digging", "digger"])
def test_the_state_encoder_fills_out_in_place(spec):
    enc = DIGGING if spec.name == "digging" else DIGGER
    batch = np.full((3, enc.size), 7.0, np.float32)
    strided = np.full((enc.size, 2), 7.0, np.float32)[:, 0]  # not contiguous: filled by a copy
    for match in random_matches(spec, range(3)):
        seat = match.state.current_player
        reference = encode(match.state.observation(seat))
        enc.encode_state(match.state, seat, out=batch[1])  # a row of a batch: written in place
        assert np.array_equal(batch[1], reference)
        assert enc.encode_state(match.state, seat, out=strided) is strided
        assert np.array_equal(strided, reference)
    assert (batch[0] == 7.0).all() and (batch[2] == 7.0).all()


@pytest.mark.parametrize("spec", DIGGING_SPECS, ids=lambda s: f"{s.players}p-{s.is_partnership}")
def test_digging_state_encoder_is_blind_to_hidden_cards(spec):
    for match in random_matches(spec, range(6)):
        for seat in range(spec.players):
            mine = encode_state(match.state, seat)
            for k in range(2):
                assert np.array_equal(encode_state(match.state.resample(seat, random.Random(k)), seat), mine)


# The pile slice is scaled by the largest pile the table's deck allows. The shipped policy networks
# (goldfields/bots/models/*.npz) read this encoding at the standard tables, where that pile is 36:
# their inputs must not move by a bit.
_STANDARD_DIGESTS = {
    (2, False): "0d9788873718621e9199089b23c8cea391220b05a272c6fb190a3e47e56bfb10",
    (3, False): "e8c794334af2402bc6bdb2745370eab6a0e521e972edbcaa52394343cf6c5e36",
    (4, True): "10812d060e405bf38592f4bcc4bdef92cc16bd2a286878c011c9910de46d7315",
    (4, False): "af57baf2f4375b0fc72c4c63fd505381a4c25515f4b164891c29b9f970f5db68",
}


def _engine_positions(spec, seed, steps=60):
    """The deal and the first ``steps`` positions of a random hand, through the engine alone."""
    rng = random.Random(seed)
    state = spec.new_state()
    state.apply_chance(state.sample_chance(rng))
    yield state
    for _ in range(steps):
        if state.is_terminal() or state.is_chance_node():
            return
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        yield state


@pytest.mark.parametrize("table", sorted(_STANDARD_DIGESTS), ids=lambda t: f"{t[0]}p-{t[1]}")
def test_the_encoding_of_the_standard_tables_is_what_the_shipped_networks_were_trained_on(table):
    import hashlib

    players, partnership = table
    spec = DiggingSpec(players, partnership=partnership)
    pile = DIGGING.slices["pile"].start
    digest = hashlib.sha256()
    for seed in range(3):
        for state in _engine_positions(spec, seed):
            for seat in (None, *range(players)):
                vector = encode(state.observation(seat))
                assert vector[pile] == np.float32(len(state.pile) / 36.0)
                digest.update(vector.astype("<f4").tobytes())
    # Digests of these positions taken before the pile's scale came from the rules.
    assert digest.hexdigest() == _STANDARD_DIGESTS[table]


@pytest.mark.parametrize("players", [2, 3])  # at 4 players, full_deck changes nothing and is refused
def test_the_pile_slice_stays_within_one_with_the_full_deck(players):
    from goldfields.digging.options import DiggingOptions

    spec = DiggingSpec(players, partnership=False, options=DiggingOptions(full_deck=True))
    pile = DIGGING.slices["pile"].start
    state = next(_engine_positions(spec, 0))
    # Just dealt: the pile is as large as the table allows, and that reads 1.
    for vector in (encode(state.observation(0)), encode_state(state, 0)):
        assert vector[pile] == 1.0
        assert vector.min() >= 0.0 and vector.max() <= 1.0


@pytest.mark.parametrize(("players", "hand"), [(2, 1), (4, 12)])
def test_the_pile_slice_stays_within_one_whatever_the_hand_size(players, hand):
    from goldfields.digging.options import DiggingOptions

    pile = DIGGING.slices["pile"].start
    # The standard table first, in the same process: its deck is the same, and its cached pile
    # scale must not be taken for this one's.
    for options in (None, DiggingOptions(hand_size=hand)):
        state = next(_engine_positions(DiggingSpec(players, options=options), 0))
        for vector in (encode(state.observation(0)), encode_state(state, 0)):
            assert vector[pile] == 1.0  # just dealt: the largest pile this table allows
            assert vector.min() >= 0.0 and vector.max() <= 1.0


def test_digger_crate_values_above_six_stay_apart_in_the_tensor():
    """G1 takes crate cards of any whole values: a 9 must not read as the standard cards' top 6."""
    spec = DiggerSpec(2, options={"crate_values": {"white": {"Y": 2, "R": 3, "G": 6, "W": 9}}})
    state = Match(spec, random.Random(0)).state
    row = DIGGER.slices["values"].start  # the observer's own crate, relative seat 0
    for vector in (encode(state.observation(0)), encode_state(state, 0)):
        assert list(vector[row:row + 4]) == pytest.approx([2 / 9, 3 / 9, 6 / 9, 1.0])
        assert vector.min() >= 0.0 and vector.max() <= 1.0
    # The standard cards read as before: divided by 6.
    standard = Match(DiggerSpec(2), random.Random(0)).state
    assert encode_state(standard, 0)[row + 3] == 1.0 and encode_state(standard, 0)[row] == pytest.approx(2 / 6)
