"""Digger on screen, drawn from one seat's observation (``DiggerState.observation``).

The hourglass is drawn only when the observation holds it: the engine sets
``elapsed`` and ``remaining`` to ``None`` for the digger, so the digger's
screen cannot show the time even by mistake.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..core.words import agree
from ..digger.narrate import tokens
from .front import Names

Obs = Mapping[str, Any]

FACE_STYLE = {"B": "bold blue", "Y": "bold yellow", "R": "bold red", "G": "bold green", "W": "bold white",
              "K": "bold bright_black"}
GEMS = ("Y", "R", "G", "W")


def faces(letters: str) -> Text:
    out = Text()
    for i, letter in enumerate(letters):
        if i:
            out.append(" ")
        out.append(letter, style=FACE_STYLE.get(letter, ""))
    return out


def header(obs: Obs) -> Text:
    cards = obs["crate_cards"]
    side = "white crates" if cards == "white" else f"black crates {' '.join(cards['black'])}"
    parts = [f"Digger, {obs['players']} players, {side}, {obs['time_limit']:g} s hourglass"]
    if obs["to_move"] != -2:
        parts.append(f"turn {obs['turn'] + 1}, seat {obs['digger']} digs")
    return Text(" | ".join(parts), style="bold")


def centre_line(obs: Obs) -> Text:
    line = Text("Centre: ")
    for letter, count in obs["centre"].items():
        line.append(letter, style=FACE_STYLE[letter])
        line.append(f" {count}  ")
    line.append(f"Box: B {obs['box']['B']}", style="dim")
    return line


def crates(obs: Obs, names: Names) -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("seat")
    table.add_column("card values")
    for letter in GEMS:
        table.add_column(letter, justify="right", style=FACE_STYLE[letter])
    table.add_column("score", justify="right")
    digging = obs["digger"] if obs["to_move"] != -2 else None
    for seat in range(obs["players"]):
        values = obs["values"][seat]
        who = Text(names.long(seat), style="bold" if seat == digging else "")
        if seat == digging:
            who.append(" digging", style="bold")
        crate = obs["crates"][seat]
        table.add_row(
            who,
            " ".join(f"{g}{values[g]}" for g in GEMS),
            *(str(crate[g]) for g in GEMS),
            str(obs["scores"][seat]),
        )
    return table


def steal_hint(obs: Obs) -> str:
    """What a single black die allows here: which gems could be stolen, from whom, or that none can."""
    digger = obs["digger"]
    open_colours = [c for c in obs["unique"] if c in GEMS and c not in obs["used"]]
    targets = [f"{c} from seat {s}" for c in open_colours for s in range(obs["players"])
               if s != digger and obs["crates"][s][c] > 0]
    if targets:
        return f"; black once: steal {' or '.join(targets)}"
    return "; black once: nothing to steal"


def turn_lines(obs: Obs) -> list[Text]:
    """The turn under way: dice, what they give, the haul, and (for watchers) the hourglass."""
    if obs["to_move"] == -2 or not obs["started"]:
        return []
    lines = []
    if obs["dice"] is not None:
        dice = Text("Dice: ")
        dice.append_text(faces(obs["dice"]))
        unique = obs["unique"]
        dice.append(f"   once: {' '.join(unique)}" if unique else "   no colour shows once")
        if obs["black_unique"]:
            dice.append(steal_hint(obs), style="bold")
        if obs["used"]:
            dice.append(f"; taken this roll: {' '.join(obs['used'])}", style="dim")
        lines.append(dice)
    elif obs["waiting_for"] == "dice":
        lines.append(Text("The dice are rolling..."))
    lines.append(Text(f"Haul (at risk): {tokens(obs['haul'])}", style="bold"))
    if obs["remaining"] is not None:
        lines.append(Text(f"Hourglass: {obs['elapsed']:.1f} s gone, {obs['remaining']:.1f} s left", style="magenta"))
    return lines


def board(obs: Obs, names: Names) -> RenderableType:
    return Group(header(obs), centre_line(obs), crates(obs, names), *turn_lines(obs))


def turn(obs: Obs) -> RenderableType:
    """The short screen between the digger's decisions: only what changed."""
    return Group(*turn_lines(obs))


def summary(obs: Obs, names: Names) -> RenderableType:
    winners = obs.get("winners") or []
    won = " and ".join(names(s) for s in winners)
    title = Text(f"Game over: {won} {agree(len(winners), 'win')}.", style="bold green")
    return Group(title, crates(obs, names))
