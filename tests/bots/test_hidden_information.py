"""Bots see only their seat's view: hidden cards cannot change a decision."""

from __future__ import annotations

import random

import pytest

from goldfields.bots import make_bot
from goldfields.bots.analysis import judge, searcher_for
from goldfields.bots.base import Budget

TABLES = [(2, False), (3, False), (4, False), (4, True)]



@pytest.mark.parametrize(("players", "partnership"), TABLES)
@pytest.mark.parametrize("spec", ["random", "heuristic", "ismcts:iterations=60", "net", "net:temperature=1",
                                  "ismcts:iterations=60,net=default", "ismcts:iterations=60,net=default,deals=4",
                                  "ismcts:iterations=60,net=default,others=observer"])
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


@pytest.mark.parametrize(("players", "partnership"), [(2, False), (4, True)])
def test_the_analysis_judges_a_decision_by_what_the_seat_could_see(players: int, partnership: bool,
                                                                  positions) -> None:  # fmt: skip
    # goldfields analyze reads a finished record, which holds every hand: the judgement of a move must
    # still be the same whatever the cards the seat could not see were.
    searcher = searcher_for("ismcts:iterations=60", "digging")
    checked = 0
    for i, state in enumerate(positions(players, partnership, 8, seed=7 + players)):
        seat = state.current_player
        other = state.resample(seat, random.Random(2000 + i))
        if other.to_json()["hands"] == state.to_json()["hands"] and other.to_json()["pile"] == state.to_json()["pile"]:
            continue
        played = state.legal_actions()[-1]
        a = judge(searcher, state.view(seat), played, random.Random(i), Budget(iterations=60))
        b = judge(searcher, other.view(seat), played, random.Random(i), Budget(iterations=60))
        assert a == b
        checked += 1
    assert checked >= 5
