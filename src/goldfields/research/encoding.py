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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ._deps import require

np = require("numpy", "goldfields.research.encoding")

from ..core import registry  # noqa: E402
from ..digger.definition import DIGGER as DIGGER_GAME  # noqa: E402
from ..digger.dice import FACES  # noqa: E402
from ..digging.actions import MAX_MINES  # noqa: E402
from ..digging.cards import CODE_OF, CODES, FULL_COUNTS, NUM_CODES, deck_counts  # noqa: E402
from ..digging.definition import DIGGING as DIGGING_GAME  # noqa: E402

DIGGING_SEATS = 4
DIGGER_SEATS = 5


@dataclass(frozen=True)
class Piece:
    name: str
    shape: tuple[int, ...]
    meaning: str

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
    tensor.
    """

    game: str
    pieces: tuple[Piece, ...]
    encoder: Callable[[Mapping[str, Any], Any], Any] | None = None
    slices: dict[str, slice] = field(init=False)
    size: int = field(init=False)

    def encode(self, obs: Mapping[str, Any], out: Any = None) -> Any:
        """The observation as a float32 vector (in ``out`` if given)."""
        if self.encoder is None:
            raise NotImplementedError(f"the {self.game} encoding has no encoder")
        return self.encoder(obs, out)

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
        Piece("seat", (DIGGING_SEATS,), "one-hot absolute seat of the observer"),
        Piece("to_move", (DIGGING_SEATS,), "one-hot relative seat to move (all 0 at a chance node or the end)"),
        Piece("hand", (NUM_CODES,), "observer's hand: count of each card code / copies in the full deck"),
        Piece(
            "unseen",
            (NUM_CODES,),
            "cards the observer cannot see (other hands and the pile) per code / copies in the full deck",
        ),
        Piece("partner_holds", (NUM_CODES,), "cards the observer knows its partner holds (it passed them) / copies"),
        Piece("hand_sizes", (DIGGING_SEATS,), "cards in each relative seat's hand / 24"),
        Piece("pile", (1,), "cards left in the draw pile / 36"),
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
_DECKS: dict[tuple[int, bool, bool], list[int]] = {}


def _deck(players: int, partnership: bool, full_deck: bool) -> list[int]:
    key = (players, partnership, full_deck)
    deck = _DECKS.get(key)
    if deck is None:
        deck = _DECKS[key] = deck_counts(players, partnership, full_deck)
    return deck


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
    deck = _deck(n, partnership, bool(obs["options"].get("full_deck", False)))
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
    v[s["pile"].start] = obs["pile"] / 36.0
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


# ---------------------------------------------------------------------------
# Digger
# ---------------------------------------------------------------------------
_TOKENS = "BYRGW"
_GEM_LETTERS = "YRGW"

DIGGER = Encoding(
    DIGGER_GAME.name,
    (
        Piece("players", (4,), "one-hot table size: 2, 3, 4, 5 players"),
        Piece("seat", (DIGGER_SEATS,), "one-hot absolute seat of the observer"),
        Piece("digger", (DIGGER_SEATS,), "one-hot relative seat of the digger (slot 0: the observer digs)"),
        Piece("waiting", (3,), "[a roll is in the air, a knock outcome is due, the game is over]"),
        Piece("values", (DIGGER_SEATS, 4), "per relative seat, its crate card's value of Y R G W / 6 (clipped)"),
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
    for x, vals in enumerate(obs["values"]):
        row = base + rel(x) * 4
        for j, g in enumerate(_GEM_LETTERS):
            v[row + j] = min(1.0, vals[g] / 6.0)
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


DIGGING.encoder = encode_digging
DIGGER.encoder = encode_digger


def encoding_for(game: str) -> Encoding:
    """The encoding a registered game provides (its definition's ``encoding``)."""
    encoding: Encoding = registry.get(game).research_encoding()
    return encoding


def encode(obs: Mapping[str, Any], out: Any = None) -> Any:
    """Encode an observation of any registered game (``obs["game"]`` names it)."""
    return encoding_for(obs["game"]).encode(obs, out)


def action_mask(legal: Sequence[int], num_actions: int) -> Any:
    """1 for each legal action id, as int8 (PettingZoo's and SB3's convention)."""
    mask = np.zeros(num_actions, dtype=np.int8)
    if legal:
        mask[list(legal)] = 1
    return mask


__all__ = [
    "CODES",
    "DIGGER",
    "DIGGING",
    "Encoding",
    "Piece",
    "action_mask",
    "encode",
    "encode_digger",
    "encode_digging",
    "encoding_for",
]
