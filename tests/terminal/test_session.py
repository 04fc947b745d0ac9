"""The play session in process: a scripted keyboard, a fake clock, a captured screen."""

from __future__ import annotations

import itertools
import json
import random
import re
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from goldfields.bots.base import Bot, Budget
from goldfields.core import registry
from goldfields.core.game import SeatView
from goldfields.digging.definition import DIGGING
from goldfields.terminal import SetupError, digger_session, digging_session
from goldfields.terminal.digging_front import DiggingFront
from goldfields.terminal.launch import resume_session
from goldfields.terminal.session import Session

from .support import Answer, FakeClock, ScriptedKeyboard, capture_screen, moves_in


def _move_then_undo(takebacks: bool) -> tuple[list[dict[str, Any]], str]:
    """The full state at each of seat 0's prompts when it moves, then types undo; and the screen."""
    screen, out = capture_screen()
    seen: list[dict[str, Any]] = []
    script = iter(["1", "undo", "quit", "n"])

    def policy(prompt: str) -> Answer:
        if "your move" in prompt.lower():
            seen.append(session.state.to_json())
        return next(script)

    session = digging_session(2, bots=["random"], seed=21, screen=screen, keyboard=ScriptedKeyboard(policy),
                              takebacks=takebacks)
    assert session.run() == 0
    return seen, out.getvalue()


def test_undo_restores_the_exact_position() -> None:
    (first, after_move, after_undo), shown = _move_then_undo(takebacks=True)
    assert first != after_move
    assert after_undo == first  # every hand, the pile and the scores: exactly as before
    assert "Takebacks are on: a practice game" in " ".join(shown.split())


def test_undo_then_a_different_move_goes_on_from_there() -> None:
    screen, out = capture_screen()
    answers = iter(["1", "undo", "2", "quit", "n"])
    session = digging_session(3, bots=["random"], seed=22, screen=screen,
                              keyboard=ScriptedKeyboard(lambda p: next(answers)), takebacks=True)
    assert session.run() == 0
    assert "Undone: back to your previous decision." in out.getvalue()
    moves = session.state.record()["hands"][0]["moves"]
    assert moves[0] != "draw"  # the first move is now the second choice, not the undone draw


def test_undo_without_takebacks_keeps_what_the_others_moves_showed() -> None:
    (first, after_move, after_refusal), shown = _move_then_undo(takebacks=False)
    assert after_refusal == after_move != first
    assert "has moved since your previous decision" in " ".join(shown.split())
    assert "Takebacks are on" not in shown


def test_the_seed_is_told_when_the_game_is_over_and_not_before() -> None:
    # The seed decides every deal: shown at the start, it would give away every hand and the pile.
    rng = random.Random(5)
    screen, out = capture_screen()
    shown_before_the_end: list[str] = []

    def policy(prompt: str) -> Answer:
        if "The game is over" in prompt:
            return ""
        shown_before_the_end.append(out.getvalue())
        if "is over" in prompt:
            return ""
        return str(rng.randint(1, moves_in(prompt)))

    session = digging_session(2, bots=["random"], screen=screen, keyboard=ScriptedKeyboard(policy))
    assert session.run() == 0
    seed = str(session.seed)
    assert len(seed) > 6  # drawn from far more seeds than one could try against a hand
    assert all(seed not in text for text in shown_before_the_end)
    assert f"Seed {seed} drew this game's deals and rolls: --seed {seed} plays them again." in out.getvalue()
    assert seed not in session.save_name


# The pseudo-terminal tests play 2 players and the partnership; these cover the other tables.
@pytest.mark.parametrize(("players", "partnership"), [(3, False), (4, False)])
def test_whole_digging_games_in_process(players: int, partnership: bool) -> None:
    rng = random.Random(players)
    screen, out = capture_screen()

    def policy(prompt: str) -> Answer:
        if "is over" in prompt:  # the end of a hand, or of the game
            return ""
        return str(rng.randint(1, moves_in(prompt)))

    session = digging_session(players, partnership, bots=["random"], seed=23, screen=screen,
                              keyboard=ScriptedKeyboard(policy))
    assert session.run() == 0
    assert session.state.is_terminal()
    assert "Game over:" in out.getvalue()
    assert not re.search(r"Hand of seat [1-3]", out.getvalue())


