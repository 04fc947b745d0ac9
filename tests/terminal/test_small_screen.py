"""Playing at 80x24, as a new player on a small terminal would: what is on the screen at each prompt.

The real command runs in a pseudo-terminal of 24 rows and 80 columns, and its
output is fed to a terminal emulator (pyte), so each check reads exactly the
24 lines a person would see when the prompt appears.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pexpect
import pytest

from .driver import (
    EXE,
    GAME_OVER,
    HAND_OVER,
    HANDOVER,
    MOVE_PROMPT,
    finish,
    move_count,
    random_chooser,
    replay,
    spawn,
)

pyte = pytest.importorskip("pyte")

SMALL = (24, 80)


class Glass:
    """The 80x24 screen the player looks at, fed from the child's output as it comes."""

    def __init__(self, child: pexpect.spawn) -> None:
        self.screen = pyte.Screen(SMALL[1], SMALL[0])
        self.stream = pyte.Stream(self.screen)
        self.child = child
        self.fed = 0
        self.transcript = child.logfile_read

    def lines(self) -> list[str]:
        text = self.transcript.getvalue()
        # pyte wants a real terminal's line ends.
        self.stream.feed(text[self.fed :].replace("\r\n", "\n").replace("\n", "\r\n"))
        self.fed = len(text)
        return [line.rstrip() for line in self.screen.display]

    def text(self) -> str:
        return "\n".join(self.lines())


def expect(child: pexpect.spawn, patterns: list[str]) -> int:
    return child.expect(patterns, timeout=60)


def test_the_recap_of_the_bots_moves_stays_above_the_prompt_at_80x24() -> None:
    child, _ = spawn("play", "digging", "--bots", "random", "--seed", "5", size=SMALL)
    glass = Glass(child)
    choose = random_chooser(5)
    recaps = 0
    for _ in range(40):
        i = expect(child, [MOVE_PROMPT, HAND_OVER])
        if i == 1:
            child.sendline("")
            continue
        shown = glass.lines()
        if "Since your last move:" in shown:
            recaps += 1
            at = len(shown) - 1 - shown[::-1].index("Since your last move:")  # this screen's, not the last
            # The table's first line, the recap and the prompt are all on the one screen.
            assert any(line.startswith("Digging 4p partnership") for line in shown[:at]), glass.text()
            assert re.match(r"(Seat [123] |Hand \d+: )", shown[at + 1]), glass.text()
            assert [line for line in shown if line][-1].startswith("Your move")
        child.sendline(choose(child, move_count(child)))
    assert recaps >= 10
    child.sendline("quit")
    child.sendline("n")
    assert finish(child) == 0


def test_digger_hot_seat_shows_each_human_the_turns_since_their_last() -> None:
    child, _ = spawn("play", "digger", "--players", "3", "--humans", "2", "--bots", "random", "--seed", "3",
                     size=SMALL)
    glass = Glass(child)
    rolled: dict[int, int] = {}
    seen_other_human = 0
    seat = None
    for _ in range(400):
        i = expect(child, [MOVE_PROMPT, HANDOVER, GAME_OVER])
        if i == 2:
            break
        if i == 1:
            seat = int(child.match.group(1))
            child.sendline("")
            continue
        screen = glass.text()
        other = 1 - seat if seat in (0, 1) else None
        if "r to roll" in child.after:
            if other is not None and rolled.get(other) and re.search(rf"^Seat {other}: \d+ rolls?", screen, re.M):
                seen_other_human += 1
            rolled[seat] = rolled.get(seat, 0) + 1
            child.sendline("r")
        else:
            child.sendline("")  # stop at once: a short game
    else:
        raise AssertionError("no end of game")
    assert seen_other_human >= 3  # each human's turn is there for the other, not wiped by a clear
    child.sendline("")
    assert finish(child) == 0


def test_undo_after_a_roll_is_refused_and_keeps_the_dice() -> None:
    child, _ = spawn("play", "digger", "--players", "2", "--bots", "random", "--seed", "3", size=SMALL)
    child.expect(MOVE_PROMPT)
    child.sendline("r")
    child.expect(r"Dice: ([BYRGWK ]+?)  ")
    dice = child.match.group(1)
    child.expect(MOVE_PROMPT)
    child.sendline("undo")
    child.expect("No undo in Digger: every turn begins with a roll of the dice")
    child.expect(MOVE_PROMPT)
    child.sendline("show")
    child.expect(r"Dice: ([BYRGWK ]+?)  ")
    assert child.match.group(1) == dice
    child.sendline("quit")
    child.sendline("n")
    assert finish(child) == 0


def test_each_digging_hand_ends_with_its_scoring_before_the_next_deal() -> None:
    child, _ = spawn("play", "digging", "--players", "2", "--bots", "random", "--seed", "8", size=SMALL)
    glass = Glass(child)
    choose = random_chooser(8)
    hands = 0
    while True:
        i = expect(child, [MOVE_PROMPT, HAND_OVER, GAME_OVER])
        if i == 0:
            child.sendline(choose(child, move_count(child)))
        elif i == 1:
            hands += 1
            screen = glass.text()
            assert f"Hand {child.match.group(1)} is over." in screen
            assert "this hand" in screen and "game total" in screen
            # Every mine of the hand is listed with its cards; an open one scores nothing.
            assert re.search(r"m\d+ (gold|silver|copper) mine: ", screen) or "no mine" in screen
            child.sendline("")
        else:
            break
    assert hands >= 1
    child.sendline("")
    assert finish(child) == 0


