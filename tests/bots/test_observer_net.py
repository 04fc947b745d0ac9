"""The observer network: another seat's moves as the searching seat can guess them (``ismcts:others=``)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from goldfields.bots import make_bot
from goldfields.bots.digging_search import _OPPONENT_KEYS, HIDDEN_PASS
from goldfields.bots.ismcts import _keyed_guess
from goldfields.bots.net import NetEvaluator, PolicyValueNet, evaluator, load_net, relative_action
from goldfields.bots.registry import BotSpecError
from goldfields.core import registry
from goldfields.core.game import GameState
from goldfields.learn.observer import ObserverPlay
from goldfields.research.encoding import encoding_for

from .test_net import _nodes


def observer_net(path: Path) -> str:
    """The shipped self-play network's weights, saved as an observer network."""
    net = load_net("selfplay")
    PolicyValueNet(net.hidden, net.policy, net.value, {"kind": "observer"}).save(path)
    return str(path)


@pytest.fixture(scope="module")
def observer(tmp_path_factory: pytest.TempPathFactory) -> str:
    return observer_net(tmp_path_factory.mktemp("observer") / "observer.npz")


def test_a_guess_rates_the_legal_moves_to_one_and_adds_the_moves_other_hands_allow(observer: str,
                                                                                  positions) -> None:  # fmt: skip
    ev = evaluator(observer)
    extra = 0
    for state in positions(4, True, 12, seed=5):
        mover = state.current_player
        legal = state.legal_actions()
        for seat in (s for s in range(4) if s != mover):
            moves, prior = ev.guess(state, seat, legal)
            assert moves[: len(legal)] == legal
            assert sum(prior[: len(legal)]) == pytest.approx(1.0, abs=1e-5)
            assert not set(moves[len(legal) :]) & set(legal)
            extra += len(moves) - len(legal)
            # No other hand's move is rated above this hand's best, however sharp the prior.
            for temperature in (1.0, 0.01):
                moves, prior = ev.guess(state, seat, legal, temperature)
                assert np.isfinite(prior).all() and max(prior) == max(prior[: len(legal)]) <= 1.0
    assert extra > 0, "another guess of a hand allows moves this one does not"


def test_an_opponents_hidden_pass_is_rated_as_this_hands_passes_not_every_hands(observer: str, positions) -> None:
    ev = evaluator(observer)
    checked = 0
    for state in positions(4, True, 40, seed=21):
        mover = state.current_player
        legal = state.legal_actions()
        passes = [i for i, a in enumerate(legal) if _OPPONENT_KEYS[a] == HIDDEN_PASS]
        if not passes:
            continue
        seat = (mover + 1) % 4  # an opponent sees a pass, not its card
        guessed = ev.guess(state, seat, legal)
        prior = _keyed_guess(legal, guessed, _OPPONENT_KEYS)
        assert prior[HIDDEN_PASS] == pytest.approx(sum(guessed[1][i] for i in passes))
        assert sum(p for k, p in prior.items() if k in {_OPPONENT_KEYS[a] for a in legal}) == pytest.approx(1.0)
        checked += 1
    assert checked >= 10


def test_a_guess_reads_only_the_observers_view(observer: str, positions) -> None:
    ev = evaluator(observer)
    checked = 0
    for i, state in enumerate(positions(4, True, 12, seed=6)):
        mover = state.current_player
        seat = (mover + 1) % 4
        # Every card this seat cannot see dealt again: the mover's hand too.
        other = state.resample(seat, random.Random(100 + i))
        if other.to_json()["hands"] == state.to_json()["hands"]:
            continue
        assert other.observation(seat) == state.observation(seat)
        legal = sorted(set(state.legal_actions()) | set(other.legal_actions()))
        assert ev.guess(state, seat, legal) == ev.guess(other, seat, legal)
        checked += 1
    assert checked >= 8


