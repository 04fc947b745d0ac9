"""The log's words for Digging events (the terminal's, and the server's English log line)."""

from __future__ import annotations

from goldfields.digging.narrate import event_text

NAMES = {0: "Flint", 1: "Opal"}


def test_closing_ones_own_mine_is_told_without_for_oneself() -> None:
    close = {"kind": "close", "seat": 0, "owner": 0, "mine": "m2", "points": 9}
    assert event_text(close, NAMES.__getitem__) == "Flint closes m2: 9 points."


def test_closing_another_seats_mine_names_its_owner() -> None:
    close = {"kind": "close", "seat": 0, "owner": 1, "mine": "m3", "points": 1}
    assert event_text(close, NAMES.__getitem__) == "Flint closes m3 for Opal: 1 point."
