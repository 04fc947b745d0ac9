"""The lobby's "open" page (waiting tables with a free seat) against a database of many old tables.

Run:  python benchmarks/bench_lobby_open.py [--tables 60000] [--repeat 20] [--db /tmp/lobby-open.db]

Every table ever stored keeps its seats, expired ones too, with their unclaimed human seats. The
page's filter was ``id IN (the tables of every unclaimed human seat)``, which reads all of them; it
is now a correlated ``EXISTS`` per table (:func:`goldfields.server.store.open_seat_of`), looked up
through the seats' primary key. Both are timed side by side on one SQLite file, in turns; the
figure that matters is their ratio.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from goldfields.server.models import Base, SeatRow, TableRow
from goldfields.server.store import open_seat_of


def fill(url: str, tables: int) -> None:
    engine = create_engine(url)
    Base.metadata.drop_all(engine)
    Base.metadata.create_all(engine)
    with Session(engine) as s:
        for i in range(tables):  # one waiting table in 3,000; the rest finished or expired
            status = "waiting" if i % 3000 == 0 else ("expired" if i % 2 else "finished")
            s.add(TableRow(id=f"t{i}", game="digging", name="", config={}, secret="s" * 32, status=status,
                           created_at=float(i)))  # fmt: skip
            s.add(SeatRow(table_id=f"t{i}", seat=0, kind="human", name=""))
            s.add(SeatRow(table_id=f"t{i}", seat=1, kind="human", name="", token_hash="h"))
        s.commit()
    engine.dispose()


def page(session: Session, old: bool) -> list[str]:
    query = select(TableRow.id).where(TableRow.status == "waiting")
    if old:
        free = select(SeatRow.table_id).where(SeatRow.kind == "human", SeatRow.token_hash.is_(None))
        query = query.where(TableRow.id.in_(free))
    else:
        query = query.where(open_seat_of(TableRow.id))
    return list(session.scalars(query.order_by(TableRow.created_at.desc(), TableRow.id.desc()).limit(51)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=60000)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--db", type=Path, default=Path("/tmp/lobby-open.db"))
    args = ap.parse_args()
    url = f"sqlite:///{args.db}"
    fill(url, args.tables)
    engine = create_engine(url)
    times = {True: 0.0, False: 0.0}
    with Session(engine) as s:
        assert page(s, True) == page(s, False)
        for _ in range(args.repeat):
            for old in (True, False):  # in turns, so that both meet the same machine
                t = time.perf_counter()
                page(s, old)
                times[old] += time.perf_counter() - t
    before, after = (1000 * times[k] / args.repeat for k in (True, False))
    print(f"{args.tables} tables: id IN every unclaimed seat {before:.2f} ms a page, EXISTS per table "
          f"{after:.2f} ms; ratio {before / after:.1f}x")


if __name__ == "__main__":
    main()