def _human_turn_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("seat 0 (you)")]


def test_digger_hourglass_is_real_time_and_hidden_from_the_digger() -> None:
    clock = FakeClock()
    screen, out = capture_screen()
    turn = {"n": 0, "thought": False}

    def policy(prompt: str) -> Answer:
        if "r to roll" in prompt:
            turn["n"] += 1
            turn["thought"] = False
            return "r" if turn["n"] <= 2 else "quit"
        if prompt.startswith("Save"):
            return "n"
        if turn["n"] == 1:  # think 29 s after the first roll, then stop: in time
            if not turn["thought"]:
                turn["thought"] = True
                return 29.0
            return ""
        return 31.0  # second turn: hesitate until the sand runs out while waiting

    session = digger_session(2, bots=["random"], seed=24, screen=screen,
                             keyboard=ScriptedKeyboard(policy, clock), clock=clock)
    assert session.run() == 0
    text = out.getvalue()
    assert "seat 0 (you) calls stop: banks" in text
    assert "Time! The sand has run out on seat 0 (you)" in text
    moves = session.state.record()["moves"]
    assert "stop @29" in moves and "timeout" in moves
    for line in _human_turn_lines(text):
        assert not re.search(r"\[\d+\.\d s\]", line), line
    assert not re.search(r"Hourglass: [\d.]+ s gone", text)


class NoDeadlineKeyboard(ScriptedKeyboard):
    """A keyboard that cannot watch the clock (Windows consoles): lateness is the engine's call."""

    def read(self, prompt: str, expired: Any = None) -> str | None:
        while True:
            answer = self.policy(prompt)
            if isinstance(answer, str):
                self.prompts.append(prompt)
                return answer
            assert self.clock is not None
            self.clock.now += answer


def test_a_late_stop_loses_the_haul() -> None:
    clock = FakeClock()
    screen, out = capture_screen()
    state = {"turn": 0, "waited": False}

    def policy(prompt: str) -> Answer:
        if "r to roll" in prompt:
            state["turn"] += 1
            return "r" if state["turn"] == 1 else "quit"
        if prompt.startswith("Save"):
            return "n"
        if not state["waited"]:
            state["waited"] = True
            return 31.0
        return ""

    session = digger_session(2, bots=["random"], seed=25, screen=screen,
                             keyboard=NoDeadlineKeyboard(policy, clock), clock=clock)
    assert session.run() == 0
    assert "seat 0 (you) calls stop too late" in out.getvalue()
    assert "stop @31" in session.state.record()["moves"]


def test_whole_digger_game_in_process() -> None:
    clock = FakeClock()
    screen, out = capture_screen()

    def policy(prompt: str) -> Answer:
        if "game is over" in prompt:
            return ""
        if "r to roll" in prompt:
            return "r"
        clock.now += 1.0
        return "take B" if "take B" in out.getvalue().rsplit("\n[1]", 1)[-1] else ""

    session = digger_session(3, bots=["random"], seed=26, screen=screen,
                             keyboard=ScriptedKeyboard(policy, clock), clock=clock)
    assert session.run() == 0
    assert session.state.is_terminal()
    assert "Game over:" in out.getvalue()


def test_end_of_input_abandons_the_game() -> None:
    screen, out = capture_screen()

    def policy(prompt: str) -> Answer:
        raise EOFError

    session = digging_session(2, bots=["random"], seed=27, screen=screen, keyboard=ScriptedKeyboard(policy))
    assert session.run() == 1
    assert "left unfinished" in out.getvalue()


def test_interrupt_offers_to_save(tmp_path: Any) -> None:
    screen, out = capture_screen()
    answers = iter(["y", str(tmp_path / "nowhere" / "g.json"), str(tmp_path), str(tmp_path / "g.json")])

    def policy(prompt: str) -> Answer:
        if "your move" in prompt.lower():
            raise KeyboardInterrupt
        return next(answers)

    session = digging_session(2, bots=["random"], seed=28, screen=screen, keyboard=ScriptedKeyboard(policy))
    assert session.run() == 130
    assert "Save the game before quitting? [y/N]" in " ".join(session.keyboard.prompts)  # type: ignore[attr-defined]
    # A folder that does not exist is an error (asked again), never created behind the player's back.
    assert "the folder" in out.getvalue() and "does not exist" in out.getvalue()
    assert not (tmp_path / "nowhere").exists()
    # A folder is not a file to save into: asked again, with nothing written beside it.
    assert "is a folder; name a file in it" in " ".join(out.getvalue().split())
    assert not list(tmp_path.parent.glob(f".{tmp_path.name}.*.part"))
    assert (tmp_path / "g.json").exists()
    assert "Saved the game record" in out.getvalue()


