"""Play one game to its end: a state factory, a bot per seat, and the random generators.

Chance (the shuffled deck, the dice) is drawn only from ``chance_rng``, and
each bot draws only from its own generator. Keeping the two apart is what
makes duplicate deals work: replaying a deal with the seats swapped gives the
same decks and dice whatever the bots do differently, as long as the game
draws the same chance events in the same order.

Games that need time (Digger) get it from ``stamp(state, action, rng)``,
called before each decision is applied; its result goes to
``apply_action(action, at=...)``. It receives a generator of its own (derived
from ``chance_rng``), so a stochastic time model is replayable too.

A game whose chance events come one by one (Digger's rolls) pairs up badly
across duplicate deals: a bot that rolls once more shifts every later roll of
the game onto another turn. ``chance_key(state)`` names the stream a chance
node draws from (Digger: the turn number); each new key starts a generator of
its own, seeded from ``chance_rng`` and the key, so the k-th roll of turn t is
the same whatever happened on earlier turns.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..bots.base import Bot, BotError
from ..core.game import Event, GameState, RuleError

Stamp = Callable[[GameState, int, random.Random], float | None]
"""``stamp(state, action, rng) -> seconds``: the simulated time of a decision, or None."""

ChanceKey = Callable[[GameState], object]
"""``chance_key(state) -> key``: which chance stream a chance node draws from."""

_NO_STREAM = object()

StepHook = Callable[[GameState, int | None, list[Event]], None]
"""``on_step(state, action, events)`` after every step; ``action`` is None for chance."""


def play_game(
    new_state: Callable[[], GameState],
    bots: Sequence[Bot],
    chance_rng: random.Random,
    bot_rngs: Sequence[random.Random] | None = None,
    *,
    stamp: Stamp | None = None,
    chance_key: ChanceKey | None = None,
    on_step: StepHook | None = None,
    max_steps: int | None = None,
) -> GameState:
    """Play a game from ``new_state()`` to the end and return the final state.

    ``bots[s]`` plays seat ``s`` and draws from ``bot_rngs[s]`` (default: one
    generator per seat seeded from ``chance_rng`` before anything else is
    drawn). The final state's ``record()`` is the game record.
    """
    state = new_state()
    n = state.num_players
    if len(bots) != n:
        raise ValueError(f"{state.game_name} for {n} players needs {n} bots, got {len(bots)}")
    # Seeds for the helpers' generators are drawn first, so the chance stream
    # that follows is the same whatever is passed in.
    stamp_rng = random.Random(chance_rng.getrandbits(64))
    if bot_rngs is None:
        bot_rngs = [random.Random(chance_rng.getrandbits(64)) for _ in range(n)]
    # Drawn last, so that games without streams keep the chance sequence they always had.
    stream_base = chance_rng.getrandbits(64) if chance_key is not None else 0
    stream_key: object = _NO_STREAM
    stream_rng = chance_rng
    steps = 0
    while not state.is_terminal():
        if max_steps is not None and steps >= max_steps:
            raise RuntimeError(f"game did not end within {max_steps} steps")
        steps += 1
        if state.is_chance_node():
            if chance_key is not None:
                key = chance_key(state)
                if key != stream_key:
                    stream_key, stream_rng = key, random.Random(f"{stream_base}/{key}")
            events = state.apply_chance(state.sample_chance(stream_rng))
            if on_step is not None:
                on_step(state, None, events)
            continue
        seat = state.current_player
        bot = bots[seat]
        action = bot.act(state.view(seat), bot_rngs[seat])
        at = stamp(state, action, stamp_rng) if stamp is not None else None
        try:
            events = state.apply_action(action, at=at)
        except RuleError as err:
            raise BotError(f"bot {bot.spec()} at seat {seat} chose an illegal action {action!r}: {err}") from err
        if on_step is not None:
            on_step(state, action, events)
    return state
