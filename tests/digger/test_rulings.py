"""One or more tests per ruling of RULINGS.md (Digger, G1 to G6), named after it."""

from __future__ import annotations

import json
import random
from importlib import resources

import pytest

from goldfields.clocks import TimeModel
from goldfields.core.game import CHANCE, TERMINAL, RuleError
from goldfields.digger import (
    DEFAULT_TABLE,
    NUM_ACTIONS,
    ROLL,
    STOP,
    TIMEOUT,
    DiggerOptions,
    DiggerState,
    new_game,
    steal_action,
    take_action,
)
from goldfields.digger.actions import DECODED, K_STEAL
from goldfields.digger.dice import BLUE, FACES, GREEN, RED, WHITE, YELLOW
from goldfields.digger.replay import replay
from goldfields.play.simulate import simulate

from .scenario import accounted, play_moves, position, rejected


def legal_moves(state: DiggerState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


# ----------------------------------------------------------------------
# G1 Crate values
# ----------------------------------------------------------------------
def test_G1_white_side_gives_every_seat_the_same_values() -> None:
    state = new_game(4)
    assert state.values == [(0, 2, 3, 4, 6)] * 4


def test_G1_black_cards_are_the_rulings_each_summing_to_15() -> None:
    assert DEFAULT_TABLE.black == {
        "A": (0, 1, 3, 5, 6),
        "B": (0, 6, 1, 3, 5),
        "C": (0, 5, 6, 1, 3),
        "D": (0, 3, 5, 6, 1),
        "E": (0, 4, 4, 2, 5),
    }
    assert all(sum(values) == 15 for values in DEFAULT_TABLE.black.values())
    state = new_game(3, {"black": ["A", "C", "E"]})
    assert state.values == [DEFAULT_TABLE.black["A"], DEFAULT_TABLE.black["C"], DEFAULT_TABLE.black["E"]]
    assert new_game(2, "black").crate_spec == ("A", "B")


def test_G1_crate_values_are_shipped_as_data() -> None:
    data = json.loads(resources.files("goldfields.digger").joinpath("crates.json").read_text())
    assert data["white"] == {"Y": 2, "R": 3, "G": 4, "W": 6}
    assert {k: (0, v["Y"], v["R"], v["G"], v["W"]) for k, v in data["black"].items()} == DEFAULT_TABLE.black


def test_G1_crate_values_can_be_overridden() -> None:
    options = DiggerOptions(
        crate_values={"white": {"Y": 1, "R": 1, "G": 1, "W": 10}, "black": {"F": {"Y": 9, "R": 0, "G": 0, "W": 0}}}
    )
    state = position(2, crates={1: "WY"}, options=options)
    assert state.scores() == [0, 11]
    assert options.to_json() == {
        "crate_values": {"white": {"Y": 1, "R": 1, "G": 1, "W": 10}, "black": {"F": {"Y": 9, "R": 0, "G": 0, "W": 0}}}
    }
    black = new_game(2, {"black": ["F", "A"]}, options)
    assert black.values == [(0, 9, 0, 0, 0), DEFAULT_TABLE.black["A"]]
    # An override travels with the record.
    play_moves(black, "roll YBRRG @0", "take Y", "stop @1")
    report, status = replay(black.record())
    assert status == 0 and report["scores"] == [9, 0]


@pytest.mark.parametrize(
    ("crates", "message"),
    [
        ({"black": ["A", "A", "B"]}, "different"),
        ({"black": ["A", "Z", "B"]}, "unknown black crate card"),
        ({"black": ["A", "B"]}, "one card per seat"),
        ("grey", "white"),
    ],
)
def test_G1_the_black_side_needs_a_different_known_card_per_seat(crates: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        new_game(3, crates)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "override",
    [
        {"white": {"Y": 1, "R": 1, "G": 1}},
        {"white": {"Y": 1, "R": 1, "G": 1, "W": 1, "B": 3}},
        {"white": {"Y": -1, "R": 1, "G": 1, "W": 1}},
        {"black": {"AA": {"Y": 1, "R": 1, "G": 1, "W": 1}}},
        {"grey": {}},
    ],
)
def test_G1_bad_crate_overrides_are_refused(override: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        DiggerOptions(crate_values=override)


# ----------------------------------------------------------------------
# G2 A turn
# ----------------------------------------------------------------------
def test_G2_a_turn_begins_with_a_roll_of_all_five_dice() -> None:
    state = new_game(3)
    assert state.legal_actions() == [ROLL]
    rejected(state, "G2", action=STOP, at=0.0)
    rejected(state, "G2", move="take B")
    state.apply_action(ROLL)
    assert state.current_player == CHANCE
    with pytest.raises(RuleError, match=r"^G2: the dice: a roll shows exactly 5 faces"):
        state.apply_chance("RRGG")
    with pytest.raises(RuleError, match=r"^G2"):
        state.apply_chance("RRGGX")
    rejected(state, "G2", action=STOP, at=1.0)  # the dice are still rolling


def test_G2_only_unique_colours_give_tokens() -> None:
    state = play_moves(new_game(3), "roll RRGGB @0")
    assert legal_moves(state) == ["roll", "stop", "take B"]
    message = rejected(state, "G2", move="take R")
    assert "red does not show on exactly one die (the dice show RRGGB)" in message
    rejected(state, "G2", move="take G")
    rejected(state, "G2", move="take Y")
    # Black is on the dice only: it never gives a token.
    rejected(state, "G2", move="take K")


def test_G2_each_unique_die_gives_at_most_one_token() -> None:
    state = play_moves(new_game(3), "roll RRGBW @0", "take B")
    assert legal_moves(state) == ["roll", "stop", "take G", "take W"]
    assert "already given its one token" in rejected(state, "G2", move="take B")
    # A new roll gives new chances.
    play_moves(state, "roll BRRGG @2", "take B")
    assert state.haul == [2, 0, 0, 0, 0]


def test_G2_taking_is_optional_token_by_token() -> None:
    state = play_moves(new_game(3), "roll YRGBW @0", "take W", "roll KKKKK @2", "roll YRGBW @4", "stop @5")
    # Four unique colours were passed over on the first roll, all five on the third.
    assert state.crates[0] == [0, 0, 0, 0, 1]
    assert state.centre == [10, 10, 10, 10, 9]


def test_G2_a_single_black_lets_unique_gems_be_stolen_instead() -> None:
    state = play_moves(position(3, crates={1: "YR", 2: "Y"}), "roll KYRBB @0")
    assert legal_moves(state) == ["roll", "stop", "take Y", "take R", "steal Y 1", "steal Y 2", "steal R 1"]
    play_moves(state, "steal Y 2")
    # The yellow die has given its token: neither the centre nor another crate gives a second one.
    rejected(state, "G2", move="take Y")
    rejected(state, "G2", move="steal Y 1")
    play_moves(state, "take R")
    rejected(state, "G2", move="steal R 1")
    assert state.crates[2] == [0, 0, 0, 0, 0] and state.haul == [0, 1, 1, 0, 0]


def test_G2_stealing_needs_black_on_exactly_one_die() -> None:
    state = play_moves(position(3, crates={1: "Y"}), "roll KKYRG @0")
    assert "steal Y 1" not in legal_moves(state)
    assert "needs black on exactly one die" in rejected(state, "G2", move="steal Y 1")
    play_moves(state, "roll YRGBW @2")
    rejected(state, "G2", move="steal Y 1")


def test_G2_blue_is_never_stolen() -> None:
    state = play_moves(position(3), "roll KBYRR @0")
    assert legal_moves(state) == ["roll", "stop", "take B", "take Y"]
    rejected(state, "G2", move="steal B 1")
    with pytest.raises(RuleError, match=r"^G2: .*never stolen"):
        state.string_to_action("steal B 1")
    assert all(DECODED[a][1] != BLUE for a in range(NUM_ACTIONS) if DECODED[a][0] == K_STEAL)


def test_G2_only_an_opponents_crate_is_robbed() -> None:
    state = play_moves(position(3, crates={0: "Y", 1: "Y"}), "roll KYRRG @0")
    assert legal_moves(state) == ["roll", "stop", "take Y", "take G", "steal Y 1"]
    assert "not from their own" in rejected(state, "G2", move="steal Y 0")
    assert "no seat 4" in rejected(state, "G2", move="steal Y 4")


def test_G2_no_token_where_none_is_left() -> None:
    # Every yellow is in seat 1's crate: none in the centre, none in seat 2's crate.
    state = play_moves(position(3, crates={1: "YYYYYYYYYY"}), "roll KYRRG @0")
    assert legal_moves(state) == ["roll", "stop", "take G", "steal Y 1"]
    assert "no yellow token is left in the centre" in rejected(state, "G2", move="take Y")
    assert "seat 2's crate holds no yellow" in rejected(state, "G2", move="steal Y 2")


def test_G2_the_haul_is_at_risk_until_the_digger_stops() -> None:
    state = play_moves(position(3, crates={1: "G"}), "roll KYGBB @0", "take Y", "steal G 1")
    assert state.haul == [0, 1, 0, 1, 0]
    assert state.crates[0] == [0, 0, 0, 0, 0]
    assert state.scores() == [0, 0, 0]
    play_moves(state, "stop @2")
    assert state.crates[0] == [0, 1, 0, 1, 0] and state.scores() == [6, 0, 0]


# ----------------------------------------------------------------------
# G3 Stopping and the hourglass
# ----------------------------------------------------------------------
def test_G3_stopping_stacks_gems_into_the_crate_and_blue_into_the_box() -> None:
    state = play_moves(new_game(3), "roll BYRGG @0", "take B", "take Y", "take R", "roll BWKKK @3", "take B", "take W")
    events = state.apply_action(STOP, at=7.5)
    assert state.crates[0] == [0, 1, 1, 0, 1]
    assert state.box == 2 and state.centre[BLUE] == 8
    assert state.haul == [0, 0, 0, 0, 0]
    stop = events[0].view(None)
    assert stop == {"kind": "stop", "seat": 0, "banked": {"Y": 1, "R": 1, "G": 0, "W": 1}, "boxed": 2, "score": 11}
    assert [e.kind for e in events] == ["stop", "turn_start"]


def test_G3_a_timeout_returns_the_whole_haul_to_the_centre() -> None:
    state = play_moves(position(3, crates={2: "W"}), "roll KBWYY @0", "take B", "steal W 2")
    centre = state.centre[:]
    events = state.apply_action(TIMEOUT)
    # Stolen tokens go to the centre, not back to their crate; blue goes back too.
    assert state.centre == [centre[0] + 1, centre[1], centre[2], centre[3], centre[4] + 1]
    assert state.crates[2] == [0, 0, 0, 0, 0] and state.crates[0] == [0, 0, 0, 0, 0]
    assert state.box == 0
    assert events[0].view(None) == {
        "kind": "timeout",
        "seat": 0,
        "cause": "hourglass",
        "returned": {"B": 1, "Y": 0, "R": 0, "G": 0, "W": 1},
    }
    assert state.digger == 1 and state.current_player == 1


def test_G3_a_stop_later_than_the_limit_loses_the_haul() -> None:
    state = play_moves(new_game(3), "roll YRGBW @0", "take Y", "take R")
    late = state.clone()
    events = late.apply_move("stop @30.001")
    assert [e.kind for e in events] == ["timeout", "turn_start"]
    assert events[0].public["cause"] == "late stop"
    assert late.crates[0] == [0, 0, 0, 0, 0] and late.centre == [10] * 5
    assert late.record()["moves"][-1] == "stop @30.001"
    # Exactly at the limit is still in time.
    play_moves(state, "stop @30")
    assert state.crates[0] == [0, 1, 1, 0, 0]


@pytest.mark.parametrize("verb", ["roll", "take", "steal"])
def test_G3_a_step_after_the_limit_ends_the_turn_as_a_timeout(verb: str) -> None:
    state = play_moves(position(3, crates={1: "W"}), "roll YRGBW @0", "take Y", "roll BRGKW @29")
    late = {
        "roll": lambda: state.apply_move("roll YRGBW @31"),
        "take": lambda: state.apply_action(take_action(WHITE), at=30.5),
        "steal": lambda: state.apply_action(steal_action(WHITE, 1), at=30.5),
    }
    events = late[verb]()
    assert events[0].kind == "timeout" and events[0].public["cause"] == f"late {verb}"
    assert state.centre == [10, 10, 10, 10, 9] and state.crates[1][WHITE] == 1
    assert state.digger == 1
    assert state.record()["moves"][-1] == "timeout"


def test_G3_the_hourglass_starts_at_the_first_roll() -> None:
    state = new_game(3)
    assert "hourglass starts at the turn's first roll" in rejected(state, "G3", action=ROLL, at=2.0)
    assert "first roll" in rejected(state, "G3", action=TIMEOUT)
    state.apply_action(ROLL, at=0)
    # The first roll is in the air: the sand cannot have run out yet.
    rejected(state, "G3", action=TIMEOUT)
    state.apply_chance("KKKKK")
    assert state.elapsed == 0.0 and state.can_time_out


def test_G3_the_time_limit_is_an_option() -> None:
    options = DiggerOptions(time_limit=10.0)
    state = play_moves(new_game(2, options=options), "roll YRGBW @0", "take Y", "stop @10.5")
    assert state.crates[0] == [0, 0, 0, 0, 0]
    assert DiggerOptions.from_json({"time_limit": 10}).time_limit == 10.0
    with pytest.raises(ValueError):
        DiggerOptions(time_limit=0)


def test_G3_then_the_next_player_clockwise_digs() -> None:
    state = new_game(3)
    seen = []
    for k in range(4):
        seen.append(state.digger)
        play_moves(state, "roll KKKKK @0", "stop @0" if k % 2 else "timeout")
    assert seen == [0, 1, 2, 0]
    assert state.turn == 4


def test_G3_the_hourglass_is_hidden_from_the_digger_and_from_spectators() -> None:
    # Seated players see it; a spectator may be the digger in another window, so sees no time.
    state = play_moves(new_game(3), "roll YRGBW @0")
    events = state.apply_action(take_action(YELLOW), at=4.25)
    assert state.observation(0)["elapsed"] is None and state.observation(0)["remaining"] is None
    assert state.observation(1)["elapsed"] == 4.25 and state.observation(2)["remaining"] == 25.75
    assert state.observation(None)["elapsed"] is None and state.observation(None)["remaining"] is None
    assert "at" not in events[0].view(0)
    assert events[0].view(1)["at"] == 4.25


# ----------------------------------------------------------------------
# G4 Time, for programs
# ----------------------------------------------------------------------
def test_G4_roll_and_stop_need_a_time_that_runs_forward() -> None:
    state = play_moves(new_game(3), "roll YRGBW @0", "roll YRGBW @5")
    assert "needs its time" in rejected(state, "G4", action=ROLL)
    assert "needs its time" in rejected(state, "G4", action=STOP)
    assert "time runs forward" in rejected(state, "G4", action=STOP, at=4.0)
    assert "time runs forward" in rejected(state, "G4", action=take_action(YELLOW), at=4.999)
    rejected(state, "G4", action=STOP, at=float("nan"))
    rejected(state, "G4", action=STOP, at=-1)
    rejected(state, "G4", action=STOP, at="7")
    state.apply_action(take_action(YELLOW))  # a take may come without a time
    state.apply_action(STOP, at=5)
    assert state.crates[0][YELLOW] == 1


def test_G4_the_time_model_stamps_each_step_with_its_named_costs() -> None:
    model = TimeModel(roll=2.0, take=1.0, stack=0.5)
    state = new_game(3)
    assert model.stamp(state, ROLL) == 0.0
    play_moves(state, "roll YRGBW @0")
    assert model.stamp(state, take_action(RED)) == 1.0
    state.apply_action(take_action(RED), at=1.0)
    state.apply_action(take_action(GREEN), at=model.stamp(state, take_action(GREEN)))
    assert model.stamp(state, ROLL) == 4.0
    # Stopping costs the stacking of every token in the haul first.
    assert model.stamp(state, STOP) == 2.0 + 2 * 0.5
    assert model.stamp(state, TIMEOUT) is None
    assert model.estimate(rolls=3, tokens=4) == 8.0
    assert model.time_left(rolls=3, tokens=4) == 22.0


def test_G4_jitter_comes_from_the_callers_generator() -> None:
    model = TimeModel(jitter=0.25)
    state = play_moves(new_game(3), "roll YRGBW @0")
    with pytest.raises(ValueError, match=r"random\.Random"):
        model.stamp(state, ROLL)
    stamps = [model.stamp(state, ROLL, random.Random(7)) for _ in range(3)]
    assert stamps[0] == stamps[1] == stamps[2]
    assert 1.5 <= stamps[0] <= 2.5 and stamps[0] != 2.0
    with pytest.raises(ValueError):
        TimeModel(jitter=1.0)
    with pytest.raises(ValueError):
        TimeModel(roll=-1.0)


def test_G4_a_bots_turn_can_run_out_of_time() -> None:
    def greedy(state: DiggerState, rng: random.Random) -> int:
        # Takes everything and never stops: only the hourglass ends its turns.
        legal = [a for a in state.legal_actions() if a != STOP]
        return legal[-1]

    state = new_game(2)
    events: list[str] = []
    while state.turn == 0:
        if state.is_chance_node():
            evs = state.apply_chance(state.sample_chance(rng := random.Random(len(events))))
        else:
            action = greedy(state, rng if events else random.Random(0))
            evs = state.apply_action(action, TimeModel().stamp(state, action))
        events += [e.kind for e in evs]
    assert "timeout" in events and "stop" not in events
    assert state.centre == [10] * 5 and accounted(state) == [10] * 5


def test_G4_a_record_stores_every_time_so_a_replay_gives_the_same_result() -> None:
    for seed in range(30):
        state = simulate(new_game(3), random.Random(seed), clock=TimeModel(roll=4.0, jitter=0.5))
        record = json.loads(json.dumps(state.record()))
        again = new_game(3)
        for move in record["moves"]:
            again.apply_move(move)
        assert again.to_json() == state.to_json()
    assert any(m.startswith("stop @") for m in record["moves"])
    assert all("@" in m for m in record["moves"] if m.split()[0] in ("roll", "stop"))


def test_G4_a_record_cut_in_the_middle_of_a_turn_gives_back_its_time() -> None:
    state = play_moves(new_game(3), "roll YRGBW @0", "roll YRGBW @10")
    state.apply_action(take_action(YELLOW), at=25.0)
    record = state.record()
    assert record["moves"][-1] == "take Y @25"
    again = play_moves(new_game(3), *record["moves"])
    assert again.to_json() == state.to_json()
    # So the replay refuses what the game refused: the take at 25 came after the roll at 10.
    assert "the last step was at 25" in rejected(again, "G4", action=STOP, at=20.0)
    # Cut anywhere, knocks and steals included, a record restores the position it was cut from.
    options = DiggerOptions(knock_probability=0.25)
    model = TimeModel(roll=3.0, take=1.5, jitter=0.5)
    for seed in range(3):
        rng = random.Random(seed)
        live = new_game(3, options=options)
        while not live.is_terminal() and live.turn < 6:
            if live.is_chance_node():
                live.apply_chance(live.sample_chance(rng))
                continue
            action = rng.choice(live.legal_actions())
            live.apply_action(action, model.stamp(live, action, rng))
            if not live.is_chance_node():
                cut = play_moves(new_game(3, options=options), *json.loads(json.dumps(live.record()))["moves"])
                assert cut.to_json() == live.to_json(), live.record()["moves"][-3:]


# ----------------------------------------------------------------------
# G5 Knocking a pile
# ----------------------------------------------------------------------
def test_G5_knocking_is_off_by_default() -> None:
    state = play_moves(position(3, crates={1: "Y"}), "roll KYRRG @0", "steal Y 1")
    assert state.current_player == 0
    assert DiggerOptions().knock_probability == 0.0
    rejected(state, "G5", move="steal R 1 safe")


def test_G5_a_knocked_pile_ends_the_turn_and_loses_the_haul() -> None:
    options = DiggerOptions(knock_probability=0.25)
    state = play_moves(position(3, crates={1: "Y"}, options=options), "roll KYBRR @0", "take B", "steal Y 1")
    assert state.current_player == CHANCE
    assert state.chance_outcomes() == [(False, 0.75), (True, 0.25)]
    rejected(state, "G5", move="take B")
    safe = state.clone()
    assert safe.apply_chance(False) == [] and safe.current_player == 0
    events = state.apply_chance("knock")
    assert [e.kind for e in events] == ["knock", "turn_start"]
    assert state.centre[YELLOW] == 10 and state.centre[BLUE] == 10 and state.crates[1][YELLOW] == 0
    assert state.record()["moves"][-2:] == ["take B", "steal Y 1 knock"]


def test_G5_the_knock_draw_uses_the_callers_generator() -> None:
    options = DiggerOptions(knock_probability=0.3)
    state = play_moves(position(3, crates={1: "Y"}, options=options), "roll KYBRR @0", "steal Y 1")
    draws = [state.sample_chance(random.Random(seed)) for seed in range(2000)]
    assert draws == [state.sample_chance(random.Random(seed)) for seed in range(2000)]
    assert 0.25 < sum(draws) / len(draws) < 0.35


def test_G5_a_record_carries_each_steals_outcome() -> None:
    options = DiggerOptions(knock_probability=0.5)
    state = position(3, crates={1: "YR", 2: "W"}, options=options)
    play_moves(state, "roll KYRBB @0", "steal Y 1 safe", "steal R 1 safe", "stop @3")
    assert state.crates[0] == [0, 1, 1, 0, 0]
    record = state.record()
    assert record["options"] == {"knock_probability": 0.5}
    assert record["moves"] == ["roll KYRBB @0", "steal Y 1 safe", "steal R 1 safe", "stop @3"]
    again = play_moves(position(3, crates={1: "YR", 2: "W"}, options=options), *record["moves"])
    assert again.to_json() == state.to_json()
    certain = play_moves(position(3, crates={1: "Y"}, options=DiggerOptions(knock_probability=1.0)), "roll KYRRG @0")
    rejected(certain, "G5", move="steal Y 1 safe")


# ----------------------------------------------------------------------
# G6 End of the game
# ----------------------------------------------------------------------
def test_G6_the_game_ends_at_the_end_of_the_turn_that_empties_the_centre_of_blue() -> None:
    state = position(3, crates={1: "WW", 2: "G"}, box=9)
    play_moves(state, "roll BYRRG @0", "take B")
    assert state.centre[BLUE] == 0 and not state.is_terminal()
    play_moves(state, "roll BYRRK @2")
    assert legal_moves(state) == ["roll", "stop", "take Y"]
    events = play_moves(state, "take Y").apply_move("stop @5")
    assert state.is_terminal() and state.current_player == TERMINAL
    assert [e.kind for e in events] == ["stop", "game_over"]
    assert state.scores() == [2, 12, 4] and state.winners() == [1]
    assert events[-1].public == {"winners": [1], "scores": [2, 12, 4]}
    assert state.legal_actions() == []
    rejected(state, "G6", action=ROLL, at=0)
    rejected(state, "G6", action=TIMEOUT)


def test_G6_a_timeout_that_returns_the_last_blue_lets_play_go_on() -> None:
    state = play_moves(position(3, box=9), "roll BYRRG @0", "take B", "timeout")
    assert not state.is_terminal() and state.centre[BLUE] == 1 and state.digger == 1


def test_G6_scores_are_gems_times_crate_values_and_blue_scores_nothing() -> None:
    state = position(2, crates={0: "YRGW", 1: "WWW"}, box=9, crate_cards={"black": ["B", "D"]})
    # Card B: Y6 R1 G3 W5 -> 15; card D: W1 -> 3.
    assert state.scores() == [15, 3]
    assert state.box == 9 and sum(state.crates[0]) == 4


def test_G6_equal_scores_share_the_win() -> None:
    state = play_moves(position(3, crates={0: "Y", 1: "Y"}, box=9, digger=2), "roll BKKKK @0", "take B", "stop @1")
    assert state.winners() == [0, 1]
    assert state.returns() == [0.5, 0.5, 0.0]


def test_G6_every_random_game_ends_with_no_blue_in_the_centre() -> None:
    for seed in range(20):
        state = simulate(new_game(2 + seed % 4), random.Random(seed))
        assert state.is_terminal() and state.centre[BLUE] == 0
        scores = state.scores()
        assert state.winners() == [s for s in range(state.num_players) if scores[s] == max(scores)]


def test_steal_action_ids_cover_every_gem_and_seat() -> None:
    ids = {steal_action(c, v) for c in (YELLOW, RED, GREEN, WHITE) for v in range(5)}
    assert len(ids) == 20 and min(ids) > take_action(WHITE) and max(ids) < TIMEOUT


def test_G3_stacking_option_keeps_the_tokens_stacked_before_the_limit() -> None:
    """G3, the timed reading: stacking takes stack_seconds a token from the stop; the
    tokens stacked before the sand runs out are kept (best gems first, blue last) and
    the rest go back to the centre."""
    options = DiggerOptions(stack_seconds=1.0, time_limit=30.0)
    state = new_game(2, "white", options)
    state.apply_action(ROLL, at=0.0)
    state.apply_chance("YRGWB")  # every colour once: take all five
    for colour in "YRGWB":
        state.apply_move(f"take {colour}")
    # Called at 27.5 s: two tokens are stacked by 30 s (at 28.5 and 29.5); the third, at 30.5, is late.
    events = state.apply_move("stop @27.5")
    stop = next(e for e in events if e.kind == "stop")
    white = state.values[0]
    kept = sorted("YRGW", key=lambda c: -white[FACES.index(c)])[:2]
    assert sum(stop.public["banked"].values()) == 2
    assert all(stop.public["banked"][c] == 1 for c in kept)
    assert stop.public["boxed"] == 0 and stop.public["returned"]["B"] == 1
    assert state.centre[FACES.index("B")] == 10  # blue, stacked last, went back
    # The record replays to the same result, and the option round-trips.
    report, status = replay(state.record())
    assert status == 0 and report["scores"] == state.scores()


def test_G3_without_the_stacking_option_a_stop_in_time_banks_the_whole_haul() -> None:
    state = new_game(2)
    state.apply_action(ROLL, at=0.0)
    state.apply_chance("YRGWB")
    for colour in "YRGWB":
        state.apply_move(f"take {colour}")
    events = state.apply_move("stop @29.9")
    stop = next(e for e in events if e.kind == "stop")
    assert sum(stop.public["banked"].values()) == 4 and stop.public["boxed"] == 1
    assert "returned" not in stop.public