def test_saving_over_a_file_the_game_did_not_write_is_asked_first(tmp_path: Any) -> None:
    screen, out = capture_screen()
    other = tmp_path / "other.json"
    other.write_text("another game's only copy\n")
    name = str(other)
    answers = iter([f"save {name}", "n", f"save {name}", "y", f"save {name}", "quit", "n"])
    session = digging_session(2, bots=["random"], seed=29, screen=screen,
                              keyboard=ScriptedKeyboard(lambda p: next(answers)))
    assert session.run() == 0
    prompts = session.keyboard.prompts  # type: ignore[attr-defined]
    asked = [p for p in prompts if "Replace it? [y/N]" in p]
    assert len(asked) == 2  # refused once, replaced once; the game's own file is then saved over unasked
    shown = " ".join(out.getvalue().split())
    assert f"Not saved: {name} is as it was." in shown
    assert shown.count("Saved the game record") == 2
    assert json.loads(other.read_text())["game"] == "digging"


def test_saving_to_a_pipe_is_refused_and_leaves_it_a_pipe(tmp_path: Any) -> None:
    import os
    import stat

    screen, out = capture_screen()
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    answers = iter([f"save {fifo}", "quit", "n"])
    session = digging_session(2, bots=["random"], seed=29, screen=screen,
                              keyboard=ScriptedKeyboard(lambda p: next(answers)))
    assert session.run() == 0
    assert f"Not saved: {fifo} is not a regular file" in " ".join(out.getvalue().split())
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_resumed_game_saves_over_the_file_it_came_from_without_asking(tmp_path: Any) -> None:
    saved = tmp_path / "game.json"
    first = iter(["1", f"save {saved}", "quit", "n"])
    digging_session(2, bots=["random"], seed=30, screen=capture_screen()[0],
                    keyboard=ScriptedKeyboard(lambda p: next(first))).run()
    moves = len(json.loads(saved.read_text())["hands"][0]["moves"])
    then = iter(["1", f"save {saved}", "quit", "n"])
    keyboard = ScriptedKeyboard(lambda p: next(then))
    assert resume_session(saved, bots=["random"], seed=31, screen=capture_screen()[0], keyboard=keyboard).run() == 0
    assert not [p for p in keyboard.prompts if "Replace it?" in p]
    assert len(json.loads(saved.read_text())["hands"][0]["moves"]) > moves


def test_a_game_under_rule_options_keeps_them_in_its_record_and_when_resumed(tmp_path: Any) -> None:
    saved = tmp_path / "variant.json"
    screen, out = capture_screen()
    first = iter(["1", f"save {saved}", "quit", "n"])
    session = digging_session(2, bots=["random"], seed=32, screen=screen,
                              keyboard=ScriptedKeyboard(lambda p: next(first)),
                              rules={"full_deck": True, "close_needs_chest": True})
    assert session.run() == 0
    said = "Rule options: full_deck=true, close_needs_chest=true."
    assert said in out.getvalue()
    record = json.loads(saved.read_text())
    assert record["options"] == {"full_deck": True, "close_needs_chest": True}
    assert registry.get("digging").replay(record)[1] == 0

    screen, out = capture_screen()
    then = iter(["quit", "n"])
    resumed = resume_session(saved, bots=["random"], seed=33, screen=screen,
                             keyboard=ScriptedKeyboard(lambda p: next(then)))
    assert resumed.state.options == session.state.options  # type: ignore[attr-defined]
    assert resumed.run() == 0
    assert said in out.getvalue()  # the saved game's rules are told again, though no option named them
    # Counted as the record writes its moves (the deal is none of them), not as internal events.
    moves = sum(len(hand["moves"]) for hand in record["hands"])
    shown = " ".join(out.getvalue().split())
    assert f"Resumed after {moves} move{'s' if moves != 1 else ''} of the saved game" in shown


