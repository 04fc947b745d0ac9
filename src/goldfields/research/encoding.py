"""One observation encoding per game, shared by OpenSpiel, PettingZoo and Gymnasium.

An encoding turns ``state.observation(seat)`` (the engine's statement of what
a seat may know, as JSON) into a flat ``float32`` vector. It reads nothing
else, so nothing hidden can leak into a tensor: two states that a seat cannot
tell apart give it the same observation, hence the same vector
(tests/research/test_encoding.py checks it with the engines' samplers).

Every value lies in [0, 1]. Seats are written *relative to the observer*:
slot 0 is the observer, slot 1 the next seat clockwise, and so on (in the
partnership game slot 2 is the partner). Slots for seats the table does not
have stay 0, so one size serves every table size.

:data:`DIGGING` and :data:`DIGGER` list the slices (name, shape, meaning);
docs/research.md prints them. ``encoding.slices`` maps a name to its
``slice`` in the flat vector.
"""

from __future__ import annotations

import numbers
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import compress
from typing import Any

from ._deps import require

np = require("numpy", "goldfields.research.encoding")

from ..core import registry  # noqa: E402
from ..core.game import TERMINAL  # noqa: E402
from ..digger.definition import DIGGER as DIGGER_GAME  # noqa: E402
from ..digger.dice import FACES, TOKENS_PER_COLOUR  # noqa: E402
from ..digger.state import KNOCK_DUE, ROLL_DUE  # noqa: E402
from ..digging.actions import MAX_MINES  # noqa: E402
from ..digging.cards import CODE_OF, CODES, FULL_COUNTS, NUM_CODES, deck_counts  # noqa: E402
from ..digging.definition import DIGGING as DIGGING_GAME  # noqa: E402
from ..digging.options import HAND_SIZE, hand_size_for  # noqa: E402
from ..digging.state import mine_points  # noqa: E402

DIGGING_SEATS = 4
DIGGER_SEATS = 5


@dataclass(frozen=True)
class Piece:
    name: str
    shape: tuple[int, ...]
    meaning: str
    private: bool = False
    """What the observer knows and a spectator does not (OpenSpiel's private-only observation keeps
    these pieces alone). Every other piece is public: the same for every seat once seats are relative."""

    @property
    def size(self) -> int:
        out = 1
        for d in self.shape:
            out *= d
        return out


@dataclass
class Encoding:
    """A named layout of a flat float32 vector, and the function that fills it.

    This is what a game provides to the research adapters (its definition's
    ``encoding`` names it): ``pieces``, the layout; ``encoder(obs, out)``,
    which turns the seat's observation (``state.observation(seat)``) into the
    vector, writing into ``out`` when given; every value in [0, 1]. It must
    read nothing but the observation, so that nothing hidden can reach a
    tensor. Optionally ``state_encoder(state, seat, out)``: the same vector
    computed from the engine's state without building the observation, for
    speed (:meth:`encode_state`); it must equal ``encoder`` on every state.
    """

    game: str
    pieces: tuple[Piece, ...]
    encoder: Callable[[Mapping[str, Any], Any], Any] | None = None
    state_encoder: Callable[[Any, int | None, Any], Any] | None = None
    marks_over: Callable[[Any], None] | None = None
    """Writes into a vector what says the game is over (:meth:`encode_state`'s ``over``)."""
    slices: dict[str, slice] = field(init=False)
    size: int = field(init=False)

    def encode(self, obs: Mapping[str, Any], out: Any = None) -> Any:
        """The observation as a float32 vector (in ``out`` if given)."""
        if self.encoder is None:
            raise NotImplementedError(f"the {self.game} encoding has no encoder")
        return self.encoder(obs, out)

    def encode_state(self, state: Any, seat: int | None, out: Any = None, over: bool = False) -> Any:
        """``encode(state.observation(seat), out)``, computed faster when the game has a state encoder.

        A state encoder reads the engine's state directly, only the fields
        that ``observation(seat)`` exposes, and gives the same vector bit for
        bit (tests/research/test_encoding.py checks it on random positions of
        every table); without one this is the observation path.

        ``over``: the episode is over where the engine's game is not, because
        a table's cap (``max_moves``, ``max_turns``) cut it. The vector then
        says the game is over as it does at a natural end, so that an agent
        never sees a last observation whose seat is still to move.
        """
        if self.state_encoder is not None:
            vector = self.state_encoder(state, seat, out)
        else:
            vector = self.encode(state.observation(seat), out)
        if over and self.marks_over is not None:
            self.marks_over(vector)
        return vector

    def __post_init__(self) -> None:
        self.slices = {}
        at = 0
        for p in self.pieces:
            self.slices[p.name] = slice(at, at + p.size)
            at += p.size
        self.size = at

    def views(self, vector: Any) -> dict[str, Any]:
        """Named, reshaped views into ``vector`` (no copy)."""
        return {p.name: vector[self.slices[p.name]].reshape(p.shape) for p in self.pieces}

    def table(self) -> str:
        """The layout as a Markdown table (for docs/research.md)."""
        rows = ["| slice | indices | shape | meaning |", "|---|---|---|---|"]
        for p in self.pieces:
            s = self.slices[p.name]
            rows.append(f"| `{p.name}` | {s.start}-{s.stop - 1} | {'x'.join(map(str, p.shape))} | {p.meaning} |")
        return "\n".join(rows)


