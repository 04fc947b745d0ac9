"""The house's limits: how much any one client may ask of the server, and how much in all.

Rates are counted per client address with the ``limits`` library (moving
windows: in memory for a lone server, in Redis when several processes share
the count). So are open sockets per client; the total of open sockets is
each process's own, as it guards that process's file descriptors. Table chat
is counted per player as well, so that players sharing an address (a family,
a school, a NAT) each have their own limit. Behind a reverse proxy,
run uvicorn with ``--forwarded-allow-ips`` so that the address is the
player's, not the proxy's.

Every limit here is a setting of ``goldfields serve`` (see docs/server.md,
"Limits").
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import math
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeVar

from limits import RateLimitItem, parse, storage, strategies

T = TypeVar("T")

log = logging.getLogger("goldfields.server")

PLURAL = {"analysis": "analyses", "chat": "chat messages", "chat_address": "chat messages", "table/48": "tables"}

ADDRESS_CHAT_PLAYERS = 10
"""Without a rate of its own, an address may chat as much as this many players."""

RATE_HELP = 'a rate in the notation of the limits library: "20/minute", "5/second", "100/hour"'


def rate(text: str) -> RateLimitItem:
    """``"20/minute"`` as a rate item; a clear ValueError otherwise."""
    try:
        return parse(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a rate: write {RATE_HELP}") from None


def times(text: str, factor: int) -> str:
    """A rate ``factor`` times as high, over the same window: ``times("10/minute", 10)`` is
    ``"100/1 minute"``."""
    item = rate(text)
    return f"{item.amount * factor}/{item.multiples} {item.GRANULARITY.name}"


@dataclass(frozen=True, slots=True)
class Refusal:
    """A limit reached: which, why, and when to try again (seconds, for ``Retry-After``)."""

    code: str
    message: str
    retry_after: int


class RateLimits:
    """Per-client rates: ``check(kind, client)`` counts a request and says if it is refused."""

    def __init__(self, rates: dict[str, str], enabled: bool = True, storage_url: str | None = None) -> None:
        self.items = {kind: rate(text) for kind, text in rates.items()}
        self.enabled = enabled
        # In memory for a lone server; in Redis when several processes must count together.
        self._local = strategies.MovingWindowRateLimiter(storage.MemoryStorage())
        # Short timeouts: the count is read on the event loop, which must not wait long for it.
        self._shared: strategies.MovingWindowRateLimiter | None = None
        if storage_url:
            shared = storage.storage_from_string(storage_url, socket_timeout=0.5, socket_connect_timeout=0.5)
            self._shared = strategies.MovingWindowRateLimiter(shared)
        self._shared_down_until = 0.0
        self._quiet = Quiet()

    def _count(
        self, item: RateLimitItem, kind: str, client: str, hit: bool = True
    ) -> tuple[strategies.RateLimiter, bool]:
        """The limiter to count with, and whether it lets this request through (``hit=False``
        only asks, counting nothing). While Redis is away each process counts alone: a site whose
        rates cannot be read stays open, limited per process, rather than refusing everyone."""
        if self._shared is not None and time.monotonic() >= self._shared_down_until:
            try:
                count = self._shared.hit if hit else self._shared.test
                return self._shared, count(item, kind, client)
            except Exception as err:
                self._shared_down_until = time.monotonic() + 5.0  # try Redis again in a while, not every request
                if self._quiet.allow("rates"):
                    log.warning("rates: the shared count cannot be read (%s); counting in this process", err)
        return self._local, (self._local.hit if hit else self._local.test)(item, kind, client)

    def check(self, kind: str, client: str, who: str = "your address") -> Refusal | None:
        """Count one request of ``kind`` from ``client`` (an address, or a player for a rate kept
        per player; ``who`` names it in the refusal). A kind with a rate per network as well
        (``<kind>/48``: tables) also counts an IPv6 client's /48 against it."""
        network = network_key(client) if f"{kind}/48" in self.items else None
        if network is not None:
            return self.check_all((kind, client, who), (f"{kind}/48", network, "your network (an IPv6 /48)"))
        return self.check_all((kind, client, who))

    def check_all(self, *limits: tuple[str, str, str]) -> Refusal | None:
        """Count one request against several limits, each ``(kind, client, who)``, or against
        none of them: a request one limit refuses uses up nothing of the others."""
        if not self.enabled:
            return None
        if len(limits) > 1:
            for kind, client, who in limits:
                limiter, allowed = self._count(self.items[kind], kind, client, hit=False)
                if not allowed:
                    return self._refusal(limiter, kind, client, who)
        for kind, client, who in limits:
            limiter, allowed = self._count(self.items[kind], kind, client)
            if not allowed:  # another process took the last of it since the look above
                return self._refusal(limiter, kind, client, who)
        return None

    def _refusal(self, limiter: strategies.RateLimiter, kind: str, client: str, who: str) -> Refusal:
        item = self.items[kind]
        try:
            reset = limiter.get_window_stats(item, kind, client).reset_time
        except Exception:  # Redis went away between the two calls
            reset = time.time() + item.get_expiry()
        retry = max(1, math.ceil(reset - time.time()))
        message = f"too many {PLURAL.get(kind, kind + 's')} from {who}: at most {item}; try again in {retry} s"
        return Refusal("rate_limited", message, retry)


