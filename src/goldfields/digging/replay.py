"""Checking a Digging game record move by move (``goldfields replay``).

The output format is documented in docs/records.md. Exit statuses: 0 when
the record is legal, 1 for the first illegal move, 2 for a malformed record.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..core.game import Event, RuleError
from .cards import CODES
from .options import DiggingOptions
from .state import DiggingState

RECORD_KEYS = ("game", "players", "partnership", "dealer", "options", "hands")
HAND_KEYS = ("dealer", "deck", "moves")

OK, ILLEGAL, MALFORMED = 0, 1, 2


class _Malformed(Exception):
    def __init__(self, message: str, hand: int | None = None) -> None:
        super().__init__(message)
        self.hand = hand


def replay(record: Any) -> tuple[dict[str, Any], int]:
    """Replay ``record``; returns (the report to print, the exit status)."""
    try:
        state = _new_state(record)
    except _Malformed as err:
        return _report(None, {"hand": err.hand, "move": None, "message": str(err)}), MALFORMED
    error: dict[str, Any] | None = None
    status = OK
    for i, hand in enumerate(record["hands"]):
        try:
            _check_hand_shape(hand, i)
            if state.is_terminal():
                raise _Malformed(f"D9: the game was over after hand {i - 1}; hand {i} cannot follow", i)
            if not state.is_chance_node():
                raise _Malformed(f"D7: hand {i - 1} is not finished, yet hand {i} follows", i)
            expected = state.first if state.hand_no >= 0 else state.dealer
            if hand["dealer"] != expected:
                raise _Malformed(
                    f"D9: hand {i} must be dealt by seat {expected} "
                    + ("(the first player of the last hand)" if i else "(the record's first dealer)"),
                    i,
                )
            try:
                state.apply_chance(hand["deck"])
            except RuleError as err:
                raise _Malformed(str(err), i) from None
        except _Malformed as err:
            error, status = {"hand": err.hand, "move": None, "message": str(err)}, MALFORMED
            break
        for j, move in enumerate(hand["moves"]):
            try:
                if state.is_chance_node() or state.is_terminal():
                    raise RuleError("D7", f"hand {i} is over: no move may follow")
                state.apply_move(move)
            except RuleError as err:
                error, status = {"hand": i, "move": j, "message": f"{move!r}: {err}"}, ILLEGAL
                break
        if error is not None:
            break
    return _report(state, error), status


def _new_state(record: Any) -> DiggingState:
    if not isinstance(record, Mapping):
        raise _Malformed("a record is a JSON object")
    if record.get("game") != "digging":
        raise _Malformed(f"not a Digging record: game is {record.get('game')!r}")
    unknown = sorted(str(k) for k in set(record) - set(RECORD_KEYS))
    if unknown:
        # A misspelt field ("option") would otherwise be a game under the standard rules.
        raise _Malformed(f"unknown field(s) {', '.join(unknown)}; a Digging record has {', '.join(RECORD_KEYS)}")
    players = record.get("players")
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
        raise _Malformed(f"players must be 2, 3 or 4, not {players!r}")
    partnership = record.get("partnership", players == 4)
    if not isinstance(partnership, bool):
        raise _Malformed(f"partnership must be true or false, not {partnership!r}")
    if partnership and players != 4:
        raise _Malformed("the partnership game is for exactly 4 players")
    try:
        options = DiggingOptions.from_json(record.get("options"))
    except (ValueError, TypeError) as err:
        raise _Malformed(str(err)) from None
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise _Malformed("hands must be a list of hands (empty before the first deal)")
    # A game not dealt yet names its first dealer beside the hands (the last seat when left out);
    # once dealt, the first hand names it, and a dealer written beside it must agree.
    dealer = record.get("dealer", players - 1 if not hands else None)
    if not (dealer is None or _is_seat(dealer, players)):
        raise _Malformed(f"dealer must be a seat from 0 to {players - 1}, not {dealer!r}")
    if hands:
        if not isinstance(hands[0], Mapping):
            raise _Malformed("each hand is an object with dealer, deck and moves", 0)
        first = hands[0].get("dealer")
        if not _is_seat(first, players):
            raise _Malformed(f"dealer must be a seat from 0 to {players - 1}, not {first!r}", 0)
        if dealer is not None and dealer != first:
            raise _Malformed(f"the record's dealer is seat {dealer}, but seat {first} deals its first hand", 0)
        dealer = first
    return DiggingState(players, partnership, options, dealer)


def _is_seat(value: Any, players: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players


def _check_hand_shape(hand: Any, i: int) -> None:
    if not isinstance(hand, Mapping):
        raise _Malformed("each hand is an object with dealer, deck and moves", i)
    unknown = sorted(str(k) for k in set(hand) - set(HAND_KEYS))
    if unknown:
        raise _Malformed(f"unknown field(s) {', '.join(unknown)}; a hand has {', '.join(HAND_KEYS)}", i)
    if not isinstance(hand.get("dealer"), int) or isinstance(hand.get("dealer"), bool):
        raise _Malformed("dealer must be a seat number", i)
    deck = hand.get("deck")
    if not isinstance(deck, list) or not all(isinstance(c, str) and c.upper() in CODES for c in deck):
        raise _Malformed("deck must be a list of card codes (MG, G, GG, X, B7...)", i)
    moves = hand.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise _Malformed("moves must be a list of moves written in the notation", i)


def _report(state: DiggingState | None, error: dict[str, Any] | None) -> dict[str, Any]:
    out: dict[str, Any] = {"ok": error is None, "error": error}
    if state is None:
        out.update(hands=[], totals=[], winner=None, state=None)
        return out
    hands = [{"points": points, "over": True} for points in state.history]
    if state.hand_no >= 0 and len(state.history) == state.hand_no:
        hands.append({"points": state.hand_points(), "over": False})
    out["hands"] = hands
    out["totals"] = state.scores()
    out["winner"] = state.winners()
    if state.hand_no < 0:
        out["state"] = None
        return out
    fight = state.fight
    out["state"] = {
        "to_move": state.current_player if state.current_player >= 0 else None,
        "pile": state.pile_size,
        "hands": [state.hand_codes(s) for s in range(state.num_players)],
        "mines": [m.to_json() for m in state.mines],
        "fight": None
        if fight is None
        else {
            "mine": state.mines[fight.mine].name,
            "attacker": fight.attacker,
            "bandits": [{"seat": s, "card": CODES[c]} for s, c in fight.bandits],
        },
    }
    return out


def walk(record: Any) -> Iterator[tuple[DiggingState, str | None, list[Event]]]:
    """After each deal and each move of a valid record: (state, move text or None for a deal, events)."""
    state = _new_state(record)
    for hand in record["hands"]:
        yield state, None, state.apply_chance(hand["deck"])
        for move in hand["moves"]:
            yield state, move, state.apply_move(move)


def start(record: Any) -> DiggingState:
    """The game a valid record starts from, before its first deal (what a record with no hands restores to)."""
    return _new_state(record)


__all__ = ["ILLEGAL", "MALFORMED", "OK", "replay", "start", "walk"]


def positions(record: Any) -> Iterator[tuple[int, int, DiggingState, str]]:
    """Each move of a valid record with the position it was played in: (hand, move, state, move text).

    The state is the live replay: read it (or clone it) before taking the next item.
    Raises ``ValueError`` with the replay's message if the record is not valid."""
    report, status = replay(record)
    if status != OK:
        error = report.get("error") or {}
        raise ValueError(f"not a valid Digging record: {error.get('message', 'unreadable')}")
    state = _new_state(record)
    for i, hand in enumerate(record["hands"]):
        state.apply_chance(hand["deck"])
        for j, move in enumerate(hand["moves"]):
            yield i, j, state, move
            state.apply_move(move)
