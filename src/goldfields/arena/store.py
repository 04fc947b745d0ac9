"""The output folder of a run, kept up to date game by game so that a stopped run loses nothing.

Files in the folder:

* ``arena.json``, the manifest: the parameters that decide every game (game,
  table, rules, lineup, games, seed, records). ``--resume`` checks them. It also
  lists the versions of the code that played into the run (``made_with``).
* ``results.jsonl``, the journal: one line per finished game, everything the
  statistics need. A game counts as done once its line is there; it is
  written last, after the game's record and its row of ``games.csv``.
* ``games.csv`` (a row appended as each game ends, rewritten in game order at
  the end and whenever the run stops) and ``records/game-NNNNN.json``.
* ``summary.csv``, ``sides.csv``, ``lengths.csv``, ``hands.csv`` and ``chart.png`` (unless the run
  asks for none), written when the run is complete.
* ``arena.lock``, locked by the process playing into the folder, so that a
  second ``--resume`` of a run still being played is refused.

A journal or games.csv replaced or rewritten while the run plays (say by ``git
checkout`` or ``cp`` of a run kept under version control) is written again
whole, with the manifest, when the next game ends or the run stops.

Resuming reads the journal (ignoring a last line cut short by a kill), plays
the games not in it, and reports on all of them: the games are seeded by their
place in the schedule, so the result is the same as an uninterrupted run's.
"""

from __future__ import annotations

import csv
import json
import os
import signal
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

try:
    import fcntl
except ImportError:  # not POSIX
    fcntl = None  # type: ignore[assignment]

from ..files import write_atomic
from .games import GameSpec
from .provenance import change_note, played_by, with_this_version
from .report import games_csv_row, write_games_csv, write_record
from .schedule import SEATINGS, deals_for, entrant_labels, per_deal
from .worker import GameResult


@contextmanager
def _signals_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back for the block; one that came meanwhile is delivered at its end."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


MANIFEST = "arena.json"
JOURNAL = "results.jsonl"
REPORTS = ("summary.csv", "sides.csv", "lengths.csv", "hands.csv", "chart.png")
"""Written when a run is complete: a run that grows loses them until it is complete again."""
LOCK = "arena.lock"
"""Held (an advisory lock) by the process playing into the folder: two runs at once would each
replace the other's journal and play the same games."""
FORMAT = 1


class ResumeError(ValueError):
    """The folder cannot be resumed (no run there, or one with other parameters), or must not be overwritten."""


def manifest_of(
    spec: GameSpec, lineup: Sequence[str], games: int, seed: int, records: bool, seatings: str = "rotations"
) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "game": spec.game,
        "players": spec.players,
        "partnership": spec.partnership,
        "params": spec.params.to_json(),  # the rules too (Digger's crates, rule options): they decide every game
        "lineup": list(lineup),
        "games": games,
        "seed": seed,
        "records": records,
        "seatings": seatings,
    }


