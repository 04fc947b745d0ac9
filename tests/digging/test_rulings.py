"""One test per ruling of RULINGS.md, section "Digging" (D1-D9, Modes, Cards, rule options).

Every test deals an explicit deck and drives whole turns through the public API.
Unless said otherwise the table is the partnership game: four seats, 0+2 against
1+3, seat 3 deals, so seat 0 moves first and play goes 0, 1, 2, 3, 0...
"""

from __future__ import annotations

import random

import pytest

from goldfields.core import registry
from goldfields.core.game import CHANCE, TERMINAL, RuleError
from goldfields.digging import DiggingOptions, DiggingState, mine_points, new_game
from goldfields.digging.cards import CODE_OF, CODES, COPPER, DOUBLE_CODES, GOLD, SILVER

from .scenario import (
    card_census,
    cards,
    deal,
    deck_for,
    deck_in_use,
    discard,
    event,
    expected_census,
    finish_hand,
    hand,
    kinds,
    legal,
    mine,
    pile_top_first,
    play,
    sorted_cards,
)

# ----------------------------------------------------------------------------
# Cards
# ----------------------------------------------------------------------------


def test_cards_the_full_deck_holds_60():
    state = new_game(4, True, seed=0)
    census = card_census(state)  # every card of the game, wherever it is
    expected = {"MG": 3, "MS": 3, "MC": 3, "G": 9, "S": 9, "C": 9, "GG": 1, "SS": 1, "CC": 1, "X": 9}
    expected |= {f"B{v}": 1 for v in range(1, 13)}
    assert {CODES[c]: k for c, k in enumerate(census) if k} == expected
    assert sum(census) == 60
    deck = deck_in_use(4, True)
    assert sorted(deck) == sorted(w for w, k in expected.items() for _ in range(k))


# ----------------------------------------------------------------------------
# D1 Dealing
# ----------------------------------------------------------------------------


def test_D1_deal_one_at_a_time_from_dealers_left():
    deck = deck_in_use(4, True)
    random.Random(1).shuffle(deck)
    # Seat 1 deals: seat 2 (its left) gets the 1st, 5th, 9th... card, then seat 3, 0, 1.
    state = new_game(4, True, deck=deck, dealer=1)
    assert state.dealer == 1
    for k, seat in enumerate((2, 3, 0, 1)):
        assert hand(state, seat) == sorted_cards(deck[k:24:4])
    # The rest is the pile, its top card the 25th of the deck.
    assert pile_top_first(state) == deck[24:]
    # The player on the dealer's left moves first, and draws the 25th card.
    assert state.current_player == 2
    events = state.apply_move("draw")
    assert events[0].view(2)["card"] == deck[24]


def test_D1_default_first_dealer_is_the_last_seat_so_seat_0_moves_first():
    deck = deck_in_use(3, False)
    random.Random(2).shuffle(deck)
    state = new_game(3, deck=deck)
    assert state.dealer == 2
    assert state.current_player == 0
    assert hand(state, 0) == sorted_cards(deck[0:18:3])
    assert hand(state, 1) == sorted_cards(deck[1:18:3])
    assert hand(state, 2) == sorted_cards(deck[2:18:3])
    assert len(state.pile) == 54 - 18
    assert state.observation(0)["hand_sizes"] == [6, 6, 6]


def test_D1_scenario_helper_deals_exactly_as_written():
    state = deal({0: "MG G GG B5 X S", 1: "B12", 3: "MC C"}, pile="SS B1", dealer=2, partnership=True)
    assert state.current_player == 3
    assert hand(state, 0) == sorted_cards("MG G GG B5 X S")
    assert {"B12"} <= set(hand(state, 1))
    assert {"MC", "C"} <= set(hand(state, 3))
    assert pile_top_first(state)[:2] == ["SS", "B1"]


# ----------------------------------------------------------------------------
# D2 A turn is exactly one action
# ----------------------------------------------------------------------------


def test_D2_draw_takes_the_top_card_and_ends_the_turn():
    state = deal({0: "MG G", 1: "MS S"}, pile="B12 GG")
    events = play(state, "0: draw")
    assert "B12" in hand(state, 0) and len(hand(state, 0)) == 7
    assert kinds(events) == ["draw"]
    assert state.current_player == 1
    play(state, "1: draw")
    assert "GG" in hand(state, 1)
    assert len(state.pile) == 60 - 24 - 2


def test_D2_pass_gives_one_card_face_down_to_the_partner_and_ends_the_turn():
    state = deal({0: "MG G G G G G", 2: "S S S S S S"}, pile="B12")
    play(state, "0: pass MG")
    assert hand(state, 0) == cards("G G G G G")
    assert hand(state, 2) == sorted_cards("MG S S S S S S")
    assert state.current_player == 1
    assert len(state.pile) == 36  # no card drawn with the pass
    play(state, "1: pass C")  # seat 1's partner is seat 3
    assert state.observation(0)["hand_sizes"] == [5, 5, 7, 7]


def test_D2_play_is_the_whole_turn():
    state = deal({0: "MG G"}, pile="B12")
    play(state, "0: play MG 0")
    assert len(hand(state, 0)) == 5
    assert len(state.pile) == 36
    assert state.current_player == 1
    assert pile_top_first(state)[0] == "B12"


def test_D2_no_hand_limit():
    state = deal({})
    for _ in range(8 * 4):
        state.apply_move("draw")
    assert state.observation(0)["hand_sizes"] == [14, 14, 14, 14]
    assert "draw" in legal(state)


def test_D2_skip_only_when_forced():
    # Two players, seat 1 deals. Nobody opens a mine, and every mine card goes to seat 1,
    # so in the last round nothing in seat 0's hand can be played.
    state = deal({0: "G G S S C C", 1: "MG MG MG MS MS MS"}, pile="G MC G MC G MC", players=2)
    while state.pile:
        if state.current_player == 0:
            assert legal(state) == {"draw"}  # nothing playable, but a card can be drawn
        state.apply_move("draw")
    assert state.observation(0)["last_round"] is not None
    assert state.current_player == 0
    assert "MG" not in hand(state, 0) and "MS" not in hand(state, 0) and "MC" not in hand(state, 0)
    assert legal(state) == {"skip"}
    events = play(state, "0: skip")
    assert kinds(events) == ["skip"]
    assert state.current_player == 1
    assert "skip" not in legal(state)  # seat 1 holds mine cards: it must play one
    play(state, "1: play MG 1")
    assert state.current_player == CHANCE


