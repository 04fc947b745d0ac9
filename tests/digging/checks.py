"""An independent referee for random Digging games.

The referee knows the rules (RULINGS.md, Digging) but none of the engine's
internals: it works from the events and the public attributes
``mines``/``fight``/``pile``/``hands``/``discard``. Before each
step it lists the legal moves itself and compares them with the engine's;
after each step it checks fights (D6), the last round (D7), the score (D8)
and the end of the game (D9).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

from goldfields.core.game import CHANCE, TERMINAL, Event
from goldfields.digging import DiggingOptions, DiggingState, new_game
from goldfields.digging.cards import CODES

from .scenario import card_census, expected_census

VALUE = (3, 2, 1)  # gold, silver, copper (a mine's metal is 0, 1, 2)
X = CODES.index("X")


def score_mine(metal: int, chests: list[str]) -> int:
    """D8, written from the ruling: a double scores twice its metal; a double first doubles every chest."""
    if not chests:
        return 0
    value = VALUE[metal]
    if len(chests[0]) == 2:
        return 2 * value * len(chests)
    return sum(value * len(c) for c in chests)


def team(state: DiggingState, seat: int) -> int:
    return seat % 2 if state.partnership else seat


def table(state: DiggingState) -> dict[str, Any]:
    """What lies face up, read from the public attributes, in the notation."""
    mines = [
        {
            "name": m.name,
            "metal": m.metal,
            "owner": m.owner,
            "chests": [CODES[c] for c in m.chests],
            "closed": m.closed,
        }
        for m in state.mines
    ]
    fight = state.fight
    return {
        "pile": len(state.pile),
        "mines": mines,
        "fight": None
        if fight is None
        else {
            "mine": state.mines[fight.mine].name,
            "attacker": fight.attacker,
            "bandits": [(s, CODES[c]) for s, c in fight.bandits],
            "chances": list(fight.chances),
        },
        "discard": [CODES[c] for c in state.discard],
    }


def oracle_legal(state: DiggingState, public: dict[str, Any] | None = None) -> set[str]:
    """The legal moves of the seat to move, worked out from the rulings (D2-D6) and what lies on the table."""
    seat = state.current_player
    public = table(state) if public is None else public
    n = state.num_players
    options = state.options
    in_hand = [CODES[c] for c, k in enumerate(state.hands[seat]) if k]
    open_mines = [m for m in public["mines"] if not m["closed"]]
    fight = public["fight"]
    moves: set[str] = set()
    if public["pile"] > 0:
        moves.add("draw")
    if state.partnership:
        moves |= {f"pass {c}" for c in in_hand}
    for card in in_hand:
        code = CODES.index(card)
        if code < 3:  # a mine card
            moves |= {f"play {card} {s}" for s in range(n)}
        elif code < 9:  # a chest: metal gold, silver, copper = code % 3
            for m in open_mines:
                if m["metal"] != code % 3:
                    continue
                if fight is not None and options.no_chests_during_fight and m["name"] == fight["mine"]:
                    continue
                moves.add(f"play {card} {m['name']}")
        elif code == X:
            moves |= {f"play X {m['name']}" for m in open_mines if m["chests"] or not options.close_needs_chest}
        elif fight is not None:
            if seat in fight["chances"]:
                moves.add(f"play {card} {fight['mine']}")
        else:
            moves |= {
                f"play {card} {m['name']}"
                for m in open_mines
                if m["chests"] and team(state, m["owner"]) != team(state, seat)
            }
    return moves or {"skip"}


class Referee:
    """Follows one game step by step and checks it against the rulings."""

    def __init__(self, state: DiggingState) -> None:
        self.n = state.num_players
        self.last_first: int | None = None  # who moved first in the last hand
        self.on_deal(state)

    # -- the deal ----------------------------------------------------------
    def on_deal(self, state: DiggingState) -> None:
        assert state.current_player == (state.dealer + 1) % self.n, "D1: the dealer's left moves first"
        if self.last_first is not None:
            assert state.dealer == self.last_first, "D9: the next dealer is the last hand's first player"
        self.last_first = state.current_player
        self.turns_after_last_draw: int | None = None
        self.last_drawer: int | None = None
        self.fight: dict[str, Any] | None = None  # the referee's own account of the fight under way
        public = table(state)
        assert public["mines"] == [] and public["discard"] == [] and public["fight"] is None
        dealt = state.options.hand_size or 6  # D1's 6, or the designer's hand_size
        assert [sum(h) for h in state.hands] == [dealt] * self.n
        assert public["pile"] == sum(expected_census(state)) - dealt * self.n

    # -- one step ------------------------------------------------------------
    def before(self, state: DiggingState) -> dict[str, Any]:
        seat = state.current_player
        public = table(state)
        ids = state.legal_actions()
        engine = {state.action_to_string(a) for a in ids}
        expected = oracle_legal(state, public)
        assert engine == expected, (
            f"legal moves differ: engine-only {engine - expected}, rules-only {expected - engine}"
        )
        assert ids == sorted(set(ids)), "legal action ids are listed once each, ascending"
        if self.fight is not None:
            assert seat in self.fight["chances"], "D6: during a fight every seat to move still has its chance"
        public["seat"] = seat
        public["totals"] = state.scores()
        return public

    def after(self, state: DiggingState, before: dict[str, Any], move: str, events: list[Event]) -> None:
        seat = before["seat"]
        views = [e.view(None) for e in events]
        kinds = [v["kind"] for v in views]
        now = table(state)
        assert card_census(state) == expected_census(state), "every card is in exactly one place"
        # D7: the last round.
        if self.turns_after_last_draw is not None:
            self.turns_after_last_draw += 1
        if move == "draw" and before["pile"] == 1:
            assert self.turns_after_last_draw is None
            self.turns_after_last_draw = 0
            self.last_drawer = seat
        hand_over = "hand_scored" in kinds
        if hand_over:
            assert self.turns_after_last_draw == self.n, "D7: one more turn each after the last draw, then scoring"
            assert seat == self.last_drawer, "D7: the one who drew the last card has the last turn"
        elif self.turns_after_last_draw is not None:
            assert self.turns_after_last_draw < self.n
        # D6: fights.
        self._check_fight(state, before, now, move, kinds, views, hand_over)
        # One action a turn, clockwise.
        if not hand_over:
            assert state.current_player == (seat + 1) % self.n, "play goes clockwise, one action a turn"
        else:
            self._check_hand_end(state, before, now, views)

    def _check_fight(
        self,
        state: DiggingState,
        before: dict[str, Any],
        now: dict[str, Any],
        move: str,
        kinds: list[str],
        views: list[dict[str, Any]],
        hand_over: bool,
    ) -> None:
        seat = before["seat"]
        words = move.split()
        is_bandit = words[0] == "play" and words[1].startswith("B")
        if self.fight is None:
            if is_bandit:
                target = next(m for m in before["mines"] if m["name"] == words[2])
                assert not target["closed"] and target["chests"], "D6: a fight needs an open mine with a chest"
                assert team(state, target["owner"]) != team(state, seat), "D6: only on an opponent's mine"
                assert "fight_start" in kinds
                self.fight = {
                    "mine": words[2],
                    "attacker": seat,
                    "owner": target["owner"],
                    "bandits": [(seat, words[1])],
                    "chances": [(seat + k) % self.n for k in range(1, self.n)],
                }
                if hand_over:  # started on the very last turn of the hand
                    self._check_hand_end_fight(state, now, kinds, views)
            else:
                assert "fight_start" not in kinds and "fight_resolved" not in kinds
            return
        fight = self.fight
        if seat in fight["chances"]:
            fight["chances"].remove(seat)  # whatever the seat did, its chance is spent
        if is_bandit:
            assert words[2] == fight["mine"], "D6: one fight at a time"
            fight["bandits"].append((seat, words[1]))
        if words[0] == "play" and words[1] == "X" and words[2] == fight["mine"]:
            # Closed during the fight: the last chest laid goes with the bandits.
            old = next(m for m in before["mines"] if m["name"] == fight["mine"])
            new = next(m for m in now["mines"] if m["name"] == fight["mine"])
            assert "fight_ended" in kinds and "fight_resolved" not in kinds
            assert new["chests"] == old["chests"][:-1] and new["closed"] and new["owner"] == old["owner"]
            assert now["fight"] is None
            lost = [old["chests"][-1]] + [b for _, b in fight["bandits"]]
            assert Counter(now["discard"]) == Counter(before["discard"] + lost)
            self.fight = None
        elif hand_over:
            self._check_hand_end_fight(state, now, kinds, views)
        elif state.current_player == fight["attacker"]:
            assert fight["chances"] == [], "D6: everyone had its chance before resolution"
            self._check_resolution(state, now, views)
        else:
            assert "fight_resolved" not in kinds
            assert now["fight"] is not None
            assert now["fight"]["chances"] == fight["chances"]
            assert now["fight"]["bandits"] == fight["bandits"]

    def _check_hand_end_fight(
        self, state: DiggingState, now: dict[str, Any], kinds: list[str], views: list[dict[str, Any]]
    ) -> None:
        fight = self.fight
        assert fight is not None and now["fight"] is None
        assert "fight_lapsed" in kinds and "fight_resolved" not in kinds
        mine = next(m for m in now["mines"] if m["name"] == fight["mine"])
        assert mine["owner"] == fight["owner"], "D6: a lapsed fight leaves the mine where it is"
        assert Counter(now["discard"][-len(fight["bandits"]) :]) == Counter(b for _, b in fight["bandits"])
        self.fight = None

    def _check_resolution(self, state: DiggingState, now: dict[str, Any], views: list[dict[str, Any]]) -> None:
        fight = self.fight
        assert fight is not None
        resolved = [v for v in views if v["kind"] == "fight_resolved"]
        assert len(resolved) == 1, "D6: the fight is resolved when play returns to the first attacker"
        assert now["fight"] is None
        owner = fight["owner"]
        values = [(s, int(b[1:])) for s, b in fight["bandits"]]
        if state.partnership:
            attack = sum(v for s, v in values if team(state, s) == team(state, fight["attacker"]))
            defence = sum(v for s, v in values if team(state, s) == team(state, owner))
            assert attack + defence == sum(v for _, v in values)
            expected = fight["attacker"] if attack > defence else owner
        else:
            by, _ = max(values, key=lambda b: b[1])
            expected = owner if by == owner else by
        mine = next(m for m in now["mines"] if m["name"] == fight["mine"])
        assert mine["owner"] == expected, f"D6: the mine should now be seat {expected}'s"
        assert resolved[0]["owner"] == expected
        assert Counter(now["discard"][-len(values) :]) == Counter(b for _, b in fight["bandits"])
        self.fight = None

    def _check_hand_end(
        self, state: DiggingState, before: dict[str, Any], now: dict[str, Any], views: list[dict[str, Any]]
    ) -> None:
        assert self.fight is None and now["fight"] is None
        points = [0] * self.n
        for m in now["mines"]:
            if m["closed"]:
                points[m["owner"]] += score_mine(m["metal"], m["chests"])
        scored = next(v for v in views if v["kind"] == "hand_scored")
        assert scored["points"] == points, "D8: only closed mines score, for their display's owner"
        assert state.history[-1] == points
        assert state.scores() == [t + p for t, p in zip(before["totals"], points, strict=True)]
        sides: dict[int, int] = {}
        for s, t in enumerate(state.scores()):
            sides[team(state, s)] = sides.get(team(state, s), 0) + t
        top = max(sides.values())
        exceed = state.options.target_exceeded and state.partnership
        reached = top > state.target if exceed else top >= state.target
        leaders = [side for side, t in sides.items() if t == top]
        if reached and len(leaders) == 1:
            assert state.current_player == TERMINAL, "D9: the game ends once a single side on top reached the target"
            assert state.winners() == [s for s in range(self.n) if team(state, s) == leaders[0]]
            assert "game_over" in [v["kind"] for v in views]
        else:
            assert state.current_player == CHANCE, "D9: otherwise another hand is played"
            assert state.winners() is None


def play_random_game(
    seed: int,
    players: int,
    partnership: bool,
    options: DiggingOptions | None = None,
    *,
    referee: bool = True,
    max_steps: int = 20_000,
    on_step: Any = None,
) -> DiggingState:
    """A whole game with uniformly random legal moves (and shuffles), checked by the referee."""
    rng = random.Random(seed)
    state = new_game(players, partnership, rng=rng, options=options)
    ref = Referee(state) if referee else None
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
            if ref is not None:
                ref.on_deal(state)
            continue
        before = ref.before(state) if ref is not None else None
        action = rng.choice(state.legal_actions())
        move = state.action_to_string(action)
        events = state.apply_action(action)
        if ref is not None:
            ref.after(state, before, move, events)
        if on_step is not None:
            on_step(state, events)
        steps += 1
        assert steps < max_steps, "a random game should end"
    return state


def replay_record(record: dict[str, Any]) -> DiggingState:
    """Rebuild a game from its record: apply_chance on each hand's deck, apply_move for each move."""
    first = record["hands"][0]
    state = DiggingState(
        record["players"], record["partnership"], DiggingOptions.from_json(record.get("options")), first["dealer"]
    )
    for hand in record["hands"]:
        state.apply_chance(hand["deck"])
        assert state.dealer == hand["dealer"]
        for move in hand["moves"]:
            state.apply_move(move)
    return state


def all_views(events: Iterable[Event], seats: Iterable[int | None]) -> list[list[dict[str, Any]]]:
    return [[e.view(s) for e in events] for s in seats]
