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
* ``public_info=False`` (OpenSpiel's private-only observer, used by
  ``generate_playthrough``): only what the seat knows that a spectator does
  not. The tensor keeps the encoding's private pieces (``Piece.private``: the
  seat, and in Digging its hand, the cards unseen by it and what it passed
  its partner; in Digger the hourglass, all 0 for the digger); the string, the
  entries of its observation that differ from the public one. With
  ``private_info=NONE`` as well, that is nothing.
* ``private_info=ALL_PLAYERS`` is refused: the engines never show a seat
  everything, and these games give no such view.

Strings: the observation string is the observation as compact JSON (the
``legal`` list left out: it follows from the rest; and Digging's ``moves``, the
hand so far, left out: the string is the Markov summary, the history belongs to
the information state below). With ``perfect_recall``
(OpenSpiel's information state) the string also carries the seat's whole
history, so that it is **perfect recall**: the public history (every move as
everyone saw it: a Digging pass is only ``pass``, a draw only ``draw``; every
deal; every roll's faces), and then the seat's private history, every detail
it was shown and in what order (its cards as dealt, each card it drew or was
passed). Without the private part, two different orders of one seat's draws
would meet in one information state. The *tensor* is the same for both kinds:
a fixed-size summary of what the seat knows now, not a history.
"""

from __future__ import annotations

import json
from typing import Any

from ._deps import require

pyspiel = require("pyspiel", "goldfields.research.observers")
np = require("numpy", "goldfields.research.observers")

from .encoding import encoding_for  # noqa: E402

HISTORY_KEYS = ("legal", "moves")
"""Observation entries the strings leave out: the derived legal moves, and Digging's hand so far
(a history: the information-state string carries it, as the public history)."""


def observation_text(obs: dict[str, Any]) -> str:
    """An observation as compact JSON, without :data:`HISTORY_KEYS`."""
    for key in HISTORY_KEYS:
        obs.pop(key, None)
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
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        self.with_public = bool(iig_obs_type.public_info)
        self.perfect_recall = iig_obs_type.perfect_recall
        self.encoding = encoding_for(game_name)
        self.tensor = np.zeros(self.encoding.size, np.float32)
        self.dict = self.encoding.views(self.tensor)

    def _obs(self, state: Any, player: int) -> dict[str, Any]:
        return state.public_observation() if self.public_only else state.seat_observation(player)

    def set_from(self, state: Any, player: int) -> None:
        engine = state.engine_state()
        if self.with_public:
            self.encoding.encode_state(engine, None if self.public_only else player, out=self.tensor,
                                       over=state.is_terminal())  # fmt: skip
            return
        self.tensor.fill(0.0)
        if self.public_only:
            return  # neither public nor private: nothing
        # Private only: the pieces the encoding marks as the seat's own knowledge. (Comparing with a
        # spectator's vector would not do: the spectator sits at seat 0, so for any other seat every
        # seat-relative piece differs.)
        seat = self.encoding.encode_state(engine, player, over=state.is_terminal())
        for piece in self.encoding.pieces:
            if piece.private:
                where = self.encoding.slices[piece.name]
                self.tensor[where] = seat[where]

    def string_from(self, state: Any, player: int) -> str:
        if not self.with_public:
            if self.public_only:
                return ""
            public = state.public_observation()
            seen = state.seat_observation(player).items()
            mine = {k: v for k, v in seen if k not in HISTORY_KEYS and public.get(k) != v}
            text = json.dumps(mine, separators=(",", ":"))
            return text + "\n" + state.private_history(player) if self.perfect_recall else text
        text = observation_text(self._obs(state, player))
        if state.dealing_text:
            text += "|" + state.dealing_text
        if self.perfect_recall:
            text += "\n" + state.public_history()
            if not self.public_only:
                text += "\n" + state.private_history(player)
        return text
