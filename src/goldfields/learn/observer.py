"""Examples for an *observer* network: another seat's next move, predicted from what one seat knows.

A search guided by a network reads, at another seat's node, that seat's policy.
Its hand is hidden from the searching seat, so ``ismcts:deals=N`` reads the
network on up to N guessed hands and averages. An observer network is taught to
give that average in one reading, from the searching seat's own view: its
input is the observer's encoded observation (whose ``to_move`` names the seat
about to move), and its target is the teacher network's policy read on the
mover's own view (what the mover would be guided to play), over the mover's
legal moves. The loss is taken over those legal moves alone, so the network
learns which move the mover prefers among the moves it has, given what the
observer sees; not how likely its hand is to allow a move
(``NetEvaluator.guess`` reads it accordingly).

Each decision of a game gives one example per other seat. Action ids are
relative to the observer (the network's frame), and the value target is the
game's result per seat relative to the observer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from ..bots.net import GAME, evaluator, relative_action
from ..bots.registry import make_bot
from ..core import registry
from .selfplay import Decision, Examples, decisions


@dataclass(frozen=True)
class ObserverPlay:
    """How the games are played (``bot`` at every seat) and who labels them (the network ``teacher``)."""

    players: int = 4
    partnership: bool = True
    bot: str = "ismcts:iterations=300"
    teacher: str = "selfplay"
    max_decisions: int = 20_000
    """A game still going after this many decisions is an error (games take a few hundred)."""

    def game(self, seed: int) -> Examples:
        """One game, seeded by ``seed``: the deal, the chance draws and the bots' moves alike."""
        from ..research.encoding import encoding_for

        definition = registry.get(GAME)
        params = definition.params(players=self.players, partnership=self.partnership)
        rng = random.Random(seed)
        state = definition.new_state(params, rng)
        bots = [make_bot(self.bot, GAME) for _ in range(self.players)]
        bot_rngs = [random.Random(rng.getrandbits(64)) for _ in range(self.players)]
        teacher = evaluator(self.teacher)
        encoding = encoding_for(GAME)
        rows: list[tuple[np.ndarray, list[int], list[float], int]] = []
        game = f"observer game {seed} ({self.players} players)"
        for seat, view, legal in decisions(state, rng, self.max_decisions, game):
            target = teacher.evaluate(view.data, seat, legal)[0].tolist()
            for observer in range(self.players):
                if observer != seat:
                    x = encoding.encode_state(state, observer)
                    rows.append((x, [relative_action(a, observer, self.players) for a in legal], target, observer))
            state.apply_action(bots[seat].act(view, bot_rngs[seat]))
        returns = state.returns()
        decided: list[Decision] = [(*row, returns) for row in rows]
        return Examples.of_game(encoding.size, self.players, decided)
