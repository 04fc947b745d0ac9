"""The notation of moves, the action space, the dice as chance, and the real clock."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from goldfields.clocks import RealClock
from goldfields.core.game import CHANCE, RuleError
from goldfields.digger import NUM_ACTIONS, ROLL, ROLL_OUTCOMES, STOP, TIMEOUT, new_game, take_action
from goldfields.digger.actions import format_time, parse_move
from goldfields.digger.dice import YELLOW

from .scenario import play_moves, rejected


def test_every_action_id_reads_back_from_its_notation() -> None:
    state = new_game(5)
    texts = [state.action_to_string(a) for a in range(NUM_ACTIONS)]
    assert texts[:7] == ["roll", "stop", "take B", "take Y", "take R", "take G", "take W"]
    assert texts[7] == "steal Y 0" and texts[26] == "steal W 4" and texts[27] == "timeout"
    assert [state.string_to_action(t) for t in texts] == list(range(NUM_ACTIONS))
    assert len(set(texts)) == NUM_ACTIONS
    with pytest.raises(RuleError, match=r"^notation"):
        state.action_to_string(NUM_ACTIONS)


def test_moves_carry_faces_times_and_knocks() -> None:
    assert parse_move("roll KRGBY @2.5") == parse_move("ROLL krgby @2.5")
    move = parse_move("roll KRGBY @2.5")
    assert (move.action, move.faces, move.at) == (ROLL, (5, 2, 3, 0, 1), 2.5)
    assert parse_move("stop @12").at == 12.0
    assert parse_move("steal W 3 knock").knocked is True and parse_move("steal W 3 safe").knocked is False
    assert parse_move("take Y @3.5").at == 3.5 and parse_move("take Y").at is None
    assert parse_move("steal W 3 knock @4").at == 4.0 and parse_move("steal W 3 knock @4").knocked is True
    assert parse_move("timeout").action == TIMEOUT
    assert [format_time(t) for t in (0.0, 2.0, 2.5, 29.999)] == ["0", "2", "2.5", "29.999"]


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("", "notation"),
        ("roll KRGB @1", "notation"),
        ("roll KRGBX @1", "notation"),
        ("roll KRGBY 2.5", "notation"),
        ("roll KRGBY @2 @3", "notation"),
        ("stop @-1", "G4"),  # readable, but no time can be (as apply_action(STOP, at=-1) says)
        ("stop @nan", "G4"),
        ("take Y @-2", "G4"),
        ("take Y 3", "notation"),
        ("take Y @3 @4", "notation"),
        ("steal Y 1 @2 knock", "notation"),  # the time comes last
        ("stop @", "notation"),
        ("timeout now", "notation"),
        ("take", "notation"),
        ("take Q", "notation"),
        ("take K", "G2"),
        ("steal Y", "notation"),
        ("steal Y 5", "G2"),  # readable; no such seat at any table (the message names 0 to 2)
        ("steal Y one", "notation"),
        ("steal Y 1 maybe", "notation"),
        ("steal B 1", "G2"),
        ("dig", "notation"),
    ],
)
def test_unreadable_moves_are_refused_naming_the_rule(text: str, rule: str) -> None:
    state = play_moves(new_game(3), "roll KYRGB @0")
    rejected(state, rule, move=text)


def test_a_roll_in_a_record_carries_its_faces_and_later_rolls_their_time() -> None:
    state = new_game(3)
    rejected(state, "notation", move="roll @0")
    play_moves(state, "roll YRGBW")  # the first roll is at 0 by definition
    assert state.elapsed == 0.0
    assert "needs its time" in rejected(state, "G4", move="roll YRGBW")
    rejected(state, "G4", move="stop")


def test_actions_are_integers() -> None:
    state = new_game(3)
    rejected(state, "notation", action=True)  # type: ignore[arg-type]
    rejected(state, "notation", action=0.0)  # type: ignore[arg-type]
    rejected(state, "notation", action=NUM_ACTIONS)
    rejected(state, "notation", action=-1)


def test_the_252_rolls_and_their_probabilities() -> None:
    assert len(ROLL_OUTCOMES) == 252
    assert abs(sum(p for _, p in ROLL_OUTCOMES) - 1.0) < 1e-12
    probs = dict(ROLL_OUTCOMES)
    assert probs["BYRGW"] == 120 / 6**5 and probs["BBBBB"] == 1 / 6**5 and probs["BBYYK"] == 30 / 6**5
    state = new_game(3)
    state.apply_action(ROLL)
    assert state.chance_outcomes() == list(ROLL_OUTCOMES)
    # Any of them can be applied, in any order of the dice.
    for faces, _ in ROLL_OUTCOMES[:20]:
        copy = state.clone()
        copy.apply_chance(faces[::-1])
        assert copy.dice is not None and sorted(copy.dice) == sorted("BYRGWK".index(f) for f in faces)


def test_rolls_are_drawn_with_the_callers_generator() -> None:
    state = new_game(3)
    state.apply_action(ROLL)
    assert state.current_player == CHANCE
    draws = [state.sample_chance(random.Random(s)) for s in range(3000)]
    assert draws[:50] == [state.sample_chance(random.Random(s)) for s in range(50)]
    faces = Counter(f for d in draws for f in d)
    assert set(faces) == set(range(6)) and min(faces.values()) > 2200  # 2500 expected per face
    for outcome in (draws[0], list(draws[0]), "krgby", ["K", "R", "G", "B", "Y"]):
        state.clone().apply_chance(outcome)


def test_no_chance_outcome_is_due_at_a_decision() -> None:
    state = new_game(3)
    with pytest.raises(RuleError, match=r"^G2"):
        state.sample_chance(random.Random(0))
    with pytest.raises(RuleError, match=r"^G2"):
        state.apply_chance("KKKKK")
    with pytest.raises(RuleError, match=r"^G2"):
        state.chance_outcomes()


def test_the_real_clock_times_each_step_from_the_first_roll() -> None:
    now = [100.0]
    clock = RealClock(lambda: now[0])
    state = new_game(2)
    assert clock.stamp(state, ROLL) == 0.0
    state.apply_action(ROLL, at=0.0)
    state.apply_chance("YRGBW")
    now[0] = 104.5
    assert clock.stamp(state, take_action(YELLOW)) == 4.5
    state.apply_action(take_action(YELLOW), at=clock.stamp(state, take_action(YELLOW)))
    assert not clock.expired(state)
    now[0] = 130.01
    assert clock.expired(state)
    state.apply_action(TIMEOUT)
    assert not clock.expired(state)  # no roll yet in the new turn
    assert clock.stamp(state, ROLL) == 0.0 and clock.stamp(state, TIMEOUT) is None
    state.apply_action(ROLL, at=0.0)
    state.apply_chance("YRGBW")
    now[0] = 131.0
    assert clock.stamp(state, STOP) == pytest.approx(0.99)


@pytest.mark.parametrize("text", ["steal Y ²", "steal Y ٣", "steal Y " + "1" * 5000])
def test_a_seat_written_in_other_digits_is_a_notation_error_not_a_crash(text: str) -> None:
    from goldfields.digger.actions import NotationError

    with pytest.raises(NotationError, match="the victim is a seat number"):
        parse_move(text, 3)
