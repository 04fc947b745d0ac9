"""Every bot returns a legal action, in every Digging table, from many random positions."""

from __future__ import annotations

import random

import pytest

from goldfields.bots import make_bot

TABLES = [(2, False), (3, False), (4, False), (4, True)]


SPECS = [
    "random",
    "heuristic",
    "heuristic:samples=3",
    "ismcts:iterations=40",
    "ismcts:iterations=25,policy=fast,reuse=1",
]


@pytest.mark.parametrize(("players", "partnership"), TABLES)
@pytest.mark.parametrize("spec", SPECS)
def test_bots_return_legal_actions(spec: str, players: int, partnership: bool, positions) -> None:
    bot = make_bot(spec, "digging")
    count = 40 if spec.startswith("ismcts") else 150
    for i, state in enumerate(positions(players, partnership, count, seed=players * 10 + partnership)):
        seat = state.current_player
        action = bot.act(state.view(seat), random.Random(i))
        assert action in state.legal_actions(), (spec, state.action_to_string(action))