def test_D2_skip_only_when_forced_empty_hand_and_empty_pile():
    # Two players. Seat 0 opens six mines, then plays every card it draws; seat 1 only draws.
    seat0_draws = cards("G G G G G S S S S S")
    seat1_draws = cards("X X X X X X X X X C C C C C CC SS GG MG MS MC")
    pile = cards("B7 B8 B9 B10 B11 B12")
    for k in range(10):
        pile += [seat0_draws[k], seat1_draws[2 * k], seat1_draws[2 * k + 1]]
    state = deal({0: "MG MS MC MG MS MC", 1: "B1 B2 B3 B4 B5 B6"}, pile=" ".join(pile), players=2)
    assert "skip" not in legal(state)
    while state.pile:
        if state.current_player == 0:
            if hand(state, 0):
                mover = sorted(m for m in legal(state) if m.startswith("play") and " X " not in m)[0]
                state.apply_move(mover)
            else:
                assert legal(state) == {"draw"}
                state.apply_move("draw")
        else:
            state.apply_move("draw")
    assert state.current_player == 0
    assert hand(state, 0) == []
    assert legal(state) == {"skip"}
    play(state, "0: skip")
    assert state.current_player == 1


def test_D2_partnership_player_with_cards_never_skips_passing_is_always_possible():
    state = deal({0: "G G S S C C"})
    while state.pile:
        state.apply_move("draw")
    # Last round: every seat holds cards and may pass one, so none may skip.
    for _ in range(4):
        seat = state.current_player
        assert "skip" not in legal(state)
        assert f"pass {hand(state, seat)[0]}" in legal(state)
        play(state, f"{seat}: pass {hand(state, seat)[0]}")
    assert state.current_player == CHANCE


# ----------------------------------------------------------------------------
# D3 Mine card
# ----------------------------------------------------------------------------


def test_D3_mine_opens_in_any_display():
    state = deal({0: "MG MS MC", 1: "MG"})
    assert {"play MG 0", "play MG 1", "play MG 2", "play MG 3"} <= legal(state)
    play(state, "0: play MG 0", "1: play MG 0", "2: draw", "3: draw")  # own display; an opponent's
    play(state, "0: play MS 2", "1: draw", "2: draw", "3: draw")  # partner's display
    play(state, "0: play MC 1")  # an opponent's display
    assert [(m["name"], m["metal"], m["owner"]) for m in state.observation(None)["mines"]] == [
        ("m1", "gold", 0),
        ("m2", "gold", 0),
        ("m3", "silver", 2),
        ("m4", "copper", 1),
    ]
    assert all(not m["closed"] and m["chests"] == [] for m in state.observation(None)["mines"])


def test_D3_no_display_beyond_the_table():
    state = deal({0: "MG"}, players=3)
    assert {"play MG 0", "play MG 1", "play MG 2"} <= legal(state)
    assert "play MG 3" not in legal(state)


# ----------------------------------------------------------------------------
# D4 Chest card
# ----------------------------------------------------------------------------


def test_D4_chest_on_open_mine_of_same_metal_even_under_attack():
    state = deal({0: "MG G", 1: "B5 GG", 2: "G G S", 3: "G"})
    play(state, "0: play MG 0", "1: draw")
    assert "play S m1" not in legal(state)  # silver on a gold mine: no
    play(state, "2: play G m1", "3: draw", "0: draw")
    play(state, "1: play B5 m1")  # a fight over m1 starts
    assert state.fight is not None
    assert "play G m1" in legal(state)
    play(state, "2: play G m1")  # the defender's partner adds a chest under attack
    play(state, "3: play G m1")  # an attacker may add one too
    assert mine(state, "m1")["chests"] == ["G", "G", "G"]


def test_D4_chests_in_any_display_any_number_double_chests_too():
    state = deal({0: "MS S S S", 1: "SS S", 2: "S S", 3: "S"})
    play(state, "0: play MS 1")  # a silver mine in an opponent's display
    play(state, "1: play SS m1", "2: play S m1", "3: play S m1", "0: play S m1")
    play(state, "1: play S m1", "2: play S m1", "3: draw", "0: play S m1")
    assert mine(state, "m1")["chests"] == cards("SS S S S S S S")
    assert mine(state, "m1")["owner"] == 1


def test_D4_chest_needs_an_open_mine_of_its_metal():
    state = deal({0: "G GG S MC X C", 1: "X"})
    assert not any(m.split()[1] in ("G", "GG", "S", "C") for m in legal(state) if m.startswith("play"))  # no mine
    play(state, "0: play MC 0")
    play(state, "1: play X m1", "2: draw", "3: draw")  # the copper mine is closed at once
    assert hand(state, 0) == sorted_cards("G GG S X C")
    assert not any(m.split()[1] in ("G", "GG", "S", "C", "X") for m in legal(state) if m.startswith("play"))


# ----------------------------------------------------------------------------
# D5 Closed-mine card
# ----------------------------------------------------------------------------


def test_D5_close_any_open_mine_even_empty():
    state = deal({0: "MS MG", 1: "X G", 2: "X", 3: "X"})
    play(state, "0: play MS 1")  # an empty silver mine in seat 1's display
    assert "play X m1" in legal(state)
    play(state, "1: draw", "2: play X m1")  # seat 2 closes an opponent's empty mine
    assert mine(state, "m1") == {"name": "m1", "owner": 1, "metal": "silver", "chests": [], "closed": True,
                                "points_if_closed": 0}
    assert state.hand_points() == [0, 0, 0, 0]
    # No card may be added to a closed mine.
    assert not any(m.endswith(" m1") for m in legal(state))


