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
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..bots.ismcts import ISMCTSBot
from ..bots.net import GAME, SEATS, relative_action
from ..core import registry
from ..digging.actions import NUM_ACTIONS


@dataclass
class Examples:
    """A batch of decisions, as arrays ready for training."""

    x: np.ndarray  # (n, inputs) encoded observations
    mask: np.ndarray  # (n, actions) legal moves, relative action ids
    policy: np.ndarray  # (n, actions) visit shares
    value: np.ndarray  # (n, seats) result per relative seat
    games: int = 0

    @classmethod
    def join(cls, parts: list[Examples]) -> Examples:
        return cls(
            np.concatenate([p.x for p in parts]),
            np.concatenate([p.mask for p in parts]),
            np.concatenate([p.policy for p in parts]),
            np.concatenate([p.value for p in parts]),
            sum(p.games for p in parts),
        )

    def __len__(self) -> int:
        return len(self.x)

    def save(self, path: Path) -> None:
        np.savez_compressed(path, x=self.x, mask=self.mask, policy=self.policy, value=self.value,
                            games=np.array(self.games))  # fmt: skip

    @classmethod
    def load(cls, path: Path) -> Examples:
        with np.load(path) as d:
            return cls(d["x"], d["mask"], d["policy"], d["value"], int(d["games"]))


@dataclass(frozen=True)
class SelfPlay:
    """How the teacher plays: ``iterations`` of ISMCTS a move, with the network ``net`` if given."""

    players: int = 4
    partnership: bool = True
    iterations: int = 300
    net: str | None = None
    explore_moves: int = 8
    """Each hand's first moves of a seat are drawn in proportion to the visits, for varied games."""

    def game(self, seed: int) -> Examples:
        """One game, seeded by ``seed`` (deal and search alike)."""
        from ..research.encoding import encoding_for

        definition = registry.get(GAME)
        params = definition.params(players=self.players, partnership=self.partnership)
        rng = random.Random(seed)
        state = definition.new_state(params, rng)
        bot = ISMCTSBot(iterations=self.iterations, net=self.net)
        encoding = encoding_for(GAME)
        rows: list[tuple[np.ndarray, list[int], list[float], int]] = []
        moves_in_hand = [0] * self.players
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(rng))
                moves_in_hand = [0] * self.players
                continue
            seat = state.current_player
            view = state.view(seat)
            legal = view.legal_actions()
            if len(legal) == 1:
                state.apply_action(legal[0])
                continue
            root = bot.search(view, rng, bot.budget())
            visits = [root.children[a].n if a in root.children else 0 for a in legal]
            total = sum(visits)
            shares = [v / total for v in visits]
            rows.append((encoding.encode(view.data), [relative_action(a, seat, self.players) for a in legal],
                         shares, seat))  # fmt: skip
            if moves_in_hand[seat] < self.explore_moves:
                action = rng.choices(legal, weights=visits)[0]
            else:
                action = legal[max(range(len(legal)), key=lambda i: visits[i])]
            moves_in_hand[seat] += 1
            state.apply_action(action)
        returns = state.returns()
        n = len(rows)
        x = np.zeros((n, encoding.size), dtype=np.float32)
        mask = np.zeros((n, NUM_ACTIONS), dtype=np.float32)
        policy = np.zeros((n, NUM_ACTIONS), dtype=np.float32)
        value = np.zeros((n, SEATS), dtype=np.float32)
        for i, (vec, rel, shares, seat) in enumerate(rows):
            x[i] = vec
            mask[i, rel] = 1.0
            policy[i, rel] = shares
            for s in range(self.players):
                value[i, (s - seat) % self.players] = returns[s]
        return Examples(x, mask, policy, value, games=1)
