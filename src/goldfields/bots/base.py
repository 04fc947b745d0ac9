"""What every bot is: a seat's view and a budget in, a legal action out.

A bot never receives a :class:`~goldfields.core.game.GameState`: only the
:class:`~goldfields.core.game.SeatView` of the seat it plays, so it cannot peek
at hidden cards or dice even by accident. Search bots reason about what they
cannot see by drawing determinisations with ``view.sample(rng)``.

Randomness and time are injected. The caller owns the ``random.Random`` a bot
draws from (so a game is reproducible from its seeds), and a budget in seconds
is measured with the budget's ``clock`` (so a test can hand in a fake clock
and get the same decisions on every machine). ``time.perf_counter`` is the
default here, in the bot layer; the engines never read a clock.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..core.game import SeatView

Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class Budget:
    """How much thinking a decision may take: iterations, seconds, or both (whichever ends first).

    With neither set a search bot uses its own default iteration count.
    """

    iterations: int | None = None
    seconds: float | None = None
    clock: Clock = field(default=time.perf_counter, compare=False)

    def __post_init__(self) -> None:
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"a budget needs at least 1 iteration, not {self.iterations}")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"a budget in seconds must be positive, not {self.seconds}")

    def stopper(self, default_iterations: int) -> Callable[[int], bool]:
        """A test ``done(iterations_so_far)`` for a search loop, started now."""
        limit = self.iterations
        if limit is None and self.seconds is None:
            limit = default_iterations
        if self.seconds is None:
            assert limit is not None
            return lambda i: i >= limit
        clock = self.clock
        deadline = clock() + self.seconds
        if limit is None:
            return lambda i: i > 0 and clock() >= deadline
        # At least one iteration always runs, so a search has something to return.
        return lambda i: i >= limit or (i > 0 and clock() >= deadline)


class Bot(ABC):
    """A player. Subclasses are dataclasses whose fields are the spec parameters
    (``ismcts:iterations=2000,c=0.7``); see :mod:`goldfields.bots.registry`."""

    name: ClassVar[str]
    """The registry name, as written in a bot spec."""
    quick: ClassVar[bool] = False
    """Decides in milliseconds, without searching: a server runs such bots in their own
    workers, so that they never wait behind a search."""
    DEFAULT_ITERATIONS: ClassVar[int | None] = None
    """A search bot's iterations when its spec sets neither ``iterations`` nor ``seconds``
    (the count it hands :meth:`Budget.stopper`)."""

    @abstractmethod
    def act(self, view: SeatView, rng: random.Random, budget: Budget | None = None) -> int:
        """A legal action for ``view.seat``, which must be the seat to move."""

    def check_game(self, game: str) -> None:  # noqa: B027 - a hook: most bots play any game they are listed for
        """Raise ``ValueError`` if this bot, as its parameters made it, cannot play ``game``
        (a network trained for another game, say): refused when the bot is built, not at its first move."""

    def spec(self) -> str:
        """The spec that rebuilds this bot (name and the parameters that differ from the defaults)."""
        params = parameters(type(self))
        parts = [f"{k}={getattr(self, k)}" for k, (_, d) in params.items() if getattr(self, k) != d]
        return self.name + (":" + ",".join(parts) if parts else "")


@dataclass(frozen=True, slots=True)
class Bounds:
    """The values a bot parameter may take: a numeric range, or a list of words.

    Every number must also be finite: a ``nan`` exploration constant or an ``inf``
    sample count would break a search the first time it ran, long after the table
    was accepted.
    """

    low: float | None = None
    high: float | None = None
    high_open: bool = False
    """The range stops just below ``high`` (a jitter below 1, say)."""
    choices: tuple[str, ...] | Callable[[], tuple[str, ...]] = ()
    """The words allowed, or a function that lists them (the shipped networks, say)."""
    files: bool = False
    """Besides ``choices``, a path to a file is allowed, where the caller trusts its user
    (the command line; never the server)."""

    def words(self) -> tuple[str, ...]:
        return self.choices() if callable(self.choices) else self.choices

    def check(self, value: Any, trusted: bool = True) -> str | None:
        """What is allowed, when ``value`` is out of bounds, else None. A file path passes only
        when ``trusted``."""
        if value is None or isinstance(value, bool):
            return None
        if isinstance(value, (int, float)):
            if not math.isfinite(value):
                return f"a finite number {self.describe()}"
            too_high = self.high is not None and (value >= self.high if self.high_open else value > self.high)
            if (self.low is not None and value < self.low) or too_high:
                return self.describe()
            return None
        listed = isinstance(value, str) and (self.choices or self.files) and value in self.words()
        if isinstance(value, str) and (self.choices or self.files) and not listed and not (self.files and trusted):
            return self.describe(trusted)
        return None

    def describe(self, trusted: bool = True) -> str:
        if self.choices or self.files:
            words = ", ".join(self.words()) or "none here"
            if self.files:
                return f"one of {words}" + (" or a file path" if trusted else " (file paths are not accepted here)")
            return f"one of {words}"
        low, high = _number(self.low), _number(self.high)
        if self.high is None:
            return f"at least {low}"
        if self.low is None:
            return f"at most {high}"
        return f"from {low} to {high}" + (" (not included)" if self.high_open else "")


def _number(x: float | None) -> str:
    return f"{x:g}" if isinstance(x, float) else f"{x:,}".replace(",", "_") if isinstance(x, int) else str(x)


def param(
    default: Any,
    low: float | None = None,
    high: float | None = None,
    *,
    high_open: bool = False,
    choices: tuple[str, ...] | Callable[[], tuple[str, ...]] = (),
    files: bool = False,
) -> Any:
    """A bot parameter with its bounds: ``samples: int = param(16, 1, 256)``."""
    return field(default=default, metadata={"bounds": Bounds(low, high, high_open, choices, files)})


def networks() -> tuple[str, ...]:
    """The names of the networks shipped in the package (``default``, ...)."""
    from .net import shipped_networks  # numpy and the model files only when asked

    return shipped_networks()


def bounds_of(cls: type[Bot]) -> dict[str, Bounds]:
    """The declared bounds of a bot class's spec parameters (unbounded ones are left out)."""
    if not dataclasses.is_dataclass(cls):
        return {}
    return {f.name: f.metadata["bounds"] for f in dataclasses.fields(cls) if "bounds" in f.metadata}


