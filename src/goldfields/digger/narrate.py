"""Digger events in words, for game logs in every front end.

Takes an event as a seat may see it (``Event.view(seat)``). A step's time is
only in the views of the seats that may see the hourglass (everyone but the
digger), so a line says ``[12.5 s]`` exactly when its reader may know it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .dice import COLOUR_NAMES, FACES


def colour(letter: str) -> str:
    return f"{COLOUR_NAMES[FACES.index(letter)]} ({letter})"


def tokens(counts: Mapping[str, int]) -> str:
    """``{"B": 1, "Y": 0, "R": 2}`` -> ``B1 R2``; empty: ``nothing``."""
    text = " ".join(f"{k}{v}" for k, v in counts.items() if v)
    return text or "nothing"


def _at(ev: Mapping[str, Any]) -> str:
    return f" [{ev['at']:.1f} s]" if ev.get("at") is not None else ""


def roll_text(faces: str, unique: list[str], black: bool, steal: bool) -> str:
    gives = f"once: {' '.join(unique)}" if unique else "no colour shows once"
    steal_text = ("; black once: a gem may be stolen" if steal else "; black once, nothing to steal") if black else ""
    return f"{' '.join(faces)} ({gives}{steal_text})"


def event_text(ev: Mapping[str, Any], seat_name: Callable[[int], str] = lambda s: f"seat {s}") -> str:
    """One line of English for an event view."""
    kind = ev["kind"]
    who = seat_name(ev["seat"]) if "seat" in ev else ""
    if kind == "turn_start":
        return f"Turn {ev['turn'] + 1}: {who} digs."
    if kind == "throw":
        if ev["first"]:
            return f"{who} throws the dice and the hourglass is turned."  # at 0, by definition
        return f"{who} throws again (roll {ev['roll']}).{_at(ev)}"
    if kind == "roll":
        return f"{who} rolls {roll_text(ev['faces'], ev['unique'], ev['black'], ev['steal'])}."
    if kind == "take":
        return f"{who} takes {colour(ev['colour'])} from the centre ({ev['centre']} left).{_at(ev)}"
    if kind == "steal":
        return f"{who} steals {colour(ev['colour'])} from the crate of {seat_name(ev['from'])}.{_at(ev)}"
    if kind == "stop":
        banked = tokens(ev["banked"])
        boxed = f", boxes {ev['boxed']} blue" if ev["boxed"] else ""
        late = ev.get("returned") or {}
        unstacked = ""
        if any(late.values()):
            unstacked = f"; the sand ran out while stacking: {tokens(late)} back to the centre"
        return f"{who} calls stop{_at(ev)}: banks {banked}{boxed}{unstacked}; score {ev['score']}."
    if kind in ("timeout", "knock"):
        back = tokens(ev["returned"])
        cause = ev.get("cause")
        if kind == "knock" or cause == "knock":
            return f"{who} knocks a pile over: the haul ({back}) goes back to the centre."
        if cause == "late stop":
            return f"{who} calls stop too late{_at(ev)}: the sand had run out; the haul ({back}) goes back."
        if cause and cause.startswith("late "):
            return f"Too late{_at(ev)}: the sand ran out before {who}'s {cause[5:]}; the haul ({back}) goes back."
        return f"Time! The sand has run out on {who}: the haul ({back}) goes back to the centre."
    if kind == "game_over":
        winners = " and ".join(seat_name(s) for s in ev["winners"])
        scores = ", ".join(f"{seat_name(s)} {p}" for s, p in enumerate(ev["scores"]))
        return f"Game over: {winners} win{'s' if len(ev['winners']) == 1 else ''}. Scores: {scores}."
    return f"{kind}: {dict(ev)}"
