"""The Digger rules engine.

The rulings (G1..G6) are those of ``RULINGS.md``; docs/digger.md states them
in the project's words. Comments cite the ruling each piece implements.

Representation, chosen for speed (search bots apply millions of actions):
tokens are counts in lists of five indexed by colour (centre, haul, one list
per crate), a roll is remembered as a bit mask of the colours that show on
exactly one die, actions are integers (see :mod:`goldfields.digger.actions`),
and the list of legal actions is computed once per position and cached.

Time enters with each step (``apply_action(action, at=seconds)``); the engine
only compares it with the hourglass (``DiggerOptions.time_limit``).
"""

from __future__ import annotations

import math
import numbers
import random
from collections.abc import Mapping, Sequence
from typing import Any, Self

from ..core.game import CHANCE, TERMINAL, Event, GameState, RuleError
from ..core.stored import StoredFields
from .actions import (
    DECODED,
    K_ROLL,
    K_STEAL,
    K_STOP,
    K_TAKE,
    MAX_SEATS,
    NUM_ACTIONS,
    ROLL,
    STEAL_BASE,
    STOP,
    TAKE_BASE,
    TIMEOUT,
    NotationError,
    action_to_string,
    format_time,
    move_text,
    parse_move,
)
from .crates import CrateSpec, Values, parse_spec, seat_values, spec_json, table_with, values_json
from .dice import (
    BLUE,
    COLOUR_NAMES,
    FACES,
    GEMS,
    NUM_DICE,
    NUM_FACES,
    ORDERED_ROLLS,
    ROLL_OUTCOMES,
    TOKEN_COLOURS,
    TOKENS_PER_COLOUR,
    faces_text,
    parse_faces,
    read_roll,
)
from .options import DiggerOptions

# What a chance node waits for.
NO_CHANCE, ROLL_DUE, KNOCK_DUE = 0, 1, 2
_FACE_RANGE = range(NUM_FACES)

LogEntry = tuple[int, float | None, Any]
"""(action, time or None, chance outcome: the faces of a roll, a steal's knock, or None)."""
_TIMED_OUT: LogEntry = (TIMEOUT, None, None)
# _OTHERS[n][digger]: the seats that may see the hourglass at a table of n.
_OTHERS = [[tuple(s for s in range(n) if s != d) for d in range(n)] for n in range(MAX_SEATS + 1)]


def tokens_json(counts: Sequence[int], colours: Sequence[int] = TOKEN_COLOURS) -> dict[str, int]:
    return {FACES[c]: counts[c] for c in colours}


