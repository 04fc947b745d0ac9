"""A small policy and value network for Digging, run with numpy alone, and the ``net`` bot.

The network reads the seat's observation through the research encoding
(:mod:`goldfields.research.encoding`), so it sees exactly what the seat may
know. It is a multi-layer perceptron with two heads:

- **policy**: a logit per action, in the seat's *relative* action space
  (an ``open`` action names the display's seat counted from the mover, so
  that every seat plays with the same weights);
- **value**: per relative seat, the probability that seat ends the game a
  winner (the team's result in the partnership game), i.e. the expectation of
  ``state.returns()``.

Weights are trained with PyTorch (:mod:`goldfields.learn`) and shipped as a
``.npz`` file with a ``.json`` beside it that records how they were made;
inference needs no PyTorch. ``load_net("default")`` reads the shipped model.
"""

from __future__ import annotations

import io
import json
import random
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from ..core.game import GameState, SeatView
from ..digging import actions as A
from ..digging.definition import DIGGING
from ..files import write_atomic
from .base import Bot, Budget, legal_actions_of, networks, param
from .digging_search import without_stalling

GAME = DIGGING.name
"""The network plays Digging: its inputs are Digging's encoding, its outputs Digging's actions."""
SEATS = 4
"""Relative seats in the value head (Digging has at most four)."""


def relative_action(action: int, seat: int, players: int) -> int:
    """The action as ``seat`` sees it: an ``open`` names its display by distance from ``seat``."""
    if A.OPEN_BASE <= action < A.CHEST_BASE:
        code, target = divmod(action - A.OPEN_BASE, 4)
        return A.OPEN_BASE + code * 4 + (target - seat) % players
    return action


@dataclass(frozen=True)
class PolicyValueNet:
    """The network's weights: hidden layers ``(W, b)`` with ReLU, then the two heads."""

    hidden: tuple[tuple[np.ndarray, np.ndarray], ...]
    policy: tuple[np.ndarray, np.ndarray]
    value: tuple[np.ndarray, np.ndarray]
    meta: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray], meta: Mapping[str, Any] | None = None) -> PolicyValueNet:
        layers = []
        i = 0
        while f"w{i}" in arrays:
            layers.append((arrays[f"w{i}"].astype(np.float32), arrays[f"b{i}"].astype(np.float32)))
            i += 1
        return cls(
            tuple(layers),
            (arrays["wp"].astype(np.float32), arrays["bp"].astype(np.float32)),
            (arrays["wv"].astype(np.float32), arrays["bv"].astype(np.float32)),
            dict(meta or {}),
        )

    def arrays(self) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        for i, (w, b) in enumerate(self.hidden):
            out[f"w{i}"], out[f"b{i}"] = w, b
        out["wp"], out["bp"] = self.policy
        out["wv"], out["bv"] = self.value
        return out

    @property
    def inputs(self) -> int:
        return int(self.hidden[0][0].shape[0])

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Policy logits ``(batch, actions)`` and win probabilities ``(batch, seats)`` for encoded inputs."""
        h = x
        for w, b in self.hidden:
            h = np.maximum(h @ w + b, 0.0)
        logits = h @ self.policy[0] + self.policy[1]
        value = _sigmoid(h @ self.value[0] + self.value[1])
        return logits, value

    def forward_one(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`forward` for one input row ``x`` of shape ``(1, inputs)``: the two heads share one
        product, which is what a search calls thousands of times a move."""
        h = x
        for w, b in self.hidden:
            h = np.maximum(h @ w + b, 0.0)
        out = (h @ self._heads[0] + self._heads[1])[0]
        actions = self.policy[1].shape[0]
        return out[:actions], _sigmoid(out[actions:])

    @cached_property
    def _heads(self) -> tuple[np.ndarray, np.ndarray]:
        return (np.concatenate([self.policy[0], self.value[0]], axis=1),
                np.concatenate([self.policy[1], self.value[1]]))  # fmt: skip

    def save(self, path: Path) -> None:
        """Write ``path`` (``.npz``) and its description beside it (``.json``), each whole at once:
        a bot that plays the file while it is rewritten reads the old network or the new one."""
        arrays = io.BytesIO()
        np.savez_compressed(arrays, **self.arrays())  # type: ignore[arg-type]
        write_atomic(path, arrays.getvalue())
        write_atomic(path.with_suffix(".json"), json.dumps(dict(self.meta), indent=2) + "\n")


def _sigmoid(x: np.ndarray) -> np.ndarray:
    # A network fitted too long can give value logits past float32's exp range (overflow warnings, in
    # every game it plays). Within +-80 this is the plain formula bit for bit; beyond, 0 or 1 anyway.
    return 1.0 / (1.0 + np.exp(-np.clip(x, -80.0, 80.0)))


