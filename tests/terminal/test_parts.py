"""The small pieces: command parsing, seating, rendering, the command line's checks."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from typing import Any

import pytest
import typer
from rich.text import Text
from typer.testing import CliRunner

from goldfields.cli import play
from goldfields.clocks import TimeModel
from goldfields.digger import DiggerState
from goldfields.digging import new_game
from goldfields.terminal import render_digger, render_digging
from goldfields.terminal.commands import DEFAULT_LOG_LINES, Verb, parse
from goldfields.terminal.front import Names
from goldfields.terminal.screen import make_console
from goldfields.terminal.seating import SeatingError, plan_seats

from .support import ScriptedKeyboard, capture_screen


@pytest.mark.parametrize(
    ("line", "verb", "number", "text"),
    [
        ("", Verb.EMPTY, None, ""),
        ("   ", Verb.EMPTY, None, ""),
        ("12", Verb.NUMBER, 12, "12"),
        ("play MG 0", Verb.MOVE, None, "play MG 0"),
        ("  draw ", Verb.MOVE, None, "draw"),
        ("HELP", Verb.HELP, None, ""),
        ("?", Verb.HELP, None, ""),
        ("rules", Verb.RULES, None, ""),
        ("log", Verb.LOG, DEFAULT_LOG_LINES, ""),
        ("log 5", Verb.LOG, 5, ""),
        ("log all", Verb.LOG, None, ""),
        ("undo", Verb.UNDO, None, ""),
        ("save my game.json", Verb.SAVE, None, "my game.json"),
        ("quit", Verb.QUIT, None, ""),
        ("show", Verb.SHOW, None, ""),
    ],
)
def test_parse(line: str, verb: Verb, number: int | None, text: str) -> None:
    command = parse(line)
    assert (command.verb, command.number, command.text, command.problem) == (verb, number, text, None)


@pytest.mark.parametrize(("line", "problem"), [("save", "file name"), ("log -1", "number of lines"),
                                               ("undo 2", "nothing after it")])
def test_parse_problems(line: str, problem: str) -> None:
    command = parse(line)
    assert command.problem and problem in command.problem


def test_seating_defaults_and_hot_seat() -> None:
    default = plan_seats("digging", 4)
    assert default.humans == (0,) and [spec for _, spec in default.bot_specs] == ["heuristic"] * 3
    hot = plan_seats("digging", 4, seats=[2, 0], bots=["random heuristic"])
    assert hot.humans == (0, 2) and hot.hot_seat and hot.bot_specs == ((1, "random"), (3, "heuristic"))
    assert plan_seats("digger", 3, humans=3).bot_specs == ()


def test_a_level_stands_for_the_lobbys_bot_of_that_table_thinking_as_on_the_server() -> None:
    from goldfields.bots.registry import level_spec, make_bot
    from goldfields.core import registry
    from goldfields.core.definition import LEVEL_SECONDS
    from goldfields.server.settings import Settings
    from goldfields.terminal.launch import digger_session, digging_session

    assert Settings().bot_seconds == LEVEL_SECONDS
    digging = registry.get("digging")
    partnership = digging.levels_for(digging.params())
    seating = plan_seats("digging", 4, bots=["Hard"], levels=partnership)
    assert [spec for _, spec in seating.bot_specs] == [f"{partnership['hard']},seconds=0.5"] * 3
    seating = plan_seats("digging", 4, bots=["easy medium hard"], levels=partnership)
    assert [spec for _, spec in seating.bot_specs] == ["random", "heuristic", f"{partnership['hard']},seconds=0.5"]
    # A spec with a budget of its own keeps it; a bot without a budget is as it is.
    assert level_spec("ismcts:iterations=300", "digging") == "ismcts:iterations=300"
    assert level_spec("search", "digger") == "search:seconds=0.5"
    assert level_spec("heuristic", "digger") == "heuristic"
    # The sessions read the table's levels: the partnership game's Hard is its own.
    def hard_at(session: Callable[..., Any], players: int) -> str:
        return session(players, bots=["hard"], screen=capture_screen()[0],
                       keyboard=ScriptedKeyboard(lambda _: None)).names.bots[1]

    def shown(spec: str, game: str = "digging") -> str:  # as a bot names itself: its fields in order
        return make_bot(spec, game).spec()

    assert hard_at(digging_session, 4) == shown(f"{partnership['hard']},seconds=0.5")
    two = digging.levels_for(digging.params(players=2))
    assert hard_at(digging_session, 2) == shown(f"{two['hard']},seconds=0.5") != hard_at(digging_session, 4)
    assert hard_at(digger_session, 3) == shown("search:seconds=0.5", "digger")
    with pytest.raises(SeatingError, match="or a level: easy, medium, hard"):
        plan_seats("digging", 4, bots=["expert"], levels=partnership)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seats": [4]}, "0 to 3"),
        ({"seats": [1, 1]}, "twice"),
        ({"humans": 0}, "between 1 and 4"),
        ({"humans": 2, "seats": [0]}, "one or the other"),
        ({"bots": ["random", "random"]}, "one bot spec for all or one each"),
        ({"bots": ["ismcts:nope=1"]}, "no parameter"),
        ({"humans": 4, "bots": ["random"]}, "every seat is human"),
    ],
)
def test_seating_errors(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(SeatingError, match=message):
        plan_seats("digging", 4, **kwargs)  # type: ignore[arg-type]


def _text(renderable: object) -> str:
    screen, out = capture_screen()
    screen.show(renderable)  # type: ignore[arg-type]
    return out.getvalue()


def test_digging_board_shows_only_the_viewers_hand() -> None:
    state = new_game(4, seed=5)
    rng = random.Random(5)
    for _ in range(30):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    names = Names(4, (1,), {0: "random", 2: "random", 3: "random"}, viewer=1, teams=True)
    text = _text(render_digging.board(state.observation(1), names))
    assert f"Hand of seat 1 (you): {' '.join(state.hand_codes(1))}" in text
    assert text.count("Hand of") == 1
    assert "team A" in text and "Pile:" in text
    spectator = _text(render_digging.board(state.observation(None), names.seen_by(None)))
    assert "Hand of" not in spectator


def test_digger_board_hides_the_hourglass_from_the_digger_only() -> None:
    state = DiggerState(3)
    model = TimeModel()
    rng = random.Random(1)
    state.apply_action(0, model.stamp(state, 0, rng))
    state.apply_chance("KRGBY")
    state.apply_action(0, 2.0)
    state.apply_chance("RGWBY")
    names = Names(3, (0, 1), {2: "random"})
    digger = _text(render_digger.board(state.observation(0), names.seen_by(0)))
    watcher = _text(render_digger.board(state.observation(1), names.seen_by(1)))
    assert "Dice: R G W B Y" in digger and "Dice: R G W B Y" in watcher
    assert "Hourglass" not in digger
    assert "Hourglass: 2.0 s gone, 28.0 s left" in watcher


def _cli() -> typer.Typer:
    app = typer.Typer()
    play.register(app)
    return app


def test_cli_help() -> None:
    runner = CliRunner()
    for game, words in [("digging", "partnership"), ("digger", "hourglass")]:
        result = runner.invoke(_cli(), ["play", game, "--help"], env={"COLUMNS": "120"})
        assert result.exit_code == 0 and words in result.output
        for option in ("--bots", "--seat", "--humans", "--seed", "--no-color"):
            assert option in result.output


def test_cli_help_says_each_games_own_hot_seat_and_takebacks() -> None:
    def words(game: str) -> str:
        result = CliRunner().invoke(_cli(), ["play", game, "--help"], env={"COLUMNS": "200"})
        assert result.exit_code == 0
        return " ".join(result.output.replace("│", " ").split())

    digging, digger = words("digging"), words("digger")
    assert "the screen is cleared as their turn ends" in digging
    assert "your draws" in digging
    # Digger's screen is never cleared (no secrets), and a Digger player draws nothing.
    assert "cleared" in digger and "Nothing is cleared between turns" in digger
    assert "the screen is cleared" not in digger and "draws" not in digger
    # Digger has no undo, so it offers no takebacks.
    assert "--takebacks" in digging and "--takebacks" not in digger and "none in Digger" in digger
    refused = CliRunner().invoke(_cli(), ["play", "digger", "--takebacks"])
    assert refused.exit_code == 2 and "No such option: --takebacks" in refused.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seed", "3"], "name a game: goldfields play digging, goldfields play digger, or goldfields play "
                          "--resume FILE"),
        (["digging", "--resume", "x.json"], "goldfields play --resume x.json"),
        (["digger", "--players", "3", "--resume", "x.json"], "goldfields play --resume x.json"),
    ],
)
def test_cli_a_misplaced_or_missing_game_says_where_it_goes(args: list[str], message: str) -> None:
    result = CliRunner().invoke(_cli(), ["play", *args], env={"COLUMNS": "200"})
    assert result.exit_code == 2
    assert message in result.output
    assert "No such option" not in result.output and "Show this message and exit" not in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["digging", "--players", "5"], "Digging is for 2, 3 or 4 players"),
        (["digging", "-n", "1"], "Digging is for 2, 3 or 4 players"),
        (["digging", "--bots", "nosuchbot"], "known bots for digging"),
        (["digging", "--bots", "random", "--bots", "random"], "need one bot spec for all or one each"),
        (["digging", "--seat", "7"], "the seats of a 4-player game are 0 to 3"),
        (["digger", "--players", "9"], "Digger is for 2 to 5 players"),
        (["digger", "--crates", "green"], "'green' is not one of 'white', 'black'"),
        (["digger", "--time-limit", "-5"], "time_limit must be a positive number of seconds, not -5"),
    ],
)
def test_cli_bad_options_exit_with_status_2(args: list[str], message: str) -> None:
    result = CliRunner().invoke(_cli(), ["play", *args], env={"COLUMNS": "200"})
    assert result.exit_code == 2
    assert message in result.output
    assert result.output.count("known bots") <= 1  # listed once, with what each bot is


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("no_color", "env", "colours", "bold"), [
    (True, {}, False, False),  # --no-color: plain text, for a screen reader or a log
    (False, {"NO_COLOR": "1"}, False, True),  # the NO_COLOR convention: the colours alone go
    (False, {}, True, True),
])  # fmt: skip
def test_no_color_prints_plain_text_in_a_terminal(
    monkeypatch: pytest.MonkeyPatch, no_color: bool, env: dict[str, str], colours: bool, bold: bool
) -> None:
    for name in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    out = _Terminal()
    make_console(no_color=no_color, file=out).print(Text("UNDER ATTACK", style="bold red"))
    printed = out.getvalue()
    assert "UNDER ATTACK" in printed
    assert ("\x1b[31m" in printed or "\x1b[1;31m" in printed) is colours, repr(printed)
    assert ("\x1b[1m" in printed or "\x1b[1;31m" in printed) is bold, repr(printed)


@pytest.mark.parametrize("line", ["²", "٣", "1" * 5000])
def test_a_number_in_other_digits_or_of_any_length_is_read_as_a_move_not_a_crash(line: str) -> None:
    """str.isdigit takes them; int() refuses ² and, past 4,300 digits, any number, and the notation
    writes numbers in ASCII digits: each is a move to check, which the engine refuses with a reason."""
    assert parse(line).verb is Verb.MOVE
    assert parse(f"log {line}").problem == f"log takes a number of lines or 'all', not {line!r}"
