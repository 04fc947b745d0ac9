"""JSON bodies encoded (and compressed) once, off the event loop, and served as they are.

A replay is up to megabytes of JSON. Encoding and compressing it is CPU work that would
otherwise run on the event loop for each viewer, while every table waits.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

GZIP_FROM = 4096  # bytes: smaller bodies go as they are (as the server's GZip middleware does)


@dataclass(frozen=True, slots=True)
class Encoded:
    """A JSON body, and its gzip form when it is worth compressing."""

    body: bytes
    gzipped: bytes | None

    @classmethod
    def of(cls, data: Any) -> Encoded:
        """Encode ``data`` as FastAPI would (UTF-8, compact, no NaN): call it in a worker thread.

        A long list at the top level (a replay's frames) is encoded an item at a time: one
        call of the C encoder holds the GIL throughout, and for a game at the step cap that
        was most of a second in which the event loop, and every table, stood still."""
        body = "".join(_pieces(data)).encode()
        return cls(body, gzip.compress(body, compresslevel=6) if len(body) >= GZIP_FROM else None)

    def response(self, request: Request) -> Response:
        """The body in the form the client takes (its Content-Encoding set, so that the GZip
        middleware leaves it alone)."""
        if self.gzipped is not None and "gzip" in request.headers.get("accept-encoding", ""):
            headers = {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
            return Response(self.gzipped, media_type="application/json", headers=headers)
        return Response(self.body, media_type="application/json")


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def _pieces(data: Any) -> Iterator[str]:
    """``data`` as JSON, in pieces: the items of a long list, in a dict or alone, apart."""
    if isinstance(data, list) and len(data) > 64:
        yield "["
        for i, item in enumerate(data):
            yield ("," if i else "") + _dumps(item)
        yield "]"
    elif isinstance(data, dict) and all(isinstance(k, str) for k in data):
        yield "{"
        for i, (key, value) in enumerate(data.items()):
            yield ("," if i else "") + _dumps(key) + ":"
            yield from _pieces(value) if isinstance(value, list) else (_dumps(value),)
        yield "}"
    else:
        yield _dumps(data)