# ---------------------------------------------------------------------------
# Digging
# ---------------------------------------------------------------------------
_CHEST_CODES = ("G", "S", "C", "GG", "SS", "CC")
_METAL_INDEX = {"gold": 0, "silver": 1, "copper": 2}
_DOUBLE = {"GG", "SS", "CC"}
_MINE_FEATURES = 18
MINE_SCALE = 60.0  # the most a mine can score: a gold mine opened with GG, then the nine G (10 x 6)
SCORE_SCALE = 120.0
HAND_SCALE = 24.0

DIGGING = Encoding(
    DIGGING_GAME.name,
    (
        Piece("players", (3,), "one-hot table size: 2, 3, 4 players"),
        Piece("partnership", (1,), "1 in the partnership game"),
        Piece("seat", (DIGGING_SEATS,), "one-hot absolute seat of the observer", private=True),
        Piece("to_move", (DIGGING_SEATS,), "one-hot relative seat to move (all 0 at a chance node or the end)"),
        Piece("hand", (NUM_CODES,), "observer's hand: count of each card code / copies in the full deck", private=True),
        Piece(
            "unseen",
            (NUM_CODES,),
            "cards the observer cannot see (other hands and the pile) per code / copies in the full deck",
            private=True,
        ),
        Piece(
            "partner_holds",
            (NUM_CODES,),
            "cards the observer knows its partner holds (it passed them) / copies",
            private=True,
        ),
        Piece("hand_sizes", (DIGGING_SEATS,), "cards in each relative seat's hand / 24"),
        Piece(
            "pile",
            (1,),
            "cards left in the draw pile / the largest pile the table's deck allows (deck minus the hands "
            "dealt: 36 at every table of the standard rules; 48 and 42 with full_deck for 2 and 3 players)",
        ),
        Piece(
            "last_round",
            (2,),
            "[1 once the pile is empty, turns left in the last round / 4]",
        ),
        Piece(
            "cannot_hold",
            (DIGGING_SEATS, NUM_CODES),
            "per relative seat, 1 for each code it showed it cannot hold by a forced skip",
        ),
        Piece(
            "mines",
            (MAX_MINES, _MINE_FEATURES),
            "per mine m1..m9 (opening order, as in the action ids): [exists, metal one-hot (3), "
            "owner relative seat one-hot (4), closed, chest counts G S C GG SS CC / 9 (6), "
            "first chest is a double, points it scores (closed) or would score if closed now / 60, "
            "under attack]",
        ),
        Piece(
            "fight",
            (1 + MAX_MINES + 2 * DIGGING_SEATS + DIGGING_SEATS + 2,),
            "[fight under way, mine one-hot (9), attacker relative seat one-hot (4), "
            "seats whose chance to join is still open (4), bandit value laid per relative seat / 12 (4), "
            "attack sum / 24, defence sum / 24 (partnership; individual: highest bandit / 12 in both)]",
        ),
        Piece("discard", (NUM_CODES,), "the face-up discard pile per code / copies"),
        Piece("hand_points", (DIGGING_SEATS,), "closed-mine points this hand per relative seat / 120"),
        Piece("totals", (DIGGING_SEATS,), "game points per relative seat / 120 (clipped at 1)"),
        Piece("target", (1,), "points a side needs to win / 120"),
        Piece("hand_no", (1,), "hands played before this one / 10 (clipped at 1)"),
    ),
)

_INV_FULL = tuple(1.0 / k for k in FULL_COUNTS)
_SLICES_DIGGING = DIGGING.slices
_MINE_CODE = {"gold": CODE_OF["MG"], "silver": CODE_OF["MS"], "copper": CODE_OF["MC"]}
_CLOSE_CODE = CODE_OF["X"]
_DECKS: dict[tuple[int, bool, bool, int], tuple[list[int], float]] = {}


def _deck(players: int, partnership: bool, full_deck: bool, hand: int = HAND_SIZE) -> tuple[list[int], float]:
    """The table's deck (counts per code) and its :func:`largest_pile`, worked out once a table."""
    key = (players, partnership, full_deck, hand)
    hit = _DECKS.get(key)
    if hit is None:
        deck = deck_counts(players, partnership, full_deck)
        hit = _DECKS[key] = (deck, float(largest_pile(players, deck, hand)))
    return hit


def largest_pile(players: int, deck: Sequence[int], hand: int = HAND_SIZE) -> int:
    """The most cards the draw pile can hold at a table: its deck (counts per code) less the hands
    dealt (D1; ``hand`` cards each, as the ``hand_size`` option may set). The ``pile`` slice is
    scaled by it so that it stays in [0, 1] under every rule option; at every table of the
    standard rules it is 36, the divisor the shipped networks were trained with, so their inputs
    are unchanged."""
    return sum(deck) - hand * players


def _counts(cards: Sequence[str]) -> list[int]:
    out = [0] * NUM_CODES
    for c in cards:
        out[CODE_OF[c]] += 1
    return out


def _finish(v: list[float], out: Any) -> Any:
    if out is None:
        return np.asarray(v, dtype=np.float32)
    out[:] = v
    return out


