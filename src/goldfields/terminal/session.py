"""One game at the terminal: the loop, the commands, undo, saving and hot seat.

The loop is the game driver's (goldfields.play.driver) with people in it:
chance is drawn from one generator seeded by the game's seed, each bot draws
from its own generator seeded from it first, and Digger's bots are stamped
with a simulated clock. A human seat reads the keyboard instead of asking a
bot.

What a person sees is always one seat's observation and event views. With
one human that is their seat. In hot seat (several humans at one keyboard),
the screen belongs to the human choosing; before the keyboard changes hands
the next player presses Enter (in a game with hidden hands the screen is
cleared first). Between human turns the screen shows only what every human
may see.

Nothing that happened is allowed to scroll away unseen: the other seats'
moves are not printed one by one as they happen, but summed up in a short
recap ("since your last move") drawn just above the prompt, below the
table, as the seat at the keyboard saw them.

The undo stack holds full states (every hand included). It lives in this
process only: it is never printed, never saved, and undo is refused as soon
as a second human plays. Undo takes back decisions, never luck: it is
refused once a chance outcome (a roll of the dice, a new deal) has been
revealed since the decision it would return to. And it takes back only what
the player alone has seen: once another seat has moved since, undo is refused,
since that move showed something of the seat's hidden cards (and a bot would
play it again). A player who wants takebacks anyway starts the game with them
(``takebacks``): it is then a practice game, said so at the start and the end,
in which an undone draw or reply has shown what the seat could not know.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.markdown import Markdown

from ..bots import Bot, BotError
from ..core.game import Event, GameState, RuleError
from ..core.registry import game_of
from ..core.words import plural
from ..play.driver import Driver
from ..records import save as save_record
from .commands import Command, Verb, parse
from .front import GameFront, Names, numbered
from .keyboard import Keyboard
from .screen import Screen

EXIT_OK, EXIT_ABANDONED, EXIT_INTERRUPTED = 0, 1, 130
RECAP_LINES, RECAP_LINES_COMPACT = 12, 6
"""How many recap lines stay above the prompt; older ones are a ``log`` away."""
_HOLD_WINDOW = 15
"""A search bot's replies are held to the median of its last this many searches (see Session._hold)."""
_FIRST_HOLD = 0.5
"""Seconds a forced reply is held to before the bot's first search has been timed."""


class _Leave(Exception):
    """The player asked to leave (``quit``)."""


@dataclass(frozen=True, slots=True)
class _Snapshot:
    """Everything needed to return to one of the human's decisions."""

    state: GameState
    steps: int
    events: int
    bot_rngs: tuple[Any, ...]
    stamp_rng: Any
    chances: int
    """Chance steps (deals, rolls) applied before this decision: undo never crosses one."""
    others: int
    """Other seats' decisions made before this one: without takebacks, undo never crosses one."""


