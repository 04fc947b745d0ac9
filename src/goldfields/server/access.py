"""How a WebSocket session reaches its table: in this process's memory, or through the
process that owns it (several server processes, see cluster.py). A session speaks the
same protocol either way."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from .tables import LiveTable, TableError, TableManager, hash_token

if TYPE_CHECKING:
    from .cluster import Cluster
    from .tables import Outbox


class TableAccess(Protocol):
    table_id: str

    async def authenticate(self, seat: int, token: str) -> bool: ...

    async def connect(self, conn: Outbox) -> None: ...

    async def disconnect(self, conn: Outbox) -> None: ...

    async def submit(self, seat: int, move: str, seq: int | None, ack: Callable[[int], None]) -> None: ...

    async def take_back(self, seat: int) -> None: ...

    async def chat(self, seat: int, text: Any, phrase: Any) -> None: ...


class LocalAccess:
    """A table this process owns."""

    def __init__(self, manager: TableManager, table: LiveTable) -> None:
        self.manager = manager
        self.table = table
        self.table_id = table.id

    async def authenticate(self, seat: int, token: str) -> bool:
        return self.manager.authenticate(self.table, seat, token)

    async def connect(self, conn: Outbox) -> None:
        await self.manager.connect(self.table, conn)

    async def disconnect(self, conn: Outbox) -> None:
        await self.manager.disconnect(self.table, conn)

    async def submit(self, seat: int, move: str, seq: int | None, ack: Callable[[int], None]) -> None:
        await self.manager.submit(self.table, seat, move, seq, ack)

    async def take_back(self, seat: int) -> None:
        await self.manager.take_back(self.table, seat)

    async def chat(self, seat: int, text: Any, phrase: Any) -> None:
        self.manager.chat(self.table, seat, text, phrase)


class RelayAccess:
    """A table another process owns: requests go to it, its updates come back (cluster.py)."""

    def __init__(self, manager: TableManager, cluster: Cluster, table_id: str) -> None:
        self.manager = manager
        self.cluster = cluster
        self.table_id = table_id

    async def authenticate(self, seat: int, token: str) -> bool:
        # Read at each hello: a claim on the owner may have given the seat its token since.
        stored = await self.manager.store.load_table(self.table_id)
        if stored is None or not 0 <= seat < len(stored.seats):
            return False
        expected = stored.seats[seat].token_hash
        return expected is not None and secrets.compare_digest(expected, hash_token(token))

    async def connect(self, conn: Outbox) -> None:
        await self.cluster.relay(self.table_id).add(conn)

    async def disconnect(self, conn: Outbox) -> None:
        relay = self.cluster.relays.get(self.table_id)
        if relay is not None:
            await relay.remove(conn)

    async def submit(self, seat: int, move: str, seq: int | None, ack: Callable[[int], None]) -> None:
        answer = await self.cluster.ask(self.table_id, "move", seat=seat, move=move, seq=seq)
        ack(int(answer["ack"]))

    async def take_back(self, seat: int) -> None:
        await self.cluster.ask(self.table_id, "resume", seat=seat)

    async def chat(self, seat: int, text: Any, phrase: Any) -> None:
        await self.cluster.ask(self.table_id, "chat", seat=seat, text=text, phrase=phrase)


def moving_error() -> TableError:
    message = "the table is moving to another server process: try again in a moment"
    return TableError("moving", message, 503, {"retry_after": 2})