def encode_digging(obs: Mapping[str, Any], out: Any = None) -> Any:
    """The Digging observation ``obs`` (``state.observation(seat)``) as a vector.

    A spectator's observation (``seat`` None) is encoded from seat 0's
    position with an empty hand. ``out``, if given, is filled in place.
    """
    v = [0.0] * DIGGING.size
    s = _SLICES_DIGGING
    n = obs["players"]
    seat = obs["seat"]
    me = 0 if seat is None else seat
    partnership = obs["partnership"]

    def rel(x: int) -> int:
        return (x - me) % n

    v[s["players"].start + n - 2] = 1.0
    v[s["partnership"].start] = 1.0 if partnership else 0.0
    if seat is not None:
        v[s["seat"].start + seat] = 1.0
    to_move = obs["to_move"]
    if to_move is not None and to_move >= 0:
        v[s["to_move"].start + rel(to_move)] = 1.0

    hand = _counts(obs["hand"] or ())
    discard = _counts(obs["discard"])
    on_table = [0] * NUM_CODES
    for m in obs["mines"]:
        on_table[_MINE_CODE[m["metal"]]] += 1
        for c in m["chests"]:
            on_table[CODE_OF[c]] += 1
        if m["closed"]:
            on_table[_CLOSE_CODE] += 1
    fight = obs["fight"]
    if fight is not None:
        for _, b in fight["bandits"]:
            on_table[CODE_OF[b]] += 1
    chosen = obs["options"]
    deck, pile_scale = _deck(n, partnership, bool(chosen.get("full_deck", False)), hand_size_for(chosen))
    partner = _counts(obs["partner_holds"]) if obs.get("partner_holds") else None
    h0, u0, p0, d0 = s["hand"].start, s["unseen"].start, s["partner_holds"].start, s["discard"].start
    for c in range(NUM_CODES):
        inv = _INV_FULL[c]
        v[h0 + c] = hand[c] * inv
        v[d0 + c] = discard[c] * inv
        v[u0 + c] = max(0, deck[c] - hand[c] - discard[c] - on_table[c]) * inv
        if partner is not None:
            v[p0 + c] = partner[c] * inv

    base = s["hand_sizes"].start
    for x, size in enumerate(obs["hand_sizes"]):
        v[base + rel(x)] = min(1.0, size / HAND_SCALE)
    v[s["pile"].start] = obs["pile"] / pile_scale
    last = obs["last_round"]
    if last is not None:
        v[s["last_round"].start] = 1.0
        v[s["last_round"].start + 1] = last / 4.0
    base = s["cannot_hold"].start
    for x, codes in enumerate(obs["cannot_hold"]):
        row = base + rel(x) * NUM_CODES
        for c in codes:
            v[row + CODE_OF[c]] = 1.0

    base = s["mines"].start
    fight_mine = -1 if fight is None else int(fight["mine"][1:]) - 1
    for i, m in enumerate(obs["mines"]):
        row = base + i * _MINE_FEATURES
        metal = _METAL_INDEX[m["metal"]]
        v[row] = 1.0
        v[row + 1 + metal] = 1.0
        v[row + 4 + rel(m["owner"])] = 1.0
        v[row + 8] = 1.0 if m["closed"] else 0.0
        chests = m["chests"]
        for c in chests:
            v[row + 9 + _CHEST_CODES.index(c)] += 1.0 / 9.0
        v[row + 15] = 1.0 if chests and chests[0] in _DOUBLE else 0.0
        v[row + 16] = min(1.0, m["points_if_closed"] / MINE_SCALE)
        v[row + 17] = 1.0 if i == fight_mine else 0.0

    if fight is not None:
        base = s["fight"].start
        v[base] = 1.0
        v[base + 1 + fight_mine] = 1.0
        v[base + 10 + rel(fight["attacker"])] = 1.0
        for x in fight["chances"]:
            v[base + 14 + rel(x)] = 1.0
        for x, b in fight["bandits"]:
            v[base + 18 + rel(x)] = int(b[1:]) / 12.0
        if partnership:
            v[base + 22] = min(1.0, fight["attack"] / 24.0)
            v[base + 23] = min(1.0, fight["defence"] / 24.0)
        else:
            top = max(int(b[1:]) for _, b in fight["bandits"]) / 12.0
            v[base + 22] = v[base + 23] = top

    base = s["hand_points"].start
    for x, p in enumerate(obs["points"]):
        v[base + rel(x)] = min(1.0, p / SCORE_SCALE)
    base = s["totals"].start
    for x, p in enumerate(obs["totals"]):
        v[base + rel(x)] = min(1.0, p / SCORE_SCALE)
    v[s["target"].start] = obs["target"] / SCORE_SCALE
    v[s["hand_no"].start] = min(1.0, max(0, obs["hand_no"]) / 10.0)
    return _finish(v, out)


# The state encoders: the same vectors, read straight from the engine's state.
#
# ``state.observation(seat)`` builds a JSON document (its history, the legal moves as text, the
# fight's derived facts) that the encoder above reads back: together several times the cost of a
# move. These read only the fields that ``observation(seat)`` exposes, in the engine's own
# representation: they copy in a template of the values fixed for the table and the observer,
# then write the few other non-zero values through a memoryview of the result (cheaper per item
# than numpy's setitem), with rows that recur (a mine, a roll) cached. Every value is computed
# with the same double-precision expression as above, so the float32 results are identical;
# tests/research/test_encoding.py compares the two on random positions.
def _repeated_sums(step: float, count: int) -> tuple[float, ...]:
    """0, step, step + step, ...: the values the observation path reaches by repeated ``+=``."""
    out = [0.0]
    for _ in range(count):
        out.append(out[-1] + step)
    return tuple(out)


