"""The observation's derived facts (D6, D8, teams) agree with what the engine then does."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from goldfields.digging import DiggingState


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), table=st.sampled_from([(2, False), (3, False), (4, False), (4, True)]))
def test_observed_fight_leaders_and_mine_points_are_what_the_engine_decides(seed: int, table: tuple) -> None:
    players, partnership = table
    rng = random.Random(seed)
    state = DiggingState(players, partnership)
    assert state.observation(None)["teams"] == [s % 2 if partnership else s for s in range(players)]
    for _ in range(3000):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
            continue
        before = state.observation(None)
        legal = state.legal_actions()
        events = state.apply_action(legal[rng.randrange(len(legal))])
        for ev in events:
            fight = before["fight"]
            if ev.kind == "fight_resolved" and fight is not None and fight["bandits"] == ev.public["bandits"]:
                # Decided with the bandits the observation showed: as it said.
                assert ev.public["owner"] == fight["leader"], (fight, ev.public)
                assert ev.public["winner"] == fight["leading"]
            if ev.kind == "hand_scored":
                scored = {m["mine"]: m["points"] for m in ev.public["mines"]}
                seen = {m["name"]: m["points_if_closed"] for m in before["mines"] if m["closed"]}
                # Every closed mine scores what the observation said it would (a hand may end
                # with the last move closing one more mine, so compare what was closed before).
                assert all(scored[name] == points for name, points in seen.items()), (scored, seen)
        fight = state.observation(None)["fight"]
        if fight is not None:
            sides = fight["sides"]
            assert sides[str(fight["owner"])] == "defence" and sides[str(fight["attacker"])] == "attack"


def test_D6_a_fought_over_mine_shows_the_points_it_keeps_if_closed_now() -> None:
    """Closing the fought-over mine discards its most recent chest (D6): the observation
    shows what the mine would score then, and closing it scores exactly that."""
    from .scenario import deal, mine, play

    state = deal({0: "MG G GG", 1: "B5", 2: "X"})
    play(state, "0: play MG 0", "1: draw", "2: draw", "3: draw", "0: play G m1", "1: draw", "2: draw",
         "3: draw", "0: play GG m1")
    assert mine(state, "m1")["points_if_closed"] == 9  # G then GG: 3 + 6
    play(state, "1: play B5 m1")  # a fight over m1
    assert mine(state, "m1")["points_if_closed"] == 3  # closed now, the GG would go
    play(state, "2: play X m1")  # closed during the fight
    assert mine(state, "m1")["closed"] and mine(state, "m1")["chests"] == ["G"]
    assert state.hand_points()[0] == 3