def shipped_networks() -> tuple[str, ...]:
    """The names of the networks in the package's ``models`` folder."""
    shipped = resources.files("goldfields.bots") / "models"
    found = shipped.iterdir() if shipped.is_dir() else ()
    return tuple(sorted(p.name[len("digging-") : -len(".npz")] for p in found if p.name.endswith(".npz")))


def load_net(name: str) -> PolicyValueNet:
    """A shipped model by name (``default``) or a ``.npz`` file written by :meth:`PolicyValueNet.save`.

    A file is read again once it changes (a network retrained to the same path in one session)."""
    return _load(name, file_stamp(name))


def file_stamp(name: str) -> tuple[tuple[int, int], ...] | None:
    """When and how large a network file and its description are (None for a shipped name): the
    key under which a read of them is kept, so that a rewritten file is never played stale."""
    if not name.endswith(".npz"):
        return None
    stamps = []
    for path in (Path(name), Path(name[:-4] + ".json")):
        try:
            stat = path.stat()
        except OSError:
            stat = None
        stamps.append((stat.st_mtime_ns, stat.st_size) if stat else (0, -1))
    return tuple(stamps)


@lru_cache(maxsize=16)
def _load(name: str, stamp: tuple[tuple[int, int], ...] | None) -> PolicyValueNet:
    if name.endswith(".npz"):
        path = Path(name)
        if not path.is_file():
            raise ValueError(f"no network file {name}")
        meta_path = path.with_suffix(".json")
        try:
            # Never pickles: a network is arrays, and a pickle in a downloaded file runs code.
            with np.load(path, allow_pickle=False) as data:
                arrays = {k: data[k] for k in data.files}
            meta = json.loads(meta_path.read_text()) if meta_path.is_file() else {}
            return PolicyValueNet.from_arrays(arrays, meta)
        except (OSError, ValueError, KeyError, zipfile.BadZipFile) as err:
            raise ValueError(f"{name} is not a network written by goldfields train ({type(err).__name__}: "
                             f"{err})") from None
    if Path(name).is_file():
        raise ValueError(f"{name} is not a network: a network file ends in .npz (its description in .json "
                         "sits beside it)")
    shipped = resources.files("goldfields.bots") / "models"
    npz = shipped / f"digging-{name}.npz"
    if not npz.is_file():
        names = ", ".join(shipped_networks()) or "none"
        raise ValueError(f"no shipped network {name!r}; shipped: {names} (or a path to a .npz)")
    with resources.as_file(npz) as path, np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads((shipped / f"digging-{name}.json").read_text())
    return PolicyValueNet.from_arrays(arrays, meta)


