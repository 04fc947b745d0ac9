"""Bot specs: ``name`` or ``name:key=value,key=value``, e.g. ``ismcts:iterations=2000,c=0.7``.

A name may stand for a different class in each game (``heuristic`` is one bot
for Digging and another for Digger); the game decides which one a spec builds.
Bot classes are dataclasses: their fields are the spec's parameters, with the
field's type deciding how a value is read. A field whose metadata says
``spec=False`` (an injected clock, say) cannot be set from a spec.

Classes are imported lazily, by dotted path, so that a bot for a game whose
engine is missing never breaks the others.
"""

from __future__ import annotations

import dataclasses
import importlib
import types
import typing
from dataclasses import dataclass
from typing import Any

from .base import Bot

ANY_GAME = "*"

# name -> game -> "module:Class". ANY_GAME serves every game without its own entry.
_REGISTRY: dict[str, dict[str, str]] = {
    "random": {ANY_GAME: "goldfields.bots.random_bot:RandomBot"},
    "heuristic": {
        "digging": "goldfields.bots.digging_heuristic:DiggingHeuristic",
        "digger": "goldfields.bots.digger_heuristic:DiggerHeuristic",
    },
    "ismcts": {
        "digging": "goldfields.bots.ismcts:ISMCTSBot",
        "digger": "goldfields.bots.ismcts:ISMCTSBot",
    },
    "search": {
        "digger": "goldfields.bots.digger_search:DiggerSearch",
    },
}

_HELP: dict[str, str] = {
    "random": "uniformly random legal actions",
    "heuristic": "hand-written rules that play like a sensible human",
    "ismcts": "information-set Monte Carlo tree search (budget: iterations= or seconds=)",
    "search": "Digger: expectimax over rolls and stop decisions under the simulated clock",
}


class BotSpecError(ValueError):
    """A bot spec that names no known bot, or a parameter it does not have."""


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A parsed spec: the bot's name and its parameters as written."""

    name: str
    params: tuple[tuple[str, str], ...] = ()

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        text = text.strip()
        name, _, rest = text.partition(":")
        name = name.strip().lower()
        if not name:
            raise BotSpecError(f"empty bot spec {text!r}: write e.g. 'random' or 'ismcts:iterations=2000'")
        params: list[tuple[str, str]] = []
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


def known_bots(game: str | None = None) -> dict[str, str]:
    """Bot names (for ``game``, or for any game) with a one-line description."""
    return {
        name: _HELP[name] for name, games in _REGISTRY.items() if game is None or game in games or ANY_GAME in games
    }


def bot_class(name: str, game: str) -> type[Bot]:
    games = _REGISTRY.get(name)
    if games is None:
        raise BotSpecError(f"unknown bot {name!r}; known bots for {game}: {', '.join(known_bots(game))}")
    path = games.get(game) or games.get(ANY_GAME)
    if path is None:
        raise BotSpecError(
            f"bot {name!r} does not play {game}; known bots for {game}: {', '.join(known_bots(game))}"
        )
    module_name, _, class_name = path.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        raise BotSpecError(f"bot {name!r} for {game} is not available: {err}") from None
    cls: type[Bot] = getattr(module, class_name)
    return cls


def parameters(cls: type[Bot]) -> dict[str, tuple[Any, Any]]:
    """The spec parameters of a bot class: name -> (type, default)."""
    if not dataclasses.is_dataclass(cls):
        return {}  # a hand-made bot without parameters
    hints = typing.get_type_hints(cls)
    out: dict[str, tuple[Any, Any]] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if not f.init or not f.metadata.get("spec", True):
            continue
        default = f.default if f.default is not dataclasses.MISSING else None
        out[f.name] = (hints[f.name], default)
    return out


def make_bot(spec: str | BotSpec, game: str) -> Bot:
    """Build the bot a spec names, for ``game`` (``"digging"`` or ``"digger"``)."""
    parsed = spec if isinstance(spec, BotSpec) else BotSpec.parse(spec)
    cls = bot_class(parsed.name, game)
    known = parameters(cls)
    kwargs: dict[str, Any] = {}
    for key, text in parsed.params:
        if key not in known:
            names = ", ".join(f"{k} ({_type_name(t)}, default {d})" for k, (t, d) in known.items()) or "none"
            raise BotSpecError(f"bot {parsed.name!r} has no parameter {key!r}; its parameters: {names}")
        kwargs[key] = _convert(parsed.name, key, text, known[key][0])
    try:
        return cls(**kwargs)
    except ValueError as err:
        raise BotSpecError(f"bad bot spec {str(parsed)!r}: {err}") from None


def spec_of(bot: Bot) -> str:
    """The shortest spec that rebuilds ``bot``."""
    params = parameters(type(bot))
    parts = [f"{k}={getattr(bot, k)}" for k, (_, d) in params.items() if getattr(bot, k) != d]
    return bot.name + (":" + ",".join(parts) if parts else "")


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
