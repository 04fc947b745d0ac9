"""Digger events in words, for game logs in every front end.

Takes an event as a seat may see it (``Event.view(seat)``): the digger's own
view of its steps carries no time, so its log never shows the hourglass.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

COLOURS = {"B": "blue (water)", "Y": "yellow (gold)", "R": "red (ruby)", "G": "green (emerald)", "W": "white (diamond)"}


def _at(ev: Mapping[str, Any]) -> str:
    return f" at {ev['at']:.1f} s" if "at" in ev else ""


def _tokens(tokens: Mapping[str, int]) -> str:
    parts = [f"{n} {COLOURS.get(c, c)}" for c, n in tokens.items() if n]
    return ", ".join(parts) if parts else "nothing"


def event_text(ev: Mapping[str, Any], seat_name: Callable[[int], str] = lambda s: f"seat {s}") -> str:
    """One line of English for an event view."""
    kind = ev["kind"]
    who = seat_name(ev["seat"]) if "seat" in ev else ""
    if kind == "throw":
        return f"{who} turns the hourglass and rolls." if ev.get("first") else f"{who} rolls again{_at(ev)}."
    if kind == "roll":
        unique = ", ".join(ev["unique"]) or "none"
        steal = "; black shows once: stealing is open" if ev.get("black") else ""
        return f"{who} rolls {ev['faces']} (single colours: {unique}{steal})."
    if kind == "take":
        return f"{who} takes a {COLOURS.get(ev['colour'], ev['colour'])} token from the centre{_at(ev)}."
    if kind == "steal":
        return f"{who} steals a {COLOURS.get(ev['colour'], ev['colour'])} token from {seat_name(ev['from'])}{_at(ev)}!"
    if kind == "stop":
        boxed = f", {ev['boxed']} water into the box" if ev.get("boxed") else ""
        return f"{who} stops{_at(ev)} and banks {_tokens(ev['banked'])}{boxed}: {ev['score']} points."
    if kind == "timeout":
        why = {"hourglass": "The sand runs out", "late stop": "Too late: the sand ran out before the stop"}.get(
            ev.get("cause", ""), "The sand runs out"
        )
        return f"{why}: {who} loses the haul ({_tokens(ev['returned'])} back to the centre)."
    if kind == "knock":
        return f"{who} knocks a pile over and loses the haul ({_tokens(ev['returned'])} back to the centre)."
    if kind == "turn_start":
        return f"{who} takes the dice."
    if kind == "game_over":
        winners = " and ".join(seat_name(s) for s in ev["winners"])
        return f"The river is dry: game over. {winners} win{'s' if len(ev['winners']) == 1 else ''}."
    return f"{kind}: {dict(ev)}"