def test_D5_points_go_to_the_owner_of_the_display():
    state = deal({0: "MG X", 1: "G G", 2: "MS", 3: "GG"})
    play(state, "0: play MG 1")  # gold mine in seat 1's display
    play(state, "1: play G m1", "2: draw", "3: draw", "0: draw", "1: play G m1", "2: draw", "3: draw")
    events = play(state, "0: play X m1")  # seat 0 closes the opponents' mine
    assert event(events, "close") == {"kind": "close", "seat": 0, "mine": "m1", "owner": 1, "points": 6}
    assert state.hand_points() == [0, 6, 0, 0]
    assert not any(m.endswith(" m1") for m in legal(state))  # seat 1's turn: m1 takes nothing more


# ----------------------------------------------------------------------------
# D6 Fights
# ----------------------------------------------------------------------------


def test_D6_fight_needs_opponent_mine_with_chest():
    state = deal({0: "MG B1", 1: "B7 MS X", 2: "G B8", 3: "S B9"})
    play(state, "0: play MG 0")  # m1: seat 0's, no chest yet
    assert "play B7 m1" not in legal(state)  # no chest: no fight
    play(state, "1: play MS 1", "2: play G m1")  # m2: seat 1's; m1 now holds a chest
    assert "play B9 m1" in legal(state)  # seat 3: an opponent's mine with a chest
    play(state, "3: play S m2")
    assert "play B1 m1" not in legal(state)  # seat 0: its own mine
    assert "play B1 m2" in legal(state)  # seat 0: an opponent's mine with a chest
    play(state, "0: draw")
    assert "play B7 m2" not in legal(state)  # seat 1: its own mine
    assert "play B7 m1" in legal(state)
    play(state, "1: play X m1")  # closed: no longer open
    assert "play B8 m1" not in legal(state)  # seat 2: closed, and its own team's
    assert "play B8 m2" in legal(state)
    play(state, "2: draw")
    assert not any(m.startswith("play B9") for m in legal(state))  # seat 3: m2 is its partner's


def test_D6_one_fight_at_a_time():
    state = deal({0: "MG B3", 1: "G B5 B8", 2: "MS B6", 3: "S B7"})
    play(state, "0: play MG 0", "1: play G m1", "2: play MS 0", "3: play S m2")
    play(state, "0: draw", "1: play B5 m1")  # the fight over m1 starts
    assert "play B6 m1" in legal(state)  # seat 2 may join...
    assert "play B6 m2" not in legal(state)  # ...but m2 is its own team's anyway
    play(state, "2: draw")
    assert "play B7 m1" in legal(state)
    assert "play B7 m2" not in legal(state)  # m2 is an opponent's mine with a chest, but one fight at a time
    play(state, "3: draw")
    play(state, "0: draw")
    # Back to seat 1: the fight is over (the attack won 5:0), a new one may start.
    assert state.fight is None
    assert mine(state, "m1")["owner"] == 1
    assert "play B8 m2" in legal(state)
    assert "play B8 m1" not in legal(state)  # m1 is seat 1's own now
    play(state, "1: play B8 m2")
    assert state.observation(None)["fight"]["mine"] == "m2"


def test_D6_one_chance_each_spent_whatever_they_do():
    state = deal({0: "MG G", 1: "B5", 2: "G B6", 3: "B2"})
    play(state, "0: play MG 0", "1: draw", "2: play G m1", "3: draw")
    play(state, "0: draw")
    play(state, "1: play B5 m1")  # seat 1 is the first attacker
    fight = state.observation(None)["fight"]
    assert fight["attacker"] == 1 and fight["chances"] == [2, 3, 0]
    play(state, "2: draw")  # seat 2 lets its chance go by drawing
    assert state.observation(None)["fight"]["chances"] == [3, 0]
    assert "B6" in hand(state, 2)
    play(state, "3: play B2 m1")  # seat 3 joins: that is its whole turn
    assert state.observation(None)["fight"]["chances"] == [0]
    assert state.current_player == 0 and "B2" not in hand(state, 3)
    events = play(state, "0: play G m1")  # seat 0 lays a chest: its chance is spent too
    # Play is back to the first attacker: the fight is resolved before it acts.
    assert "fight_resolved" in kinds(events)
    assert state.current_player == 1
    assert state.fight is None
    assert mine(state, "m1")["owner"] == 1
    assert mine(state, "m1")["chests"] == ["G", "G"]


def test_D6_joining_counts_for_the_side_of_the_joiners_team():
    state = deal({0: "MG G B2", 1: "B5", 2: "B3", 3: "B4"})
    play(state, "0: play MG 0", "1: draw", "2: draw", "3: draw", "0: play G m1")
    play(state, "1: play B5 m1", "2: play B3 m1", "3: play B4 m1")
    fight = state.observation(None)["fight"]
    assert (fight["attack"], fight["defence"]) == (9, 3)
    events = play(state, "0: play B2 m1")
    resolved = event(events, "fight_resolved")
    assert (resolved["attack"], resolved["defence"]) == (9, 5)
    assert resolved["winner"] == "attack"


def test_D6_partnership_tie_goes_to_defence():
    state = deal({0: "MG G B2", 1: "B5", 2: "B3"})
    play(state, "0: play MG 0", "1: draw", "2: draw", "3: draw", "0: play G m1")
    play(state, "1: play B5 m1", "2: play B3 m1", "3: draw")
    events = play(state, "0: play B2 m1")  # 5 against 3 + 2
    resolved = event(events, "fight_resolved")
    assert (resolved["attack"], resolved["defence"], resolved["winner"]) == (5, 5, "defence")
    assert mine(state, "m1")["owner"] == 0
    assert sorted(discard(state)) == sorted(["B5", "B3", "B2"])
    assert state.fight is None and state.current_player == 1


