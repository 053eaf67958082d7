"""The deal's randomness: a stream derived from the game's secret seed.

Everything random in a game comes from ``SeededStream(seed, label)``: SHA-256 over the seed,
the label and a counter, read as 64-bit numbers, with rejection sampling so every shuffle is
exactly uniform. The algorithm is simple on purpose, so anyone with the revealed seed can
re-derive a deal in any language and check it against the commitment ``sha256(seed)``.

>>> deal = SeededStream(b"x" * 32, "round 1").shuffled(range(10))
>>> deal == SeededStream(b"x" * 32, "round 1").shuffled(range(10)), sorted(deal) == list(range(10))
(True, True)
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def commitment(seed: bytes) -> str:
    """The published SHA-256 of the seed, in hex."""
    return hashlib.sha256(seed).hexdigest()


class SeededStream:
    """A deterministic stream of uniform choices."""

    def __init__(self, seed: bytes, label: str) -> None:
        self._key = hashlib.sha256(seed + b"\x00" + label.encode()).digest()
        self._counter = 0
        self._buffer: list[int] = []

    def _next64(self) -> int:
        if not self._buffer:
            block = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            self._buffer = [int.from_bytes(block[i : i + 8], "big") for i in range(0, 32, 8)]
        return self._buffer.pop(0)

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1``."""
        limit = (1 << 64) - (1 << 64) % n
        while True:
            value = self._next64()
            if value < limit:
                return value % n

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A Fisher-Yates shuffle of ``items``."""
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.below(i + 1)
            result[i], result[j] = result[j], result[i]
        return result
