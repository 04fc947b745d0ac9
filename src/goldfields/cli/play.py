"""``goldfields play digging|digger``: play in the terminal, against bots or at one keyboard."""

from __future__ import annotations

import shlex
import signal
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from ..digger.definition import DIGGER
from ..digging.definition import DIGGING
from ..terminal import Display, Session, SetupError, digger_session, digging_session, resume_session
from ..terminal.digging_front import DiggingFront
from .options import (
    BotsOption,
    DelayOption,
    IndividualOption,
    RuleOption,
    SeedOption,
    individual_problem,
    parse_rules,
    print_error,
)

PLAY_HELP = (
    "Play Digging or Digger in the terminal: you against bots, or several people at one keyboard.\n\n"
    "Start a game with 'goldfields play digging' or 'goldfields play digger' (see their --help). Continue a saved "
    "one with 'goldfields play --resume FILE': the game comes from the file, the seats from --seat, --humans and "
    "--bots (as for a new game: you in seat 0, bots elsewhere)."
)

play_app = typer.Typer(
    name="play",
    help=PLAY_HELP,
    invoke_without_command=True,
    add_completion=False,
)

# Each paragraph is one line: Typer keeps a help text's line breaks, and Rich wraps the lines again.
def _common_help(undo: str, hot_seat: str) -> str:
    return (
        "At your turn the legal moves are listed with numbers: type a number, or the move in the notation. "
        f"Other commands: help, rules, log, show, undo ({undo}), save FILE (a record that "
        "`goldfields replay FILE` checks), quit. Ctrl-C offers to save before quitting.\n\n"
        f"Hot seat: name several human seats (--seat 0 --seat 2, or --humans 2). {hot_seat}"
    )


DIGGING_HELP = f"""Play Digging (Reiner Knizia) in the terminal.

By default: 4 players in partnership (seats 0+2 against 1+3), you in seat 0, heuristic bots in the other seats.

{_common_help(
    "only with one human, and only until another seat moves: --takebacks makes a practice game in which it goes "
    "further",
    "Each player presses Enter before their hand is shown, and the screen is cleared as their turn ends.",
)}

Examples:

  goldfields play digging

  goldfields play digging --bots hard

  goldfields play digging --players 2 --bots ismcts:seconds=0.5

  goldfields play digging --seat 0 --seat 2 --bots random

  goldfields play digging --players 2 --rule full_deck=true
"""

DIGGER_HELP = f"""Play Digger (Roberto Fraga), the real-time dice game, in the terminal.

By default: 3 players, you in seat 0, bots in the others. While you dig the 30-second hourglass runs in real \
time and you cannot see it: r rolls, a number (or `take Y`, `steal W 2`) takes a token, and Enter on an empty \
line stops and banks your haul. Bots dig on a simulated clock.

{_common_help(
    "none in Digger: every turn begins with a roll of the dice, and luck stands, so no takebacks either",
    "Each player presses Enter when the keyboard comes to them. Nothing is cleared between turns, as no one holds "
    "a secret: each player sees how the last turn ended.",
)}

Examples:

  goldfields play digger

  goldfields play digger --players 4 --crates black --bots random

  goldfields play digger --rule time_limit=20
"""

SeatOption = Annotated[
    list[int] | None,
    typer.Option("--seat", metavar="K", help="A human seat; repeat for hot seat. Default: seat 0.",
                 show_default=False),
]
HumansOption = Annotated[
    int | None,
    typer.Option("--humans", metavar="K", help="Humans in seats 0..K-1 (hot seat when K > 1).", show_default=False),
]


def _takebacks(what: str) -> Any:
    return typer.Option("--takebacks", help=f"A practice game: {what}.")


DiggingTakebacks = Annotated[bool, _takebacks(DiggingFront.takebacks_help)]
# --resume: the game is the file's, so either may apply.
TakebacksOption = Annotated[bool, _takebacks("undo also goes back past the other seats' moves and your draws "
                                             "(Digging only: Digger has no undo); luck still stands")]
# Not offered after a game's name (a saved game names its own), only taken to say where it goes
# rather than "no such option".
MisplacedResume = Annotated[Path | None, typer.Option("--resume", metavar="FILE", hidden=True)]
NoColorOption = Annotated[
    bool, typer.Option("--no-color", help="Plain text: no colours, no bold (NO_COLOR takes away the colours alone).")
]
WidthOption = Annotated[
    int | None, typer.Option("--width", metavar="COLUMNS", min=40, help="Screen width (default: the terminal's).",
                             show_default=False)
]


class Crates(StrEnum):
    white = "white"
    black = "black"


def _rules(given: list[str] | None) -> dict[str, Any]:
    try:
        return parse_rules(given)
    except ValueError as err:
        raise SetupError(str(err)) from None


def _no_resume(ctx: typer.Context, resume: Path | None) -> None:
    if resume is not None:
        ctx.fail(f"--resume takes the game from the saved file, so it goes without a game's name: "
                 f"goldfields play --resume {shlex.quote(str(resume))}")


def _play(build: Callable[[], Session]) -> None:
    """Set the game up (a bad option exits with status 2 and a message), then play it."""
    try:
        session = build()
    except SetupError as err:
        print_error(err)
        raise typer.Exit(2) from None
    # Ctrl-C offers to save; that needs Python's own handler even when the
    # program was started with SIGINT ignored (as some launchers do).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    raise typer.Exit(session.run())