def test_D6_partnership_attack_wins_mine_moves_to_first_attacker():
    state = deal({0: "MG GG G B9", 1: "B3 X", 2: "B1", 3: "B8"})
    play(state, "0: play MG 0", "1: draw", "2: draw", "3: draw")
    play(state, "0: play GG m1", "1: draw", "2: draw", "3: draw", "0: play G m1")
    play(state, "1: play B3 m1", "2: play B1 m1", "3: play B8 m1")
    events = play(state, "0: play B9 m1")  # attack 3 + 8 = 11 against 1 + 9 = 10
    resolved = event(events, "fight_resolved")
    assert resolved["winner"] == "attack" and resolved["owner"] == 1
    # The whole mine, chests in order, goes to the first attacker (seat 1), not to seat 3.
    assert mine(state, "m1") == {"name": "m1", "owner": 1, "metal": "gold", "chests": ["GG", "G"], "closed": False,
                                "points_if_closed": 12}
    assert sorted(discard(state)) == sorted(["B3", "B1", "B8", "B9"])
    play(state, "1: play X m1")
    assert state.hand_points() == [0, 12, 0, 0]  # GG first: 6 + 6


def test_D6_individual_highest_bandit_wins_to_its_player():
    # Three players, each for themselves; seat 2 deals, seat 0 moves first.
    state = deal({0: "MG G B6", 1: "B4", 2: "B9"}, players=3)
    play(state, "0: play MG 0", "1: draw", "2: draw", "0: play G m1")
    play(state, "1: play B4 m1", "2: play B9 m1")
    events = play(state, "0: play B6 m1")
    resolved = event(events, "fight_resolved")
    assert resolved["highest"] == "B9" and resolved["by"] == 2
    assert mine(state, "m1")["owner"] == 2  # not to the first attacker
    assert sorted(discard(state)) == sorted(["B4", "B9", "B6"])
    assert state.current_player == 1


def test_D6_individual_first_attacker_highest_takes_the_mine():
    state = deal({0: "MG G B6", 1: "B11", 2: "B9", 3: "B1"}, players=4, partnership=False)
    play(state, "0: play MG 0", "1: draw", "2: draw", "3: draw", "0: play G m1")
    play(state, "1: play B11 m1", "2: play B9 m1", "3: play B1 m1", "0: play B6 m1")
    assert mine(state, "m1")["owner"] == 1


def test_D6_individual_owner_highest_keeps():
    state = deal({0: "MG G B10", 1: "B4", 2: "B9"}, players=3)
    play(state, "0: play MG 0", "1: draw", "2: draw", "0: play G m1")
    play(state, "1: play B4 m1", "2: play B9 m1")
    events = play(state, "0: play B10 m1")
    assert event(events, "fight_resolved")["winner"] == "defence"
    assert mine(state, "m1")["owner"] == 0
    assert sorted(discard(state)) == sorted(["B4", "B9", "B10"])


def test_D6_two_players_the_one_chance_is_the_next_turn():
    state = deal({0: "MG G", 1: "B3 B12"}, players=2)
    play(state, "0: play MG 0", "1: draw", "0: play G m1")
    play(state, "1: play B3 m1")
    assert state.observation(None)["fight"]["chances"] == [0]
    events = play(state, "0: draw")  # the owner lets its chance go
    assert event(events, "fight_resolved")["owner"] == 1
    assert state.current_player == 1
    assert not any(m.startswith("play B12") for m in legal(state))  # m1 is seat 1's own now


def test_D6_closed_during_fight_discards_last_chest_and_bandits():
    state = deal({0: "MG GG G", 1: "B5", 2: "G B6", 3: "X"})
    play(state, "0: play MG 0", "1: draw", "2: draw", "3: draw")
    play(state, "0: play GG m1", "1: draw", "2: draw", "3: draw", "0: play G m1")
    play(state, "1: play B5 m1")
    play(state, "2: play G m1")  # chests now GG, G, G: the last one laid during the fight
    events = play(state, "3: play X m1")  # an attacker closes the fought-over mine
    ended = event(events, "fight_ended")
    assert ended["discarded"] == ["G", "B5"]
    assert state.fight is None
    assert mine(state, "m1") == {"name": "m1", "owner": 0, "metal": "gold", "chests": ["GG", "G"], "closed": True,
                                "points_if_closed": 12}
    assert state.hand_points() == [12, 0, 0, 0]  # GG first: 6 + 6
    assert sorted(discard(state)) == sorted(["G", "B5"])
    # Play goes on; no resolution when it comes back to seat 1.
    events = play(state, "0: draw")
    assert "fight_resolved" not in kinds(events)
    assert state.current_player == 1 and mine(state, "m1")["owner"] == 0


def test_D6_closed_during_fight_by_the_defence_with_a_double_laid_last():
    state = deal({0: "MG G GG", 1: "B5", 2: "X"})
    play(state, "0: play MG 0", "1: draw", "2: draw", "3: draw")
    play(state, "0: play G m1", "1: draw", "2: draw", "3: draw", "0: play GG m1")
    play(state, "1: play B5 m1", "2: play X m1")
    assert mine(state, "m1")["chests"] == ["G"]
    assert state.hand_points() == [3, 0, 0, 0]
    assert sorted(discard(state)) == sorted(["GG", "B5"])


def test_D6_fight_lapses_at_hand_end():
    state = _fight_in_last_round(DiggingOptions())
    assert state.current_player == CHANCE
    assert state.fight is None
    assert mine(state, "m1")["owner"] == 0  # the mine stays where it is
    assert sorted(discard(state)) == sorted(["B5", "B4"])
    assert card_census(state) == expected_census(state)


def test_D6_resolution_in_the_last_round_before_the_attackers_final_turn():
    state = deal({0: "MG", 1: "B5 X", 2: "G"})
    play(state, "0: play MG 0", "1: draw", "2: play G m1", "3: draw", "0: pass C")
    for _ in range(32):
        state.apply_move("draw")
    assert len(state.pile) == 2
    play(state, "1: play B5 m1", "2: draw", "3: draw")  # seat 3 draws the last card
    assert state.observation(0)["last_round"] == 4
    events = play(state, "0: pass C")  # play comes back to seat 1: the fight is resolved first
    assert event(events, "fight_resolved")["owner"] == 1
    play(state, "1: play X m1")  # seat 1's final turn: it closes the mine it just won
    play(state, f"2: pass {hand(state, 2)[0]}")
    events = play(state, f"3: pass {hand(state, 3)[0]}")
    assert event(events, "hand_scored")["points"] == [0, 3, 0, 0]


