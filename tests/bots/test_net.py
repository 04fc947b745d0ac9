"""The policy and value network: numpy inference, the ``net`` bot, PUCT search with it, and training."""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import random
import re
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from goldfields.bots import make_bot
from goldfields.bots.base import Budget, legal_actions_of
from goldfields.bots.digging_search import without_stalling
from goldfields.bots.ismcts import Node as ISMCTSNode
from goldfields.bots.net import PolicyValueNet, evaluator, load_net, relative_action
from goldfields.bots.registry import BotSpecError
from goldfields.core.game import GameState
from goldfields.digging import actions as A
from goldfields.research.encoding import encoding_for

INPUTS = encoding_for("digging").size


def random_net(path: Path, inputs: int = INPUTS, hidden: int = 32, seed: int = 0) -> Path:
    rng = np.random.default_rng(seed)
    net = PolicyValueNet(
        ((rng.normal(0, 0.1, (inputs, hidden)).astype(np.float32), np.zeros(hidden, np.float32)),),
        (rng.normal(0, 0.1, (hidden, A.NUM_ACTIONS)).astype(np.float32), np.zeros(A.NUM_ACTIONS, np.float32)),
        (rng.normal(0, 0.1, (hidden, 4)).astype(np.float32), np.zeros(4, np.float32)),
        {"made_by": "tests"},
    )
    net.save(path)
    return path


def measured_scores(out: Path, round_: int) -> dict[str, list[list[int]]]:
    """Each table's game scores in round ``round_``'s measurement (tables without partners). The
    win rates are made from them, but a network this small loses every game to random, so its
    rates are all 0.0 and comparing them shows nothing; the scores differ from network to network."""
    return {folder.name.rsplit("-", 1)[1]: [json.loads(line)["scores"] for line in
                                            (folder / "results.jsonl").read_text().splitlines()]
            for folder in sorted(out.glob(f"arena-{round_:02d}-[0-9]p"))}  # fmt: skip


def test_a_network_retrained_to_the_same_path_is_read_again_in_the_same_process(tmp_path: Path) -> None:
    # A notebook that retrains into one file and plays it again must not play the old weights.
    path = str(random_net(tmp_path / "n.npz", seed=1))
    first = evaluator(path)
    assert evaluator(path) is first  # unchanged: read once
    # (Another size too: a file's time stamp may not move within a few milliseconds.)
    random_net(tmp_path / "n.npz", hidden=16, seed=2)
    second = evaluator(path)
    assert second is not first and load_net(path) is second.net
    assert first.net.hidden[0][0].shape == (INPUTS, 32) and second.net.hidden[0][0].shape == (INPUTS, 16)
    with np.load(path) as data:
        assert np.array_equal(second.net.hidden[0][0], data["w0"])


def test_an_open_action_names_its_display_from_the_movers_seat() -> None:
    mine = 0  # MG
    assert relative_action(A.open_action(mine, 2), seat=2, players=4) == A.open_action(mine, 0)
    assert relative_action(A.open_action(mine, 0), seat=3, players=4) == A.open_action(mine, 1)
    assert relative_action(A.open_action(mine, 1), seat=1, players=3) == A.open_action(mine, 0)
    for other in (A.DRAW, A.pass_action(5), A.close_action(2), A.bandit_action(12, 4)):
        assert relative_action(other, seat=2, players=4) == other


def test_a_saved_network_loads_back_exactly(tmp_path: Path) -> None:
    path = random_net(tmp_path / "n.npz")
    net = load_net(str(path))
    x = np.random.default_rng(1).random((3, INPUTS), dtype=np.float32)
    logits, value = net.forward(x)
    assert logits.shape == (3, A.NUM_ACTIONS) and value.shape == (3, 4)
    assert ((value > 0) & (value < 1)).all()
    assert net.meta == {"made_by": "tests"}


def test_huge_value_logits_give_certain_values_without_overflow(tmp_path: Path) -> None:
    # A network fitted too long on few games can be this sure; numpy must not warn in every game it plays.
    net = load_net(str(random_net(tmp_path / "n.npz")))
    sure = PolicyValueNet(net.hidden, net.policy, (net.value[0] * 1e4, net.value[1]), net.meta)
    x = np.random.default_rng(2).random((8, INPUTS), dtype=np.float32)
    with np.errstate(over="raise"):
        _, value = sure.forward(x)
        _, one = sure.forward_one(x[:1])
    assert ((value >= 0) & (value <= 1)).all() and (np.isin(value, (0.0, 1.0))).any()
    assert np.array_equal(one, value[0])


def test_a_missing_or_mismatched_network_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(BotSpecError, match="no network file"):
        make_bot(f"net:net={tmp_path / 'none.npz'}", "digging")
    with pytest.raises(BotSpecError, match="no shipped network 'nope'"):
        make_bot("net:net=nope", "digging")
    wrong = random_net(tmp_path / "wrong.npz", inputs=INPUTS + 1)
    with pytest.raises(BotSpecError, match="train it again"):
        make_bot(f"ismcts:net={wrong}", "digging")


@pytest.mark.parametrize(("players", "partnership"), [(2, False), (3, False), (4, True)])
@pytest.mark.parametrize(
    "spec",
    ["net:net={}", "net:net={},temperature=1", "ismcts:iterations=40,net={}", "ismcts:iterations=40,net={},leaf=net",
     "ismcts:iterations=40,net={},prior=own", "ismcts:iterations=40,net={},sharpen=4",
     "ismcts:iterations=40,net={},deals=4"],
)
def test_network_bots_return_legal_actions(spec: str, players: int, partnership: bool, positions,
                                           tmp_path: Path) -> None:  # fmt: skip
    path = random_net(tmp_path / "n.npz")
    bot = make_bot(spec.format(path), "digging")
    for i, state in enumerate(positions(players, partnership, 25, seed=players)):
        seat = state.current_player
        action = bot.act(state.view(seat), random.Random(i))
        assert action in state.legal_actions(), (spec, state.action_to_string(action))


@pytest.mark.parametrize("leaf", ["rollout", "net"])
@pytest.mark.parametrize(("prior", "only_own"), [("all", False), ("own", True)])
def test_with_prior_own_the_network_guides_only_the_searching_seats_moves(
    prior: str, only_own: bool, leaf: str, positions, monkeypatch: pytest.MonkeyPatch
) -> None:
    from goldfields.bots.net import NetEvaluator

    asked: list[int] = []  # the seat to move at each question, the root's (from the observation) included
    real, real_root = NetEvaluator.evaluate_state, NetEvaluator.evaluate

    def spy(self: NetEvaluator, state: GameState, *rest: Any) -> tuple[np.ndarray, np.ndarray]:
        asked.append(state.current_player)
        return real(self, state, *rest)

    def spy_root(self: NetEvaluator, obs: dict, seat: int, *rest: Any) -> tuple[np.ndarray, np.ndarray]:
        asked.append(seat)
        return real_root(self, obs, seat, *rest)

    monkeypatch.setattr(NetEvaluator, "evaluate_state", spy)
    monkeypatch.setattr(NetEvaluator, "evaluate", spy_root)
    bot = make_bot(f"ismcts:iterations=400,net=default,prior={prior},leaf={leaf}", "digging")
    for i, state in enumerate(positions(4, True, 4, seed=81)):
        seat = state.current_player
        asked.clear()
        root = bot.search(state.view(seat), random.Random(i), bot.budget())
        assert seat in asked
        if leaf == "rollout":
            assert (set(asked) == {seat}) == only_own
        # The value leaf asks the network about every new node (for its value); the prior is kept
        # only where it guides.
        # A node's prior is for the seat to move there: the one whose moves its children are.
        guided = {ch.player for nd in _nodes(root) if nd.prior is not None for ch in nd.children.values()}
        assert guided
        assert (guided <= {seat}) == only_own


