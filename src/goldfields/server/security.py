"""What every HTTP response carries, and what no request may exceed, as ASGI middleware.

Pure ASGI rather than Starlette's ``BaseHTTPMiddleware``: these run on every
request and WebSocket of a busy server, and must not read a body they are
about to refuse.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, Mapping, MutableMapping
from typing import Any
from urllib.parse import urlsplit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# The browser client loads only its own files and talks only to its own server.
# 'self' for connect-src covers same-origin ws:/wss: in current browsers.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    # Table links carry a seat's token in the fragment, which is never sent; the path and
    # query are not secret either, but nothing about a table needs to reach another site.
    (b"referrer-policy", b"no-referrer"),
]


class SecurityHeaders:
    """Adds :data:`HEADERS` to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


class BodyLimit:
    """Refuses a request body over ``max_bytes`` with 413, before reading it: at once when
    ``Content-Length`` says so, else as soon as the streamed body passes the limit.
    ``wider`` gives a few paths a limit of their own (a game record to replay is larger
    than any other request)."""

    def __init__(self, app: ASGIApp, max_bytes: int, wider: Mapping[str, int] | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.wider = dict(wider or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limit = self.wider.get(scope["path"], self.max_bytes)
        length = dict(scope["headers"]).get(b"content-length")
        try:
            declared = int(length) if length is not None else None
        except ValueError:
            declared = None
        if declared is not None and declared > limit:
            return await self._refuse(send, limit)
        seen = 0
        started = refused = False

        async def counting_receive() -> Message:
            nonlocal seen, refused
            message = await receive()
            if message["type"] == "http.request" and not started:
                seen += len(message.get("body", b""))
                if seen > limit:
                    # Answer now, and tell the app the client is gone: it stops reading,
                    # and whatever it would answer is dropped below.
                    refused = True
                    await self._refuse(send, limit)
                    return {"type": "http.disconnect"}
            return message

        async def watching_send(message: Message) -> None:
            nonlocal started
            if refused:
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        await self.app(scope, counting_receive, watching_send)

    async def _refuse(self, send: Send, limit: int) -> None:
        body = json.dumps(
            {"code": "too_large", "message": f"request bodies are limited to {limit} bytes"}
        ).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        # The unread body is not drained: the server closes the connection after this answer.
        headers.append((b"connection", b"close"))
        await send({"type": "http.response.start", "status": 413, "headers": [*headers, *HEADERS]})
        await send({"type": "http.response.body", "body": body})


def origin_allowed(headers: Iterable[tuple[bytes, bytes]], allowed: Iterable[str]) -> bool:
    """Whether a WebSocket handshake may proceed: no ``Origin`` (not a browser), an origin
    on the same host as the request, or one of the ``allowed`` origins. A page on another
    site must not drive a player's browser into their table (cross-site WebSocket hijacking)."""
    h = {k.lower(): v.decode("latin-1") for k, v in headers}
    origin = h.get(b"origin")
    if origin is None:
        return True
    allowed = set(allowed)
    if "*" in allowed or origin in allowed:
        return True
    return urlsplit(origin).netloc.lower() == h.get(b"host", "").lower()