class DiggerState(GameState):
    """A game of Digger, from the first roll to the final score.

    Create one with :func:`goldfields.digger.new_game` or construct it: seat 0
    is the first digger and no turn has started.
    """

    game_name = "digger"

    def __init__(
        self,
        players: int = 3,
        crates: str | Mapping[str, Any] | Sequence[str] = "white",
        options: DiggerOptions | None = None,
    ) -> None:
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= MAX_SEATS:
            raise ValueError(f"Digger is for 2 to {MAX_SEATS} players, not {players!r}")
        self.num_players = players
        self.options = options if options is not None else DiggerOptions()
        table = table_with(self.options.override)
        self.crate_spec: CrateSpec = parse_spec(crates, players, table)
        self.values: list[Values] = seat_values(self.crate_spec, table, players)
        self.limit = self.options.time_limit
        self.knock_probability = self.options.knock_probability
        self.centre = [TOKENS_PER_COLOUR] * len(TOKEN_COLOURS)
        self.crates = [[0] * len(TOKEN_COLOURS) for _ in range(players)]
        self.haul = [0] * len(TOKEN_COLOURS)
        self.box = 0  # blue tokens stacked away: out of the game (G3)
        self.turn = 0
        self.digger = 0
        self._to_move = 0
        self._winners: list[int] | None = None
        self.logs: list[LogEntry] | None = []
        self._reset_turn()

    def _reset_turn(self) -> None:
        self.pending = NO_CHANCE
        self.started = False  # the turn's first roll has been thrown: the hourglass runs
        self.elapsed = 0.0  # seconds since the first roll, as of the last timed step
        self.rolls = 0  # rolls whose faces are known, this turn
        self.dice: tuple[int, ...] | None = None
        self.unique = 0  # bit mask: token colours showing on exactly one die
        self.black = False  # black shows on exactly one die: stealing is open
        self.used = 0  # bit mask: unique colours that have given their token this roll
        self._legal: list[int] | None = None

    # ------------------------------------------------------------------
    # Whose turn, and public facts about it
    # ------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self._to_move

    @property
    def haul_size(self) -> int:
        return sum(self.haul)

    @property
    def can_time_out(self) -> bool:
        """The hourglass can run out: a turn is under way and its first roll has landed."""
        return self.rolls > 0 and self._to_move != TERMINAL

    def requests(self) -> int:
        """Rolls thrown this turn, the one in the air included."""
        return self.rolls + (self.pending == ROLL_DUE)

    # ------------------------------------------------------------------
    # Legal actions (G2)
    # ------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        legal = self._legal
        if legal is not None:
            return legal
        if self._to_move < 0:
            legal = []
        elif not self.started:
            legal = [ROLL]  # G2: a turn begins with a roll
        else:
            legal = [ROLL, STOP]
            avail = self.unique & ~self.used
            if avail:
                centre = self.centre
                for c in TOKEN_COLOURS:
                    if avail >> c & 1 and centre[c]:
                        legal.append(TAKE_BASE + c)
                if self.black:
                    digger = self.digger
                    for c in GEMS:  # blue is never stolen
                        if avail >> c & 1:
                            base = STEAL_BASE + (c - 1) * MAX_SEATS
                            for victim, crate in enumerate(self.crates):
                                if crate[c] and victim != digger:
                                    legal.append(base + victim)
        self._legal = legal
        return legal

    # ------------------------------------------------------------------
    # Applying decisions
    # ------------------------------------------------------------------
    def apply_action(self, action: int, at: float | None = None) -> list[Event]:
        """Apply a decision at ``at`` seconds since the turn's first roll.

        ``roll`` (after the first) and ``stop`` need ``at``; ``take`` and
        ``steal`` may have it. A step stamped later than the time limit comes
        too late: the hourglass has run out and the turn ends as a timeout
        (G3); a late ``stop`` loses the haul the same way. ``TIMEOUT`` is
        applied by whoever owns the clock, whenever a turn's first roll has
        landed; its ``at`` is ignored.
        """
        if type(action) is not int:
            action = self._as_action(action)
        if action == TIMEOUT:
            if not self.can_time_out:
                raise self._why_no_timeout()
            return self._lose_haul("hourglass", None, _TIMED_OUT)
        if action not in self.legal_actions():
            raise self._why_illegal(action)
        kind, colour, victim = DECODED[action]
        if kind == K_ROLL:
            if self.started:
                t = self._check_time(at, action, required=True)
            else:
                # G3: the hourglass is turned as the first roll is thrown.
                if at is not None and (not _is_number(at) or at != 0):
                    raise RuleError("G3", f"roll @{at}: the hourglass starts at the turn's first roll, whose time is 0")
                t = 0.0
        else:
            t = self._check_time(at, action, required=kind == K_STOP)
        if t is not None and t > self.limit:
            return self._late(action, t)
        digger = self.digger
        if kind == K_ROLL:
            assert t is not None  # a roll always has its time (0 for the turn's first)
            first = not self.started
            self.started = True
            self.elapsed = t
            self.pending = ROLL_DUE
            self._to_move = CHANCE
            self.dice = None
            self.unique = self.used = 0
            self.black = False
            self._legal = None
            if self.logs is not None:
                self.logs.append((ROLL, t, None))
            return [Event("throw", {"seat": digger, "first": first, "roll": self.rolls + 1}, self._clock_for_others(t))]
        if kind == K_STOP:
            assert t is not None
            self.elapsed = t
            return self._bank(t)
        if t is not None:
            self.elapsed = t
        self.used |= 1 << colour  # G2: each unique die gives at most one token
        self.haul[colour] += 1
        self._legal = None
        if self.logs is not None:
            # Its time too (G4): the turn's elapsed time moves with it, and a record that stops
            # mid-turn must give it back, or a replay would let through a step the game refused.
            self.logs.append((action, t, None))
        if kind == K_TAKE:
            self.centre[colour] -= 1
            return [
                Event(
                    "take",
                    {"seat": digger, "colour": FACES[colour], "centre": self.centre[colour]},
                    self._clock_for_others(t),
                )
            ]
        self.crates[victim][colour] -= 1
        events = [Event("steal", {"seat": digger, "colour": FACES[colour], "from": victim}, self._clock_for_others(t))]
        if self.knock_probability > 0.0:
            # G5: whether the thief touched a pile is a chance outcome.
            self.pending = KNOCK_DUE
            self._to_move = CHANCE
        return events

    def _check_time(self, at: Any, action: int, required: bool) -> float | None:
        """G4: a time is seconds since the turn's first roll, and runs forward."""
        if at is None:
            if required:
                raise RuleError(
                    "G4", f"{action_to_string(action)}: needs its time, in seconds since the turn's first roll"
                )
            return None
        # The exact-type test is the fast path; _is_number admits int subclasses (not bool).
        if not (type(at) is float or _is_number(at)) or not math.isfinite(at) or at < 0:
            raise RuleError("G4", f"{action_to_string(action)}: a time is a number of seconds >= 0, not {at!r}")
        t = float(at)
        if t < self.elapsed:
            raise RuleError(
                "G4",
                f"{action_to_string(action)} @{format_time(t)}: time runs forward; "
                f"the last step was at {format_time(self.elapsed)}",
            )
        return t

    def _late(self, action: int, t: float) -> list[Event]:
        """G3: the sand ran out before this step, so the turn ends with the haul lost."""
        if action == STOP:
            # The record keeps the stop and its time: replaying it loses the haul again.
            return self._lose_haul("late stop", t, (STOP, t, None))
        verb = action_to_string(action).split()[0]
        return self._lose_haul(f"late {verb}", t, _TIMED_OUT)

    def _bank(self, t: float) -> list[Event]:
        """G3: gems into the digger's crate, blue tokens into the box."""
        digger = self.digger
        haul = self.haul
        returned = self._unstacked(t) if self.options.stack_seconds else None
        crate = self.crates[digger]
        for c in GEMS:
            crate[c] += haul[c]
        self.box += haul[BLUE]
        self.haul = [0] * len(TOKEN_COLOURS)
        if self.logs is not None:
            self.logs.append((STOP, t, None))
        public = {"seat": digger, "banked": tokens_json(haul, GEMS), "boxed": haul[BLUE], "score": self._score(digger)}
        if returned is not None:
            public["returned"] = tokens_json(returned)
        events = [Event("stop", public, self._clock_for_others(t))]
        self._end_turn(events)
        return events

    def _unstacked(self, t: float) -> list[int]:
        """G3 option ``stack_seconds``: stacking from ``t``, one token per
        ``stack_seconds``, the best gems first (by the digger's card) and blue
        last; the tokens the sand overtakes go back to the centre. Takes them
        out of the haul and returns them (counts per colour)."""
        haul = self.haul
        size = sum(haul)
        fits = min(size, int((self.limit - t) / self.options.stack_seconds + 1e-9))
        returned = [0] * len(TOKEN_COLOURS)
        if fits >= size:
            return returned
        values = self.values[self.digger]
        order = [*sorted(GEMS, key=lambda c: (-values[c], c)), BLUE]
        left = fits
        for c in order:
            kept = min(haul[c], left)
            left -= kept
            returned[c] = haul[c] - kept
            haul[c] = kept
            self.centre[c] += returned[c]
        return returned

    def _lose_haul(self, cause: str, t: float | None, logged: LogEntry | None) -> list[Event]:
        """G3 (and G5): the whole haul, stolen and blue tokens included, goes back to the centre.

        ``logged`` is the move the record keeps for it (``None`` for a knock,
        whose steal is already recorded with its outcome)."""
        haul = self.haul
        centre = self.centre
        for c in TOKEN_COLOURS:
            centre[c] += haul[c]
        self.haul = [0] * len(TOKEN_COLOURS)
        logs = self.logs
        if logs is not None:
            if self.pending == ROLL_DUE:
                # A roll still in the air never landed: the record keeps only the timeout.
                logs.pop()
            if logged is not None:
                logs.append(logged)
        events = [
            Event(
                "knock" if cause == "knock" else "timeout",
                {"seat": self.digger, "cause": cause, "returned": tokens_json(haul)},
                self._clock_for_others(t),
            )
        ]
        self._end_turn(events)
        return events

    def _end_turn(self, events: list[Event]) -> None:
        """G6 at the end of every turn, else the next seat clockwise digs (G3)."""
        self._reset_turn()
        if self.centre[BLUE] == 0:
            scores = self.scores()
            top = max(scores)
            self._winners = [s for s, v in enumerate(scores) if v == top]
            self._to_move = TERMINAL
            events.append(Event("game_over", {"winners": self._winners[:], "scores": scores}))
            return
        self.digger = (self.digger + 1) % self.num_players
        self.turn += 1
        self._to_move = self.digger
        events.append(Event("turn_start", {"seat": self.digger, "turn": self.turn}))

    def _clock_for_others(self, t: float | None) -> dict[int, dict[str, float]]:
        """A step's time, for every seat but the digger (the hourglass is hidden from it, G2)."""
        if t is None:
            return {}
        stamp = {"at": t}  # one dict for every seat: Event.view copies it out, never edits it
        return {s: stamp for s in _OTHERS[self.num_players][self.digger]}

    def _as_action(self, action: Any) -> int:
        # numpy and other integer types are welcome; bools and floats are mistakes.
        if isinstance(action, numbers.Integral) and not isinstance(action, bool):
            return int(action)
        raise RuleError("notation", f"an action is an integer from 0 to {NUM_ACTIONS - 1}, not {action!r}")

    # ------------------------------------------------------------------
    # Notation
    # ------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        try:
            return action_to_string(action)
        except ValueError as err:
            raise RuleError("notation", str(err)) from None

    def string_to_action(self, text: str) -> int:
        try:
            return parse_move(text, self.num_players).action
        except NotationError as err:
            raise RuleError(err.rule, str(err)) from None

    def apply_move(self, text: str) -> list[Event]:
        """Apply a move as written in a record: ``roll KRGBY @2.5`` rolls and
        applies those faces; ``steal Y 2 knock`` (G5 option) also applies its outcome."""
        try:
            move = parse_move(text, self.num_players)
        except NotationError as err:
            raise RuleError(err.rule, str(err)) from None
        action = move.action
        if action == ROLL:
            if move.faces is None:
                raise RuleError("notation", f"{text!r}: a roll is written with its faces, e.g. 'roll KRGBY @2.5'")
            events = self.apply_action(ROLL, move.at)
            if self.pending == ROLL_DUE:  # else the roll came too late and the turn is over
                events += self.apply_chance(move.faces)
            return events
        if move.knocked is not None:
            # Checked before anything changes, so that a bad outcome leaves the state as it was.
            p = self.knock_probability
            if p == 0.0:
                raise RuleError(
                    "G5", f"{text!r}: a steal has no knock outcome unless the knock_probability option is on"
                )
            if p == 1.0 and not move.knocked:
                raise RuleError("G5", f"{text!r}: impossible with knock_probability {p}")
            events = self.apply_action(action, move.at)
            if self.pending == KNOCK_DUE:
                events += self.apply_chance(move.knocked)
            return events
        return self.apply_action(action, move.at)

    # ------------------------------------------------------------------
    # Chance: the dice (G2) and knocked piles (G5)
    # ------------------------------------------------------------------
    def sample_chance(self, rng: random.Random) -> Any:
        """Five faces (colour numbers) for a roll; for a steal, whether it knocked a pile."""
        if self.pending == ROLL_DUE:
            return tuple(rng.choices(_FACE_RANGE, k=NUM_DICE))
        if self.pending == KNOCK_DUE:
            return rng.random() < self.knock_probability
        raise self._no_chance_due()

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """Every outcome with its probability: the 252 distinguishable rolls
        (faces in colour order, ``"BBYRK"``), or ``False``/``True`` for a knock."""
        if self.pending == ROLL_DUE:
            return list(ROLL_OUTCOMES)
        if self.pending == KNOCK_DUE:
            p = self.knock_probability
            return [(False, 1.0 - p), (True, p)]
        raise self._no_chance_due()

    def apply_chance(self, outcome: Any) -> list[Event]:
        """A roll's five faces (``"KRGBY"``, letters or colour numbers), or a
        steal's knock (``True``/``"knock"`` or ``False``/``"safe"``)."""
        if self.pending == ROLL_DUE:
            roll = ORDERED_ROLLS.get(outcome) if isinstance(outcome, (tuple, str)) else None
            if roll is None:
                try:
                    roll = ORDERED_ROLLS[parse_faces(outcome)]
                except (TypeError, ValueError) as err:
                    raise RuleError("G2", f"the dice: {err}") from None
            faces = roll.faces
            self.dice = faces
            self.unique = roll.unique
            self.black = roll.black
            self.used = 0
            self.rolls += 1
            self.pending = NO_CHANCE
            self._to_move = self.digger
            self._legal = None
            logs = self.logs
            if logs is not None:
                logs[-1] = (ROLL, logs[-1][1], faces)
            return [
                Event(
                    "roll",
                    {
                        "seat": self.digger,
                        "roll": self.rolls,
                        "faces": roll.text,
                        "unique": list(roll.unique_letters),
                        "black": roll.black,
                        # Whether this roll offers a steal: a gem that shows once and an
                        # opponent whose crate holds one. Narrators cannot tell from the dice.
                        # (Steals are listed last; the list is kept for the digger's decision.)
                        "steal": roll.black and self.legal_actions()[-1] >= STEAL_BASE,
                    },
                )
            ]
        if self.pending == KNOCK_DUE:
            knocked = _knock_outcome(outcome)
            p = self.knock_probability
            if not knocked and p == 1.0:
                raise RuleError("G5", f"a knock outcome of {knocked} is impossible with knock_probability {p}")
            logs = self.logs
            if logs is not None:
                action, at, _ = logs[-1]
                logs[-1] = (action, at, knocked)
            if knocked:
                return self._lose_haul("knock", None, None)
            self.pending = NO_CHANCE
            self._to_move = self.digger
            self._legal = None
            return []
        raise self._no_chance_due()

    def _no_chance_due(self) -> RuleError:
        if self._to_move == TERMINAL:
            return RuleError("G6", "the game is over: no dice are rolled")
        return RuleError("G2", "no chance outcome is due: the dice are not rolling and no steal is pending")

    # ------------------------------------------------------------------
    # Why an action is illegal (only on the error path)
    # ------------------------------------------------------------------
    def _why_no_timeout(self) -> RuleError:
        if self._to_move == TERMINAL:
            return RuleError("G6", "timeout: the game is over", "game_over", move="timeout")
        message = "timeout: the hourglass runs from the turn's first roll, which has not landed yet"
        return RuleError("G3", message, "no_hourglass", move="timeout")

    def _why_illegal(self, action: int) -> RuleError:
        if not 0 <= action < NUM_ACTIONS:
            return RuleError("notation", f"no Digger action has id {action}")
        text = action_to_string(action)
        if self._to_move == TERMINAL:
            return RuleError("G6", f"{text}: the game is over", "game_over", move=text)
        if self.pending == ROLL_DUE:
            return RuleError("G2", f"{text}: the dice are rolling; their outcome comes first", "rolling", move=text)
        if self.pending == KNOCK_DUE:
            message = f"{text}: whether the steal knocked a pile is decided first"
            return RuleError("G5", message, "knock_first", move=text)
        if not self.started:
            return RuleError("G2", f"{text}: a turn begins with a roll of all five dice", "roll_first", move=text)
        kind, colour, victim = DECODED[action]
        name = COLOUR_NAMES[colour]
        letter = FACES[colour]
        if kind == K_STEAL:
            if victim >= self.num_players:
                message = f"{text}: there is no seat {victim} at this table"
                return RuleError("G2", message, "no_seat", move=text, seat=victim)
            if victim == self.digger:
                message = f"{text}: a digger steals from an opponent's crate, not from their own"
                return RuleError("G2", message, "steal_own", move=text)
        dice = faces_text(self.dice or ())
        if not self.unique >> colour & 1:
            message = f"{text}: {name} does not show on exactly one die (the dice show {dice})"
            return RuleError("G2", message, "not_once", move=text, colour=letter, dice=dice)
        if self.used >> colour & 1:
            message = f"{text}: the {name} die has already given its one token this roll"
            return RuleError("G2", message, "die_used", move=text, colour=letter)
        if kind == K_TAKE:
            message = f"{text}: no {name} token is left in the centre"
            return RuleError("G2", message, "none_left", move=text, colour=letter)
        if not self.black:
            message = f"{text}: stealing needs black on exactly one die (the dice show {dice})"
            return RuleError("G2", message, "steal_needs_black", move=text, dice=dice)
        message = f"{text}: seat {victim}'s crate holds no {name} token"
        return RuleError("G2", message, "crate_empty", move=text, seat=victim, colour=letter)

    # ------------------------------------------------------------------
    # Observations and the sampler
    # ------------------------------------------------------------------
    def observation(self, seat: int | None) -> dict[str, Any]:
        """Everything public, and the hourglass for every seat but the digger's (G2).

        A spectator (``seat`` None) gets no time either: the public view holds
        only what every seat knows, and the digger does not know the time. (A
        spectator may well be the digger in another window.)
        """
        hidden = (seat is None or seat == self.digger) and self._to_move != TERMINAL
        dice = self.dice
        obs: dict[str, Any] = {
            "game": "digger",
            "players": self.num_players,
            "seat": seat,
            "crate_cards": spec_json(self.crate_spec),
            "values": [values_json(v) for v in self.values],
            "options": self.options.to_json(),
            "time_limit": self.limit,
            "turn": self.turn,
            "digger": self.digger,
            "to_move": self._to_move,
            "waiting_for": {NO_CHANCE: None, ROLL_DUE: "dice", KNOCK_DUE: "knock"}[self.pending],
            "centre": tokens_json(self.centre),
            "crates": [tokens_json(crate, GEMS) for crate in self.crates],
            "haul": tokens_json(self.haul),
            "box": {"B": self.box},
            "started": self.started,
            "rolls": self.rolls,
            "tokens_taken": self.haul_size,
            "dice": None if dice is None else faces_text(dice),
            "unique": [FACES[c] for c in TOKEN_COLOURS if self.unique >> c & 1],
            "black_unique": self.black,
            "used": [FACES[c] for c in TOKEN_COLOURS if self.used >> c & 1],
            "elapsed": None if hidden else self.elapsed,
            "remaining": None if hidden else max(0.0, self.limit - self.elapsed),
            "scores": self.scores(),
            "winners": self.winners(),
            "teams": list(range(self.num_players)),  # each seat is a side of its own
        }
        obs["legal"] = (
            [action_to_string(a) for a in self.legal_actions()] if seat is not None and seat == self._to_move else []
        )
        return obs

    def resample(self, seat: int, rng: random.Random) -> Self:
        """A copy holding nothing ``seat`` may not know.

        Only the hourglass is ever hidden, and only from the digger: its copy
        carries no time at all (``elapsed`` 0, as at the first roll). How long
        a turn has run is a matter of how fast the digger plays, which the
        rules do not say: a search that needs a reckoning puts in its own (see
        :class:`goldfields.clocks.TimeModel`). No copy carries a record, whose
        times the seat may not have seen. ``rng`` is unused: nothing else is
        hidden in Digger.
        """
        out = self.clone()
        out.logs = None
        if seat == self.digger and self._to_move != TERMINAL:
            out.elapsed = 0.0
        return out

    # ------------------------------------------------------------------
    # Results (G6)
    # ------------------------------------------------------------------
    def _score(self, seat: int) -> int:
        crate = self.crates[seat]
        values = self.values[seat]
        return crate[1] * values[1] + crate[2] * values[2] + crate[3] * values[3] + crate[4] * values[4]

    def scores(self) -> list[int]:
        """Each seat's crate: gems times that seat's card values; blue scores 0."""
        return [self._score(s) for s in range(self.num_players)]

    def winners(self) -> list[int] | None:
        return None if self._winners is None else self._winners[:]

    # ------------------------------------------------------------------
    # Copies and storage
    # ------------------------------------------------------------------
    def clone(self) -> Self:
        new = object.__new__(type(self))
        new.num_players = self.num_players
        new.options = self.options
        new.crate_spec = self.crate_spec
        new.values = self.values
        new.limit = self.limit
        new.knock_probability = self.knock_probability
        new.centre = self.centre[:]
        new.crates = [crate[:] for crate in self.crates]
        new.haul = self.haul[:]
        new.box = self.box
        new.turn = self.turn
        new.digger = self.digger
        new._to_move = self._to_move
        new._winners = None if self._winners is None else self._winners[:]
        new.logs = None if self.logs is None else self.logs[:]  # entries are tuples, never changed in place
        new.pending = self.pending
        new.started = self.started
        new.elapsed = self.elapsed
        new.rolls = self.rolls
        new.dice = self.dice
        new.unique = self.unique
        new.black = self.black
        new.used = self.used
        new._legal = self._legal  # lists are never mutated once cached
        return new

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "digger",
            "players": self.num_players,
            "crates": spec_json(self.crate_spec),
            "options": self.options.to_json(),
            "centre": self.centre[:],
            "crate_tokens": [crate[:] for crate in self.crates],
            "haul": self.haul[:],
            "box": self.box,
            "turn": self.turn,
            "digger": self.digger,
            "to_move": self._to_move,
            "pending": self.pending,
            "started": self.started,
            "elapsed": self.elapsed,
            "rolls": self.rolls,
            "dice": None if self.dice is None else faces_text(self.dice),
            "used": self.used,
            "winners": self.winners(),
            "logs": None if self.logs is None else [_log_json(entry) for entry in self.logs],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """Read a state written by :meth:`to_json`.

        Anything a game cannot reach (tokens that do not add up to ten of each
        colour, a turn that is not the digger's, a pending roll with no roll in
        the record...) is refused with a ``ValueError`` naming what is wrong,
        so that a corrupt state fails here and never halfway through a move.
        """
        if not isinstance(data, Mapping) or data.get("game") != "digger":
            raise ValueError("not a Digger state")
        r = StoredFields(data, "Digger")
        players = r.whole("players", 2, MAX_SEATS)
        try:
            new = cls(players, r.get("crates"), DiggerOptions.from_json(r.get("options")))
        except (ValueError, TypeError) as err:
            raise _bad(f"crates or options: {err}") from None
        n = players
        k = len(TOKEN_COLOURS)
        new.centre = r.wholes("centre", 0, TOKENS_PER_COLOUR, k)
        new.crates = [
            r.wholes(f"crate_tokens[{s}]", 0, TOKENS_PER_COLOUR, k, c) for s, c in enumerate(r.seq("crate_tokens", n))
        ]
        new.haul = r.wholes("haul", 0, TOKENS_PER_COLOUR, k)
        new.box = r.whole("box", 0, TOKENS_PER_COLOUR)
        new.turn = r.whole("turn", 0, 1 << 30)
        new.digger = r.whole("digger", 0, n - 1)
        new._to_move = r.whole("to_move", TERMINAL, n - 1)
        new.pending = r.whole("pending", NO_CHANCE, KNOCK_DUE)
        new.started = r.flag("started")
        elapsed = r.get("elapsed")
        if not _is_number(elapsed) or not math.isfinite(elapsed) or not 0 <= elapsed <= new.limit:
            raise _bad(f"elapsed must be seconds from 0 to the time limit {format_time(new.limit)}, not {elapsed!r}")
        new.elapsed = float(elapsed)
        new.rolls = r.whole("rolls", 0, 1 << 30)
        dice = r.get("dice")
        try:
            new.dice = None if dice is None else parse_faces(dice)
        except (TypeError, ValueError) as err:
            raise _bad(f"dice: {err}") from None
        new.unique, new.black = (0, False) if new.dice is None else read_roll(new.dice)
        new.used = r.whole("used", 0, (1 << len(TOKEN_COLOURS)) - 1)
        winners = r.get("winners")
        new._winners = None if winners is None else r.wholes("winners", 0, n - 1, None, winners)
        logs = r.get("logs")
        new.logs = None if logs is None else [_read_log_entry(i, e) for i, e in enumerate(r.seq("logs", None, logs))]
        new._legal = None
        new._check_possible()
        return new

    def _check_possible(self) -> None:
        """Raise ``ValueError`` if no game reaches this state (only for :meth:`from_json`)."""
        n = self.num_players
        for s, crate in enumerate(self.crates):
            if crate[BLUE]:
                raise _bad(f"seat {s}'s crate holds blue tokens; blue goes into the box (G3)")
        for c in TOKEN_COLOURS:
            total = self.centre[c] + self.haul[c] + sum(crate[c] for crate in self.crates)
            if c == BLUE:
                total += self.box
            if total != TOKENS_PER_COLOUR:
                raise _bad(
                    f"{total} {COLOUR_NAMES[c]} tokens in centre, crates, haul and box, not {TOKENS_PER_COLOUR} (G1)"
                )
        if self.digger != self.turn % n:
            raise _bad(f"turn {self.turn} is seat {self.turn % n}'s, not seat {self.digger}'s (seat 0 digs first, G3)")
        to_move = self._to_move
        pending = self.pending
        if to_move not in (self.digger, CHANCE, TERMINAL):
            raise _bad(f"seat {to_move} is to move, but seat {self.digger} is digging")
        if (pending != NO_CHANCE) != (to_move == CHANCE):
            raise _bad("a chance outcome is pending exactly when the state is a chance node")
        if to_move == TERMINAL:
            if self.centre[BLUE] or self.started or any(self.haul):
                raise _bad("the game is over, yet blue is left in the centre or a turn is under way (G6)")
            scores = self.scores()
            winners = [s for s, v in enumerate(scores) if v == max(scores)]
            if self._winners != winners:
                raise _bad(f"the game is over with winners {self._winners}, but the scores give {winners} (G6)")
        elif self._winners is not None:
            raise _bad("winners, but the game is not over")
        if not self.started:
            if self.rolls or self.elapsed or self.dice is not None or self.used or any(self.haul) or pending:
                raise _bad("no roll yet this turn, yet time, dice, a haul or a chance outcome (G2)")
            if to_move != TERMINAL and not self.centre[BLUE]:
                raise _bad("no blue token is left in the centre, so the game should be over (G6)")
            return
        logs = self.logs
        last = logs[-1] if logs else None
        if pending == ROLL_DUE:
            if self.dice is not None or self.used:
                raise _bad("the dice are rolling, yet a roll's faces are known")
            if logs is not None and (last is None or last[0] != ROLL or last[2] is not None):
                raise _bad("the dice are rolling, but the record does not end with that roll")
            return
        if not self.rolls or self.dice is None:
            raise _bad("a turn under way with no roll landed and no roll in the air (G2)")
        if self.used & ~self.unique:
            raise _bad("a colour gave a token though it does not show on exactly one die (G2)")
        if self.used.bit_count() > sum(self.haul):
            raise _bad("the dice gave more tokens this roll than the haul holds")
        if pending == KNOCK_DUE:
            if not self.knock_probability or not self.black or not any(self.haul):
                raise _bad("a knock is pending, but no steal could have been made (G5)")
            if logs is not None and (last is None or DECODED[last[0]][0] != K_STEAL or last[2] is not None):
                raise _bad("a knock is pending, but the record does not end with that steal (G5)")

    def record(self) -> dict[str, Any]:
        """The game as a record (docs/digger.md): moves in the notation, with
        each roll's faces, each step's time and each steal's knock. A roll still in the
        air is left out: it has no faces yet."""
        if self.logs is None:
            raise ValueError("a resampled state has no record: its past is not the real one")
        knock = self.knock_probability > 0.0
        moves: list[str] = []
        for action, at, outcome in self.logs:
            if action == ROLL:
                if outcome is not None:
                    moves.append(move_text(ROLL, at or 0.0, outcome))
            elif action == STOP:
                moves.append(move_text(STOP, at or 0.0))
            else:
                moves.append(move_text(action, at, knocked=outcome if knock else None))
        return {
            "game": "digger",
            "players": self.num_players,
            "crates": spec_json(self.crate_spec),
            "options": self.options.to_json(),
            "moves": moves,
        }

    def __repr__(self) -> str:
        return (
            f"<DiggerState players={self.num_players} turn={self.turn} digger={self.digger} "
            f"to_move={self._to_move} centre={''.join(f'{FACES[c]}{self.centre[c]}' for c in TOKEN_COLOURS)}>"
        )


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _knock_outcome(outcome: Any) -> bool:
    if isinstance(outcome, bool):
        return outcome
    if isinstance(outcome, str) and outcome.lower() in ("knock", "safe"):
        return outcome.lower() == "knock"
    raise RuleError("G5", f"a knock outcome is True/'knock' or False/'safe', not {outcome!r}")


