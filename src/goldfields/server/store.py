"""Durable storage for the server, with group commit.

All database work runs on one dedicated thread, so SQLite sees a single
writer and the event loop never blocks on disk. Steps are appended through
:meth:`Store.append_step`, which returns only once the step is committed:
the server acknowledges a move after that, never before. Steps arriving
together (many tables playing at once) share one transaction and one sync to
disk, which is what lets a small machine host hundreds of tables.

Each change of a table's seats or status is one transaction: a table is
created with its seats (and the creator's claim), a claim that fills the
last seat also starts the game, and a game's end stores its record with its
status. A crash can cut between two of them, never inside one.

The schema is brought up to date by Alembic at start-up (:mod:`.migrate`).
An SQLite file is created readable by its owner only: it holds every deck
and each table's random seed.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import (
    ColumnElement,
    Insert,
    Select,
    bindparam,
    create_engine,
    delete,
    event,
    exists,
    func,
    insert,
    make_url,
    or_,
    select,
    tuple_,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, defer, sessionmaker

from . import ratings
from .limits import network_key
from .migrate import upgrade
from .models import PlayerRow, RatingRow, ResultRow, SeatRow, StepRow, TableRow

LIVE = ("waiting", "playing")
NO_CREATOR: dict[str, Any] = {"creator": None, "creator_network": None}
"""A closed table's creator, cleared: the database keeps no player's address past their table."""
CRASH_VARIABLE = "GOLDFIELDS_CRASH_AT"
"""For the crash tests only: the name of a point (``claim:before-commit``...) where the
server kills itself with SIGKILL, to show that a crash there leaves a consistent table."""

T = TypeVar("T")


HOLD_LIMIT = "60s"
"""How long a transaction that holds a lock another process waits for (a step's table rows, an
abandon's row, the creation lock) may sit idle before PostgreSQL ends it: each process does its
database work on one thread, so a holder frozen mid-transaction (a paused machine, a cut network)
would otherwise stall every table of the processes waiting on it until TCP gave up, hours later."""

CREATE_LOCK = 4654
"""The PostgreSQL advisory lock a cluster's processes create tables under (migrations hold 4653),
so that the site-wide caps are counted and the new table stored with no other creation between."""


def open_seat_of(table_id: Any) -> ColumnElement[bool]:
    """Whether the table has a human seat nobody has claimed: looked up per table through the
    seats' primary key. (``id IN`` every unclaimed seat's table read the seats of every table ever
    stored, expired ones too: 44 ms a page against 2 ms with 60,000 of them on SQLite,
    benchmarks/bench_lobby_open.py.)"""
    return exists().where(SeatRow.table_id == table_id, SeatRow.kind == "human", SeatRow.token_hash.is_(None))


@dataclass(frozen=True, slots=True)
class Caps:
    """The site-wide caps a new table must fit under, checked in the transaction that stores it."""

    live: int
    """Tables waiting or in play, in all (``max_live_tables``)."""
    bots: int | None
    """Live tables of bots only (``max_bot_tables``), if the new table is one; else None."""
    creator: str | None = None
    """The creating address, if ``max_tables_per_client`` applies."""
    per_creator: int = 0
    """Live tables one address may have created (``max_tables_per_client``)."""
    network: str | None = None
    """The creating address's IPv6 /48, if it has one and ``max_tables_per_client`` applies."""
    per_network: int = 0
    """Live tables one /48 may have created (``max_tables_per_client`` times ``NETWORK_FACTOR``)."""


class CapReached(Exception):
    """A cap a new table would pass: which (``live``, ``bots``, ``creator``, ``network``) and the count it is at."""

    def __init__(self, cap: str, count: int) -> None:
        super().__init__(f"{cap}: {count}")
        self.cap, self.count = cap, count


class TableClosed(Exception):
    """A step refused because its table is no longer live: another server process closed it
    (abandoned it) while this one still served it. Nothing was stored."""

    def __init__(self, table_ids: Sequence[str], status: str = "abandoned") -> None:
        super().__init__(f"table(s) {', '.join(table_ids)} no longer in play: step refused")
        self.table_ids = list(table_ids)
        self.status = status
        """The first closed table's status (a step batch of one table: that table's)."""