def test_a_resumed_digging_hand_says_its_pile_is_the_saved_one(tmp_path: Any) -> None:
    """A record holds each hand's deck as dealt: resumed, a hand in play draws from the saved pile
    whatever the seed, and the game says so rather than that everything to come is drawn afresh."""
    saved = tmp_path / "game.json"
    first = iter(["1", f"save {saved}", "quit", "n"])
    screen, out = capture_screen()
    digging_session(2, bots=["random"], seed=36, screen=screen, keyboard=ScriptedKeyboard(lambda p: next(first))).run()
    shown = " ".join(out.getvalue().split())
    # The note on what the file holds follows the save it is about.
    assert shown.index("Saved the game record to") < shown.index("a game record holds every hand")
    piles = []
    for seed in (37, 38):
        screen, out = capture_screen()
        resumed = resume_session(saved, bots=["random"], seed=seed, screen=screen,
                                 keyboard=ScriptedKeyboard(lambda p: "quit" if "move" in p.lower() else "n"))
        piles.append(list(resumed.state.pile))  # type: ignore[attr-defined]
        assert resumed.run() == 0
        assert "the rest of this hand's pile is as saved, and the hands after it are dealt afresh" in " ".join(
            out.getvalue().split())
    assert piles[0] == piles[1] and len(piles[0]) > 0


def test_each_game_says_what_a_resume_draws_afresh() -> None:
    from goldfields.digger.state import DiggerState
    from goldfields.digging.state import DiggingState
    from goldfields.terminal.digger_front import DiggerFront

    # Saved between hands (the state waits for the deal): nothing of the next hand is in the record.
    assert DiggingState(players=2).is_chance_node()
    assert DiggingFront().resume_note(DiggingState(players=2)) == "the next hand is dealt afresh"
    assert DiggerFront(FakeClock()).resume_note(DiggerState(players=2)) == (
        "every roll and knock from here on is drawn afresh")


def test_a_save_that_fails_gives_no_note_on_what_the_file_holds(tmp_path: Any) -> None:
    screen, out = capture_screen()
    answers = iter(["1", f"save {tmp_path / 'nowhere' / 'game.json'}", "quit", "n"])
    keyboard = ScriptedKeyboard(lambda p: next(answers))
    digging_session(2, bots=["random"], seed=36, screen=screen, keyboard=keyboard).run()
    shown = " ".join(out.getvalue().split())
    assert "Could not save to" in shown and "holds every hand" not in shown


def test_a_standard_game_names_no_rule_options() -> None:
    screen, out = capture_screen()
    session = digging_session(2, bots=["random"], seed=34, screen=screen,
                              keyboard=ScriptedKeyboard(lambda p: "quit" if "move" in p.lower() else "n"))
    assert session.run() == 0
    assert "Rule options" not in out.getvalue()


def test_digger_rules_agree_with_its_own_options_or_are_refused() -> None:
    def quiet() -> ScriptedKeyboard:
        return ScriptedKeyboard(lambda p: "quit")

    session = digger_session(2, bots=["random"], seed=35, screen=capture_screen()[0], keyboard=quiet(),
                             rules={"time_limit": 20, "crates": "black"})
    assert session.state.limit == 20  # type: ignore[attr-defined]
    assert "black" in session.state.record()["crates"]
    same = digger_session(2, bots=["random"], seed=35, screen=capture_screen()[0], keyboard=quiet(), time_limit=20,
                          rules={"time_limit": 20})
    assert same.state.limit == 20  # type: ignore[attr-defined]
    with pytest.raises(SetupError, match=r"--time-limit 25 and --rule time_limit=20 disagree"):
        digger_session(2, time_limit=25, rules={"time_limit": 20})
    with pytest.raises(SetupError, match="--crates black and --rule crates=white disagree"):
        digger_session(2, crates="black", rules={"crates": "white"})
    with pytest.raises(SetupError, match="time_limit must be a positive number of seconds"):
        digger_session(2, rules={"time_limit": "abc"})
    # The two spellings are one rule, so one check: the engine's, whichever was typed.
    for spelled in ({"time_limit": 0.0}, {"rules": {"time_limit": 0}}):
        with pytest.raises(SetupError, match="time_limit must be a positive number of seconds"):
            digger_session(2, **spelled)  # type: ignore[arg-type]
    for spelled in ({"time_limit": 0.5}, {"rules": {"time_limit": 0.5}}):
        short = digger_session(2, bots=["random"], seed=35, screen=capture_screen()[0], keyboard=quiet(), **spelled)  # type: ignore[arg-type]
        assert short.state.limit == 0.5  # type: ignore[attr-defined]


