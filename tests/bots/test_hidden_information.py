"""Bots see only their seat's view: hidden cards cannot change a decision."""

from __future__ import annotations

import random

import pytest

from goldfields.bots import make_bot

TABLES = [(2, False), (3, False), (4, False), (4, True)]



@pytest.mark.parametrize(("players", "partnership"), TABLES)
@pytest.mark.parametrize("spec", ["random", "heuristic", "ismcts:iterations=60"])
def test_decision_ignores_cards_the_seat_cannot_see(spec: str, players: int, partnership: bool, positions) -> None:
    bot = make_bot(spec, "digging")
    checked = 0
    for i, state in enumerate(positions(players, partnership, 12, seed=99 + players)):
        seat = state.current_player
        # Deal the cards this seat cannot see differently: another real game,
        # the same from this seat's chair.
        other = state.resample(seat, random.Random(1000 + i))
        if other.to_json()["hands"] == state.to_json()["hands"] and other.to_json()["pile"] == state.to_json()["pile"]:
            continue
        assert other.observation(seat) == state.observation(seat)
        a = bot.act(state.view(seat), random.Random(i))
        b = bot.act(other.view(seat), random.Random(i))
        assert a == b, (spec, state.action_to_string(a), state.action_to_string(b))
        checked += 1
    assert checked >= 8
