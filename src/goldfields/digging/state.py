"""The Digging rules engine.

The rulings (D1..D9) are those of ``RULINGS.md`` (the project's shared
rulings); docs/digging.md states them in the project's words. Comments cite the ruling each piece implements.

Representation, chosen for speed (search bots apply millions of actions):
hands are counts per card code, the pile is a list with its top at the end,
actions are integers (see :mod:`goldfields.digging.actions`), and the list of
legal actions is computed once per position and cached.
"""

from __future__ import annotations

import numbers
import random
from collections.abc import Mapping, Sequence
from itertools import compress
from typing import Any, Self

from ..core.game import CHANCE, TERMINAL, Event, GameState, RuleError
from ..core.stored import StoredFields
from . import actions as A
from .cards import (
    CHEST_CODES,
    CLOSE,
    CODES,
    DOUBLE_CODES,
    METAL_VALUE,
    METALS,
    NUM_CODES,
    bandit_value,
    deck_counts,
    expand,
    is_bandit,
    metal_of,
)
from .options import DiggingOptions, hand_size_for, target_for

_FIRST_DOUBLE = DOUBLE_CODES[0]
assert tuple(range(_FIRST_DOUBLE, _FIRST_DOUBLE + 3)) == DOUBLE_CODES and DOUBLE_CODES[-1] < CLOSE

# Precomputed action ids, so that listing legal actions is mostly list concatenation.
_PASS_IDS = tuple(A.pass_action(c) for c in range(NUM_CODES))
_BANDIT_CODES = tuple(range(10, NUM_CODES))
_OPEN_IDS = tuple([A.open_action(code, seat) for seat in range(A.MAX_SEATS)] for code in range(3))
_CHEST_BASE = {code: A.chest_action(code, 0) for code in range(3, 9)}
_BANDIT_BASE = {code: A.bandit_action(code, 0) for code in _BANDIT_CODES}


class Mine:
    """A mine on the table: its metal, owner, chests (in the order laid), closed or not."""

    __slots__ = ("chests", "closed", "index", "metal", "owner")

    def __init__(self, index: int, metal: int, owner: int, chests: list[int], closed: bool) -> None:
        self.index = index
        self.metal = metal
        self.owner = owner
        self.chests = chests
        self.closed = closed

    @property
    def name(self) -> str:
        return A.mine_name(self.index)

    def points(self) -> int:
        return mine_points(self.metal, self.chests) if self.closed else 0

    def copy(self) -> Mine:
        return Mine(self.index, self.metal, self.owner, self.chests[:], self.closed)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "owner": self.owner,
            "metal": METALS[self.metal],
            "chests": [CODES[c] for c in self.chests],
            "closed": self.closed,
        }


def mine_points(metal: int, chests: Sequence[int]) -> int:
    """D8: what a closed mine with these chest cards scores.

    The one statement of D8: the engine, the bots, the encoding and the
    observation's ``points_if_closed`` all call it. (Double chests are the
    codes from DOUBLE_CODES[0] up: compared inline, as search calls this in
    its inner loop.)"""
    if not chests:
        return 0
    value = METAL_VALUE[metal]
    if chests[0] >= _FIRST_DOUBLE:
        # A double chest first: every chest card of the mine scores double.
        return 2 * value * len(chests)
    return sum(2 * value if c >= _FIRST_DOUBLE else value for c in chests)


class Fight:
    """D6: the one fight under way."""

    __slots__ = ("attacker", "bandits", "chances", "mine")

    def __init__(self, mine: int, attacker: int, bandits: list[tuple[int, int]], chances: list[int]) -> None:
        self.mine = mine
        self.attacker = attacker
        self.bandits = bandits  # (seat, bandit code), in the order laid
        self.chances = chances  # seats whose one chance to join is not spent yet

    def copy(self) -> Fight:
        return Fight(self.mine, self.attacker, self.bandits[:], self.chances[:])


