"""Self-play games as training examples: the search's visit shares as the policy target,
the game's result per seat as the value target.

Each decision of a game played by ISMCTS teachers (guided by the current
network once there is one) gives one example, from the deciding seat's view
only: its encoded observation, its legal moves, how the search shared its
visits among them, and, once the game is over, what each seat scored in
``state.returns()`` (a partnership's two seats share their team's result).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..bots.ismcts import ISMCTSBot
from ..bots.net import GAME, SEATS, relative_action
from ..bots.registry import make_bot
from ..core import registry
from ..core.game import GameState, SeatView
from ..digging.actions import NUM_ACTIONS

Decision = tuple[np.ndarray, list[int], Sequence[float], int, Sequence[float]]
"""One decision before it goes into arrays: the mover's encoded view, its legal moves as relative
ids, the policy target over them, the mover's seat, and the value target per absolute seat."""


@dataclass
class Examples:
    """A batch of decisions, as arrays ready for training, game after game."""

    x: np.ndarray  # (n, inputs) encoded observations
    mask: np.ndarray  # (n, actions) legal moves, relative action ids
    policy: np.ndarray  # (n, actions) visit shares; a row of zeros teaches the value alone
    value: np.ndarray  # (n, seats) result per relative seat
    sizes: tuple[int, ...] = ()
    """Decisions per game, in order (they add up to ``n``)."""

    @property
    def games(self) -> int:
        return len(self.sizes)

    @classmethod
    def join(cls, parts: list[Examples]) -> Examples:
        return cls(
            np.concatenate([p.x for p in parts]),
            np.concatenate([p.mask for p in parts]),
            np.concatenate([p.policy for p in parts]),
            np.concatenate([p.value for p in parts]),
            tuple(n for p in parts for n in p.sizes),
        )

    def split(self) -> list[Examples]:
        """One part per game."""
        out, at = [], 0
        for n in self.sizes:
            out.append(Examples(self.x[at : at + n], self.mask[at : at + n], self.policy[at : at + n],
                                self.value[at : at + n], (n,)))  # fmt: skip
            at += n
        return out

    @classmethod
    def of_game(cls, inputs: int, players: int, rows: list[Decision]) -> Examples:
        """One game's decisions as arrays; the value is stored per seat relative to the mover, as
        the network reads it."""
        n = len(rows)
        x = np.zeros((n, inputs), dtype=np.float32)
        mask = np.zeros((n, NUM_ACTIONS), dtype=np.float32)
        policy = np.zeros((n, NUM_ACTIONS), dtype=np.float32)
        value = np.zeros((n, SEATS), dtype=np.float32)
        for i, (vec, rel, shares, seat, values) in enumerate(rows):
            x[i] = vec
            mask[i, rel] = 1.0
            policy[i, rel] = shares
            for s in range(players):
                value[i, (s - seat) % players] = values[s]
        return cls(x, mask, policy, value, (n,))

    def values_only(self, count: int, seed: int) -> Examples:
        """Up to ``count`` decisions drawn at random, with no policy target: they teach the value alone."""
        rows = np.random.default_rng(seed).permutation(len(self))[:count]
        return Examples(self.x[rows], self.mask[rows], np.zeros_like(self.policy[rows]), self.value[rows],
                        (len(rows),))  # fmt: skip

    def __len__(self) -> int:
        return len(self.x)

    def save(self, path: Path) -> None:
        np.savez_compressed(path, x=self.x, mask=self.mask, policy=self.policy, value=self.value,
                            sizes=np.array(self.sizes, dtype=np.int64))  # fmt: skip

    @classmethod
    def load(cls, path: Path) -> Examples:
        with np.load(path) as d:
            x = d["x"]
            sizes = tuple(int(n) for n in d["sizes"]) if "sizes" in d.files else _game_sizes(x)
            return cls(x, d["mask"], d["policy"], d["value"], sizes)


def _game_sizes(x: np.ndarray) -> tuple[int, ...]:
    """Where one game ends and the next begins, for files saved without their sizes: the table
    changes, or the hand number goes down (it only grows within a game). Two games in a row at the
    same table, the first over within its first hand, would read as one."""
    from ..research.encoding import encoding_for

    cut = encoding_for(GAME).slices
    table = x[:, cut["players"]].argmax(1) * 2 + x[:, cut["partnership"]][:, 0]
    hand = x[:, cut["hand_no"]][:, 0]
    starts = [0] + [i for i in range(1, len(x)) if table[i] != table[i - 1] or hand[i] < hand[i - 1]]
    return tuple(b - a for a, b in zip(starts, [*starts[1:], len(x)], strict=True))