def _opening(game: str, width: int = 120, answers: tuple[str, ...] = (), **options: Any) -> str:
    """The screen of a game left at its first move prompt, after typing ``answers`` there."""
    screen, out = capture_screen(width)
    typed = iter([*answers, "quit"])

    def policy(prompt: str) -> Answer:
        if "Pass the keyboard" in prompt:
            return ""
        return next(typed) if ("move" in prompt.lower() or "dig" in prompt.lower()) else "n"

    make = digging_session if game == "digging" else digger_session
    session = make(2, seed=36, screen=screen, keyboard=ScriptedKeyboard(policy), **options)
    assert session.run() == 0
    return out.getvalue()


def test_hot_seat_says_the_screen_is_cleared_only_where_it_is() -> None:
    # Digging's hands are secret, so its screen is cleared between players; Digger has no secret to hide.
    digging = " ".join(_opening("digging", humans=2).split())
    assert "Hot seat: seats 0, 1 are played at this keyboard" in digging
    assert "the screen is cleared as each player's turn ends" in digging
    digger = " ".join(_opening("digger", humans=2).split())
    assert "Hot seat: seats 0, 1 are played at this keyboard" in digger
    assert "cleared before" not in digger and "nothing is cleared between turns" in digger


@pytest.mark.parametrize("width", [60, 80, 160])
def test_help_is_the_games_own_and_wraps_to_the_screen(width: int) -> None:
    digging = _opening("digging", width, ("help",), bots=["random"])
    digger = _opening("digger", width, ("help",), bots=["random"])
    for shown in (digging, digger):
        assert max(len(line.rstrip()) for line in shown.splitlines()) <= width
    words = " ".join(digger.split())
    # The commands, whole however they wrap; Digger's luck is the dice, and it has no cards.
    assert "log [N|all] the game so far in words (the last 40 lines, N lines, or all)" in words
    assert "undo no undo in Digger: every turn begins with a roll of the dice" in words
    assert "card" not in digger.split("Commands")[1].split("Colours")[0]
    assert "no new hand has been dealt since" in " ".join(digging.split())
    # Rich wraps the text: a line goes on to the next only when its next word would not fit.
    for shown in (digging, digger):
        lines = shown.split("Commands (type them")[1].splitlines()
        for above, line in itertools.pairwise(lines):
            if line.startswith(" " * 15) and line.strip():  # the second column, wrapped
                assert len(above.rstrip()) + 1 + len(line.split()[0]) > width, (above, line)


def test_takebacks_are_said_in_the_games_own_words() -> None:
    digging = " ".join(_opening("digging", bots=["random"], takebacks=True).split())
    assert "Takebacks are on: a practice game. Undo also goes back past the other seats' moves and your draws" \
        in digging
    # Digger has no undo (every turn begins with a roll, and luck stands), so no takebacks either.
    with pytest.raises(SetupError, match="--takebacks: no undo in Digger: every turn begins with a roll"):
        _opening("digger", bots=["random"], takebacks=True)


def test_takebacks_at_a_hot_seat_are_refused_before_the_game() -> None:
    # Undo refuses whenever several people share the keyboard, so a practice game would promise nothing.
    with pytest.raises(SetupError, match="--takebacks is for one human against bots"):
        _opening("digging", humans=2, takebacks=True)


