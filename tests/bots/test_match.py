"""The match runner: seats, generators kept apart, errors."""

from __future__ import annotations

import random

import pytest

from goldfields.bots import Bot, BotError, Budget, make_bot
from goldfields.core.game import SeatView
from goldfields.digging import DiggingState
from goldfields.play import play_game


def _decks(state: DiggingState) -> list[list[str]]:
    return [hand["deck"] for hand in state.record()["hands"]]


def test_same_seeds_same_game() -> None:
    bots = [make_bot("heuristic", "digging"), make_bot("random", "digging")] * 2
    a = play_game(lambda: DiggingState(4), bots, random.Random(5))
    b = play_game(lambda: DiggingState(4), bots, random.Random(5))
    assert a.record() == b.record()
    assert a.is_terminal()


def test_decks_do_not_depend_on_the_bots() -> None:
    """Duplicate deals: whatever the bots do, hand k is dealt the same deck."""
    heuristic = play_game(lambda: DiggingState(2), [make_bot("heuristic", "digging")] * 2, random.Random(9))
    rnd = play_game(lambda: DiggingState(2), [make_bot("random", "digging")] * 2, random.Random(9))
    common = min(len(_decks(heuristic)), len(_decks(rnd)))  # type: ignore[arg-type]
    assert common >= 1
    assert _decks(heuristic)[:common] == _decks(rnd)[:common]  # type: ignore[arg-type]


def test_wrong_number_of_bots() -> None:
    with pytest.raises(ValueError, match="needs 4 bots"):
        play_game(lambda: DiggingState(4), [make_bot("random", "digging")] * 3, random.Random(0))


class Cheater(Bot):
    name = "cheater"

    def act(self, view: SeatView, rng: random.Random, budget: Budget | None = None) -> int:
        return 999


def test_illegal_action_names_the_bot() -> None:
    with pytest.raises(BotError, match="chose an illegal action 999"):
        play_game(lambda: DiggingState(2), [Cheater(), Cheater()], random.Random(0))


def test_bots_receive_views_not_states() -> None:
    seen: list[object] = []

    class Spy(Bot):
        name = "spy"

        def act(self, view: SeatView, rng: random.Random, budget: Budget | None = None) -> int:
            seen.append(view)
            legal = view.legal_actions()
            return legal[rng.randrange(len(legal))]

    state = play_game(lambda: DiggingState(2), [Spy(), Spy()], random.Random(0))
    assert state.is_terminal()
    assert seen and all(type(v) is SeatView for v in seen)


def _rolls_by_turn(state) -> dict[int, list[str]]:
    turns: dict[int, list[str]] = {}
    turn = 0
    for move in state.record()["moves"]:
        if move.startswith("roll"):
            turns.setdefault(turn, []).append(move.split()[1])
        elif move.startswith("stop") or move == "timeout":
            turn += 1
    return turns


def test_chance_key_gives_each_digger_turn_its_own_dice() -> None:
    """Duplicate deals in Digger: turn t gets the same rolls whoever plays it and
    however many times earlier diggers rolled."""
    from goldfields.arena.games import GameSpec

    spec = GameSpec.make("digger", 3)
    lineups = [["heuristic", "random", "random"], ["random", "heuristic", "random"]]
    games = [
        play_game(spec.new_state, [make_bot(b, "digger") for b in lineup], random.Random(4),
                  clock=spec.stamper(), chance_key=spec.chance_key())
        for lineup in lineups
    ]
    a, b = (_rolls_by_turn(g) for g in games)
    shared = sorted(set(a) & set(b))
    assert len(shared) > 5
    for turn in shared:
        k = min(len(a[turn]), len(b[turn]))
        assert a[turn][:k] == b[turn][:k]
    # Without streams the rolls drift apart once the bots roll different numbers of times.
    plain = [
        play_game(spec.new_state, [make_bot(x, "digger") for x in lineup], random.Random(4), clock=spec.stamper())
        for lineup in lineups
    ]
    pa, pb = (_rolls_by_turn(g) for g in plain)
    assert any(pa[t][0] != pb[t][0] for t in sorted(set(pa) & set(pb)))


def test_chance_key_gives_each_digger_turn_its_own_clock_jitter() -> None:
    """The k-th decision of turn t is jittered alike in every rotation of a Digger deal."""
    from goldfields.arena.games import GameSpec

    spec = GameSpec.make("digger", 3)
    clock = spec.stamper()
    assert clock is not None

    class Spy:
        """The arena's clock, noting the state of the generator each decision's jitter comes from."""

        def __init__(self) -> None:
            self.draws: dict[tuple[int, int], int] = {}
            self.turn, self.k = -1, 0

        def stamp(self, state, action, rng):  # type: ignore[no-untyped-def]
            self.k = self.k + 1 if state.turn == self.turn else 0
            self.turn = state.turn
            self.draws[(self.turn, self.k)] = hash(rng.getstate())
            return clock.stamp(state, action, rng)

    lineups = [["heuristic", "random", "random"], ["random", "heuristic", "random"]]

    def draws(key: bool) -> list[dict[tuple[int, int], int]]:
        out = []
        for lineup in lineups:
            spy = Spy()
            play_game(spec.new_state, [make_bot(b, "digger") for b in lineup], random.Random(4), clock=spy,
                      chance_key=spec.chance_key() if key else None)  # fmt: skip
            out.append(spy.draws)
        return out

    a, b = draws(key=True)
    shared = sorted(set(a) & set(b))
    assert len(shared) > 10 and all(a[k] == b[k] for k in shared)
    pa, pb = draws(key=False)  # one stream for the game: the jitter drifts onto other decisions
    assert any(pa[k] != pb[k] for k in sorted(set(pa) & set(pb)))
