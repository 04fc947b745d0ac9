"""Properties of every position of random games (hypothesis draws the table, the
rule options and the seed; the games themselves are played with random legal moves).

- the referee (checks.py) agrees with the engine on the legal moves and on every
  fight, last round, score and game end;
- every card of the deck in use is in exactly one place;
- every legal action applies; clones and JSON copies behave identically;
- an illegal action raises RuleError and changes nothing;
- a record replays move by move to the same state;
- a seat's observation, view and resampled states hold nothing it cannot know,
  and a resampled state keeps everything it does know;
- events shown to a seat never mention a card it may not know.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goldfields.core.game import RuleError
from goldfields.digging import NUM_ACTIONS, DiggingOptions, DiggingState, new_game
from goldfields.digging.actions import action_to_string, string_to_action
from goldfields.digging.cards import CODES, NUM_CODES

from .checks import Referee, replay_record
from .scenario import TABLES, card_census, expected_census

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)

tables = st.sampled_from(TABLES)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


@st.composite
def rule_options(draw: st.DrawFn) -> DiggingOptions:
    return DiggingOptions(
        target_exceeded=draw(st.booleans()),
        full_deck=draw(st.booleans()),
        no_chests_during_fight=draw(st.booleans()),
        close_needs_chest=draw(st.booleans()),
        target=draw(st.one_of(st.just(0), st.integers(min_value=1, max_value=120))),
        hand_size=draw(st.one_of(st.just(0), st.integers(min_value=1, max_value=12))),
    )


Step = Callable[[DiggingState, random.Random], None]


def walk(
    seed: int,
    players: int,
    partnership: bool,
    options: DiggingOptions,
    *,
    before: Step | None = None,
    after: Callable[[DiggingState, list[Any]], None] | None = None,
    stop_after: int | None = None,
) -> DiggingState:
    """A random game; ``before(state, rng)`` runs at every decision, ``after(state, events)``
    after every step (deals included). Stops early after ``stop_after`` decisions."""
    rng = random.Random(seed)
    state = new_game(players, partnership, rng=rng, options=options)
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            events = state.apply_chance(state.sample_chance(rng))
        else:
            if stop_after is not None and steps >= stop_after:
                break
            if before is not None:
                before(state, rng)
            events = state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        if after is not None:
            after(state, events)
    return state


# ----------------------------------------------------------------------------
# The rules, checked by an independent referee
# ----------------------------------------------------------------------------


@SETTINGS
@given(seed=seeds, table=tables, options=rule_options())
def test_random_games_follow_the_rulings(seed: int, table: tuple[int, bool], options: DiggingOptions):
    players, partnership = table
    rng = random.Random(seed)
    state = new_game(players, partnership, rng=rng, options=options)
    referee = Referee(state)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
            referee.on_deal(state)
            continue
        before = referee.before(state)
        action = rng.choice(state.legal_actions())
        move = state.action_to_string(action)
        referee.after(state, before, move, state.apply_action(action))
    assert state.winners()


# ----------------------------------------------------------------------------
# Cards, copies, storage
# ----------------------------------------------------------------------------


def views(events: list[Any], n: int) -> list[list[dict[str, Any]]]:
    return [[e.view(s) for e in events] for s in [*range(n), None]]


@SETTINGS
@given(seed=seeds, table=tables, options=rule_options())
def test_every_legal_action_applies_and_copies_behave_alike(
    seed: int, table: tuple[int, bool], options: DiggingOptions
):
    players, partnership = table
    counter = {"step": 0}

    def check(state: DiggingState, rng: random.Random) -> None:
        counter["step"] += 1
        if rng.random() > 0.3:
            return
        data = state.to_json()
        assert json.loads(json.dumps(data)) == data, "to_json() is plain JSON"
        restored = DiggingState.from_json(json.loads(json.dumps(data)))
        assert restored.to_json() == data
        copy = state.clone()
        assert copy.to_json() == data
        assert restored.legal_actions() == state.legal_actions() == copy.legal_actions()
        assert card_census(state) == expected_census(state)
        # The same action gives the same state and the same events in all three.
        action = rng.choice(state.legal_actions())
        probe = state.clone()
        ev1 = probe.apply_action(action)
        ev2 = restored.apply_action(action)
        ev3 = copy.apply_action(action)
        assert probe.to_json() == restored.to_json() == copy.to_json()
        assert views(ev1, players) == views(ev2, players) == views(ev3, players)
        assert state.to_json() == data, "the original is untouched by its copies"
        if counter["step"] % 10 == 0:
            for a in state.legal_actions():  # every legal action applies
                other = state.clone()
                other.apply_action(a)
                assert card_census(other) == expected_census(other)
            assert state.to_json() == data

    walk(seed, players, partnership, options, before=check)


@SETTINGS
@given(seed=seeds, table=tables, options=rule_options())
def test_illegal_actions_change_nothing(seed: int, table: tuple[int, bool], options: DiggingOptions):
    players, partnership = table
    junk = ["", "draw 1", "pass", "play", "play G", "play MG nine", "play G m0", "play Q m1", "fly", "play X 1"]

    def check(state: DiggingState, rng: random.Random) -> None:
        if rng.random() > 0.5:
            return
        legal = set(state.legal_actions())
        illegal = [a for a in range(NUM_ACTIONS) if a not in legal]
        data = state.to_json()
        for a in rng.sample(illegal, 3):
            try:
                state.apply_action(a)
            except RuleError as err:
                assert err.rule in {"D2", "D3", "D4", "D5", "D6"}, err
                assert str(err).startswith(err.rule + ": ")
            else:
                raise AssertionError(f"{action_to_string(a)} was applied though not legal")
            assert state.to_json() == data
        try:
            state.apply_move(rng.choice(junk))
        except RuleError as err:
            assert err.rule == "notation", err
        else:
            raise AssertionError("an unreadable move was applied")
        assert state.to_json() == data
        assert set(state.legal_actions()) == legal

    walk(seed, players, partnership, options, before=check)


@SETTINGS
@given(seed=seeds, table=tables, options=rule_options(), stop=st.integers(min_value=0, max_value=1500))
def test_record_replays_move_by_move(seed: int, table: tuple[int, bool], options: DiggingOptions, stop: int):
    players, partnership = table
    state = walk(seed, players, partnership, options, stop_after=stop)
    record = state.record()
    assert json.loads(json.dumps(record)) == record, "a record is plain JSON"
    assert all(isinstance(m, str) for h in record["hands"] for m in h["moves"])
    replayed = replay_record(record)
    assert replayed.to_json() == state.to_json()
    assert replayed.record() == record


def test_notation_round_trips_every_action_id():
    texts = [action_to_string(a) for a in range(NUM_ACTIONS)]
    assert len(set(texts)) == NUM_ACTIONS
    for a, text in enumerate(texts):
        assert string_to_action(text) == a
        assert string_to_action(text.upper()) == a


# ----------------------------------------------------------------------------
# What a seat may know
# ----------------------------------------------------------------------------


def twin(state: DiggingState, seat: int, rng: random.Random) -> DiggingState | None:
    """A state that ``seat`` cannot tell from ``state``: the cards it cannot see (the other
    hands, except the cards it knows its partner holds, and the pile in any order) dealt
    again at random, respecting what forced skips showed. None if no other deal was found.

    What else the state keeps and the seat may not know is changed too (see :func:`scramble`):
    the order of each hand's deck in the record, and the cards the other side passed."""
    data = scramble(state.to_json(), seat, rng)
    obs = state.observation(seat)
    n = state.num_players
    mate = state.partner(seat)
    known = [0] * NUM_CODES
    for card in obs.get("partner_holds", []):
        known[CODES.index(card)] += 1
    cannot = [[CODES.index(c) for c in codes] for codes in obs["cannot_hold"]]
    others = [s for s in range(n) if s != seat]
    hidden: list[int] = list(data["pile"])
    for s in others:
        fixed = known if s == mate else [0] * NUM_CODES
        for c, k in enumerate(data["hands"][s]):
            hidden += [c] * (k - fixed[c])
    for _ in range(30):
        rng.shuffle(hidden)
        i = 0
        hands = {}
        for s in others:
            h = (known if s == mate else [0] * NUM_CODES)[:]
            need = obs["hand_sizes"][s] - sum(h)
            for c in hidden[i : i + need]:
                h[c] += 1
            i += need
            hands[s] = h
        if all(not hands[s][c] for s in others for c in cannot[s]):
            for s in others:
                data["hands"][s] = hands[s]
            data["pile"] = hidden[i:]
            return DiggingState.from_json(data)
    return None


