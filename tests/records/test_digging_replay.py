"""`goldfields replay` on Digging records: the report, the exit statuses, the errors."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from walks import random_walk

from goldfields.core.definition import RecordError
from goldfields.digging import DiggingOptions, DiggingState
from goldfields.digging.definition import DIGGING
from goldfields.records import ILLEGAL, MALFORMED, OK, replay, replay_file

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def play_random(players: int, partnership: bool, seed: int, stop_after: int | None = None) -> DiggingState:
    """A game of random moves, stopped after ``stop_after`` moves (deals not counted) or at its end."""
    return random_walk(DiggingState(players, partnership), random.Random(seed), stop_after, count_chance=False)


@pytest.fixture(scope="module")
def finished() -> DiggingState:
    return play_random(4, True, seed=11)


def test_a_finished_game_replays_ok(finished: DiggingState) -> None:
    report, status = replay(finished.record())
    assert status == OK
    assert report["ok"] is True and report["error"] is None
    assert report["totals"] == finished.scores()
    assert report["winner"] == finished.winners()
    assert [h["points"] for h in report["hands"]] == finished.history
    assert all(h["over"] for h in report["hands"])
    assert report["state"]["to_move"] is None


def test_a_game_in_progress_reports_its_position() -> None:
    state = play_random(3, False, seed=5, stop_after=40)
    report, status = replay(state.record())
    assert status == OK
    now = report["state"]
    assert now["to_move"] == state.current_player
    assert now["pile"] == state.pile_size
    assert now["hands"] == [state.hand_codes(s) for s in range(3)]
    assert now["mines"] == [m.to_json() for m in state.mines]
    assert report["hands"][-1] == {"points": state.hand_points(), "over": False}


def test_an_illegal_move_is_named_with_its_hand_and_index(finished: DiggingState) -> None:
    record = copy.deepcopy(finished.record())
    record["hands"][0]["moves"][5] = "play B12 m9"
    report, status = replay(record)
    assert status == ILLEGAL
    assert report["ok"] is False
    assert report["error"]["hand"] == 0 and report["error"]["move"] == 5
    assert "B12" in report["error"]["message"]
    # The position reported is the one before the bad move.
    assert report["state"]["to_move"] is not None


def test_a_move_after_the_hand_is_over_is_illegal(finished: DiggingState) -> None:
    record = copy.deepcopy(finished.record())
    record["hands"][-1]["moves"].append("draw")
    report, status = replay(record)
    assert status == ILLEGAL
    assert report["error"]["move"] == len(record["hands"][-1]["moves"]) - 1
    assert report["error"]["message"].startswith("'draw': D7")


@pytest.mark.parametrize(
    ("mutate", "hand"),
    [
        (lambda r: r.update(game="chess"), None),
        (lambda r: r.update(players=5), None),
        (lambda r: r.update(partnership="yes"), None),
        (lambda r: r.update(options={"no_such_rule": True}), None),
        (lambda r: r.update(hands={}), None),
        (lambda r: r.update(dealer=(r["hands"][0]["dealer"] + 1) % 4), 0),
        (lambda r: r["hands"][0]["deck"].pop(), 0),
        (lambda r: r["hands"][0]["deck"].__setitem__(0, "ZZ"), 0),
        (lambda r: r["hands"][0].update(moves="draw"), 0),
        (lambda r: r["hands"].append(copy.deepcopy(r["hands"][0])), -1),
        # A misspelt field would otherwise replay as a game under the standard rules.
        (lambda r: r.update(option={"target_exceeded": True}), None),
        (lambda r: r["hands"][0].update(mvoes=[]), 0),
    ],
    ids=["game", "players", "partnership", "option", "hands", "dealer", "short-deck", "bad-card", "moves", "after-end",
         "unknown-field", "unknown-hand-field"],
)
def test_malformed_records_exit_2(finished: DiggingState, mutate, hand) -> None:
    record = copy.deepcopy(finished.record())
    mutate(record)
    report, status = replay(record)
    assert status == MALFORMED
    assert report["ok"] is False and report["error"]["move"] is None
    if hand is not None:
        assert report["error"]["hand"] == (hand if hand >= 0 else len(record["hands"]) - 1)


def test_the_dealer_must_move_on(finished: DiggingState) -> None:
    if len(finished.record()["hands"]) < 2:
        pytest.skip("one-hand game")
    record = copy.deepcopy(finished.record())
    record["hands"][1]["dealer"] = (record["hands"][1]["dealer"] + 1) % 4
    report, status = replay(record)
    assert status == MALFORMED
    assert report["error"]["hand"] == 1 and "D9" in report["error"]["message"]


def test_unreadable_files_are_malformed(tmp_path) -> None:
    report, status = replay_file(tmp_path / "missing.json")
    assert status == MALFORMED and "cannot read" in report["error"]["message"]
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    report, status = replay_file(broken)
    assert status == MALFORMED and "is not a game record (JSON): Expecting property name" in report["error"]["message"]


def test_records_are_plain_json(finished: DiggingState) -> None:
    record = finished.record()
    assert json.loads(json.dumps(record)) == record
    assert set(record) == {"game", "players", "partnership", "hands"}
    assert all(set(h) == {"dealer", "deck", "moves"} for h in record["hands"])


# ----------------------------------------------------------------------------
# A game before its first deal, and records read back as the game they describe
# ----------------------------------------------------------------------------

TABLES = [(2, False), (3, False), (4, False), (4, True)]


@pytest.mark.parametrize(("players", "partnership"), TABLES)
@pytest.mark.parametrize("dealer", [None, 0])
def test_a_game_not_dealt_yet_replays_and_restores_exactly(
    players: int, partnership: bool, dealer: int | None, tmp_path: Path
) -> None:
    state = DiggingState(players, partnership, dealer=dealer)
    record = state.record()
    assert record["hands"] == [] and record["dealer"] == state.dealer
    path = tmp_path / "undealt.json"
    path.write_text(json.dumps(record))
    report, status = replay_file(path)
    assert status == OK
    assert report == {"ok": True, "error": None, "hands": [], "totals": [0] * players, "winner": None, "state": None}
    restored, events = DIGGING.restore(json.loads(path.read_text()))
    assert events == []
    assert restored.to_json() == state.to_json()
    assert restored.record() == record
    # It is the same game: the same deck deals the same hands.
    deck = state.sample_chance(random.Random(3))
    assert restored.apply_chance(deck)[0].private == state.apply_chance(deck)[0].private


def test_a_record_with_no_hands_and_no_dealer_is_dealt_by_the_last_seat() -> None:
    fresh = DIGGING.new_state(DIGGING.params(players=3))
    record = {"game": "digging", "players": 3, "hands": []}
    restored, _ = DIGGING.restore(record)
    assert restored.to_json() == fresh.to_json()
    assert restored.record() == fresh.record() == {**record, "partnership": False, "dealer": 2}


def test_a_dealer_beside_the_hands_must_be_the_first_hands(finished: DiggingState) -> None:
    record = {**finished.record(), "dealer": finished.record()["hands"][0]["dealer"]}
    assert replay(record)[1] == OK
    record["dealer"] = (record["dealer"] + 1) % 4
    report, status = replay(record)
    assert status == MALFORMED and report["error"]["hand"] == 0
    with pytest.raises(RecordError, match="deals its first hand"):
        DIGGING.restore(record)


@SETTINGS
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    table=st.sampled_from(TABLES),
    dealer=st.integers(min_value=0, max_value=3),
    full_deck=st.booleans(),
    steps=st.integers(min_value=0, max_value=400),
)
def test_every_record_restores_to_the_game_it_was_taken_from(
    seed: int, table: tuple[int, bool], dealer: int, full_deck: bool, steps: int
) -> None:
    """Before the first deal, between hands, mid-hand or over: resume(record) is the same game,
    and counts the moves the record writes (its deals are none). ``full_deck`` at 4 players,
    which a new table refuses, is still read from a record."""
    players, partnership = table
    state = DiggingState(players, partnership, DiggingOptions(full_deck=full_deck), dealer % players)
    random_walk(state, random.Random(seed), steps)  # deals count as steps, so 0 stops before the first
    record = json.loads(json.dumps(state.record()))
    assert replay(record)[1] == OK
    restored, _, moves = DIGGING.resume(record)
    assert restored.to_json() == state.to_json()
    assert restored.record() == record
    assert moves == sum(len(hand["moves"]) for hand in record["hands"])


def _deal_cards(os_state: Any, rng: random.Random, cards: int) -> None:
    for _ in range(cards):
        outcomes, probabilities = zip(*os_state.chance_outcomes(), strict=True)
        os_state.apply_action(rng.choices(outcomes, probabilities)[0])


def test_a_record_taken_during_an_openspiel_deal_restores_to_before_that_deal() -> None:
    # OpenSpiel deals card by card; the engine takes the deck only once it is all dealt, so a
    # record taken mid-deal holds the game up to that deal, and restores to it, waiting for the deal.
    pyspiel = pytest.importorskip("pyspiel")
    import goldfields.research.openspiel_games  # noqa: F401  (registers the games)

    rng = random.Random(2)
    state = pyspiel.load_game("python_goldfields_digging(players=2)").new_initial_state()
    _deal_cards(state, rng, 5)
    record = state.engine_state().record()
    assert record["hands"] == []
    restored, _ = DIGGING.restore(record)
    assert restored.to_json() == state.engine_state().to_json()
    # The second deal under way: the record holds the first hand whole.
    while not (state.is_chance_node() and state.engine_state().hand_no == 0):
        if state.is_chance_node():
            _deal_cards(state, rng, 1)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    _deal_cards(state, rng, 5)
    record = state.engine_state().record()
    assert len(record["hands"]) == 1
    restored, _ = DIGGING.restore(record)
    assert restored.is_chance_node() and restored.to_json() == state.engine_state().to_json()
