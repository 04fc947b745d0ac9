"""JSON bodies encoded (and compressed) once, off the event loop, and served as they are.

A replay is up to megabytes of JSON. Encoding and compressing it is CPU work that would
otherwise run on the event loop for each viewer, while every table waits.
"""

from __future__ import annotations

import gzip
import json
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
        """Encode ``data`` as FastAPI would (UTF-8, compact, no NaN): call it in a worker thread."""
        body = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()
        return cls(body, gzip.compress(body, compresslevel=6) if len(body) >= GZIP_FROM else None)

    def response(self, request: Request) -> Response:
        """The body in the form the client takes (its Content-Encoding set, so that the GZip
        middleware leaves it alone)."""
        if self.gzipped is not None and "gzip" in request.headers.get("accept-encoding", ""):
            headers = {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
            return Response(self.gzipped, media_type="application/json", headers=headers)
        return Response(self.body, media_type="application/json")