def _target(out: Any, size: int) -> tuple[Any, Any]:
    """The vector to fill and a memoryview of it (item writes through a memoryview cost less
    than numpy's): ``out`` itself when it is a contiguous float32 vector, else a new one."""
    if type(out) is np.ndarray and out.dtype == _FLOAT32 and out.ndim == 1 and out.flags.c_contiguous:
        vector = out
    else:
        vector = np.empty(size, _FLOAT32)
    return vector, memoryview(vector)


def _done(vector: Any, out: Any) -> Any:
    if out is None or vector is out:
        return vector
    out[:] = vector
    return out


_FLOAT32 = np.dtype(np.float32)


def _rel_tables(seats: int) -> dict[tuple[int, int], tuple[int, ...]]:
    """(players, observer) -> the relative slot of each absolute seat."""
    return {(n, me): tuple((x - me) % n for x in range(n)) for n in range(1, seats + 1) for me in range(n)}


_REL_DIGGING = _rel_tables(DIGGING_SEATS)
_DIGGING_SIZE = DIGGING.size
_ZERO_DIGGING = array("f", bytes(4 * DIGGING.size))
_CHEST_SUMS = _repeated_sums(1.0 / 9.0, 12)
_CODE_RANGE = tuple(range(NUM_CODES))
_D_PLAYERS = _SLICES_DIGGING["players"].start
_D_PARTNERSHIP = _SLICES_DIGGING["partnership"].start
_D_SEAT = _SLICES_DIGGING["seat"].start
_D_TO_MOVE = _SLICES_DIGGING["to_move"].start
_D_HAND = _SLICES_DIGGING["hand"].start
_D_UNSEEN = _SLICES_DIGGING["unseen"].start
_D_PARTNER = _SLICES_DIGGING["partner_holds"].start
_D_SIZES = _SLICES_DIGGING["hand_sizes"].start
_D_PILE = _SLICES_DIGGING["pile"].start
_D_LAST = _SLICES_DIGGING["last_round"].start
_D_CANNOT = _SLICES_DIGGING["cannot_hold"].start
_D_MINES = _SLICES_DIGGING["mines"].start
_D_FIGHT = _SLICES_DIGGING["fight"].start
_D_DISCARD = _SLICES_DIGGING["discard"].start
_D_POINTS = _SLICES_DIGGING["hand_points"].start
_D_TOTALS = _SLICES_DIGGING["totals"].start
_D_TARGET = _SLICES_DIGGING["target"].start
_D_HAND_NO = _SLICES_DIGGING["hand_no"].start
_FIRST_DOUBLE_CODE = CODE_OF["GG"]
_FIRST_CHEST_CODE = CODE_OF["G"]
_FIRST_BANDIT = CODE_OF["B1"] - 1  # a bandit's value is its code minus this


def _digging_template(state: Any, seat: int | None) -> tuple[Any, tuple[tuple[float, ...], ...], float]:
    """The values that only depend on the table and the observer, cached per table, per code
    the unseen value once ``j`` copies are held or seen (``max(0, deck - j) / full count``), and
    the scale of the ``pile`` slice (:func:`largest_pile`).

    ``unseen`` starts as the whole deck: the encoder then corrects only the codes the seat sees.
    """
    n = state.num_players
    deck = state.deck_counts
    # Looked up by the identity of the deck's tuple first (a game and its clones share it), which
    # costs less than hashing it; the entry keeps the tuple alive, so the id cannot be reused.
    fast = _DIGGING_BY_DECK.get((id(deck), seat))
    table = (n, state.partnership, state.target, state.hand_size)
    if fast is not None and fast[0] is deck and fast[1] == table:
        return fast[2]
    key = (seat, *table, deck)
    hit = _DIGGING_TEMPLATES.get(key)
    if hit is None:
        v = array("f", _ZERO_DIGGING)
        v[_D_PLAYERS + n - 2] = 1.0
        if state.partnership:
            v[_D_PARTNERSHIP] = 1.0
        if seat is not None:
            v[_D_SEAT + seat] = 1.0
        v[_D_TARGET] = state.target / SCORE_SCALE
        for c, k in enumerate(deck):
            if k > 0:
                v[_D_UNSEEN + c] = k * _INV_FULL[c]
        unseen = tuple(tuple(max(0, k - j) * _INV_FULL[c] for j in range(61)) for c, k in enumerate(deck))
        hit = _DIGGING_TEMPLATES[key] = (v, unseen, float(largest_pile(n, deck, state.hand_size)))
    if len(_DIGGING_BY_DECK) > 4096:
        _DIGGING_BY_DECK.clear()
    _DIGGING_BY_DECK[id(deck), seat] = (deck, table, hit)
    return hit


_DIGGING_TEMPLATES: dict[tuple[Any, ...], tuple[Any, tuple[tuple[float, ...], ...], float]] = {}
_DIGGING_BY_DECK: dict[tuple[int, int | None], tuple[Any, tuple[Any, ...], Any]] = {}


