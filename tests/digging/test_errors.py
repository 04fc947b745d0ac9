"""Every illegal step raises RuleError naming the ruling it breaks, with a readable
message, and leaves the state exactly as it was (to_json() identical)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from goldfields.core.game import RuleError
from goldfields.digging import NUM_ACTIONS, DiggingOptions, DiggingState, new_game

from .scenario import deal, deck_in_use, finish_hand, play


def assert_refused(state: DiggingState, step: Callable[[], Any], rule: str, *words: str) -> RuleError:
    """``step()`` must raise RuleError(rule) mentioning ``words`` and change nothing."""
    before = state.to_json()
    legal_before = list(state.legal_actions())
    to_move = state.current_player
    with pytest.raises(RuleError) as caught:
        step()
    err = caught.value
    assert err.rule == rule, f"expected ruling {rule}, got {err.rule}: {err}"
    assert str(err).startswith(f"{rule}: ")
    assert len(err.message) >= 8
    for word in words:
        assert word.lower() in err.message.lower(), f"{word!r} not in {err.message!r}"
    assert state.to_json() == before
    assert state.legal_actions() == legal_before
    assert state.current_player == to_move
    return err


def move(state: DiggingState, text: str) -> Callable[[], Any]:
    return lambda: state.apply_move(text)


def action(state: DiggingState, a: Any) -> Callable[[], Any]:
    return lambda: state.apply_action(a)


def fight_position() -> DiggingState:
    """Seat 0's gold mine m1 holds a chest and seat 1 has just attacked it; seat 2 to move.
    Seat 1 owns a copper mine m2 with a chest; seat 0 an empty silver mine m3."""
    state = deal({0: "MG MS G B1", 1: "MC C B5 B6", 2: "G S X B2 B3", 3: "B4 C X"})
    play(state, "0: play MG 0", "1: play MC 1", "2: play G m1", "3: draw")
    play(state, "0: play MS 0", "1: play C m2", "2: draw", "3: draw", "0: draw", "1: play B5 m1")
    assert state.current_player == 2
    return state


def over() -> DiggingState:
    """A finished game: seats 0+2 made 60 in one hand."""
    state = deal({0: "MG GG G G G G", 2: "G G G G G X"})
    play(state, "0: play MG 0", "1: draw", "2: draw", "3: draw", "0: play GG m1", "1: draw")
    for _ in range(4):
        play(state, "2: play G m1", "3: draw", "0: play G m1", "1: draw")
    play(state, "2: play G m1", "3: draw", "0: draw", "1: draw", "2: play X m1")
    finish_hand(state)
    assert state.is_terminal()
    return state


# ----------------------------------------------------------------------------
# D1: dealing
# ----------------------------------------------------------------------------


def test_D1_no_deal_while_a_hand_is_played():
    state = new_game(4, seed=1)
    assert_refused(state, lambda: state.apply_chance(deck_in_use(4, True)), "D1", "deal")
    assert_refused(state, lambda: state.sample_chance(random.Random(0)), "D1", "deal")


def test_D1_the_deck_must_be_the_deck_in_use():
    state = DiggingState(2)
    assert_refused(state, lambda: state.apply_chance(deck_in_use(4, True)), "D1", "48")
    assert_refused(state, lambda: state.apply_chance(deck_in_use(2, False)[:-1]), "D1")
    twice = deck_in_use(2, False)
    twice[0] = twice[-1]
    assert_refused(state, lambda: state.apply_chance(twice), "D1", "each exactly once")
    unknown = deck_in_use(2, False)
    unknown[0] = "Q"
    assert_refused(state, lambda: state.apply_chance(unknown), "D1", "unknown card")
    assert_refused(state, lambda: state.apply_chance([*range(47), 99]), "D1", "unknown card")


@pytest.mark.parametrize("junk", [None, 3.0, ("MG",)])
def test_D1_a_deck_of_things_that_are_not_cards_is_refused(junk: Any):
    state = DiggingState(2)
    deck: list[Any] = deck_in_use(2, False)
    deck[5] = junk
    assert_refused(state, lambda: state.apply_chance(deck), "D1", "unknown card")


def test_D1_nothing_is_played_before_the_deal():
    state = DiggingState(4)
    assert_refused(state, action(state, 0), "D1", "dealt")
    assert_refused(state, move(state, "play MG 0"), "D1", "dealt")
    ended = new_game(3, seed=4)
    finish_hand(ended)
    assert ended.is_chance_node()
    assert_refused(ended, move(ended, "draw"), "D1", "dealt")


# ----------------------------------------------------------------------------
# D2: one action a turn
# ----------------------------------------------------------------------------


def test_D2_skip_is_only_for_a_player_with_nothing_legal():
    state = deal({})
    assert_refused(state, move(state, "skip"), "D2", "skip")


def test_D2_no_draw_from_an_empty_pile():
    state = deal({})
    while state.pile:
        state.apply_move("draw")
    assert_refused(state, move(state, "draw"), "D2", "pile")


def test_D2_only_cards_in_hand_are_played_or_passed():
    state = deal({0: "MG G G G G G"})
    assert_refused(state, move(state, "play MS 0"), "D2", "MS")
    assert_refused(state, move(state, "pass B12"), "D2", "B12")
    assert_refused(state, move(state, "play X m1"), "D2", "X")


def test_D2_no_passing_in_the_individual_game():
    state = deal({0: "MG G"}, players=4, partnership=False)
    assert_refused(state, move(state, "pass G"), "D2", "partnership")
    three = deal({0: "MG G"}, players=3)
    assert_refused(three, move(three, "pass MG"), "D2", "partnership")


# ----------------------------------------------------------------------------
# D3: mine cards
# ----------------------------------------------------------------------------


def test_D3_a_mine_opens_only_in_a_display_at_the_table():
    state = deal({0: "MG"}, players=3)
    assert_refused(state, move(state, "play MG 3"), "D3", "seat 3")
    two = deal({0: "MS"}, players=2)
    assert_refused(two, move(two, "play MS 2"), "D3", "seat 2")
    # Readable notation for a seat no table has: still D3, and the message names the table's seats.
    four = deal({0: "MC"})
    assert_refused(four, move(four, "play MC 4"), "D3", "no seat 4; the seats are 0 to 3")


# ----------------------------------------------------------------------------
# D4: chest cards
# ----------------------------------------------------------------------------


def test_D4_a_chest_goes_on_a_mine_of_its_metal():
    state = deal({0: "MG S SS C G"})
    play(state, "0: play MG 0", "1: draw", "2: draw", "3: draw")
    assert_refused(state, move(state, "play S m1"), "D4", "silver", "gold")
    assert_refused(state, move(state, "play SS m1"), "D4", "silver")
    assert_refused(state, move(state, "play C m1"), "D4", "copper")


def test_D4_no_chest_on_a_mine_not_yet_opened():
    state = deal({0: "MG G X"})
    assert_refused(state, move(state, "play G m1"), "D4", "m1", "not been opened")
    assert_refused(state, move(state, "play X m1"), "D5", "m1", "not been opened")
    play(state, "0: play MG 0", "1: draw", "2: draw", "3: draw")
    assert_refused(state, move(state, "play G m2"), "D4", "m2", "not been opened")
    assert_refused(state, move(state, "play G m9"), "D4", "m9", "not been opened")


def test_D4_option_no_chests_during_fight():
    state = deal({0: "MG G G", 1: "B5", 2: "G"}, options=DiggingOptions(no_chests_during_fight=True))
    play(state, "0: play MG 0", "1: draw", "2: draw", "3: draw", "0: play G m1", "1: play B5 m1")
    assert_refused(state, move(state, "play G m1"), "D4", "attack")


# ----------------------------------------------------------------------------
# D5: closed mines
# ----------------------------------------------------------------------------


def test_D5_nothing_more_on_a_closed_mine():
    state = deal({0: "MG G X", 1: "G G X B7"})
    play(state, "0: play MG 0", "1: play G m1", "2: draw", "3: draw", "0: play X m1")
    assert_refused(state, move(state, "play G m1"), "D5", "closed")
    assert_refused(state, move(state, "play X m1"), "D5", "closed")
    assert_refused(state, move(state, "play B7 m1"), "D5", "closed")


def test_D5_option_close_needs_chest():
    state = deal({0: "MG", 1: "X"}, options=DiggingOptions(close_needs_chest=True))
    play(state, "0: play MG 0")
    assert_refused(state, move(state, "play X m1"), "D5", "chest")


# ----------------------------------------------------------------------------
# D6: fights
# ----------------------------------------------------------------------------


def test_D6_no_fight_on_a_mine_without_chest():
    state = deal({0: "MG B6", 1: "B7"})
    assert_refused(state, move(state, "play B6 m1"), "D6", "m1", "not been opened")
    play(state, "0: play MG 0")
    assert_refused(state, move(state, "play B7 m1"), "D6", "chest")


def test_D6_no_fight_on_ones_own_or_partners_mine():
    state = deal({0: "MG G B1", 2: "B2"})
    play(state, "0: play MG 0", "1: draw", "2: draw", "3: draw", "0: play G m1", "1: draw")
    assert_refused(state, move(state, "play B2 m1"), "D6", "opponent")  # the partner's mine
    play(state, "2: draw", "3: draw")
    assert_refused(state, move(state, "play B1 m1"), "D6", "opponent")  # one's own mine
    solo = deal({0: "MG G B1"}, players=2)
    play(solo, "0: play MG 0", "1: draw", "0: play G m1", "1: draw")
    assert_refused(solo, move(solo, "play B1 m1"), "D6", "opponent")


def test_D6_one_fight_at_a_time():
    state = fight_position()
    # Seat 2 may join the fight over m1, but start none elsewhere (m2 is an opponent's mine with a chest).
    assert "play B2 m1" in {state.action_to_string(a) for a in state.legal_actions()}
    assert_refused(state, move(state, "play B2 m2"), "D6", "one fight")


# ----------------------------------------------------------------------------
# D9: the game is over
# ----------------------------------------------------------------------------


def test_D9_nothing_is_played_after_the_game():
    state = over()
    assert_refused(state, move(state, "draw"), "D9", "over")
    assert_refused(state, action(state, 1), "D9", "over")
    assert_refused(state, move(state, "play MG 0"), "D9", "over")


def test_D9_no_deal_after_the_game():
    state = over()
    # The message must not claim that a hand is still being played.
    err = assert_refused(state, lambda: state.apply_chance(deck_in_use(4, True)), "D9", "over")
    assert "still being played" not in err.message
    assert_refused(state, lambda: state.sample_chance(random.Random(0)), "D9", "over")


# ----------------------------------------------------------------------------
# Notation
# ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("dig", "unknown move"),
        ("draw 2", "draw"),
        ("skip now", "skip"),
        ("pass", "pass <card>"),
        ("pass G S", "pass <card>"),
        ("pass Q", "unknown card"),
        ("play", "play"),
        ("play G", "play"),
        ("play G m1 m2", "play"),
        ("play B13 m1", "unknown card"),
        ("play MG x", "seat number"),
        ("play MG m1", "seat number"),
        ("play MG -1", "seat number"),
        ("play G 1", "mine"),
        ("play G m0", "mine"),
        ("play G m10", "mine"),
        ("play X 0", "mine"),
        ("play B3 mx", "mine"),
    ],
)
def test_notation_unreadable_moves(text: str, word: str):
    state = deal({0: "MG G X B3"})
    assert_refused(state, move(state, text), "notation", word)


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS, 10_000, "draw", None, 0.0, 1.5])
def test_notation_no_such_action_id(bad: Any):
    state = deal({})
    assert_refused(state, action(state, bad), "notation")


def test_notation_moves_are_case_insensitive_but_still_checked():
    state = deal({0: "MG G"})
    play(state, "0: PLAY mg 0")
    assert_refused(state, move(state, "PLAY gg M1"), "D2", "GG")


def test_the_error_shown_in_the_docs_is_one_a_real_play_gives() -> None:
    """docs/digging.md quotes an engine error: it must be one that legal play can meet."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "digging.md").read_text(encoding="utf-8")
    state = deal({0: "MG G B3", 1: "B5"})
    play(state, "0: play MG 0", "1: draw", "2: draw", "3: draw")
    with pytest.raises(RuleError) as err:
        state.apply_move("play B3 m1")
    assert f"`{err.value}`" in doc


