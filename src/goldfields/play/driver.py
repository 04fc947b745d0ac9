"""The one game driver: chance, bots, time and a per-step callback, for every game.

Everything that plays a game to its end goes through :class:`Driver` (the
arena, the demo, the terminal, the research adapters, Digger simulations; the
server keeps a loop of its own, for its tables wait on people): it draws chance
outcomes with the caller's generator, asks each seat's bot for its decision
through that seat's view only, stamps timed games with a clock, and reports
every step to an optional callback.

Chance (the shuffled deck, the dice) is drawn only from ``chance_rng``, and
each bot draws only from its own generator. Keeping the two apart is what
makes duplicate deals work: replaying a deal with the seats swapped gives the
same decks and dice whatever the bots do differently, as long as the game
draws the same chance events in the same order.

Games that need time (Digger) get it from a clock (``clock.stamp(state,
action, rng)``, see :mod:`goldfields.clocks`), called before each bot's
decision is applied: by default the game's simulated clock. It receives a
generator of its own (derived from ``chance_rng``), so a jittered clock is
replayable too. A human's move arrives with its time already stamped by a
real clock (:meth:`Driver.apply` with ``at``).

A game whose chance events come one by one (Digger's rolls) pairs up badly
across duplicate deals: a bot that rolls once more shifts every later roll of
the game onto another turn. ``chance_key(state)`` names the stream a chance
node draws from (Digger: the turn number); each new key starts a generator of
its own, seeded from ``chance_rng`` and the key, so the k-th roll of turn t is
the same whatever happened on earlier turns. The clock's jitter is keyed the
same way, from a stream of its own per key: the k-th decision of turn t takes
the same jitter in every rotation, so the rotations of a deal meet the same
luck of the hourglass as well as the same dice.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..bots.base import Bot, BotError, Budget
from ..core.definition import Stamper
from ..core.game import Event, GameState, RuleError
from ..core.registry import game_of

ChanceKey = Callable[[GameState], object]
"""``chance_key(state) -> key``: which chance stream a chance node draws from."""

StepHook = Callable[[GameState, int | None, list[Event]], None]
"""``on_step(state, action, events)`` after every step; ``action`` is None for chance."""

_NO_STREAM = object()


class _GameClock:
    pass


DEFAULT_CLOCK = _GameClock()
"""Passed as ``clock``: the game's simulated clock (none for an untimed game)."""