def _mine_row(key: tuple[Any, ...]) -> tuple[Any, int, tuple[int, ...]]:
    """A mine's 18 values, what it scores closed and its cards' codes, from (metal, owner's
    relative seat, closed, under attack, chests): a table has few distinct mines, so each row
    is computed once."""
    metal, owner, closed, attacked, chests = key
    row = array("f", bytes(4 * _MINE_FEATURES))
    row[0] = 1.0
    row[1 + metal] = 1.0
    row[4 + owner] = 1.0
    row[8] = 1.0 if closed else 0.0
    for c in chests:
        row[9 + c - _FIRST_CHEST_CODE] = _CHEST_SUMS[chests.count(c)]
    row[15] = 1.0 if chests and chests[0] >= _FIRST_DOUBLE_CODE else 0.0
    # D6: a mine closed during its fight loses its most recent chest.
    scored = mine_points(metal, chests[:-1] if attacked and not closed else chests)
    row[16] = min(1.0, scored / MINE_SCALE)
    row[17] = 1.0 if attacked else 0.0
    if len(_MINE_ROWS) > 100_000:  # bounded: a long run sees a few thousand distinct mines
        _MINE_ROWS.clear()
    face_up = (metal, *chests, _CLOSE_CODE) if closed else (metal, *chests)  # a mine card's code is its metal
    return row, mine_points(metal, chests), face_up


_MINE_ROWS: dict[tuple[Any, ...], tuple[Any, int, tuple[int, ...]]] = {}


def encode_digging_state(state: Any, seat: int | None, out: Any = None) -> Any:
    """:func:`encode_digging` of ``state.observation(seat)``, read from the ``DiggingState`` directly."""
    n = state.num_players
    partnership = state.partnership
    v: Any
    if out is None:  # the common case, without a call
        vector = np.empty(_DIGGING_SIZE, _FLOAT32)
        v = memoryview(vector)
    else:
        vector, v = _target(out, _DIGGING_SIZE)
    template, unseen_value, pile_scale = _digging_template(state, seat)
    v[:] = template
    rel = _REL_DIGGING[n, 0 if seat is None else seat]
    inv = _INV_FULL
    mine_rows = _MINE_ROWS

    to_move = state.current_player
    if to_move >= 0:
        v[_D_TO_MOVE + rel[to_move]] = 1.0

    seen = [0] * NUM_CODES  # face up: the discard pile, the mines, the bandits of the fight
    discard = state.discard
    if discard:
        for c in discard:
            seen[c] += 1
        at = _D_DISCARD
        for c in set(discard):
            v[at + c] = seen[c] * inv[c]
    fight = state.fight
    fight_mine = -1 if fight is None else fight.mine
    hand_points = [0] * n
    face_up: list[int] = []
    row = _D_MINES
    for i, m in enumerate(state.mines):
        chests = m.chests
        closed = m.closed
        key = (m.metal, rel[m.owner], closed, i == fight_mine, tuple(chests))
        hit = mine_rows.get(key)
        if hit is None:
            hit = mine_rows[key] = _mine_row(key)
        v[row : row + _MINE_FEATURES] = hit[0]
        face_up += hit[2]
        if closed:
            hand_points[m.owner] += hit[1]
        row += _MINE_FEATURES
    for c in face_up:
        seen[c] += 1
    if fight is not None:
        base = _D_FIGHT
        v[base] = 1.0
        v[base + 1 + fight_mine] = 1.0
        v[base + 10 + rel[fight.attacker]] = 1.0
        for x in fight.chances:
            v[base + 14 + rel[x]] = 1.0
        top = 0
        for x, b in fight.bandits:
            seen[b] += 1
            value = b - _FIRST_BANDIT
            v[base + 18 + rel[x]] = value / 12.0
            if value > top:
                top = value
        if partnership:
            attack_team = fight.attacker % 2  # the partnership's teams: seats 0+2 and 1+3
            attack = defence = 0
            for x, b in fight.bandits:
                if x % 2 == attack_team:
                    attack += b - _FIRST_BANDIT
                else:
                    defence += b - _FIRST_BANDIT
            v[base + 22] = min(1.0, attack / 24.0)
            v[base + 23] = min(1.0, defence / 24.0)
        else:
            v[base + 22] = v[base + 23] = top / 12.0

    # The template holds the whole deck as unseen: correct the codes the seat holds or sees
    # (compress walks the non-zero counts in C).
    if seat is not None:
        hand = state.hands[seat]
        at = _D_HAND
        for c in compress(_CODE_RANGE, hand):
            h = hand[c]
            v[at + c] = h * inv[c]
            seen[c] += h  # from here on: held or seen
        if partnership:
            known = state.known[seat]
            for c in compress(_CODE_RANGE, known):
                v[_D_PARTNER + c] = known[c] * inv[c]
    at = _D_UNSEEN
    for c in compress(_CODE_RANGE, seen):
        v[at + c] = unseen_value[c][seen[c]]

    for x, size in enumerate(state.sizes):
        if size:
            v[_D_SIZES + rel[x]] = size / HAND_SCALE if size < HAND_SCALE else 1.0
    pile = len(state.pile)
    if pile:
        v[_D_PILE] = pile / pile_scale
    last = state.final_left
    if last >= 0:
        v[_D_LAST] = 1.0
        v[_D_LAST + 1] = last / 4.0
    cannot_hold = state.cannot_hold
    if any(cannot_hold):
        for x, codes in enumerate(cannot_hold):
            if codes:
                row = _D_CANNOT + rel[x] * NUM_CODES
                for c in codes:
                    v[row + c] = 1.0
    if any(hand_points):
        for x, p in enumerate(hand_points):
            if p:
                v[_D_POINTS + rel[x]] = min(1.0, p / SCORE_SCALE)
    totals = state.totals
    if any(totals):
        for x, p in enumerate(totals):
            if p:
                v[_D_TOTALS + rel[x]] = min(1.0, p / SCORE_SCALE)
    hand_no = state.hand_no
    if hand_no > 0:
        v[_D_HAND_NO] = min(1.0, hand_no / 10.0)
    return vector if out is None else _done(vector, out)