def scramble(data: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """``data`` (a state's JSON) with what ``seat`` cannot know made up: each hand's deck in
    the record shuffled, and in a partnership the cards the other side passed (in the record,
    and the other side's ``passes`` and ``known``) replaced by others. The result need not be
    a state the game can reach: the seat's view must not depend on any of it."""
    for log in data["logs"] or []:
        rng.shuffle(log["deck"])
    if not data["partnership"]:
        return data
    n = data["players"]
    others = [s for s in range(n) if s % 2 != seat % 2]
    for log in data["logs"] or []:
        first = log["dealer"] + 1
        for i, action in enumerate(log["moves"]):
            if (first + i) % n in others and action_to_string(action).startswith("pass "):
                log["moves"][i] = string_to_action(f"pass {rng.choice(CODES)}")
    for s in others:
        data["passes"][s] = [[rng.randrange(NUM_CODES), to] for _, to in data["passes"][s]]
        known = [0] * NUM_CODES
        for _ in range(sum(data["known"][s])):
            known[rng.randrange(NUM_CODES)] += 1
        data["known"][s] = known
    return data


class PassLedger:
    """The cards each seat passed to its partner and the partner has not played or passed since."""

    def __init__(self, n: int) -> None:
        self.known = [[0] * NUM_CODES for _ in range(n)]

    def follow(self, events: list[Any]) -> None:
        for e in events:
            if e.kind == "deal":
                self.known = [[0] * NUM_CODES for _ in self.known]
                continue
            seat = e.public.get("seat")
            if seat is None or len(self.known) != 4:
                continue
            mate = (seat + 2) % 4
            card = None
            if e.kind == "pass":
                card = e.view(seat)["card"]
            elif e.kind in ("open", "chest", "fight_start", "fight_join"):
                card = e.public["card"]
            elif e.kind == "close":
                card = "X"
            if card is None:
                continue
            code = CODES.index(card)
            if self.known[mate][code]:
                self.known[mate][code] -= 1  # the partner gave up a card of that kind
            if e.kind == "pass":
                self.known[seat][code] += 1


@SETTINGS
@given(seed=seeds, table=tables, options=rule_options(), pick=st.integers(min_value=0, max_value=10**6))
def test_observation_hides_what_the_seat_cannot_know(
    seed: int, table: tuple[int, bool], options: DiggingOptions, pick: int
):
    players, partnership = table
    found = {"differ": 0}

    def check(state: DiggingState, rng: random.Random) -> None:
        if rng.random() > 0.2:
            return
        seat = rng.randrange(players)
        other = twin(state, seat, random.Random(pick + rng.random()))
        if other is None:
            return
        if other.to_json()["hands"] != state.to_json()["hands"] or other.pile != state.pile:
            found["differ"] += 1
        assert other.observation(seat) == state.observation(seat)
        assert other.view(seat).data == state.view(seat).data
        assert other.view(seat).legal_actions() == state.view(seat).legal_actions()
        for k in (0, pick):
            assert other.resample(seat, random.Random(k)).to_json() == state.resample(seat, random.Random(k)).to_json()
        assert other.observation(None) == state.observation(None)

    walk(seed, players, partnership, options, before=check)
    assert found["differ"] > 0, "the twins should differ in hidden cards somewhere in a whole game"


@SETTINGS
@given(seed=seeds, table=tables, options=rule_options())
def test_resample_keeps_what_the_seat_knows(seed: int, table: tuple[int, bool], options: DiggingOptions):
    players, partnership = table
    ledger = PassLedger(players)

    def check(state: DiggingState, rng: random.Random) -> None:
        seat = rng.randrange(players)
        obs = state.observation(seat)
        if partnership:
            expected = sorted((CODES[c] for c, k in enumerate(ledger.known[seat]) for _ in range(k)), key=CODES.index)
            assert obs["partner_holds"] == expected
            mate = (seat + 2) % 4
            assert all(state.hands[mate][c] >= k for c, k in enumerate(ledger.known[seat]))
        if rng.random() > 0.3:
            return
        view = state.view(seat)
        assert view.data == obs
        assert view.legal_actions() == (state.legal_actions() if state.current_player == seat else [])
        sample = state.resample(seat, random.Random(rng.random()))
        assert sample.observation(seat) == obs
        assert sample.hands[seat] == state.hands[seat]
        assert [sum(h) for h in sample.hands] == [sum(h) for h in state.hands]
        assert len(sample.pile) == len(state.pile)
        assert sample.observation(None) == state.observation(None)
        assert card_census(sample) == expected_census(sample)
        if partnership:
            mate = (seat + 2) % 4
            assert all(sample.hands[mate][c] >= k for c, k in enumerate(ledger.known[seat]))
        for s, codes in enumerate(obs["cannot_hold"]):
            assert not any(sample.hands[s][CODES.index(c)] for c in codes), (
                "a forced skip showed these cards are not held"
            )
        assert sample.to_json()["logs"] is None, "a resampled state carries no record of the real past"
        # The sampled state is a game that goes on.
        if sample.legal_actions():
            sample.apply_action(rng.choice(sample.legal_actions()))
            assert card_census(sample) == expected_census(sample)

    def after(state: DiggingState, events: list[Any]) -> None:
        ledger.follow(events)

    walk(seed, players, partnership, options, before=check, after=after)


@SETTINGS
@given(seed=seeds, table=tables, options=rule_options())
def test_events_never_show_a_seat_cards_it_may_not_know(seed: int, table: tuple[int, bool], options: DiggingOptions):
    players, partnership = table
    seats: list[int | None] = [*range(players), None]

    def after(state: DiggingState, events: list[Any]) -> None:
        for e in events:
            assert "card" not in e.public or e.kind not in ("draw", "pass")
            assert "cards" not in e.public
            for s in seats:
                v = e.view(s)
                if e.kind == "deal":
                    assert ("cards" in v) == (s is not None)
                    if s is not None:
                        assert v["cards"] == state.observation(s)["hand"]
                elif e.kind == "draw":
                    assert ("card" in v) == (s == e.public["seat"])
                elif e.kind == "pass":
                    assert ("card" in v) == (s in (e.public["seat"], e.public["to"]))
                else:
                    assert not e.private, f"{e.kind} events are public"
            if e.kind == "draw":
                drawer = e.public["seat"]
                assert e.view(drawer)["card"] in state.observation(drawer)["hand"]

    walk(seed, players, partnership, options, after=after)


def _hand_over(seed: int, players: int, partnership: bool) -> DiggingState:
    """A game just after its first hand was scored (the next deal is due)."""
    rng = random.Random(seed)
    state = new_game(players, partnership, rng=rng)
    while not state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _swap_leftovers(state: DiggingState, seat: int) -> DiggingState | None:
    """The same position with one card swapped between two other seats' leftover hands."""
    data = state.to_json()
    others = [s for s in range(state.num_players) if s != seat and s != state.partner(seat)]
    for a in others:
        for b in others:
            for x in range(NUM_CODES):
                for y in range(NUM_CODES):
                    if a < b and x != y and data["hands"][a][x] and data["hands"][b][y]:
                        data["hands"][a][x] -= 1
                        data["hands"][a][y] += 1
                        data["hands"][b][y] -= 1
                        data["hands"][b][x] += 1
                        return DiggingState.from_json(data)
    return None


def test_between_hands_the_view_hides_the_other_leftover_hands():
    for seed in range(20):
        state = _hand_over(seed, 3, False)
        other = _swap_leftovers(state, 0)
        if other is None or state.is_terminal():
            continue
        assert other.observation(0) == state.observation(0)
        # The seat cannot tell the two positions apart, so what it receives must not differ.
        assert other.resample(0, random.Random(1)).to_json() == state.resample(0, random.Random(1)).to_json()
        assert other.view(0).sample(random.Random(1)).to_json() == state.view(0).sample(random.Random(1)).to_json()
        return
    raise AssertionError("no suitable position found")


def test_between_hands_the_view_carries_no_record_of_hidden_cards():
    state = _hand_over(7, 4, True)
    assert state.is_chance_node()
    sample = state.view(0).sample(random.Random(0))
    # The record holds every deck dealt, so the order of the cards nobody saw.
    assert sample.to_json()["logs"] is None
