"""The Digger bots: legal actions, the hidden hourglass, determinism."""

from __future__ import annotations

import random

import pytest

from goldfields.bots import make_bot
from goldfields.clocks import DEFAULT_TIME_MODEL, TimeModel
from goldfields.core.game import GameState
from goldfields.digger import new_game
from goldfields.digger.options import DiggerOptions

SPECS = ["random", "heuristic", "search:iterations=8", "ismcts:iterations=15"]


def digger_positions(players: int, count: int, seed: int) -> list[GameState]:
    """Decision positions of random games with a jittered clock (the digger has a choice)."""
    rng = random.Random(seed)
    model = TimeModel(jitter=0.2)
    out: list[GameState] = []
    while len(out) < count:
        state = new_game(players, "black" if rng.random() < 0.5 else "white")
        while not state.is_terminal() and len(out) < count:
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if len(legal) > 1 and rng.random() < 0.15:
                out.append(state.clone())
            # Mostly sensible play (stop before the sand runs out), so games end.
            action = 1 if (state.elapsed > 20 and 1 in legal) else rng.choice(legal)
            state.apply_action(action, model.stamp(state, action, rng))
    return out


@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("spec", SPECS)
def test_digger_bots_return_legal_actions(spec: str, players: int) -> None:
    bot = make_bot(spec, "digger")
    for i, state in enumerate(digger_positions(players, 25, seed=players)):
        action = bot.act(state.view(state.current_player), random.Random(i))
        assert action in state.legal_actions(), (spec, state.action_to_string(action))


@pytest.mark.parametrize("spec", ["random", "heuristic", "search:iterations=10", "ismcts:iterations=30"])
def test_the_digger_cannot_see_the_hourglass(spec: str) -> None:
    """Two states that differ only in the true time give the digger the same decision."""
    bot = make_bot(spec, "digger")
    checked = 0
    for i, state in enumerate(digger_positions(3, 30, seed=21)):
        if not state.started:
            continue
        other = state.clone()
        other.elapsed = min(state.limit, DEFAULT_TIME_MODEL.estimate(state.requests(), state.haul_size) + 3.7)
        seat = state.current_player
        if other.elapsed == state.elapsed:
            continue
        assert other.observation(seat) == state.observation(seat)
        assert bot.act(state.view(seat), random.Random(i)) == bot.act(other.view(seat), random.Random(i))
        checked += 1
    assert checked >= 10


def test_heuristic_steals_from_the_leader() -> None:
    state = new_game(3)
    state.crates[1] = [0, 0, 0, 0, 5]  # seat 1 leads with five white gems
    state.crates[2] = [0, 0, 0, 0, 1]
    state.apply_action(0, at=0)
    state.apply_chance("KWBBY")  # black and white each show once: a white can be stolen
    bot = make_bot("heuristic", "digger")
    action = bot.act(state.view(0), random.Random(0))
    assert state.action_to_string(action) == "steal W 1"


def test_heuristic_rolls_early_and_stops_when_the_sand_is_nearly_out() -> None:
    bot = make_bot("heuristic", "digger")
    state = new_game(3)
    state.apply_action(0, at=0)
    state.apply_chance("YRGWK")
    for t, move in enumerate(["take Y", "take R", "take G", "take W"], start=1):
        state.apply_action(state.string_to_action(move), at=float(t))
    decisions = []
    for k in range(12):  # rolls that give nothing: two blues, two yellows
        decisions.append(bot.act(state.view(0), random.Random(0)))
        state.apply_action(0, at=4.0 + 2.0 * (k + 1))
        state.apply_chance("BBYYK")
    assert decisions[0] == 0  # 4 s in, with a haul worth 15: roll on
    assert decisions[-1] == 1  # 26 s in: stop


def _first_stop(options: DiggerOptions) -> float:
    """When the heuristic first stops in one unlucky turn: four gems, then rolls that give nothing."""
    bot = make_bot("heuristic", "digger")
    state = new_game(3, options=options)
    state.apply_action(0, at=0)
    state.apply_chance("YRGWK")
    for t, move in enumerate(["take Y", "take R", "take G", "take W"], start=1):
        state.apply_action(state.string_to_action(move), at=float(t))
    at = 4.0
    while bot.act(state.view(0), random.Random(0)) == 0:
        at += 2.0
        state.apply_action(0, at=at)
        state.apply_chance("BBYYK")
    return at


def test_the_heuristic_plans_with_the_tables_hourglass_not_thirty_seconds() -> None:
    # The same unlucky turn at a 15 s table and at the usual 30 s: the bot stops far sooner at
    # the short one (it planned with 30 s everywhere, and at 20 s lost nearly every haul).
    assert _first_stop(DiggerOptions(time_limit=15.0)) < 15.0 <= _first_stop(DiggerOptions(time_limit=30.0))


def _steal_with_a_haul(options: DiggerOptions) -> str:
    """The heuristic's choice when a white can be stolen from the leader, with a haul of four gems."""
    state = new_game(3, options=options)
    state.crates[1] = [0, 0, 0, 0, 5]
    state.apply_action(0, at=0)
    state.apply_chance("YRGWK")
    for t, move in enumerate(["take Y", "take R", "take G", "take W"], start=1):
        state.apply_action(state.string_to_action(move), at=float(t))
    state.apply_action(0, at=6.0)
    state.apply_chance("KWBBB")  # black and white once each: steal W 1, or roll on, or stop
    return state.action_to_string(make_bot("heuristic", "digger").act(state.view(0), random.Random(0)))


def test_the_heuristic_weighs_the_knock_before_it_steals() -> None:
    # G5 option: a steal that knocks a pile loses the haul. At even odds four gems are not worth one.
    assert _steal_with_a_haul(DiggerOptions()) == "steal W 1"
    assert _steal_with_a_haul(DiggerOptions(knock_probability=0.5)) != "steal W 1"


def test_the_heuristic_counts_the_tables_stacking_time() -> None:
    # G3 option: a stop is stamped when called, then each token takes stack_seconds. The same
    # unlucky turn: with slow stacking the bot stops sooner than with none.
    assert _first_stop(DiggerOptions(stack_seconds=3.0)) < _first_stop(DiggerOptions())


def test_heuristics_finish_a_game_at_a_short_hourglass() -> None:
    from goldfields.play.driver import play_game

    bots = [make_bot("heuristic", "digger") for _ in range(3)]
    final = play_game(lambda: new_game(3, options=DiggerOptions(time_limit=20.0)), bots, random.Random(1),
                      clock=TimeModel(jitter=0.2), max_steps=20_000)
    assert final.is_terminal()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_search_value_model_is_a_win_probability(players: int) -> None:
    from goldfields.bots.digger_search import evaluate

    for state in digger_positions(players, 10, seed=10 + players):
        values = evaluate(state)
        assert len(values) == players
        assert all(0.0 < v < 1.0 for v in values)
        assert sum(values) == pytest.approx(1.0)


def test_search_value_model_favours_points_and_the_next_digger() -> None:
    from goldfields.bots.digger_search import evaluate
    from goldfields.digger.dice import BLUE

    state = new_game(3)
    state.crates[0] = [0, 0, 0, 0, 3]  # seat 0 ahead by 18 points on the white side
    ahead = evaluate(state)
    assert ahead[0] == max(ahead)
    assert ahead[1] > ahead[2], "level on points, the seat that digs sooner is better placed"
    # The same lead is worth more as the centre empties (the end of the game nears).
    state.centre[BLUE] = 1
    for c in range(len(state.centre)):
        if c != BLUE:
            state.centre[c] = 0
    assert evaluate(state)[0] > ahead[0]
