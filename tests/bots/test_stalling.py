"""D2 lets partners pass cards to each other for as long as the pile lasts: a hand need not end.

Four network bots did just that in most partnership games. The engine counts
the passes in a row (public: everyone sees that a seat passed, not what), and
after a whole round of them every bot draws or plays.
"""

from __future__ import annotations

import random

import pytest
from tests.digging.scenario import deal, play

from goldfields.bots import make_bot
from goldfields.digging import DiggingState, new_game
from goldfields.digging import actions as A

ROUND_OF_PASSES = ("0: pass G", "1: pass C", "2: pass S", "3: pass X")


def _stalled() -> DiggingState:
    state = deal({0: "G G G G G G", 1: "C C C C C C", 2: "S S S S S S", 3: "X X X X X X"}, dealer=3)
    play(state, *ROUND_OF_PASSES)
    return state


def test_the_engine_counts_passes_in_a_row_for_every_seat_to_see() -> None:
    state = _stalled()
    assert [state.observation(s)["passes_in_a_row"] for s in (0, 1, 2, 3, None)] == [4] * 5
    again = DiggingState.from_json(state.to_json())
    assert again.observation(0) == state.observation(0)
    old = state.to_json()
    del old["passes_in_a_row"]  # a state saved before the count existed
    assert DiggingState.from_json(old).observation(0)["passes_in_a_row"] == 0
    play(state, "0: draw")
    assert state.observation(1)["passes_in_a_row"] == 0
    play(state, "1: pass C")
    assert state.observation(1)["passes_in_a_row"] == 1


@pytest.mark.parametrize("spec", ["net", "ismcts:iterations=40", "ismcts:iterations=40,net=default"])
def test_after_a_whole_round_of_passes_a_bot_draws_or_plays(spec: str) -> None:
    state = _stalled()
    assert any(A.DECODED[a][0] == A.K_PASS for a in state.legal_actions())  # still legal (D2)
    bot = make_bot(spec, "digging")
    for seed in range(3):
        action = bot.act(state.view(0), random.Random(seed))
        assert A.DECODED[action][0] != A.K_PASS, state.action_to_string(action)


def test_four_network_bots_finish_their_partnership_games() -> None:
    # Seeds on which four network bots passed for ever before the count existed. A stalled table
    # never ends; a slow one does: four network bots mostly draw and bank little, and the shipped
    # network's games on these seeds take 421 to 1,541 moves.
    for seed in (0, 1, 2, 3):
        rng = random.Random(seed)
        state = new_game(4, True, rng=rng)
        bots = [make_bot("net", "digging") for _ in range(4)]
        moves = 0
        while not state.is_terminal() and moves < 20_000:
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(rng))
                continue
            state.apply_action(bots[state.current_player].act(state.view(state.current_player), rng))
            moves += 1
        assert state.is_terminal(), f"seed {seed}: still going after {moves} moves"


def test_a_guided_self_play_game_of_the_partnership_ends() -> None:
    from goldfields.learn.selfplay import SelfPlay

    examples = SelfPlay(4, True, iterations=100, net="default", max_decisions=3000).game(100)  # passed for ever
    assert 0 < len(examples) < 3000
    with pytest.raises(RuntimeError, match="still going after 50 decisions"):
        SelfPlay(4, True, iterations=20, max_decisions=50).game(100)
