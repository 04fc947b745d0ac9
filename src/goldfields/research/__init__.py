"""Research adapters: OpenSpiel games, PettingZoo and Gymnasium environments, a vector environment.

Everything here sits above the engines and talks to a game only through the
:class:`~goldfields.core.game.GameState` interface. Each submodule needs its
library, and importing it without that library raises an :class:`ImportError`
that says what to ``pip install``:

=========================================  =====================================
module                                     needs
=========================================  =====================================
:mod:`goldfields.research.tables`          nothing (shared driving logic)
:mod:`goldfields.research.encoding`        numpy
:mod:`goldfields.research.observers`       numpy, open-spiel
:mod:`goldfields.research.openspiel_games` numpy, open-spiel
:mod:`goldfields.research.pettingzoo_env`  numpy, gymnasium, pettingzoo
:mod:`goldfields.research.gymnasium_env`   numpy, gymnasium
:mod:`goldfields.research.vector_env`      numpy, gymnasium
:mod:`goldfields.research.sb3`             numpy, gymnasium, stable-baselines3
=========================================  =====================================

docs/research.md describes the encodings, the time model and the figures.
"""

from __future__ import annotations
