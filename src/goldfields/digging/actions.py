"""Digging's action space and its notation.

Every decision is one integer in ``range(NUM_ACTIONS)``, the same space for
every table size, so bots and research adapters see a fixed action space:

====================  ==========================================  =========
move                  meaning                                     ids
====================  ==========================================  =========
``draw``              draw the top card of the pile               0
``skip``              no legal action (forced)                    1
``pass <card>``       pass a card face down to the partner        2..23
``play M? <seat>``    open a mine in ``seat``'s display           24..35
``play <chest> mK``   lay a (double) chest on mine ``mK``         36..89
``play X mK``         close mine ``mK``                           90..98
``play B<v> mK``      lay bandit ``v`` on mine ``mK``             99..206
====================  ==========================================  =========

Mines are named ``m1``, ``m2``... in the order they were opened in the hand;
at most nine mines exist in a hand (there are nine mine cards).
"""

from __future__ import annotations

from ..core.words import is_number
from .cards import CLOSE, CODE_OF, CODES, NUM_CODES

DRAW = 0
SKIP = 1
PASS_BASE = 2
OPEN_BASE = PASS_BASE + NUM_CODES  # 24
CHEST_BASE = OPEN_BASE + 3 * 4  # 36
CLOSE_BASE = CHEST_BASE + 6 * 9  # 90
BANDIT_BASE = CLOSE_BASE + 9  # 99
NUM_ACTIONS = BANDIT_BASE + 12 * 9  # 207
MAX_MINES = 9
MAX_SEATS = 4

# Kinds of action, as decoded below.
K_DRAW, K_SKIP, K_PASS, K_OPEN, K_CHEST, K_CLOSE, K_BANDIT = range(7)


def pass_action(code: int) -> int:
    return PASS_BASE + code


def open_action(mine_code: int, seat: int) -> int:
    return OPEN_BASE + mine_code * 4 + seat


def chest_action(chest_code: int, mine: int) -> int:
    return CHEST_BASE + (chest_code - 3) * 9 + mine


def close_action(mine: int) -> int:
    return CLOSE_BASE + mine


def bandit_action(bandit_code: int, mine: int) -> int:
    return BANDIT_BASE + (bandit_code - 10) * 9 + mine


def _decode(a: int) -> tuple[int, int, int]:
    """(kind, card code or -1, target seat/mine or -1)."""
    if a == DRAW:
        return K_DRAW, -1, -1
    if a == SKIP:
        return K_SKIP, -1, -1
    if a < OPEN_BASE:
        return K_PASS, a - PASS_BASE, -1
    if a < CHEST_BASE:
        code, seat = divmod(a - OPEN_BASE, 4)
        return K_OPEN, code, seat
    if a < CLOSE_BASE:
        idx, mine = divmod(a - CHEST_BASE, 9)
        return K_CHEST, 3 + idx, mine
    if a < BANDIT_BASE:
        return K_CLOSE, CLOSE, a - CLOSE_BASE
    idx, mine = divmod(a - BANDIT_BASE, 9)
    return K_BANDIT, 10 + idx, mine


DECODED: tuple[tuple[int, int, int], ...] = tuple(_decode(a) for a in range(NUM_ACTIONS))
# The card an action takes out of the mover's hand, or -1 (draw, skip).
CARD_OF_ACTION: tuple[int, ...] = tuple(d[1] for d in DECODED)


def mine_name(index: int) -> str:
    return f"m{index + 1}"


def action_to_string(a: int) -> str:
    if not 0 <= a < NUM_ACTIONS:
        raise ValueError(f"no Digging action has id {a}")
    kind, code, target = DECODED[a]
    if kind == K_DRAW:
        return "draw"
    if kind == K_SKIP:
        return "skip"
    if kind == K_PASS:
        return f"pass {CODES[code]}"
    if kind == K_OPEN:
        return f"play {CODES[code]} {target}"
    return f"play {CODES[code]} {mine_name(target)}"


TEXT: tuple[str, ...] = tuple(action_to_string(a) for a in range(NUM_ACTIONS))
"""Every action's notation, by id."""


class NotationError(ValueError):
    """A move that cannot be read; ``rule`` is ``"notation"`` or the ruling it runs into."""

    def __init__(self, message: str, rule: str = "notation") -> None:
        super().__init__(message)
        self.rule = rule


def string_to_action(text: str, players: int = MAX_SEATS) -> int:
    """Parse a move in the notation for a table of ``players``; raises :class:`NotationError`."""
    words = text.split()
    if not words:
        raise NotationError("empty move")
    verb = words[0].lower()
    if verb in ("draw", "skip"):
        if len(words) != 1:
            raise NotationError(f"'{verb}' takes nothing after it: {text!r}")
        return DRAW if verb == "draw" else SKIP
    if verb == "pass":
        if len(words) != 2:
            raise NotationError(f"write 'pass <card>', e.g. 'pass G': {text!r}")
        return pass_action(_card(words[1]))
    if verb == "play":
        if len(words) != 3:
            raise NotationError(
                f"write 'play <mine card> <seat>' or 'play <card> <mine>': {text!r}"
            )
        code = _card(words[1])
        where = words[2].lower()
        if code <= 2:
            if not is_number(where):
                raise NotationError(f"a mine card is played to a seat number, e.g. 'play MG 0': {text!r}")
            if int(where) >= players:
                # Readable, but D3: a mine opens in the display of a player at this table.
                raise NotationError(f"{text!r}: there is no seat {int(where)}; the seats are 0 to {players - 1}",
                                    "D3")
            return open_action(code, int(where))
        if not (where.startswith("m") and is_number(where[1:])) or not 1 <= int(where[1:]) <= MAX_MINES:
            raise NotationError(f"'{words[1]}' is played onto a mine, m1 to m9: {text!r}")
        mine = int(where[1:]) - 1
        if code == CLOSE:
            return close_action(mine)
        if code >= 10:
            return bandit_action(code, mine)
        return chest_action(code, mine)
    raise NotationError(f"unknown move {text!r}: moves are draw, pass, play and skip")


def _card(word: str) -> int:
    try:
        return CODE_OF[word.upper()]
    except KeyError:
        raise NotationError(
            f"unknown card {word!r}: cards are MG MS MC, G S C, GG SS CC, X, B1..B12"
        ) from None

