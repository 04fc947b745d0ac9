from __future__ import annotations

import pytest

from goldfields.arena import GameSpec, entrant_labels, rotations, schedule
from goldfields.arena.schedule import per_deal, seatings


def test_rotations() -> None:
    assert rotations(["a", "b"]) == [("a", "b"), ("b", "a")]
    assert rotations(["h", "r", "r"]) == [("h", "r", "r"), ("r", "h", "r"), ("r", "r", "h")]


def test_partnership_bots_play_both_seats_of_a_team_and_deals_repeat() -> None:
    jobs = schedule(GameSpec.make("digging"), ["x", "y"], deals=3, seed=4)
    assert len(jobs) == 6
    assert jobs[0].seat_bots == ("x", "y", "x", "y")
    assert jobs[1].seat_bots == ("y", "x", "y", "x")
    # Same deal, same chance seed; a new deal, a new one; the bots' seeds differ per rotation.
    assert jobs[0].chance_seed == jobs[1].chance_seed != jobs[2].chance_seed
    assert jobs[0].bot_seed(0) != jobs[1].bot_seed(0)


def test_individual_seats_and_lineup_size() -> None:
    jobs = schedule(GameSpec.make("digging", 3), ["a", "b", "c"], deals=1, seed=0)
    assert [j.seat_bots for j in jobs] == [("a", "b", "c"), ("c", "a", "b"), ("b", "c", "a")]
    with pytest.raises(ValueError, match="name 2 bots, one per team"):
        schedule(GameSpec.make("digging"), ["a"], deals=1, seed=0)


def test_game_spec_checks_tables() -> None:
    assert GameSpec.make("digging", 4, False).sides == 4
    with pytest.raises(ValueError, match="exactly 4 players"):
        GameSpec.make("digging", 3, True)
    with pytest.raises(ValueError, match="unknown game"):
        GameSpec.make("chess")


def test_entrants_are_positions_in_the_lineup() -> None:
    assert entrant_labels(["heuristic", "random"]) == ["heuristic", "random"]
    assert entrant_labels(["h", "r", "r"]) == ["h", "r #1", "r #2"]
    jobs = schedule(GameSpec.make("digging", 2), ["h", "h"], deals=1, seed=0)
    assert [j.seat_bots for j in jobs] == [("h", "h"), ("h", "h")]
    assert [j.seat_entrants for j in jobs] == [(0, 1), (1, 0)]
    team = schedule(GameSpec.make("digging"), ["h", "h"], deals=1, seed=0)
    assert team[1].seat_entrants == (1, 0, 1, 0)


def test_every_seating_puts_each_bot_behind_each_other() -> None:
    """Rotations keep each bot's neighbours; every ordering does not (who plays after whom matters)."""

    def behind(jobs: list) -> set[tuple[str, str]]:  # type: ignore[type-arg]
        return {(j.seat_bots[s], j.seat_bots[(s + 1) % 3]) for j in jobs for s in range(3)}

    spec = GameSpec.make("digger", 3)
    rotated = schedule(spec, ["a", "b", "c"], deals=1, seed=0)
    assert behind(rotated) == {("a", "b"), ("b", "c"), ("c", "a")}
    every = schedule(spec, ["a", "b", "c"], deals=2, seed=0, mode="all")
    assert len(every) == 12 and len({j.seat_bots for j in every}) == 6
    assert behind(every) == {(x, y) for x in "abc" for y in "abc" if x != y}
    assert len({j.chance_seed for j in every[:6]}) == 1  # one deal for its six seatings
    assert seatings(["x", "y"], "all") == rotations(["x", "y"])  # two sides: the same games
    assert per_deal(4, "all") == 24
    with pytest.raises(ValueError, match="seatings must be one of rotations, all, one"):
        seatings(["x", "y"], "some")


def test_one_seating_plays_each_deal_once_as_named() -> None:
    """One bot on every side measures the seats: its rotations would replay the game of a deal."""
    jobs = schedule(GameSpec.make("digger", 3), ["h", "h", "h"], deals=4, seed=0, mode="one")
    assert len(jobs) == 4 and len({j.chance_seed for j in jobs}) == 4
    assert all(j.seat_entrants == (0, 1, 2) for j in jobs)
    assert per_deal(3, "one") == 1


def _per_turn(moves: list[str]) -> list[tuple[list[str], list[str]]]:
    """Each turn's rolls (faces) and knocks (``safe`` / ``knock``), in order."""
    turns: list[tuple[list[str], list[str]]] = []
    for move in moves:
        word = move.split()
        if word[0] == "roll" and move.endswith("@0"):
            turns.append(([], []))
        if word[0] == "roll" and word[1] != "timeout":
            turns[-1][0].append(word[1])
        elif word[0] == "steal":
            turns[-1][1].append(next(w for w in word if w in ("knock", "safe")))  # its time comes after it
    return turns


def test_duplicate_digger_deals_pair_each_turns_rolls_and_knocks_in_every_rotation() -> None:
    """Turn t's k-th roll, and its k-th knock (G5), are the same in every rotation of a deal,
    however many steals each rotation's digger tried: knocks once came from the dice's stream."""
    from goldfields.arena.worker import run_job

    spec = GameSpec.make("digger", 3, None, {"knock_probability": 0.5})
    results = [run_job(job) for job in schedule(spec, ("heuristic", "random", "random"), deals=6, seed=0)]
    compared = {"rolls": 0, "knocks": 0}
    for deal in range(6):
        games = [_per_turn(r.record["moves"]) for r in results if r.deal == deal]
        for t in range(min(len(g) for g in games)):
            for what, i in (("rolls", 0), ("knocks", 1)):
                for k in range(min(len(g[t][i]) for g in games)):
                    assert len({g[t][i][k] for g in games}) == 1, (deal, t, what, k)
                    compared[what] += 1
    assert compared["rolls"] > 50 and compared["knocks"] > 5