def test_with_deals_another_seats_prior_is_its_mean_over_the_deals_read(positions) -> None:
    mixed = make_bot("ismcts:iterations=600,net=default,deals=4", "digging")
    single = make_bot("ismcts:iterations=600,net=default", "digging")
    for i, state in enumerate(positions(4, True, 3, seed=82)):
        seat = state.current_player
        root = mixed.search(state.view(seat), random.Random(i), mixed.budget())
        nodes = [nd for nd in _nodes(root) if nd.prior is not None and nd is not root]
        others = [nd for nd in nodes if hasattr(nd, "mix")]
        assert others, "another seat's node was read"
        for nd in nodes:
            mover = {ch.player for ch in nd.children.values()}
            # The searching seat knows its hand: its nodes read one deal, as without deals.
            assert hasattr(nd, "mix") == (mover != {seat})
        for nd in others:
            # Read once visited 1, 2, 4 and 8 times (later when the deal at hand was read already),
            # up to 4 deals.
            assert 1 <= nd.reads <= min(4, (nd.n - 1).bit_length())
            for k, (total, reads) in nd.mix.items():
                assert 1 <= reads <= nd.reads
                assert nd.prior[k] == pytest.approx(total / reads)
        assert any(nd.reads > 1 for nd in others)
        # One deal's prior names only the moves that deal's guessed hand can make; the mean over
        # several names more of them.
        plain = single.search(state.view(seat), random.Random(i), single.budget())
        moves_named = sum(len(nd.prior) for nd in others) / len(others)
        plain_others = [nd for nd in _nodes(plain) if nd.prior is not None and nd is not plain
                        and {ch.player for ch in nd.children.values()} != {seat}]  # fmt: skip
        assert plain_others and moves_named >= sum(len(nd.prior) for nd in plain_others) / len(plain_others)


def test_deals_is_the_same_search_at_one_and_needs_a_network_guiding_every_seat(positions) -> None:
    state = positions(4, True, 1, seed=83)[0]
    view = state.view(state.current_player)
    one = make_bot("ismcts:iterations=300,net=default,deals=1", "digging")
    tree = one.search(view, random.Random(5), one.budget())

    def shape(node: ISMCTSNode) -> list[Any]:
        return [node.n, [(k, shape(ch)) for k, ch in sorted(node.children.items())]]

    # The whole tree (every node's visits), as the search grew it before deals existed (commit
    # 70da787), with the shipped default network: deals=1 must leave the search as it was. (A
    # deliberate change to the search or to that network changes it: pin its new digest then.)
    assert hashlib.sha256(repr(shape(tree)).encode()).hexdigest()[:16] == "821d9722e7ffd22a"
    assert not any(hasattr(nd, "mix") for nd in _nodes(tree))
    for spec in ("ismcts:deals=4", "ismcts:net=default,prior=own,deals=4", "ismcts:net=default,leaf=net,deals=4"):
        with pytest.raises(BotSpecError, match="deals=4 needs a network guiding every seat"):
            make_bot(spec, "digging")


def _nodes(root: ISMCTSNode) -> list[ISMCTSNode]:
    out, todo = [], [root]
    while todo:
        nd = todo.pop()
        out.append(nd)
        todo.extend(nd.children.values())
    return out


def test_the_prior_covers_the_legal_moves_and_values_are_per_absolute_seat(positions, tmp_path: Path) -> None:
    ev = evaluator(str(random_net(tmp_path / "n.npz")))
    for state in positions(3, False, 10, seed=4):
        legal = state.legal_actions()
        prior, value = ev.evaluate_state(state, legal)
        assert prior.shape == (len(legal),) and prior.sum() == pytest.approx(1.0, abs=1e-5)
        assert value.shape == (3,)
        # The search's fast path reads the state; a bot reads the observation: the same figures.
        seen_prior, seen_value = ev.evaluate(state.observation(state.current_player), state.current_player, legal)
        np.testing.assert_array_equal(prior, seen_prior)
        np.testing.assert_array_equal(value, seen_value)


def test_a_temperature_raises_the_prior_to_its_inverse_power(positions) -> None:
    ev = evaluator("default")
    for state in positions(4, True, 10, seed=5):
        legal = state.legal_actions()
        prior, value = ev.evaluate_state(state, legal)
        sharp, same_value = ev.evaluate_state(state, legal, 0.25)
        np.testing.assert_allclose(sharp, prior**4 / (prior**4).sum(), rtol=1e-4)
        np.testing.assert_array_equal(value, same_value)
        if len(legal) > 1 and prior.max() > prior.min():
            assert sharp.max() > prior.max()  # the favourite gains


def test_a_tiny_temperature_still_draws_a_move_and_it_is_the_favourite(positions) -> None:
    # prior ** (1 / T) underflows to all zeros at T = 0.001; the tempered softmax does not.
    ev = evaluator("default")
    cold = make_bot("net:temperature=0.001", "digging")
    for i, state in enumerate(positions(4, True, 10, seed=7)):
        view = state.view(state.current_player)
        legal = without_stalling(view.data, legal_actions_of(view))
        if len(legal) < 2:
            continue
        prior, _ = ev.evaluate(view.data, view.seat, legal)
        if sorted(prior)[-1] - sorted(prior)[-2] > 1e-3:  # a clear favourite
            assert cold.act(view, random.Random(i)) == legal[int(np.argmax(prior))]


def test_sharpen_gives_the_search_the_sharpened_prior_and_needs_a_network(positions) -> None:
    ev = evaluator("default")
    for i, state in enumerate(positions(4, True, 3, seed=6)):
        seat = state.current_player
        view = state.view(seat)
        sharp = make_bot("ismcts:iterations=8,net=default,sharpen=4", "digging").search(
            view, random.Random(i), Budget(8))
        plain = make_bot("ismcts:iterations=8,net=default", "digging").search(view, random.Random(i), Budget(8))
        assert sharp.prior is not None and plain.prior is not None
        legal = list(sharp.prior)  # the root's moves, in the order the search asked about them
        expected, _ = ev.evaluate(view.data, seat, legal, 0.25)
        np.testing.assert_allclose([sharp.prior[a] for a in legal], expected, rtol=1e-6)
        assert max(sharp.prior.values()) >= max(plain.prior.values())
    with pytest.raises(BotSpecError, match=r"sharpen=4\.0 needs a network"):
        make_bot("ismcts:sharpen=4", "digging")
    assert make_bot("ismcts:net=default,sharpen=4", "digging").spec() == "ismcts:net=default,sharpen=4.0"