def decisions(state: GameState, rng: random.Random, limit: int, game: str) -> Iterator[tuple[int, SeatView, list[int]]]:
    """The decisions of a game played on from ``state`` to its end: the seat to move, its view and
    its legal moves, wherever it has a choice. The caller plays one of them before asking for the
    next; deals are drawn from ``rng`` and a lone legal move is played here.

    A game still going after ``limit`` decisions is an error that names it (``game``)."""
    made = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
            continue
        if made >= limit:
            raise RuntimeError(f"{game} is still going after {made} decisions: its bots are stalling it")
        seat = state.current_player
        view = state.view(seat)
        legal = view.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        made += 1
        yield seat, view, legal


@dataclass(frozen=True)
class SelfPlay:
    """How the teacher plays: ``iterations`` of ISMCTS a move, with the network ``net`` if given;
    or, with ``teacher``, a quick bot (``heuristic``) whose move is the policy target."""

    players: int = 4
    partnership: bool = True
    iterations: int = 300
    net: str | None = None
    explore_moves: int = 8
    """Each hand's first moves of a seat are drawn in proportion to the visits, for varied games."""
    teacher: str | None = None
    """A quick bot spec that labels every decision instead of the search (cheap games for a warm start)."""
    epsilon: float = 0.1
    """With a ``teacher``: the share of moves played at random (still labelled with the teacher's
    choice), so that the examples cover positions the teacher would not reach by itself."""
    learner: str | None = None
    """A network: with it the ``net`` bot plays side ``learner_side``, ``opponent`` plays every other
    side, and the search only labels their decisions (DAgger: the network learns in the positions
    its own play reaches, which self-play between searches does not visit)."""
    learner_side: int = 0
    opponent: str = "heuristic"
    max_decisions: int = 20_000
    """A game still going after this many decisions is an error, not hours of a stalled table
    (D2 lets partners pass for ever; games here take a few hundred)."""

    def game(self, seed: int) -> Examples:
        """One game, seeded by ``seed`` (deal and search alike)."""
        from ..research.encoding import encoding_for

        definition = registry.get(GAME)
        params = definition.params(players=self.players, partnership=self.partnership)
        rng = random.Random(seed)
        state = definition.new_state(params, rng)
        bot = ISMCTSBot(iterations=self.iterations, net=self.net)
        teacher = None if self.teacher is None else make_bot(self.teacher, GAME)
        if self.learner is not None:
            learner, opponent = make_bot(f"net:net={self.learner}", GAME), make_bot(self.opponent, GAME)
        encoding = encoding_for(GAME)
        rows: list[tuple[np.ndarray, list[int], list[float], int]] = []
        explored: Counter[tuple[int, int]] = Counter()  # moves drawn by visits, per (hand, seat)
        game = f"self-play game {seed} ({self.players} players)"
        for seat, view, legal in decisions(state, rng, self.max_decisions, game):
            rel = [relative_action(a, seat, self.players) for a in legal]
            if teacher is not None:
                label = teacher.act(view, rng)
                rows.append((encoding.encode(view.data), rel, [float(a == label) for a in legal], seat))
                action = legal[rng.randrange(len(legal))] if rng.random() < self.epsilon else label
                state.apply_action(action)
                continue
            root = bot.search(view, rng, bot.budget())
            visits = [root.children[a].n if a in root.children else 0 for a in legal]
            total = sum(visits)
            shares = [v / total for v in visits]
            rows.append((encoding.encode(view.data), rel, shares, seat))
            if self.learner is not None:
                mover = learner if definition.side_of(params, seat) == self.learner_side else opponent
                state.apply_action(mover.act(view, rng))
                continue
            hand = (view.data["hand_no"], seat)
            if explored[hand] < self.explore_moves:
                action = rng.choices(legal, weights=visits)[0]
            else:
                action = legal[max(range(len(legal)), key=lambda i: visits[i])]
            explored[hand] += 1
            state.apply_action(action)
        returns = state.returns()
        return Examples.of_game(encoding.size, self.players, [(*row, returns) for row in rows])
