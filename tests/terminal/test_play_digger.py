"""``goldfields play digger`` driven as a person drives it, in a pseudo-terminal."""

from __future__ import annotations

import re
from pathlib import Path

import pexpect

from .driver import MOVE_PROMPT, finish, play_to_end, replay, spawn


def dig(child: pexpect.spawn, count: int) -> str:
    """Roll at the start of a turn, take blue whenever it is offered (it ends the game), else stop."""
    listed = child.before or ""
    if count == 1 and "r to roll" in child.after:
        return "r"
    blue = re.search(r"\[(\d+)\] take B\b", listed)
    return blue.group(1) if blue else ""


def test_full_game_against_random_bots(tmp_path: Path) -> None:
    child, transcript = spawn("play", "digger", "--players", "3", "--bots", "random", "--seed", "11")
    counts = play_to_end(child, dig)
    assert counts["moves"] > 5
    child.sendline(f"save {tmp_path / 'digger.json'}")
    child.expect("Saved the game record")
    child.sendline("")
    assert finish(child) == 0
    text = transcript.getvalue()
    assert "Game over:" in text
    assert replay(tmp_path / "digger.json").returncode == 0
    # The bots' turns show their time to the watching human; the human's own steps never do.
    assert re.search(r"^seat [12]: .*stopped \[\d+\.\d s\]", text, re.M)
    for line in text.splitlines():
        if line.startswith("seat 0 (you)"):
            assert not re.search(r"\[\d+\.\d s\]", line), line
    assert not re.search(r"Hourglass: [\d.]+ s gone", text)


def test_the_sand_runs_out_while_the_digger_hesitates() -> None:
    child, _ = spawn("play", "digger", "--players", "2", "--bots", "random", "--seed", "12",
                     "--time-limit", "1")
    child.expect(r"1 s hourglass")
    child.expect(MOVE_PROMPT)
    child.sendline("r")
    child.expect(r"r roll, Enter stop; help\)> ")
    # Say nothing: the hourglass runs out by itself.
    child.expect(r"Time! The sand has run out on seat 0 \(you\)")
    child.expect(MOVE_PROMPT)
    child.sendline("quit")
    child.expect("Save the game")
    child.sendline("n")
    assert finish(child) == 0


def test_digger_bad_input_and_shortcuts() -> None:
    child, _ = spawn("play", "digger", "--players", "2", "--bots", "random", "--seed", "13")
    child.expect(MOVE_PROMPT)
    child.sendline("")
    child.expect("A turn begins with a roll: type r")
    child.expect(MOVE_PROMPT)
    child.sendline("timeout")
    child.expect("timeout is the clock's to call, not a move a player may choose. Press Enter to stop instead.")
    child.expect(MOVE_PROMPT)
    child.sendline("steal B 1")
    child.expect("G2")  # blue is never stolen
    child.expect(MOVE_PROMPT)
    # The dice and the clock are the game's: a move written with either is refused, not read as the plain one.
    child.sendline("roll KKKKK @0")
    child.expect("G2: 'roll KKKKK @0': chance decides how a move turns out: write just the move")
    child.expect(MOVE_PROMPT)
    child.sendline("roll @0.1")
    child.expect("G4: 'roll @0.1': the clock times a move: write just the move")
    child.expect(MOVE_PROMPT)
    child.sendline("rules")
    child.expect("G3 Stopping and the hourglass")
    child.expect(MOVE_PROMPT)
    child.sendline("r")
    child.expect(MOVE_PROMPT)
    child.sendline("s")
    child.expect(r"seat 0 \(you\) calls stop: banks")
    child.expect(MOVE_PROMPT)
    child.sendline("undo")
    child.expect("No undo in Digger: every turn begins with a roll of the dice")  # no free re-roll
    child.expect(MOVE_PROMPT)
    child.sendline("quit")
    child.expect("Save the game")
    child.sendline("n")
    assert finish(child) == 0


def test_hot_seat_digger_to_the_end() -> None:
    child, transcript = spawn("play", "digger", "--players", "3", "--humans", "2", "--bots", "random",
                              "--seed", "14")
    counts = play_to_end(child, dig)
    assert counts["handovers"] > 2
    child.sendline("")
    assert finish(child) == 0
    owner = None
    for line in transcript.getvalue().splitlines():
        if m := re.search(r"Pass the keyboard to seat (\d)", line):
            owner = int(m.group(1))
        elif owner is not None and line.startswith(f"seat {owner} (you)"):
            assert not re.search(r"\[\d+\.\d s\]", line), line  # the digger never sees the time


def test_a_bad_option_is_an_error_message_and_status_2() -> None:
    child, _ = spawn("play", "digger", "--players", "9")
    child.expect("error: Digger is for 2 to 5 players")
    assert finish(child) == 2