def test_the_torch_model_computes_what_numpy_computes(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    from goldfields.learn.trainer import TorchNet

    net = load_net(str(random_net(tmp_path / "n.npz")))
    model = TorchNet.from_numpy(net)
    x = np.random.default_rng(2).random((5, INPUTS), dtype=np.float32)
    logits, value = net.forward(x)
    with torch.no_grad():
        t_logits, t_value = model(torch.from_numpy(x))
    np.testing.assert_allclose(logits, t_logits.numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(value, torch.sigmoid(t_value).numpy(), rtol=1e-4, atol=1e-5)
    back = model.to_numpy({})
    np.testing.assert_allclose(back.forward(x)[0], logits, rtol=1e-5, atol=1e-6)


def test_a_cosine_fit_settles_its_rate_to_zero_and_an_unknown_schedule_is_refused(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from goldfields.learn.selfplay import SelfPlay
    from goldfields.learn.trainer import Fit, TorchNet, learning_rate, train

    cosine, constant = Fit(lr=0.01, schedule="cosine"), Fit(lr=0.01)
    rates = [learning_rate(cosine, step, 10) for step in range(11)]
    assert rates[0] == 0.01 and rates[5] == pytest.approx(0.005) and rates[-1] == pytest.approx(0.0, abs=1e-12)
    assert all(a > b for a, b in itertools.pairwise(rates))
    assert {learning_rate(constant, step, 10) for step in range(11)} == {0.01}
    data = SelfPlay(2, False, 8).game(1)
    fits = {}
    for fit in (Fit(epochs=2, batch=16), Fit(epochs=2, batch=16, schedule="cosine")):
        model = TorchNet.from_numpy(load_net(str(random_net(tmp_path / "n.npz"))))
        train(model, data, fit, seed=0)
        fits[fit.schedule] = model.to_numpy({}).arrays()
    assert all(np.isfinite(a).all() for a in fits["cosine"].values())
    assert not np.array_equal(fits["cosine"]["w0"], fits["constant"]["w0"])
    with pytest.raises(ValueError, match="cosine"):
        train(TorchNet.from_numpy(load_net(str(random_net(tmp_path / "n.npz")))), data, Fit(schedule="linear"), seed=0)


def test_a_training_round_writes_a_network_the_bots_load(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from goldfields.learn.loop import Plan, run
    from goldfields.learn.selfplay import Examples
    from goldfields.learn.trainer import Fit

    plan = Plan(rounds=1, games=4, search=8, hidden=(16,), eval_games=2, tables=((2, False), (3, False)),
                opponent="random", holdout=2, warmup=2, guide=False, jobs=1, fit=Fit(epochs=1))  # fmt: skip
    rounds = run(plan, tmp_path / "a")
    assert [(r.round, r.stage) for r in rounds] == [(0, "untrained"), (0, "warm-up"), (1, "self-play")]
    first = rounds[-1]
    assert first.examples > 0 and set(first.win_rates) == {"2p", "3p"}
    assert first.val_policy_loss > 0 and first.val_value_loss > 0  # games 3 and 4, one at each table
    out = tmp_path / "a"
    for name in ("curve.csv", "curve.png", "train.json", "round-00.npz", "warmup.npz", "round-01.npz"):
        assert (out / name).exists(), name
    # A measuring match is scratch: its summary is kept, its chart not drawn (curve.png shows its rate).
    assert (out / "arena-01-2p" / "summary.csv").exists() and not (out / "arena-01-2p" / "chart.png").exists()
    bot = make_bot(f"net:net={out / 'round-01.npz'}", "digging")
    assert bot.spec().startswith("net:net=")

    # Every game is kept, one part per game; a warm-up example has its teacher's move as the target.
    played = Examples.load(out / "examples-01.npz")
    assert played.games == 4 and sum(len(p) for p in played.split()) == len(played)
    warm = Examples.load(out / "examples-warmup.npz")
    assert warm.games == 2 and set(np.unique(warm.policy)) <= {0.0, 1.0}
    assert (warm.policy.sum(1) == 1).all() and (warm.policy <= warm.mask).all()

    # A second run reads those games instead of playing them, and makes the same network. It
    # starts no self-play process: there is no game for one to play.
    from goldfields.learn import loop

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(loop._Workers, "imap", lambda *a: pytest.fail("a self-play pool was started"))
        again = run(Plan(**{**plan.__dict__, "examples_from": str(out)}), tmp_path / "b")
    assert measured_scores(out, 1) != measured_scores(out, 0)  # the scores tell these networks apart
    assert again[-1].win_rates == first.win_rates
    assert measured_scores(tmp_path / "b", 1) == measured_scores(out, 1)
    with np.load(out / "round-01.npz") as x, np.load(tmp_path / "b" / "round-01.npz") as y:
        assert all(np.array_equal(x[k], y[k]) for k in x.files)
    with pytest.raises(ValueError, match="seed"):
        run(Plan(**{**plan.__dict__, "examples_from": str(out), "seed": 9}), tmp_path / "c")
    # Another teacher's warm-up games are played, not read, even where there are more of them.
    taught = run(Plan(**{**plan.__dict__, "examples_from": str(out), "warmup": 3, "warmup_teacher": "random"}),
                 tmp_path / "t")  # fmt: skip
    assert taught[1].stage == "warm-up" and taught[1].games_per_second > 0
    assert not np.array_equal(Examples.load(tmp_path / "t" / "examples-warmup.npz").split()[0].x, warm.split()[0].x)

    # Game g depends on the seed, table and search alone: a longer run reads the four games and
    # plays the other two; a shorter run reads the first games of that one and plays none.
    longer = run(Plan(**{**plan.__dict__, "examples_from": str(out), "games": 6}), tmp_path / "g")
    assert longer[-1].games_per_second > 0
    six = Examples.load(tmp_path / "g" / "examples-01.npz")
    assert six.games == 6
    for a, b in zip(six.split()[:4], played.split(), strict=True):
        assert np.array_equal(a.x, b.x) and np.array_equal(a.policy, b.policy)
    shorter = run(Plan(**{**plan.__dict__, "examples_from": str(tmp_path / "g"), "games": 4}), tmp_path / "h")
    assert math.isnan(shorter[-1].games_per_second)
    assert Examples.load(tmp_path / "h" / "examples-01.npz").games == 4
    with np.load(out / "round-01.npz") as x, np.load(tmp_path / "h" / "round-01.npz") as y:
        assert all(np.array_equal(x[k], y[k]) for k in x.files)

    # A longer, guided run reads that run's unguided games (warm-up and round 1) and plays its
    # guided round 2; a run reading the guided one plays its own round 2 again.
    guided = run(Plan(**{**plan.__dict__, "examples_from": str(out), "rounds": 2, "guide": True}), tmp_path / "e")
    with np.load(out / "round-01.npz") as x, np.load(tmp_path / "e" / "round-01.npz") as y:
        assert all(np.array_equal(x[k], y[k]) for k in x.files)
    assert "examples_from" not in json.loads((tmp_path / "e" / "round-02.json").read_text())["plan"]  # a local path
    read, played_here = guided[-2], guided[-1]
    assert math.isnan(read.games_per_second) and played_here.games_per_second > 0
    unguided = run(Plan(**{**plan.__dict__, "examples_from": str(tmp_path / "e"), "rounds": 2}), tmp_path / "f")
    assert math.isnan(unguided[-2].games_per_second) and unguided[-1].games_per_second > 0
    # A guided run reads the guided games too: the network that guided them is the same, weight for weight.
    again_guided = run(Plan(**{**plan.__dict__, "examples_from": str(tmp_path / "e"), "rounds": 2, "guide": True}),
                       tmp_path / "i")  # fmt: skip
    assert math.isnan(again_guided[-1].games_per_second)
    with np.load(tmp_path / "e" / "round-02.npz") as x, np.load(tmp_path / "i" / "round-02.npz") as y:
        assert all(np.array_equal(x[k], y[k]) for k in x.files)

    # A network can start another run.
    on = run(Plan(rounds=1, games=1, search=8, hidden=(16,), eval_games=2, tables=((2, False),), jobs=1,
                  opponent="random", init=str(out / "round-01.npz"), fit=Fit(epochs=1)), tmp_path / "d")  # fmt: skip
    assert on[0].win_rates == {"2p": first.win_rates["2p"]}  # round 0 there is round 1 here
    assert measured_scores(tmp_path / "d", 0) == {"2p": measured_scores(out, 1)["2p"]}


def test_a_stopped_training_run_keeps_its_games_and_goes_on_to_the_same_network(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("torch")
    from goldfields.learn import loop
    from goldfields.learn.loop import Plan, run
    from goldfields.learn.selfplay import Examples
    from goldfields.learn.trainer import Fit

    plan = Plan(rounds=1, games=4, search=8, hidden=(16,), eval_games=2, tables=((2, False), (3, False)),
                opponent="random", holdout=2, warmup=2, guide=False, jobs=1, fit=Fit(epochs=1))  # fmt: skip
    whole = run(plan, tmp_path / "whole")
    # Going on in a folder whose run had more rounds is refused before anything there changes: the
    # later networks would stay beside a run that never made them.
    shutil.copy(tmp_path / "whole" / "round-01.npz", tmp_path / "whole" / "round-02.npz")
    described = (tmp_path / "whole" / "train.json").read_text()
    with pytest.raises(ValueError, match="holds networks of round 2 to 2, beyond this run's 1"):
        run(Plan(**{**plan.__dict__, "examples_from": str(tmp_path / "whole")}), tmp_path / "whole")
    assert (tmp_path / "whole" / "train.json").read_text() == described
    (tmp_path / "whole" / "round-02.npz").unlink()
    monkeypatch.setattr(loop, "SAVE_EVERY", 0.0)  # saved after every game, as if each took five minutes
    out = tmp_path / "stopped"
    games = out / "examples-01.npz"
    saved: list[int] = []

    def stop_in_the_third_self_play_game() -> None:
        saved.append(Examples.load(games).games if games.exists() else 0)
        if len(saved) == 2 + 3:  # the two warm-up games, then three of round 1's four
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(plan, out, on_game=stop_in_the_third_self_play_game)
    assert saved[2:] == [0, 1, 2]  # saved as it went: each game's file is there at the next one
    assert Examples.load(games).games == 3 and not (out / "round-01.npz").exists()
    assert not list(out.glob("*.partial.npz"))

    # Going on from its own folder reads the warm-up and three games, plays the fourth, and makes
    # the network the unstopped run made.
    again = run(Plan(**{**plan.__dict__, "examples_from": str(out)}), out)
    assert math.isnan(again[1].games_per_second) and again[-1].games_per_second > 0
    assert Examples.load(games).games == 4 and again[-1].win_rates == whole[-1].win_rates
    assert measured_scores(out, 1) == measured_scores(tmp_path / "whole", 1)
    assert measured_scores(out, 1) != measured_scores(out, 0)
    with np.load(tmp_path / "whole" / "round-01.npz") as x, np.load(out / "round-01.npz") as y:
        assert all(np.array_equal(x[k], y[k]) for k in x.files)

    # Stopped while measuring the round: the measurement is played again, from the start.
    from goldfields.arena.store import JOURNAL

    journal = out / "arena-01-2p" / JOURNAL
    journal.write_text("".join(journal.read_text().splitlines(keepends=True)[:1]))
    measured_again = run(Plan(**{**plan.__dict__, "examples_from": str(out)}), out)
    assert measured_again[-1].win_rates == whole[-1].win_rates
    assert len(journal.read_text().splitlines()) == 2  # played again in full, not resumed
    assert measured_scores(out, 1) == measured_scores(tmp_path / "whole", 1)

    # Games caught being replaced are played again, never read as the plan's.
    (out / "examples-01.json").write_text(json.dumps({"being written": "examples-01"}))
    replayed = run(Plan(**{**plan.__dict__, "examples_from": str(out)}), tmp_path / "replayed")
    assert replayed[-1].games_per_second > 0


def test_the_train_command_stopped_by_sigterm_says_how_to_go_on_and_leaves_no_file_half_written(
    tmp_path: Path,
) -> None:
    pytest.importorskip("torch")
    import os
    import signal
    import subprocess
    import sys
    import time

    from goldfields.learn.selfplay import Examples

    out = tmp_path / "run"
    script = Path(sys.executable).with_name("goldfields")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "goldfields.cli.app"]
    args = [*command, "train", "--rounds", "1", "--games", "200", "--search", "8", "--hidden", "8",
            "--eval-games", "2", "--tables", "2p", "--warmup", "2", "--jobs", "2", "--seed", "5",
            "--out", str(out)]  # fmt: skip
    with (tmp_path / "output").open("w") as log:
        proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "COLUMNS": "200"})
    try:
        # The warm-up network is saved after its games and fit: the signal comes while the run
        # measures it or plays round 1's games.
        deadline = time.monotonic() + 300
        while not (out / "warmup.npz").exists():
            assert proc.poll() is None, (tmp_path / "output").read_text()
            assert time.monotonic() < deadline, "no warm-up network within 300 s"
            time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=300)
    finally:
        proc.kill()
    output = (tmp_path / "output").read_text()
    assert proc.returncode == 128 + signal.SIGTERM, output
    assert "stopped: the games finished so far, in order, are kept in" in " ".join(output.split()), output
    assert f"--examples-from {out}" in " ".join(output.split())
    assert Examples.load(out / "examples-warmup.npz").games == 2
    assert json.loads((out / "examples-warmup.json").read_text()) == {}
    assert not list(out.glob("*.partial.npz")) and not (out / "round-01.npz").exists()
    if (out / "examples-01.npz").exists():  # round 1 had begun: its finished games are kept, readable
        assert Examples.load(out / "examples-01.npz").games >= 1
        assert json.loads((out / "examples-01.json").read_text()) == {}


def test_dagger_games_let_the_network_and_the_opponent_play_while_the_search_labels(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    from goldfields.core import registry
    from goldfields.learn import selfplay

    events: list[tuple] = []  # ("asked", bot, seat, action) and ("applied", action), in order
    real = selfplay.make_bot

    def spy(spec: str, game: str):  # a bot whose calls, and what it answered, are logged
        bot = real(spec, game)
        act = bot.act

        def logged(view, rng):
            action = act(view, rng)
            events.append(("asked", spec.split(":")[0], view.seat, action))
            return action

        bot.act = logged
        return bot

    monkeypatch.setattr(selfplay, "make_bot", spy)
    net = random_net(tmp_path / "n.npz")
    definition = registry.get("digging")
    state_type = type(definition.new_state(definition.params(players=2, partnership=False), random.Random(0)))
    apply = state_type.apply_action
    monkeypatch.setattr(state_type, "apply_action", lambda self, a: (events.append(("applied", a)), apply(self, a))[1])
    for players, partnership in ((4, True), (2, False), (3, False)):
        params = definition.params(players=players, partnership=partnership)
        for side in (0, 1):
            events.clear()
            game = selfplay.SelfPlay(players, partnership, 8, learner=str(net), learner_side=side,
                                     opponent="heuristic").game(3)  # fmt: skip
            asked = [(i, e) for i, e in enumerate(events) if e[0] == "asked"]
            # Every labelled decision was played by the network on its side's seats and by the
            # heuristic on the others, and the move applied is the one the bot gave.
            assert len(asked) == len(game) > 0
            sides = {bot: {definition.side_of(params, e[2]) for _, e in asked if e[1] == bot}
                     for bot in ("net", "heuristic")}
            assert sides["net"] == {side} and side not in sides["heuristic"] and sides["heuristic"]
            assert all(events[i + 1] == ("applied", e[3]) for i, e in asked)
            # The label is the search's visit shares, not the bot's one move.
            assert np.allclose(game.policy.sum(1), 1) and (game.policy <= game.mask).all()
            assert ((game.policy > 0) & (game.policy < 1)).any()


def test_a_dagger_round_fits_again_on_the_games_its_network_played(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from goldfields.learn.loop import Plan, run
    from goldfields.learn.selfplay import Examples
    from goldfields.learn.trainer import Fit, TorchNet, train

    plan = Plan(rounds=1, games=2, search=8, hidden=(16,), eval_games=2, tables=((2, False),), holdout=0,
                opponent="random", guide=False, jobs=1, fit=Fit(epochs=1), dagger=4,
                dagger_opponents=("heuristic", "random"))  # fmt: skip
    rounds = run(plan, tmp_path / "a")
    out = tmp_path / "a"
    dagger, selfplayed = Examples.load(out / "dagger-01.npz"), Examples.load(out / "examples-01.npz")
    assert dagger.games == 4 and selfplayed.games == 2
    assert rounds[-1].examples == len(dagger) + len(selfplayed) and rounds[-1].games_per_second > 0
    # The round's network is fitted again from where the round began (the untrained network here),
    # on the self-play games and then the DAgger games: made again here, it is the same bit for bit.
    model = TorchNet.from_numpy(load_net(str(out / "round-00.npz")))
    train(model, Examples.join([selfplayed, dagger]), plan.fit, seed=plan.seed + 1)
    again = model.to_numpy({})
    shipped, learner = load_net(str(out / "round-01.npz")), load_net(str(out / "round-01-learner.npz"))
    assert all(np.array_equal(a, b) for a, b in zip(again.arrays().values(), shipped.arrays().values(), strict=True))
    assert not np.array_equal(learner.policy[0], shipped.policy[0])
    made = json.loads((out / "round-01.json").read_text())
    assert made["plan"]["dagger_opponents"] == ["heuristic", "random"] and made["dagger_games"] == 4
    # Made again from those games, the same learner plays the same DAgger games, so they are read too.
    again_rounds = run(Plan(**{**plan.__dict__, "examples_from": str(out)}), tmp_path / "c")
    assert math.isnan(again_rounds[-1].games_per_second)
    with np.load(out / "round-01.npz") as x, np.load(tmp_path / "c" / "round-01.npz") as y:
        assert all(np.array_equal(x[k], y[k]) for k in x.files)
    # Not against other opponents, nor after another self-play round (another learner).
    other = run(Plan(**{**plan.__dict__, "examples_from": str(out), "dagger_opponents": ("random", "heuristic")}),
                tmp_path / "o")  # fmt: skip
    assert other[-1].games_per_second > 0
    more = run(Plan(**{**plan.__dict__, "examples_from": str(out), "games": 4}), tmp_path / "m")
    assert more[-1].games_per_second > 0 and Examples.load(tmp_path / "m" / "dagger-01.npz").games == 4
    assert not np.array_equal(Examples.load(tmp_path / "m" / "dagger-01.npz").x, dagger.x)
    # Into its own folder, another fit (another learner) plays its DAgger games again: what played
    # them is recorded beside them, not read from the folder's network, which the run overwrites.
    rerun = run(Plan(**{**plan.__dict__, "examples_from": str(out), "fit": Fit(epochs=2)}), out)
    assert rerun[-1].games_per_second > 0
    assert not np.array_equal(Examples.load(out / "dagger-01.npz").x, dagger.x)
    with pytest.raises(ValueError, match="--dagger-opponent"):
        run(Plan(**{**plan.__dict__, "dagger_opponents": ()}), tmp_path / "b")
    # Each side meets each opponent at each table equally often, or the run is refused.
    with pytest.raises(ValueError, match="multiple of 4"):
        run(Plan(**{**plan.__dict__, "dagger": 6}), tmp_path / "d")
    with pytest.raises(ValueError, match="--dagger-passes"):
        run(Plan(**{**plan.__dict__, "dagger": 0, "dagger_passes": 2}), tmp_path / "e")


def test_a_deeper_search_can_label_the_dagger_games_and_its_labels_are_never_read_as_the_others(
    tmp_path: Path,
) -> None:
    pytest.importorskip("torch")
    from goldfields.learn.loop import Plan, run
    from goldfields.learn.selfplay import Examples
    from goldfields.learn.trainer import Fit

    plan = Plan(rounds=1, games=2, search=8, hidden=(16,), eval_games=2, tables=((2, False),), holdout=0,
                opponent="random", guide=False, jobs=1, fit=Fit(epochs=1), dagger=2,
                dagger_opponents=("heuristic",))  # fmt: skip
    run(plan, tmp_path / "a")
    shallow = Examples.load(tmp_path / "a" / "dagger-01.npz")
    deep = run(Plan(**{**plan.__dict__, "examples_from": str(tmp_path / "a"), "dagger_search": 64}), tmp_path / "d")
    assert deep[-1].games_per_second > 0  # the DAgger games were played, not read
    assert np.array_equal(Examples.load(tmp_path / "d" / "examples-01.npz").x,
                          Examples.load(tmp_path / "a" / "examples-01.npz").x)  # fmt: skip
    labelled = Examples.load(tmp_path / "d" / "dagger-01.npz")
    # The same first position, labelled by 64 iterations instead of 8.
    assert labelled.games == 2 and np.array_equal(labelled.x[0], shallow.x[0])
    assert not np.array_equal(labelled.policy[0], shallow.policy[0])
    made = json.loads((tmp_path / "d" / "dagger-01.json").read_text())
    assert made["labelled_by"] == 64
    assert json.loads((tmp_path / "d" / "round-01.json").read_text())["plan"]["dagger_search"] == 64
    # Read back by the same setting; the plan's own search, spelled out, reads the first run's games.
    assert math.isnan(run(Plan(**{**plan.__dict__, "examples_from": str(tmp_path / "d"), "dagger_search": 64}),
                          tmp_path / "d2")[-1].games_per_second)  # fmt: skip
    same = run(Plan(**{**plan.__dict__, "examples_from": str(tmp_path / "a"), "dagger_search": 8}), tmp_path / "s")
    assert math.isnan(same[-1].games_per_second)
    # And the plan's own search does not read the deeper labels.
    assert run(Plan(**{**plan.__dict__, "examples_from": str(tmp_path / "d")}), tmp_path / "n")[-1].games_per_second > 0
    with pytest.raises(ValueError, match="--dagger-search"):
        run(Plan(**{**plan.__dict__, "dagger": 0, "dagger_search": 64}), tmp_path / "e")


def test_each_dagger_pass_is_played_by_the_network_the_last_pass_fitted(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from goldfields.learn import loop
    from goldfields.learn.loop import Plan, run
    from goldfields.learn.selfplay import Examples
    from goldfields.learn.trainer import Fit, TorchNet, train

    one = Plan(rounds=1, games=2, search=8, hidden=(16,), eval_games=2, tables=((2, False),), holdout=0,
               opponent="random", guide=False, jobs=1, fit=Fit(epochs=1), dagger=2,
               dagger_opponents=("heuristic",))  # fmt: skip
    run(one, tmp_path / "one")
    # Pass 1 is read from the one-pass run: planted games there (its self-play ones) come back here.
    planted = tmp_path / "planted"
    shutil.copytree(tmp_path / "one", planted)
    shutil.copyfile(planted / "examples-01.npz", planted / "dagger-01.npz")
    run(Plan(**{**one.__dict__, "dagger_passes": 2, "examples_from": str(planted)}), tmp_path / "p")
    with np.load(planted / "dagger-01.npz") as x, np.load(tmp_path / "p" / "dagger-01.npz") as y:
        assert all(np.array_equal(x[k], y[k]) for k in x.files)
    two = Plan(**{**one.__dict__, "dagger_passes": 2, "examples_from": str(tmp_path / "one")})
    rounds = run(two, tmp_path / "two")
    out = tmp_path / "two"
    # Pass 2 was played, by the network pass 1 fitted: game 0 played again with it is the same.
    assert rounds[-1].games_per_second > 0
    first, second = Examples.load(out / "dagger-01.npz"), Examples.load(out / "dagger-01-2.npz")
    assert first.games == second.games == 2 and not np.array_equal(first.x[:50], second.x[:50])
    passed = load_net(str(out / "round-01-learner-2.npz"))
    before = load_net(str(tmp_path / "one" / "round-01.npz"))
    assert all(np.array_equal(a, b) for a, b in zip(passed.arrays().values(), before.arrays().values(), strict=True))
    setup = loop._dagger_tables(two, out / "round-01-learner-2.npz", None)[0]
    replayed = setup.game(loop._first_seeds(two)["round 1 DAgger pass 2"])
    assert np.array_equal(replayed.x, second.split()[0].x)
    # The round's network is fitted once more from where the round began, on every game of the round.
    selfplayed = Examples.load(out / "examples-01.npz")
    model = TorchNet.from_numpy(load_net(str(out / "round-00.npz")))
    train(model, Examples.join([selfplayed, first, second]), two.fit, seed=two.seed + 1)
    shipped = load_net(str(out / "round-01.npz"))
    assert all(np.array_equal(a, b) for a, b in zip(model.to_numpy({}).arrays().values(), shipped.arrays().values(),
                                                    strict=True))  # fmt: skip
    assert rounds[-1].examples == len(selfplayed) + len(first) + len(second)
    assert json.loads((out / "round-01.json").read_text())["dagger_games"] == 4
    assert json.loads((out / "round-01-learner-2.json").read_text())["dagger_games"] == 2


def test_with_several_fits_a_round_keeps_the_one_that_wins_most_on_deals_of_their_own(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from goldfields.learn.loop import Plan, run
    from goldfields.learn.trainer import Fit

    one = Plan(rounds=1, games=2, search=8, hidden=(16,), eval_games=4, tables=((2, False), (3, False)), holdout=0,
               guide=False, jobs=1, fit=Fit(epochs=1, schedule="cosine"))  # fmt: skip
    run(one, tmp_path / "one")
    rounds = run(Plan(**{**one.__dict__, "fits": 3, "examples_from": str(tmp_path / "one")}), tmp_path / "three")
    out = tmp_path / "three"
    nets = [load_net(str(out / f"round-01-fit-{j}.npz")).arrays() for j in (1, 2, 3)]
    # Fit 1 is the one-fit run's network (the same seed); the others differ from it.
    single = load_net(str(tmp_path / "one" / "round-01.npz")).arrays()
    assert all(np.array_equal(nets[0][k], single[k]) for k in single)
    assert not np.array_equal(nets[1]["w0"], nets[0]["w0"]) and not np.array_equal(nets[2]["w0"], nets[1]["w0"])
    made = json.loads((out / "round-01.json").read_text())
    scores = [sum(f["win_rates"].values()) for f in made["fits"]]
    assert made["fit"] == scores.index(max(scores)) + 1 == rounds[-1].fit
    assert [f["seed"] for f in made["fits"]] == [1, 1010, 2019]  # seed 0, round 1
    assert made["fit_seed"] == made["fits"][made["fit"] - 1]["seed"]
    kept = load_net(str(out / "round-01.npz")).arrays()
    assert all(np.array_equal(kept[k], nets[made["fit"] - 1][k]) for k in kept)
    assert [dict(f) for f in rounds[-1].fits] == [f["win_rates"] for f in made["fits"]]
    # They were chosen on deals of their own, not those the round is measured on.
    assert (out / "arena-01-fit-1-2p").is_dir() and (out / "arena-01-2p").is_dir()
    assert json.loads((out / "arena-01-fit-1-2p" / "arena.json").read_text())["seed"] != one.seed
    with pytest.raises(ValueError, match="--fits"):
        run(Plan(**{**one.__dict__, "fits": 0}), tmp_path / "none")


def test_the_fit_kept_is_the_one_that_won_most_and_the_round_reports_its_losses(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    pytest.importorskip("torch")
    from goldfields.learn import loop
    from goldfields.learn.loop import Plan, run
    from goldfields.learn.trainer import Fit

    one = Plan(rounds=1, games=2, search=8, hidden=(16,), eval_games=2, tables=((2, False),), holdout=0,
               guide=False, jobs=1, fit=Fit(epochs=1))  # fmt: skip
    run(one, tmp_path / "one")
    real = loop._measure
    # Fit 2 wins on the deals the fits are chosen on; the round's own measure is left as it is.
    monkeypatch.setattr(loop, "_measure", lambda plan, net, players, partnership, out, seed=None: (
        (0.9 if "fit-2" in str(net) else 0.1) if seed is not None else real(plan, net, players, partnership, out)))
    rounds = run(Plan(**{**one.__dict__, "fits": 3, "examples_from": str(tmp_path / "one")}), tmp_path / "three")
    out = tmp_path / "three"
    made = json.loads((out / "round-01.json").read_text())
    assert made["fit"] == rounds[-1].fit == 2 and made["fit_seed"] == 1010
    kept, second = load_net(str(out / "round-01.npz")).arrays(), load_net(str(out / "round-01-fit-2.npz")).arrays()
    assert all(np.array_equal(kept[k], second[k]) for k in kept)
    own = json.loads((out / "round-01-fit-2.json").read_text())
    assert own["fit"] == 2 and own["fit_losses"] == made["fits"][1]["losses"]
    assert [rounds[-1].policy_loss, rounds[-1].value_loss] == made["fits"][1]["losses"]


def test_games_saved_without_their_sizes_are_split_where_a_new_game_begins(tmp_path: Path) -> None:
    from goldfields.learn.selfplay import Examples, SelfPlay

    games = [SelfPlay(p, p == 4, teacher="heuristic").game(seed) for seed, p in enumerate((4, 2, 2, 3))]
    joined = Examples.join(games)
    np.savez_compressed(tmp_path / "old.npz", x=joined.x, mask=joined.mask, policy=joined.policy,
                        value=joined.value, games=np.array(4))  # fmt: skip
    assert Examples.load(tmp_path / "old.npz").sizes == tuple(len(g) for g in games)


def _game_with_a_planted_blunder(seed: int) -> tuple[dict, tuple[int, int]]:
    """Two heuristic players; the first time seat 0 can close a rich mine of seat 1's (three chests or
    more), it does, banking the opponent's points for them instead of attacking the mine."""
    from goldfields.digging import new_game

    rng = random.Random(seed)
    state = new_game(2, False, rng=rng)
    bots = [make_bot("heuristic", "digging") for _ in range(2)]
    plant: tuple[int, int] | None = None
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
            continue
        seat = state.current_player
        action = bots[seat].act(state.view(seat), rng)
        if plant is None and seat == 0:
            for a in state.legal_actions():
                kind, _, target = A.DECODED[a]
                if kind == A.K_CLOSE and state.mines[target].owner == 1 and len(state.mines[target].chests) >= 3:
                    plant, action = (state.hand_no, len(state.logs[-1]["moves"])), a
                    break
        state.apply_action(action)
    assert plant is not None
    return state.record(), plant


def _frame_moves(record: dict) -> list[str | None]:
    from goldfields.core import registry

    return [move for _state, move, _events in registry.get("digging").walk(record)]


def test_analysis_finds_a_planted_blunder() -> None:
    from goldfields.bots.analysis import analyze

    record, plant = _game_with_a_planted_blunder(seed=0)
    decisions = analyze(record, seat=0, bot="ismcts:iterations=1000", seed=0)
    planted = next(d for d in decisions if (d.hand, d.move) == plant)
    assert planted.played.startswith("play X") and planted.best != planted.played
    assert planted.drop >= 0.15
    costliest = sorted(decisions, key=lambda d: -d.drop)[:3]
    assert planted in costliest
    # Only seat 0's own decisions with a choice are judged, each at the replay viewer's step.
    assert all(d.choices >= 2 for d in decisions)
    assert _frame_moves(record)[planted.step] == planted.played


def test_analysis_finds_the_planted_blunder_in_game_after_game() -> None:
    """Not one lucky deal: over eight more games, the strong bot never plays the planted close
    itself, and it finds it costly (a drop of 0.1 or more) in most. A close can be cheap where
    the mine was lost anyway, so not in every one."""
    from goldfields.bots.analysis import decision, decisions, judge, searcher_for
    from goldfields.core import registry

    digging = registry.get("digging")
    searcher = searcher_for("ismcts:iterations=1000", "digging")
    drops = []
    for seed in range(1, 9):
        record, plant = _game_with_a_planted_blunder(seed)
        pos = next(p for p in decisions(digging, record, 0) if (p.hand, p.move) == plant)
        judged = decision(pos, judge(searcher, pos.view, pos.played, random.Random(seed), searcher.budget()))
        assert judged.played.startswith("play X") and judged.best != judged.played, seed
        drops.append(judged.drop)
    assert sum(d >= 0.1 for d in drops) >= 6, drops


def test_analysis_searches_a_stalling_pass_it_was_shown() -> None:
    """The search leaves out a pass after a whole round of them (it would stall the hand); when a
    player made one, analysis still values it from its own results, not the position's mean."""
    from goldfields.bots import Budget
    from goldfields.bots.analysis import SHRINK, judge, searcher_for
    from goldfields.bots.digging_search import without_stalling
    from goldfields.digging import new_game

    state = new_game(4, True, rng=random.Random(1))
    for _ in range(4):
        state.apply_action(next(a for a in state.legal_actions() if A.action_to_string(a).startswith("pass")))
    view = state.view(state.current_player)
    legal = view.legal_actions()
    stall = next(a for a in legal if a not in without_stalling(view.data, legal))
    searcher = searcher_for("ismcts:iterations=600", "digging")
    root = searcher.search(view, random.Random(0), Budget(iterations=600), also=(stall,))
    node = root.children[stall]
    assert node.n > 0
    mean = sum(ch.w for ch in root.children.values()) / sum(ch.n for ch in root.children.values())
    j = judge(searcher, view, stall, random.Random(0), Budget(iterations=600))  # the same search
    assert j.played_win == pytest.approx((node.w + SHRINK * mean) / (node.n + SHRINK))
    assert j.best in without_stalling(view.data, legal)  # the bot's choice stays among its own moves


def test_analysis_sees_each_decision_through_the_seats_eyes_only() -> None:
    """The judge gets what a bot gets in play: the seat's view then, never the record's hidden cards."""
    from goldfields.bots.analysis import decisions
    from goldfields.core import registry
    from goldfields.core.game import SeatView

    record, _ = _game_with_a_planted_blunder(seed=1)
    definition = registry.get("digging")
    walked = [(state.clone(), move) for state, move, _ in definition.walk(record)]
    found = list(decisions(definition, record, seat=1))
    assert found and all(isinstance(p.view, SeatView) and p.view.seat == 1 for p in found)
    for p in found:
        before, _ = walked[p.step - 1]
        assert p.view.data == before.observation(1)  # no more than seat 1 saw
        assert before.observation(1).get("hand") is not None and "hands" not in p.view.data
        assert p.text == walked[p.step][1] and p.view.action_to_string(p.played) == p.text


def test_the_analyze_command_prints_and_writes_json(tmp_path: Path) -> None:

    from typer.testing import CliRunner

    from goldfields.cli.app import app

    record, plant = _game_with_a_planted_blunder(seed=0)
    game = tmp_path / "game.json"
    game.write_text(json.dumps(record))
    out = tmp_path / "analysis.json"
    result = CliRunner(env={"COLUMNS": "120"}).invoke(
        app, ["analyze", str(game), "--seat", "0", "--bot", "ismcts:iterations=200", "--json", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "bot's choice" in result.output
    # Drops are counted, never summed into a "chance" of over 100 points.
    assert re.search(r"\d+ cost an estimated 10 points of winning chance or more", " ".join(result.output.split()))
    saved = json.loads(out.read_text())
    assert saved["seat"] == 0 and any((d["hand"], d["move"]) == plant for d in saved["decisions"])
    # The table counts hands and moves from 1; the JSON keeps the indices from 0.
    rows = [line.replace("│", " ").split() for line in result.output.splitlines()]
    assert [str(plant[0] + 1), str(plant[1] + 1)] in [row[:2] for row in rows], result.output
    bad = CliRunner().invoke(app, ["analyze", str(game), "--seat", "5"])
    assert bad.exit_code == 2 and "--seat: the game in" in bad.output and "has seats 0 to 1, not" in bad.output
    digger = tmp_path / "digger.json"
    digger.write_text(json.dumps({"game": "digger", "moves": []}))
    bad = CliRunner().invoke(app, ["analyze", str(digger)])
    assert bad.exit_code == 2 and "not a Digging record" in bad.output


def test_the_lobby_offers_net_only_once_a_network_ships() -> None:
    from goldfields.bots.registry import available_bots, known_bots

    assert "net" in known_bots("digging")
    try:
        load_net("default")
    except ValueError:
        assert "net" not in available_bots("digging")
    else:
        assert "net" in available_bots("digging")
    assert {"random", "heuristic", "ismcts"} <= set(available_bots("digging"))


def test_the_train_command_refuses_bad_tables_and_records_how_it_ran(tmp_path: Path) -> None:
    pytest.importorskip("torch")

    from typer.testing import CliRunner

    from goldfields.cli.app import app

    bad = CliRunner().invoke(app, ["train", "--tables", "5p", "--out", str(tmp_path / "x")])
    assert bad.exit_code == 2 and "unknown table '5p'" in bad.output
    assert not (tmp_path / "x").exists()
    for option, extra in (("--opponent", []), ("--warmup-teacher", []), ("--dagger-opponent", ["--dagger", "4"])):
        bad = CliRunner().invoke(app, ["train", option, "heuristc", *extra, "--out", str(tmp_path / "x")])
        assert bad.exit_code == 2 and f"{option}: " in bad.output and "heuristc" in bad.output, bad.output
        assert not (tmp_path / "x").exists()
    bad = CliRunner().invoke(app, ["train", "--dagger-opponent", "random", "--out", str(tmp_path / "x")])
    assert bad.exit_code == 2 and "--dagger N" in " ".join(bad.output.split()) and not (tmp_path / "x").exists()
    bad = CliRunner().invoke(app, ["train", "--lr-schedule", "linear", "--out", str(tmp_path / "x")])
    assert bad.exit_code == 2 and "cosine" in bad.output and not (tmp_path / "x").exists()
    # -n is the players in every command that plays a game: train, whose tables are --tables, says so.
    bad = CliRunner().invoke(app, ["train", "-n", "4", "--out", str(tmp_path / "x")])
    assert bad.exit_code == 2 and "the games of a round are --games/-g" in " ".join(bad.output.split())
    assert not (tmp_path / "x").exists()
    for option in ("--dagger-passes", "--dagger-search"):
        bad = CliRunner().invoke(app, ["train", option, "2", "--out", str(tmp_path / "x")])
        assert bad.exit_code == 2 and "--dagger N" in " ".join(bad.output.split()) and not (tmp_path / "x").exists()
    # A starting network that is not one: said plainly, and the folder is not claimed by a train.json.
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    (tmp_path / "notes.json").write_text("{}")
    for init, said in (("junk.npz", "is not a network written by goldfields train"),
                       ("notes.json", "is not a network: a network file ends in .npz")):  # fmt: skip
        bad = CliRunner().invoke(app, ["train", "--init", str(tmp_path / init), "--out", str(tmp_path / "x")])
        assert bad.exit_code == 2 and said in " ".join(bad.output.split()), bad.output
        assert not (tmp_path / "x" / "train.json").exists()
    for where in ("/proc/run", str(tmp_path / "junk.npz" / "run")):  # no folder can be made there
        bad = CliRunner().invoke(app, ["train", "--games", "1", "--warmup", "1", "--out", where])
        assert bad.exit_code == 2 and "cannot write the run's files" in bad.output, bad.output
        assert bad.exception is None or isinstance(bad.exception, SystemExit)
    out = tmp_path / "run"
    args = ["train", "--rounds", "1", "--games", "1", "--search", "8", "--hidden", " 8", "--eval-games", "2",
            "--tables", "2p, 2p", "--jobs", "1", "--seed", "5", "--out", str(out)]  # fmt: skip
    result = CliRunner(env={"COLUMNS": "160"}).invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "round 0 (untrained)" in result.output and "round 1:" in result.output
    # The bar itself says how fast games come and how the last round went.
    bar = next(line for line in reversed(result.output.splitlines()) if line.startswith("games"))
    assert re.search(r"\d+\.\d\d games/s", bar) and "round 1, loss " in bar and "vs heuristic " in bar, bar
    made = json.loads((out / "round-01.json").read_text())
    assert made["plan"]["seed"] == 5 and made["plan"]["tables"] == [[2, False], [2, False]]
    # Which code made it: a digest of the rules, bots, encoding and training code.
    from goldfields.arena.provenance import code_version

    assert made["code"] == code_version("digging", also=("learn",))["code"] != code_version("digging")["code"]
    assert "examples_code" not in made
    assert "--seed 5" in made["command"] and made["round"] == 1
    # The command is one that runs again, the sizes and tables written without their spaces.
    assert "--hidden 8 " in made["command"] and "--tables 2p,2p " in made["command"]
    # The same folder again, without reading it: refused, and its network and games are untouched.
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    again = CliRunner(env={"COLUMNS": "160"}).invoke(app, [*args, "--seed", "6"])
    assert again.exit_code == 2 and f"--examples-from {out}" in " ".join(again.output.split()), again.output
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before
    going_on = CliRunner(env={"COLUMNS": "160"}).invoke(app, [*args, "--examples-from", str(out)])
    assert going_on.exit_code == 0, going_on.output  # going on is allowed
    assert json.loads((out / "round-01.json").read_text())["examples_code"] == made["code"]
    # Every game was read, none played, none held out: the round says so in words, not nan.
    assert "games read" in going_on.output and "no games held out" in going_on.output, going_on.output
    assert "nan" not in going_on.output, going_on.output


@pytest.mark.parametrize("name", ["default", "selfplay"])
def test_each_shipped_network_says_how_it_was_made_and_plays_every_table(name: str) -> None:
    from importlib import resources

    from goldfields.bots.net import shipped_networks

    assert name in shipped_networks()
    npz = resources.files("goldfields.bots") / "models" / f"digging-{name}.npz"
    assert npz.stat().st_size < 4_000_000  # a few MB at most, inside the package
    net = load_net(name)
    assert net.inputs == INPUTS
    assert net.meta["command"].startswith("goldfields train ") and "--seed 1" in net.meta["command"]
    assert net.meta["plan"]["seed"] == 1 and net.meta["trained"] and net.meta["curve"]["round 1"]
    # selfplay is the default's recipe without its DAgger games.
    assert ("--dagger " in net.meta["command"]) == (name == "default")
    for spec in ("net:net={}", "ismcts:iterations=30,net={}"):
        bot = make_bot(spec.format(name), "digging", trusted=False)  # what the server may build
        for players, partnership in ((2, False), (3, False), (4, True)):
            from goldfields.digging import new_game

            state = new_game(players, partnership, rng=random.Random(players))
            assert bot.act(state.view(state.current_player), random.Random(0)) in state.legal_actions()


def test_a_network_is_refused_for_a_game_it_was_not_trained_for_and_leaf_net_needs_one() -> None:
    with pytest.raises(BotSpecError, match="digging only, not digger"):
        make_bot("ismcts:net=default", "digger")
    with pytest.raises(BotSpecError, match="does not play digger"):
        make_bot("net", "digger")
    with pytest.raises(BotSpecError, match="leaf=net needs a network"):
        make_bot("ismcts:leaf=net", "digging")
    with pytest.raises(BotSpecError, match="prior=own needs a network"):
        make_bot("ismcts:prior=own", "digging")
    assert make_bot("ismcts:net=default", "digging").spec() == "ismcts:net=default"
