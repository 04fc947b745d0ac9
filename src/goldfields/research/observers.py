"""OpenSpiel observers for the goldfields games (OpenSpiel's ``PyObserver`` interface).

One observer class serves both games; the tensor is the shared encoding of
:mod:`goldfields.research.encoding` (see its slice tables, printed in
docs/research.md). What a seat is given depends on the
``pyspiel.IIGObservationType`` asked for:

* ``private_info=SINGLE_PLAYER`` (the default, and OpenSpiel's information
  state and observation): ``state.observation(player)``, encoded.
* ``private_info=NONE`` (public information only): the spectator's view with
  nothing any seat holds privately: no hand in Digging, and in Digger no
  hourglass (the digger cannot see it, so it is not common knowledge).
* ``private_info=ALL_PLAYERS`` is refused: the engines never show a seat
  everything, and these games give no such view.

Strings: the observation string is the observation as compact JSON (the
``legal`` list left out: it follows from the rest). With ``perfect_recall``
(OpenSpiel's information state) the string also carries the public history:
every move as everyone saw it (a Digging pass is only ``pass``, a draw only
``draw``), every deal, and every roll's faces. The *tensor* is the same for
both kinds: a fixed-size summary of what the seat knows now, not a history.
"""

from __future__ import annotations

import json
from typing import Any

from ._deps import require

pyspiel = require("pyspiel", "goldfields.research.observers")
np = require("numpy", "goldfields.research.observers")

from .encoding import encoding_for  # noqa: E402


def observation_text(obs: dict[str, Any]) -> str:
    """An observation as compact JSON, without the derived ``legal`` list."""
    obs.pop("legal", None)
    return json.dumps(obs, separators=(",", ":"))


class GoldfieldsObserver:
    """Tensor and string views of a goldfields OpenSpiel state for one player."""

    def __init__(self, game_name: str, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("goldfields games give no view with every player's private information")
        if not iig_obs_type.public_info:
            raise ValueError("goldfields observers always include the public information")
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        self.perfect_recall = iig_obs_type.perfect_recall
        self.encoding = encoding_for(game_name)
        self.tensor = np.zeros(self.encoding.size, np.float32)
        self.dict = self.encoding.views(self.tensor)

    def _obs(self, state: Any, player: int) -> dict[str, Any]:
        return state.public_observation() if self.public_only else state.seat_observation(player)

    def set_from(self, state: Any, player: int) -> None:
        self.encoding.encode(self._obs(state, player), out=self.tensor)

    def string_from(self, state: Any, player: int) -> str:
        text = observation_text(self._obs(state, player))
        if state.dealing_text:
            text += "|" + state.dealing_text
        if self.perfect_recall:
            text += "\n" + state.public_history()
        return text