class NetEvaluator:
    """Encodes observations and runs the network: what the bots and the search call."""

    def __init__(self, net: PolicyValueNet) -> None:
        from ..research.encoding import encoding_for  # the research extra's numpy encoding

        self.net = net
        self.encoding = encoding_for(GAME)
        if self.encoding.size != net.inputs:
            raise ValueError(
                f"the network reads {net.inputs} inputs but the Digging encoding has {self.encoding.size}: "
                "it was trained on another encoding; train it again"
            )
        self._x = np.zeros((1, net.inputs), dtype=np.float32)

    def evaluate(
        self, obs: Mapping[str, Any], seat: int, legal: Sequence[int], temperature: float = 1.0
    ) -> tuple[np.ndarray, np.ndarray]:
        """Prior probabilities over ``legal`` (in its order) and win probability per *absolute* seat.

        ``temperature`` below 1 sharpens the prior (the softmax of logits / temperature, which is
        prior^(1/temperature) normalised), above 1 flattens it."""
        self.encoding.encode(obs, self._x[0])
        return self._run(seat, int(obs["players"]), legal, temperature)

    def evaluate_state(
        self, state: GameState, legal: Sequence[int], temperature: float = 1.0
    ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`evaluate` for the player to move, encoded straight from the state (the search's own
        determinised states): the same vector as its observation, several times faster."""
        seat = state.current_player
        self.encoding.encode_state(state, seat, self._x[0])
        return self._run(seat, state.num_players, legal, temperature)

    def guess(
        self, state: GameState, observer: int, legal: Sequence[int], temperature: float = 1.0
    ) -> tuple[list[int], list[float]]:
        """An observer network's prior for the seat to move in ``state``, read from ``observer``'s view.

        Returns moves and their priors: ``legal`` (the moves of the state at hand, whose guessed
        hand is one of many), whose priors add up to 1, then every other move rated at least
        :data:`GUESS_FLOOR` on that scale. The other moves are those another guess of the hand
        may allow, so a node read once has a prior for the moves of every deal that reaches it.

        The network learnt which move a seat prefers among the moves it has, not how likely a
        hand is to allow a move: an other move's rating says how it would compare with this
        hand's moves, so it is capped at the best of them (a move no hand may prefer to every
        move of this one), which also keeps a sharpened prior finite."""
        self.encoding.encode_state(state, observer, self._x[0])
        logits, _ = self.net.forward_one(self._x)
        scores = logits.take(_relative_table(observer, state.num_players))  # by absolute action id
        np.minimum(scores - scores.take(legal).max(), 0.0, out=scores)
        rated = _sharpened(scores, temperature)
        rated /= rated.take(legal).sum()
        more = np.flatnonzero(rated >= GUESS_FLOOR).tolist()
        moves = list(dict.fromkeys([*legal, *more]))
        return moves, rated.take(moves).tolist()

    def _run(self, seat: int, players: int, legal: Sequence[int], temperature: float) -> tuple[np.ndarray, np.ndarray]:
        # One call per node of the search: a table lookup for the relative ids, and the
        # heads' small vectors as Python lists, cost less than numpy's per-call overheads.
        logits, value = self.net.forward_one(self._x)
        rel = _relative_table(seat, players).take(legal)
        chosen = logits.take(rel)
        chosen = _sharpened(chosen - chosen.max(), temperature)
        prior = chosen / chosen.sum()
        v = value.tolist()
        return prior, np.array([v[(s - seat) % players] for s in range(players)])


def _sharpened(shifted: np.ndarray, temperature: float) -> np.ndarray:
    """``exp(shifted / temperature)``, in place: the unnormalised prior of logits already shifted
    so that the largest that counts is 0 (no overflow, however sharp)."""
    if temperature != 1.0:
        shifted /= temperature
    return np.exp(shifted, out=shifted)


GUESS_FLOOR = 1e-3
"""The least prior of a move :meth:`NetEvaluator.guess` adds beyond the legal moves at hand."""

OBSERVER = "observer"
"""``meta["kind"]`` of an observer network (``scripts/train_observer.py``): it reads the seat to move
from another seat's view, so it guides only another seat's moves (``ismcts:others=``)."""


def kind(name: str) -> str:
    """``observer`` for an observer network, else ``policy`` (the seat to move's own)."""
    return str(evaluator(name).net.meta.get("kind", "policy"))


@cache
def _relative_table(seat: int, players: int) -> np.ndarray:
    """``relative_action(a, seat, players)`` for every action id, as one array."""
    return np.array([relative_action(a, seat, players) for a in range(A.NUM_ACTIONS)], dtype=np.intp)


def evaluator(name: str) -> NetEvaluator:
    """The evaluator of network ``name`` (see :func:`load_net`), made once per version of its file."""
    return _evaluator(name, file_stamp(name))


@lru_cache(maxsize=16)
def _evaluator(name: str, stamp: tuple[tuple[int, int], ...] | None) -> NetEvaluator:
    return NetEvaluator(_load(name, stamp))


@dataclass
class NetBot(Bot):
    """The policy network alone: the legal move it rates highest (or one drawn, with ``temperature``)."""

    name: ClassVar[str] = "net"
    quick: ClassVar[bool] = True
    net: str = param("default", choices=networks, files=True)
    """A shipped network's name, or the path of a ``.npz`` file."""
    temperature: float = param(0.0, 0.0, 100.0)
    """0 plays the best-rated move; above 0, moves are drawn with probability ~ prior^(1/temperature)."""

    def __post_init__(self) -> None:
        if not self.temperature >= 0.0 or self.temperature > 100.0:
            raise ValueError(f"temperature must be from 0 to 100, not {self.temperature}")
        if kind(self.net) == OBSERVER:  # also loads it: a bad network is an error now, not at the first move
            raise ValueError(f"net={self.net} is an observer network: it guesses another seat's moves, so it "
                             "guides a search (ismcts:others=...), not a seat's own play")

    def act(self, view: SeatView, rng: random.Random, budget: Budget | None = None) -> int:
        legal = without_stalling(view.data, legal_actions_of(view))
        if len(legal) == 1:
            return legal[0]
        # The evaluator tempers the logits, not the probabilities: prior ** (1 / T) underflows
        # to all zeros at small temperatures, and then no move could be drawn.
        net = evaluator(self.net)
        if self.temperature == 0.0:
            return legal[int(np.argmax(net.evaluate(view.data, view.seat, legal)[0]))]
        weights, _ = net.evaluate(view.data, view.seat, legal, self.temperature)
        return rng.choices(legal, weights=weights.tolist())[0]