def test_a_search_bots_forced_reply_takes_as_long_as_its_searches() -> None:
    # In Digging a search with nothing to lay has one move (draw) and answers at once;
    # held to the pace of its own searches, its replies no longer say when that is.
    clock = FakeClock()
    forced: list[bool] = []

    @dataclass
    class Searcher(Bot):
        name: ClassVar[str] = "searcher"

        def act(self, view: SeatView, rng: random.Random, budget: Budget | None = None) -> int:
            legal = view.legal_actions()
            forced.append(len(legal) == 1)
            if len(legal) > 1:
                clock.now += 0.3  # a search's whole budget
            return rng.choice(legal)

    def sleep(seconds: float) -> None:
        clock.now += seconds

    rng = random.Random(3)
    screen, _ = capture_screen()
    state = DIGGING.new_state(DIGGING.params(players=2))
    keyboard = ScriptedKeyboard(lambda p: "" if "is over" in p else str(rng.randint(1, moves_in(p))))
    session = Session(DiggingFront(), state, [None, Searcher()], screen, keyboard, seed=8, sleep=sleep,
                      timer=clock)
    shown: list[float] = []
    thinking = screen.thinking

    @contextmanager
    def timed(what: str, after: float = 0.0) -> Any:
        start = clock.now
        with thinking(what, after=3600):
            yield
        shown.append(clock.now - start)

    screen.thinking = timed  # type: ignore[method-assign]
    assert session.run() == 0
    first = forced.index(False)
    assert any(forced[first:]), "the game had no forced reply to hold"
    assert all(abs(took - 0.3) < 1e-9 for took in shown[first:]), shown
    assert all(abs(took - 0.5) < 1e-9 for took in shown[:first])  # before any search: the first hold


def test_a_forced_reply_before_any_search_is_held_and_counts_for_nothing() -> None:
    # Forced replies are not searches: the pace is the searches' alone, however they come.
    slept: list[float] = []
    session = digging_session(2, bots=["ismcts:seconds=0.4"], seed=1, screen=capture_screen()[0],
                              keyboard=ScriptedKeyboard(lambda p: "quit"))
    session.sleep = slept.append
    bot = session.bots[1]
    assert bot is not None
    for took, forced in [(0.0, True), (0.3, False), (0.0, True), (0.5, False), (0.0, True), (0.2, False)]:
        session._hold(1, bot, took, forced)
    assert slept == pytest.approx([0.4, 0.3, 0.4, 0.1])  # the budget, then the median of the searches so far


class TypedAhead(ScriptedKeyboard):
    """A player who presses Enter once too often after each move: the extra line waits, typed
    ahead, for whatever prompt comes next, unless the session drops it first."""

    def __init__(self, policy: Any) -> None:
        super().__init__(policy)
        self.ahead: list[str] = []
        self.taken_ahead: list[str] = []  # the prompts a typed-ahead line answered

    def discard(self) -> None:
        self.ahead.clear()

    def read(self, prompt: str, expired: Any = None) -> str | None:
        if self.ahead:
            self.taken_ahead.append(prompt)
            return self.ahead.pop()
        line = super().read(prompt, expired)
        if "your move" in prompt:
            self.ahead.append("")
        return line


def test_a_line_typed_ahead_never_answers_a_hand_over_or_the_end_of_a_hand() -> None:
    """At a hot seat an Enter typed after a move once answered "Pass the keyboard to seat 0" before
    it was shown, and seat 0's hand appeared in front of seat 1. And a move typed at the end of a
    hand is refused, not taken for Enter."""
    screen, out = capture_screen()
    prompts = itertools.count()
    ends: Counter[str] = Counter()

    def policy(prompt: str) -> Answer:
        if next(prompts) > 400:
            return "quit"
        if "Pass the keyboard" in prompt:
            return ""
        if "is over" in prompt:
            ends[prompt] += 1
            return "1" if ends[prompt] == 1 else ""  # a move first: refused; then Enter
        return "1" if "your move" in prompt else "n"

    keyboard = TypedAhead(policy)
    session = digging_session(2, humans=2, seed=5, screen=screen, keyboard=keyboard)
    session.run()
    handovers = [p for p in keyboard.prompts if "Pass the keyboard" in p]
    assert not [p for p in keyboard.taken_ahead if "Pass the keyboard" in p or "is over" in p]
    assert len(handovers) > 20 and ends  # many hand-overs, and a hand's end
    shown = " ".join(out.getvalue().split())
    assert "no move now: the next hand is dealt when you press Enter" in shown
    # The scoring closes the hand for everyone: no "Seat K has played." for the move that ended it.
    for scoring in re.finditer(r"Hand \d+ is over\.", shown):
        assert "has played" not in shown[scoring.end():shown.find("is next.", scoring.end())]


