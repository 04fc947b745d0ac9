"""Digging events in words, for game logs in every front end.

Takes an event as a seat may see it (``Event.view(seat)``), so a log never
says more than its reader may know.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..core.words import agree, plural
from .cards import CODE_OF, describe


def _card(code: str) -> str:
    return describe(CODE_OF[code])


def event_text(ev: Mapping[str, Any], seat_name: Callable[[int], str] = lambda s: f"seat {s}") -> str:
    """One line of English for an event view."""
    kind = ev["kind"]
    who = seat_name(ev["seat"]) if "seat" in ev else ""
    if kind == "deal":
        first = seat_name(ev["first"])
        mine = f" You hold {' '.join(ev['cards'])}." if "cards" in ev else ""
        return f"Hand {ev['hand'] + 1}: {seat_name(ev['dealer'])} deals; {first} plays first.{mine}"
    if kind == "draw":
        card = f" ({ev['card']})" if "card" in ev else ""
        return f"{who} draws a card{card}; {ev['pile']} left in the pile."
    if kind == "pass":
        card = f" ({ev['card']})" if "card" in ev else ""
        return f"{who} passes a card{card} to {seat_name(ev['to'])}."
    if kind == "open":
        where = "own display" if ev["owner"] == ev["seat"] else f"{seat_name(ev['owner'])}'s display"
        return f"{who} opens a {_card(ev['card'])} as {ev['mine']} in {where}."
    if kind == "chest":
        return f"{who} lays a {_card(ev['card'])} on {ev['mine']}."
    if kind == "close":
        whose = "" if ev["owner"] == ev["seat"] else f" for {seat_name(ev['owner'])}"
        return f"{who} closes {ev['mine']}{whose}: {plural(ev['points'], 'point')}."
    if kind == "fight_start":
        return f"{who} attacks {ev['mine']} of {seat_name(ev['owner'])} with {_card(ev['card'])}!"
    if kind == "fight_join":
        return f"{who} joins the fight over {ev['mine']} for the {ev['side']} with {_card(ev['card'])}."
    if kind == "fight_resolved":
        if "attack" in ev:
            score = f"{ev['attack']} against {ev['defence']}"
        else:
            score = f"highest {ev['highest']} by {seat_name(ev['by'])}"
        if ev["winner"] == "attack":
            return f"The attack on {ev['mine']} wins ({score}): it goes to {seat_name(ev['owner'])}."
        return f"The defence of {ev['mine']} holds ({score})."
    if kind == "fight_ended":
        return f"Closing {ev['mine']} ends its fight: {', '.join(ev['discarded'])} discarded."
    if kind == "fight_lapsed":
        return f"The hand ends before the fight over {ev['mine']} is decided: it lapses."
    if kind == "skip":
        return f"{who} cannot act and skips."
    if kind == "hand_scored":
        pts = ", ".join(f"{seat_name(s)} {p}" for s, p in enumerate(ev["points"]))
        return f"Hand {ev['hand'] + 1} scored: {pts}."
    if kind == "game_over":
        return f"Game over: {' and '.join(seat_name(s) for s in ev['winners'])} {agree(len(ev['winners']), 'win')}."
    return f"{kind}: {dict(ev)}"