def test_others_reads_another_seats_prior_from_the_searching_seats_view(
    observer: str, positions, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[tuple[int, int]] = []  # (seat to move, whose view)
    real = NetEvaluator.guess

    def spy(self: NetEvaluator, state: GameState, seat: int, *rest: Any) -> tuple[list[int], list[float]]:
        asked.append((state.current_player, seat))
        return real(self, state, seat, *rest)

    monkeypatch.setattr(NetEvaluator, "guess", spy)
    bot = make_bot(f"ismcts:iterations=400,net=default,others={observer}", "digging")
    for i, state in enumerate(positions(4, True, 3, seed=84)):
        seat = state.current_player
        asked.clear()
        root = bot.search(state.view(seat), random.Random(i), bot.budget())
        assert asked and all(view == seat and mover != seat for mover, view in asked)
        read = [nd for nd in _nodes(root) if nd.prior is not None and nd is not root]
        # A node is read once, when first visited again: as many readings as other seats' nodes read.
        others = [nd for nd in read if {ch.player for ch in nd.children.values()} - {seat}]
        assert len(asked) == len(others) and not any(hasattr(nd, "mix") for nd in read)


@pytest.mark.parametrize(("players", "partnership"), [(2, False), (3, False), (4, True)])
def test_a_search_with_an_observer_network_plays_legal_moves_and_ignores_hidden_cards(
    observer: str, players: int, partnership: bool, positions
) -> None:
    bot = make_bot(f"ismcts:iterations=60,net=default,others={observer}", "digging")
    checked = 0
    for i, state in enumerate(positions(players, partnership, 10, seed=40 + players)):
        seat = state.current_player
        action = bot.act(state.view(seat), random.Random(i))
        assert action in state.legal_actions()
        other = state.resample(seat, random.Random(500 + i))
        if other.to_json()["hands"] != state.to_json()["hands"]:
            assert bot.act(other.view(seat), random.Random(i)) == action
            checked += 1
    assert checked >= 5


def test_a_sharpened_search_with_an_observer_network_keeps_every_prior_finite(observer: str, positions) -> None:
    bot = make_bot(f"ismcts:iterations=200,net=default,others={observer},sharpen=100", "digging")
    read = 0
    for i, state in enumerate(positions(2, False, 4, seed=11)):
        root = bot.search(state.view(state.current_player), random.Random(i), bot.budget())
        for nd in _nodes(root):
            if nd.prior is not None:
                assert all(0.0 <= p <= 1.0 for p in nd.prior.values())
                read += 1
    assert read > 0


def test_an_observer_network_is_only_ever_another_seats_guide(observer: str) -> None:
    with pytest.raises(BotSpecError, match="is an observer network: give it as others="):
        make_bot(f"ismcts:net={observer}", "digging")
    with pytest.raises(BotSpecError, match="is an observer network: it guesses another seat's moves"):
        make_bot(f"net:net={observer}", "digging")
    with pytest.raises(BotSpecError, match="others=selfplay is not an observer network"):
        make_bot("ismcts:net=default,others=selfplay", "digging")
    for spec in (f"ismcts:others={observer}", f"ismcts:net=default,prior=own,others={observer}",
                 f"ismcts:net=default,leaf=net,others={observer}", f"ismcts:net=default,deals=4,others={observer}"):
        with pytest.raises(BotSpecError, match="needs a network guiding every seat's moves and reads each node once"):
            make_bot(spec, "digging")


def test_observer_examples_are_each_other_seats_view_of_the_movers_guided_move() -> None:
    ex = ObserverPlay(bot="heuristic").game(3)
    cut = encoding_for("digging").slices
    assert len(ex) > 100 and len(ex) % 3 == 0 and ex.sizes == (len(ex),)
    for row in range(0, len(ex), 3):
        group = slice(row, row + 3)
        seats = ex.x[group, cut["seat"]].argmax(1)
        to_move = ex.x[group, cut["to_move"]].argmax(1)  # relative to the row's seat
        movers = {(int(s) + int(m)) % 4 for s, m in zip(seats, to_move, strict=True)}
        assert len(set(seats.tolist())) == 3 and len(movers) == 1 and movers.pop() not in seats
        assert (to_move != 0).all(), "the observer is never the seat to move"
        # One target, the mover's: the same shares over the same absolute moves from every view.
        shares = [_absolute(ex.policy[r], int(seats[r - row])) for r in range(row, row + 3)]
        assert shares[0] == shares[1] == shares[2]
        assert sum(shares[0].values()) == pytest.approx(1.0, abs=1e-4)
        # The value target is per seat relative to the observer: partners share a result.
        assert (ex.value[group, 0] == ex.value[group, 2]).all()


def test_an_observer_example_is_read_from_the_observers_observation_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    encoding = encoding_for("digging")
    real = type(encoding).encode_state
    read = 0

    def checked(self: Any, state: GameState, seat: int, *rest: Any) -> np.ndarray:
        nonlocal read
        x = real(self, state, seat, *rest)
        # What the seat may know, and nothing else: its observation encodes to the same input.
        assert np.array_equal(x, self.encode(state.observation(seat)))
        read += 1
        return x

    monkeypatch.setattr(type(encoding), "encode_state", checked)
    ex = ObserverPlay(bot="heuristic").game(4)
    assert read == len(ex) > 100


def _absolute(row: np.ndarray, seat: int) -> dict[int, float]:
    """A row's shares by absolute action id (rows are relative to their observer)."""
    rel = {relative_action(a, seat, 4): a for a in range(len(row))}
    return {rel[int(r)]: round(float(row[r]), 5) for r in np.flatnonzero(row)}



def test_train_observer_writes_a_network_a_search_takes_as_others(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    import subprocess
    import sys

    script = Path(__file__).parents[2] / "scripts" / "train_observer.py"
    out = tmp_path / "run"
    args = [sys.executable, str(script), "--games", "10", "--bot", "heuristic", "--jobs", "1", "--epochs", "1",
            "--out", str(out)]  # fmt: skip
    done = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "held out: policy loss" in done.stdout
    made = load_net(str(out / "observer.npz"))
    assert made.meta["kind"] == "observer" and made.meta["games"] == 10 and made.meta["fit"]["value_weight"] == 0.0
    make_bot(f"ismcts:iterations=20,net=default,others={out / 'observer.npz'}", "digging")
    # The examples are kept: a second fit reads them instead of playing again, and fits the same weights.
    again = tmp_path / "again"
    redo = [*args[:-1], str(again), "--examples-from", str(out / "examples.npz")]
    assert subprocess.run(redo, capture_output=True, text=True, timeout=600).returncode == 0
    for (w1, _), (w2, _) in zip(made.hidden, load_net(str(again / "observer.npz")).hidden, strict=True):
        assert np.array_equal(w1, w2)
    bad = subprocess.run([*args[:3], "5", *args[4:]], capture_output=True, text=True, timeout=600)
    assert bad.returncode != 0 and "--games must be at least 10" in bad.stderr


def test_the_shipped_observer_network_says_how_it_was_made_and_guides_every_table() -> None:
    net = load_net("observer")
    assert net.meta["kind"] == "observer" and net.meta["teacher"] == "selfplay"
    assert net.meta["command"].startswith("python scripts/train_observer.py ") and "--seed 7" in net.meta["command"]
    # It guesses the mover's policy better than the teacher does from the observer's view, on games
    # it never saw (it was fitted on games seeded 7 * 1_000_003 + g).
    teacher = load_net("selfplay")
    for seed in (1, 2, 3):
        ex = ObserverPlay(bot="heuristic").game(seed)
        assert _policy_loss(net, ex) < _policy_loss(teacher, ex)
    digging = registry.get("digging")
    hard = digging.levels_for(digging.params())["hard"]  # the server's, at a smaller budget
    assert "others=observer" in hard
    bot = make_bot(f"{hard},iterations=30", "digging", trusted=False)
    from goldfields.digging import new_game

    for players, partnership in ((2, False), (3, False), (4, True)):
        state = new_game(players, partnership, rng=random.Random(players))
        assert bot.act(state.view(state.current_player), random.Random(0)) in state.legal_actions()
    with pytest.raises(BotSpecError, match="observer network"):
        make_bot("net:net=observer", "digging", trusted=False)


def _policy_loss(net: PolicyValueNet, ex: Any) -> float:
    """Mean cross-entropy of ``net``'s policy, over each example's legal moves, against its target."""
    logits, _ = net.forward(ex.x)
    logits = np.where(ex.mask > 0, logits, -np.inf)
    logits = logits - logits.max(axis=1, keepdims=True)
    logp = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    return float(-(ex.policy * np.where(ex.mask > 0, logp, 0.0)).sum(axis=1).mean())
