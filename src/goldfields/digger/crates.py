"""Crate cards: what each gem is worth to each seat (RULINGS G1).

The printed values of the physical cards are not known, so the defaults are
data (``crates.json``, shipped with the package) and a game may override any
card through the ``crate_values`` rule option. Blue scores nothing on every
card (G6), so it never appears in the data; in code a card's values are five
numbers indexed by token colour, blue first and always 0.

A table is set up either on the white side (every seat uses the one white
card) or on the black side (each seat has its own card, named by a letter).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from .dice import FACES, GEMS

Values = tuple[int, int, int, int, int]
"""A card's value per token colour (blue, yellow, red, green, white); blue is 0."""

Override = tuple[tuple[str, Values], ...]
"""A normalised ``crate_values`` option: (card, values) pairs, card ``"white"``
or a black card's letter, sorted by card."""

CrateSpec = str | tuple[str, ...]
"""How the table is set up: ``"white"``, or the black card letter of each seat."""

GEM_LETTERS = tuple(FACES[c] for c in GEMS)


@dataclass(frozen=True)
class CrateTable:
    """Every card a table can use: the white card and the black cards by letter."""

    white: Values
    black: Mapping[str, Values]


def card_values(name: str, data: Any) -> Values:
    """One card's values from JSON (``{"Y": 2, "R": 3, "G": 4, "W": 6}``)."""
    if not isinstance(data, Mapping):
        raise ValueError(f'crate card {name}: give its values as {{"Y": n, "R": n, "G": n, "W": n}}')
    keys = set(data)
    if keys != set(GEM_LETTERS):
        missing = [k for k in GEM_LETTERS if k not in keys]
        extra = sorted(str(k) for k in keys - set(GEM_LETTERS))
        detail = "; ".join(
            part
            for part in (
                f"missing {', '.join(missing)}" if missing else "",
                f"unknown {', '.join(extra)} (blue always scores 0)" if extra else "",
            )
            if part
        )
        raise ValueError(f"crate card {name} must give exactly Y, R, G and W: {detail}")
    values = [0]
    for letter in GEM_LETTERS:
        v = data[letter]
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise ValueError(f"crate card {name}: {letter} must be a whole number of points >= 0, not {v!r}")
        values.append(v)
    return (values[0], values[1], values[2], values[3], values[4])


def values_json(values: Values) -> dict[str, int]:
    return {letter: values[c] for letter, c in zip(GEM_LETTERS, GEMS, strict=True)}


def _check_letter(letter: Any) -> str:
    if not isinstance(letter, str) or len(letter) != 1 or not ("A" <= letter <= "Z"):
        raise ValueError(f"a black crate card is named by one capital letter, not {letter!r}")
    return letter


def _load_defaults() -> CrateTable:
    data = json.loads(resources.files(__package__).joinpath("crates.json").read_text(encoding="utf-8"))
    black = {_check_letter(k): card_values(f"black {k}", v) for k, v in data["black"].items()}
    return CrateTable(card_values("white", data["white"]), black)


DEFAULT_TABLE = _load_defaults()


def normalize_override(data: Any) -> Override:
    """Read a ``crate_values`` option: ``{"white": {...}, "black": {"A": {...}}}``, either part optional,
    or its short text (:func:`override_from_text`).

    Each card given replaces that card entirely; a new letter adds a black card.
    """
    if isinstance(data, tuple):
        # Already normalised (an option copied from another game).
        data = override_json(data)
    if isinstance(data, str):
        return override_from_text(data)
    if not isinstance(data, Mapping):
        raise ValueError('crate_values must be an object like {"white": {"Y": 2, ...}, "black": {"A": {...}}}, '
                         "or written short, as white:Y2R3G4W6;A:Y1R3G5W6")  # fmt: skip
    unknown = sorted(str(k) for k in set(data) - {"white", "black"})
    if unknown:
        raise ValueError(f"crate_values knows only 'white' and 'black', not {', '.join(unknown)}")
    pairs: list[tuple[str, Values]] = []
    if "white" in data:
        pairs.append(("white", card_values("white", data["white"])))
    if "black" in data:
        black = data["black"]
        if not isinstance(black, Mapping):
            raise ValueError("crate_values.black maps card letters to values")
        pairs.extend((_check_letter(k), card_values(f"black {k}", v)) for k, v in black.items())
    return tuple(sorted(pairs))