# ---------------------------------------------------------------------------
# Digger
# ---------------------------------------------------------------------------
_TOKENS = "BYRGW"
_GEM_LETTERS = "YRGW"

DIGGER = Encoding(
    DIGGER_GAME.name,
    (
        Piece("players", (4,), "one-hot table size: 2, 3, 4, 5 players"),
        Piece("seat", (DIGGER_SEATS,), "one-hot absolute seat of the observer", private=True),
        Piece("digger", (DIGGER_SEATS,), "one-hot relative seat of the digger (slot 0: the observer digs)"),
        Piece("waiting", (3,), "[a roll is in the air, a knock outcome is due, the game is over]"),
        Piece("values", (DIGGER_SEATS, 4), "per relative seat, its Y R G W crate values / max(6, the table's largest)"),
        Piece("centre", (5,), "tokens B Y R G W in the centre / 10"),
        Piece("crates", (DIGGER_SEATS, 4), "per relative seat, gems Y R G W in its crate / 10"),
        Piece("haul", (5,), "tokens B Y R G W in the digger's haul (at risk) / 10"),
        Piece("box", (1,), "blue tokens boxed (out of play) / 10"),
        Piece("turn_state", (3,), "[the turn's first roll is thrown, rolls this turn / 16, tokens taken / 16]"),
        Piece("dice", (6,), "faces showing, count per colour B Y R G W K / 5 (0 before a roll lands)"),
        Piece("unique", (5,), "1 for each token colour B Y R G W showing on exactly one die"),
        Piece("black_unique", (1,), "1 when black shows on exactly one die: stealing is open"),
        Piece("used", (5,), "1 for each unique colour whose token was taken this roll"),
        Piece("scores", (DIGGER_SEATS,), "per relative seat, score / its best possible score (10 x its card's sum)"),
        Piece("turn", (1,), "turns played / 100 (clipped)"),
        Piece(
            "clock",
            (3,),
            "[the hourglass is visible to the observer, elapsed / limit, remaining / limit]; "
            "all 0 for the digger, from whom the hourglass is hidden",
            private=True,  # not common knowledge: the digger cannot see it
        ),
        Piece("time_limit", (1,), "seconds in the hourglass / 60 (clipped)"),
    ),
)
_SLICES_DIGGER = DIGGER.slices


def encode_digger(obs: Mapping[str, Any], out: Any = None) -> Any:
    """The Digger observation ``obs`` (``state.observation(seat)``) as a vector.

    The clock slice is filled only when the observation carries the time: the
    engine sets ``elapsed`` to ``null`` for the digger, so the digger's vector
    never holds the time. A spectator (``seat`` None) is encoded from seat 0.
    ``out``, if given, is filled in place.
    """
    v = [0.0] * DIGGER.size
    s = _SLICES_DIGGER
    n = obs["players"]
    seat = obs["seat"]
    me = 0 if seat is None else seat

    def rel(x: int) -> int:
        return (x - me) % n

    v[s["players"].start + n - 2] = 1.0
    if seat is not None:
        v[s["seat"].start + seat] = 1.0
    v[s["digger"].start + rel(obs["digger"])] = 1.0
    waiting = obs["waiting_for"]
    base = s["waiting"].start
    if waiting == "dice":
        v[base] = 1.0
    elif waiting == "knock":
        v[base + 1] = 1.0
    if obs["winners"] is not None:
        v[base + 2] = 1.0
    base = s["values"].start
    best = []
    scale = _values_scale(vals[g] for vals in obs["values"] for g in _GEM_LETTERS)
    for x, vals in enumerate(obs["values"]):
        row = base + rel(x) * 4
        for j, g in enumerate(_GEM_LETTERS):
            v[row + j] = vals[g] / scale
        best.append(10 * sum(vals[g] for g in _GEM_LETTERS))
    centre = obs["centre"]
    base = s["centre"].start
    for j, t in enumerate(_TOKENS):
        v[base + j] = centre[t] / 10.0
    base = s["crates"].start
    for x, crate in enumerate(obs["crates"]):
        row = base + rel(x) * 4
        for j, g in enumerate(_GEM_LETTERS):
            v[row + j] = crate[g] / 10.0
    haul = obs["haul"]
    base = s["haul"].start
    for j, t in enumerate(_TOKENS):
        v[base + j] = haul[t] / 10.0
    v[s["box"].start] = obs["box"]["B"] / 10.0
    base = s["turn_state"].start
    v[base] = 1.0 if obs["started"] else 0.0
    v[base + 1] = min(1.0, obs["rolls"] / 16.0)
    v[base + 2] = min(1.0, obs["tokens_taken"] / 16.0)
    dice = obs["dice"]
    if dice:
        base = s["dice"].start
        for f in dice:
            v[base + FACES.index(f)] += 0.2
    base = s["unique"].start
    for t in obs["unique"]:
        v[base + _TOKENS.index(t)] = 1.0
    v[s["black_unique"].start] = 1.0 if obs["black_unique"] else 0.0
    base = s["used"].start
    for t in obs["used"]:
        v[base + _TOKENS.index(t)] = 1.0
    base = s["scores"].start
    for x, sc in enumerate(obs["scores"]):
        v[base + rel(x)] = min(1.0, sc / best[x]) if best[x] else 0.0
    v[s["turn"].start] = min(1.0, obs["turn"] / 100.0)
    limit = obs["time_limit"]
    if obs["elapsed"] is not None:
        base = s["clock"].start
        v[base] = 1.0
        v[base + 1] = min(1.0, obs["elapsed"] / limit)
        v[base + 2] = min(1.0, obs["remaining"] / limit)
    v[s["time_limit"].start] = min(1.0, limit / 60.0)
    return _finish(v, out)


