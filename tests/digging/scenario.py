"""Build exact Digging positions from readable hands, and drive them turn by turn.

A test reads like the game::

    state = deal({0: "MG G G G B5 X", 1: "MS S S B7 B3 C"}, pile="G S")
    play(state, "0: play MG 0", "1: play G m1", "2: draw")

``deal`` constructs the whole deck in use, top card first, so that the engine's
own deal (one card at a time from the dealer's left, RULINGS D1) hands every
seat exactly the cards written down and puts ``pile`` on top of the draw pile.
A hand written with fewer than six cards (or not written at all) is completed,
and the pile below the written cards filled, with the cards left over in a
fixed "dullest first" order (copper, silver, gold chests, closed-mine cards,
mine cards, double chests, bandits last), so every scenario is reproducible.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from goldfields.core.game import CHANCE, Event
from goldfields.digging import DiggingOptions, DiggingState, new_game
from goldfields.digging.cards import CODES, deck_counts, expand
from goldfields.digging.options import hand_size_for

FILL_ORDER = ("C", "S", "G", "X", "MC", "MS", "MG", "CC", "SS", "GG", *(f"B{v}" for v in range(1, 13)))


def cards(text: str | Iterable[str]) -> list[str]:
    """``"MG G  gg"`` -> ``["MG", "G", "GG"]``."""
    words = text.split() if isinstance(text, str) else list(text)
    out = [w.upper() for w in words]
    for w in out:
        if w not in CODES:
            raise ValueError(f"unknown card {w!r} in a scenario")
    return out


def sorted_cards(text: str | Iterable[str]) -> list[str]:
    """Cards in the engine's canonical order (the order ``observation()['hand']`` uses)."""
    return sorted(cards(text), key=CODES.index)


def deck_in_use(players: int = 4, partnership: bool | None = None, options: DiggingOptions | None = None) -> list[str]:
    """The cards of the deck in use for this table, in canonical order."""
    if partnership is None:
        partnership = players == 4
    full = bool(options and options.full_deck)
    return [CODES[c] for c in expand(deck_counts(players, partnership, full))]