_CARD = re.compile(r"(white|[A-Z]):((?:[A-Z]\d+)+)")


def override_from_text(text: str) -> Override:
    """``crate_values`` written short, each card its name and its four gems' points, cards
    separated by ``;``: ``white:Y2R3G4W6;A:Y1R3G5W6``. No comma, so that it travels where a
    comma splits (an OpenSpiel game string, a ``--rule``); JSON text is read too."""
    text = text.strip()
    if not text:
        return ()
    if text.startswith("{"):
        try:
            return normalize_override(json.loads(text))
        except json.JSONDecodeError as err:
            raise ValueError(f"crate_values: not JSON ({err.msg}): {text!r}") from None
    cards: dict[str, Any] = {}
    for part in text.split(";"):
        m = _CARD.fullmatch(part.strip())
        if m is None:
            raise ValueError(f"crate_values: write each card as white:Y2R3G4W6 or A:Y1R3G5W6 (its name, then "
                             f"each gem's letter and points), cards separated by ';', not {part!r}")  # fmt: skip
        name, gems = m.groups()
        if name in cards:
            raise ValueError(f"crate_values: card {name} is given twice")
        values: dict[str, int] = {}
        for letter, points in re.findall(r"([A-Z])(\d+)", gems):
            if letter in values:
                raise ValueError(f"crate_values: card {name} gives {letter} twice")
            values[letter] = int(points)
        cards[name] = card_values(name if name == "white" else f"black {name}", values)
    return tuple(sorted(cards.items()))


def override_text(override: Override) -> str:
    """The short text that :func:`override_from_text` reads as ``override``."""
    return ";".join(f"{name}:" + "".join(f"{k}{v}" for k, v in values_json(values).items())
                    for name, values in override)  # fmt: skip


def override_json(override: Override) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, values in override:
        if name == "white":
            out["white"] = values_json(values)
        else:
            out.setdefault("black", {})[name] = values_json(values)
    return out


def table_with(override: Override) -> CrateTable:
    """The default table with the overridden cards replaced (or added)."""
    if not override:
        return DEFAULT_TABLE
    white = DEFAULT_TABLE.white
    black = dict(DEFAULT_TABLE.black)
    for name, values in override:
        if name == "white":
            white = values
        else:
            black[name] = values
    return CrateTable(white, black)


CRATES_FORMS = 'crates is white, black (cards A, B, C... in seat order) or {"black": [one card letter per seat]}'
"""The forms a table's crates take, for the refusal of any other: the words as a command line types them."""


def parse_spec(crates: Any, players: int, table: CrateTable) -> CrateSpec:
    """A table's set-up: ``"white"``, ``"black"`` (cards A, B, C... in seat order),
    ``{"black": ["A", "C", "E"]}`` or a list of letters, one per seat, all different (G1)."""
    if crates == "white":
        return "white"
    if crates == "black":
        letters: Sequence[Any] = sorted(table.black)[:players]
    elif isinstance(crates, Mapping):
        if set(crates) != {"black"}:
            raise ValueError(f"{CRATES_FORMS}, not {crates!r}")
        letters = crates["black"]
    elif isinstance(crates, (list, tuple)):
        letters = crates
    else:
        raise ValueError(f"{CRATES_FORMS}, not {crates!r}")
    if not isinstance(letters, (list, tuple)) or len(letters) != players:
        raise ValueError(f"G1: the black side needs one card per seat: {players} letters, got {letters!r}")
    for letter in letters:
        if not isinstance(letter, str) or letter not in table.black:
            raise ValueError(f"G1: unknown black crate card {letter!r}; known cards: {', '.join(sorted(table.black))}")
    if len(set(letters)) != players:
        raise ValueError(f"G1: each seat has a different black card, got {list(letters)}")
    return tuple(letters)


def spec_json(spec: CrateSpec) -> str | dict[str, list[str]]:
    return "white" if spec == "white" else {"black": list(spec)}


def seat_values(spec: CrateSpec, table: CrateTable, players: int) -> list[Values]:
    if spec == "white":
        return [table.white] * players
    return [table.black[letter] for letter in spec]