def test_a_bots_move_that_ends_a_hand_is_told_before_the_hands_scoring() -> None:
    """Told only in the next hand's recap, the scoring showed a mine the player never saw opened."""
    screen, out = capture_screen()
    prompts = itertools.count()

    def policy(prompt: str) -> Answer:
        if next(prompts) > 300 or "is over" in prompt:
            return "quit"
        return "1" if "move" in prompt.lower() else "n"

    session = digging_session(2, bots=["random"], seed=2, screen=screen, keyboard=ScriptedKeyboard(policy))
    session.run()
    shown = out.getvalue()
    assert session._last_decider == 1  # the bot's move ended the hand
    end = shown.index("Hand 1 is over.")
    assert "seat 1 opens a silver mine as m4 in seat 0 (you)'s display." in shown[:end]


def test_a_keyboard_with_read_alone_still_plays_past_the_end_of_a_hand() -> None:
    """discard() is optional for an injected keyboard (docs/terminal.md, For programs and tests)."""

    class ReadOnly:
        def __init__(self) -> None:
            self.prompts = 0

        def read(self, prompt: str, expired: Any = None) -> str | None:
            self.prompts += 1
            if self.prompts > 600:
                return "quit" if "move" in prompt.lower() else "n"
            return "1" if "move" in prompt.lower() else ""

    screen, out = capture_screen()
    session = digging_session(2, bots=["random"], seed=3, screen=screen, keyboard=ReadOnly())
    session.run()
    assert "Hand 2" in out.getvalue()


@pytest.mark.parametrize("width", [40, 120])
def test_the_recap_is_cut_to_screen_rows_so_wrapped_lines_leave_the_moves_in_sight(width: int) -> None:
    # On a narrow terminal a recap line wraps: the limit counts the rows the lines take, not the
    # lines, and keeps the latest ones with a note of how many earlier lines are left out.
    from goldfields.core.game import Event
    from goldfields.terminal.session import RECAP_LINES, RECAP_LINES_COMPACT

    screen, _ = capture_screen(width=width)
    session = digging_session(2, bots=["random"], seed=1, screen=screen, keyboard=ScriptedKeyboard(lambda p: "quit"))
    lines = [f"line {i}: " + "word " * 12 for i in range(8)]  # 70 columns: two rows at 40, one at 120
    session.front.recap = lambda views, names, width: list(lines)  # type: ignore[method-assign]
    session.events.append(Event("news", {}))
    shown = session._recap(0)
    assert screen.compact  # 25 rows: the compact limit of 6 rows holds at both widths
    assert sum(screen.rows(line) for line in shown) <= RECAP_LINES_COMPACT < RECAP_LINES
    if width == 120:
        assert shown == ["(3 earlier lines: type log to see them)", *lines[-5:]]  # 1 + 5 one-row lines
    else:
        assert shown == ["(6 earlier lines: type log to see them)", *lines[-2:]]  # 1 + 2 + 2 rows


def test_a_resumed_game_seats_the_hard_level_of_its_own_kind_of_table(tmp_path: Any) -> None:
    """A record that leaves "partnership" out (its default at 4 players) is a partnership game:
    its Hard is the partnership game's, as at a new table."""
    saved = tmp_path / "game.json"
    first = iter(["1", f"save {saved}", "quit", "n"])
    new = digging_session(4, bots=["hard"], seed=34, screen=capture_screen()[0],
                          keyboard=ScriptedKeyboard(lambda p: next(first)))
    new.run()
    record = json.loads(saved.read_text())
    del record["partnership"]
    saved.write_text(json.dumps(record))
    keyboard = ScriptedKeyboard(lambda p: "quit" if "your move" in p.lower() else "n")
    resumed = resume_session(saved, bots=["hard"], seed=35, screen=capture_screen()[0], keyboard=keyboard)
    assert resumed.names.bots == new.names.bots
    assert "others=observer" in resumed.names.bots[1]