@dataclass(frozen=True, slots=True)
class StoredTable:
    row: TableRow
    seats: list[SeatRow]
    steps: list[StepRow]


def private_sqlite_file(url: str) -> None:
    """Create an SQLite database file readable by its owner only (0600), or tighten an existing one.

    SQLite gives its -wal and -shm files the permissions of the database file."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return
    path = Path(parsed.database)
    if path.exists():
        if path.is_file() and path.stat().st_size:
            with path.open("rb") as f:
                if f.read(16) != b"SQLite format 3\x00":
                    # Someone's other file, named by mistake: neither opened nor touched.
                    raise ValueError(f"{path} is not an SQLite database; name a new file or a goldfields database")
        if path.stat().st_mode & 0o077:
            path.chmod(0o600)
        return
    os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))


def make_engine(url: str, synchronous: str = "FULL") -> Engine:
    private_sqlite_file(url)
    # hide_parameters: an error's text (which the log keeps) must not carry what its statement
    # held: a chance step's payload is a whole shuffled deck, and a table's secret seeds its chance.
    engine = create_engine(url, future=True, hide_parameters=True)
    if engine.dialect.name == "sqlite":

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            # WAL: readers never block the writer. synchronous=FULL: a commit
            # is on disk before it returns, so an acknowledged move survives
            # even a power cut. NORMAL: the commit is in the WAL file (the
            # operating system has it), which survives a killed process.
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={synchronous}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

    return engine


class Store:
    def __init__(self, url: str, synchronous: str = "FULL", fenced: bool = True) -> None:
        self.url = url
        self.fenced = fenced
        """Whether a step is stored only while its table is in play (:meth:`_insert_steps`). A
        server of one process orders its abandons and steps by the table's lock in memory and
        needs no fence; the processes of a cluster do (``benchmarks/bench_step_fence.py``
        measures what it costs)."""
        self.engine = make_engine(url, synchronous)
        upgrade(self.engine)
        self._crash_at = os.environ.get(CRASH_VARIABLE)
        self.hold_limit = HOLD_LIMIT
        """What :meth:`_bounded` sets (a test shortens it)."""
        self.pauses: dict[str, Callable[[], None]] = {}
        """For the concurrency tests only: a point's name (see :meth:`crash_point`) and what to
        call there, on the database thread, inside the transaction (wait for the test)."""
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="goldfields-db")
        self._pending: list[tuple[dict[str, Any], asyncio.Future[None]]] = []
        self._flushing = False

    # -- plumbing ---------------------------------------------------------
    async def run(self, fn: Callable[[Session], T]) -> T:
        """Run ``fn(session)`` on the database thread, committed."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, self._in_session, fn)

    def _in_session(self, fn: Callable[[Session], T]) -> T:
        with self._sessions() as session, session.begin():
            return fn(session)

    def crash_point(self, name: str) -> None:
        """Die here, as a crash would, if the crash tests asked for it (see CRASH_VARIABLE), or
        pause here if a concurrency test asked for it (:attr:`pauses`)."""
        if (pause := self.pauses.get(name)) is not None:
            pause()
        if self._crash_at == name:
            os.kill(os.getpid(), signal.SIGKILL)

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self.engine.dispose()

    # -- steps (group commit) ---------------------------------------------
    async def append_step(self, table_id: str, seq: int, payload: dict[str, Any], wall: float) -> None:
        """Append one step; returns once it is committed to disk."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append(({"table_id": table_id, "seq": seq, "payload": payload, "wall": wall}, fut))
        if not self._flushing:
            self._flushing = True
            asyncio.get_running_loop().create_task(self._flush())
        await fut

    async def _flush(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                rows = [row for row, _ in batch]
                try:
                    # A Core executemany: the ORM's unit of work is not needed for appends.
                    await self.run(partial(self._insert_steps, rows=rows))
                except (IntegrityError, TableClosed):
                    # A step number already taken, or a table closed: another server process owns
                    # that table now, or closed it (see cluster.py). Each row alone, so that only
                    # that table's step fails.
                    for row, fut in batch:
                        try:
                            await self.run(partial(self._insert_steps, rows=[row]))
                        except Exception as err:
                            if not fut.done():
                                fut.set_exception(err)
                        else:
                            if not fut.done():
                                fut.set_result(None)
                    continue
                except Exception as err:  # the whole batch failed: nobody is acknowledged
                    for _, fut in batch:
                        if not fut.done():
                            fut.set_exception(err)
                    continue
                for _, fut in batch:
                    if not fut.done():
                        fut.set_result(None)
        finally:
            self._flushing = False

    def _bounded(self, query: Select[Any]) -> Select[Any]:
        """``query``, which takes a lock other processes wait for, setting (on PostgreSQL, in the
        same round trip) how long its transaction may then sit idle: :attr:`hold_limit`."""
        if self.engine.dialect.name != "postgresql":
            return query
        return query.add_columns(func.set_config("idle_in_transaction_session_timeout", self.hold_limit, True))

    def _insert_steps(self, session: Session, rows: list[dict[str, Any]]) -> None:
        """Insert steps, each only if its table is still in play (with :attr:`fenced`).

        Each step is inserted from its table's row, read ``FOR KEY SHARE`` and only while in play
        (:func:`_fenced_step`). An abandon holds its row ``FOR UPDATE`` (:meth:`abandon`), so this
        read waits for it to commit, and PostgreSQL then reads the row as the abandon left it,
        closed: nothing is inserted and the step is refused, never stored after its game's record
        (every card) was published. An abandon that comes after this read waits for the step's
        commit, then sees the step and leaves the game in play. ``FOR KEY SHARE`` holds up only
        what would change the row's key or lock it ``FOR UPDATE``, as the abandon does: other
        updates of the row go through. SQLite has one writer, which orders the two anyway (and
        no ``FOR`` clause: SQLAlchemy leaves it out there).

        If a table of the batch was closed, fewer steps were stored than sent: this raises
        :class:`TableClosed` and the transaction is rolled back, the other tables' steps with it,
        so nothing of the batch is stored, as when the read came first. The group commit
        (:meth:`_flush`) then stores each step alone: only the closed tables' are refused.

        The read is part of each insert rather than a statement of its own before them: psycopg
        sends a batch's inserts in one pipeline, so a fenced batch takes the round trips of a bare
        one (BEGIN, the inserts, COMMIT). A read of its own took one more, and each round trip is
        also a wait for this thread's turn at the interpreter lock, which a busy server's event
        loop holds (``benchmarks/bench_step_fence.py``)."""
        if not self.fenced:
            # A Core executemany: the ORM's unit of work is not needed for appends.
            session.execute(insert(StepRow), rows)
            return
        if self.engine.dialect.name == "postgresql":
            stored = session.connection().execute(_FENCED_STEP_HELD, [{**r, "hold": self.hold_limit} for r in rows])
        else:
            stored = session.connection().execute(_FENCED_STEP, rows)
        self.crash_point("steps:locked")
        if stored.rowcount == len(rows):
            return
        ids = sorted({row["table_id"] for row in rows})
        read = session.execute(select(TableRow.id, TableRow.status).where(TableRow.id.in_(ids)))
        status: dict[str, str] = {table_id: table_status for table_id, table_status in read}
        if not (closed := [i for i in ids if status.get(i) not in LIVE]):
            # Cannot happen (a closed table never opens again), unless the driver miscounted.
            raise RuntimeError(f"{stored.rowcount} of {len(rows)} steps stored, yet every table is in play")
        raise TableClosed(closed, status.get(closed[0]) or "abandoned")

    # -- tables and seats: each change one transaction ----------------------
    async def create_table(self, row: TableRow, seats: Sequence[SeatRow], caps: Caps | None = None) -> None:
        """The table with its seats (a creator's claim included) and its status, all or nothing.

        With ``caps`` (the processes of a cluster), the caps are counted in the same transaction,
        under an advisory lock every process creates under: two processes creating at the same
        moment are taken in turn, so the second counts the first's table and cannot pass a cap
        with it. Raises :class:`CapReached`, having stored nothing. (A single process counts in
        memory, where its creations are taken in turn anyway.)"""

        if row.creator is not None:
            row.creator_network = network_key(row.creator)

        def add(s: Session) -> None:
            if caps is not None:
                if self.engine.dialect.name == "postgresql":
                    s.execute(self._bounded(select(func.pg_advisory_xact_lock(CREATE_LOCK))))
                self.crash_point("create:locked")
                _check_caps(s, caps)
            s.add(row)
            s.flush()  # the table before its seats, for the foreign key
            s.add_all(seats)
            s.flush()
            self.crash_point("create:before-commit")

        await self.run(add)
        self.crash_point("create:after-commit")

    async def claim_seat(
        self,
        table_id: str,
        seat: int,
        token_hash: str,
        name: str,
        start: bool,
        now: float,
        player_id: str | None = None,
    ) -> bool:
        """Give an open human seat its token, and start the game if that was the last open seat;
        False if someone claimed it first (then nothing changed)."""

        def claim(s: Session) -> bool:
            result = s.execute(
                update(SeatRow)
                .where(
                    SeatRow.table_id == table_id,
                    SeatRow.seat == seat,
                    SeatRow.kind == "human",
                    SeatRow.token_hash.is_(None),
                )
                .values(token_hash=token_hash, name=name, player_id=player_id)
            )
            if result.rowcount != 1:  # type: ignore[attr-defined]
                return False
            values: dict[str, Any] = {"updated_at": now}
            if start:
                values["status"] = "playing"
            s.execute(update(TableRow).where(TableRow.id == table_id).values(**values))
            s.flush()
            self.crash_point("claim:before-commit")
            return True

        claimed = await self.run(claim)
        self.crash_point("claim:after-commit")
        return claimed

    async def set_status(self, table_id: str, status: str, now: float) -> None:
        await self.run(
            lambda s: s.execute(update(TableRow).where(TableRow.id == table_id).values(status=status, updated_at=now))
        )

    async def finish(
        self,
        table_id: str,
        record: dict[str, Any],
        seq: int,
        now: float,
        results: tuple[str, str, Sequence[ratings.SeatResult], bool] | None = None,
    ) -> None:
        """The game is over: its status and its record, which is what an archived table is read
        from, and its results (game, mode, seats): the players' history and ratings."""

        def done(s: Session) -> None:
            s.execute(
                update(TableRow)
                .where(TableRow.id == table_id)
                .values(status="finished", record=record, seq=seq, finished_at=now, updated_at=now, **NO_CREATOR)
            )
            if results is not None:
                game, mode, seats, standard = results
                ratings.record_results(s, table_id, game, mode, seats, now, standard)
            s.flush()
            self.crash_point("finish:before-commit")

        await self.run(done)

    async def drop_steps(self, table_ids: Sequence[str] = (), finished_before: float | None = None) -> int:
        """Delete the steps of archived tables: those in ``table_ids``, and every one finished
        before ``finished_before``. Once a game has ended it is read from its record alone, and
        without its steps (a row a move) it takes 3 to 4 times less room
        (benchmarks/bench_server_storage.py). Only finished tables lose theirs. Returns the
        tables whose steps were deleted.

        ``finished_before`` finds its tables from the steps, which hold only live tables' and
        those not yet dropped, so it does not grow with the history of finished games; it
        deletes a few hundred tables' steps a transaction, so that a first pass over an old
        database does not hold the writer for long."""
        finished = TableRow.status == "finished"

        def drop(s: Session, ids: Sequence[str]) -> None:
            which = select(TableRow.id).where(finished, TableRow.id.in_(ids))
            s.execute(delete(StepRow).where(StepRow.table_id.in_(which)))

        if finished_before is None:
            if table_ids:
                await self.run(lambda s: drop(s, table_ids))
            return len(table_ids)

        def batch(s: Session) -> int:
            query = (select(StepRow.table_id).distinct()
                     .join(TableRow, TableRow.id == StepRow.table_id)
                     .where(finished, TableRow.finished_at < finished_before).limit(500))  # fmt: skip
            ids = list(s.scalars(query))
            drop(s, ids)
            return len(ids)

        done = 0
        while n := await self.run(batch):
            done += n
        return done

    async def set_closed(self, table_ids: Sequence[str], was: str, status: str, now: float) -> list[str]:
        """Give tables that still have the status ``was`` the status ``status`` (a waiting table
        expired); returns those that had it."""

        def mark(s: Session) -> list[str]:
            query = select(TableRow.id).where(TableRow.id.in_(table_ids), TableRow.status == was)
            found = list(s.scalars(query))
            if found:
                s.execute(update(TableRow).where(TableRow.id.in_(found))
                          .values(status=status, updated_at=now, **NO_CREATOR))  # fmt: skip
            return found

        return await self.run(mark) if table_ids else []

    async def abandon(
        self, table_id: str, record: dict[str, Any], seq: int, now: float, status: str = "abandoned"
    ) -> bool:
        """Close a game in play before its end, if it is still in play: nobody came back to it
        (``abandoned``), or it reached the cap on a game's length (``stopped``). Its status, and
        its record in place of its steps, in one transaction. It can never go on, so, like an
        archived game, it is read from its record alone (to download or replay it). Returns
        whether it was still in play, with no step beyond ``seq``."""

        def close(s: Session) -> bool:
            # The row FOR UPDATE first: a step being stored holds it FOR KEY SHARE
            # (_insert_steps), and this waits for that step's commit; one that comes after
            # waits for this transaction, then finds the table closed and is refused.
            s.execute(self._bounded(select(TableRow.id).where(TableRow.id == table_id).with_for_update()))
            self.crash_point("abandon:locked")
            # Fenced: still in play, and no step stored beyond the ones this process knows (a
            # step past them is another process's, which has the table now). A statement of its
            # own, so that under READ COMMITTED it sees a step committed while the lock waited.
            later = select(StepRow.seq).where(StepRow.table_id == table_id, StepRow.seq > seq).exists()
            playing = (TableRow.id == table_id) & (TableRow.status == "playing") & ~later
            values = {"status": status, "record": record, "seq": seq, "finished_at": now, "updated_at": now,
                      **NO_CREATOR}  # fmt: skip
            if not s.execute(update(TableRow).where(playing).values(**values)).rowcount:  # type: ignore[attr-defined]
                return False
            s.execute(delete(StepRow).where(StepRow.table_id == table_id))
            return True

        return await self.run(close)

    # -- reading -----------------------------------------------------------
    async def load_live(self, finished_since: float, ids: Sequence[str] | None = None) -> list[StoredTable]:
        """Every table still waiting or playing, and those finished at ``finished_since`` or
        later, with their seats and steps: what start-up restores (only ``ids``, if given).
        Older finished tables and expired ones are not read, so start-up does not grow with
        history."""

        def load(s: Session) -> list[StoredTable]:
            recent = (TableRow.status == "finished") & (TableRow.finished_at >= finished_since)
            query = select(TableRow).where(TableRow.status.in_(LIVE) | recent).order_by(TableRow.created_at)
            if ids is not None:
                query = query.where(TableRow.id.in_(list(ids)))
            rows = list(s.scalars(query))
            found = [row.id for row in rows]
            seats: dict[str, list[SeatRow]] = {i: [] for i in found}
            steps: dict[str, list[StepRow]] = {i: [] for i in found}
            for chunk in _chunks(found, 500):
                for seat in s.scalars(select(SeatRow).where(SeatRow.table_id.in_(chunk)).order_by(SeatRow.seat)):
                    seats[seat.table_id].append(seat)
                for step in s.scalars(select(StepRow).where(StepRow.table_id.in_(chunk)).order_by(StepRow.seq)):
                    steps[step.table_id].append(step)
            return [StoredTable(row, seats[row.id], steps[row.id]) for row in rows]

        return await self.run(load)

    async def count_live(self) -> tuple[int, int]:
        """Tables waiting or playing, and how many of them have no human seat, in all processes."""
        return await self.run(_count_live)

    async def count_created(self, creator: str) -> int:
        """Live tables (waiting or in play) that the address ``creator`` created, in every process."""
        return await self.run(partial(_count_created, creator=creator))

    async def count_in_network(self, network: str) -> int:
        """Live tables created from the IPv6 /48 ``network`` (a key of :func:`network_key`), in every process."""
        return await self.run(partial(_count_in_network, network=network))

    async def live_ids(self) -> list[str]:
        """The ids of the tables waiting or playing (what a cluster's processes share out)."""
        return await self.run(lambda s: list(s.scalars(select(TableRow.id).where(TableRow.status.in_(LIVE)))))

    async def load_table(self, table_id: str) -> StoredTable | None:
        """One table as stored, without its steps (an archived table is read from its record)."""

        def load(s: Session) -> StoredTable | None:
            row = s.get(TableRow, table_id)
            if row is None:
                return None
            seats = list(s.scalars(select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)))
            return StoredTable(row, seats, [])

        return await self.run(load)

    # -- players ---------------------------------------------------------------
    async def create_player(self, player_id: str, name: str, key_hash: str, now: float) -> None:
        def add(s: Session) -> None:
            s.add(PlayerRow(id=player_id, name=name, key_hash=key_hash, bot=None, created_at=now))

        await self.run(add)

    async def drop_unused_players(self, made_before: float) -> int:
        """Delete the profiles made before ``made_before`` that never took a seat: no seat, result
        or rating names them (a seat's row stays with its table for good). Bots' profiles stay.
        Returns how many were deleted."""
        unused = delete(PlayerRow).where(
            PlayerRow.bot.is_(None),
            PlayerRow.created_at < made_before,
            ~exists().where(SeatRow.player_id == PlayerRow.id),
            ~exists().where(ResultRow.player_id == PlayerRow.id),
            ~exists().where(RatingRow.player_id == PlayerRow.id),
        )
        return int(await self.run(lambda s: s.execute(unused).rowcount))  # type: ignore[attr-defined]

    async def player_by_key(self, key_hash: str) -> PlayerRow | None:
        return await self.run(lambda s: s.scalars(select(PlayerRow).where(PlayerRow.key_hash == key_hash)).first())

    async def rename_player(self, player_id: str, name: str) -> None:
        await self.run(lambda s: s.execute(update(PlayerRow).where(PlayerRow.id == player_id).values(name=name)))

    async def player_profile(self, player_id: str) -> dict[str, Any] | None:
        def read(s: Session) -> dict[str, Any] | None:
            player = s.get(PlayerRow, player_id)
            return None if player is None else ratings.profile(s, player)

        return await self.run(read)

    async def leaderboard(self, game: str, mode: str, limit: int) -> list[dict[str, Any]]:
        return await self.run(lambda s: ratings.leaderboard(s, game, mode, limit))

    async def tables_by_status(
        self,
        statuses: Sequence[str],
        game: str | None,
        limit: int,
        before: tuple[float, str] | None,
        open_seat: bool = False,
    ) -> list[StoredTable]:
        """A page of tables of some statuses, newest first, after the ``before`` cursor; with
        ``open_seat``, only those with a human seat nobody has claimed."""

        def page(s: Session) -> list[StoredTable]:
            # A lobby page names tables; it never reads their records, which run to megabytes
            # (an audit measured a page three times slower with them, on the thread moves are stored on).
            query = select(TableRow).options(defer(TableRow.record, raiseload=True))
            query = query.where(TableRow.status.in_(list(statuses)))
            if open_seat:
                query = query.where(open_seat_of(TableRow.id))
            if game is not None:
                query = query.where(TableRow.game == game)
            if before is not None:
                query = query.where(tuple_(TableRow.created_at, TableRow.id) < tuple_(*before))
            rows = list(s.scalars(query.order_by(TableRow.created_at.desc(), TableRow.id.desc()).limit(limit)))
            ids = [row.id for row in rows]
            seats: dict[str, list[SeatRow]] = {i: [] for i in ids}
            if ids:
                for seat in s.scalars(select(SeatRow).where(SeatRow.table_id.in_(ids)).order_by(SeatRow.seat)):
                    seats[seat.table_id].append(seat)
            return [StoredTable(row, seats[row.id], []) for row in rows]

        return await self.run(page)