def _fight_in_last_round(options: DiggingOptions) -> DiggingState:
    """Seat 3 starts a fight in the last round and the hand ends before play returns to it."""
    state = deal({0: "MG", 1: "B4", 2: "G", 3: "B5"}, options=options)
    play(state, "0: play MG 0", "1: draw", "2: play G m1", "3: draw")
    while state.pile:
        state.apply_move("draw")
    # 34 draws from seat 0 on: seat 1 drew the last card; the last round is 2, 3, 0, 1.
    play(state, f"2: pass {hand(state, 2)[0]}", "3: play B5 m1", f"0: pass {hand(state, 0)[0]}")
    events = play(state, "1: play B4 m1")
    assert "hand_scored" in kinds(events)
    return state


# ----------------------------------------------------------------------------
# D7 End of a hand
# ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "partnership"), [(4, True), (3, False), (2, False)])
def test_D7_last_round_after_final_draw(players: int, partnership: bool):
    state = deal({0: "MC"}, players=players, partnership=partnership)
    # Seat 0 opens a mine first, so that the last card falls to another seat than the usual.
    play(state, "0: play MC 0")
    drawer = None
    while state.pile:
        drawer = state.current_player
        state.apply_move("draw")
    assert drawer is not None
    assert "draw" not in legal(state)
    # Every player has exactly one more turn, from the one after the drawer to the drawer.
    order = [(drawer + k) % players for k in range(1, players + 1)]
    for k, seat in enumerate(order):
        assert state.current_player == seat
        assert state.observation(seat)["last_round"] == players - k
        assert state.history == []  # not scored yet
        moves = sorted(legal(state))
        events = state.apply_move(moves[0])
    assert kinds(events)[-1] in ("hand_scored", "game_over")
    assert state.current_player == CHANCE
    assert len(state.history) == 1


# ----------------------------------------------------------------------------
# D8 Scoring a hand
# ----------------------------------------------------------------------------


def test_D8_scoring_seed_example_8_24_5():
    state = deal(
        {
            0: "MS MG MC X X X",
            1: "S GG G C",
            2: "S G C C",
            3: "SS G CC MG G",
        }
    )
    play(state, "0: play MS 0", "1: play S m1", "2: play S m1", "3: play SS m1")
    play(state, "0: play MG 0", "1: play GG m2", "2: play G m2", "3: play G m2")
    play(state, "0: play MC 0", "1: play G m2", "2: play C m3", "3: play CC m3")
    closes = play(state, "0: play X m1", "1: play C m3", "2: play C m3", "3: play MG 3")
    closes += play(state, "0: play X m2", "1: draw", "2: draw", "3: play G m4")
    closes += play(state, "0: play X m3")
    assert mine(state, "m1")["chests"] == cards("S S SS")
    assert mine(state, "m2")["chests"] == cards("GG G G G")
    assert mine(state, "m3")["chests"] == cards("C CC C C")
    assert [e.view(None)["points"] for e in closes if e.kind == "close"] == [8, 24, 5]
    assert state.hand_points() == [37, 0, 0, 0]
    # m4 (seat 3's gold mine with a chest) stays open: it scores nothing.
    events = finish_hand(state)
    assert not mine(state, "m4")["closed"]
    assert event(events, "hand_scored")["points"] == [37, 0, 0, 0]
    assert state.scores() == [37, 0, 0, 0]
    assert state.history == [[37, 0, 0, 0]]


def test_D8_mine_points_table():
    g, s, c = CODE_OF["G"], CODE_OF["S"], CODE_OF["C"]
    gg, ss, cc = CODE_OF["GG"], CODE_OF["SS"], CODE_OF["CC"]
    assert mine_points(SILVER, [s, s, ss]) == 8
    assert mine_points(GOLD, [gg, g, g, g]) == 24
    assert mine_points(COPPER, [c, cc, c, c]) == 5
    assert mine_points(GOLD, []) == 0
    assert mine_points(GOLD, [g]) == 3 and mine_points(SILVER, [s]) == 2 and mine_points(COPPER, [c]) == 1
    assert mine_points(GOLD, [gg]) == 6 and mine_points(SILVER, [ss]) == 4 and mine_points(COPPER, [cc]) == 2
    assert sorted(DOUBLE_CODES) == sorted([gg, ss, cc])


def test_D8_double_first_doubles_every_chest():
    state = deal({0: "MG GG G G X", 1: "MS S SS S X", 2: "MC CC C"})
    play(state, "0: play MG 0", "1: play MS 1", "2: play MC 2", "3: draw")
    play(state, "0: play GG m1", "1: play S m2", "2: play CC m3", "3: draw")
    play(state, "0: play G m1", "1: play SS m2", "2: play C m3", "3: draw")
    play(state, "0: play G m1", "1: play S m2", "2: draw", "3: draw")
    play(state, "0: play X m1", "1: play X m2")
    assert state.hand_points()[0] == 3 * 6  # GG first: G, G score 6 each too
    assert state.hand_points()[1] == 2 + 4 + 2  # a double not first: only itself counts double
    assert mine(state, "m1")["closed"] and mine(state, "m2")["closed"]


def test_D8_open_mines_score_nothing():
    state = deal({0: "MG GG G G G G"})
    play(state, "0: play MG 0", "1: draw", "2: draw", "3: draw")
    play(state, "0: play GG m1", "1: draw", "2: draw", "3: draw")
    for _ in range(4):
        play(state, "0: play G m1", "1: draw", "2: draw", "3: draw")
    assert mine(state, "m1")["chests"] == cards("GG G G G G")
    events = finish_hand(state)
    assert not mine(state, "m1")["closed"]
    assert event(events, "hand_scored")["points"] == [0, 0, 0, 0]
    assert state.scores() == [0, 0, 0, 0]


