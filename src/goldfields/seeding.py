"""Generators seeded from text that must stay hidden from whoever holds them.

Python seeds ``random.Random("text")`` with one integer made of the text's bytes
and their SHA-512, and the Mersenne Twister's seeding can be run backwards: a
generator's ``getstate()`` gives that integer, and so the text, back. A bot
handed ``Random(f"{secret}:bot:{n}")`` could read the secret out of it, and with
it every deal and roll still to come.

So a seed that names something a seat may not know (a table's secret, a run's
seed and deal) goes through a one-way digest first: the generator then gives
back only the digest.
"""

from __future__ import annotations

import hashlib
import random


def sealed_seed(text: str) -> int:
    """A 256-bit seed that stands for ``text`` and cannot be turned back into it."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest(), "big")


def sealed_rng(text: str) -> random.Random:
    """A generator seeded with :func:`sealed_seed` of ``text``."""
    return random.Random(sealed_seed(text))