def _count_live(s: Session) -> tuple[int, int]:
    live = s.scalar(select(func.count()).select_from(TableRow).where(TableRow.status.in_(LIVE))) or 0
    humans = select(SeatRow.table_id).where(SeatRow.kind == "human")
    bots_only = s.scalar(
        select(func.count())
        .select_from(TableRow)
        .where(TableRow.status.in_(LIVE), TableRow.id.not_in(humans))
    )
    return live, bots_only or 0


def _count_created(s: Session, creator: str) -> int:
    query = select(func.count()).select_from(TableRow).where(TableRow.creator == creator,
                                                             TableRow.status.in_(LIVE))  # fmt: skip
    return s.scalar(query) or 0


def _count_in_network(s: Session, network: str) -> int:
    query = select(func.count()).select_from(TableRow).where(TableRow.creator_network == network,
                                                             TableRow.status.in_(LIVE))  # fmt: skip
    return s.scalar(query) or 0


def _check_caps(s: Session, caps: Caps) -> None:
    live, bots_only = _count_live(s)
    if live >= caps.live:
        raise CapReached("live", live)
    if caps.bots is not None and bots_only >= caps.bots:
        raise CapReached("bots", bots_only)
    if caps.creator is not None and (mine := _count_created(s, caps.creator)) >= caps.per_creator:
        raise CapReached("creator", mine)
    if caps.network is not None and (ours := _count_in_network(s, caps.network)) >= caps.per_network:
        raise CapReached("network", ours)


