"""Durable storage for the server, with group commit.

All database work runs on one dedicated thread, so SQLite sees a single
writer and the event loop never blocks on disk. Steps are appended through
:meth:`Store.append_step`, which returns only once the step is committed:
the server acknowledges a move after that, never before. Steps arriving
together (many tables playing at once) share one transaction and one sync to
disk, which is what lets a small machine host hundreds of tables.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from sqlalchemy import create_engine, event, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from .models import Base, SeatRow, StepRow, TableRow

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class StoredTable:
    row: TableRow
    seats: list[SeatRow]
    steps: list[StepRow]


def make_engine(url: str, synchronous: str = "FULL") -> Engine:
    engine = create_engine(url, future=True)
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
    def __init__(self, url: str, synchronous: str = "FULL") -> None:
        self.url = url
        self.engine = make_engine(url, synchronous)
        Base.metadata.create_all(self.engine)
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
                    await self.run(partial(_insert_steps, rows=rows))
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

    # -- tables and seats -------------------------------------------------
    async def create_table(self, row: TableRow, seats: Sequence[SeatRow]) -> None:
        def add(s: Session) -> None:
            s.add(row)
            s.flush()  # the table before its seats, for the foreign key
            s.add_all(seats)

        await self.run(add)

    async def claim_seat(self, table_id: str, seat: int, token_hash: str, name: str) -> bool:
        """Give an open human seat its token; False if someone claimed it first."""

        def claim(s: Session) -> bool:
            result = s.execute(
                update(SeatRow)
                .where(
                    SeatRow.table_id == table_id,
                    SeatRow.seat == seat,
                    SeatRow.kind == "human",
                    SeatRow.token_hash.is_(None),
                )
                .values(token_hash=token_hash, name=name)
            )
            return result.rowcount == 1  # type: ignore[attr-defined]

        return await self.run(claim)

    async def set_status(self, table_id: str, status: str) -> None:
        await self.run(lambda s: s.execute(update(TableRow).where(TableRow.id == table_id).values(status=status)))

    async def load_all(self) -> list[StoredTable]:
        def load(s: Session) -> list[StoredTable]:
            out = []
            for row in s.scalars(select(TableRow).order_by(TableRow.created_at)):
                seats = list(s.scalars(select(SeatRow).where(SeatRow.table_id == row.id).order_by(SeatRow.seat)))
                steps = list(s.scalars(select(StepRow).where(StepRow.table_id == row.id).order_by(StepRow.seq)))
                out.append(StoredTable(row, seats, steps))
            return out

        return await self.run(load)


def _insert_steps(session: Session, rows: list[dict[str, Any]]) -> Any:
    # A Core executemany: the ORM's unit of work is not needed for appends.
    return session.execute(insert(StepRow), rows)