class DiggingState(GameState):
    """A game of Digging, from the first deal to the final score.

    Create one with :func:`goldfields.digging.new_game` (shuffled from a seed)
    or construct it and deal an explicit deck with :meth:`apply_chance`.
    """

    game_name = "digging"

    def __init__(
        self,
        players: int = 4,
        partnership: bool | None = None,
        options: DiggingOptions | None = None,
        dealer: int | None = None,
    ) -> None:
        if partnership is None:
            partnership = players == 4
        if partnership and players != 4:
            raise ValueError("the partnership game is for exactly 4 players")
        if not 2 <= players <= 4:
            raise ValueError("Digging is for 2, 3 or 4 players")
        self.num_players = players
        self.partnership = partnership
        self.options = options or DiggingOptions()
        self.target = target_for(players, partnership, self.options)
        self.hand_size = hand_size_for(self.options)
        """The cards dealt to each player: 6 (D1), or the ``hand_size`` option's."""
        self.deck_counts = tuple(deck_counts(players, partnership, self.options.full_deck))
        # The first dealer defaults to the last seat, so that seat 0 moves first.
        self.dealer = players - 1 if dealer is None else dealer
        if not 0 <= self.dealer < players:
            raise ValueError(f"dealer must be a seat from 0 to {players - 1}")
        self.hand_no = -1  # no hand dealt yet
        self.totals = [0] * players
        self.history: list[list[int]] = []  # closed-mine points per seat, per finished hand
        self._winners: list[int] | None = None
        self._to_move = CHANCE
        self._reset_hand()
        self.logs: list[dict[str, Any]] | None = []  # per hand: dealer, deck, moves (ids)
        # A determinisation has no logs; it keeps the moves the seat it was drawn for saw.
        self.seen: tuple[int, tuple[tuple[int, int], ...]] | None = None

    def _reset_hand(self) -> None:
        n = self.num_players
        self.hands = [[0] * NUM_CODES for _ in range(n)]
        self.sizes = [0] * n
        self.pile: list[int] = []
        self.mines: list[Mine] = []
        self.open_by_metal: list[list[int]] = [[], [], []]
        self.open_mines: list[int] = []  # every open mine, ascending
        self.discard: list[int] = []
        self.fight: Fight | None = None
        self.final_left = -1  # turns left in the last round (D7); -1 until the pile is empty
        # Public: how many turns in a row were passes. D2 lets partners pass cards back
        # and forth for ever while the pile lasts; bots read this to avoid stalling a hand.
        self.passes_in_a_row = 0
        self.first = (self.dealer + 1) % n
        # What each seat knows of its partner's hand: at least these counts (from passes).
        self.known = [[0] * NUM_CODES for _ in range(n)]
        self.passes: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # (card, to), this hand
        # Codes a seat showed it cannot hold: it skipped with cards in hand (D2).
        self.cannot_hold: list[list[int]] = [[] for _ in range(n)]
        self._legal: list[int] | None = None

    # ------------------------------------------------------------------
    # Whose turn
    # ------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self._to_move

    @property
    def pile_size(self) -> int:
        return len(self.pile)

    def partner(self, seat: int) -> int | None:
        return (seat + 2) % 4 if self.partnership else None

    def team(self, seat: int) -> int:
        """The side a seat plays for: its team (partnership) or itself."""
        return seat % 2 if self.partnership else seat

    def is_opponent(self, seat: int, other: int) -> bool:
        return self.team(seat) != self.team(other)

    # ------------------------------------------------------------------
    # Chance: the deal (D1)
    # ------------------------------------------------------------------
    def _no_deal_due(self) -> RuleError:
        if self._to_move == TERMINAL:
            return RuleError("D9", "the game is over: no more hands are dealt")
        return RuleError("D1", "no deal is due: the hand is still being played")

    def sample_chance(self, rng: random.Random) -> list[int]:
        if self._to_move != CHANCE:
            raise self._no_deal_due()
        deck = expand(self.deck_counts)
        rng.shuffle(deck)
        return deck

    def apply_chance(self, outcome: Sequence[int | str]) -> list[Event]:
        """Deal ``outcome``, the whole deck in use, top card first (D1)."""
        if self._to_move != CHANCE:
            raise self._no_deal_due()
        if isinstance(outcome, (str, bytes)) or not isinstance(outcome, Sequence):
            raise RuleError("D1", "a deck is a list of cards, top card first")
        deck = [_code(c) for c in outcome]
        counts = [0] * NUM_CODES
        for c in deck:
            counts[c] += 1
        if tuple(counts) != self.deck_counts:
            raise RuleError(
                "D1",
                f"the deck must be the {sum(self.deck_counts)} cards in use for this table, "
                f"each exactly once; got {len(deck)} cards that differ from it",
            )
        n = self.num_players
        if self.hand_no >= 0:
            # D9: the deal moves on; the new dealer is the last hand's first player.
            self.dealer = self.first
        self.hand_no += 1
        self.seen = None
        self._reset_hand()
        size = self.hand_size
        for i in range(size * n):
            seat = (self.dealer + 1 + i) % n
            self.hands[seat][deck[i]] += 1
        self.sizes = [size] * n
        self.pile = deck[size * n :][::-1]  # top of the pile at the end
        self._to_move = self.first
        if self.logs is not None:
            self.logs.append({"dealer": self.dealer, "deck": deck, "moves": []})
        return [
            Event(
                "deal",
                {"hand": self.hand_no, "dealer": self.dealer, "first": self.first, "pile": len(self.pile)},
                {s: {"cards": self.hand_codes(s)} for s in range(n)},
            )
        ]

    def hand_codes(self, seat: int) -> list[str]:
        return [CODES[c] for c in expand(self.hands[seat])]

    # ------------------------------------------------------------------
    # Legal actions (D2..D6)
    # ------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        legal = self._legal
        if legal is not None:
            return legal
        seat = self._to_move
        if seat < 0:
            self._legal = []
            return self._legal
        hand = self.hands[seat]
        # Built in ascending id order: draw, passes, mines, chests, closes, bandits.
        legal = [A.DRAW] if self.pile else []
        if self.partnership:
            legal += compress(_PASS_IDS, hand)
        for code in (0, 1, 2):  # D3: a mine may open in any display
            if hand[code]:
                legal += _OPEN_IDS[code][: self.num_players]
        obm = self.open_by_metal
        fight = self.fight
        for code in (3, 4, 5, 6, 7, 8):  # D4: onto an open mine of its metal
            if hand[code]:
                ids = obm[code % 3]
                if ids:
                    base = _CHEST_BASE[code]
                    if fight is not None and self.options.no_chests_during_fight:
                        legal += [base + i for i in ids if i != fight.mine]
                    else:
                        legal += [base + i for i in ids]
        if hand[CLOSE] and self.open_mines:  # D5: onto any open mine
            if self.options.close_needs_chest:
                legal += [A.CLOSE_BASE + i for i in self.open_mines if self.mines[i].chests]
            else:
                legal += [A.CLOSE_BASE + i for i in self.open_mines]
        bandits = list(compress(_BANDIT_CODES, hand[10:]))
        if bandits:  # D6
            targets = self._bandit_targets(seat)
            if targets:
                for code in bandits:
                    base = _BANDIT_BASE[code]
                    legal += [base + i for i in targets]
        if not legal:
            legal.append(A.SKIP)  # D2: skipping only when nothing else is legal
        self._legal = legal
        return legal

    def _bandit_targets(self, seat: int) -> list[int]:
        fight = self.fight
        if fight is not None:
            # One fight at a time; a seat may only join, on its one chance.
            return [fight.mine] if seat in fight.chances else []
        team = self.team(seat)
        mines = self.mines
        return [i for i in self.open_mines if mines[i].chests and self.team(mines[i].owner) != team]

    # ------------------------------------------------------------------
    # Applying actions
    # ------------------------------------------------------------------
    def apply_action(self, action: int, at: float | None = None) -> list[Event]:
        if type(action) is not int:
            # numpy and other integers are welcome; floats and bools are mistakes.
            if not isinstance(action, numbers.Integral) or isinstance(action, bool):
                raise RuleError("notation", f"an action is an integer from 0 to {A.NUM_ACTIONS - 1}, not {action!r}")
            action = int(action)
        if action not in self.legal_actions():
            raise self._why_illegal(action)
        return self._apply(action)

    def apply_move(self, text: str) -> list[Event]:
        return self.apply_action(self.string_to_action(text))

    def action_to_string(self, action: int) -> str:
        return A.action_to_string(action)

    def string_to_action(self, text: str) -> int:
        try:
            return A.string_to_action(text, self.num_players)
        except A.NotationError as err:
            raise RuleError(err.rule, str(err)) from None

    def apply_legal(self, action: int) -> None:
        """Apply an action taken from this very state's ``legal_actions()``,
        with no check and no events: the fast path for search bots playing
        out their own determinised copies. Anything else must use
        :meth:`apply_action`, which checks the rules."""
        self._apply(action, quiet=True)

    def _apply(self, action: int, quiet: bool = False) -> list[Event]:
        seat = self._to_move
        self.seen = None  # a determinisation that moves on has no record of its hand
        kind, code, target = A.DECODED[action]
        hand = self.hands[seat]
        events: list[Event] = []
        if code >= 0:
            hand[code] -= 1
            self.sizes[seat] -= 1
            if self.partnership:
                # The partner's knowledge of this hand loses one copy of the card.
                k = self.known[(seat + 2) % 4]
                if k[code]:
                    k[code] -= 1
        self.passes_in_a_row = self.passes_in_a_row + 1 if kind == A.K_PASS else 0
        last_draw = False
        if kind == A.K_DRAW:
            card = self.pile.pop()
            hand[card] += 1
            self.sizes[seat] += 1
            if not quiet:
                events.append(Event("draw", {"seat": seat, "pile": len(self.pile)}, {seat: {"card": CODES[card]}}))
            if not self.pile:
                last_draw = True
        elif kind == A.K_PASS:
            mate = (seat + 2) % 4
            self.hands[mate][code] += 1
            self.sizes[mate] += 1
            self.known[seat][code] += 1
            self.passes[seat].append((code, mate))
            if not quiet:
                shown = {"card": CODES[code]}
                events.append(Event("pass", {"seat": seat, "to": mate}, {seat: shown, mate: shown}))
        elif kind == A.K_OPEN:
            index = len(self.mines)
            self.mines.append(Mine(index, code, target, [], False))
            self.open_by_metal[code].append(index)
            self.open_mines.append(index)
            if not quiet:
                events.append(
                    Event("open", {"seat": seat, "card": CODES[code], "mine": A.mine_name(index), "owner": target})
                )
        elif kind == A.K_CHEST:
            self.mines[target].chests.append(code)
            if not quiet:
                events.append(Event("chest", {"seat": seat, "card": CODES[code], "mine": A.mine_name(target)}))
        elif kind == A.K_CLOSE:
            self._close(seat, target, None if quiet else events)
        elif kind == A.K_BANDIT:
            self._bandit(seat, code, target, None if quiet else events)
        else:  # skip
            if self.sizes[seat]:
                # Skipping with cards in hand tells everyone none of them was playable.
                self.cannot_hold[seat] = sorted(set(self.cannot_hold[seat]) | set(self._playable_codes(seat)))
            events.append(Event("skip", {"seat": seat}))
        if self.logs is not None:
            self.logs[-1]["moves"].append(action)
        self._end_turn(seat, last_draw, events)
        return events

    def _playable_codes(self, seat: int) -> list[int]:
        """Codes that would have a legal play for ``seat`` now (whatever its hand)."""
        saved = self.hands[seat]
        self.hands[seat] = [1] * NUM_CODES
        self._legal = None
        try:
            codes = {A.CARD_OF_ACTION[a] for a in self.legal_actions() if a >= A.OPEN_BASE}
        finally:
            self.hands[seat] = saved
            self._legal = None
        return sorted(codes)

    def _close(self, seat: int, index: int, events: list[Event] | None) -> None:
        """D5, and D6 for a mine closed while it is fought over. (``events`` is
        None on the search fast path.)"""
        mine = self.mines[index]
        mine.closed = True
        self.open_by_metal[mine.metal].remove(index)
        self.open_mines.remove(index)
        fight = self.fight
        if fight is not None and fight.mine == index:
            # The fight ends at once; the last chest laid goes with the bandits.
            lost = mine.chests.pop()
            self.discard.append(lost)
            self.discard.extend(code for _, code in fight.bandits)
            self.fight = None
            if events is not None:
                discarded = [CODES[lost]] + [CODES[c] for _, c in fight.bandits]
                events.append(Event("fight_ended", {"mine": mine.name, "discarded": discarded}))
        if events is not None:
            events.append(
                Event("close", {"seat": seat, "mine": mine.name, "owner": mine.owner, "points": mine.points()})
            )

    def _bandit(self, seat: int, code: int, index: int, events: list[Event] | None) -> None:
        fight = self.fight
        mine = self.mines[index]
        if fight is None:
            n = self.num_players
            chances = [(seat + k) % n for k in range(1, n)]
            self.fight = Fight(index, seat, [(seat, code)], chances)
            if events is not None:
                events.append(
                    Event("fight_start", {"seat": seat, "card": CODES[code], "mine": mine.name, "owner": mine.owner})
                )
        else:
            fight.bandits.append((seat, code))
            if events is not None:
                side = self._side(fight, seat)
                events.append(
                    Event("fight_join", {"seat": seat, "card": CODES[code], "mine": mine.name, "side": side})
                )

    def _side(self, fight: Fight, seat: int) -> str:
        if self.team(seat) == self.team(self.mines[fight.mine].owner):
            return "defence"
        return "attack"

    def _end_turn(self, seat: int, last_draw: bool, events: list[Event]) -> None:
        self._legal = None
        fight = self.fight
        if fight is not None and seat in fight.chances:
            fight.chances.remove(seat)  # D6: whatever it did, its chance is spent
        if last_draw:
            # D7: everyone has one more turn, the one who drew last included.
            self.final_left = self.num_players
        elif self.final_left > 0:
            self.final_left -= 1
            if self.final_left == 0:
                self._end_hand(events)
                return
        nxt = (seat + 1) % self.num_players
        self._to_move = nxt
        if fight is not None and self.fight is fight and nxt == fight.attacker:
            self._resolve(events)

    def _resolve(self, events: list[Event]) -> None:
        """D6: play is back at the first attacker; the fight is decided."""
        fight = self.fight
        assert fight is not None
        self.fight = None
        mine = self.mines[fight.mine]
        owner = mine.owner
        new_owner, detail = self._fight_outcome(fight)
        mine.owner = new_owner
        self.discard.extend(c for _, c in fight.bandits)
        events.append(
            Event(
                "fight_resolved",
                {
                    "mine": mine.name,
                    "winner": "defence" if new_owner == owner else "attack",
                    "from": owner,
                    "owner": new_owner,
                    "bandits": [[s, CODES[c]] for s, c in fight.bandits],
                    **detail,
                },
            )
        )

    def _end_hand(self, events: list[Event]) -> None:
        """D7, D8, D9: score the hand and see whether the game is over."""
        if self.fight is not None:
            fight = self.fight
            self.fight = None
            self.discard.extend(c for _, c in fight.bandits)
            events.append(Event("fight_lapsed", {"mine": self.mines[fight.mine].name}))
        points = self.hand_points()
        self.history.append(points)
        for s in range(self.num_players):
            self.totals[s] += points[s]
        events.append(
            Event(
                "hand_scored",
                {
                    "hand": self.hand_no,
                    "points": points,
                    "totals": self.totals[:],
                    "mines": [
                        {"mine": m.name, "owner": m.owner, "points": m.points()} for m in self.mines if m.closed
                    ],
                    # The whole table as it was scored (public: every mine and chest lies face up).
                    # The next deal clears it at once, so a client shows the scoring from this.
                    "table": [{**m.to_json(), "points": m.points() if m.closed else 0} for m in self.mines],
                },
            )
        )
        self._legal = None
        winners = self._game_winners()
        if winners is None:
            self._to_move = CHANCE
        else:
            self._winners = winners
            self._to_move = TERMINAL
            events.append(Event("game_over", {"winners": winners, "totals": self.totals[:]}))

    def hand_points(self) -> list[int]:
        """Closed-mine points per seat in the hand being played (D8)."""
        points = [0] * self.num_players
        for m in self.mines:
            if m.closed:
                points[m.owner] += mine_points(m.metal, m.chests)
        return points

    def side_totals(self) -> dict[int, int]:
        """Game totals per side: team 0/1 (partnership) or seat."""
        sides: dict[int, int] = {}
        for s, t in enumerate(self.totals):
            sides[self.team(s)] = sides.get(self.team(s), 0) + t
        return sides

    def _game_winners(self) -> list[int] | None:
        """D9: over once a side reaches the target, with a single side on top."""
        sides = self.side_totals()
        top = max(sides.values())
        # The German sheet's "exceed" is in its partnership section only (D9).
        exceed = self.options.target_exceeded and self.partnership
        reached = top > self.target if exceed else top >= self.target
        if not reached:
            return None
        leaders = [side for side, total in sides.items() if total == top]
        if len(leaders) > 1:
            return None  # tied at the top: another hand
        return [s for s in range(self.num_players) if self.team(s) == leaders[0]]

    # ------------------------------------------------------------------
    # Why an action is illegal (only on the error path)
    # ------------------------------------------------------------------
    def _why_illegal(self, action: int) -> RuleError:
        seat = self._to_move
        if not isinstance(action, int) or not 0 <= action < A.NUM_ACTIONS:
            return RuleError("notation", f"no Digging action has id {action!r}")
        text = A.action_to_string(action)
        if seat == TERMINAL:
            return RuleError("D9", f"{text}: the game is over", "game_over", move=text)
        if seat == CHANCE:
            return RuleError("D1", f"{text}: the cards must be dealt first", "not_dealt", move=text)
        kind, code, target = A.DECODED[action]
        if kind == A.K_SKIP:
            return RuleError("D2", "skip is only allowed when no other action is legal", "skip_when_stuck", move=text)
        if kind == A.K_DRAW:
            return RuleError("D2", "the pile is empty: no card can be drawn", "pile_empty", move=text)
        card = CODES[code]
        if self.hands[seat][code] == 0:
            return RuleError("D2", f"{text}: seat {seat} has no {card} in hand", "not_in_hand", move=text, card=card)
        if kind == A.K_PASS:
            return RuleError("D2", "passing is only allowed in the partnership game", "pass_partnership", move=text)
        if kind == A.K_OPEN:
            message = f"{text}: there is no seat {target} at this table"
            return RuleError("D3", message, "no_seat", move=text, seat=target)
        if target >= len(self.mines):
            rule = "D4" if kind == A.K_CHEST else "D5" if kind == A.K_CLOSE else "D6"
            name = A.mine_name(target)
            return RuleError(
                rule, f"{text}: there is no mine {name}: it has not been opened", "no_mine", move=text, mine=name
            )
        mine = self.mines[target]
        if mine.closed:
            message = f"{text}: {mine.name} is closed; nothing more may be laid on it"
            return RuleError("D5", message, "closed", move=text, mine=mine.name)
        if kind == A.K_CHEST:
            if mine.metal != code % 3:
                chest, metal = METALS[code % 3], METALS[mine.metal]
                message = f"{text}: a {chest} chest cannot go on a {metal} mine"
                return RuleError("D4", message, "chest_metal", move=text, chest=chest, metal=metal, mine=mine.name)
            message = f"{text}: {mine.name} is under attack (option no_chests_during_fight)"
            return RuleError("D4", message, "under_attack", move=text, mine=mine.name)
        if kind == A.K_CLOSE:
            message = f"{text}: {mine.name} holds no chest (option close_needs_chest)"
            return RuleError("D5", message, "close_needs_chest", move=text, mine=mine.name)
        fight = self.fight
        if fight is not None:
            if target != fight.mine:
                name = A.mine_name(fight.mine)
                message = f"{text}: only one fight at a time, and it is over {name}"
                return RuleError("D6", message, "one_fight", move=text, mine=name)
            if seat == fight.attacker:
                return RuleError("D6", f"{text}: the first attacker lays no second bandit", "attacker_once", move=text)
            message = f"{text}: seat {seat} has had its one chance to join this fight"
            return RuleError("D6", message, "joined_once", move=text, seat=seat)
        if not self.is_opponent(seat, mine.owner):
            message = f"{text}: a fight is only started on an opponent's mine"
            return RuleError("D6", message, "fight_opponent", move=text, mine=mine.name)
        message = f"{text}: a fight needs a mine holding at least one chest"
        return RuleError("D6", message, "fight_needs_chest", move=text, mine=mine.name)

    # ------------------------------------------------------------------
    # Observations and the sampler
    # ------------------------------------------------------------------
    def observation(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (``None``: a spectator, who sees no hand)."""
        n = self.num_players
        obs: dict[str, Any] = {
            "game": "digging",
            "players": n,
            "partnership": self.partnership,
            "options": self.options.to_json(),
            "target": self.target,
            "seat": seat,
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "to_move": self._to_move,
            "hand": self.hand_codes(seat) if seat is not None else None,
            "hand_sizes": self.sizes[:],
            "pile": len(self.pile),
            "last_round": self.final_left if self.final_left >= 0 else None,
            "passes_in_a_row": self.passes_in_a_row,
            "mines": [{**m.to_json(), "points_if_closed": self._points_if_closed(m)} for m in self.mines],
            "fight": self._fight_json(),
            "discard": [CODES[c] for c in self.discard],
            "points": self.hand_points(),
            "totals": self.totals[:],
            "history": [h[:] for h in self.history],
            "moves": self._moves_seen(seat),
            "cannot_hold": [[CODES[c] for c in ch] for ch in self.cannot_hold],
            "winners": self._winners,
            "teams": [self.team(s) for s in range(n)],
        }
        if seat is not None and self.partnership:
            obs["passed"] = [{"card": CODES[c], "to": to} for c, to in self.passes[seat]]
            obs["partner_holds"] = [CODES[c] for c in expand(self.known[seat])]
        obs["legal"] = (
            [A.action_to_string(a) for a in self.legal_actions()] if seat is not None and seat == self._to_move else []
        )
        return obs

    def _moves_seen(self, seat: int | None) -> list[list[Any]] | None:
        """This hand's moves so far as ``seat`` saw them: ``[mover, move]``, in order.

        Everything on the table follows from these and the deal, and the moves
        are what a player reads another's hand from. An opponent's pass shows as
        ``"pass"`` without its card (D2: only the partners see it), and a draw as
        ``draw`` (the card drawn is in the seat's hand, not in the record). At a
        chance node between hands, the hand just finished. ``None`` when this
        state keeps no record of its hand.
        """
        ids = self._moves_by_seat(seat)
        if ids is None:
            return None
        text = A.TEXT
        return [[m, "pass" if a < 0 else text[a]] for m, a in ids]

    def _moves_by_seat(self, seat: int | None) -> list[tuple[int, int]] | None:
        """``(mover, action id)`` for this hand's moves; ``-1`` for a pass whose card ``seat`` cannot know."""
        if self.logs is None:
            if self.seen is None:
                return None
            moves = list(self.seen[1])  # the other side's passes already without their cards
        elif not self.logs or self.hand_no < 0:
            return None
        else:
            log = self.logs[-1]
            first = log["dealer"] + 1
            moves = [((first + i) % self.num_players, a) for i, a in enumerate(log["moves"])]
        if not self.partnership:  # no passes, nothing hidden
            return moves
        # Passes go between partners only: the passer's side sees the card, nobody else.
        side = -1 if seat is None else seat % 2
        return [(m, -1 if m % 2 != side and a >= 0 and A.DECODED[a][0] == A.K_PASS else a) for m, a in moves]

    def _points_if_closed(self, mine: Mine) -> int:
        """D8, and D6: a mine closed during its fight loses its most recent chest."""
        chests = mine.chests
        if not mine.closed and self.fight is not None and self.fight.mine == mine.index:
            chests = chests[:-1]
        return mine_points(mine.metal, chests)

    def _fight_outcome(self, fight: Fight) -> tuple[int, dict[str, Any]]:
        """D6: who owns the mine if the fight is decided with the bandits laid so
        far, and why: (the owner then, the sums or the highest bandit)."""
        owner = self.mines[fight.mine].owner
        if self.partnership:
            attack_team = self.team(fight.attacker)
            attack = sum(bandit_value(c) for s, c in fight.bandits if self.team(s) == attack_team)
            defence = sum(bandit_value(c) for s, c in fight.bandits if self.team(s) != attack_team)
            # A tie goes to the defenders.
            return (fight.attacker if attack > defence else owner), {"attack": attack, "defence": defence}
        best_seat, best = max(fight.bandits, key=lambda sc: sc[1])
        return best_seat, {"highest": CODES[best], "by": best_seat}

    def _fight_json(self) -> dict[str, Any] | None:
        f = self.fight
        if f is None:
            return None
        owner = self.mines[f.mine].owner
        leader, detail = self._fight_outcome(f)
        out: dict[str, Any] = {
            "mine": A.mine_name(f.mine),
            "attacker": f.attacker,
            "owner": owner,
            "bandits": [[s, CODES[c]] for s, c in f.bandits],
            "chances": f.chances[:],
            # Derived facts (D6), so that no front end or bot decides a fight again:
            "sides": {str(s): self._side(f, s) for s in range(self.num_players)},
            "leader": leader,
            "leading": "defence" if leader == owner else "attack",
            **detail,
        }
        return out

    def resample(self, seat: int, rng: random.Random) -> Self:
        """Deal the cards ``seat`` cannot see at random, consistently with what it knows.

        Kept fixed: ``seat``'s hand, everything face up, every hand's size,
        the pile's size, the cards ``seat`` knows its partner holds (it passed
        them), and the codes a seat showed it cannot hold by skipping. The
        unseen cards are gathered as counts (so their true places cannot
        matter), shuffled with ``rng`` and dealt again. The result carries
        no record (its past is not the real one) but the hand's moves as
        ``seat`` saw them, which its observations show until it moves on.
        """
        # No early return between hands or at the end: the hands left over are
        # still hidden (hands are never shown at the end of a hand).
        n = self.num_players
        pool = [0] * NUM_CODES
        for s in range(n):
            if s != seat:
                for c, k in enumerate(self.hands[s]):
                    pool[c] += k
        for c in self.pile:
            pool[c] += 1
        mate = self.partner(seat)
        fixed = [0] * NUM_CODES
        if mate is not None:
            fixed = self.known[seat][:]
            for c in range(NUM_CODES):
                pool[c] -= fixed[c]
        cards = expand(pool)
        others = [s for s in range(n) if s != seat]
        for _attempt in range(200):
            rng.shuffle(cards)
            hands, pile = self._deal_unseen(cards, others, mate, fixed)
            if all(not any(hands[s][c] for c in self.cannot_hold[s]) for s in others):
                break
        else:
            hands, pile = self._deal_respecting(cards, others, mate, fixed)
        out = self.clone()
        for s in others:
            out.hands[s] = hands[s]
        out.pile = pile
        for s in range(n):
            if s != seat and s != mate:
                out.known[s] = [0] * NUM_CODES
                out.passes[s] = []
        out.logs = None
        # Its past is not the real one, but the moves this seat saw are: the passes of the other side
        # without their cards. Kept until the determinisation moves on (then it has no record).
        moves = self._moves_by_seat(seat)
        out.seen = None if moves is None else (seat, tuple(moves))
        out._legal = None
        return out

    def _deal_unseen(
        self, cards: list[int], others: list[int], mate: int | None, fixed: list[int]
    ) -> tuple[dict[int, list[int]], list[int]]:
        hands: dict[int, list[int]] = {}
        i = 0
        for s in others:
            h = fixed[:] if s == mate else [0] * NUM_CODES
            need = self.sizes[s] - (sum(fixed) if s == mate else 0)
            for c in cards[i : i + need]:
                h[c] += 1
            i += need
            hands[s] = h
        return hands, cards[i:]

    def _deal_respecting(
        self, cards: list[int], others: list[int], mate: int | None, fixed: list[int]
    ) -> tuple[dict[int, list[int]], list[int]]:
        """Fallback when random deals keep breaking the skip constraints:
        the most constrained seats pick first among the cards they may hold."""
        rest = cards[:]
        hands: dict[int, list[int]] = {}
        for s in sorted(others, key=lambda s: -len(self.cannot_hold[s])):
            h = fixed[:] if s == mate else [0] * NUM_CODES
            need = self.sizes[s] - (sum(fixed) if s == mate else 0)
            banned = set(self.cannot_hold[s])
            taken = [j for j, c in enumerate(rest) if c not in banned][:need]
            if len(taken) < need:
                raise RuntimeError("no deal is consistent with this observation")
            for j in reversed(taken):
                h[rest[j]] += 1
                del rest[j]
            hands[s] = h
        return hands, rest

    # ------------------------------------------------------------------
    # Results
    # ------------------------------------------------------------------
    def scores(self) -> list[int]:
        return self.totals[:]

    def winners(self) -> list[int] | None:
        return None if self._winners is None else self._winners[:]

    def _win_shares(self, winners: Sequence[int]) -> int:
        # A partnership wins as one side: each partner gets the full point.
        return 1 if self.partnership else len(winners)

    # ------------------------------------------------------------------
    # Copies and storage
    # ------------------------------------------------------------------
    def clone(self) -> Self:
        new = object.__new__(type(self))
        new.num_players = self.num_players
        new.partnership = self.partnership
        new.options = self.options
        new.target = self.target
        new.hand_size = self.hand_size
        new.deck_counts = self.deck_counts
        new.dealer = self.dealer
        new.hand_no = self.hand_no
        new.totals = self.totals[:]
        new.history = [h[:] for h in self.history]
        new._winners = None if self._winners is None else self._winners[:]
        new._to_move = self._to_move
        new.hands = [h[:] for h in self.hands]
        new.sizes = self.sizes[:]
        new.pile = self.pile[:]
        new.mines = [m.copy() for m in self.mines]
        new.open_by_metal = [ids[:] for ids in self.open_by_metal]
        new.open_mines = self.open_mines[:]
        new.discard = self.discard[:]
        new.fight = None if self.fight is None else self.fight.copy()
        new.final_left = self.final_left
        new.passes_in_a_row = self.passes_in_a_row
        new.first = self.first
        new.known = [k[:] for k in self.known]
        new.passes = [p[:] for p in self.passes]
        new.cannot_hold = [c[:] for c in self.cannot_hold]
        new._legal = self._legal  # lists are never mutated once cached
        new.seen = self.seen  # an immutable tuple
        if self.logs:
            # Only the hand in play is still appended to; finished hands' logs are shared.
            last = self.logs[-1]
            new.logs = [*self.logs[:-1], {"dealer": last["dealer"], "deck": last["deck"], "moves": last["moves"][:]}]
        else:
            new.logs = None if self.logs is None else []
        return new

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "digging",
            "players": self.num_players,
            "partnership": self.partnership,
            "options": self.options.to_json(),
            "dealer": self.dealer,
            "hand_no": self.hand_no,
            "totals": self.totals[:],
            "history": [h[:] for h in self.history],
            "winners": self._winners,
            "to_move": self._to_move,
            "hands": [h[:] for h in self.hands],
            "pile": self.pile[:],
            "mines": [[m.metal, m.owner, m.chests[:], m.closed] for m in self.mines],
            "discard": self.discard[:],
            "fight": None
            if self.fight is None
            else [self.fight.mine, self.fight.attacker, [list(b) for b in self.fight.bandits], self.fight.chances[:]],
            "final_left": self.final_left,
            "passes_in_a_row": self.passes_in_a_row,
            "first": self.first,
            "known": [k[:] for k in self.known],
            "passes": [[list(p) for p in ps] for ps in self.passes],
            "cannot_hold": [c[:] for c in self.cannot_hold],
            "logs": None
            if self.logs is None
            else [{"dealer": h["dealer"], "deck": h["deck"][:], "moves": h["moves"][:]} for h in self.logs],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """The state :meth:`to_json` wrote. A state the rules cannot reach (cards
        missing or doubled, a fight over a mine with no chest...) is refused with
        a ``ValueError`` saying what is wrong, before anything is built on it."""
        if not isinstance(data, Mapping) or data.get("game") != "digging":
            raise ValueError("not a Digging state")
        try:
            new = cls._from_json(data)
            new._check_reachable()
        except (KeyError, TypeError, IndexError, AttributeError) as err:
            raise ValueError(f"not a valid Digging state: {type(err).__name__} {err}") from None
        except RuleError as err:
            raise ValueError(f"not a valid Digging state: {err}") from None
        return new

    @classmethod
    def _from_json(cls, data: Mapping[str, Any]) -> Self:
        r = StoredFields(data, "Digging")
        n = r.whole("players", 2, 4)
        partnership = r.flag("partnership")
        dealer = r.whole("dealer", 0, n - 1)
        try:
            new = cls(n, partnership, DiggingOptions.from_json(r.get("options")), dealer)
        except (ValueError, TypeError, RuleError) as err:
            raise r.bad(f"players, partnership or options: {err}") from None
        big = 1 << 30
        new.hand_no = r.whole("hand_no", -1, big)
        new.totals = r.wholes("totals", -big, big, n)
        new.history = [r.wholes("history", -big, big, n, h) for h in r.seq("history")]
        winners = r.get("winners")
        new._winners = None if winners is None else r.wholes("winners", 0, n - 1, None, winners)
        new._to_move = r.whole("to_move", TERMINAL, n - 1)
        new.hands = [r.wholes("hands", 0, NUM_CODES, NUM_CODES, h) for h in r.seq("hands", n)]
        new.sizes = [sum(h) for h in new.hands]
        new.pile = r.wholes("pile", 0, NUM_CODES - 1)
        mines = []
        for i, m in enumerate(r.seq("mines")):
            metal, owner, chests, closed = r.seq(f"mines[{i}]", 4, m)
            mines.append(Mine(i, r.whole(f"mines[{i}] metal", 0, 2, metal),
                              r.whole(f"mines[{i}] owner", 0, n - 1, owner),
                              r.wholes(f"mines[{i}] chests", 0, NUM_CODES - 1, None, chests),
                              r.flag(f"mines[{i}] closed", closed)))  # fmt: skip
        new.mines = mines
        new.open_by_metal = [[m.index for m in new.mines if m.metal == metal and not m.closed] for metal in range(3)]
        new.open_mines = [m.index for m in new.mines if not m.closed]
        new.discard = r.wholes("discard", 0, NUM_CODES - 1)
        f = r.get("fight")
        if f is None:
            new.fight = None
        else:
            mine, attacker, bandits, chances = r.seq("fight", 4, f)
            new.fight = Fight(
                r.whole("fight mine", 0, len(mines) - 1, mine),
                r.whole("fight attacker", 0, n - 1, attacker),
                [pair(r, "fight bandits", b, n) for b in r.seq("fight bandits", None, bandits)],
                r.wholes("fight chances", 0, n - 1, None, chances),
            )
        new.final_left = r.whole("final_left", -1, n)
        # States saved before the count existed read as 0: no stall under way.
        new.passes_in_a_row = r.whole("passes_in_a_row", 0, 1 << 30) if "passes_in_a_row" in data else 0
        new.first = r.whole("first", 0, n - 1)
        new.known = [r.wholes("known", 0, NUM_CODES, NUM_CODES, k) for k in r.seq("known", n)]
        new.passes = [
            [pair(r, "passes", p, n, seat_first=False) for p in r.seq("passes", None, ps)]
            for ps in r.seq("passes", n)
        ]
        new.cannot_hold = [r.wholes("cannot_hold", 0, NUM_CODES - 1, None, c) for c in r.seq("cannot_hold", n)]
        logs = r.get("logs")
        new.logs = (
            None
            if logs is None
            else [
                {
                    "dealer": r.whole("logs dealer", 0, n - 1, h.get("dealer") if isinstance(h, Mapping) else None),
                    "deck": r.wholes("logs deck", 0, NUM_CODES - 1, None, h["deck"]),
                    "moves": r.wholes("logs moves", 0, A.NUM_ACTIONS - 1, None, h["moves"]),
                }
                for h in r.seq("logs", None, logs)
            ]
        )
        new._legal = None
        return new

    def _check_reachable(self) -> None:
        """Raise ValueError for what no sequence of legal moves can produce."""
        n = self.num_players
        seats = range(n)

        def bad(why: str) -> ValueError:
            return ValueError(f"not a valid Digging state: {why}")

        def code(c: Any, what: str) -> int:
            if type(c) is not int or not 0 <= c < NUM_CODES:
                raise bad(f"{what} holds an unknown card {c!r}")
            return c

        if len(self.hands) != n or any(len(h) != NUM_CODES or any(type(k) is not int or k < 0 for k in h)
                                       for h in self.hands):
            raise bad(f"hands must be {n} lists of {NUM_CODES} card counts")
        for c in self.pile:
            code(c, "the pile")
        for c in self.discard:
            code(c, "the discard pile")
        for m in self.mines:
            if m.metal not in (0, 1, 2) or m.owner not in seats or not isinstance(m.closed, bool):
                raise bad(f"mine {m.name} has no valid metal, owner or closed flag")
            for c in m.chests:
                if code(c, f"mine {m.name}") not in CHEST_CODES or metal_of(c) != m.metal:
                    metal = METALS[m.metal]
                    raise bad(f"mine {m.name} of {metal} holds {CODES[c]}, not a {metal} chest (D4)")
        f = self.fight
        if f is not None:
            if not 0 <= f.mine < len(self.mines):
                raise bad(f"the fight is over mine {f.mine}, which is not on the table")
            mine = self.mines[f.mine]
            if mine.closed or not mine.chests:
                raise bad(f"a fight over {mine.name}, which is {'closed' if mine.closed else 'without a chest'} (D6)")
            if f.attacker not in seats or self.team(f.attacker) == self.team(mine.owner):
                raise bad(f"the fight's attacker {f.attacker!r} is not an opponent of {mine.name}'s owner (D6)")
            for seat, c in f.bandits:
                if seat not in seats or not is_bandit(code(c, "the fight")):
                    raise bad(f"the fight holds ({seat!r}, {c!r}), not a seat's bandit")
            if any(s not in seats for s in f.chances):
                raise bad("the fight's chances name a seat not at the table")
        to_move = self._to_move
        if to_move not in seats and to_move not in (CHANCE, TERMINAL):
            raise bad(f"the seat to move, {to_move!r}, is not at the table")
        if (to_move == TERMINAL) != (self._winners is not None):
            raise bad("winners are given exactly when the game is over")
        if len(self.totals) != n or any(len(h) != n for h in self.history):
            raise bad(f"totals and each hand's points must have {n} entries")
        census = [sum(column) for column in zip(*self.hands, strict=True)]
        for c in self.pile + self.discard:
            census[c] += 1
        for m in self.mines:
            census[m.metal] += 1
            for c in m.chests:
                census[c] += 1
            census[CLOSE] += m.closed
        if f is not None:
            for _, c in f.bandits:
                census[c] += 1
        if any(census) and census != list(self.deck_counts):
            missing = [CODES[c] for c in range(NUM_CODES) if census[c] != self.deck_counts[c]]
            raise bad(f"the cards in play are not the deck: wrong counts of {', '.join(missing)} (D1)")

    def record(self) -> dict[str, Any]:
        if self.logs is None:
            raise ValueError("a resampled state has no record: its past is not the real one")
        rec: dict[str, Any] = {"game": "digging", "players": self.num_players, "partnership": self.partnership}
        if self.options.to_json():
            rec["options"] = self.options.to_json()
        if not self.logs:
            # Before the first deal no hand names its dealer; the record must, to read back exactly.
            rec["dealer"] = self.dealer
        rec["hands"] = [
            {
                "dealer": h["dealer"],
                "deck": [CODES[c] for c in h["deck"]],
                "moves": [A.action_to_string(a) for a in h["moves"]],
            }
            for h in self.logs
        ]
        return rec

    def __repr__(self) -> str:
        return (
            f"<DiggingState players={self.num_players} partnership={self.partnership} "
            f"hand={self.hand_no} to_move={self._to_move} pile={len(self.pile)}>"
        )


def pair(r: StoredFields, name: str, value: Any, players: int, seat_first: bool = True) -> tuple[int, int]:
    """A stored (seat, card) pair, or (card, seat) when not ``seat_first``, checked."""
    a, b = r.seq(name, 2, value)
    if seat_first:
        return (r.whole(name, 0, players - 1, a), r.whole(name, 0, NUM_CODES - 1, b))
    return (r.whole(name, 0, NUM_CODES - 1, a), r.whole(name, 0, players - 1, b))


def _code(card: object) -> int:
    """A card of a deck, as a code number or its notation, checked."""
    if isinstance(card, str) and card.upper() in CODES:
        return CODES.index(card.upper())
    if isinstance(card, numbers.Integral) and not isinstance(card, bool) and 0 <= int(card) < NUM_CODES:
        return int(card)
    raise RuleError("D1", f"the deck holds an unknown card: {card!r}")
