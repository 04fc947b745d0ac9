"""Building Digger positions and checking invariants, shared by the Digger tests.

``position`` writes a game in progress the way a test reads it::

    state = position(players=3, crates={2: "YYR"}, box=2)

seat 2's crate then holds two yellow gems and a red one, two blue tokens are
out of the game, and the centre holds everything else; seat 0 is about to
start its turn. Such a position has no past: its record replays only on the
same position, not on a new game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from goldfields.clocks import TimeModel
from goldfields.core.game import RuleError
from goldfields.digger import DiggerOptions, DiggerState, new_game
from goldfields.digger.dice import COLOUR_OF, TOKEN_COLOURS, TOKENS_PER_COLOUR
from goldfields.play.simulate import simulate


def counts(letters: str) -> list[int]:
    """``"YYR"`` -> ``[0, 2, 1, 0, 0]`` (blue, yellow, red, green, white)."""
    out = [0] * len(TOKEN_COLOURS)
    for letter in letters:
        out[COLOUR_OF[letter]] += 1
    return out


def position(
    players: int = 3,
    crates: Mapping[int, str] | None = None,
    box: int = 0,
    digger: int = 0,
    options: DiggerOptions | None = None,
    crate_cards: Any = "white",
) -> DiggerState:
    """A game at the start of ``digger``'s turn, tokens placed as given, the rest in the centre."""
    data = new_game(players, crate_cards, options).to_json()
    tokens = [[0] * len(TOKEN_COLOURS) for _ in range(players)]
    for seat, letters in (crates or {}).items():
        assert "B" not in letters, "crates never hold blue tokens"
        tokens[seat] = counts(letters)
    centre = [TOKENS_PER_COLOUR - sum(crate[c] for crate in tokens) for c in TOKEN_COLOURS]
    centre[0] -= box
    data.update(crate_tokens=tokens, centre=centre, box=box, digger=digger, to_move=digger, turn=digger)
    return DiggerState.from_json(data)


def play_moves(state: DiggerState, *moves: str) -> DiggerState:
    for move in moves:
        state.apply_move(move)
    return state


def accounted(state: DiggerState) -> list[int]:
    """Tokens per colour over centre, crates, haul and box: always ten each."""
    return [
        state.centre[c] + sum(crate[c] for crate in state.crates) + state.haul[c] + (state.box if c == 0 else 0)
        for c in TOKEN_COLOURS
    ]


def random_game(
    seed: int,
    players: int = 3,
    model: TimeModel | None = None,
    options: DiggerOptions | None = None,
    max_turns: int | None = None,
) -> DiggerState:
    """A game played at random with the simulated clock (to its end, or for ``max_turns`` turns)."""
    state = new_game(players, options=options)
    return simulate(state, random.Random(seed), clock=model or TimeModel(jitter=0.3), max_turns=max_turns)


def rejected(state: DiggerState, rule: str, move: str | None = None, action: int | None = None, **kw: Any) -> str:
    """Apply an illegal move or action; check the rule named and that nothing changed. Returns the message."""
    before = state.to_json()
    legal_before = list(state.legal_actions())
    try:
        if move is not None:
            state.apply_move(move)
        else:
            assert action is not None
            state.apply_action(action, **kw)
    except RuleError as err:
        assert err.rule == rule, f"expected {rule}, got {err}"
        assert str(err).startswith(f"{rule}: ")
        assert state.to_json() == before
        assert state.legal_actions() == legal_before
        return str(err)
    raise AssertionError(f"{move or action} was accepted")