class Driver:
    """Drives one game: chance from ``chance_rng``, decisions from ``bots``, times from ``clock``.

    ``bots[s]`` plays seat ``s`` and draws from ``bot_rngs[s]`` (default: one
    generator per seat seeded from ``chance_rng`` before anything else is
    drawn). A seat whose bot is ``None`` is a human's: :meth:`step` stops
    there, and the caller applies the human's move with :meth:`apply`.
    """

    def __init__(
        self,
        state: GameState,
        bots: Sequence[Bot | None],
        chance_rng: random.Random,
        bot_rngs: Sequence[random.Random] | None = None,
        *,
        clock: Stamper | _GameClock | None = DEFAULT_CLOCK,
        chance_key: ChanceKey | None = None,
        on_step: StepHook | None = None,
    ) -> None:
        n = state.num_players
        if len(bots) != n:
            raise ValueError(f"{state.game_name} for {n} players needs {n} bots (None for a human), got {len(bots)}")
        self.state = state
        self.bots = list(bots)
        self.chance_rng = chance_rng
        self.clock = game_of(state).simulated_clock() if isinstance(clock, _GameClock) else clock
        self.chance_key = chance_key
        self.on_step = on_step
        # Seeds for the helpers' generators are drawn first, so the chance stream
        # that follows is the same whatever is passed in.
        self.stamp_rng = random.Random(chance_rng.getrandbits(64))
        if bot_rngs is None:
            bot_rngs = [random.Random(chance_rng.getrandbits(64)) for _ in range(n)]
        self.bot_rngs = list(bot_rngs)
        # Drawn last, so that games without streams keep the chance sequence they always had.
        self._stream_base = chance_rng.getrandbits(64) if chance_key is not None else 0
        # One generator per key, kept for the game: a game may go back to a stream it left (a
        # turn's dice after its knock), and must go on where that stream stopped.
        self._streams: dict[object, random.Random] = {}
        self._stamp_key: object = _NO_STREAM
        self._stamp_stream = self.stamp_rng
        self.steps = 0

    # -- one step at a time -------------------------------------------------
    def human_to_move(self) -> bool:
        """A human's decision is due: the caller applies it with :meth:`apply`."""
        state = self.state
        return not state.is_terminal() and not state.is_chance_node() and self.bots[state.current_player] is None

    def chance(self) -> list[Event]:
        """Draw and apply the chance outcome now due."""
        state = self.state
        rng = self.chance_rng
        if self.chance_key is not None:
            key = self.chance_key(state)
            stream = self._streams.get(key)
            if stream is None:
                stream = self._streams[key] = random.Random(f"{self._stream_base}/{key}")
            rng = stream
        events = state.apply_chance(state.sample_chance(rng))
        self._stepped(None, events)
        return events

    def decide(self) -> int:
        """The decision of the bot whose seat is to move (not applied)."""
        seat = self.state.current_player
        bot = self.bots[seat]
        if bot is None:
            raise BotError(f"seat {seat} is a human's: no bot decides for it")
        return bot_decision(bot, self.state, seat, self.bot_rngs[seat])

    def stamp(self, action: int) -> float | None:
        """The clock's time for ``action`` in the current state (``None`` for an untimed game)."""
        if self.clock is None:
            return None
        rng = self.stamp_rng
        if self.chance_key is not None:
            key = self.chance_key(self.state)
            if key != self._stamp_key:
                self._stamp_key, self._stamp_stream = key, random.Random(f"{self._stream_base}/clock/{key}")
            rng = self._stamp_stream
        return self.clock.stamp(self.state, action, rng)

    def apply(self, action: int, at: float | None = None) -> list[Event]:
        """Apply a decision at time ``at`` (stamped by the clock when not given). A refused
        decision raises :class:`RuleError` and leaves the game as it was, the clock's generator too."""
        if at is None:
            if self.clock is not None and action not in self.state.legal_actions():
                # Refused on a copy before the stamp draws its jitter: a refused move that moved the
                # generator would change every later time, and the same seed would give another game.
                # (The clock's own actions, which no seat chooses, pass this.)
                self.state.clone().apply_action(action)
            at = self.stamp(action)
        events = self.state.apply_action(action, at=at)
        self._stepped(action, events)
        return events

    def step(self) -> list[Event] | None:
        """One step: a chance outcome or a bot's decision. ``None`` when a human is to move or the game is over."""
        state = self.state
        if state.is_terminal():
            return None
        if state.is_chance_node():
            return self.chance()
        seat = state.current_player
        bot = self.bots[seat]
        if bot is None:
            return None
        action = self.decide()
        try:
            return self.apply(action)
        except RuleError as err:
            raise BotError(f"bot {bot.spec()} at seat {seat} chose an illegal action {action!r}: {err}") from err

    def run(self, max_steps: int | None = None) -> GameState:
        """Play on until the game ends or a human is to move; returns the state."""
        while self.step() is not None:
            if max_steps is not None and self.steps >= max_steps and not self.state.is_terminal():
                raise RuntimeError(f"game did not end within {max_steps} steps")
        return self.state

    def _stepped(self, action: int | None, events: list[Event]) -> None:
        self.steps += 1
        if self.on_step is not None:
            self.on_step(self.state, action, events)


def bot_decision(bot: Bot, state: GameState, seat: int, rng: random.Random, budget: Budget | None = None) -> int:
    """What ``bot`` plays for ``seat``, given only that seat's view: the one way every
    driver of a game (this module's, the server's) asks a bot."""
    return bot.act(state.view(seat), rng, budget)


def play_game(
    new_state: Callable[[], GameState],
    bots: Sequence[Bot],
    chance_rng: random.Random,
    bot_rngs: Sequence[random.Random] | None = None,
    *,
    clock: Stamper | _GameClock | None = DEFAULT_CLOCK,
    chance_key: ChanceKey | None = None,
    on_step: StepHook | None = None,
    max_steps: int | None = None,
) -> GameState:
    """Play a game of bots from ``new_state()`` to the end and return the final state
    (whose ``record()`` is the game record). See :class:`Driver`."""
    driver = Driver(new_state(), bots, chance_rng, bot_rngs, clock=clock, chance_key=chance_key, on_step=on_step)
    return driver.run(max_steps)