def test_a_saved_game_resumes_and_is_played_to_the_end(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    child, _ = spawn("play", "digging", "--players", "2", "--bots", "random", "--seed", "4", size=SMALL)
    choose = random_chooser(4)
    for _ in range(6):
        child.expect(MOVE_PROMPT)
        child.sendline(choose(child, move_count(child)))
    child.expect(MOVE_PROMPT)
    child.sendline(f"save {tmp_path / 'missing' / 'game.json'}")
    child.expect(r"Could not save to[\s\S]*?does\s+not\s+exist")  # long paths wrap at 80 columns
    child.expect(MOVE_PROMPT)
    child.sendline(f"save {saved}")
    child.expect("Saved the game record")
    child.expect(MOVE_PROMPT)
    child.sendline("quit")
    child.expect("Save the game")
    child.sendline("n")
    assert finish(child) == 0
    assert not (tmp_path / "missing").exists()
    moves_before = sum(len(h["moves"]) for h in json.loads(saved.read_text())["hands"])

    child, transcript = spawn("play", "--resume", str(saved), "--bots", "random", "--seed", "9", size=SMALL)
    child.expect("Resumed after")
    while True:
        i = expect(child, [MOVE_PROMPT, HAND_OVER, GAME_OVER])
        if i == 0:
            child.sendline(choose(child, move_count(child)))
        elif i == 1:
            child.sendline("")
        else:
            break
    child.sendline(f"save {tmp_path / 'final.json'}")
    child.expect("Saved the game record")
    child.sendline("")
    assert finish(child) == 0
    final = json.loads((tmp_path / "final.json").read_text())
    # The finished game continues the saved one move for move.
    assert final["hands"][0]["moves"][:moves_before] == json.loads(saved.read_text())["hands"][0]["moves"]
    assert replay(tmp_path / "final.json").returncode == 0
    assert "Game over:" in transcript.getvalue()


def test_resume_refuses_a_finished_or_broken_record(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    child, _ = spawn("play", "--resume", str(broken))
    child.expect(r"is\s+not\s+a\s+game\s+record")
    assert finish(child) == 2
    done = tmp_path / "done.json"
    subprocess.run([EXE, "demo", "digger", "-n", "2", "-b", "random", "--save", str(done)], check=True,
                   capture_output=True, timeout=120)
    child, _ = spawn("play", "--resume", str(done))
    child.expect(r"is\s+over:\s+nothing\s+is\s+left\s+to\s+play")
    assert finish(child) == 2


def test_a_slow_bot_says_it_is_thinking() -> None:
    child, _ = spawn("play", "digging", "--players", "2", "--bots", "ismcts:seconds=1.5", "--seed", "6", size=SMALL)
    child.expect(MOVE_PROMPT)
    child.sendline("1")
    child.expect(r"seat 1 \(ismcts:seconds=1.5\) is thinking\.\.\.", timeout=60)
    child.expect(MOVE_PROMPT, timeout=60)
    child.sendline("quit")
    child.sendline("n")
    assert finish(child) == 0


def test_messages_count_and_name_seats_right() -> None:
    child, _ = spawn("play", "digging", "--bots", "random", "--seed", "5", size=SMALL)
    child.expect(MOVE_PROMPT)
    child.sendline("play MC 4")
    child.expect(r"Not allowed: D3: 'play MC 4': there is no\s+seat 4; the seats are 0 to 3")
    child.expect(MOVE_PROMPT)
    child.sendline("quit")
    child.sendline("n")
    assert finish(child) == 0
    child, _ = spawn("play", "digger", "--players", "3", "--bots", "random", "--seed", "5", size=SMALL)
    child.expect(r"\(1 = roll")  # one move: no "(1-1"
    child.sendline("r")
    child.expect(MOVE_PROMPT)
    child.sendline("steal Y 7")
    child.expect(r"no\s+seat\s+7;\s+the\s+seats\s+are\s+0\s+to\s+2")
    child.sendline("quit")
    child.sendline("n")
    assert finish(child) == 0


COMMANDS = [[], ["play"], ["play", "digging"], ["play", "digger"], ["demo"], ["arena"], ["replay"], ["serve"],
            ["analyze"], ["train"]]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "goldfields")
def test_the_help_fits_80_columns_and_shows_no_type_names(command: list[str]) -> None:
    out = subprocess.run([EXE, *command, "--help"], capture_output=True, text=True, timeout=60,
                         env={"COLUMNS": "80", "PATH": "/usr/bin:/bin", "TERM": "dumb"})
    assert out.returncode == 0, out.stderr
    assert max(len(line) for line in out.stdout.splitlines()) <= 80
    assert "<bool>" not in out.stdout


def test_play_demo_and_arena_name_the_game_and_the_players_alike() -> None:
    for command in (["play", "digger"], ["demo"], ["arena"]):
        out = subprocess.run([EXE, *command, "--help"], capture_output=True, text=True, timeout=60,
                             env={"COLUMNS": "200", "PATH": "/usr/bin:/bin", "TERM": "dumb"}).stdout
        assert re.search(r"--players\s+-n\s", out), command
        assert re.search(r"--seed\s+-s\s", out), command
    assert "[GAME]" in subprocess.run([EXE, "demo", "--help"], capture_output=True, text=True).stdout
    assert "[GAME] BOT..." in subprocess.run([EXE, "arena", "--help"], capture_output=True, text=True).stdout
    version = subprocess.run([EXE, "--version"], capture_output=True, text=True)
    assert re.fullmatch(r"goldfields \d+\.\d+\.\d+\S*\n", version.stdout)