_REL_DIGGER = _rel_tables(DIGGER_SEATS)
_DIGGER_SIZE = DIGGER.size
_ZERO_DIGGER = array("f", bytes(4 * DIGGER.size))
_DICE_SUMS = _repeated_sums(0.2, 5)
_G_PLAYERS = _SLICES_DIGGER["players"].start
_G_SEAT = _SLICES_DIGGER["seat"].start
_G_DIGGER = _SLICES_DIGGER["digger"].start
_G_WAITING = _SLICES_DIGGER["waiting"].start
_G_VALUES = _SLICES_DIGGER["values"].start
_G_CENTRE = _SLICES_DIGGER["centre"].start
_G_CRATES = _SLICES_DIGGER["crates"].start
_G_HAUL = _SLICES_DIGGER["haul"].start
_G_BOX = _SLICES_DIGGER["box"].start
_G_TURN_STATE = _SLICES_DIGGER["turn_state"].start
_G_DICE = _SLICES_DIGGER["dice"].start
_G_UNIQUE = _SLICES_DIGGER["unique"].start
_G_BLACK = _SLICES_DIGGER["black_unique"].start
_G_USED = _SLICES_DIGGER["used"].start
_G_SCORES = _SLICES_DIGGER["scores"].start
_G_TURN = _SLICES_DIGGER["turn"].start
_G_CLOCK = _SLICES_DIGGER["clock"].start
_G_TIME_LIMIT = _SLICES_DIGGER["time_limit"].start
_TOKEN_RANGE = tuple(range(len(_TOKENS)))  # token colours are 0..4 in the engine, in the order of _TOKENS
_GEM_COLOURS = tuple(FACES.index(g) for g in _GEM_LETTERS)

# Token counts run 0..10 (the tokens of a colour); the lookups give the same doubles as k / 10.0.
_TENTHS = tuple(k / 10.0 for k in range(4 * TOKENS_PER_COLOUR + 1))
_BIT_ROWS = tuple(array("f", (1.0 if mask >> t & 1 else 0.0 for t in range(5))) for mask in range(32))
_DICE_ROWS: dict[tuple[int, ...], Any] = {}  # at most 252 distinguishable rolls (in any order: a few thousand)


def _values_scale(values: Iterable[int]) -> float:
    """What crate values are divided by: 6, the standard cards' largest, or the table's largest
    if it is larger (G1 takes any whole values), so that no two values read alike."""
    return float(max([6, *values]))


def _digger_template(state: Any, seat: int | None) -> tuple[Any, list[int]]:
    """The values fixed for a game and an observer (table size, seat, crate cards, hourglass) and
    each seat's best possible score, cached per game: a state and its clones share ``values``."""
    key = (id(state.values), seat, state.limit)
    hit = _DIGGER_TEMPLATES.get(key)
    if hit is not None and hit[0] is state.values:
        return hit[1], hit[2]
    n = state.num_players
    rel = _REL_DIGGER[n, 0 if seat is None else seat]
    v = array("f", _ZERO_DIGGER)
    v[_G_PLAYERS + n - 2] = 1.0
    if seat is not None:
        v[_G_SEAT + seat] = 1.0
    best = []
    scale = _values_scale(vals[g] for vals in state.values for g in _GEM_COLOURS)
    for x, vals in enumerate(state.values):
        row = _G_VALUES + rel[x] * 4
        for j, g in enumerate(_GEM_COLOURS):
            v[row + j] = vals[g] / scale
        best.append(10 * sum(vals[g] for g in _GEM_COLOURS))
    v[_G_TIME_LIMIT] = min(1.0, state.limit / 60.0)
    if len(_DIGGER_TEMPLATES) > 4096:  # many games, each with its own values: start again
        _DIGGER_TEMPLATES.clear()
    # The entry keeps ``values`` alive, so its id cannot be reused by another object while cached.
    _DIGGER_TEMPLATES[key] = (state.values, v, best)
    return v, best


_DIGGER_TEMPLATES: dict[tuple[Any, ...], tuple[Any, Any, list[int]]] = {}