def read_manifest(out: Path) -> dict[str, Any]:
    path = out / MANIFEST
    if not path.is_file():
        raise ResumeError(f"{out} holds no arena run (no {MANIFEST})")
    try:
        data = json.loads(path.read_text())
    except ValueError as err:
        raise ResumeError(f"{path} is not a readable manifest: {err}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ResumeError(f"{path} is not an arena manifest of format {FORMAT}")
    missing = [key for key in REQUIRED if key not in data]
    if missing:
        raise ResumeError(f"{path} is damaged: it lacks {', '.join(missing)}")
    data.setdefault("seatings", "rotations")  # the only seating before there was a choice
    if data["seatings"] not in SEATINGS:
        raise ResumeError(f"{path} is damaged: seatings must be one of {', '.join(SEATINGS)}")
    if "params" not in data:
        # Written before the manifest held the rules: such runs were all played with the defaults.
        try:
            data["params"] = _default_params(data["game"], data["players"], data["partnership"])
        except ValueError as err:
            raise ResumeError(f"{path}: {err}") from None
    return data


def _default_params(game: str, players: int, partnership: bool) -> dict[str, Any]:
    """The rules of a table with every default (a game without partnerships has no such parameter)."""
    try:
        spec = GameSpec.make(game, players, partnership)
    except ValueError:
        if partnership:
            raise
        spec = GameSpec.make(game, players)
    return spec.params.to_json()


REQUIRED = ("game", "players", "partnership", "lineup", "games", "seed", "records")
"""The keys every manifest has (``params`` is filled in for one written before it was saved)."""


def spec_of(manifest: dict[str, Any]) -> GameSpec:
    """The game and table of a saved run, with its rules."""
    try:
        return GameSpec.from_json(manifest["game"], manifest["params"])
    except ValueError as err:
        raise ResumeError(f"the saved run's game: {err}") from None


def check_same_run(out: Path, saved: dict[str, Any], wanted: dict[str, Any]) -> None:
    """:class:`ResumeError` naming every difference (:func:`differences`) that keeps the run saved
    in ``out`` from going on as ``wanted``."""
    diff = differences(saved, wanted)
    if diff:
        raise ResumeError(f"cannot resume {out}: its run has other parameters ({'; '.join(diff)})")


def differences(saved: dict[str, Any], wanted: dict[str, Any]) -> list[str]:
    """Human-readable differences between two manifests that keep a resume from going on.

    More games than the run has is no difference: every game is seeded by its place in
    the schedule, so the first games stay the same and the new deals come after them."""
    out = []
    for key in (saved.keys() | wanted.keys()) - {"made_with"}:
        if saved.get(key) == wanted.get(key) or (key == "games" and _total(wanted) >= _total(saved) > 0):
            continue
        why = "; a resume may add games, never drop them" if key == "games" else ""
        out.append(f"{key}: the run has {_show(saved.get(key))}, this command asks for {_show(wanted.get(key))}{why}")
    return sorted(out)


def _total(manifest: dict[str, Any]) -> int:
    """The games a manifest's run plays (whole deals); 0 if it cannot say."""
    try:
        games = per_deal(len(manifest["lineup"]), manifest["seatings"])
        return deals_for(int(manifest["games"]), games) * games
    except (KeyError, TypeError, ValueError):
        return 0


def _adds_games(saved: dict[str, Any], wanted: dict[str, Any]) -> bool:
    """Whether ``wanted`` plays more deals than the saved run (asking for 101 games where a deal
    is 3 plays the same 102 as asking for 100)."""
    return _total(wanted) > _total(saved) > 0


def _show(value: Any) -> str:
    return " ".join(value) if isinstance(value, list) else json.dumps(value)


def read_journal(out: Path) -> list[GameResult]:
    """The finished games. A line cut short (the run was killed while writing it) is dropped:
    that game simply runs again."""
    path = out / JOURNAL
    if not path.is_file():
        return []
    results: dict[int, GameResult] = {}
    # A byte that is no UTF-8 spoils its line alone, which is dropped as a cut one is.
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            result = GameResult.from_json(json.loads(line))
        except (ValueError, KeyError, TypeError):
            continue
        results[result.index] = result
    return [results[i] for i in sorted(results)]


RUN_FILES = frozenset({LOCK, "records"})
"""What a new run may find in its folder without a manifest: a lock, and the records folder, left
by a run stopped before it wrote one."""


def _check_not_foreign(out: Path) -> None:
    """Refuse a folder that is not a run's: a new run clears its folder, and what it would clear
    there is someone else's."""
    if out.exists() and not out.is_dir():
        raise ResumeError(f"{out} is a file; the run needs a folder (choose another --out)")
    if not out.is_dir() or (out / MANIFEST).is_file():
        return
    others = sorted(p.name for p in out.iterdir() if p.name not in RUN_FILES)
    if (out / "records").is_dir() and any((out / "records").iterdir()):
        others.append("records/...")
    if others:
        shown = ", ".join(others[:3]) + (", ..." if len(others) > 3 else "")
        raise ResumeError(f"{out} is not empty ({shown}) and holds no arena run, so its files are not the arena's "
                          "to replace; choose another --out, or an empty folder")


class RunStore:
    """Writes a run's games as they finish; see the module's docstring for the files."""

    def __init__(
        self, out: Path, spec: GameSpec, lineup: Sequence[str], manifest: dict[str, Any], resume: bool,
        replace: bool = False,
    ) -> None:
        self.out = out
        self.replace = replace
        self.spec = spec
        self.lineup = tuple(lineup)
        self.labels = entrant_labels(lineup)
        self.records = bool(manifest["records"])
        self.done: list[GameResult] = []
        self._stale: tuple[str, ...] = ()
        """Reports a resume that adds games removes with its first game."""
        self.note: str | None = None
        """What a resume by other code than the run's games came from should be told (see
        :func:`~goldfields.arena.provenance.change_note`); known only once the folder is locked, so
        that a resume refused by the lock says nothing of it."""
        if resume:
            read_manifest(out)  # no run there: say so before making the folder for the lock
        else:
            _check_not_foreign(out)
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise ResumeError(f"cannot make the run's folder {out}: {err.strerror or err}") from None
        self._lock = _take_lock(out)
        try:
            self._open(out, spec, lineup, manifest, resume)
        except BaseException:
            self._lock.close()
            raise

    def _open(
        self, out: Path, spec: GameSpec, lineup: Sequence[str], manifest: dict[str, Any], resume: bool
    ) -> None:
        if resume:
            saved = read_manifest(out)
            check_same_run(out, saved, manifest)
            self.done = read_journal(out)
            self.note = change_note(saved, len(self.done))
            manifest = manifest | {"made_with": played_by(saved, len(self.done))}
            stored = manifest | {"games": saved["games"]}
            if _adds_games(saved, manifest):
                added = f"{_total(saved)} to {_total(manifest)} games"
                self.note = f"{self.note}; {added}" if self.note else f"the run grows from {added}"
                self._stale = REPORTS
            else:
                # The same deals (--games 101 where a deal is two games, say): the run, and what it asked, stay.
                manifest = stored
            if self.records:
                self.done = [self._with_record(r) for r in self.done]
        else:
            self._check_overwrite()
            self._clear()
            manifest = stored = manifest | {"made_with": []}
        out.mkdir(parents=True, exist_ok=True)
        # The code's version, and the games a resume adds, join the manifest with the first game
        # played: a resume that plays nothing, or is stopped (or fails) before a game ends, leaves
        # the run as it was (a finished run finished, its reports in place).
        self.manifest = manifest | {"made_with": with_this_version(manifest["made_with"], spec.game, self.lineup)}
        self._stored = stored
        self._manifest_due = self.manifest != stored
        self._write_manifest()
        # Start the journal and games.csv afresh from the games known to be done, dropping
        # a cut line or a row written for a game whose journal line never made it.
        write_atomic(out / JOURNAL, "".join(json.dumps(r.to_json()) + "\n" for r in self.done))
        write_games_csv(out / "games.csv", spec, lineup, self.done, self.records)
        self.all: list[GameResult] = list(self.done)
        self._journal: IO[str] = (out / JOURNAL).open("a")
        self._csv_file: IO[str] = (out / "games.csv").open("a", newline="")
        self._csv = csv.writer(self._csv_file)
        self._sizes = self._measure()

    def _with_record(self, r: GameResult) -> GameResult:
        path = self.out / "records" / f"game-{r.index + 1:05d}.json"
        try:
            record = json.loads(path.read_text())
        except (OSError, ValueError):
            return r
        return GameResult.from_json(r.to_json(), record)

    def _check_overwrite(self) -> None:
        """Refuse to wipe a run that was stopped part-way: it may be hours of play. A finished
        run is replaced only when asked (``replace``): it may be a study someone means to keep."""
        if not (self.out / MANIFEST).is_file():
            return
        try:
            saved = read_manifest(self.out)
            games = per_deal(len(saved["lineup"]), saved["seatings"])
            total = deals_for(int(saved["games"]), games) * games
        except (ResumeError, KeyError, TypeError, ValueError):
            return  # not a run this version can resume anyway
        done = len(read_journal(self.out))
        if 0 < done < total:  # a run stopped before its first game has nothing to keep
            raise ResumeError(
                f"{self.out} holds an unfinished run ({done} of {total} games played); continue it with "
                f"--resume {self.out}, or choose another --out (or delete the folder) to start again"
            )
        if done and not self.replace:  # finished (an unfinished one was refused above)
            lineup = " ".join(saved["lineup"])
            raise ResumeError(
                f"{self.out} holds a finished run ({done} games of {saved['game']}: {lineup}); choose another "
                f"--out, add games to it with --resume {self.out} --games N, or replace it with --force"
            )

    def _clear(self) -> None:
        """Remove what an earlier run left, so no stale record or summary passes for this run's."""
        for name in (JOURNAL, "games.csv", *REPORTS):
            (self.out / name).unlink(missing_ok=True)
        records = self.out / "records"
        if records.is_dir():
            for path in records.glob("game-*.json"):
                path.unlink()

    def add(self, result: GameResult) -> None:
        """Save a finished game: its record, its row of games.csv, then its journal line (the mark of done).

        Ctrl-C and SIGTERM wait until the game is written whole: otherwise a signal between
        the record and the journal line would leave a record of a game the run counts as not played."""
        with _signals_held():
            self._add(result)

    def _add(self, result: GameResult) -> None:
        if self.records:
            write_record(self.out / "records", result)
        self.all.append(result)
        if self._manifest_due:
            # A grown run's old reports would pass for its own until it ends: gone first.
            for name in self._stale:
                (self.out / name).unlink(missing_ok=True)
            # Before the journal line: a kill between the two then lists a version with no game,
            # which can only warn of a mix that is not there; the other order could hide one.
            self._manifest_due = False
            self._write_manifest()
        if not self._intact():
            self._rewrite()
            return
        self._csv.writerow(games_csv_row(self.spec, result, self.labels, self.records))
        self._csv_file.flush()
        self._journal.write(json.dumps(result.to_json()) + "\n")
        self._journal.flush()
        self._sizes = self._measure()

    def _measure(self) -> tuple[int, int]:
        return os.fstat(self._journal.fileno()).st_size, os.fstat(self._csv_file.fileno()).st_size

    def _intact(self) -> bool:
        """Whether the journal and games.csv are still the files this store wrote, as it left them.

        A ``git checkout``, ``git stash`` or ``cp`` of a run kept under version control puts
        another file at the path, or other contents in the same file: appending would then write
        into a deleted file, or after a gap, and lose games."""
        pairs = ((self._journal, self.out / JOURNAL), (self._csv_file, self.out / "games.csv"))
        return all(_same_file(handle, path) for handle, path in pairs) and self._sizes == tuple(
            (self.out / name).stat().st_size for name in (JOURNAL, "games.csv"))  # fmt: skip

    def _write_manifest(self) -> None:
        """The run's manifest as it stands: before the first game this process plays, the run's
        own (a resume stopped then has changed nothing); from it on, with this version and the
        games a resume adds."""
        manifest = self._stored if self._manifest_due else self.manifest
        write_atomic(self.out / MANIFEST, json.dumps(manifest, indent=1) + "\n")

    def _rewrite(self) -> None:
        """Write the manifest, the journal and games.csv again from what the store holds, and append
        to the new files (see :meth:`_intact`)."""
        self._journal.close()
        self._csv_file.close()
        self._write_manifest()
        write_atomic(self.out / JOURNAL, "".join(json.dumps(r.to_json()) + "\n" for r in self.all))
        write_games_csv(self.out / "games.csv", self.spec, self.lineup, self.all, self.records)
        self._journal = (self.out / JOURNAL).open("a")
        self._csv_file = (self.out / "games.csv").open("a", newline="")
        self._csv = csv.writer(self._csv_file)
        self._sizes = self._measure()

    def close(self) -> None:
        """Flush, put games.csv in game order (rows were appended as games finished), let the folder go."""
        try:
            if not self._intact():
                self._rewrite()
            self._journal.close()
            self._csv_file.close()
            write_games_csv(self.out / "games.csv", self.spec, self.lineup, self.all, self.records)
        finally:
            self._lock.close()  # closing the file releases the lock


def _same_file(handle: IO[str], path: Path) -> bool:
    """Whether ``path`` still names the file ``handle`` writes to."""
    try:
        on_disk = path.stat()
    except OSError:
        return False
    open_one = os.fstat(handle.fileno())
    return (on_disk.st_dev, on_disk.st_ino) == (open_one.st_dev, open_one.st_ino)


def _take_lock(out: Path) -> IO[str]:
    """The folder's lock, or a ResumeError if another process holds it."""
    handle = (out / LOCK).open("a")
    if fcntl is not None:  # POSIX; elsewhere two runs into one folder are not caught
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            raise ResumeError(
                f"another arena is playing into {out} now; let it finish or stop it first "
                f"(goldfields arena --standing {out} shows how far it is)"
            ) from None
    return handle