# ----------------------------------------------------------------------------
# Reasons: the same refusal for a program, to be put in the player's language
# ----------------------------------------------------------------------------


def test_a_refusal_carries_a_reason_and_its_values() -> None:
    state = deal({0: "MG S SS C G"})
    play(state, "0: play MG 0", "1: draw", "2: draw", "3: draw")
    err = assert_refused(state, move(state, "play S m1"), "D4")
    expected = {"move": "play S m1", "chest": "silver", "metal": "gold", "mine": "m1"}
    assert (err.reason, err.params) == ("chest_metal", expected)
    err = assert_refused(state, move(state, "play G m2"), "D4")
    assert (err.reason, err.params["mine"]) == ("no_mine", "m2")


def test_every_refusal_of_a_move_in_play_has_a_reason() -> None:
    rng = random.Random(5)
    for game in range(4):
        state = new_game(4, seed=game)
        for _ in range(30):  # decisions of the first hand
            if state.current_player < 0:
                break
            legal = set(state.legal_actions())
            for action in sorted(set(range(NUM_ACTIONS)) - legal):
                with pytest.raises(RuleError) as caught:
                    state.apply_action(action)
                assert caught.value.reason and caught.value.params["move"], str(caught.value)
            state.apply_action(rng.choice(sorted(legal)))


def test_a_refusal_survives_pickling_whole() -> None:
    import pickle

    err = RuleError("D4", "play S m1: a silver chest cannot go on a gold mine", "chest_metal", chest="silver")
    back = pickle.loads(pickle.dumps(err))
    assert (back.rule, back.message, back.reason, back.params, str(back)) == (
        err.rule,
        err.message,
        err.reason,
        err.params,
        str(err),
    )


@pytest.mark.parametrize(("text", "said"), [
    ("play MG ²", "a mine card is played to a seat number"),
    ("play MG ٣", "a mine card is played to a seat number"),
    ("play G m²", "is played onto a mine, m1 to m9"),
    ("play G m" + "1" * 5000, "is played onto a mine, m1 to m9"),
])  # fmt: skip
def test_a_number_written_in_other_digits_is_a_notation_error_not_a_crash(text: str, said: str) -> None:
    from goldfields.digging.actions import NotationError, string_to_action

    with pytest.raises(NotationError, match=said):
        string_to_action(text, 4)
