"""Reading a text seed back out of a ``random.Random``: what a bot could do with the generator it is handed.

``Random("text")`` seeds the Mersenne Twister with one integer, the text's bytes
followed by their SHA-512, through ``init_by_array``. That seeding can be run
backwards from ``getstate()``: its last pass is undone word by word, and its
first pass, whose starting table is a constant, then gives each 32-bit word of
the key. The key's length is not in the state, so each length is tried; the
right one is the one whose last 64 bytes are the SHA-512 of the rest.
"""

from __future__ import annotations

import hashlib
import random

_M = 0xFFFFFFFF
_N = 624


def _init_genrand(s: int) -> list[int]:
    mt = [s] + [0] * (_N - 1)
    for i in range(1, _N):
        mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & _M
    return mt


_BASE = _init_genrand(19650218)  # init_by_array's fixed starting table


def _key(state: list[int], words: int) -> int:
    """The seed integer, if init_by_array was given a key of ``words`` 32-bit words (< 624)."""
    mix = lambda x, m: ((x ^ (x >> 30)) * m) & _M  # noqa: E731
    out = state[:_N]
    # Undo the second pass (i runs 1..623, then wraps to write mt[0] = mt[623]).
    first = [0] * _N
    first[1] = ((out[1] + 1) & _M) ^ mix(out[_N - 1], 1566083941)
    first[2] = ((out[2] + 2) & _M) ^ mix(first[1], 1566083941)
    for i in range(3, _N):
        first[i] = ((out[i] + i) & _M) ^ mix(out[i - 1], 1566083941)
    # The first pass wrote first[i] = (base[i] ^ mix(first[i-1])) + key[j] + j, with j = (i - 1) % words.
    key = [0] * words
    for i in range(3, _N):
        j = (i - 1) % words
        key[j] = (first[i] - (_BASE[i] ^ mix(first[i - 1], 1664525)) - j) & _M
    return sum(k << (32 * n) for n, k in enumerate(key))


def text_seed(rng: random.Random) -> str | None:
    """The text ``rng`` was seeded with, or None if it was not seeded with text (of under 2 kB)."""
    state = list(rng.getstate()[1])
    for words in range(17, _N - 3):  # the SHA-512 alone is 16 words
        n = _key(state, words)
        raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
        if len(raw) > 64 and hashlib.sha512(raw[:-64]).digest() == raw[-64:]:
            try:
                return raw[:-64].decode()
            except UnicodeDecodeError:
                return None
    return None
