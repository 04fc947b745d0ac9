"""What the play session needs to know about a game, behind one small interface.

The session (session.py) runs any game through the engine interface; a front
adds the game's own pieces: how a seat's observation and the events look on
screen, the rules text, typing shortcuts, and, for Digger, time.

A front only ever receives what the seat at the keyboard may see: an
observation (``state.observation(seat)``) and event views
(``event.view(seat)``). The full state goes to a front only to stamp time
(Digger's clocks need the turn's counts) and to ask what is legal.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from ..core.definition import Stamper
from ..core.game import GameState
from .commands import command_rows
from .keyboard import Expired


@dataclass(frozen=True)
class Names:
    """How seats are called on screen, as seen by ``viewer`` (the seat at the keyboard)."""

    players: int
    humans: tuple[int, ...]
    bots: Mapping[int, str] = field(default_factory=dict)
    viewer: int | None = None
    teams: bool = False

    def __call__(self, seat: int) -> str:
        """Short, for sentences: ``seat 2`` or ``seat 0 (you)``."""
        return f"seat {seat} (you)" if seat == self.viewer else f"seat {seat}"

    def long(self, seat: int) -> str:
        """For tables: who plays the seat, and its team."""
        who = "you" if seat == self.viewer else "human" if seat in self.humans else self.bots.get(seat, "bot")
        team = f", team {'AB'[seat % 2]}" if self.teams else ""
        return f"seat {seat} ({who}{team})"

    def seen_by(self, viewer: int | None) -> Names:
        return Names(self.players, self.humans, self.bots, viewer, self.teams)


def numbered(moves: Sequence[str], width: int) -> RenderableType:
    """The legal moves as ``[1] draw  [2] pass B7 ...``, wrapped to the screen."""
    cells = [f"[{i}] {m}" for i, m in enumerate(moves, 1)]
    cell = max(len(c) for c in cells) + 2 if cells else 1
    per_line = max(1, width // cell)
    lines = [
        "".join(c.ljust(cell) for c in cells[i : i + per_line]).rstrip() for i in range(0, len(cells), per_line)
    ]
    return Text("\n".join(lines))


def pack(sentences: Sequence[str], width: int) -> list[str]:
    """Sentences joined into lines of at most ``width`` columns (a longer sentence keeps a line of its own)."""
    lines: list[str] = []
    for sentence in sentences:
        sentence = sentence[:1].upper() + sentence[1:]
        if lines and len(lines[-1]) + 1 + len(sentence) <= width:
            lines[-1] += " " + sentence
        else:
            lines.append(sentence)
    return lines


def help_rows(rows: Sequence[tuple[str, str]]) -> RenderableType:
    """(what to type, what it does) as an indented two-column list; Rich wraps the second column to
    the screen, so the text reads well at 80 columns and at 200."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column()
    for what, does in rows:
        grid.add_row(Text(what), Text(does))  # Text: "log [N|all]" is no Rich markup
    return Padding(grid, (0, 0, 0, 2))


def recap_block(lines: Sequence[str]) -> list[RenderableType]:
    """The recap as drawn above the moves: a title line, then the lines."""
    if not lines:
        return []
    return [Text("Since your last move:", style="bold"), *(Text(line[:1].upper() + line[1:]) for line in lines)]