# ----------------------------------------------------------------------------
# D9 The game
# ----------------------------------------------------------------------------


def _gold_sixty(state: DiggingState, a: int, b: int) -> None:
    """Seats a and b (partners; a moves first) fill a gold mine in a's display with
    GG and nine G and close it: 10 chests, all doubled, 60 points. Everyone else draws."""
    n = state.num_players

    def others(k: int = 3) -> None:
        for _ in range(k):
            play(state, f"{state.current_player}: draw")

    def turn(seat: int, move: str) -> None:
        while state.current_player != seat:
            others(1)
        play(state, f"{seat}: {move}")

    turn(a, f"play MG {a}")
    turn(a, "play GG m1")
    turn(b, "play G m1")
    for _ in range(4):
        turn(a, "play G m1")
        turn(b, "play G m1")
    turn(b, "play X m1")
    assert mine(state, "m1")["chests"] == cards("GG G G G G G G G G G")
    assert state.hand_points()[a] == 60
    assert n == 4


def test_D9_game_to_target_dealer_moves_on():
    state = deal({0: "MG G X"})
    play(state, "0: play MG 0", "1: draw", "2: draw", "3: draw", "0: play G m1", "1: draw", "2: draw", "3: draw")
    play(state, "0: play X m1")
    finish_hand(state)
    assert state.scores() == [3, 0, 0, 0]
    assert state.current_player == CHANCE and state.winners() is None
    # Hand 2: the dealer is seat 0 (who moved first in hand 1); seat 1 moves first.
    deck = deck_for({1: "MG GG G G G G", 3: "G G G G G X"}, dealer=0)
    events = state.apply_chance(deck)
    assert state.dealer == 0 and state.current_player == 1
    assert event(events, "deal")["dealer"] == 0
    assert hand(state, 1) == sorted_cards("MG GG G G G G")  # dealt from seat 1, the dealer's left
    assert state.hand_points() == [0, 0, 0, 0] and state.mines == []
    _gold_sixty(state, 1, 3)
    events = finish_hand(state)
    assert state.scores() == [3, 60, 0, 0]
    assert state.current_player == TERMINAL
    assert state.winners() == [1, 3]
    assert state.returns() == [0.0, 1.0, 0.0, 1.0]
    assert event(events, "game_over")["winners"] == [1, 3]


def test_D9_target_not_reached_another_hand_with_next_dealer():
    state = new_game(3, seed=5)
    for expected_dealer in (2, 0, 1, 2):
        assert state.dealer == expected_dealer
        assert state.current_player == (expected_dealer + 1) % 3
        finish_hand(state)
        if state.is_terminal():
            break
        state.apply_chance(state.sample_chance(random.Random(expected_dealer)))


def test_D9_tie_at_top_plays_another_hand():
    # Two players, target 40; the score stands at 30 : 34.
    state = deal({0: "MC CC C C C C", 1: "MG G G X X B1"}, players=2, totals=[30, 34])
    play(state, "0: play MC 0", "1: play MG 1", "0: play CC m1", "1: play G m2", "0: play C m1", "1: play G m2")
    play(state, "0: play C m1", "1: play X m2", "0: play C m1", "1: draw", "0: play C m1", "1: play X m1")
    assert state.hand_points() == [10, 6]
    finish_hand(state)
    assert state.scores() == [40, 40]
    assert state.current_player == CHANCE and state.winners() is None  # tied at the top
    state.apply_chance(deck_for({1: "MG G X"}, players=2, dealer=0))
    assert state.current_player == 1
    play(state, "1: play MG 1", "0: draw", "1: play G m1", "0: draw", "1: play X m1")
    finish_hand(state)
    assert state.scores() == [40, 43]
    assert state.winners() == [1]
    assert state.returns() == [0.0, 1.0]


def test_D9_highest_total_wins_when_several_reach_the_target():
    state = deal(
        {0: "MS S S X", 1: "MG G G", 2: "SS S S", 3: "GG G G X"},
        totals=[20, 20, 20, 15],
    )
    play(state, "0: play MS 0", "1: play MG 1", "2: play SS m1", "3: play GG m2")
    play(state, "0: play S m1", "1: play G m2", "2: play S m1", "3: play G m2")
    play(state, "0: play S m1", "1: play G m2", "2: play S m1", "3: play G m2")
    play(state, "0: play X m1", "1: draw", "2: draw", "3: play X m2")
    assert state.hand_points() == [20, 30, 0, 0]  # m2 is seat 1's mine, whoever closed it
    finish_hand(state)
    assert state.side_totals() == {0: 60, 1: 65}  # both reached 60: the highest wins
    assert state.winners() == [1, 3]


def test_D9_game_stops_at_the_end_of_the_hand_not_when_points_are_made():
    state = deal({0: "MG GG G G G G", 2: "G G G G G X"})
    _gold_sixty(state, 0, 2)
    assert state.hand_points()[0] == 60
    assert not state.is_terminal() and state.current_player >= 0
    assert state.scores() == [0, 0, 0, 0]
    finish_hand(state)
    assert state.winners() == [0, 2]


def test_D9_no_action_after_the_game_is_over():
    state = deal({0: "MG GG G G G G", 2: "G G G G G X"})
    _gold_sixty(state, 0, 2)
    finish_hand(state)
    assert state.current_player == TERMINAL
    assert state.legal_actions() == []
    with pytest.raises(RuleError) as err:
        state.apply_move("draw")
    assert err.value.rule == "D9"


