"""Digging in the terminal: its screens, words and save warning."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rich.console import RenderableType

from ..core.game import GameState
from ..digging.definition import DIGGING
from ..digging.narrate import event_text
from . import render_digging
from .front import GameFront, Names
from .rules_text import DIGGING_RULES


class DiggingFront(GameFront):
    game = DIGGING.name
    private_hands = True
    rules_markdown = DIGGING_RULES
    luck_since = "a new hand has been dealt"
    hand_end_events = frozenset({"hand_scored"})
    moves_title = "Moves in the notation (cards: MG MS MC, G S C, GG SS CC, X, B1..B12; mines m1, m2...):"
    moves_rows: ClassVar[tuple[tuple[str, str], ...]] = (
        ("draw", "draw the top card of the pile"),
        ("pass B7", "pass a card face down to your partner (partnership game)"),
        ("play MG 2", "open a gold mine in seat 2's display"),
        ("play G m1", "lay a chest on mine m1"),
        ("play X m1", "close mine m1"),
        ("play B12 m2", "attack mine m2 with a bandit, or join the fight there"),
        ("skip", "only when nothing else is legal"),
    )
    undo_help = (
        "go back to your previous decision, if no other seat has moved since (their move showed something "
        "of their cards) and no new hand has been dealt since (luck stands); only with one human at the "
        "table. In a game started with --takebacks, a practice game, undo also goes back past the others' moves"
    )
    takebacks_help = (
        "undo also goes back past the other seats' moves and your draws, and so shows what you could not "
        "have known; luck (a new deal) still stands"
    )

    def intro(self, obs: Mapping[str, Any], names: Names) -> str:
        mode = (
            "partnership: seats 0 and 2 (team A) against seats 1 and 3 (team B)"
            if obs["partnership"]
            else "each for themselves"
        )
        return f"Digging for {obs['players']} players, {mode}; {obs['target']} points to win."

    def board(self, obs: Mapping[str, Any], names: Names, compact: bool = False) -> RenderableType:
        return render_digging.compact_board(obs, names) if compact else render_digging.board(obs, names)

    def hand_over(
        self, views: Sequence[Mapping[str, Any]], obs: Mapping[str, Any], names: Names, compact: bool
    ) -> RenderableType | None:
        scored = next((ev for ev in views if ev.get("kind") == "hand_scored"), None)
        return None if scored is None else render_digging.hand_scoring(scored, obs, names)

    def hand_over_prompt(self, views: Sequence[Mapping[str, Any]]) -> str:
        scored = next((ev for ev in views if ev.get("kind") == "hand_scored"), None)
        number = scored["hand"] + 1 if scored else 0
        return f"Hand {number} is over. Press Enter to deal hand {number + 1}.> "

    def narrate(self, ev: Mapping[str, Any], names: Names) -> str | None:
        return event_text(ev, names)

    def summary(self, obs: Mapping[str, Any], names: Names) -> RenderableType:
        return render_digging.summary(obs, names)

    def resume_note(self, state: GameState) -> str:
        if state.is_chance_node():  # between hands
            return "the next hand is dealt afresh"
        # A record holds each hand's deck as it was dealt, so a hand in play goes on from its pile.
        return "the rest of this hand's pile is as saved, and the hands after it are dealt afresh"

    def save_warning(self, state: GameState, hot_seat: bool, seat: int | None) -> str | None:
        if state.is_terminal():
            return None
        if hot_seat:
            return (
                "Warning: a game record holds every hand and the order of the pile. "
                "Keep the file away from the other players until the game is over."
            )
        return "Note: a game record holds every hand and the order of the pile; reading it spoils the game."
