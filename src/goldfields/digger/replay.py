"""Checking a Digger game record move by move (``goldfields replay``).

The record format and the report are documented in docs/digger.md. Exit
statuses: 0 when the record is legal, 1 for the first illegal move (or one
that is not in the notation), 2 for a malformed record.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.game import RuleError
from .dice import GEMS
from .options import DiggerOptions
from .state import DiggerState, tokens_json

OK, ILLEGAL, MALFORMED = 0, 1, 2
RECORD_KEYS = ("game", "players", "crates", "options", "moves")


class _Malformed(Exception):
    pass


def replay(record: Any) -> tuple[dict[str, Any], int]:
    """Replay ``record`` (parsed JSON); returns (the report to print, the exit status)."""
    try:
        state, moves = _read(record)
    except _Malformed as err:
        return _report(None, {"move": None, "message": str(err)}), MALFORMED
    for j, move in enumerate(moves):
        try:
            if state.is_terminal():
                raise RuleError("G6", "the game is over: no move may follow")
            state.apply_move(move)
        except RuleError as err:
            return _report(state, {"move": j, "message": f"{move!r}: {err}"}), ILLEGAL
    return _report(state, None), OK


def _read(record: Any) -> tuple[DiggerState, list[str]]:
    if not isinstance(record, Mapping):
        raise _Malformed("a record is a JSON object")
    if record.get("game") != "digger":
        raise _Malformed(f"not a Digger record: game is {record.get('game')!r}")
    unknown = sorted(str(k) for k in set(record) - set(RECORD_KEYS))
    if unknown:
        raise _Malformed(f"unknown field(s) {', '.join(unknown)}; a Digger record has {', '.join(RECORD_KEYS)}")
    players = record.get("players")
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 5:
        raise _Malformed(f"players must be 2, 3, 4 or 5, not {players!r}")
    if "crates" not in record:
        raise _Malformed('crates is missing: "white", or {"black": [one card letter per seat]}')
    crates = record["crates"]
    if not (crates == "white" or (isinstance(crates, Mapping) and isinstance(crates.get("black"), list))):
        raise _Malformed(f'crates must be "white" or {{"black": [one card letter per seat]}}, not {crates!r}')
    try:
        options = DiggerOptions.from_json(record.get("options"))
        state = DiggerState(players, crates, options)
    except (ValueError, TypeError) as err:
        raise _Malformed(str(err)) from None
    moves = record.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise _Malformed("moves must be a list of moves written in the notation")
    return state, moves


def _report(state: DiggerState | None, error: dict[str, Any] | None) -> dict[str, Any]:
    out: dict[str, Any] = {"ok": error is None, "error": error}
    if state is None:
        out.update(scores=[], game_over=False, winner=None, state=None)
        return out
    over = state.is_terminal()
    out["scores"] = state.scores()
    out["game_over"] = over
    out["winner"] = state.winners()
    out["state"] = {
        "to_move": None if over else state.digger,
        "centre": tokens_json(state.centre),
        "crates": [tokens_json(crate, GEMS) for crate in state.crates],
        "haul": tokens_json(state.haul),
        "box": {"B": state.box},
    }
    return out


__all__ = ["ILLEGAL", "MALFORMED", "OK", "replay"]
