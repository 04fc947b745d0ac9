"""Bot specs: ``name`` or ``name:key=value,key=value``, e.g. ``ismcts:iterations=2000,c=0.7``.

A name may stand for a different class in each game (``heuristic`` is one bot
for Digging and another for Digger): each game's definition lists the bots
written for it (:attr:`~goldfields.core.definition.GameDefinition.bots`), and
the bots here that play any game (``random``, ``ismcts``) serve the rest.
Bot classes are dataclasses: their fields are the spec's parameters, with the
field's type deciding how a value is read. A field whose metadata says
``spec=False`` (an injected clock, say) cannot be set from a spec.

Classes are imported lazily, by dotted path, so that a bot for a game whose
engine is missing never breaks the others.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..core import registry
from ..core.definition import LEVEL_SECONDS, load
from .base import Bot, bounds_of, default_text, parameters

# Bots that play every game through the engine interface alone.
_ANY_GAME: dict[str, str] = {
    "random": "goldfields.bots.random_bot:RandomBot",
    "ismcts": "goldfields.bots.ismcts:ISMCTSBot",
}

_HELP: dict[str, str] = {
    "random": "uniformly random legal actions",
    "ismcts": "information-set Monte Carlo tree search; its budget: iterations= or seconds=",
}
class BotSpecError(ValueError):
    """A bot spec that names no known bot, or a parameter it does not have."""


class BotParameterError(BotSpecError):
    """A parameter given a value outside its bounds: says which parameter and what is allowed."""

    def __init__(self, bot: str, parameter: str, value: str, allowed: str) -> None:
        super().__init__(f"bot {bot!r}: {parameter}={value} is not allowed; {parameter} must be {allowed}")
        self.bot = bot
        self.parameter = parameter
        self.value = value
        self.allowed = allowed

    def __reduce__(self) -> tuple[Any, ...]:  # picklable, to cross from a worker process
        return (type(self), (self.bot, self.parameter, self.value, self.allowed))


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A parsed spec: the bot's name and its parameters as written."""

    name: str
    params: tuple[tuple[str, str], ...] = ()

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        text = text.strip()
        name, colon, rest = text.partition(":")
        name = name.strip().lower()
        if not name:
            raise BotSpecError(f"empty bot spec {text!r}: write e.g. 'random' or 'ismcts:iterations=2000'")
        params: list[tuple[str, str]] = []
        if colon and not rest.strip():
            raise BotSpecError(f"{text!r} ends with ':' and no parameter: write {name!r}, or e.g. "
                               f"'{name}:NAME=VALUE'")
        if rest.strip():
            for part in rest.split(","):
                key, eq, value = part.partition("=")
                key, value = key.strip(), value.strip()
                if not eq or not key or not value:
                    raise BotSpecError(f"bad parameter {part.strip()!r} in {text!r}: write key=value, e.g. c=0.7")
                if any(k == key for k, _ in params):
                    raise BotSpecError(f"parameter {key!r} given twice in {text!r}")
                params.append((key, value))
        return cls(name, tuple(params))

    def __str__(self) -> str:
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in self.params)


def _bots_of(game: str) -> dict[str, tuple[str, str]]:
    """name -> ("module:Class", one line) for the bots that play ``game``."""
    definition = registry.get(game)
    # From the simplest to the strongest: random, the game's own, then the generic search.
    out = {"random": (_ANY_GAME["random"], _HELP["random"])}
    for name, path in definition.bots.items():
        out[name] = (path, definition.bot_help.get(name, ""))
    out.setdefault("ismcts", (_ANY_GAME["ismcts"], _HELP["ismcts"]))
    return out


def known_bots(game: str | None = None) -> dict[str, str]:
    """Bot names (for ``game``, or for any registered game) with a one-line description."""
    if game is not None:
        return {name: text for name, (_, text) in _bots_of(game).items()}
    out: dict[str, str] = {}
    for name in registry.names():
        for bot, text in known_bots(name).items():
            out.setdefault(bot, text)
    return out


def naming_help(game: str, levels: Iterable[str] = ()) -> str:
    """The names a bot of ``game`` goes by, for an error that met a wrong one: each bot with what it
    is, then ``levels`` (a table's easy, medium, hard), where the command takes them."""
    known = ", ".join(f"{name} ({about})" if about else name for name, about in known_bots(game).items())
    shown = ", ".join(levels)
    return f"{known}; or a level: {shown}" if shown else known


def misnamed(spec: str, game: str, levels: Iterable[str] = ()) -> str | None:
    """Where ``spec`` names no bot of ``game``: an error with the right names (:func:`naming_help`);
    ``None`` for a known bot, whose wrong parameter its own error names."""
    name = spec.split(":", 1)[0]
    if not name or name.lower() in known_bots(game):  # no name at all: make_bot's error shows how to write one
        return None
    why = f"bot {name!r} does not play {game}" if name.lower() in known_bots() else f"unknown bot {name!r}"
    return f"{why}; known bots for {game}: {naming_help(game, levels)}"


def available_bots(game: str) -> dict[str, str]:
    """The bots of :func:`known_bots` that can be built here with their defaults: a bot whose
    library or model file is missing is left out (what a lobby offers players)."""
    out = {}
    for name, text in known_bots(game).items():
        try:
            make_bot(name, game)
        except BotSpecError:
            continue
        out[name] = text
    return out