class Quiet:
    """At most so many log lines for a kind of trouble (``often``: one a second by default), so
    that a flood of bad clients, or of requests during an outage, does not flood the log:
    ``allow(kind)`` says whether to write this one, and ``left_out(kind)`` how many were not
    written since the last that was."""

    def __init__(self, often: str = "1/second") -> None:
        self._item = rate(often)
        self._limiter = strategies.FixedWindowRateLimiter(storage.MemoryStorage())
        self.suppressed = 0
        self._left_out: Counter[str] = Counter()

    def allow(self, kind: str = "log") -> bool:
        if self._limiter.hit(self._item, kind):
            return True
        self.suppressed += 1
        self._left_out[kind] += 1
        return False

    def left_out(self, kind: str = "log") -> int:
        return self._left_out.pop(kind, 0)


class QuietLog(logging.Filter):
    """A logger's records through :class:`Quiet`: at most one a second of each message (its
    format), the next one written saying how many were left out. For uvicorn's own log, which
    writes a line for each malformed request a client cares to send. Errors all go through:
    uvicorn logs every crash of a WebSocket handler with the same message, and each one's
    traceback is its own."""

    def __init__(self, quiet: Quiet | None = None) -> None:
        super().__init__()
        self.quiet = quiet or Quiet()

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.ERROR:
            return True
        kind = str(record.msg)[:100]
        if not self.quiet.allow(kind):
            return False
        left_out = self.quiet.left_out(kind)
        if left_out and isinstance(record.msg, str):
            record.msg = f"{record.msg} (and {left_out} more like it, left out)"  # no %: args apply as before
        return True


class WorkLine:
    """Costly work (replays) on ``size`` threads of its own, with up to ``waiting`` more pieces
    in line; past that, :meth:`run` raises :class:`LineFull` at once. A line rather than plain
    refusal: the players of a table that has just ended all ask for its summary at once. A
    bounded one: a flood would otherwise hold connections and memory while it waited. And one
    place a client (its key, and its IPv6 /48): a single client sending long records as fast as
    its replay rate lets it would otherwise keep the line full, and every other player's
    summaries and replays waiting or refused."""

    def __init__(self, size: int, waiting: int) -> None:
        self.size, self.waiting = size, waiting
        self.queued = 0  # running or in line
        self._holders: Counter[str] = Counter()
        self._pool = ThreadPoolExecutor(size, thread_name_prefix="goldfields-replay")

    async def run(self, work: Callable[[], T], client: str) -> T:
        holders = [client, *([net] if (net := network_key(client)) else [])]
        if any(self._holders[h] for h in holders):
            raise LineFull("a replay of yours is being computed or waits its turn")
        if self.queued >= self.size + self.waiting:
            raise LineFull(f"{self.queued} replays are being computed or wait their turn")
        self.queued += 1
        self._holders.update(holders)
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, work)
        finally:
            self.queued -= 1
            self._holders.subtract(holders)
            self._holders += Counter()  # drop the zeros

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