def parameters(cls: type[Bot]) -> dict[str, tuple[Any, Any]]:
    """The spec parameters of a bot class: name -> (type, default)."""
    if not dataclasses.is_dataclass(cls):
        return {}  # a hand-made bot without parameters
    hints = typing.get_type_hints(cls)
    out: dict[str, tuple[Any, Any]] = {}
    for f in dataclasses.fields(cls):
        if not f.init or not f.metadata.get("spec", True):
            continue
        default = f.default if f.default is not dataclasses.MISSING else None
        out[f.name] = (hints[f.name], default)
    return out


def default_text(cls: type[Bot], name: str) -> str:
    """A spec parameter's default as a person should read it, in errors and help.

    A search bot's ``iterations``, whose default None stands for :attr:`Bot.DEFAULT_ITERATIONS`
    unless ``seconds`` is set, says so ("1000 unless seconds"); any other default is its value."""
    known = parameters(cls)
    default = known[name][1]
    if name == "iterations" and default is None and cls.DEFAULT_ITERATIONS is not None and "seconds" in known:
        return f"{cls.DEFAULT_ITERATIONS} unless seconds"
    return str(default)


class BotError(RuntimeError):
    """A bot broke the interface contract (returned an illegal action, acted out of turn)."""


def only_action(view: SeatView) -> int | None:
    """The single legal action, if the seat has no choice (search skips the thinking)."""
    legal = legal_actions_of(view)
    return legal[0] if len(legal) == 1 else None


def legal_actions_of(view: SeatView) -> list[int]:
    """The seat's legal actions; a bot asked to act with none has been called out of turn."""
    legal = view.legal_actions()
    if not legal:
        raise BotError(f"seat {view.seat} was asked to act but has no legal action (not its turn?)")
    return legal
