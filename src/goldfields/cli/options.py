"""The options that several commands share, defined once so they mean the same everywhere.

Every command that plays a game names it the same way, as its first word
(``goldfields play digger``, ``goldfields demo digger``, ``goldfields arena
digger heuristic random random``), and the short options agree: ``-n`` is the
number of players, ``-s`` the seed, ``-b`` the bots, ``-d`` the delay after a
move. The number of games is ``--games``/``-g`` (the arena's, and ``train``'s per round).
"""

from __future__ import annotations

import dataclasses
import json
import tempfile
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from ..core import registry
from ..core.definition import LEVEL_SECONDS

GameName = StrEnum("GameName", {name: name for name in registry.names()})  # type: ignore[misc]
"""Every registered game, as the command line names it."""
FIRST_GAME = registry.names()[0]


ERRORS = Console(stderr=True, highlight=False, soft_wrap=True)
"""Where every command's errors go: standard error, so ``goldfields arena ... > log`` still shows them;
unwrapped, as a log or ``grep`` wants them (a terminal wraps them itself)."""


def print_error(message: object) -> None:
    """Print ``error: message`` with the message as written: brackets in it (``goldfields[learn]``,
    a bot spec's ``[...]``) are text, where Rich would read them as markup and drop them."""
    ERRORS.print(Text.assemble(("error:", "red"), " ", str(message)))


def output_problem(path: Path, reading: Path | None = None, force: bool = True) -> str | None:
    """Why ``path`` cannot take the file a command writes (None: it can), said before the work
    that makes the file rather than after it. Without ``force`` an existing file is refused too."""
    if path.is_dir():
        return f"{path} is a folder; name a file in it"
    if not path.parent.is_dir():
        what = "is a file, not a folder" if path.parent.exists() else "does not exist"
        return f"the folder {path.parent} {what}"
    if reading is not None and path.exists() and path.resolve() == reading.resolve():
        return f"{path} is the file being read; name another file"
    if not force and path.exists():
        return f"{path} already exists; name another file, or add --force to replace it"
    try:
        # The file is written beside itself and renamed into place: the folder must take a new file.
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{path.name}.", suffix=".probe"):
            pass
    except OSError as err:
        return f"cannot write in {path.parent}: {err.strerror or err}"
    return None


def free_path(path: Path, force: bool) -> Path:
    """Where to write what was meant for ``path``, checked again once the work is done: ``path``
    itself, unless a file appeared there meanwhile and ``force`` was not given. Then the next free
    ``NAME-2.ext``, ``NAME-3.ext``…, so that neither that file nor the work is lost."""
    if force or not path.exists():
        return path
    n = 2
    while (other := path.with_stem(f"{path.stem}-{n}")).exists():
        n += 1
    return other


def wrote_note(meant: Path, path: Path) -> str:
    """What a command says on writing ``path``, when ``meant`` was taken meanwhile (free_path)."""
    return "" if meant == path else f" ({meant} appeared while this ran, and was left as it was)"


def individual_problem(game: str, individual: bool, players: int | None = None) -> str | None:
    """Why ``--individual`` does not fit ``game`` with ``players`` (None: its default number), or None
    if it does or was not given. A number the game does not seat is left to the game's own check."""
    definition = registry.get(game)
    if not individual:
        return None
    if "partnership" not in {f.name for f in dataclasses.fields(definition.params_type)}:
        return f"--individual is for games with partnerships; {definition.title} is always each for themselves"
    # The tables whose default is a partnership are the only ones the flag changes (Digging's 4).
    shared = [n for n in range(definition.min_players, definition.max_players + 1)
              if len(definition.sides(definition.params(players=n))) < n]  # fmt: skip
    n = definition.default_players if players is None else players
    if definition.min_players <= n <= definition.max_players and n not in shared:
        counts = " or ".join(map(str, shared))
        return (f"--individual is for {definition.title} with {counts} players (partnerships by default); "
                f"with {n} players each plays for themselves already")
    return None


def players_help() -> str:
    games = [registry.get(g) for g in registry.names()]
    sizes = ", ".join(f"{g.title} {g.min_players}-{g.max_players} (default {g.default_players})" for g in games)
    return f"Number of players: {sizes}."


def players_param(more: str = "") -> Any:
    """The ``--players``/``-n`` option, with ``more`` help on what a command does without it."""
    return typer.Option("--players", "-n", metavar="N", help=f"{players_help()} {more}".strip(), show_default=False)


PlayersOption = Annotated[int | None, players_param()]
IndividualOption = Annotated[
    bool,
    typer.Option("--individual", help="Digging with 4 players, each for themselves (the default is partnership, "
                                      "seats 0+2 against 1+3)."),
]
SeedOption = Annotated[
    int | None,
    typer.Option("--seed", "-s", metavar="N", help="Seed for the deals, the dice and the bots: the same seed "
                                                   "plays the same game.", show_default=False),
]
BotsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--bots",
        "-b",
        metavar="SPEC",
        help="Bot spec (random, heuristic, ismcts:seconds=0.5...) or a level (easy, medium, hard: the lobby's bots, "
        f"searching {LEVEL_SECONDS:g} s a move as on the server): one for every bot seat, or one per bot seat in "
        "seat order (repeat the option, or separate specs by spaces).",
        show_default=False,
    ),
]
DelayOption = Annotated[
    float,
    typer.Option("--delay", "-d", metavar="SECONDS", min=0.0, help="Seconds to pause after each bot move."),
]


def parse_rules(given: list[str] | None) -> dict[str, Any]:
    """``--rule NAME=VALUE`` options as a dict; a VALUE is read as JSON where it can be
    (true, 20, [1,2]) and as a word otherwise (black)."""
    out: dict[str, Any] = {}
    for item in given or []:
        name, sep, text = item.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--rule {item!r}: write NAME=VALUE, such as full_deck=true or time_limit=20")
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            value = text
        if name.strip() in out:
            raise ValueError(f"--rule {name.strip()} is given twice; give each rule once")
        out[name.strip()] = value
    return out


RuleOption = Annotated[
    list[str] | None,
    typer.Option("--rule", "-r", metavar="NAME=VALUE", show_default=False,
                 help="A rule option or game parameter, repeatable: target_exceeded=true, "
                      "full_deck=true with 2 or 3 players (Digging); "
                      "time_limit=20, knock_probability=0.3, crates=black (Digger). docs/digging.md and "
                      "docs/digger.md list them."),
]