# ----------------------------------------------------------------------------
# Modes
# ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "partnership", "size", "singles"),
    [(2, False, 48, 5), (3, False, 54, 7), (4, False, 60, 9), (4, True, 60, 9)],
)
def test_modes_deck_reductions_48_54_60(players: int, partnership: bool, size: int, singles: int):
    state = new_game(players, partnership, seed=3)
    census = card_census(state)
    assert sum(census) == size
    assert len(state.pile) == size - 6 * players
    for word in ("G", "S", "C"):
        assert census[CODE_OF[word]] == singles
    for word in ("GG", "SS", "CC"):  # double chests are never removed
        assert census[CODE_OF[word]] == 1
    for word in ("MG", "MS", "MC"):
        assert census[CODE_OF[word]] == 3
    assert census[CODE_OF["X"]] == 9
    assert all(census[CODE_OF[f"B{v}"]] == 1 for v in range(1, 13))
    assert len(DiggingState(players, partnership).sample_chance(random.Random(0))) == size
    # The deck for another table is refused.
    wrong = deck_in_use(4, True) if size != 60 else deck_in_use(2, False)
    with pytest.raises(RuleError) as err:
        new_game(players, partnership, deck=wrong)
    assert err.value.rule == "D1"


def _three_points_from(
    before: int, players: int, partnership: bool, options: DiggingOptions | None = None
) -> DiggingState:
    """Seat 0 stands at ``before`` and closes a gold mine with one chest (3 points); the hand ends."""
    state = deal({0: "MG G X"}, players=players, partnership=partnership, options=options,
                 totals=[before] + [0] * (players - 1))  # fmt: skip
    play(state, "0: play MG 0")
    while state.current_player != 0:
        state.apply_move("draw")
    play(state, "0: play G m1")
    while state.current_player != 0:
        state.apply_move("draw")
    play(state, "0: play X m1")
    finish_hand(state)
    return state


@pytest.mark.parametrize(
    ("players", "partnership", "target"), [(2, False, 40), (3, False, 45), (4, False, 50), (4, True, 60)]
)
def test_modes_targets_40_45_50_60(players: int, partnership: bool, target: int):
    assert new_game(players, partnership, seed=0).observation(0)["target"] == target
    for before, over in ((target - 3, True), (target - 4, False)):
        state = _three_points_from(before, players, partnership)
        assert state.scores()[0] == before + 3
        assert state.is_terminal() == over
        if over:
            assert 0 in state.winners()


def test_modes_partnership_is_for_four():
    with pytest.raises(ValueError):
        DiggingState(3, True)
    assert DiggingState(4).partnership is True
    assert DiggingState(3).partnership is False


def test_modes_no_passing_in_individual_game():
    state = deal({0: "MG G S"}, players=4, partnership=False)
    assert not any(m.startswith("pass") for m in legal(state))
    with pytest.raises(RuleError) as err:
        state.apply_move("pass G")
    assert err.value.rule == "D2"
    partners = deal({0: "MG G S"})
    assert {"pass MG", "pass G", "pass S"} <= legal(partners)


def test_modes_individual_every_other_player_is_an_opponent():
    state = deal({0: "MG G", 2: "B7"}, players=4, partnership=False)
    play(state, "0: play MG 0", "1: draw")
    assert "play B7 m1" not in legal(state)  # no chest yet
    play(state, "2: draw", "3: draw", "0: play G m1", "1: draw")
    assert "play B7 m1" in legal(state)  # seat 2 would be seat 0's partner in the partnership game
    play(state, "2: play B7 m1", "3: draw", "0: draw", "1: draw")
    assert mine(state, "m1")["owner"] == 2


def test_modes_individual_scores_per_player():
    state = deal({0: "MG G", 2: "X"}, players=4, partnership=False)
    play(state, "0: play MG 0", "1: draw", "2: draw", "3: draw", "0: play G m1", "1: draw", "2: play X m1")
    finish_hand(state)
    assert state.scores() == [3, 0, 0, 0]
    assert state.side_totals() == {0: 3, 1: 0, 2: 0, 3: 0}


# ----------------------------------------------------------------------------
# Rule options (each off by default; the alternative reading when switched on)
# ----------------------------------------------------------------------------


def test_options_all_off_by_default():
    options = DiggingOptions()
    assert options.to_json() == {}
    assert not any(
        (options.target_exceeded, options.full_deck, options.no_chests_during_fight, options.close_needs_chest)
    )  # fmt: skip
    with pytest.raises(ValueError):
        DiggingOptions.from_json({"no_such_option": True})
    with pytest.raises(ValueError):
        DiggingOptions.from_json({"full_deck": 1})


def test_option_target_exceeded_needs_more_than_the_target():
    on = DiggingOptions(target_exceeded=True)
    state = deal({0: "MG GG G G G G", 2: "G G G G G X"}, options=on)
    _gold_sixty(state, 0, 2)
    finish_hand(state)
    assert state.side_totals() == {0: 60, 1: 0}
    assert state.current_player == CHANCE  # 60 only reaches the target; it must be passed
    state.apply_chance(deck_for({0: "G", 1: "MG X"}, dealer=0, options=on))
    play(state, "1: play MG 1", "2: draw", "3: draw", "0: play G m1", "1: play X m1")
    finish_hand(state)
    assert state.side_totals() == {0: 60, 1: 3}
    assert state.current_player == CHANCE
    state.apply_chance(deck_for({2: "MC C X"}, dealer=1, options=on))
    play(state, "2: play MC 2", "3: draw", "0: draw", "1: draw", "2: play C m1", "3: draw", "0: draw", "1: draw")
    play(state, "2: play X m1")
    finish_hand(state)
    assert state.side_totals() == {0: 61, 1: 3}
    assert state.winners() == [0, 2]


@pytest.mark.parametrize(("players", "partnership"), [(2, False), (4, True)])
def test_option_target_sets_the_points_that_win(players: int, partnership: bool):
    # A designer's knob, not a reading: 10 points win in place of the rules' 40 or 60 (D9 otherwise).
    on = DiggingOptions(target=10)
    assert new_game(players, partnership, seed=0, options=on).observation(0)["target"] == 10
    for before, over in ((7, True), (6, False)):
        assert _three_points_from(before, players, partnership, on).is_terminal() == over
    # The record keeps the target, and a game read back from it plays to it.
    game = new_game(players, partnership, seed=1, options=on)
    assert game.record()["options"] == {"target": 10}
    assert registry.get("digging").restore(game.record())[0].target == 10
    assert DiggingState.from_json(game.to_json()).target == 10