class LineFull(Exception):
    """A :class:`WorkLine` has no room left."""


class Sockets:
    """Open WebSockets, per client and in all."""

    def __init__(self, per_client: int, total: int) -> None:
        self.per_client = per_client
        self.total = total
        self.open: Counter[str] = Counter()
        self.networks: Counter[str] = Counter()
        """Open sockets per IPv6 /48, capped at ``per_client`` times :data:`NETWORK_FACTOR`."""

    def too_many(self) -> Refusal:
        return Refusal("too_many_sockets", f"at most {self.per_client} open connections per address", 5)

    def too_many_in_network(self) -> Refusal:
        return Refusal("too_many_sockets", f"at most {self.per_client * NETWORK_FACTOR} open connections "
                       "per network (an IPv6 /48)", 5)  # fmt: skip

    def admit(self, client: str) -> Refusal | None:
        if self.open[client] >= self.per_client:
            return self.too_many()
        network = network_key(client)
        if network is not None and self.networks[network] >= self.per_client * NETWORK_FACTOR:
            return self.too_many_in_network()
        if sum(self.open.values()) >= self.total:
            return Refusal("server_full", "the server has as many connections as it takes; try again soon", 30)
        self.open[client] += 1
        if network is not None:
            self.networks[network] += 1
        return None

    def release(self, client: str) -> None:
        self.open[client] -= 1
        if self.open[client] <= 0:
            del self.open[client]
        network = network_key(client)
        if network is not None:
            self.networks[network] -= 1
            if self.networks[network] <= 0:
                del self.networks[network]


NETWORK_FACTOR = 10
"""An IPv6 /48 may create tables, hold live tables and open sockets as much as this many /64s."""


@lru_cache(maxsize=65536)
def network_key(key: str) -> str | None:
    """The /48 an IPv6 client's key (its /64) lies in, for the limits counted per network as
    well; None for an IPv4 address (it is one client already) and any other name. One customer
    is often given a /56 or a /48, that is 256 or 65,536 /64s: counted only by its /64s, one of
    them could take every place under ``max_live_tables``. Kept: a creation reads it for every
    live table, and parsing an address costs microseconds."""
    if "/" not in key:
        return None
    try:
        net = ipaddress.IPv6Network(key, strict=False)
    except ValueError:
        return None
    return str(net.supernet(new_prefix=48)) if net.prefixlen > 48 else None


def address_key(host: str) -> str:
    """The key a client's limits are counted under: its IPv4 address, or its IPv6 /64. A home or
    a small host is given a whole /64 and may speak from any address in it, so counting each
    IPv6 address apart would let one client pass every limit (an audit's reading)."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host  # "unknown", a test client's name
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def json_depth(text: str, limit: int) -> bool:
    """Whether the JSON text nests no deeper than ``limit`` (arrays and objects), checked
    before parsing: a parser would recurse once per level, thousands deep."""
    if text.count("[") + text.count("{") <= limit:
        return True  # the usual case, counted in C
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return False
        elif ch in "]}":
            depth -= 1
    return True


def plain_text(value: Any) -> bool:
    """Whether every string in a parsed message is valid Unicode text (JSON's ``\\ud800``
    escapes can make lone surrogates, which no UTF-8 encoder accepts)."""
    if isinstance(value, str):
        try:
            value.encode()
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, dict):
        return all(plain_text(k) and plain_text(v) for k, v in value.items())
    if isinstance(value, list):
        return all(plain_text(v) for v in value)
    return True