class Session:
    def __init__(
        self,
        front: GameFront,
        state: GameState,
        bots: Sequence[Bot | None],
        screen: Screen,
        keyboard: Keyboard,
        *,
        seed: int,
        save_name: str = "game.json",
        delay: float = 0.0,
        sleep: Callable[[float], None] = time.sleep,
        timer: Callable[[], float] = time.monotonic,
        history: Sequence[Event] = (),
        takebacks: bool = False,
        resumed_from: str | None = None,
        resumed_moves: int = 0,
    ) -> None:
        n = state.num_players
        if len(bots) != n:
            raise ValueError(f"{state.game_name} for {n} players needs {n} seats, got {len(bots)}")
        self.front = front
        self.bots = list(bots)
        self.humans = tuple(s for s, b in enumerate(bots) if b is None)
        if not self.humans:
            raise ValueError("a terminal game needs at least one human seat (watch bots with goldfields demo)")
        self.screen = screen
        self.keyboard = keyboard
        self.seed = seed
        self.save_name = save_name
        # Files this game may write over without asking: its own saves, and the file it was resumed from.
        self._own_files = {Path(resumed_from).expanduser().resolve()} if resumed_from else set()
        self.delay = delay
        self.sleep = sleep
        self.timer = timer
        # How long each search bot's recent searches took: see _hold.
        self._searches: dict[int, deque[float]] = {}
        # The one game driver deals, rolls, asks the bots and stamps their time;
        # the humans' seats (no bot) are this session's to play.
        self.driver = Driver(state, bots, random.Random(seed), clock=front.bot_clock)
        self.chance_rng = self.driver.chance_rng
        self.stamp_rng = self.driver.stamp_rng
        self.bot_rngs = self.driver.bot_rngs
        # A resumed game starts with the events of the record's moves (for the log).
        self.events: list[Event] = list(history)
        self.resumed = bool(history)
        self.resumed_moves = resumed_moves
        self.steps = 0
        self.chances = 0
        self.others = 0
        self.takebacks = takebacks
        self._undo: list[_Snapshot] = []
        self.hot_seat = len(self.humans) > 1
        # The seat whose screen is showing; None: a screen every human may see.
        self.at_keyboard: int | None = None if self.hot_seat else self.humans[0]
        # Where each human's recap starts: the events after their last move.
        self._since = dict.fromkeys(self.humans, len(self.events))
        self._last_decider: int | None = None
        self._redraw = True
        partnership = bool(state.observation(None).get("partnership"))
        self.names = Names(n, self.humans, {s: b.spec() for s, b in enumerate(bots) if b is not None},
                           teams=partnership)

    # ------------------------------------------------------------------
    # The loop
    # ------------------------------------------------------------------
    def run(self) -> int:
        """Play to the end; the exit status (0 done or left, 1 abandoned, 130 interrupted)."""
        try:
            self._intro()
            while not self.state.is_terminal():
                self._step()
            self._game_over()
            return EXIT_OK
        except _Leave:
            return EXIT_OK
        except KeyboardInterrupt:
            self._offer_save("Interrupted.")
            return EXIT_INTERRUPTED
        except EOFError:
            self.screen.blank()
            self.screen.say("End of input: the game is left unfinished.")
            return EXIT_ABANDONED
        except BotError as err:
            self.screen.error(f"A bot failed: {err}")
            self._offer_save("The game cannot go on.")
            return EXIT_ABANDONED

    @property
    def state(self) -> GameState:
        return self.driver.state

    @state.setter
    def state(self, state: GameState) -> None:
        self.driver.state = state

    def _step(self) -> None:
        state = self.state
        if state.is_chance_node():
            self.chances += 1
            self._record(self.driver.chance(), live=bool(self.delay))
            return
        seat = state.current_player
        bot = self.bots[seat]
        if bot is None:
            self._human(seat)
            return
        forced = len(state.legal_actions()) == 1
        asked = self.timer()
        with self.screen.thinking(f"{self.names.long(seat)} is thinking"):
            events = self.driver.step()  # the bot's decision, stamped by the front's clock
            if not bot.quick:
                self._hold(seat, bot, self.timer() - asked, forced)
        assert events is not None
        self._last_decider = seat
        self.others += 1
        # Watching the bots move one by one (--delay), each move is printed as it comes;
        # otherwise the recap above the next prompt tells it, so nothing scrolls away.
        self._record(events, live=bool(self.delay))
        if self.delay:
            self.sleep(self.delay)

    def _hold(self, seat: int, bot: Bot, took: float, forced: bool) -> None:
        """Hold a search bot's reply to its usual time: the median of its last searches.

        A search answers at once when its hand leaves it one move (in Digging: nothing
        to lay, so it draws), and thinks otherwise: a quick reply would tell the table
        so. Only replies with a choice count as searches; before the first, a forced
        reply is held to the bot's budget in seconds, if it has one, else to
        FIRST_HOLD seconds."""
        searches = self._searches.setdefault(seat, deque(maxlen=_HOLD_WINDOW))
        if not forced:
            searches.append(took)
        seconds = getattr(bot, "seconds", None)
        usual = statistics.median(searches) if searches else float(seconds or _FIRST_HOLD)
        if took < usual:
            self.sleep(usual - took)

    def _record(self, events: list[Event], live: bool = True) -> None:
        """Keep the events (for the log and the recaps); ``live``: show them now, as the screen's seat may."""
        self.events.extend(events)
        self.steps += 1
        # A move that ends a hand is told before the hand's scoring, which shows its outcome.
        if live or any(ev.kind in self.front.hand_end_events for ev in events):
            viewer = self._live_viewer()
            names = self.names.seen_by(viewer)
            for ev in events:
                if ev.kind == "game_over":
                    continue  # the final summary says it
                text = self.front.narrate(ev.view(viewer), names)
                if text:
                    self.screen.say(text)
        self._hand_end(events)

    def _hand_end(self, events: list[Event]) -> None:
        """At the end of a hand that is not the last, show its scoring and wait for the players."""
        if self.state.is_terminal():
            return
        if not any(ev.kind in self.front.hand_end_events for ev in events):
            return
        if self.hot_seat:
            # Every player at the keyboard reads the scoring: it is drawn for none of them.
            if self.front.private_hands and self.at_keyboard is not None:
                self.screen.clear()
            self.at_keyboard = None
        viewer = self._live_viewer()
        names = self.names.seen_by(viewer)
        views = [ev.view(viewer) for ev in events]
        scoring = self.front.hand_over(views, self.state.observation(viewer), names, self.screen.compact)
        if scoring is None:
            return
        self.screen.blank()
        self.screen.show(scoring)
        self._pause(self.front.hand_over_prompt(views), viewer, "the next hand is dealt when you press Enter")

    def _pause(self, prompt: str, viewer: int | None, why: str) -> None:
        """Wait for Enter alone at ``prompt`` (a hand-over, the end of a hand): what was typed
        ahead is dropped, and a move typed there is refused, not taken for Enter. Help, rules,
        log, save and quit work as anywhere."""
        if (discard := getattr(self.keyboard, "discard", None)) is not None:
            discard()
        while True:
            command = parse(self._ask(prompt))
            if command.verb is Verb.EMPTY:
                return
            if command.verb in (Verb.NUMBER, Verb.MOVE, Verb.SHOW, Verb.UNDO) and not command.problem:
                self.screen.error(f"no move now: {why}")
                continue
            self._command(command, viewer)

    def _live_viewer(self) -> int | None:
        if self.at_keyboard is not None:
            return self.at_keyboard
        return self.front.watch_seat(self.state, self.humans)

    # ------------------------------------------------------------------
    # A human's decision
    # ------------------------------------------------------------------
    def _human(self, seat: int) -> None:
        if self.at_keyboard != seat:
            self._hand_over(seat)
        state = self.state
        obs = state.observation(seat)
        undoable = not self.hot_seat and self.front.undo_point(obs)
        if undoable and (not self._undo or self._undo[-1].steps != self.steps):
            self._undo.append(self._snapshot())
        names = self.names.seen_by(seat)
        legal = state.legal_actions()
        moves = [state.action_to_string(a) for a in legal]
        full = self._redraw or self._last_decider != seat
        self._redraw = False
        # A fresh screen gets the recap; mid-turn, the seat's own lines were printed as it moved.
        recap = self._recap(seat) if full else []
        self.screen.show(self.front.decision(obs, names, moves, full, self.screen.width, self.screen.compact, recap))
        prompt = self.front.prompt(moves, names)
        while True:
            line = self.keyboard.read(prompt, self.front.deadline(state))
            if line is None:  # the time ran out while the human was choosing
                assert self.front.timeout_action is not None
                self._record(state.apply_action(self.front.timeout_action))
                self._after_move(seat)
                return
            command = parse(line)
            if command.verb in (Verb.NUMBER, Verb.MOVE, Verb.EMPTY):
                choice = self._choice(command, legal)
                if choice is None:
                    continue
                if isinstance(choice, str):
                    self.screen.error(choice)
                    continue
                try:
                    events = state.apply_action(choice, self.front.stamp_human(state, choice))
                except RuleError as err:
                    self.screen.error(f"Not allowed: {err}")
                    continue
                self._last_decider = seat
                self._record(events)  # your own move, and what it caused, at once
                self._after_move(seat)
                return
            if self._command(command, seat):
                return  # the position or the screen changed: start the decision again
            self.screen.show(numbered(moves, self.screen.width))

    def _recap(self, seat: int) -> list[str]:
        """What happened since ``seat``'s last move, as it saw it, in a few lines; then it is marked seen."""
        news = self.events[self._since[seat] :]
        self._since[seat] = len(self.events)
        if not news:
            return []
        names = self.names.seen_by(seat)
        lines = self.front.recap([ev.view(seat) for ev in news], names, self.screen.width)
        # The limit is on screen rows, so that a narrow terminal's wrapped lines still leave the
        # table and the moves in sight; the latest lines are kept, and at least one.
        limit = RECAP_LINES_COMPACT if self.screen.compact else RECAP_LINES
        rows = [self.screen.rows(line) for line in lines]
        if sum(rows) <= limit:
            return lines
        kept, used = 1, 1 + rows[-1]  # the first row is the note of what is left out
        while used + rows[-1 - kept] <= limit:
            used += rows[-1 - kept]
            kept += 1
        hidden = len(lines) - kept
        return [f"({plural(hidden, 'earlier line')}: type log to see them)", *lines[-kept:]]

    def _choice(self, command: Command, legal: list[int]) -> int | str | None:
        """The action a move line names, or a message saying why it names none."""
        if command.verb is Verb.EMPTY:
            if len(legal) == 1 and self.front.enter_plays_a_forced_move:
                return legal[0]
            return self.front.empty_line(self.state)
        if command.verb is Verb.NUMBER:
            assert command.number is not None
            if 1 <= command.number <= len(legal):
                return legal[command.number - 1]
            if len(legal) == 1:
                return f"There is no move {command.number}: the only move is 1."
            return f"There is no move {command.number}: the moves are numbered 1 to {len(legal)}."
        text = self.front.expand(command.text)
        try:
            return game_of(self.state).read_decision(self.state, text)
        except RuleError as err:
            if err.rule != "notation":  # readable, but against a rule (a seat not at this table)
                return f"Not allowed: {err}{self.front.refusal_hint(err.rule)}"
            return f"{command.text!r} is neither a command nor a move ({err}). Type help to see both."

    def _after_move(self, seat: int) -> None:
        self._since[seat] = len(self.events)  # the next recap starts after this move's own lines
        # Hot seat: once a player's turn is over, their hand must leave the screen at once.
        # (A game without secrets keeps the screen: the next player sees how the turn ended.)
        # (A move that ended the hand has cleared it already, for the scoring everyone reads.)
        if (self.hot_seat and self.front.private_hands and self.state.current_player != seat
                and self.at_keyboard is not None):  # fmt: skip
            self.screen.clear()
            self.screen.say(f"Seat {seat} has played.")
            self.at_keyboard = None

    def _hand_over(self, seat: int) -> None:
        # Hidden hands: the last player's screen was cleared when their turn ended. A game
        # without secrets (Digger) keeps it, so the next player sees how the last turn ended.
        self.screen.say(f"{self.names.long(seat)} is next.", style="bold")
        self._pause(f"Pass the keyboard to seat {seat}, then press Enter.> ", None,
                    f"seat {seat}'s hand is shown once seat {seat} has the keyboard and presses Enter")  # fmt: skip
        self.at_keyboard = seat
        self._redraw = True

    # ------------------------------------------------------------------
    # Commands
    # ------------------------------------------------------------------
    def _command(self, command: Command, seat: int | None) -> bool:
        """Carry out a command; True when the decision must start again (undo, show)."""
        if command.problem:
            self.screen.error(command.problem)
            return False
        verb = command.verb
        if verb is Verb.HELP:
            self.screen.show(self.front.help())
        elif verb is Verb.RULES:
            self.screen.show(Markdown(self.front.rules_markdown))
        elif verb is Verb.LOG:
            self._log(seat, command.number)
        elif verb is Verb.SAVE:
            self._save(command.text, seat)
        elif verb is Verb.SHOW:
            self._redraw = True
            return True
        elif verb is Verb.UNDO:
            return self._undo_move()
        elif verb is Verb.QUIT:
            self._offer_save("Leaving the game.")
            raise _Leave
        return False

    def _log(self, seat: int | None, lines: int | None) -> None:
        names = self.names.seen_by(seat)
        texts = [t for ev in self.events if (t := self.front.narrate(ev.view(seat), names))]
        shown = texts if lines is None else texts[-lines:]
        who = f"seat {seat}" if seat is not None else "every player"
        more = ""
        if len(shown) < len(texts):
            more = f", the last {len(shown)} of {len(texts)} lines (log all for everything)"
        self.screen.rule(f"The game so far, as {who} sees it{more}")
        for text in shown:
            self.screen.say(text)
        self.screen.rule()

    def _save(self, name: str, seat: int | None) -> bool:
        target = Path(name).expanduser()
        if target.exists() and not target.is_file() and not target.is_dir():
            # A pipe or a device: writing the record beside it and renaming would replace it.
            self.screen.error(f"Not saved: {target} is not a regular file; give another name")
            return False
        # Another file of that name may be another game's only copy: replacing it is asked, unless
        # this game wrote it (a second save) or was resumed from it.
        if target.is_file() and target.resolve() not in self._own_files:
            answer = self._ask(f"{target} exists and this game did not write it. Replace it? [y/N] ")
            if answer.strip().lower() not in ("y", "yes"):
                self.screen.say(f"Not saved: {target} is as it was.")
                return False
        try:
            path = save_record(self.state.record(), target)
        except OSError as err:
            self.screen.error(f"Could not save to {name}: {err.strerror or err}")
            return False
        self._own_files.add(path.resolve())
        self.screen.say(f"Saved the game record to {path}. Check it with: goldfields replay {path}")
        # Said once there is a file to keep from the others, and not for a save that failed.
        warning = self.front.save_warning(self.state, self.hot_seat, seat)
        if warning:
            self.screen.say(warning, style="yellow")
        return True

    def _offer_save(self, why: str) -> None:
        self.screen.blank()
        self.screen.say(why)
        try:
            answer = self._ask("Save the game before quitting? [y/N] ")
            if answer.strip().lower() not in ("y", "yes"):
                return
            while True:
                name = self._ask(f"File name [{self.save_name}]: ").strip() or self.save_name
                if self._save(name, self.at_keyboard):
                    return
        except (KeyboardInterrupt, EOFError):
            self.screen.blank()

    def _ask(self, prompt: str) -> str:
        line = self.keyboard.read(prompt)
        assert line is not None  # only a read with a deadline can come back empty-handed
        return line

    # ------------------------------------------------------------------
    # Undo
    # ------------------------------------------------------------------
    @property
    def _practice(self) -> str:
        what = self.front.takebacks_help
        return f"Takebacks are on: a practice game. {what[:1].upper()}{what[1:]}."

    def _snapshot(self) -> _Snapshot:
        return _Snapshot(
            self.state.clone(),
            self.steps,
            len(self.events),
            tuple(r.getstate() for r in self.bot_rngs),
            self.stamp_rng.getstate(),
            self.chances,
            self.others,
        )

    def _undo_refusal(self, snap: _Snapshot | None) -> str | None:
        """Why undo cannot return to ``snap``, the previous decision (None: it can)."""
        if snap is None:
            return "Nothing to undo: this is your first decision."
        if snap.chances != self.chances:
            return (f"undo never takes back luck: {self.front.luck_since} since your previous decision, and "
                    "luck stands. Nothing was undone.")
        if snap.others != self.others and not self.takebacks:
            last = self._last_decider
            mover = self.names.long(last) if last is not None and self.bots[last] is not None else "another seat"
            return (f"undo takes back only what you alone have seen: {mover} has moved since your previous "
                    "decision, and that move showed something of their hidden cards. Nothing was undone. "
                    "(To practise with takebacks, start the game with --takebacks.)")
        return None

    def _undo_move(self) -> bool:
        if not self.front.has_undo:
            why = self.front.undo_help
            self.screen.error(f"{why[:1].upper()}{why[1:]}. Nothing was undone.")
            return False
        if self.hot_seat:
            self.screen.error(
                "undo is only for games with one human: the other players at this keyboard "
                "have already seen what happened since."
            )
            return False
        stack = self._undo
        current = stack.pop() if stack and stack[-1].steps == self.steps else None
        refused = self._undo_refusal(stack[-1] if stack else None)
        if refused is not None:
            if current is not None:
                stack.append(current)  # the decision being taken stays undoable later
            self.screen.error(refused)
            return False
        snap = stack[-1]  # stays on the stack: it is the decision now being taken again
        self.state = snap.state.clone()
        self.steps = snap.steps
        del self.events[snap.events :]
        for human in self.humans:
            self._since[human] = min(self._since[human], snap.events)
        for rng, saved in zip(self.bot_rngs, snap.bot_rngs, strict=True):
            rng.setstate(saved)
        self.stamp_rng.setstate(snap.stamp_rng)
        self.others = snap.others
        self._redraw = True
        self._last_decider = None
        self.screen.say("Undone: back to your previous decision.", style="bold")
        return True

    # ------------------------------------------------------------------
    # Beginning and end
    # ------------------------------------------------------------------
    def _intro(self) -> None:
        obs = self.state.observation(None)
        self.screen.rule("goldfields")
        self.screen.say(self.front.intro(obs, self.names))
        options = obs.get("options") or {}
        if options:  # a variant (--rule, or the saved game's): said at the start, above all when resumed
            shown = ", ".join(f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in options.items())
            self.screen.say(f"Rule options: {shown}.")
        bots = ", ".join(f"seat {s} {spec}" for s, spec in self.names.bots.items())
        if self.hot_seat:
            seats = ", ".join(map(str, self.humans))
            # Said only where it happens: a game without secrets (Digger) keeps the screen.
            how = (
                "the screen is cleared as each player's turn ends"
                if self.front.private_hands
                else "nothing is cleared between turns, as no seat holds a secret"
            )
            self.screen.say(f"Hot seat: seats {seats} are played at this keyboard; each player presses Enter "
                            f"when the keyboard comes to them, and {how}.")
        else:
            self.screen.say(f"You play seat {self.humans[0]}.")
        if bots:
            self.screen.say(f"Bots: {bots}.")
        if self.takebacks:
            self.screen.say(self._practice)
        # The seed decides every deal and roll to come: it is told when the game is over, not before.
        if self.resumed:
            self.screen.say(f"Resumed after {plural(self.resumed_moves, 'move')} of the saved game; "
                            f"{self.front.resume_note(self.state)}. Type help for the commands, rules for the rules.")
        else:
            self.screen.say("Type help for the commands, rules for the rules.")

    def _game_over(self) -> None:
        viewer = self._live_viewer()
        names = self.names.seen_by(viewer)
        self.screen.blank()
        last = self._recap(viewer) if viewer is not None else []
        if last:
            self.screen.rule("Since your last move")
            for line in last:
                self.screen.say(line)
        self.screen.show(self.front.summary(self.state.observation(viewer), names))
        drawn = "what was dealt and rolled after the resume" if self.resumed else "this game's deals and rolls"
        self.screen.say(f"Seed {self.seed} drew {drawn}: --seed {self.seed} plays them again.")
        if self.takebacks:
            self.screen.say(self._practice)
        while True:
            try:
                line = self._ask("The game is over. Type save FILE, log, or press Enter to leave.> ")
            except EOFError:
                return
            command = parse(line)
            if command.verb in (Verb.EMPTY, Verb.QUIT):
                return
            if command.verb in (Verb.NUMBER, Verb.MOVE, Verb.UNDO):
                self.screen.error("The game is over: no more moves. Type save FILE, log, or press Enter.")
                continue
            if self._command(command, viewer):
                self.screen.show(self.front.summary(self.state.observation(viewer), names))
