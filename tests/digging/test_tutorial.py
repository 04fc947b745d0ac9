"""The guided first game is a legal Digging hand that teaches what it says it teaches."""

from __future__ import annotations

from goldfields.core import registry
from goldfields.digging import tutorial


def test_the_tutorial_is_a_legal_hand_that_opens_lays_defends_passes_and_closes() -> None:
    definition = registry.get("digging")
    record = tutorial.record()
    report, status = definition.replay(record)
    assert status == 0, report
    kinds = [[e.kind for e in events] for _state, _move, events in definition.walk(record)]
    steps = tutorial.steps()
    assert len(kinds) == len(steps) + 1  # the deal, then one frame per step
    player = {s["text"]: kinds[s["frame"]] for s in steps if s["seat"] == tutorial.PLAYER}
    assert player["open"] == ["open"]
    assert player["chest"] == ["chest"]
    assert player["defend"] == ["fight_join", "fight_resolved"]
    assert player["pass"] == ["pass"]
    assert player["close"] == ["close"]
    assert ["fight_start"] in kinds and ["fight_join"] in kinds  # an opponent attacks; the partner joins
    state, _, _ = list(definition.walk(record))[-1]
    (mine,) = state.observation(0)["mines"]
    assert mine["owner"] == 0 and mine["closed"] and state.observation(0)["points"][0] > 0


def test_each_of_the_players_steps_is_legal_where_it_is_asked_for() -> None:
    definition = registry.get("digging")
    walk = definition.walk(tutorial.record())  # live: each position is read before the next step
    state, _, _ = next(walk)
    for step in tutorial.steps():
        if step["seat"] == tutorial.PLAYER:
            assert step["move"] in state.observation(0)["legal"], step
        state, _, _ = next(walk)
