"""JSON bodies encoded (and compressed) once, off the event loop, and served as they are.

A replay is up to megabytes of JSON. Encoding and compressing it is CPU work that would
otherwise run on the event loop for each viewer, while every table waits.
"""

from __future__ import annotations

import gzip
import json
from collections import OrderedDict
from collections.abc import Hashable, Iterator
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

    @property
    def size(self) -> int:
        """Bytes held: the body and its gzip form."""
        return len(self.body) + (len(self.gzipped) if self.gzipped is not None else 0)

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


class Kept:
    """Finished games' computed answers (replays, summaries), the most recently used kept: at
    most ``items`` of them and ``max_bytes`` of encoded bodies. Counted in bytes too, since one
    replay at the step cap holds about 11 MB (its body and its gzip form): sixteen of them, which
    one client may ask for within its replay rate, would hold 170 MB."""

    def __init__(self, items: int, max_bytes: int) -> None:
        self.items = items
        self.max_bytes = max_bytes
        self._kept: OrderedDict[Hashable, Any] = OrderedDict()
        self.bytes = 0

    def __contains__(self, key: Hashable) -> bool:
        return key in self._kept

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, key: Hashable) -> Any:
        self._kept.move_to_end(key)
        return self._kept[key]

    def put(self, key: Hashable, value: Any) -> None:
        if key in self._kept:
            self.bytes -= _size(self._kept.pop(key))
        self._kept[key] = value
        self.bytes += _size(value)
        while len(self._kept) > 1 and (len(self._kept) > self.items or self.bytes > self.max_bytes):
            self.bytes -= _size(self._kept.popitem(last=False)[1])


def _size(value: Any) -> int:
    """An answer's bytes: an encoded body's; a small answer (a summary's dict) counts as none."""
    return value.size if isinstance(value, Encoded) else 0