def bot_class(name: str, game: str) -> type[Bot]:
    try:
        bots = _bots_of(game)
    except registry.UnknownGame as err:
        raise BotSpecError(str(err)) from None
    if name not in bots:
        anywhere = name in known_bots()
        why = f"bot {name!r} does not play {game}" if anywhere else f"unknown bot {name!r}"
        definition, level = registry.get(game), name.lower()
        if level in definition.levels:
            # The command line reads levels; the Python API, the research adapters and a server
            # seat's "bot" take specs. Say which spec, rather than only that the name is wrong.
            kinds = "".join(f", at a {kind} table {specs[level]!r}"
                            for kind, specs in definition.table_levels.items() if level in specs)
            why += f" ({level} is a level, not a bot spec: its bot is {definition.levels[level]!r}{kinds})"
        raise BotSpecError(f"{why}; known bots for {game}: {', '.join(bots)}")
    try:
        cls: type[Bot] = load(bots[name][0])
    except ImportError as err:
        raise BotSpecError(f"bot {name!r} for {game} is not available: {err}") from None
    return cls


def make_bot(spec: str | BotSpec, game: str, *, trusted: bool = True) -> Bot:
    """Build the bot a spec names, for the game registered as ``game``.

    Every parameter is checked against its bounds (:func:`~goldfields.bots.base.param`),
    and :class:`BotParameterError` names the one out of range. With ``trusted=False``
    (specs from the network) a parameter that may name a file takes only its listed
    names: a stranger must not make the server open paths of their choosing.
    """
    parsed = spec if isinstance(spec, BotSpec) else BotSpec.parse(spec)
    cls = bot_class(parsed.name, game)
    known = parameters(cls)
    bounds = bounds_of(cls)
    kwargs: dict[str, Any] = {}
    for key, text in parsed.params:
        if key not in known:
            names = ", ".join(f"{k} ({_type_name(t)}, default {default_text(cls, k)})"
                              for k, (t, _) in known.items()) or "none"
            raise BotSpecError(f"bot {parsed.name!r} has no parameter {key!r}; its parameters: {names}")
        value = _convert(parsed.name, key, text, known[key][0])
        if key in bounds and (why := bounds[key].check(value, trusted)) is not None:
            raise BotParameterError(parsed.name, key, text, why)
        kwargs[key] = value
    try:
        bot = cls(**kwargs)
        bot.check_game(game)
    except ValueError as err:
        raise BotSpecError(f"bad bot spec {str(parsed)!r}: {err}") from None
    return bot


def bot_for_game(bot: Bot, game: str) -> Bot:
    """A bot object given to play ``game`` (an opponent in the research env): refused at once if it
    is the registry's bot of another game (a Digger heuristic at a Digging table would fail at its
    first move, on a missing key). A bot of the caller's own making is taken as it is."""
    bot.check_game(game)
    mine: set[type[Bot]] = set()
    theirs: dict[type[Bot], str] = {}
    for name in registry.names():
        for bot_name in known_bots(name):
            try:
                cls = bot_class(bot_name, name)
            except BotSpecError:  # its library is not installed: no object of it was made either
                continue
            if name == game:
                mine.add(cls)
            else:
                theirs.setdefault(cls, name)
    if type(bot) not in mine and type(bot) in theirs:
        raise ValueError(f"opponent {bot.spec()!r} is a bot for {theirs[type(bot)]}, not {game}: "
                         f"make it with make_bot({bot.name!r}, {game!r})")
    return bot


def level_spec(spec: str, game: str) -> str:
    """A level's bot spec (``GameDefinition.levels_for``) as it plays away from the server (the
    terminal, the demo): a search its spec gives no budget thinks :data:`LEVEL_SECONDS` a move,
    as on the server, where a table's search bots think ``--bot-seconds``."""
    parsed = BotSpec.parse(spec)
    known = parameters(bot_class(parsed.name, game))
    if "seconds" not in known or {k for k, _ in parsed.params} & {"seconds", "iterations"}:
        return spec
    return f"{spec}{',' if parsed.params else ':'}seconds={LEVEL_SECONDS:g}"


def spec_or_level(spec: str, levels: Mapping[str, str], game: str) -> str:
    """``spec`` as written, or where it names one of ``levels`` (a table's: easy, medium, hard, in any
    case), that level's bot as :func:`level_spec` plays it."""
    return level_spec(levels[spec.lower()], game) if spec.lower() in levels else spec


def spec_of(bot: Bot) -> str:
    """The shortest spec that rebuilds ``bot``."""
    return bot.spec()


def _type_name(tp: Any) -> str:
    args = [a for a in typing.get_args(tp) if a is not type(None)]
    if args:
        return " or ".join(_type_name(a) for a in args)
    return getattr(tp, "__name__", str(tp))


def _convert(bot: str, key: str, text: str, tp: Any) -> Any:
    options = typing.get_args(tp) if isinstance(tp, types.UnionType) or typing.get_origin(tp) is typing.Union else (tp,)
    if type(None) in options and text.lower() in ("none", "null", "off"):
        return None
    for option in options:
        if option is bool:
            if text.lower() in ("1", "true", "yes", "on"):
                return True
            if text.lower() in ("0", "false", "no", "off"):
                return False
        elif option is int:
            try:
                return int(text)
            except ValueError:
                pass
        elif option is float:
            try:
                return float(text)
            except ValueError:
                pass
        elif option is str:
            return text
    raise BotSpecError(f"parameter {key}={text!r} of bot {bot!r} must be {_type_name(tp)}")
