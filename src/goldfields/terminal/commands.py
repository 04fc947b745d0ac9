"""What a typed line means: a move (by number or in the notation) or a command.

Parsing is separate from acting on it, so that it can be tested on its own
and so that every game shares the same commands. Game-specific shortcuts
(Digger's ``r`` and ``s``) are the game front's business, applied to
:attr:`Verb.MOVE` lines and to the empty line.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..core.words import is_number

DEFAULT_LOG_LINES = 40


class Verb(Enum):
    EMPTY = "empty"
    NUMBER = "number"
    MOVE = "move"
    HELP = "help"
    RULES = "rules"
    LOG = "log"
    UNDO = "undo"
    SAVE = "save"
    QUIT = "quit"
    SHOW = "show"


@dataclass(frozen=True, slots=True)
class Command:
    verb: Verb
    text: str = ""
    """The line as typed (stripped); for SAVE, the file name (may be empty)."""
    number: int | None = None
    """NUMBER: the move's number; LOG: how many lines (None: the whole log)."""
    problem: str | None = None
    """Set when the command is known but its argument is not usable."""


_WORDS: dict[str, Verb] = {
    "help": Verb.HELP,
    "h": Verb.HELP,
    "?": Verb.HELP,
    "rules": Verb.RULES,
    "log": Verb.LOG,
    "undo": Verb.UNDO,
    "save": Verb.SAVE,
    "quit": Verb.QUIT,
    "exit": Verb.QUIT,
    "q": Verb.QUIT,
    "show": Verb.SHOW,
    "board": Verb.SHOW,
}


def parse(line: str) -> Command:
    text = line.strip()
    if not text:
        return Command(Verb.EMPTY)
    if is_number(text):
        return Command(Verb.NUMBER, text, int(text))
    word, _, rest = text.partition(" ")
    rest = rest.strip()
    verb = _WORDS.get(word.lower())
    if verb is None:
        return Command(Verb.MOVE, text)
    if verb is Verb.SAVE:
        problem = None if rest else "save needs a file name: save FILE (for example: save game.json)"
        return Command(Verb.SAVE, rest, problem=problem)
    if verb is Verb.LOG:
        if not rest:
            return Command(Verb.LOG, number=DEFAULT_LOG_LINES)
        if rest.lower() == "all":
            return Command(Verb.LOG, number=None)
        if is_number(rest) and int(rest) > 0:
            return Command(Verb.LOG, number=int(rest))
        return Command(Verb.LOG, problem=f"log takes a number of lines or 'all', not {rest!r}")
    if rest:
        return Command(verb, problem=f"{word.lower()} takes nothing after it (got {rest!r})")
    return Command(verb)


def command_rows(undo: str) -> list[tuple[str, str]]:
    """The commands every game shares, as (what to type, what it does). ``undo`` says when undo
    works, which depends on the game's luck and secrets (the front's ``undo_help``)."""
    return [
        ("<number>", "play the move with that number from the list"),
        ("<move>", "type a move in the notation instead (see below)"),
        ("help", "this text"),
        ("rules", "a summary of the rules"),
        ("log [N|all]", f"the game so far in words (the last {DEFAULT_LOG_LINES} lines, N lines, or all)"),
        ("show", "draw the table again"),
        ("undo", undo),
        ("save FILE", "write the game record to FILE (check it with: goldfields replay FILE)"),
        ("quit", "leave the game (you are offered to save it first); Ctrl-C does the same"),
    ]