class GameFront(ABC):
    game: ClassVar[str]
    private_hands: ClassVar[bool]
    """Seats hold secrets (Digging's hands): in hot seat the screen is cleared
    after each human move and a player catches up on what happened since
    their last turn, seen from their seat."""
    rules_markdown: ClassVar[str]
    moves_title: ClassVar[str]
    """The heading of the game's moves in ``help``."""
    moves_rows: ClassVar[tuple[tuple[str, str], ...]]
    """The game's moves in ``help``: (what to type, what it does)."""
    moves_note: ClassVar[str] = ""
    undo_help: ClassVar[str]
    """When ``undo`` works, for ``help``: that depends on the game's luck and secrets."""
    has_undo: ClassVar[bool] = True
    """Whether ``undo`` can ever go back (Digger's cannot: see its ``undo_help``); without it, no takebacks."""
    takebacks_help: ClassVar[str]
    """What ``takebacks`` changes, from "undo also ...": said at the start and end of such a game."""
    timeout_action: ClassVar[int | None] = None
    """The action applied when a read's deadline passes (Digger's timeout)."""
    luck_since: ClassVar[str] = "a chance outcome has been revealed"
    """Why undo is refused: what luck has been revealed since (``the dice have been rolled``)."""
    enter_plays_a_forced_move: ClassVar[bool] = True
    """Enter alone plays the only legal move (Digger's Enter means stop instead)."""
    hand_end_events: ClassVar[frozenset[str]] = frozenset()
    """Event kinds that end a hand: the session pauses on them to show the scoring."""

    # -- screens ---------------------------------------------------------
    def help(self) -> RenderableType:
        """What ``help`` shows: the commands, then this game's moves."""
        parts: list[RenderableType] = [
            Text("Commands (type them at any prompt where you choose a move):"),
            help_rows(command_rows(self.undo_help)),
            Text(self.moves_title),
            help_rows(self.moves_rows),
        ]
        if self.moves_note:
            parts.append(Text(self.moves_note))
        return Group(*parts)

    @abstractmethod
    def intro(self, obs: Mapping[str, Any], names: Names) -> str:
        """One paragraph: the game, the table, the target."""

    @abstractmethod
    def board(self, obs: Mapping[str, Any], names: Names, compact: bool = False) -> RenderableType:
        """The whole table as ``obs`` (one seat's observation) shows it; ``compact`` for small terminals."""

    def decision(
        self,
        obs: Mapping[str, Any],
        names: Names,
        moves: Sequence[str],
        full: bool,
        width: int,
        compact: bool = False,
        recap: Sequence[str] = (),
    ) -> RenderableType:
        """What the human sees before choosing: the table (if ``full``), the recap of what
        happened since their last move just above the numbered moves, and the moves."""
        parts: list[RenderableType] = [self.board(obs, names, compact)] if full else []
        parts += recap_block(recap)
        parts.append(numbered(moves, width))
        return Group(*parts)

    def prompt(self, moves: Sequence[str], names: Names) -> str:
        who = "Your move" if len(names.humans) == 1 else f"Seat {names.viewer}, your move"
        if len(moves) == 1:
            return f"{who} (1 = {moves[0]}; Enter plays it, or help)> "
        return f"{who} (1-{len(moves)}, or help)> "

    @abstractmethod
    def narrate(self, ev: Mapping[str, Any], names: Names) -> str | None:
        """An event view in words (None: nothing worth a line)."""

    def recap(self, views: Sequence[Mapping[str, Any]], names: Names, width: int) -> list[str]:
        """Events since the viewer's last move, summed up in as few lines as reads well.

        By default each event is a sentence, and sentences share a line while
        they fit; the end of the game is left to the final summary."""
        sentences = [text for ev in views if ev.get("kind") != "game_over" and (text := self.narrate(ev, names))]
        return pack(sentences, width)

    def hand_over(
        self, views: Sequence[Mapping[str, Any]], obs: Mapping[str, Any], names: Names, compact: bool
    ) -> RenderableType | None:
        """The scoring of a hand that just ended (the game goes on); None: no pause."""
        return None

    def hand_over_prompt(self, views: Sequence[Mapping[str, Any]]) -> str:
        return "The hand is over. Press Enter to go on.> "

    @abstractmethod
    def summary(self, obs: Mapping[str, Any], names: Names) -> RenderableType:
        """The final result."""

    # -- typing ----------------------------------------------------------
    def expand(self, text: str) -> str:
        """A typed move with shortcuts replaced by the notation."""
        return text

    def empty_line(self, state: GameState) -> int | str | None:
        """What Enter alone does: an action, a message to show, or None (prompt again)."""
        return None

    def refusal_hint(self, rule: str) -> str:
        """What to do instead, after a typed move refused under ``rule`` ("" for nothing to add)."""
        return ""

    # -- time ------------------------------------------------------------
    def stamp_human(self, state: GameState, action: int) -> float | None:
        return None

    bot_clock: Stamper | None = None
    """The simulated clock that stamps the bots' decisions (a timed game's), for the game driver."""

    def deadline(self, state: GameState) -> Expired | None:
        """A test that says the human's time is up, while they are choosing; None: no hurry."""
        return None

    def resume(self, state: GameState) -> None:  # noqa: B027 - most games need nothing here
        """Pick up a game restored from a record (Digger: a turn under way keeps its sand)."""

    # -- session policy ---------------------------------------------------
    def undo_point(self, obs: Mapping[str, Any]) -> bool:
        """Whether a decision in this position is one that ``undo`` can return to."""
        return True

    def watch_seat(self, state: GameState, humans: Sequence[int]) -> int | None:
        """The view shown in hot seat while no human is choosing: what every human may see."""
        return None

    def save_warning(self, state: GameState, hot_seat: bool, seat: int | None) -> str | None:
        """A warning to print when the record holds something a player may not see yet."""
        return None

    def resume_note(self, state: GameState) -> str:
        """Said when a saved game is resumed: what of what is still to come the record fixes,
        and what the seed draws afresh."""
        return "what is still to come is drawn afresh"
