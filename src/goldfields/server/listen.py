"""The sockets ``goldfields serve`` listens on: every address its host name stands for.

A name often stands for several addresses: ``localhost`` for 127.0.0.1 and
::1, a machine's name for its IPv4 and IPv6 addresses. Browsers differ in
which they try first, and some try only one, so listening on the first
address alone leaves the others' visitors refused. The sockets are made here,
before the app starts, so that a port in use is one clear error rather than a
promise of an address followed by uvicorn's traceback.

This module uses only the standard library: the command line binds before it
imports the server's libraries.
"""

from __future__ import annotations

import errno
import socket
from dataclasses import dataclass, field

BACKLOG = 2048

# Errors that say this machine has no such address (an IPv6 loopback in a container without
# IPv6, say): another of the name's addresses may still serve. Anything else (a port in use,
# a port reserved for root) is an error for the whole name.
_ABSENT = frozenset({errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT, errno.EPROTONOSUPPORT})

_LOOPBACKS = ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1"))

_TRIES = 5
"""Fresh ports to try for ``--port 0`` when the port the system gave one address is taken on another."""


class ListenError(Exception):
    """No socket could be listened on; the message says where and why, in one line."""


@dataclass
class Listening:
    """The listening sockets, one per address, all on one port."""

    sockets: list[socket.socket]
    skipped: list[str] = field(default_factory=list)
    """Addresses the name stands for that this machine does not have, each with the reason."""

    @property
    def port(self) -> int:
        return int(self.sockets[0].getsockname()[1])

    def addresses(self) -> list[str]:
        """``127.0.0.1:8000``, ``[::1]:8000``: each address listened on, as a URL writes it."""
        return [endpoint(s.getsockname()[0], s.getsockname()[1]) for s in self.sockets]

    def described(self) -> str:
        """``127.0.0.1:8000 and [::1]:8000``."""
        shown = self.addresses()
        return " and ".join(filter(None, [", ".join(shown[:-1]), shown[-1]]))

    def close(self) -> None:
        for sock in self.sockets:
            sock.close()


def endpoint(address: str, port: int) -> str:
    """An address and port as a URL writes them: IPv6 addresses in brackets."""
    return f"[{address}]:{port}" if ":" in address else f"{address}:{port}"


def is_loopback_name(host: str) -> bool:
    """``localhost`` and the names under it always mean this machine's loopback (RFC 6761), and
    browsers resolve them so themselves, to ::1 as readily as to 127.0.0.1, whatever
    /etc/hosts lists."""
    name = host.lower().rstrip(".")
    return name == "localhost" or name.endswith(".localhost")


def _candidates(host: str, port: int) -> list[tuple[socket.AddressFamily, str]]:
    """The addresses ``host`` stands for, without repeats, in the resolver's order."""
    try:
        found = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as err:
        raise ListenError(f"cannot listen on {endpoint(host, port)}: {err.strerror or err}") from None
    out: list[tuple[socket.AddressFamily, str]] = []
    for family, _kind, _proto, _name, address in found:
        if family in (socket.AF_INET, socket.AF_INET6) and (family, address[0]) not in out:
            out.append((family, str(address[0])))
    if is_loopback_name(host):
        out += [loopback for loopback in _LOOPBACKS if loopback not in out]
    return out


def give_up_after(sock: socket.socket, seconds: float | None) -> bool:
    """Have the system drop a connection whose peer acknowledges none of the data sent to it for
    ``seconds`` (``TCP_USER_TIMEOUT``; on a listening socket, every connection it accepts).
    Without it, a client that stops reading holds its connection for as long as it likes: a
    server closing it must wait for its data to be taken. False where the system has no such
    option (it is Linux's)."""
    option = getattr(socket, "TCP_USER_TIMEOUT", None)
    if seconds is None or option is None:
        return False
    sock.setsockopt(socket.IPPROTO_TCP, option, max(1, round(seconds * 1000)))
    return True


def _bind(
    family: socket.AddressFamily, address: str, port: int, several: bool, send_timeout: float | None
) -> socket.socket:
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        give_up_after(sock, send_timeout)
        if family == socket.AF_INET6 and several:
            # Beside an IPv4 socket on the same port, an IPv6 one must not claim IPv4 too
            # (Linux's default for "::"), or the second bind finds the port taken.
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind((address, port))
        # Listening at once: a browser opened on "serving at" waits in the backlog for uvicorn
        # rather than being refused while the app starts.
        sock.listen(BACKLOG)
    except OSError:
        sock.close()
        raise
    return sock


def listen(host: str, port: int, send_timeout: float | None = None) -> Listening:
    """Listen at ``port`` on every address ``host`` stands for (``port`` 0: one free port, the
    same on every address). Addresses this machine does not have are skipped and named in
    :attr:`Listening.skipped`; :class:`ListenError` when none can be listened on, or when one
    cannot for another reason, such as the port being in use there. With ``send_timeout``, the
    connections accepted are dropped by the system when their peer takes no data for that
    many seconds (:func:`give_up_after`)."""
    candidates = _candidates(host, port)
    if not candidates:
        raise ListenError(f"cannot listen on {endpoint(host, port)}: the name stands for no IP address")
    several = len(candidates) > 1
    for _ in range(_TRIES):
        bound: list[socket.socket] = []
        skipped: list[str] = []
        taken = port
        retry = False
        for family, address in candidates:
            try:
                sock = _bind(family, address, taken, several, send_timeout)
            except OSError as err:
                where, why = endpoint(address, taken), err.strerror or str(err)
                if err.errno in _ABSENT:
                    skipped.append(f"{where}: {why}")
                    continue
                for sock in bound:
                    sock.close()
                if port == 0 and bound and err.errno == errno.EADDRINUSE:
                    retry = True  # the free port given for one address is taken on another: ask again
                    break
                raise ListenError(f"cannot listen on {where}: {why}") from None
            bound.append(sock)
            taken = sock.getsockname()[1]
        if retry:
            continue
        if not bound:
            if len(skipped) == 1:
                raise ListenError(f"cannot listen on {skipped[0]}")
            raise ListenError(f"cannot listen on {endpoint(host, port)}: " + "; ".join(skipped))
        return Listening(bound, skipped)
    raise ListenError(f"cannot listen on {host}: no port was free on all of {len(candidates)} addresses")
