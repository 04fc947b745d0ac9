"""``goldfields play digging`` driven as a person drives it, in a pseudo-terminal."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from .driver import (
    ENV,
    GAME_OVER,
    HANDOVER,
    MOVE_PROMPT,
    finish,
    goldfields_command,
    play_to_end,
    random_chooser,
    replay,
    spawn,
)


def test_two_players_against_a_random_bot_to_the_end() -> None:
    child, transcript = spawn("play", "digging", "--players", "2", "--bots", "random", "--seed", "1")
    counts = play_to_end(child, random_chooser(1))
    assert counts["moves"] > 10 and counts["handovers"] == 0
    child.sendline("")
    assert finish(child) == 0
    text = transcript.getvalue()
    assert "Game over:" in text and "Hand of seat 0 (you)" in text
    assert "Hand of seat 1" not in text  # the bot's hand is never shown


def test_four_player_partnership_by_default_to_the_end() -> None:
    child, transcript = spawn("play", "digging", "--bots", "random", "--seed", "2")
    play_to_end(child, random_chooser(2))
    child.sendline("")
    assert finish(child) == 0
    text = transcript.getvalue()
    assert "partnership" in text and "team A" in text and "Game over:" in text
    assert not re.search(r"Hand of seat [123]", text)


def test_hot_seat_hides_each_hand_from_the_others(tmp_path: Path) -> None:
    child, transcript = spawn("play", "digging", "--players", "2", "--humans", "2", "--seed", "3")
    child.expect(HANDOVER)
    child.sendline("")
    child.expect(MOVE_PROMPT)
    child.sendline(f"save {tmp_path / 'mid.json'}")
    child.expect("Warning: a game record holds every hand")
    child.expect(MOVE_PROMPT)
    child.sendline("undo")
    child.expect("undo is only for games with one human")
    child.expect(MOVE_PROMPT)
    child.sendline("1")
    counts = play_to_end(child, random_chooser(3))
    assert counts["handovers"] > 10
    child.sendline("")
    assert finish(child) == 0
    assert replay(tmp_path / "mid.json").returncode == 0

    # Between "Pass the keyboard to seat K" and "Seat K has played." the screen is K's:
    # only K's hand, only K called "you". Outside those stretches nobody's hand shows.
    owner: int | None = None
    for line in transcript.getvalue().splitlines():
        if m := re.search(r"Pass the keyboard to seat (\d)", line):
            owner = int(m.group(1))
        elif re.search(r"Seat \d has played\.", line):
            owner = None
        for m in re.finditer(r"Hand of seat (\d)|seat (\d) \(you", line):
            seat = int(m.group(1) or m.group(2))
            assert seat == owner, f"seat {seat}'s screen shown while the keyboard is with {owner}: {line!r}"


def test_bad_input_is_explained_and_changes_nothing() -> None:
    child, _ = spawn("play", "digging", "--players", "2", "--bots", "random", "--seed", "4")
    child.expect(MOVE_PROMPT)
    count = child.match.group(1)
    for line, answer in [
        ("frobnicate", "is neither a command nor a move"),
        ("0", "There is no move 0: the moves are numbered 1 to"),
        ("999", "There is no move 999"),
        ("play B12 m9", r"Not allowed: D\d"),  # the engine's message names the rule
        ("play X m1", r"Not allowed: D\d"),
        ("pass G", r"Not allowed: D2"),
        ("save", "save needs a file name"),
        ("log twice", "log takes a number of lines"),
        ("undo", "Nothing to undo: this is your first decision"),
        ("help me", "help takes nothing after it"),
    ]:
        child.sendline(line)
        child.expect(answer)
        child.expect(MOVE_PROMPT)
        assert child.match.group(1) == count, f"the position changed after {line!r}"
    child.sendline("quit")
    child.expect(r"Save the game before quitting\? \[y/N\] ")
    child.sendline("")
    assert finish(child) == 0


def test_help_rules_log_and_show() -> None:
    child, _ = spawn("play", "digging", "--players", "3", "--bots", "random", "--seed", "5")
    child.expect(MOVE_PROMPT)
    child.sendline("help")
    child.expect("save FILE")
    child.expect("play MG 2")
    child.expect(MOVE_PROMPT)
    child.sendline("rules")
    child.expect("D6 Fights")
    child.expect("D9 The game")
    child.expect(MOVE_PROMPT)
    child.sendline("1")
    child.expect(MOVE_PROMPT)
    child.sendline("log")
    child.expect("The game so far, as seat 0 sees it")
    child.expect("Hand 1: seat 2 deals; seat 0 \\(you\\) plays first. You hold")
    child.expect(MOVE_PROMPT)
    child.sendline("show")
    child.expect("Hand of seat 0 \\(you\\)")
    child.expect(MOVE_PROMPT)
    child.sendline("quit")
    child.expect("Save the game")
    child.sendline("n")
    assert finish(child) == 0


def test_undo_is_refused_once_another_seat_has_moved() -> None:
    # Taking back a draw would show the top of the pile, and the bot's reply something of its hand.
    child, _ = spawn("play", "digging", "--players", "2", "--bots", "random", "--seed", "6")
    child.expect(MOVE_PROMPT)
    child.sendline("1")  # draw; then the bot moves
    child.expect(r"Hand of seat 0 \(you\): ([^\r\n]*)")
    after_draw = child.match.group(1)
    child.expect(MOVE_PROMPT)
    child.sendline("undo")
    child.expect("undo takes back only what you alone have seen: seat 1")
    child.expect("--takebacks")
    child.sendline("show")
    child.expect(r"Hand of seat 0 \(you\): ([^\r\n]*)")
    assert child.match.group(1) == after_draw  # nothing was undone
    child.expect(MOVE_PROMPT)
    child.sendline("quit")
    child.expect("Save the game")
    child.sendline("n")
    assert finish(child) == 0


def test_undo_with_takebacks_returns_to_the_previous_decision() -> None:
    child, _ = spawn("play", "digging", "--players", "2", "--bots", "random", "--seed", "6", "--takebacks")
    child.expect("Takebacks are on: a practice game")
    child.expect(r"Hand of seat 0 \(you\): ([^\r\n]*)")
    first_hand = child.match.group(1)
    child.expect(MOVE_PROMPT)
    first_count = child.match.group(1)
    child.sendline("1")  # draw
    child.expect(r"Hand of seat 0 \(you\): ([^\r\n]*)")
    assert child.match.group(1) != first_hand
    child.expect(MOVE_PROMPT)
    child.sendline("undo")
    child.expect("Undone: back to your previous decision")
    child.expect(r"Hand of seat 0 \(you\): ([^\r\n]*)")
    assert child.match.group(1) == first_hand
    child.expect(MOVE_PROMPT)
    assert child.match.group(1) == first_count
    child.sendline("undo")
    child.expect("Nothing to undo")
    child.expect(MOVE_PROMPT)
    child.sendline("quit")
    child.expect("Save the game")
    child.sendline("n")
    assert finish(child) == 0


def test_save_then_replay(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    child, _ = spawn("play", "digging", "--bots", "random", "--seed", "7")
    for _ in range(5):
        child.expect(MOVE_PROMPT)
        child.sendline("1")
    child.expect(MOVE_PROMPT)
    child.sendline(f"save {record}")
    child.expect("Saved the game record to")
    child.expect(MOVE_PROMPT)
    child.sendline("quit")
    child.expect("Save the game")
    child.sendline("n")
    assert finish(child) == 0
    checked = replay(record)
    assert checked.returncode == 0, checked.stdout
    report = json.loads(checked.stdout)
    assert report["ok"] is True
    assert json.loads(record.read_text())["hands"][0]["moves"]


def test_ctrl_c_offers_to_save(tmp_path: Path) -> None:
    child, _ = spawn("play", "digging", "--players", "2", "--bots", "random", "--seed", "8", cwd=tmp_path)
    child.expect(MOVE_PROMPT)
    child.sendline("1")
    child.expect(MOVE_PROMPT)
    child.sendintr()
    child.expect(r"Save the game before quitting\? \[y/N\] ")
    child.sendline("y")
    child.expect(r"File name \[digging-8\.json\]: ")
    child.sendline("")
    child.expect("Saved the game record to")
    assert finish(child) == 130
    assert replay(tmp_path / "digging-8.json").returncode == 0


def test_finished_game_can_be_saved_and_replayed(tmp_path: Path) -> None:
    child, _ = spawn("play", "digging", "--players", "2", "--bots", "random", "--seed", "9")
    play_to_end(child, random_chooser(9))
    child.sendline("3")
    child.expect("no more moves")
    child.expect(GAME_OVER)
    child.sendline(f"save {tmp_path / 'done.json'}")
    child.expect("Saved the game record")
    child.expect(GAME_OVER)
    child.sendline("")
    assert finish(child) == 0
    report = json.loads(replay(tmp_path / "done.json").stdout)
    assert report["ok"] and report["winner"]


def test_a_game_under_a_rule_is_saved_replayed_and_resumed_under_it(tmp_path: Path) -> None:
    record = tmp_path / "variant.json"
    child, _ = spawn("play", "digging", "--players", "2", "--bots", "random", "--seed", "10",
                              "--rule", "full_deck=true")
    child.expect("Rule options: full_deck=true.")
    child.expect(MOVE_PROMPT)
    child.sendline("1")
    child.expect(MOVE_PROMPT)
    child.sendline(f"save {record}")
    child.expect("Saved the game record")
    child.expect(MOVE_PROMPT)
    child.sendline("quit")
    child.expect("Save the game")
    child.sendline("n")
    assert finish(child) == 0
    assert json.loads(record.read_text())["options"] == {"full_deck": True}
    checked = replay(record)
    assert checked.returncode == 0 and json.loads(checked.stdout)["ok"] is True

    child, _ = spawn("play", "--resume", str(record), "--bots", "random", "--seed", "11")
    child.expect("Rule options: full_deck=true.")  # from the record: no --rule was given
    child.expect(MOVE_PROMPT)
    child.sendline("quit")
    child.expect("Save the game")
    child.sendline("n")
    assert finish(child) == 0

    child, _ = spawn("play", "--resume", str(record), "--rule", "full_deck=false")
    child.expect("keeps the rules it was started with")
    assert finish(child) == 2


def test_piped_answers_play_a_whole_game_through_the_ends_of_hands() -> None:
    """Lines piped in are a script's answers to come, not keys typed ahead: the pause at the end
    of a hand drops typed-ahead keys at a terminal only. (It once emptied a pipe at hand 1.)"""
    answers = "1\n\n" * 4000  # a move where one is asked, Enter where a pause waits (a move there is refused)
    command = [*goldfields_command(), "play", "digging", "-n", "2", "-b", "random", "-s", "3", "--no-color"]
    done = subprocess.run(command, input=answers, capture_output=True, text=True, env=ENV, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    assert done.stdout.count("is over.") >= 2 and "The game is over." in done.stdout
