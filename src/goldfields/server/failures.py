"""Unexpected failures (a database that went away, a bug): a clean answer to the client, and a
log that tells each kind of failure once a minute rather than once a request.

During an outage every request fails alike. A traceback each time would bury the log (and
fill the disk) at the rate strangers send requests; the first one says all there is, and the
next one of that kind counts those left out in between.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from starlette.requests import ClientDisconnect

from .limits import Quiet
from .security import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("goldfields.server")

SERVER_ERROR = {"code": "server", "message": "the server could not do that just now; nothing changed, try again"}


def failures_log() -> Quiet:
    """The :class:`Quiet` that failures are logged through: each kind once a minute."""
    return Quiet("1/minute")


def log_failure(quiet: Quiet, kind: str, message: str, *args: Any) -> None:
    """Log ``message`` with the exception being handled, unless ``kind`` was logged this minute."""
    if quiet.allow(kind):
        if left_out := quiet.left_out(kind):
            message += f" (and {left_out} more like it before, not logged)"
        log.exception(message, *args)


class Failures:
    """Answers an HTTP request that failed unexpectedly with ``500`` and a JSON problem, as the
    API answers every other error, and logs it through :func:`log_failure`, one kind a route
    and exception. A failure after the response began goes on to the server, which can only
    drop the connection."""

    def __init__(self, app: ASGIApp, quiet: Quiet) -> None:
        self.app = app
        self.quiet = quiet

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started = False

        async def watch(message: Message) -> None:
            nonlocal started
            started |= message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watch)
        except ClientDisconnect:
            return  # the client left while sending its body: nobody to answer, nothing failed here
        except Exception as err:
            if started:
                raise
            where = getattr(scope.get("route"), "path", None) or scope["path"]
            log_failure(self.quiet, f"{where} {type(err).__name__}", "%s %s failed", scope["method"], where)
            body = json.dumps(SERVER_ERROR).encode()
            headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
            await send({"type": "http.response.start", "status": 500, "headers": headers})
            await send({"type": "http.response.body", "body": body})
