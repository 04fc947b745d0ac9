"""The games goldfields knows, by name: the one place a game is registered.

The two games that ship are listed here by dotted path and imported on first
use, so that asking for one game never imports the other, and the core
imports no engine. A further game (a plug-in, or a test's toy game) calls
:func:`register` with its :class:`~goldfields.core.definition.GameDefinition`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .definition import GameDefinition, load

_BUILTIN: dict[str, str] = {
    "digging": "goldfields.digging.definition:DIGGING",
    "digger": "goldfields.digger.definition:DIGGER",
}

AnyGame = GameDefinition[Any]

_GAMES: dict[str, AnyGame] = {}


class UnknownGame(LookupError):
    """A game name nobody registered."""

    def __init__(self, name: object) -> None:
        self.name = name
        super().__init__(f"unknown game {name!r}; games: {', '.join(names())}")

    def __str__(self) -> str:  # LookupError would quote the message
        return str(self.args[0])


def register(game: AnyGame, *, replace: bool = False) -> AnyGame:
    """Make ``game`` known by ``game.name``. A name is registered once unless ``replace``."""
    name = game.name
    if not replace and (name in _BUILTIN or name in _GAMES) and _GAMES.get(name) is not game:
        raise ValueError(f"a game named {name!r} is registered already")
    _GAMES[name] = game
    return game


def unregister(name: str) -> None:
    """Forget a game registered with :func:`register` (tests use it to clean up)."""
    if name in _BUILTIN:
        raise ValueError(f"{name!r} ships with goldfields and cannot be unregistered")
    _GAMES.pop(name, None)


def get(name: str) -> AnyGame:
    """The game called ``name``; raises :class:`UnknownGame`."""
    game = _GAMES.get(name) if isinstance(name, str) else None
    if game is not None:
        return game
    path = _BUILTIN.get(name) if isinstance(name, str) else None
    if path is None:
        raise UnknownGame(name)
    loaded: AnyGame = load(path)
    _GAMES[name] = loaded
    return loaded


def names() -> list[str]:
    """Every registered game's name: the shipped ones first, then the others in registration order."""
    return list(_BUILTIN) + [n for n in _GAMES if n not in _BUILTIN]


def plugins() -> list[AnyGame]:
    """The games registered with :func:`register` (not the shipped ones), e.g. to register them
    again in a worker process."""
    return [g for n, g in _GAMES.items() if n not in _BUILTIN]


def games() -> Iterator[AnyGame]:
    for name in names():
        yield get(name)


def game_of(state: object) -> AnyGame:
    """The definition of the game a state belongs to."""
    return get(state.game_name)  # type: ignore[attr-defined]


__all__ = ["UnknownGame", "game_of", "games", "get", "names", "plugins", "register", "unregister"]
