"""Every refusal of a Digger move in play names its rule and carries a reason with its
values, so that a client can put it in the player's language."""

from __future__ import annotations

import random

import pytest

from goldfields.core.game import CHANCE, RuleError
from goldfields.digger import TIMEOUT, new_game
from goldfields.digger.actions import NUM_ACTIONS


def test_every_refusal_of_a_move_in_play_has_a_reason() -> None:
    rng = random.Random(3)
    checked = 0
    for _game in range(6):
        state = new_game(3)
        clock = 0.0
        for _ in range(60):
            if state.is_terminal():
                break
            if state.current_player == CHANCE:
                state.apply_chance(state.sample_chance(rng))
                continue
            legal = set(state.legal_actions())
            # The clock's timeout is not a player's move: the server alone applies it.
            for action in sorted(set(range(NUM_ACTIONS)) - legal - {TIMEOUT}):
                with pytest.raises(RuleError) as caught:
                    state.apply_action(action)
                err = caught.value
                assert err.rule.startswith("G") and err.reason and err.params["move"], str(err)
                checked += 1
            clock = clock + 0.1 if state.started else 0.0  # seconds since the turn's first roll
            state.apply_action(rng.choice(sorted(legal)), at=clock)
    assert checked > 100