def encode_digger_state(state: Any, seat: int | None, out: Any = None) -> Any:
    """:func:`encode_digger` of ``state.observation(seat)``, read from the ``DiggerState`` directly."""
    template, best = _digger_template(state, seat)
    v: Any
    if out is None:  # the common case, without a call
        vector = np.empty(_DIGGER_SIZE, _FLOAT32)
        v = memoryview(vector)
    else:
        vector, v = _target(out, _DIGGER_SIZE)
    v[:] = template
    rel = _REL_DIGGER[state.num_players, 0 if seat is None else seat]
    digger = state.digger
    v[_G_DIGGER + rel[digger]] = 1.0
    pending = state.pending
    if pending == ROLL_DUE:
        v[_G_WAITING] = 1.0
    elif pending == KNOCK_DUE:
        v[_G_WAITING + 1] = 1.0
    if state.winners() is not None:
        v[_G_WAITING + 2] = 1.0
    tenths = _TENTHS
    c0, c1, c2, c3, c4 = state.centre
    at = _G_CENTRE
    v[at] = tenths[c0]
    v[at + 1] = tenths[c1]
    v[at + 2] = tenths[c2]
    v[at + 3] = tenths[c3]
    v[at + 4] = tenths[c4]
    taken = state.haul_size
    if taken:
        for t, k in enumerate(state.haul):
            if k:
                v[_G_HAUL + t] = tenths[k]
    values = state.values
    for x, crate in enumerate(state.crates):
        _, y, r, g, w = crate
        if y or r or g or w:
            row = _G_CRATES + rel[x] * 4
            v[row] = tenths[y]
            v[row + 1] = tenths[r]
            v[row + 2] = tenths[g]
            v[row + 3] = tenths[w]
            if best[x]:
                vals = values[x]
                v[_G_SCORES + rel[x]] = min(1.0, (y * vals[1] + r * vals[2] + g * vals[3] + w * vals[4]) / best[x])
    if state.box:
        v[_G_BOX] = state.box / 10.0
    if state.started:
        v[_G_TURN_STATE] = 1.0
    rolls = state.rolls
    if rolls:
        v[_G_TURN_STATE + 1] = min(1.0, rolls / 16.0)
    if taken:
        v[_G_TURN_STATE + 2] = min(1.0, taken / 16.0)
    dice = state.dice
    if dice:
        row = _DICE_ROWS.get(dice)
        if row is None:
            row = _DICE_ROWS[dice] = array("f", (_DICE_SUMS[dice.count(f)] for f in range(6)))
        v[_G_DICE : _G_DICE + 6] = row
        v[_G_UNIQUE : _G_UNIQUE + 5] = _BIT_ROWS[state.unique]
        used = state.used
        if used:
            v[_G_USED : _G_USED + 5] = _BIT_ROWS[used]
    if state.black:
        v[_G_BLACK] = 1.0
    turn = state.turn
    if turn:
        v[_G_TURN] = min(1.0, turn / 100.0)
    if not ((seat is None or seat == digger) and state.current_player != TERMINAL):
        limit = state.limit
        elapsed = state.elapsed
        v[_G_CLOCK] = 1.0
        v[_G_CLOCK + 1] = min(1.0, elapsed / limit)
        v[_G_CLOCK + 2] = min(1.0, max(0.0, limit - elapsed) / limit)
    return vector if out is None else _done(vector, out)


def _digging_over(v: Any) -> None:
    v[_SLICES_DIGGING["to_move"]] = 0.0  # nobody is to move


def _digger_over(v: Any) -> None:
    v[_SLICES_DIGGER["waiting"]] = (0.0, 0.0, 1.0)  # nothing in the air: the game is over


DIGGING.encoder = encode_digging
DIGGING.state_encoder = encode_digging_state
DIGGING.marks_over = _digging_over
DIGGER.encoder = encode_digger
DIGGER.state_encoder = encode_digger_state
DIGGER.marks_over = _digger_over


def encoding_for(game: str) -> Encoding:
    """The encoding a registered game provides (its definition's ``encoding``)."""
    encoding: Encoding = registry.get(game).research_encoding()
    return encoding


def encode(obs: Mapping[str, Any], out: Any = None) -> Any:
    """Encode an observation of any registered game (``obs["game"]`` names it)."""
    return encoding_for(obs["game"]).encode(obs, out)


def encode_state(state: Any, seat: int | None, out: Any = None) -> Any:
    """``encode(state.observation(seat), out)``, read from the engine's state directly where the game allows."""
    return encoding_for(state.game_name).encode_state(state, seat, out)


def action_mask(legal: Sequence[int], num_actions: int) -> Any:
    """1 for each legal action id, as int8 (PettingZoo's and SB3's convention)."""
    mask = np.zeros(num_actions, dtype=np.int8)
    if legal:
        mask[list(legal)] = 1
    return mask


def as_action(action: Any, num_actions: int) -> int:
    """``action`` as an action id, or ``TypeError`` when it is not an integer.

    Python and numpy integers and 0-d integer arrays are ids; so is a float with an
    integral value (``3.0``: some pipelines store actions as floats). A fractional float
    used to be truncated (``0.7`` played 0), and a bool is an int only by accident: both
    are mistakes of the caller, refused whatever ``illegal_action`` says."""
    if type(action) is int or isinstance(action, np.integer):  # the common cases, first
        return int(action)
    value = action.item() if isinstance(action, np.ndarray) and action.shape == () else action
    if not isinstance(value, (bool, np.bool_)):
        if isinstance(value, numbers.Integral):
            return int(value)
        if isinstance(value, numbers.Real) and float(value).is_integer():
            return int(float(value))
    raise TypeError(f"an action is an integer id of Discrete({num_actions}), not {action!r} ({type(action).__name__})")


__all__ = [
    "CODES",
    "DIGGER",
    "DIGGING",
    "Encoding",
    "Piece",
    "action_mask",
    "as_action",
    "encode",
    "encode_digger",
    "encode_digger_state",
    "encode_digging",
    "encode_digging_state",
    "encode_state",
    "encoding_for",
    "largest_pile",
]
