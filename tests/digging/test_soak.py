"""Random games played to the end, every step checked by the referee (checks.py).

The full soak (10,000 games, 2, 3 and 4 players, individual and partnership,
some with rule options on) is marked ``soak``: run it with
``pytest -m soak tests/digging`` (it is split in chunks, so ``-n 2`` helps).
A small version runs in the default suite.
"""

from __future__ import annotations

import random

import pytest

from goldfields.digging import DiggingOptions, DiggingState

from .checks import play_random_game, replay_record
from .scenario import TABLES, card_census, expected_census

SOAK_GAMES = 10_000
CHUNK = 500


def options_for(game: int) -> DiggingOptions:
    """Mostly the rulings as decided; every fifth game with random rule options."""
    if game % 5:
        return DiggingOptions()
    rng = random.Random(game)
    return DiggingOptions(
        target_exceeded=rng.random() < 0.5,
        full_deck=rng.random() < 0.5,
        no_chests_during_fight=rng.random() < 0.5,
        close_needs_chest=rng.random() < 0.5,
    )


def run_games(first: int, count: int) -> dict[str, int]:
    stats = {"games": 0, "hands": 0, "moves": 0}
    for game in range(first, first + count):
        players, partnership = TABLES[game % len(TABLES)]
        state = play_random_game(game, players, partnership, options_for(game))
        assert state.is_terminal() and state.winners()
        assert card_census(state) == expected_census(state)
        data = state.to_json()
        assert DiggingState.from_json(data).to_json() == data
        if game % 50 == 0:
            assert replay_record(state.record()).to_json() == data
        stats["games"] += 1
        stats["hands"] += len(state.history)
        stats["moves"] += sum(len(h["moves"]) for h in state.record()["hands"])
    return stats


def test_soak_small():
    stats = run_games(1_000_000, 300)
    assert stats["games"] == 300
    assert stats["hands"] >= 300


@pytest.mark.soak
@pytest.mark.parametrize("chunk", range(SOAK_GAMES // CHUNK))
def test_soak(chunk: int):
    stats = run_games(chunk * CHUNK, CHUNK)
    assert stats["games"] == CHUNK
