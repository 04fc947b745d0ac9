"""Properties over random play (hypothesis): tokens are conserved, a timeout
restores the centre, blue is never stolen, an illegal step changes nothing."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from goldfields.clocks import TimeModel
from goldfields.core.game import RuleError
from goldfields.digger import NUM_ACTIONS, STOP, TIMEOUT, DiggerOptions, DiggerState, new_game
from goldfields.digger.dice import BLUE, COLOUR_OF, TOKEN_COLOURS
from goldfields.play.simulate import Simulation

from .scenario import accounted

games = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 2**32 - 1),
        "players": st.integers(2, 5),
        "crates": st.sampled_from(["white", "black"]),
        "knock": st.sampled_from([0.0, 0.0, 0.2, 1.0]),
        "model": st.builds(
            TimeModel,
            roll=st.floats(0.0, 8.0),
            take=st.floats(0.0, 4.0),
            stack=st.floats(0.0, 2.0),
            jitter=st.floats(0.0, 0.9),
        ),
        # How often the clock's owner calls time before the digger stops.
        "timeouts": st.sampled_from([0.0, 0.05, 0.3]),
    }
)


def playthrough(game: dict, max_steps: int = 400):  # type: ignore[no-untyped-def]
    """Yield (state, events) after every step of a random game."""
    rng = random.Random(game["seed"])
    state = new_game(game["players"], game["crates"], DiggerOptions(knock_probability=game["knock"]))
    model = game["model"]

    def policy(s: DiggerState, r: random.Random) -> int:
        if s.can_time_out and r.random() < game["timeouts"]:
            return TIMEOUT
        legal = s.legal_actions()
        return legal[r.randrange(len(legal))]

    sim = Simulation(state, rng, policy, model)
    for _ in range(max_steps):
        if state.is_terminal():
            return
        yield state, sim.step()


@settings(max_examples=60, deadline=None)
@given(games)
def test_the_50_tokens_are_always_accounted_for(game: dict) -> None:
    for state, _ in playthrough(game):
        assert accounted(state) == [10] * 5
        assert all(n >= 0 for n in state.centre + state.haul + [state.box])
        assert all(n >= 0 for crate in state.crates for n in crate)


@settings(max_examples=60, deadline=None)
@given(games)
def test_a_timeout_restores_the_centre_exactly(game: dict) -> None:
    game = {**game, "timeouts": 0.3}
    seen = 0
    start = None
    stolen = [0] * 5
    for state, events in playthrough(game):
        kinds = [e.kind for e in events]
        for event in events:
            if event.kind == "steal":
                stolen[COLOUR_OF[event.public["colour"]]] += 1
        if "timeout" in kinds or "knock" in kinds:
            assert start is not None
            centre0, crates0, box0 = start
            # The centre is back as it was, plus the tokens stolen this turn (which go to the centre too).
            assert state.centre == [centre0[c] + stolen[c] for c in TOKEN_COLOURS]
            digger = next(e.public["seat"] for e in events if e.kind in ("timeout", "knock"))
            assert state.crates[digger] == crates0[digger]
            assert state.box == box0 and state.haul == [0] * 5
            seen += 1
        if "turn_start" in kinds or start is None:
            start = (state.centre[:], [c[:] for c in state.crates], state.box)
            stolen = [0] * 5
    # With the clock calling time so often, a game does not get far without a timeout.
    assert seen or state.is_terminal()


@settings(max_examples=60, deadline=None)
@given(games)
def test_blue_is_never_stolen(game: dict) -> None:
    for state, events in playthrough(game):
        assert all(e.public["colour"] != "B" for e in events if e.kind == "steal")
        assert all(crate[BLUE] == 0 for crate in state.crates)
        if state.current_player >= 0 and state.black:  # stealing is open: the one place blue could go wrong
            legal = [state.action_to_string(a) for a in state.legal_actions()]
            assert not any(m.startswith("steal B") for m in legal)
            before = state.to_json()
            try:
                state.apply_move(f"steal B {(state.digger + 1) % state.num_players}")
            except RuleError as err:
                assert err.rule == "G2"
            else:
                raise AssertionError("a blue token was stolen")
            assert state.to_json() == before


times = st.one_of(
    st.none(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(-1.0, 40.0),
    st.sampled_from([0, 30, 30.0001, True, "5"]),
)


@settings(max_examples=80, deadline=None)
@given(games, st.lists(st.tuples(st.integers(-2, NUM_ACTIONS + 1), times), min_size=1, max_size=30))
def test_an_illegal_step_changes_nothing(game: dict, attempts: list[tuple[int, object]]) -> None:
    tried = iter(attempts)
    for state, _ in playthrough(game, max_steps=len(attempts) * 3):
        try:
            action, at = next(tried)
        except StopIteration:
            return
        before = state.to_json()
        legal = list(state.legal_actions())
        probe = state.clone()
        try:
            probe.apply_action(action, at)  # type: ignore[arg-type]
        except RuleError as err:
            assert str(err).startswith(err.rule + ": ")
            assert err.rule in {"G2", "G3", "G4", "G5", "G6", "notation"}
            assert probe.to_json() == before and probe.legal_actions() == legal
        else:
            # Accepted: it was legal (or the clock's timeout), and the original is untouched by the clone.
            assert action in legal or action == TIMEOUT
            assert state.to_json() == before
        if action == STOP and at is None and state.current_player >= 0 and state.started:
            assert probe.to_json() == before  # a stop without its time is always refused (G4)


colours = st.sampled_from(list("BYRGWK"))
times_written = st.sampled_from(["", "@0", "@1.5", "@12", "@30", "@31", "@-1", "@x"])
moves = st.one_of(
    st.builds(lambda f, t: f"roll {''.join(f)} {t}", st.lists(colours, min_size=4, max_size=6), times_written),
    st.builds(lambda c: f"take {c}", colours),
    st.builds(lambda c, v, k: f"steal {c} {v} {k}", colours, st.integers(0, 6), st.sampled_from(["", "safe", "knock"])),
    st.builds(lambda t: f"stop {t}", times_written),
    st.sampled_from(["timeout", "timeout @3", "dig", ""]),
)


@settings(max_examples=80, deadline=None)
@given(games, st.lists(moves, min_size=1, max_size=30))
def test_a_move_that_is_refused_changes_nothing(game: dict, texts: list[str]) -> None:
    tried = iter(texts)
    for state, _ in playthrough(game, max_steps=len(texts) * 3):
        text = next(tried, None)
        if text is None:
            return
        before = state.to_json()
        probe = state.clone()
        try:
            probe.apply_move(text)
        except RuleError as err:
            assert err.rule in {"G2", "G3", "G4", "G5", "G6", "notation"}, err
            assert probe.to_json() == before
        assert accounted(probe) == [10] * 5