@pytest.mark.parametrize("bad", [True, 0.5, "30", -1, 121])
def test_option_target_is_a_whole_number_of_points_up_to_120(bad: object):
    with pytest.raises(ValueError, match="target must be a whole number of points from 1 to 120"):
        DiggingOptions.from_json({"target": bad})
    assert DiggingOptions.from_json({"target": 0}) == DiggingOptions()  # 0: the rules' target


@pytest.mark.parametrize(("players", "partnership", "size"), [(2, False, 12), (3, False, 1), (4, True, 8)])
def test_option_hand_size_deals_that_many_cards_each(players: int, partnership: bool, size: int):
    # A designer's knob, not a reading: D1 deals 6 each; the rest is the pile, as ever.
    on = DiggingOptions(hand_size=size)
    state = deal({0: "MG"}, players=players, partnership=partnership, options=on)
    assert state.sizes == [size] * players and len(state.hand_codes(0)) == size and "MG" in state.hand_codes(0)
    assert state.pile_size == len(deck_in_use(players, partnership, on)) - size * players
    play(state, "0: play MG 0")  # seat 0 moves first and plays on as under D2
    assert state.sizes[0] == size - 1 and state.current_player == 1
    # The record keeps it, and a game read back from it deals as many again.
    game = new_game(players, partnership, seed=1, options=on)
    assert game.record()["options"] == {"hand_size": size}
    restored = registry.get("digging").restore(game.record())[0]
    assert restored.sizes == [size] * players  # type: ignore[attr-defined]
    assert DiggingState.from_json(game.to_json()).hand_size == size


@pytest.mark.parametrize("bad", [True, 6.0, "8", -1, 13])
def test_option_hand_size_is_a_whole_number_of_cards_up_to_12(bad: object):
    with pytest.raises(ValueError, match="hand_size must be a whole number of cards from 1 to 12"):
        DiggingOptions.from_json({"hand_size": bad})
    assert DiggingOptions.from_json({"hand_size": 0}) == DiggingOptions()  # 0: the rules' 6


@pytest.mark.parametrize(("players", "size"), [(2, 48), (3, 54)])
def test_option_full_deck_plays_all_60_cards_with_fewer_players(players: int, size: int):
    reduced = new_game(players, seed=1)
    full = new_game(players, seed=1, options=DiggingOptions(full_deck=True))
    assert sum(card_census(reduced)) == size
    assert sum(card_census(full)) == 60
    assert card_census(full)[CODE_OF["G"]] == 9
    assert full.target == reduced.target


def test_option_no_chests_during_fight():
    on = DiggingOptions(no_chests_during_fight=True)
    state = deal({0: "MG G G", 1: "B5 MG", 2: "G G G", 3: "G"}, options=on)
    play(state, "0: play MG 0", "1: play MG 1", "2: play G m1", "3: play G m2", "0: draw")
    play(state, "1: play B5 m1")
    assert "play G m1" not in legal(state)  # m1 is under attack
    assert "play G m2" in legal(state)  # other mines still take chests
    with pytest.raises(RuleError) as err:
        state.apply_move("play G m1")
    assert err.value.rule == "D4"
    play(state, "2: play G m2", "3: draw", "0: draw")
    assert state.fight is None
    play(state, "1: draw")
    assert "play G m1" in legal(state)  # the fight is over: chests again
    # Default reading: chests may go onto a mine under attack.
    default = deal({0: "MG G G", 1: "B5 MG", 2: "G G", 3: "G"})
    play(default, "0: play MG 0", "1: play MG 1", "2: play G m1", "3: play G m2", "0: draw", "1: play B5 m1")
    assert "play G m1" in legal(default)


def test_option_close_needs_chest():
    on = DiggingOptions(close_needs_chest=True)
    state = deal({0: "MG G", 1: "X"}, options=on)
    play(state, "0: play MG 0")
    assert "play X m1" not in legal(state)
    with pytest.raises(RuleError) as err:
        state.apply_move("play X m1")
    assert err.value.rule == "D5"
    play(state, "1: draw", "2: draw", "3: draw", "0: play G m1")
    assert "play X m1" in legal(state)
    default = deal({0: "MG G", 1: "X"})
    play(default, "0: play MG 0")
    assert "play X m1" in legal(default)


def test_D6_resolve_fight_at_hand_end_is_no_longer_an_option():
    """It could never change a score: a fought-over mine is open, open mines score nothing (D8)."""
    with pytest.raises(ValueError, match=r"resolve_fight_at_hand_end was removed: .*could never change a score"):
        DiggingOptions.from_json({"resolve_fight_at_hand_end": True})
    state = _fight_in_last_round(DiggingOptions())
    assert state.fight is None and sorted(discard(state)) == sorted(["B5", "B4"])  # the fight lapsed
    assert card_census(state) == expected_census(state)


def test_D9_target_exceeded_is_for_the_partnership_game_only():
    """The German sheet says "exceed" in its partnership section alone: the individual
    game ends when a player reaches the target, option or not."""
    on = DiggingOptions(target_exceeded=True)
    state = DiggingState(2, False, on)
    assert state.target == 40
    state.totals = [0, 0]
    state.totals[0] = 40
    assert state._game_winners() == [0]  # reached is enough in the individual game
    team = DiggingState(4, True, on)
    team.totals = [60, 0, 0, 0]
    assert team._game_winners() is None  # the partnership must pass 60


def test_options_are_recorded_and_restored():
    on = DiggingOptions(close_needs_chest=True, target_exceeded=True)
    state = new_game(4, seed=2, options=on)
    assert state.record()["options"] == {"close_needs_chest": True, "target_exceeded": True}
    assert DiggingState.from_json(state.to_json()).options == on
    assert "options" not in new_game(4, seed=2).record()
