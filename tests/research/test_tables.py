"""The shared driving logic: no optional library needed."""

from __future__ import annotations

import random

import pytest

from goldfields.clocks import TimeModel
from goldfields.core.game import RuleError
from goldfields.digger.actions import TIMEOUT
from goldfields.research.tables import DiggerSpec, DiggingSpec, Match, side_returns


def test_side_returns_partnership_and_ties():
    teams = ((0, 2), (1, 3))
    assert side_returns([3, 1, 2, 1], teams) == [1.0, 0.0, 1.0, 0.0]
    assert side_returns([1, 2, 1, 0], teams) == [0.5, 0.5, 0.5, 0.5]
    assert side_returns([4, 4, 1], ((0,), (1,), (2,))) == [0.5, 0.5, 0.0]


@pytest.mark.parametrize(
    "spec",
    [
        DiggingSpec(2, single_hand=True),
        DiggingSpec(4, single_hand=True),
        DiggingSpec(3),
        DiggerSpec(3, max_turns=10),
        DiggerSpec(2, time_model=TimeModel(jitter=0.2)),
    ],
)
def test_random_games_end_with_constant_sum_returns(spec):
    for seed in range(3):
        rng = random.Random(seed)
        match = Match(spec, rng)
        while not match.over:
            legal = match.state.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
        returns = match.returns()
        assert sum(returns) == pytest.approx(spec.utility_sum)
        assert all(0.0 <= r <= 1.0 for r in returns)


def test_single_hand_ends_after_one_deal():
    rng = random.Random(4)
    match = Match(DiggingSpec(2, single_hand=True), rng)
    while not match.over:
        legal = match.state.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
    assert match.deals == 1
    assert len(match.state.observation(None)["history"]) == 1


def test_max_moves_and_max_turns_truncate():
    rng = random.Random(1)
    match = Match(DiggingSpec(4, max_moves=25), rng)
    while not match.over:
        match.apply(match.state.legal_actions()[0] if rng.random() < 0.5 else match.state.legal_actions()[-1])
    assert match.truncated and match.moves == 25
    assert sum(match.returns()) == pytest.approx(2.0)

    match = Match(DiggerSpec(3, max_turns=4), random.Random(2))
    while not match.over:
        match.apply(match.state.legal_actions()[0])  # always roll: every turn runs out of time
    assert match.truncated and match.state.turn == 4


@pytest.mark.parametrize("hand", [0, 1, 12])
def test_natural_bound_of_one_individual_hand_holds(hand):
    spec = DiggingSpec(2, single_hand=True, options={"hand_size": hand} if hand else None)
    bound = spec.max_game_length()
    assert bound == spec.natural_bound() == (48 - 2 * (hand or 6)) + 48 + 2  # every card drawn or played, a last round
    for seed in range(20):
        rng = random.Random(seed)
        match = Match(spec, rng)
        while not match.over:
            legal = match.state.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
        assert match.moves <= bound


@pytest.mark.parametrize("spec", [DiggingSpec(2), DiggerSpec(3)], ids=lambda s: s.name)
def test_every_spec_stamps_a_decision(spec):
    """Callers (the benchmark, the OpenSpiel games) stamp through any spec without
    asking which game needs time: an untimed game's stamp is None."""
    match = Match(spec, random.Random(0))
    action = match.state.legal_actions()[0]
    at = spec.stamp(match.state, action, random.Random(1))
    assert (at is None) == (spec.clock is None)


def test_environments_give_a_timed_game_the_jittered_clock_and_an_untimed_one_none():
    from goldfields.research.tables import ENV_JITTER, make_env_spec

    timed = make_env_spec(DiggerSpec.name, players=3)
    assert isinstance(timed, DiggerSpec) and timed.model.jitter == ENV_JITTER
    assert make_env_spec(DiggingSpec.name, players=2).clock is None


def test_turns_a_knock_ends_count_toward_max_turns():
    # G5: a knock is a chance step that ends the turn; the cap counts those turns too.
    match = Match(DiggerSpec(2, "black", max_turns=12, options={"knock_probability": 1.0}), random.Random(4))
    knocks = 0
    while not match.over:
        legal = match.state.legal_actions()
        by_verb = {match.state.action_to_string(a).split()[0]: a for a in legal}
        knocks += "steal" in by_verb
        # Take and bank gems, so that there are some to steal.
        match.apply(by_verb.get("steal", by_verb.get("take", by_verb.get("stop", legal[0]))))
    assert knocks and match.truncated and match.state.turn == 12


def test_a_digging_spec_claims_a_partnership_only_when_it_plays_one():
    for players in (2, 3):
        spec = DiggingSpec(players)  # partnership defaults to True, which applies to 4 players only
        assert spec.partnership is False and spec.is_partnership is False
        assert "partnership=False" in repr(spec)
        assert spec == DiggingSpec(players, partnership=False) and spec.utility_sum == 1.0
    assert DiggingSpec(4).partnership is True and DiggingSpec(4).is_partnership is True
    assert DiggingSpec(4, partnership=False).partnership is False
    assert DiggingSpec(4).utility_sum == 2.0


def _random_match(spec: DiggingSpec, seed: int) -> tuple[Match, list[int]]:
    """A match dealt from ``seed``, its moves drawn from a generator of their own (so that a cap
    changes nothing before it), and the moves after which a hand ended."""
    match, moves = Match(spec, random.Random(seed)), random.Random(seed + 1000)
    ends = []
    while not match.over:
        deals = match.deals
        match.apply(moves.choice(match.state.legal_actions()))
        if match.deals != deals:
            ends.append(match.moves)
    return match, ends


def test_a_game_cut_where_a_hand_ended_is_won_on_its_totals_alone():
    """Cut between hands, the hand just scored is in the totals already, though its mines (and
    so its points) still show: counting them again once gave seat 1 the win at 21 to 19."""
    _, ends = _random_match(DiggingSpec(2), 2)
    assert len(ends) >= 2
    flipped = 0
    for cap in ends:
        match, _ = _random_match(DiggingSpec(2, max_moves=cap), 2)
        assert match.truncated and match.state.is_chance_node()
        obs = match.state.observation(None)
        assert match.returns() == side_returns(obs["totals"], ((0,), (1,)))
        twice = [t + p for t, p in zip(obs["totals"], obs["points"], strict=True)]
        flipped += side_returns(twice, ((0,), (1,))) != match.returns()
    assert flipped  # this deal has a cut where counting the hand twice gives the other seat the win


def test_a_refused_move_leaves_a_timed_game_as_it_was_its_clock_too():
    """The clock's jitter is drawn when a move is stamped: a refused move must not draw it, or
    the same seed would give another game after any mistake."""

    def play(refuse_at: int | None) -> list[object]:
        spec = DiggerSpec(3, max_turns=6, time_model=TimeModel(jitter=0.2))
        match, moves = Match(spec, random.Random(7)), random.Random(8)
        while not match.over:
            legal = match.state.legal_actions()
            if match.moves == refuse_at:
                illegal = next(a for a in range(TIMEOUT) if a not in legal)  # (the timeout is the clock's)
                with pytest.raises(RuleError):
                    match.apply(illegal)
            match.apply(moves.choice(legal))
        return [match.state.observation(None)["elapsed"], match.state.record()]

    assert play(None) == play(3) == play(10)