@play_app.command(DIGGING.name, help=DIGGING_HELP)
def digging_command(
    ctx: typer.Context,
    players: Annotated[int, typer.Option("--players", "-n", metavar="N", help="2, 3 or 4 players.")] = 4,
    individual: IndividualOption = False,
    rule: RuleOption = None,
    bots: BotsOption = None,
    seat: SeatOption = None,
    humans: HumansOption = None,
    seed: SeedOption = None,
    takebacks: DiggingTakebacks = False,
    no_color: NoColorOption = False,
    width: WidthOption = None,
    delay: DelayOption = 0.0,
    resume: MisplacedResume = None,
) -> None:
    _no_resume(ctx, resume)

    def build() -> Session:
        problem = individual_problem(DIGGING.name, individual, players)
        if problem is not None:
            raise SetupError(problem)
        return digging_session(
            players, False if individual else None, seats=seat, humans=humans, bots=bots, seed=seed,
            display=Display(no_color, width, delay), takebacks=takebacks, rules=_rules(rule),
        )

    _play(build)


@play_app.command(DIGGER.name, help=DIGGER_HELP)
def digger_command(
    ctx: typer.Context,
    players: Annotated[int, typer.Option("--players", "-n", metavar="N", help="2 to 5 players.")] = 3,
    rule: RuleOption = None,
    bots: BotsOption = None,
    seat: SeatOption = None,
    humans: HumansOption = None,
    seed: SeedOption = None,
    crates: Annotated[Crates | None, typer.Option("--crates", show_default=False,
                                                  help="white: the same gem values for every seat; black: each "
                                                       "seat gets its own card of values.  \\[default: white]")
                      ] = None,
    time_limit: Annotated[
        float | None,
        typer.Option("--time-limit", metavar="SECONDS", help="Seconds in the hourglass (default 30).",
                     show_default=False),
    ] = None,
    no_color: NoColorOption = False,
    width: WidthOption = None,
    delay: DelayOption = 0.0,
    resume: MisplacedResume = None,
) -> None:
    _no_resume(ctx, resume)
    _play(lambda: digger_session(
        players, seats=seat, humans=humans, bots=bots, seed=seed, crates=crates.value if crates else None,
        time_limit=time_limit, display=Display(no_color, width, delay), rules=_rules(rule),
    ))


@play_app.callback()
def play_group(
    ctx: typer.Context,
    resume: Annotated[Path | None, typer.Option("--resume", metavar="FILE", show_default=False,
                                                help="Continue the game saved in FILE (save FILE, or the offer "
                                                     "to save on quitting, writes one).")] = None,
    # Not offered (a saved game keeps its rules), only taken to say so rather than "no such option".
    rule: Annotated[list[str] | None, typer.Option("--rule", "-r", hidden=True)] = None,
    # The same for the table's options, which the game's own command takes.
    players: Annotated[int | None, typer.Option("--players", "-n", hidden=True)] = None,
    individual: Annotated[bool, typer.Option("--individual", hidden=True)] = False,
    crates: Annotated[str | None, typer.Option("--crates", hidden=True)] = None,
    time_limit: Annotated[float | None, typer.Option("--time-limit", hidden=True)] = None,
    bots: BotsOption = None,
    seat: SeatOption = None,
    humans: HumansOption = None,
    seed: SeedOption = None,
    takebacks: TakebacksOption = False,
    no_color: NoColorOption = False,
    width: WidthOption = None,
    delay: DelayOption = 0.0,
) -> None:
    table = [name for name, given in (("--players", players is not None), ("--individual", individual),
                                      ("--crates", crates is not None), ("--time-limit", time_limit is not None))
             if given]  # fmt: skip
    options = (any(v is not None for v in (bots, seat, humans, seed, width, rule)) or no_color or delay or takebacks
               or bool(table))
    if ctx.invoked_subcommand is not None:
        if resume is not None:
            raise typer.BadParameter(f"--resume takes the game from the file; drop '{ctx.invoked_subcommand}'",
                                     param_hint="--resume")
        if options:
            raise typer.BadParameter(f"options go after the game: goldfields play {ctx.invoked_subcommand} ...")
        return
    if resume is None:
        if options:  # something to play was meant: say what is missing, rather than print the whole help
            ctx.fail(f"name a game: goldfields play {DIGGING.name}, goldfields play {DIGGER.name}, "
                     "or goldfields play --resume FILE")
        # Nothing at all: the help, and the status of a usage error, as bare 'goldfields' gives.
        typer.echo(ctx.get_help())
        raise typer.Exit(2)
    if table:
        print_error(f"{', '.join(table)}: the game in {resume} keeps the table it was started at (the record "
                    f"holds it); drop {'it' if len(table) == 1 else 'them'}")
        raise typer.Exit(2)
    if rule:
        # The record holds the rules its moves were played under; others would not replay them.
        print_error(f"--rule: the game in {resume} keeps the rules it was started with (the record holds "
                    "them); drop --rule")
        raise typer.Exit(2)
    _play(lambda: resume_session(resume, seats=seat, humans=humans, bots=bots, seed=seed,
                                 display=Display(no_color, width, delay), takebacks=takebacks))


def register(app: typer.Typer) -> None:
    app.add_typer(play_app, name="play")