def deck_for(
    hands: Mapping[int, str],
    pile: str = "",
    *,
    players: int = 4,
    partnership: bool | None = None,
    dealer: int | None = None,
    options: DiggingOptions | None = None,
) -> list[str]:
    """The deck, top card first, that deals ``hands`` and puts ``pile`` (top first) on top of the pile."""
    if dealer is None:
        dealer = players - 1
    left = Counter(deck_in_use(players, partnership, options))
    size = hand_size_for(options)

    def take(word: str) -> str:
        if left[word] <= 0:
            raise ValueError(f"the scenario uses more {word} than the deck in use holds")
        left[word] -= 1
        return word

    written: dict[int, list[str]] = {}
    for seat, text in hands.items():
        if not 0 <= seat < players:
            raise ValueError(f"no seat {seat} at a table of {players}")
        hand = cards(text)
        if len(hand) > size:
            raise ValueError(f"seat {seat} is dealt only {size} cards, not {hand}")
        written[seat] = [take(w) for w in hand]
    top = [take(w) for w in cards(pile)]

    def leftovers() -> list[str]:
        return [w for w in FILL_ORDER for _ in range(left[w])]

    for seat in range(players):
        hand = written.setdefault(seat, [])
        filler = leftovers()[: size - len(hand)]
        hand += [take(w) for w in filler]
    rest = leftovers()
    deck: list[str] = []
    for i in range(size * players):
        seat = (dealer + 1 + i) % players
        deck.append(written[seat][i // players])
    return deck + top + rest


def deal(
    hands: Mapping[int, str],
    pile: str = "",
    *,
    players: int = 4,
    partnership: bool | None = None,
    dealer: int | None = None,
    options: DiggingOptions | None = None,
    totals: Sequence[int] | None = None,
) -> DiggingState:
    """A new game whose first hand is dealt exactly as written.

    ``totals``: the game score per seat before this hand (a game already under way).
    """
    if partnership is None:
        partnership = players == 4
    deck = deck_for(hands, pile, players=players, partnership=partnership, dealer=dealer, options=options)
    if totals is None:
        return new_game(players, partnership, deck=deck, options=options, dealer=dealer)
    state = DiggingState(players, partnership, options, dealer)
    data = state.to_json()
    data["totals"] = list(totals)
    state = DiggingState.from_json(data)
    state.apply_chance(deck)
    return state


def play(state: DiggingState, *turns: str) -> list[Event]:
    """Apply turns written ``"<seat>: <move>"``, checking that it is that seat's turn."""
    events: list[Event] = []
    for turn in turns:
        seat_text, _, move = turn.partition(":")
        seat = int(seat_text)
        assert state.current_player == seat, f"{turn!r}: it is seat {state.current_player}'s turn, not seat {seat}'s"
        events += state.apply_move(move.strip())
    return events


def hand(state: DiggingState, seat: int) -> list[str]:
    """What ``seat`` holds, in canonical order."""
    return list(state.observation(seat)["hand"])


def legal(state: DiggingState) -> set[str]:
    """The legal moves of the seat to move, in the notation."""
    return {state.action_to_string(a) for a in state.legal_actions()}


def pile_top_first(state: DiggingState) -> list[str]:
    return [CODES[c] for c in reversed(state.pile)]


def mine(state: DiggingState, name: str) -> dict[str, Any]:
    """A mine as everyone sees it: name, owner, metal, chests (in order), closed."""
    for m in state.observation(None)["mines"]:
        if m["name"] == name:
            return m
    raise KeyError(name)


def discard(state: DiggingState) -> list[str]:
    return [CODES[c] for c in state.discard]


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


def event(events: Iterable[Event], kind: str) -> dict[str, Any]:
    """The one public event of this kind."""
    found = [e.view(None) for e in events if e.kind == kind]
    assert len(found) == 1, f"expected one {kind!r} event, got {len(found)}"
    return found[0]


_QUIET_ORDER = ("skip", "pass", "open", "chest", "bandit", "close_empty", "close")


def _quietness(state: DiggingState, move: str) -> int:
    words = move.split()
    if words[0] in ("skip", "pass"):
        return _QUIET_ORDER.index(words[0])
    card = words[1]
    if card in ("MG", "MS", "MC"):
        return _QUIET_ORDER.index("open")
    if card == "X":
        return _QUIET_ORDER.index("close_empty" if not mine(state, words[2])["chests"] else "close")
    if card.startswith("B"):
        return _QUIET_ORDER.index("bandit")
    return _QUIET_ORDER.index("chest")


def finish_hand(state: DiggingState) -> list[Event]:
    """Everyone draws until the pile is empty; then the last round (D7) is played as
    quietly as the rules allow (skip, pass, open a mine, lay a chest... closing a
    mine with chests only when nothing else is legal). Returns the events."""
    events: list[Event] = []
    hand_no = state.hand_no
    while state.pile:
        events += state.apply_move("draw")
    while state.current_player >= 0 and state.hand_no == hand_no:
        moves = sorted(legal(state), key=lambda m: (_quietness(state, m), m))
        events += state.apply_move(moves[0])
    assert state.current_player < 0, "the hand should be over"
    return events


def card_census(state: DiggingState) -> list[int]:
    """Counts per card code of every place a card can be: hands, pile, the mines
    (mine card, chests, and the closed-mine card of a closed mine), the bandits
    of the fight under way, the discard pile."""
    counts = [sum(column) for column in zip(*state.hands, strict=True)]
    for c in state.pile:
        counts[c] += 1
    for m in state.mines:
        counts[m.metal] += 1  # MG, MS, MC are codes 0, 1, 2, in metal order
        for c in m.chests:
            counts[c] += 1
        if m.closed:
            counts[CODES.index("X")] += 1
    if state.fight is not None:
        for _seat, c in state.fight.bandits:
            counts[c] += 1
    for c in state.discard:
        counts[c] += 1
    return counts


def expected_census(state: DiggingState) -> list[int]:
    return deck_counts(state.num_players, state.partnership, state.options.full_deck)


TABLES = ((2, False), (3, False), (4, False), (4, True))


def json_equal(a: Any, b: Any) -> bool:
    """Equal as JSON text (so tuples and lists compare alike)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


__all__ = [
    "CHANCE",
    "TABLES",
    "card_census",
    "cards",
    "deal",
    "deck_for",
    "deck_in_use",
    "discard",
    "event",
    "expected_census",
    "finish_hand",
    "hand",
    "json_equal",
    "kinds",
    "legal",
    "mine",
    "pile_top_first",
    "play",
    "sorted_cards",
]