def _log_json(entry: LogEntry) -> list[Any]:
    action, at, outcome = entry
    if isinstance(outcome, tuple):
        outcome = faces_text(outcome)
    return [action, at, outcome]


def _bad(what: str) -> ValueError:
    return ValueError(f"not a valid Digger state: {what}")


def _read_log_entry(i: int, data: Any) -> LogEntry:
    """One ``[action, time, outcome]`` of a stored record, checked."""
    if not isinstance(data, (list, tuple)) or len(data) != 3:
        raise _bad(f"logs[{i}] must be [action, time, outcome], not {data!r}")
    action, at, outcome = data
    if type(action) is not int or not 0 <= action < NUM_ACTIONS:
        raise _bad(f"logs[{i}]: no Digger action has id {action!r}")
    if at is not None and (not _is_number(at) or not math.isfinite(at) or at < 0):
        raise _bad(f"logs[{i}]: a time is seconds >= 0, not {at!r}")
    kind = DECODED[action][0]
    if outcome is not None:
        if kind == K_ROLL and isinstance(outcome, str):
            try:
                outcome = parse_faces(outcome)
            except ValueError as err:
                raise _bad(f"logs[{i}]: {err}") from None
        elif not (kind == K_STEAL and isinstance(outcome, bool)):
            raise _bad(f"logs[{i}]: {action_to_string(action)} has no outcome {outcome!r}")
    return (action, None if at is None else float(at), outcome)