def _chunks(items: list[str], size: int) -> list[list[str]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def _fenced_step(hold: bool) -> Insert:
    """One step's ``INSERT ... SELECT`` from its table's row, read ``FOR KEY SHARE`` and only
    while in play: once the table is closed, no row, and nothing is inserted. Run as an
    executemany, whose rowcount (summed over the steps: ``preserve_rowcount``) tells how many
    were stored. ``hold``: the read also sets how long the transaction may then sit idle holding
    the row (``:hold``, :attr:`Store.hold_limit`; PostgreSQL only, as :meth:`Store._bounded`).

    The status is compared with ``OR``, not ``IN``: SQLAlchemy expands an ``IN`` list into the
    text of the statement, which it refuses to do for an executemany."""
    live = select(
        TableRow.id,
        bindparam("seq", type_=StepRow.seq.type),
        bindparam("payload", type_=StepRow.payload.type),
        bindparam("wall", type_=StepRow.wall.type),
    ).where(TableRow.id == bindparam("table_id"), or_(*(TableRow.status == status for status in LIVE)))
    if hold:
        live = live.where(func.set_config("idle_in_transaction_session_timeout", bindparam("hold"), True).is_not(None))
    # read=True: FOR KEY SHARE. key_share=True alone renders FOR NO KEY UPDATE, which would also
    # hold up every other update of the row, and another process's step of the same table.
    live = live.with_for_update(read=True, key_share=True)
    stmt = insert(StepRow).from_select(["table_id", "seq", "payload", "wall"], live)
    return stmt.execution_options(preserve_rowcount=True)


_FENCED_STEP = _fenced_step(hold=False)
_FENCED_STEP_HELD = _fenced_step(hold=True)
