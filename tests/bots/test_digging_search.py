"""The ISMCTS rollout policies build moves without listing legal actions: check them against the engine."""

from __future__ import annotations

import random

import pytest

from goldfields.bots.digging_search import evaluate, fast_move, smart_move
from goldfields.digging import new_game


@pytest.mark.parametrize(("players", "partnership"), [(2, False), (3, False), (4, False), (4, True)])
def test_rollout_moves_are_legal_and_values_in_range(players: int, partnership: bool) -> None:
    checked = 0
    for seed in range(6):
        state = new_game(players, partnership, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(rng))
                continue
            seat = state.current_player
            legal = state.legal_actions()
            for policy in (fast_move, smart_move):
                for _ in range(2):
                    action = policy(state, seat, rng.random)
                    assert action is None or action in legal, (policy.__name__, state.action_to_string(action))
                    checked += 1
            values = evaluate(state)
            assert len(values) == players and all(0.0 <= v <= 1.0 for v in values)
            state.apply_action(rng.choice(legal))
        assert evaluate(state) == state.returns()
    assert checked > 1000, checked
